"""The discord.py client: command tree, dynamic components and the outbox sender.

No privileged intent: slash commands and components arrive as interactions, which need none;
the `guilds` intent keeps channels and the bot's own member cached for permission checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ai_runner import AiRunner
from bot.ai_seats import Thinker
from bot.config import Config
from bot.discord_app import ids
from bot.discord_app.app import GameApp
from bot.discord_app.commands import build_groups
from bot.discord_app.sender import DiscordSender
from bot.discord_app.translator import CatalogueTranslator, locale_of
from bot.discord_app.views import DYNAMIC_ITEMS, InteractionApp
from bot.i18n import t
from bot.outbox import Draw, Outbox, draw_with_render, error_id
from bot.reminder_runner import ReminderRunner
from bot.service import GameService
from bot.store import Store

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    # The views and the command tree reach `game_app` through `InteractionApp` only (they do
    # not import the app); mypy checks here that the app offers every call they make.
    _CONFORMS: type[InteractionApp] = GameApp


def intents() -> discord.Intents:
    """Only `guilds`: channels, threads and permissions, no message content or members."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class GameClient(discord.Client):
    """Connects one `GameService` to Discord."""

    def __init__(
        self,
        service: GameService,
        *,
        dev_guild_id: int | None = None,
        draw: Draw = draw_with_render,
        start_outbox: bool = True,
        lobby_sweep_every: float = 3600.0,
        ai_delay: timedelta = timedelta(seconds=3),
        reminder_check: timedelta = timedelta(seconds=60),
    ) -> None:
        super().__init__(
            intents=intents(),
            # Replies never ping; the outbox sender widens this to the one pinged player.
            allowed_mentions=discord.AllowedMentions.none(),
            # Without the members intent there is nothing worth waiting for after connecting.
            guild_ready_timeout=0.5,
        )
        self.service = service
        self.game_app = GameApp(service, draw=draw)
        self.dev_guild_id = dev_guild_id
        self.tree = app_commands.CommandTree(self)
        for group in build_groups():
            self.tree.add_command(group)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.draw = draw
        self.start_outbox = start_outbox
        self.outbox: Outbox | None = None
        self.lobby_sweep_every = lobby_sweep_every
        self._sweeper: asyncio.Task[None] | None = None
        self.ai_runner = AiRunner(service, delay=ai_delay)
        self.game_app.ai_runner = self.ai_runner
        self.reminder_runner = ReminderRunner(service, tick=reminder_check)

    async def setup_hook(self) -> None:
        """Runs once per login, not on reconnects: components, commands, then the outbox."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # Before syncing: the sync sends each command's French names and descriptions.
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        if self.start_outbox:
            self.outbox = Outbox(self.service.store, DiscordSender(self), draw=self.draw)
            self.service.outbox = self.outbox
            self.outbox.start()  # first delivers whatever a previous run left behind
        if self.service.lobby_idle is not None:
            self._sweeper = asyncio.create_task(self._sweep_lobbies(), name="lobby-sweep")
        # Robot seats, autopilots and passed deadlines: the scan at start resumes AI turns a
        # previous run left in the middle.
        self.ai_runner.start()
        # Reminders due while the bot was down go out at the first tick.
        self.reminder_runner.start()

    async def _sweep_lobbies(self) -> None:
        """Close idle lobbies now and then (an hour's delay on a 7-day limit does not matter)."""
        while True:
            try:
                closed = await self.service.expire_lobbies()
                if closed:
                    log.info("closed %d idle lobbies: %s", len(closed), [r.id for r in closed])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("idle lobby sweep failed")
            await asyncio.sleep(self.lobby_sweep_every)

    async def sync_commands(self) -> None:
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (%s guilds)", self.user, len(self.guilds))

    async def on_interaction(self, itx: discord.Interaction[Any]) -> None:
        """Answer a click that none of our components handles (a malformed or foreign custom
        id): discord.py would drop it and the user would see only "This interaction failed"."""
        if itx.type != discord.InteractionType.component or not isinstance(itx.data, dict):
            return
        cid = ids.decode(str(itx.data.get("custom_id", "")))
        is_select = itx.data.get("component_type") != discord.ComponentType.button.value
        if cid is not None and (cid.kind in ("w", "t", "ai")) == is_select:
            return  # GameButton / GameSelect take it
        log.info("unknown component %r in channel %s", itx.data.get("custom_id"), itx.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await itx.response.send_message(
                t(
                    "That control isn't one of mine (or it is damaged); nothing was changed. "
                    "Press Play on your latest ping for a fresh panel.",
                    locale_of(itx),
                ),
                ephemeral=True,
            )

    async def close(self) -> None:
        sweeper, self._sweeper = self._sweeper, None
        if sweeper is not None:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
        await self.ai_runner.close()
        await self.reminder_runner.close()
        if self.outbox is not None:
            await self.outbox.stop()
        await super().close()

    async def _on_tree_error(
        self, itx: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Errors the command callbacks did not handle themselves (option conversion, checks)."""
        locale = locale_of(itx)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(
                "The games are played in a server channel or thread, not in direct messages.",
                locale,
            )
        elif isinstance(error, app_commands.BotMissingPermissions):
            text = t(
                "I'm missing these permissions here: {permissions}.",
                locale,
                permissions=", ".join(error.missing_permissions),
            )
        else:
            eid = error_id()
            log.error("command error in channel %s [error %s]", itx.channel_id, eid, exc_info=error)
            text = t(
                "Something went wrong on my side (error `{eid}`); nothing was changed.",
                locale,
                eid=eid,
            )
        if itx.response.is_done():
            await itx.followup.send(text, ephemeral=True)
        else:
            await itx.response.send_message(text, ephemeral=True)


def create_client(*, config: Config, store: Store) -> GameClient:
    """The client `python -m bot` runs: one GameService over the opened store."""
    idle = timedelta(days=config.lobby_idle_days) if config.lobby_idle_days > 0 else None
    service = GameService(store, lobby_idle=idle, thinker=Thinker(workers=config.ai_workers))
    return GameClient(
        service,
        dev_guild_id=config.dev_guild_id,
        ai_delay=timedelta(seconds=config.ai_move_delay),
        reminder_check=timedelta(seconds=config.reminder_check),
    )
