"""English and French: the catalogue is complete, the command tree has valid French names, and
replies follow the member's Discord language."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot import i18n
from bot import texts_extract as extract
from bot.discord_app import commands
from bot.discord_app.app import GameApp
from bot.discord_app.client import GameClient
from bot.discord_app.translator import CatalogueTranslator, locale_of
from bot.service import GameService
from bot.store import Store
from tests.bot.test_discord_support import fake_itx

SCHEMA = Path(__file__).parent / "data" / "discord_commands.json"
# Discord's rule for command and option names, `^[-_\p{L}\p{N}]{1,32}$`, lowercase: Python's
# `\w` is letters, digits and underscore in Unicode.
NAME = re.compile(r"^[-\w]{1,32}$")


def _key(message: Any) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return message.context, msgid


def _ids(cat: Any) -> set[tuple[str | None, str]]:
    return {_key(m) for m in cat if m.id}


# --- the catalogue -------------------------------------------------------------------------------


def test_the_template_in_the_repository_lists_every_message_of_the_code_and_tree() -> None:
    # Run `python -m bot.texts_extract` after adding or changing a text, then translate it.
    on_disk = _ids(i18n.read_catalog(i18n.TEMPLATE))
    assert _ids(extract.template()) == on_disk
    # A sample from each source, so an extractor that finds nothing cannot pass.
    assert (None, "You joined the lobby.") in on_disk  # a tr() call in app.py
    assert ("name", "leaderboard") in on_disk  # a subcommand name of the tree
    assert (
        None,
        "Diving module: keep one of the two divers drawn; the other goes back on the deck",
    ) in on_disk
    assert (None, "{n} game") in on_disk  # a plural


@pytest.mark.parametrize("locale", i18n.TRANSLATED)
def test_every_message_has_a_translation_with_the_same_placeholders(locale: str) -> None:
    template = i18n.read_catalog(i18n.TEMPLATE)
    translated = {_key(m): m for m in i18n.read_catalog(i18n.po_path(locale), locale) if m.id}
    problems = []
    for message in template:
        if not message.id:
            continue
        found = translated.get(_key(message))
        strings = () if found is None else found.string
        strings = strings if isinstance(strings, tuple) else (strings,)
        if found is None or found.fuzzy or not strings or not all(strings):
            problems.append(f"no {locale} text: {_key(message)}")
            continue
        forms = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = i18n.placeholders(forms[0])
        for text in strings:
            if i18n.placeholders(text) != wanted:
                problems.append(f"placeholders {i18n.placeholders(text)} != {wanted}: {text!r}")
    assert not problems, "\n".join(problems)


def test_a_missing_or_broken_translation_is_caught(tmp_path: Path) -> None:
    # The completeness check above, run on a damaged copy, must find both faults.
    text = i18n.po_path("fr").read_text(encoding="utf-8")
    text = text.replace('msgstr "Vous avez rejoint le salon d\'attente."', 'msgstr ""')
    text = text.replace("Rien à sauter\u202f: la partie est terminée.", "{oops}")
    broken = tmp_path / "fr.po"
    broken.write_text(text, encoding="utf-8")
    cat = {_key(m): m for m in i18n.read_catalog(broken, "fr") if m.id}
    assert cat[(None, "You joined the lobby.")].string == ""
    oops = cat[(None, "Nothing to skip: the game is over.")].string
    assert i18n.placeholders(oops) != i18n.placeholders("Nothing to skip: the game is over.")


def test_t_translates_fills_placeholders_and_falls_back_to_english() -> None:
    msg = "{name} took a seat in the lobby."
    assert i18n.t(msg, "fr", name="Ana") == "Ana a pris place dans le salon d'attente."
    assert i18n.t(msg, "en", name="Ana") == "Ana took a seat in the lobby."
    assert i18n.t(msg, "de", name="Ana") == "Ana took a seat in the lobby."  # no German yet
    assert i18n.t("A text nobody translated", "fr") == "A text nobody translated"


def test_plurals_follow_each_languages_rule() -> None:
    # French counts 0 and 1 as singular, English only 1.
    assert [i18n.tn("{n} game", "{n} games", n, "fr") for n in (0, 1, 2)] == [
        "0 partie",
        "1 partie",
        "2 parties",
    ]
    assert [i18n.tn("{n} game", "{n} games", n, "en") for n in (0, 1, 2)] == [
        "0 games",
        "1 game",
        "2 games",
    ]


def test_only_french_discord_locales_get_french() -> None:
    assert i18n.normalize("fr") == "fr"
    assert i18n.normalize("en-US") == i18n.normalize("de") == i18n.normalize(None) == "en"
    itx, _ = fake_itx(None, 1, locale=discord.Locale.french)
    assert locale_of(itx) == "fr"
    plain = MagicMock(spec=discord.Interaction)  # locale left a MagicMock: English
    assert locale_of(plain) == "en"


def test_tr_uses_the_locale_of_the_block_only() -> None:
    with i18n.use("fr"):
        assert i18n.tr("No moves yet.") == "Aucun coup pour l'instant."
    assert i18n.tr("No moves yet.") == "No moves yet."


# --- the command tree ----------------------------------------------------------------------------


async def _translated_tree() -> tuple[app_commands.CommandTree[discord.Client], list[Any]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    for group in commands.build_groups():
        tree.add_command(group)
    await tree.set_translator(CatalogueTranslator())
    assert tree.translator is not None
    payloads = [await g.get_translated_payload(tree, tree.translator) for g in tree.get_commands()]
    return tree, payloads


def _check_named(node: dict[str, Any], where: str, problems: list[str]) -> None:
    fr_name = node.get("name_localizations", {}).get("fr")
    fr_desc = node.get("description_localizations", {}).get("fr")
    if not fr_name or not NAME.match(fr_name) or fr_name != fr_name.lower():
        problems.append(f"{where}: French name {fr_name!r}")
    if not fr_desc or len(fr_desc) > 100:
        problems.append(f"{where}: French description {fr_desc!r}")
    for key in ("name_localizations", "description_localizations"):
        if set(node.get(key, {})) - {"fr"}:
            problems.append(f"{where}: {key} for other locales than French")


async def test_every_command_option_and_choice_has_a_valid_french_text() -> None:
    tree, payloads = await _translated_tree()
    problems: list[str] = []
    count = 0
    for group in payloads:
        _check_named(group, group["name"], problems)
        subs = [o for o in group["options"] if o["type"] == 1]
        french = [s.get("name_localizations", {}).get("fr") for s in subs]
        if len(set(french)) != len(french):
            problems.append(f"/{group['name']}: two subcommands share a French name")
        for sub in subs:
            where = f"/{group['name']} {sub['name']}"
            _check_named(sub, where, problems)
            options = sub.get("options", [])
            names = [o.get("name_localizations", {}).get("fr") for o in options]
            if len(set(names)) != len(names):
                problems.append(f"{where}: two options share a French name {names}")
            for option in options:
                count += 1
                _check_named(option, f"{where} {option['name']}", problems)
                for choice in option.get("choices", []):
                    fr = choice.get("name_localizations", {}).get("fr")
                    if not fr or len(fr) > 100:
                        problems.append(f"{where} {option['name']}: choice {choice['name']!r}")
    assert not problems, "\n".join(problems)
    assert count > 40  # the walk saw the options
    # The English the bot dispatches on is untouched by the translator.
    import json

    assert commands.schema(tree) == json.loads(SCHEMA.read_text())


async def test_french_names_use_the_rulebooks_words() -> None:
    _, payloads = await _translated_tree()
    fr = {
        f"{g['name']} {s['name']}": s["name_localizations"]["fr"]
        for g in payloads
        for s in g["options"]
    }
    assert fr["nauticus deliver"] == "livrer"  # « Livrer des marchandises »
    assert fr["island collect"] == "recolter"  # « Récolter des objets »
    assert fr["island store"] == "stocker"
    assert fr["duel harpoon"] == "harpon"
    games = next(g for g in payloads if g["name"] == "games")
    replace = next(s for s in games["options"] if s["name"] == "replace")
    # The per-command override: the member taking a seat is « nouveau », not « nouvelle ».
    assert {o["name"]: o["name_localizations"]["fr"] for o in replace["options"]} == {
        "old": "ancien",
        "new": "nouveau",
    }
    settings = next(g for g in payloads if g["name"] == "settings")
    quiet = next(s for s in settings["options"] if s["name"] == "quiet")
    assert [o["name_localizations"]["fr"] for o in quiet["options"]] == ["debut", "fin", "fuseau"]


async def test_the_client_installs_the_translator_before_syncing() -> None:
    client = GameClient(MagicMock(), start_outbox=False)
    seen: list[object] = []

    async def sync(**_: Any) -> list[Any]:
        seen.append(client.tree.translator)
        return []

    client.tree.sync = AsyncMock(side_effect=sync)  # type: ignore[method-assign]
    await client.setup_hook()
    assert len(seen) == 1 and isinstance(seen[0], CatalogueTranslator)
    await client.close()


# --- replies -------------------------------------------------------------------------------------


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store))
    finally:
        await store.close()


async def test_replies_follow_the_members_discord_language(app: GameApp) -> None:
    itx, replies = fake_itx(app, 1, locale=discord.Locale.french)
    await app.run_command(itx, "status", {})
    assert replies.text.startswith("Aucune partie ici. Ouvrez un salon d'attente avec")
    await app.run_command(
        *fake_itx(app, 1, locale=discord.Locale.french)[:1], "new", {}, game="nauticus"
    )
    itx, replies = fake_itx(app, 1, locale=discord.Locale.french)
    await app.run_command(itx, "status", {})
    assert "Un salon d'attente de Nauticus est ouvert ici." in replies.text
    assert "(place 1)" in replies.text
    itx, replies = fake_itx(app, 1)  # the same question from an English client
    await app.run_command(itx, "status", {})
    assert "A Nauticus lobby is open here." in replies.text and "(seat 1)" in replies.text


async def test_a_refusal_to_a_french_member_is_french_and_the_next_reply_english(
    app: GameApp,
) -> None:
    itx, replies = fake_itx(app, 1, guild_id=None, locale=discord.Locale.french)
    await app.run_command(itx, "status", {})
    assert replies.text.startswith("Les parties se jouent dans un salon ou un fil d'un serveur")
    itx, replies = fake_itx(app, 1, guild_id=None)
    await app.run_command(itx, "status", {})
    assert replies.text.startswith("The games are played in a server channel or thread")
