"""`python -m bot.texts_extract`: rebuild `messages.pot` and add new messages to every PO file.

The template holds (1) every literal given to `t`, `tr`, `tn` or `trn` in the bot's code,
found by babel's Python extractor, and (2) every name, description and choice of the slash
command tree as `build_groups()` makes it (those strings are plain English in the code and
plugins; discord.py hands them to our Translator at sync). A test rebuilds the template in
memory and fails when the file in the repository is out of date, so a new message cannot
slip in without a French text.

A build tool at the top of the `bot` package: it reads the command tree (the Discord layer) and
the engines' refusals (`bot.refusals`), so it sits above them; `bot.i18n`, which every layer
uses, imports nothing of the bot.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

from bot import i18n

ROOT = Path(__file__).resolve().parent  # the `bot` package
KEYWORDS = {"t": (1,), "tr": (1,), "tn": (1, 2), "trn": (1, 2), "N_": (1,)}
# (command, name) pairs whose French differs from the same English name elsewhere in the tree
# ("new" opens a lobby but names the new member in /games replace; "to" is a destination in
# /nauticus but the end of quiet hours in /settings quiet).
NAME_OVERRIDES = (("games replace", "new"), ("settings quiet", "to"))


# The words the pictures draw (render/words.py): render never imports bot, so it has its own.
RENDER = ROOT.parent / "render"
RENDER_KEYWORDS: dict[str, Any] = {"w": (1,), "wn": (1, 2), "w_": (1,), "wc": ((1, "c"), 2)}


def code_messages() -> list[tuple[str | tuple[str, str], str, str | None]]:
    """(msgid or (singular, plural), 'file:line') of every catalogue call in bot/ and of every
    picture word in render/."""
    out: list[tuple[str | tuple[str, str], str, str | None]] = []
    sources = [(p, KEYWORDS) for p in sorted(ROOT.rglob("*.py"))]
    sources += [(p, RENDER_KEYWORDS) for p in sorted(RENDER.rglob("*.py"))]
    for path, keywords in sources:
        own = path.parent == ROOT / "i18n" or path.resolve() == Path(__file__).resolve()
        own = own or path == RENDER / "words.py"
        if own:
            continue  # the catalogues' own definitions
        for _lineno, message, _comments, context in extract_from_file(
            "python", str(path), keywords=keywords
        ):
            where = str(path.relative_to(ROOT.parent))  # no line: edits elsewhere stay quiet
            if isinstance(message, tuple):
                out.append(((str(message[0]), str(message[1])), where, context))
            else:
                out.append((str(message), where, context))
    return out


def template() -> Catalog:
    """The catalogue of every message, without translations."""
    # Imported here: the command tree needs discord.py, the rest of bot.i18n does not.
    from bot.discord_app.commands import build_groups
    from bot.discord_app.translator import tree_strings

    cat = Catalog(project="nauticus-bot", fuzzy=False)
    for msgid, where, context in code_messages():
        if cat.get(msgid[0] if isinstance(msgid, tuple) else msgid, context=context) is None:
            cat.add(msgid, context=context, auto_comments=[where])
    for s in tree_strings(build_groups()):
        if s.context is None and cat.get(s.text) is not None:
            continue  # the same text elsewhere in the tree
        if s.context is not None and cat.get(s.text, context=s.context) is not None:
            continue
        cat.add(s.text, context=s.context, auto_comments=[f"{s.kind} {s.where}"])
    # The engines' refusals, as templates (bot/refusals.py).
    from bot import refusals

    for msgid, where, sources in refusals.engine_templates():
        note = [where] + ([f"{{{i}}} = {src}" for i, src in enumerate(sources)] if sources else [])
        if cat.get(msgid, context=refusals.CONTEXT) is None:
            cat.add(msgid, context=refusals.CONTEXT, auto_comments=note)
    for command, name in NAME_OVERRIDES:
        cat.add(name, context=f"{i18n.NAME}:{command}", auto_comments=[f"name /{command} {name}"])
    return cat


def render(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, include_lineno=False, ignore_obsolete=True)
    return buf.getvalue()


def main() -> None:
    pot = template()
    i18n.TEMPLATE.write_bytes(render(pot))
    for locale in i18n.TRANSLATED:
        path = i18n.po_path(locale)
        cat = i18n.read_catalog(path, locale) if path.exists() else Catalog(locale=locale)
        # Keeps every translation whose English is unchanged, adds the new messages empty.
        cat.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        path.write_bytes(render(cat))
    print(f"{len(pot)} messages in {i18n.TEMPLATE.name}")


if __name__ == "__main__":
    main()
