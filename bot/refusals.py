"""The engines' refusals (`engine.errors.IllegalMove`) in the member's language.

An engine is pure and English: it raises `IllegalMove(code, message)` with a sentence that
names the bad value and what is allowed. To say it in French without teaching the engines a
language, `python -m bot.texts_extract` reads every literal or f-string message of every
`IllegalMove(...)` in `engine/` and puts it in the catalogue as a template under the msgctxt
`refusal`: each `{expression}` of the f-string becomes a numbered field (`{0}`, `{1}`, …) and
the expression itself goes into the entry's comment for the translator. At run time the English
sentence of a refusal is matched against those templates; the values found in it are put into
the French template. A message no template matches (one the engine builds in pieces) is shown
in English, as before.

The values are the engine's too, and many are words ("Helm mast", "clothing, food", "buy or
end your turn"). Each game plugin may offer `refusal_words()`: the engine's English words and
phrases mapped to the context's language. Every value is said with those words before it goes
into the template, except text in quotes: that is what the member typed, and it is quoted back
as typed.
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


def _template(node: ast.expr, *, part: bool = False) -> tuple[str, list[str]] | None:
    """A message expression as a template with numbered fields, and the fields' sources.

    Literal strings, f-strings and their sums are read; any other expression added into a
    message (`+ ("has already been played" if flipped else "does not exist") +`) is one field.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    if isinstance(node, ast.JoinedStr):
        text, sources = "", list[str]()
        for piece in node.values:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                text += piece.value.replace("{", "{{").replace("}", "}}")
            elif isinstance(piece, ast.FormattedValue):
                text += "{" + str(len(sources)) + "}"
                sources.append(ast.unparse(piece.value))
            else:
                return None
        return text, sources
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left, part=True), _template(node.right, part=True)
        if left is None or right is None:
            return None
        shift = len(left[1])
        renumbered = re.sub(
            r"(?<!\{)\{(\d+)\}(?!\})", lambda m: "{" + str(int(m[1]) + shift) + "}", right[0]
        )
        return left[0] + renumbered, left[1] + right[1]
    if part:
        return "{0}", [ast.unparse(node)]
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
        yield from _reasons(tree, path.relative_to(root.parent))


def _reasons(tree: ast.Module, where: Path) -> Iterator[tuple[str, str, list[str]]]:
    """The clauses an engine picks before it raises: `code, why = ("bad", f"The {x} …")`.

    A refusal such as "{why}; the moves are: {choices}." quotes one of them whole; as templates
    of their own they are said in the member's language too (`say_value` matches each value
    against the templates before it looks up words).
    """
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)):
            continue
        names = [getattr(t, "id", "") for t in target.elts]
        if not {"code", "why"} <= set(names) or len(names) != len(value.elts):
            continue
        found = _template(value.elts[names.index("why")])
        if found is None or not found[0].strip("{}0123456789 "):
            continue
        code = value.elts[names.index("code")]
        said = str(code.value) if isinstance(code, ast.Constant) else "?"
        yield found[0], f"{where}: {said} (reason)", found[1]


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


# A quote opens where no letter precedes it ("the diving module's player" holds none).
_QUOTED = re.compile(r"""((?<!\w)'(?:[^'\\]|\\.)*'(?!\w)|(?<!\w)"(?:[^"\\]|\\.)*"(?!\w))""")


def glossary(locale: str) -> dict[str, str]:
    """The engines' words in `locale`, from every installed game's `refusal_words()`.

    Two games may name the same English word; they must then say it alike (a test holds the
    installed games to that), and the first game's word is kept.
    """
    from bot.games import GAMES  # the registry imports the games; loaded only when needed

    out: dict[str, str] = {}
    with i18n.use(locale):
        for plugin in GAMES:
            for english, said in plugin.refusal_words().items():
                if english != said:
                    out.setdefault(english, said)
    return out


@cache
def _wording(locale: str, games: int) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """One regex of every glossary phrase, longest first, matched as whole words only."""
    words = glossary(locale)
    if not words:
        return None
    keys = sorted(words, key=lambda k: (-len(k), k))
    # A phrase starting or ending with a letter must start or end a word there ("Crown" is
    # not the start of "Crowns"); "ship #" goes on into its number.
    alternation = "|".join(
        ("(?<!\\w)" if k[:1].isalnum() else "")
        + re.escape(k)
        + ("(?!\\w)" if k[-1:].isalnum() else "")
        for k in keys
    )
    return re.compile(alternation), words


def say_value(value: str, locale: str) -> str:
    """An engine's value in a refusal, its words said in `locale`; quoted text is kept."""
    from bot.games import GAMES

    wording = _wording(locale, len(GAMES))
    if wording is None:
        return value
    regex, words = wording
    whole = _whole(value, locale)
    if whole is not None:
        return whole
    parts = _QUOTED.split(value)
    # Odd parts are the quoted ones (the split keeps its group): the member's own text.
    return "".join(
        part if i % 2 else regex.sub(lambda m: words[m[0]], part) for i, part in enumerate(parts)
    )


def _whole(english: str, lang: str) -> str | None:
    """`english` said by the first template it matches whole, else None."""
    for regex, translated in _patterns(lang):
        m = regex.match(english)
        if m is not None:
            values = [say_value(m.group(f"f{i}"), lang) for i in range(len(m.groupdict()))]
            try:
                said = translated.format(*values)
            except (IndexError, KeyError, ValueError):
                return None
            # A sentence that opens with a value ("mât Tour coûte…") opens with a capital.
            return said[:1].upper() + said[1:]
    return None


def text(exc: IllegalMove, locale: str | None = None) -> str:
    """The refusal in `locale` (default: the interaction's), else its English."""
    english = str(exc)
    said = _whole(english, i18n.normalize(locale or i18n.current()))
    return english if said is None else said
