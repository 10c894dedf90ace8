"""The engines' refusals (`engine.errors.IllegalMove`) in the member's language.

An engine is pure and English: it raises `IllegalMove(code, message)` with a sentence that
names the bad value and what is allowed. To say it in French without teaching the engines a
language, `python -m bot.i18n.extract` reads every literal or f-string message of every
`IllegalMove(...)` in `engine/` and puts it in the catalogue as a template under the msgctxt
`refusal`: each `{expression}` of the f-string becomes a numbered field (`{0}`, `{1}`, …) and
the expression itself goes into the entry's comment for the translator. At run time the English
sentence of a refusal is matched against those templates; the values found in it are put into
the French template. A message no template matches (one the engine builds in pieces) is shown
in English, as before.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from bot import i18n
from engine.errors import IllegalMove

CONTEXT = "refusal"
ENGINE = Path(__file__).resolve().parents[1] / "engine"


def _template(node: ast.expr) -> tuple[str, list[str]] | None:
    """A message expression as a template with numbered fields, and the fields' sources."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    if isinstance(node, ast.JoinedStr):
        text, sources = "", list[str]()
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value.replace("{", "{{").replace("}", "}}")
            elif isinstance(part, ast.FormattedValue):
                text += "{" + str(len(sources)) + "}"
                sources.append(ast.unparse(part.value))
            else:
                return None
        return text, sources
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        if left is None or right is None:
            return None
        shift = len(left[1])
        renumbered = re.sub(
            r"(?<!\{)\{(\d+)\}(?!\})", lambda m: "{" + str(int(m[1]) + shift) + "}", right[0]
        )
        return left[0] + renumbered, left[1] + right[1]
    return None


def engine_templates(root: Path = ENGINE) -> Iterator[tuple[str, str, list[str]]]:
    """(template, 'file: code', field sources) of every literal refusal message in `root`."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            if len(node.args) < 2:
                continue
            found = _template(node.args[1])
            if found is None or not found[0].strip("{}0123456789 "):
                continue
            first = node.args[0]
            code = str(first.value) if isinstance(first, ast.Constant) else "?"
            where = f"{path.relative_to(root.parent)}: {code}"
            yield found[0], where, found[1]


@cache
def _patterns(locale: str) -> list[tuple[re.Pattern[str], str]]:
    """(regex of an English template, its translation) for a locale, most specific first."""
    cat = i18n.catalogue(locale)
    if cat is None:
        return []
    out = []
    for (context, msgid), entry in cat.entries.items():
        if context != CONTEXT:
            continue
        parts = re.split(r"(\{\d+\})", msgid.replace("{{", "\x00").replace("}}", "\x01"))
        regex = ""
        for part in parts:
            field = re.fullmatch(r"\{(\d+)\}", part)
            if field:
                regex += f"(?P<f{field[1]}>.*?)"
            else:
                regex += re.escape(part.replace("\x00", "{").replace("\x01", "}"))
        out.append((re.compile(regex + r"\Z", re.DOTALL), entry.translations[0]))
    # Longer literal text first: a specific template wins over a general one.
    out.sort(key=lambda p: -len(re.sub(r"\(\?P<f\d+>\.\*\?\)", "", p[0].pattern)))
    return out


def text(exc: IllegalMove, locale: str | None = None) -> str:
    """The refusal in `locale` (default: the interaction's), else its English."""
    english = str(exc)
    for regex, translated in _patterns(i18n.normalize(locale or i18n.current())):
        m = regex.match(english)
        if m is not None:
            values = [m.group(f"f{i}") for i in range(len(m.groupdict()))]
            try:
                return translated.format(*values)
            except (IndexError, KeyError, ValueError):
                return english
    return english
