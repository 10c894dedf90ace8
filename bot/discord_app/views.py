"""Thin discord.ui adapters: dynamic buttons and selects rebuilt from their custom ids.

Nothing here decides anything: each click goes to the app's `on_component` with the decoded
custom id (game id, state version, argument), which works the same after a restart. The views
and the command tree reach the app through `InteractionApp` only, never by importing it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

import discord

from bot import ai_seats
from bot.discord_app import ids, panel
from bot.i18n import N_, tr
from bot.plugin import Suggestion

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class InteractionApp(Protocol):
    """What the components and the command tree call on the app behind the client (the client
    attaches it as `game_app`); `GameApp` is one."""

    async def on_component(
        self, itx: discord.Interaction[Any], cid: ids.CustomId, values: Sequence[str] = ()
    ) -> None: ...

    async def run_command(
        self,
        itx: discord.Interaction[Any],
        name: str,
        options: Mapping[str, Any],
        *,
        game: str | None = None,
    ) -> None: ...

    async def autocomplete(
        self, itx: discord.Interaction[Any], command: str, option: str, current: str
    ) -> list[Suggestion]: ...

    async def units(self, itx: discord.Interaction[Any], current: str) -> list[str]: ...


def app_of(itx: discord.Interaction[Any]) -> InteractionApp:
    """The app behind the client that received the interaction."""
    return cast("InteractionApp", itx.client.game_app)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=ids.template(
        "play", "b", "ok", "lobby", "abort", "skip", "replace", "end", "snooze", "undo", "log"
    ),
):
    """Play, Pass / Extra action / End turn / Back, confirmations, lobby buttons, and the
    moderators' confirmations (abort, skip, replace)."""

    def __init__(
        self,
        cid: ids.CustomId,
        label: str = "Play",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=cid.encode()))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        cid = ids.decode(match.string)
        assert cid is not None  # the template matched
        button = cast("discord.ui.Button[Any]", item)
        return cls(cid, button.label or "", button.style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await app_of(interaction).on_component(interaction, self.cid)


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.template("w", "t", "ai")
):
    """The panel's "What do you do?" and second (destination, count, …) select menus, and the
    lobby's AI seat menu."""

    def __init__(
        self,
        cid: ids.CustomId,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=cid.encode(),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…")],
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        cid = ids.decode(match.string)
        assert cid is not None
        select = cast("discord.ui.Select[Any]", item)
        return cls(cid, select.placeholder or "", list(select.options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await app_of(interaction).on_component(interaction, self.cid, list(self.item.values))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)


def panel_view(built: panel.Panel, game_id: int, version: int) -> discord.ui.View | None:
    """The components of a panel; None when it has none (not the player's turn, game over)."""
    if not built.selects and not built.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for row, select in enumerate(built.selects):
        kind: ids.Kind = "w" if select.kind == "what" else "t"
        options = [discord.SelectOption(label=o.label, value=o.value) for o in select.options]
        view.add_item(
            GameSelect(
                ids.CustomId(kind, game_id, version, select.arg), select.placeholder, options
            )
        )
        view.children[-1].row = row
    for b in built.buttons:
        item = GameButton(ids.CustomId(b.kind, game_id, version, b.key), b.label, _STYLES[b.style])
        item.row = len(built.selects)
        view.add_item(item)
    return view


def with_undo(view: discord.ui.View | None, game_id: int, version: int) -> discord.ui.View:
    """The panel's components plus "Undo" on the last row (the player's own last move)."""
    view = view or discord.ui.View(timeout=None)
    button = GameButton(
        ids.CustomId("undo", game_id, version), tr("↩️ Undo"), discord.ButtonStyle.secondary
    )
    button.row = 4
    view.add_item(button)
    return view


def log_view(page: int, pages: int) -> discord.ui.View | None:
    """Older / Newer buttons under a page of the game log (none when it has one page)."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for label, to in ((tr("◀ Older"), page + 1), (tr("Newer ▶"), page - 1)):
        button = GameButton(
            ids.CustomId("log", 0, 0, str(to)), label, discord.ButtonStyle.secondary
        )
        button.item.disabled = not 1 <= to <= pages
        view.add_item(button)
    return view


def play_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(ids.CustomId("play", game_id, version), tr("Play")))
    return view


def lobby_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for arg, label, style in (
        ("join", tr("Join"), discord.ButtonStyle.success),
        ("leave", tr("Leave"), discord.ButtonStyle.secondary),
        ("start", tr("Start"), discord.ButtonStyle.primary),
        ("cancel", tr("Cancel"), discord.ButtonStyle.danger),
        ("seating", tr("Seating: random / join order"), discord.ButtonStyle.secondary),
        ("ai", tr("{robot} AI seats", robot=ai_seats.ROBOT), discord.ButtonStyle.secondary),
    ):
        view.add_item(GameButton(ids.CustomId("lobby", game_id, version, arg), label, style))
    return view


def reminder_view(game_id: int, version: int) -> discord.ui.View:
    """Under a reminder: Play (the panel) and Snooze (no reminder for the next hours)."""
    view = play_view(game_id, version)
    view.add_item(
        GameButton(
            ids.CustomId("snooze", game_id, version),
            tr("Snooze 8 h"),
            discord.ButtonStyle.secondary,
        )
    )
    return view


FINAL_BUTTONS = (
    ("replay", N_("Replay"), "🎞️"),
    ("rematch", N_("Rematch"), "🔁"),
    ("record", N_("Record"), "📄"),
)


def final_view(game_id: int, version: int) -> discord.ui.View:
    """Under a game's final scores: the animated replay, a rematch lobby, the game record."""
    view = discord.ui.View(timeout=None)
    for arg, label, emoji in FINAL_BUTTONS:
        button = GameButton(
            ids.CustomId("end", game_id, version, arg), tr(label), discord.ButtonStyle.secondary
        )
        button.item.emoji = emoji
        view.add_item(button)
    return view


AI_REMOVE = "remove"


def ai_seat_view(game_id: int, version: int) -> discord.ui.View:
    """The host's menu behind the lobby's AI button: seat a robot of a level, or remove one."""
    options = [
        discord.SelectOption(
            label=tr("Add an AI seat: {level}", level=tr(level)),
            value=level,
            description=tr(ai_seats.LEVEL_NOTES[level]),
            emoji=ai_seats.ROBOT,
        )
        for level in ai_seats.LEVELS
    ]
    options.append(discord.SelectOption(label=tr("Remove the last AI seat"), value=AI_REMOVE))
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameSelect(ids.CustomId("ai", game_id, version), tr("Add or remove an AI seat…"), options)
    )
    return view


def abort_view(cid: ids.CustomId) -> discord.ui.View:
    return confirm_view(cid, tr("Yes, abort the game"))


def confirm_view(cid: ids.CustomId, label: str) -> discord.ui.View:
    """One danger button that confirms a moderator's action."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(cid, label, discord.ButtonStyle.danger))
    return view
