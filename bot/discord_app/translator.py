"""The command tree in French: discord.py's `Translator` over the message catalogue.

discord.py marks every command, option and choice string of the tree as a `locale_str` by
itself (`auto_locale_strings`), so `commands.py` keeps plain English strings; at sync the
library asks `translate` for each string and locale and sends the answers as Discord's
`name_localizations` / `description_localizations`. Discord then shows each member the
command picker in their client's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import i18n

_NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def locale_of(itx: discord.Interaction[Any]) -> str:
    """The language to answer a member in: their Discord client's, else English.

    Only a real `discord.Locale` counts (a test double's attribute is not one).
    """
    locale = getattr(itx, "locale", None)
    return i18n.normalize(locale.value) if isinstance(locale, discord.Locale) else i18n.ENGLISH


def channel_locale_of(itx: discord.Interaction[Any]) -> str:
    """The language of the posts of a game opened by this interaction: a Community server's
    primary language (Discord reports `guild_locale` for those; other servers always say
    en-US, which means nothing), else the language of the member who opens the lobby."""
    guild = getattr(itx, "guild", None)
    features = getattr(guild, "features", None) or ()
    guild_locale = getattr(itx, "guild_locale", None)
    if "COMMUNITY" in features and isinstance(guild_locale, discord.Locale):
        return i18n.normalize(guild_locale.value)
    return locale_of(itx)


def _command_of(context: app_commands.TranslationContextTypes) -> str | None:
    """The qualified command a name belongs to (for a per-command name override)."""
    data = context.data
    if context.location is Where.parameter_name and isinstance(data, app_commands.Parameter):
        return data.command.qualified_name
    return None


class CatalogueTranslator(app_commands.Translator):
    """French names, descriptions and choices from `fr.po`; None (Discord shows English)
    for every other locale and for any string the catalogue lacks."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = i18n.normalize(locale.value)
        if code == i18n.ENGLISH:
            return None
        if context.location in _NAMES:
            return i18n.name(string.message, code, _command_of(context))
        cat = i18n.catalogue(code)
        return cat.get(string.message) if cat else None


@dataclass(frozen=True, slots=True)
class TreeString:
    """One translatable string of the command tree."""

    context: str | None  # i18n.NAME (or NAME:command) for names, None for display text
    text: str
    where: str  # "/games stats member", for messages and the catalogue's comments
    kind: str  # "name", "description" or "choice"


def tree_strings(groups: Iterable[app_commands.Group]) -> Iterator[TreeString]:
    """Every name, description and choice name of the groups, in tree order."""
    for group in groups:
        yield TreeString(i18n.NAME, group.name, f"/{group.name}", "name")
        yield TreeString(None, group.description, f"/{group.name}", "description")
        for cmd in group.commands:
            assert isinstance(cmd, app_commands.Command)
            path = f"/{cmd.qualified_name}"
            yield TreeString(i18n.NAME, cmd.name, path, "name")
            yield TreeString(None, cmd.description, path, "description")
            for p in cmd.parameters:
                where = f"{path} {p.display_name}"
                yield TreeString(i18n.NAME, p.display_name, where, "name")
                yield TreeString(None, str(p.description), where, "description")
                for choice in p.choices:
                    yield TreeString(None, choice.name, where, "choice")
