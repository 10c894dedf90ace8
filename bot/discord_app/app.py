"""The Discord-facing behaviour of the bot, for every game, independent of how it is connected.

`GameApp` holds what the handlers share (`handlers.common.Context`) and hands every command and
click to `bot.discord_app.router`, whose tables pick the handler of each concern
(bot/discord_app/handlers/). The client attaches it; the views and the command tree reach it
through `views.InteractionApp` only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app import ids, panel, router
from bot.discord_app.handlers import looking, play
from bot.discord_app.handlers.common import Context, DrawPrivate, draw_private
from bot.outbox import Draw, draw_with_render
from bot.plugin import Suggestion
from bot.service import GameRecord, GameService

if TYPE_CHECKING:
    from bot.ai_runner import AiRunner


class GameApp:
    """The Discord-facing behaviour of the bot: the router over one shared context."""

    def __init__(
        self,
        service: GameService,
        *,
        draw: Draw = draw_with_render,
        draw_private: DrawPrivate = draw_private,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ctx = Context(service, draw, draw_private, clock, started=clock())

    @property
    def service(self) -> GameService:
        return self.ctx.service

    @property
    def clock(self) -> Callable[[], float]:
        return self.ctx.clock

    @property
    def ai_runner(self) -> AiRunner | None:
        return self.ctx.ai_runner

    @ai_runner.setter
    def ai_runner(self, runner: AiRunner | None) -> None:
        """Set by the client that runs AI turns (`about` counts their moves)."""
        self.ctx.ai_runner = runner

    async def run_command(
        self,
        itx: discord.Interaction[Any],
        name: str,
        options: Mapping[str, Any],
        *,
        game: str | None = None,
    ) -> None:
        """Every command: `game` is the kind of the `/<game>` group it came from, None for the
        shared `/games` group (and for commands that follow the channel's game). Errors become
        ephemeral replies."""
        await router.command(self.ctx, itx, name, options, game)

    async def on_component(
        self, itx: discord.Interaction[Any], cid: ids.CustomId, values: Sequence[str] = ()
    ) -> None:
        """Every click on one of our buttons or select menus."""
        await router.component(self.ctx, itx, cid, values)

    def panel_message(
        self,
        rec: GameRecord,
        seat: int,
        sel: panel.Selection | None = None,
        note: str = "",
        *,
        undo: bool = False,
    ) -> tuple[str, discord.ui.View | None]:
        """The seat's private panel; `undo`: with a button taking back its last move."""
        return play.panel_message(rec, seat, sel, note, undo=undo)

    async def units(self, itx: discord.Interaction[Any], current: str) -> list[str]:
        """The phases played in the channel's game, latest first, for `history`."""
        return await looking.units(self.ctx, itx, current)

    async def autocomplete(
        self, itx: discord.Interaction[Any], command: str, option: str, current: str
    ) -> list[Suggestion]:
        """Legal values for an option of a move command, from the caller's own view only."""
        return await play.suggest(self.ctx, itx, command, option, current)
