"""What every slash command and component click does, on top of `GameService`.

The client, the command tree and the dynamic items only route to `GameApp`; errors are
turned into replies in one place (`_refuse`), so every refusal is ephemeral, says what is wrong
and what is possible, and changes nothing.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import io
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot import ai_seats, i18n, records, refusals, reminders, texts
from bot.discord_app import ids, panel, perms, views
from bot.discord_app.translator import channel_locale_of, locale_of
from bot.games import GAMES
from bot.i18n import tr, trn, use
from bot.outbox import Draw, OutFile, draw_with_render, error_id
from bot.plugin import BadOption, GamePlugin, Seen, Suggestion
from bot.service import (
    GameRecord,
    GameService,
    NeedsConfirmation,
    NotInGame,
    ServiceError,
    StaleVersion,
)
from bot.store import DiskFull
from engine.errors import IllegalMove

if TYPE_CHECKING:
    from bot.ai_runner import AiRunner

log = logging.getLogger(__name__)

PUBLIC_BOARD_EVERY = 120.0  # seconds between public `board` posts in one channel
NO_PINGS = discord.AllowedMentions.none()

# (game kind, picture names, the seat's own Seen) -> pictures for that seat's eyes only.
DrawPrivate = Callable[[str, Sequence[str], Seen], tuple[OutFile, ...]]


def draw_private(kind: str, names: Sequence[str], seen: Seen) -> tuple[OutFile, ...]:
    """A seat's private pictures (its hand, its shipyard), drawn from its own view only."""
    assert seen.audience is not None
    pictures = GAMES.get(kind).draw(names, seen)
    return tuple(OutFile(p.filename, p.data, p.description) for p in pictures)


def _new_hint() -> str:
    return tr(" or ").join(f"`/{g.command} new`" for g in GAMES)


class Refusal(Exception):
    """A request refused by the Discord layer itself (before the service is asked)."""


def _is_thread(channel: Any) -> bool:
    return isinstance(channel, discord.Thread)


class GameApp:
    """The Discord-facing behaviour of the bot, for every game, independent of how it is
    connected."""

    def __init__(
        self,
        service: GameService,
        *,
        draw: Draw = draw_with_render,
        draw_private: DrawPrivate = draw_private,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.draw = draw
        self.draw_private = draw_private
        self.clock = clock
        self._public_board: dict[int, float] = {}
        self.started = clock()
        # New seat holders' display names between `/games replace` and its confirmation
        # (no members intent to look them up later); a restart loses them, which only means
        # the moderator runs the command again.
        self._pending_names: dict[int, str] = {}
        self.ai_runner: AiRunner | None = None  # set by the client that runs AI turns

    # --- replies -------------------------------------------------------------------------------

    @staticmethod
    async def reply(
        itx: discord.Interaction[Any],
        content: str,
        *,
        view: discord.ui.View | None = None,
        files: Sequence[OutFile] = (),
        ephemeral: bool = True,
    ) -> None:
        """Answer the interaction (or follow up if it was already answered or deferred)."""
        kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        if files:
            kwargs["files"] = [_file(f) for f in files]
        content = texts.fit(content)
        if itx.response.is_done():
            await itx.followup.send(content, **kwargs)
        else:
            await itx.response.send_message(content, **kwargs)

    async def _refuse(
        self, itx: discord.Interaction[Any], exc: BaseException, game_id: int | None = None
    ) -> None:
        """The one place errors become replies."""
        if isinstance(exc, discord.HTTPException) and exc.code in (10062, 40060):
            # Discord no longer takes an answer to this interaction (it was answered already,
            # e.g. the same interaction delivered twice, or it expired): nothing to reply to.
            log.info("interaction %s not answerable: %s", itx.id, exc)
            return
        if isinstance(exc, IllegalMove):
            # The engine's English sentence, said in the member's language (bot/refusals.py);
            # it quotes the option values as typed: never let them format text or mention.
            await self.reply(itx, texts.quoted(refusals.text(exc)))
            return
        if isinstance(exc, BadOption):
            await self.reply(itx, texts.quoted(str(exc)))
            return
        if isinstance(exc, ServiceError | Refusal | DiskFull | reminders.SettingError):
            # A full disk is said as it is (DiskFull's text tells the admin what to do).
            await self.reply(itx, str(exc))
            return
        if isinstance(exc, panel.PanelError):
            await self.reply(
                itx,
                tr("That choice is not on offer now; press Play on your ping for a fresh panel."),
            )
            return
        eid = error_id()
        log.error(
            "internal error in channel %s, game %s [error %s]",
            itx.channel_id,
            game_id,
            eid,
            exc_info=exc,
        )
        await self.reply(
            itx,
            tr(
                "Something went wrong on my side (error `{eid}`); nothing was changed. "
                "Try again, and tell the server admins the error id if it keeps happening.",
                eid=eid,
            ),
        )

    # --- guards --------------------------------------------------------------------------------

    @staticmethod
    def _where(itx: discord.Interaction[Any]) -> int:
        """The channel id, refusing direct messages."""
        if itx.guild_id is None or itx.channel_id is None:
            raise Refusal(
                tr(
                    "The games are played in a server channel or thread, not in direct messages. "
                    "Open a lobby with `/<game> new` in a channel of your server."
                )
            )
        return itx.channel_id

    @staticmethod
    def _check_bot_permissions(itx: discord.Interaction[Any]) -> None:
        lacking = perms.missing(itx.app_permissions, in_thread=_is_thread(itx.channel))
        if lacking:
            log.warning("missing permissions in channel %s: %s", itx.channel_id, lacking)
            raise Refusal(perms.refusal(lacking))

    @staticmethod
    def _posting_warning(itx: discord.Interaction[Any]) -> str:
        """After a move: tell the player if the channel posts it causes will fail."""
        lacking = perms.missing(itx.app_permissions, in_thread=_is_thread(itx.channel))
        if not lacking:
            return ""
        log.warning("missing permissions in channel %s: %s", itx.channel_id, lacking)
        if lacking == ["Attach Files"]:
            return "\n" + tr(
                "⚠️ I can't attach the game's pictures here: missing Attach Files. The "
                "summaries are still posted; ask a server admin to grant it."
            )
        return "\n" + tr(
            "⚠️ I can't post the game's messages here: missing {permissions}. "
            "Ask a server admin to grant it.",
            permissions=", ".join(lacking),
        )

    @staticmethod
    def _can_manage(itx: discord.Interaction[Any]) -> bool:
        return bool(itx.permissions.manage_channels)

    async def _game(self, channel_id: int, *, game_id: int | None = None) -> GameRecord:
        rec = await self.service.game_in(channel_id)
        if rec is None or (game_id is not None and rec.id != game_id):
            raise Refusal(
                tr("That game is no longer running here.")
                if game_id is not None
                else tr("There is no game here. Open a lobby with {new}.", new=_new_hint())
            )
        return rec

    async def _playing(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> tuple[GameRecord, Any, int]:
        rec = await self._game(channel_id, game_id=game_id)
        if rec.flagged:
            # Its stored state and its log disagree: no panel that could only be refused.
            raise Refusal(
                tr(
                    "This game is on hold ({flagged}). An admin sees why with `python -m bot "
                    "check`, and can `/games abort` it.",
                    flagged=rec.flagged,
                )
            )
        if rec.status != "active" or rec.state is None:
            raise Refusal(tr("The game here hasn't started yet: the lobby is still open."))
        seat = rec.seat_of(user_id)
        if seat is None:
            raise NotInGame(
                tr(
                    "You are not playing in this game. You can follow it with `/{command} board`.",
                    command=rec.plugin.command,
                )
            )
        return rec, rec.state, seat

    # --- panel ---------------------------------------------------------------------------------

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
        assert rec.state is not None
        built = panel.build(rec.plugin, rec.seen(seat), sel)
        text = f"{note}\n{built.text}" if note else built.text
        view = views.panel_view(built, rec.id, rec.version)
        if undo:
            view = views.with_undo(view, rec.id, rec.version)
        return texts.fit(text), view

    async def _edit_panel(
        self,
        itx: discord.Interaction[Any],
        rec: GameRecord,
        seat: int,
        sel: panel.Selection | None = None,
        note: str = "",
        *,
        undo: bool = False,
    ) -> None:
        text, view = self.panel_message(rec, seat, sel, note, undo=undo)
        if itx.response.is_done():
            await itx.edit_original_response(content=text, view=view)
        else:
            await itx.response.edit_message(content=text, view=view)

    async def _play_from_panel(
        self,
        itx: discord.Interaction[Any],
        cid: ids.CustomId,
        seat: int,
        move: dict[str, Any],
        *,
        confirm: bool = False,
    ) -> None:
        channel_id = self._where(itx)
        await itx.response.defer()  # the move is written to disk (fsync) before we answer
        try:
            result = await self.service.play(
                channel_id, itx.user.id, move, version=cid.version, confirm=confirm
            )
        except NeedsConfirmation as exc:
            rec = await self._game(channel_id)
            assert rec.state is not None
            key = panel.confirm_key(rec.plugin, rec.seen(seat), move)
            if key is None:
                raise
            await self._edit_panel(itx, rec, seat, panel.Selection(confirm=key, reason=exc.reason))
            return
        except (StaleVersion, IllegalMove) as exc:
            rec = await self._game(channel_id)
            said = refusals.text(exc) if isinstance(exc, IllegalMove) else str(exc)
            await self._edit_panel(itx, rec, seat, note=f"⚠️ {said}")
            return
        note = f"✅ {result.text}{self._posting_warning(itx)}"
        undo = await self.service.can_undo(channel_id, itx.user.id)
        await self._edit_panel(itx, result.record, seat, note=note, undo=undo)

    async def _undo(
        self, itx: discord.Interaction[Any], channel_id: int, version: int | None
    ) -> None:
        """Take back the player's last move, then show the panel as it is again."""
        await itx.response.defer(ephemeral=True, thinking=version is None)
        try:
            result = await self.service.undo(channel_id, itx.user.id, version=version)
        except StaleVersion as exc:
            rec, _, seat = await self._playing(channel_id, itx.user.id)
            await self._edit_panel(itx, rec, seat, note=f"⚠️ {exc}")
            return
        rec = result.record
        mine = rec.seat_of(itx.user.id)
        assert mine is not None
        undo = await self.service.can_undo(channel_id, itx.user.id)
        text, view = self.panel_message(
            rec, mine, note=tr("↩️ Taken back: {move}", move=result.text), undo=undo
        )
        if version is None:
            await self.reply(itx, text, view=view)
        else:
            await itx.edit_original_response(content=text, view=view)

    async def on_component(
        self, itx: discord.Interaction[Any], cid: ids.CustomId, values: Sequence[str] = ()
    ) -> None:
        """Every click on one of our buttons or select menus."""
        with use(locale_of(itx)):
            try:
                await self._component(itx, cid, values)
            except Exception as exc:
                await self._refuse(itx, exc, cid.game_id)

    async def _component(
        self, itx: discord.Interaction[Any], cid: ids.CustomId, values: Sequence[str]
    ) -> None:
        channel_id = self._where(itx)
        if cid.kind == "lobby":
            await self._lobby_click(itx, channel_id, cid)
            return
        if cid.kind == "ai":
            await self._ai_seat_choice(itx, channel_id, cid, values[0] if values else "")
            return
        if cid.kind == "abort":
            await self._game(channel_id, game_id=cid.game_id)
            await itx.response.defer()
            await self.service.abort(channel_id, itx.user.id, can_manage=self._can_manage(itx))
            await itx.edit_original_response(content=tr("The game was aborted."), view=None)
            return
        if cid.kind == "skip":
            await self._game(channel_id, game_id=cid.game_id)
            await itx.response.defer()
            skipped = await self.service.skip(
                channel_id,
                itx.user.id,
                can_manage=self._can_manage(itx),
                version=cid.version,
                by_name=itx.user.display_name,
            )
            name = texts.name(skipped.record.names[skipped.seat])
            await itx.edit_original_response(
                content=tr(
                    "Skipped the turn of {name}: {moves}.",
                    name=name,
                    moves="; ".join(skipped.texts),
                ),
                view=None,
            )
            return
        if cid.kind == "replace":
            await self._confirm_replace(itx, channel_id, cid)
            return
        if cid.kind == "end":
            await self._final_button(itx, channel_id, cid)
            return
        if cid.kind == "log":
            text, view = await self._log_page(itx, channel_id, _int(cid.arg))
            await itx.response.edit_message(content=text, view=view)
            return
        if cid.kind == "undo":
            await self._undo(itx, channel_id, cid.version)
            return
        if cid.kind == "snooze":
            when = await self.service.snooze(channel_id, itx.user.id)
            await self.reply(
                itx,
                tr(
                    "😴 Snoozed: no reminder before <t:{ts}:t> (<t:{ts}:R>).",
                    ts=int(when.timestamp()),
                ),
            )
            return
        rec, _, seat = await self._playing(channel_id, itx.user.id, game_id=cid.game_id)
        if cid.kind == "play":
            text, view = self.panel_message(rec, seat)
            await self.reply(itx, text, view=view)
            return
        if rec.current != seat:
            who = rec.current
            raise Refusal(
                tr(
                    "It's not your turn: {name} (seat {seat}) must {decide}.",
                    name=texts.name(rec.names[who]),
                    seat=who + 1,
                    decide=rec.plugin.must_decide(rec.seen(None), you=False),
                )
                if who is not None
                else tr("It's not your turn; the game is over.")
            )
        if cid.version != rec.version:
            await self._edit_panel(
                itx,
                rec,
                seat,
                note=tr(
                    "⚠️ That panel was out of date (the game has moved on); here is the current one."
                ),
            )
            return
        plugin, mine = rec.plugin, rec.seen(seat)
        if cid.kind == "w":
            out = panel.on_what(plugin, mine, _int(cid.arg), values[0] if values else "")
        elif cid.kind == "t":
            group, _, page = cid.arg.rpartition("/")
            out = panel.on_then(plugin, mine, group, _int(page), values[0] if values else "")
        elif cid.kind == "b":
            out = panel.on_button(plugin, mine, cid.arg)
        else:  # "ok": the player confirmed a pass or the end of their turn
            out = panel.on_button(plugin, mine, cid.arg)
            if out.move is not None:
                await self._play_from_panel(itx, cid, seat, out.move, confirm=True)
            return
        if out.move is not None:
            await self._play_from_panel(itx, cid, seat, out.move)
        else:
            await self._edit_panel(itx, rec, seat, out.selection)

    async def _lobby_click(
        self, itx: discord.Interaction[Any], channel_id: int, cid: ids.CustomId
    ) -> None:
        await self._game(channel_id, game_id=cid.game_id)
        user = itx.user
        svc = self.service
        await itx.response.defer(ephemeral=True, thinking=True)
        if cid.arg == "join":
            await svc.join(channel_id, user.id, user.display_name)
            await self.reply(itx, tr("You joined the lobby."))
        elif cid.arg == "leave":
            await svc.leave(channel_id, user.id)
            await self.reply(itx, tr("You left the lobby."))
        elif cid.arg == "start":
            await svc.start(channel_id, user.id, can_manage=self._can_manage(itx))
            await self.reply(itx, tr("The game has started: watch for your ping and press Play."))
        elif cid.arg == "cancel":
            await svc.cancel(channel_id, user.id, can_manage=self._can_manage(itx))
            await self.reply(itx, tr("The lobby was cancelled."))
        elif cid.arg == "ai":
            rec = await self._game(channel_id, game_id=cid.game_id)
            if user.id != rec.host_id and not self._can_manage(itx):
                raise Refusal(
                    tr("Only the host or a member with Manage Channels can add AI seats.")
                )
            await self.reply(
                itx,
                tr(
                    "{robot} Choose a level to seat a robot (easy, normal or hard), or "
                    "remove one. AI seats play their turns themselves, a few seconds after their "
                    "turn comes; every AI move is marked with the robot sign.",
                    robot=ai_seats.ROBOT,
                ),
                view=views.ai_seat_view(rec.id, rec.version),
            )
        elif cid.arg == "seating":
            rec = await svc.toggle_seating(channel_id, user.id, can_manage=self._can_manage(itx))
            await self.reply(
                itx,
                tr("Seat order: the join order. Press the button again to switch back.")
                if rec.seating == "join"
                else tr(
                    "Seat order: drawn at random at the start. Press the button again to switch "
                    "back."
                ),
            )
        else:
            raise Refusal(tr("That button is not known; open a fresh lobby."))

    async def _ai_seat_choice(
        self, itx: discord.Interaction[Any], channel_id: int, cid: ids.CustomId, choice: str
    ) -> None:
        await self._game(channel_id, game_id=cid.game_id)
        await itx.response.defer(ephemeral=True, thinking=True)
        if choice == views.AI_REMOVE:
            await self.service.remove_ai(channel_id, itx.user.id, can_manage=self._can_manage(itx))
            await self.reply(itx, tr("The last AI seat was removed from the lobby."))
            return
        rec = await self.service.add_ai(
            channel_id, itx.user.id, choice, can_manage=self._can_manage(itx)
        )
        await self.reply(
            itx, tr("{name} took a seat in the lobby.", name=texts.name(rec.seats[-1].name))
        )

    async def _autopilot(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> None:
        on = bool(options.get("on"))
        level = str(options.get("level") or ai_seats.DEFAULT_LEVEL)
        await itx.response.defer(ephemeral=True, thinking=True)
        await self.service.set_autopilot(channel_id, itx.user.id, on, level)
        if on:
            text = tr(
                "{robot} Autopilot on ({level}): the AI plays your seat, without "
                "pinging you, until you run `/games autopilot on:False`. Its moves are marked "
                "in the log and the posts.",
                robot=ai_seats.ROBOT,
                level=level,
            )
        else:
            text = tr("Autopilot off: you play your own seat again and get your pings.")
        await self.reply(itx, text)

    async def _deadline(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> None:
        span = str(options.get("span") or "none")
        if span not in ai_seats.DEADLINES:
            raise Refusal(
                tr("The deadline must be one of {spans}.", spans=", ".join(ai_seats.DEADLINES))
            )
        hours = ai_seats.DEADLINES[span]
        await itx.response.defer(ephemeral=True, thinking=True)
        rec = await self.service.set_deadline(
            channel_id, itx.user.id, hours, can_manage=self._can_manage(itx)
        )
        due = self.service.deadline_at(rec)
        when = (
            " " + tr("The turn waiting now goes to the AI <t:{ts}:R>.", ts=int(due.timestamp()))
            if due
            else ""
        )
        await self.reply(
            itx, tr("Turn deadline set: {span}.", span=ai_seats.deadline_label(hours)) + when
        )

    async def _final_button(
        self, itx: discord.Interaction[Any], channel_id: int, cid: ids.CustomId
    ) -> None:
        """The buttons under a game's final scores (they work for weeks, across restarts)."""
        if cid.arg == "replay":
            await self._replay(itx, channel_id, cid.game_id)
        elif cid.arg == "record":
            await self._export(itx, channel_id, cid.game_id)
        elif cid.arg == "rematch":
            self._check_bot_permissions(itx)
            assert itx.guild_id is not None
            await itx.response.defer(ephemeral=True, thinking=True)
            _, invited = await self.service.rematch(
                itx.guild_id, channel_id, cid.game_id, itx.user.id, itx.user.display_name
            )
            who = ", ".join(texts.name(s.name) for s in invited)
            await self.reply(
                itx,
                trn(
                    "Rematch lobby open, with you in the first seat; {who} was pinged to press "
                    "**Join**. Press **Start** once the table is seated.",
                    "Rematch lobby open, with you in the first seat; {who} were pinged to press "
                    "**Join**. Press **Start** once the table is seated.",
                    len(invited),
                    who=who,
                )
                if who
                else tr(
                    "Rematch lobby open, with you in the first seat. Press **Start** once the "
                    "table is seated."
                ),
            )
        else:
            raise Refusal(tr("That button is not one of this bot's; nothing was done."))

    async def _export(
        self, itx: discord.Interaction[Any], channel_id: int, game_id: int | None
    ) -> None:
        """The game's record as a JSON file, only to the member asking."""
        record = await self.service.export(channel_id, itx.user.id, game_id=game_id)
        if record["complete"]:
            text = tr(
                "📄 The record of {title} game #{id}: every move with its time, the seed and the "
                "final scores. Replay it with `python -m bot replay FILE --out DIR`.",
                title=record["title"],
                id=record["game_id"],
            )
        elif "private" in record:
            text = tr(
                "📄 The record of {title} game #{id} so far, as the table sees it (the seed and "
                "the moves themselves come once the game is over); your own hand's lines are in "
                "it too, so keep it to yourself.",
                title=record["title"],
                id=record["game_id"],
            )
        else:
            text = tr(
                "📄 The record of {title} game #{id} so far, as the table sees it (the seed and "
                "the moves themselves come once the game is over).",
                title=record["title"],
                id=record["game_id"],
            )
        data = records.dumps(record)
        await self.reply(
            itx,
            text,
            files=[OutFile(records.filename(record), data, tr("the game record (JSON)"))],
        )

    async def _replay(
        self, itx: discord.Interaction[Any], channel_id: int, game_id: int | None
    ) -> None:
        """The animated board of a game, only to the member asking (about a second to draw)."""
        await itx.response.defer(ephemeral=True, thinking=True)
        name, data = await self.service.animation(channel_id, game_id)
        await self.reply(
            itx,
            tr("🎞️ The board after every action phase of this game, as the table saw it."),
            files=[OutFile(name, data, tr("The board after every action phase, animated"))],
        )

    async def _settings(
        self,
        itx: discord.Interaction[Any],
        channel_id: int,
        name: str,
        options: Mapping[str, Any],
    ) -> str:
        """`/settings …`: a member's own settings on this server (and the server's)."""
        assert itx.guild_id is not None
        guild, user = itx.guild_id, itx.user.id
        if name == "quiet":
            s = await self.service.set_quiet(
                guild, user, options.get("start"), options.get("end"), options.get("timezone")
            )
            quiet = reminders.quiet_of(s.quiet_from, s.quiet_to, s.timezone)
            assert quiet is not None
            return tr(
                "🌙 Quiet hours set: {hours}. Inside them your turn pings come without "
                "a notification and reminders wait for the end of them.",
                hours=quiet.label(),
            )
        if name == "quiet-off":
            await self.service.set_quiet(guild, user, None, None, None)
            return tr("Quiet hours off: pings and reminders come at any time.")
        if name == "reminders":
            hours = _interval(str(options.get("every", "")))
            await self.service.set_my_reminders(guild, user, hours)
            if hours is None:
                return tr("Your reminders follow the game's (or the server's) setting again.")
            return tr(
                "Your reminders in every game on this server: {every}.",
                every=reminders.interval_label(hours),
            )
        if name == "server-reminders":
            if not itx.permissions.manage_guild:
                raise Refusal(
                    tr(
                        "Only members with Manage Server can set the server's reminders; your own "
                        "are `/settings reminders`."
                    )
                )
            hours = _interval(str(options.get("every", "")))
            await self.service.set_server_reminders(guild, hours)
            return tr(
                "Reminders on this server by default: {every}.",
                every=reminders.interval_label(hours),
            )
        # "show"
        mine, server = await self.service.settings(guild, user)
        quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
        lines = [
            tr("**Your settings on this server**"),
            tr("Reminders: {every} (yours)", every=reminders.interval_label(mine.reminder_hours))
            if mine.reminder_hours is not None
            else tr("Reminders: as the game's host or the server set them"),
            tr("Quiet hours: {hours}", hours=quiet.label())
            if quiet
            else tr("Quiet hours: none (`/settings quiet`)"),
            tr("Server default reminders: {every}", every=reminders.interval_label(server)),
        ]
        rec = await self.service.game_in(channel_id)
        if rec is not None and rec.reminder_hours is not None:
            lines.append(
                tr(
                    "The game here: reminders {every} (set by its host)",
                    every=reminders.interval_label(rec.reminder_hours),
                )
            )
        return "\n".join(lines)

    async def _game_for_records(self, channel_id: int, game: object) -> GamePlugin:
        """The game a stats command is about: the one named, else the channel's (latest)."""
        if game:
            if str(game) not in GAMES.games:
                names = ", ".join(p.kind for p in GAMES)
                raise Refusal(
                    tr(
                        "There is no game {game}; installed: {names}.",
                        game=texts.quoted(str(game)),
                        names=names,
                    )
                )
            return GAMES.get(str(game))
        rec = await self.service.game_in(channel_id) or await self.service.last_game(channel_id)
        if rec is None:
            kinds = ", ".join(f"`{p.kind}`" for p in GAMES)
            raise Refusal(
                tr(
                    "No game was played in this channel: say which with `game:` ({kinds}).",
                    kinds=kinds,
                )
            )
        return rec.plugin

    async def _stats(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> str:
        assert itx.guild_id is not None
        plugin = await self._game_for_records(channel_id, options.get("kind"))
        member = options.get("member") or itx.user
        who = texts.name(member.display_name)
        got = await self.service.standing(itx.guild_id, plugin.kind, member.id)
        if got is None:
            return tr(
                "{who} has not finished a game of {title} on this server yet.",
                who=who,
                title=plugin.title,
            )
        line = tr(
            "**{title}** on this server — {who}: {games}, {wins}, average {average} VP, "
            "best {best} VP.",
            title=plugin.title,
            who=who,
            games=_games(got.games),
            wins=_wins(got.wins),
            average=i18n.number(got.average_vp),
            best=got.best_vp,
        )
        if got.rating is not None and got.mu is not None and got.sigma is not None:
            line += "\n" + tr(
                "Rating {rating} (skill {mu} ± {spread}; openskill, rating = skill − 3σ).",
                rating=i18n.number(got.rating),
                mu=i18n.number(got.mu),
                spread=i18n.number(3 * got.sigma),
            )
        else:
            line += "\n" + tr("Not rated yet: a rated game needs two people at the table.")
        if got.assisted:
            line += "\n" + tr(
                "{robot} {games} mostly played by the AI (autopilot, deadlines, skips): counted "
                "here, not rated.",
                robot=ai_seats.ROBOT,
                games=_games(got.assisted),
            )
        return line

    async def _leaderboard(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> str:
        assert itx.guild_id is not None
        plugin = await self._game_for_records(channel_id, options.get("kind"))
        board = await self.service.leaderboard(itx.guild_id, plugin.kind)
        if not board:
            return tr(
                "No rated game of {title} on this server yet: a game counts once it "
                "ends with two or more people at the table.",
                title=plugin.title,
            )
        lines = [tr("**{title} leaderboard** (openskill rating = skill − 3σ)", title=plugin.title)]
        for i, s in enumerate(board, 1):
            rating = s.rating if s.rating is not None else 0.0
            lines.append(
                f"{i}. {texts.name(s.name)} — {i18n.number(rating)} "
                f"({_games(s.games)}, {_wins(s.wins)})"
            )
        return "\n".join(lines)

    # --- slash commands ------------------------------------------------------------------------

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
        with use(locale_of(itx)):
            try:
                await self._command(itx, name, options, game)
            except Exception as exc:
                await self._refuse(itx, exc)

    async def _plugin_here(self, channel_id: int, game: str | None) -> GamePlugin:
        """The game of the command's group, or of the channel's game; refuses a mismatch."""
        rec = await self.service.game_in(channel_id)
        if game is None:
            if rec is None:
                raise Refusal(
                    tr("There is no game here. Open a lobby with {new}.", new=_new_hint())
                )
            return rec.plugin
        plugin = GAMES.get(game)
        if rec is not None and rec.kind != plugin.kind:
            here = rec.plugin
            raise Refusal(
                tr(
                    "This channel is playing {here}, not {game}: use `/{command} …` here (one "
                    "game per channel).",
                    here=here.title,
                    game=plugin.title,
                    command=here.command,
                )
            )
        return plugin

    async def _command(
        self,
        itx: discord.Interaction[Any],
        name: str,
        options: Mapping[str, Any],
        game: str | None,
    ) -> None:
        channel_id = self._where(itx)
        if name.startswith("settings "):
            await self.reply(itx, await self._settings(itx, channel_id, name[9:], options))
            return
        if name in _SHARED:
            await self._shared_command(itx, channel_id, name, options)
            return
        if name == "new":
            if game is None:
                raise Refusal(tr("Say which game: {new}.", new=_new_hint()))
            self._check_bot_permissions(itx)
            assert itx.guild_id is not None
            await itx.response.defer(ephemeral=True, thinking=True)
            await self.service.open_lobby(
                itx.guild_id,
                channel_id,
                itx.user.id,
                itx.user.display_name,
                kind=game,
                locale=channel_locale_of(itx),
            )
            await self.reply(
                itx, tr("Lobby open: players press **Join**, then the host presses **Start**.")
            )
            return
        if name == "rules" and game is not None:
            await self.reply(itx, GAMES.get(game).rules_digest(options.get("topic")))
            return
        plugin = await self._plugin_here(channel_id, game)
        if any(c.name == name for c in plugin.move_commands):
            await self._move_command(itx, channel_id, plugin, name, options)
        elif name == "rules":
            await self.reply(itx, plugin.rules_digest(options.get("topic")))
        elif name == "undo":
            await self._undo(itx, channel_id, None)
        elif name == "history":
            await self._history(
                itx, channel_id, str(options.get("phase", "")), bool(options.get("public"))
            )
        elif name == "board":
            await self._board(itx, channel_id, public=bool(options.get("public")))
        elif name == plugin.hand_command:
            await self._me(itx, channel_id)
        else:
            raise Refusal(
                tr("/{command} {name} is not a command.", command=plugin.command, name=name)
            )

    async def _shared_command(
        self,
        itx: discord.Interaction[Any],
        channel_id: int,
        name: str,
        options: Mapping[str, Any],
    ) -> None:
        if name == "status":
            await self.reply(itx, await self._status(channel_id))
        elif name == "log":
            if options.get("moves"):
                lines = await self.service.log(
                    channel_id, int(options["moves"]), reader_id=itx.user.id
                )
                await self.reply(itx, "\n".join(lines) or tr("No moves yet."))
            else:
                text, view = await self._log_page(itx, channel_id, int(options.get("page") or 1))
                await self.reply(itx, text, view=view)
        elif name == "abort":
            await self._abort(itx, channel_id)
        elif name == "skip":
            await self._skip(itx, channel_id)
        elif name == "replace":
            await self._replace(itx, channel_id, options)
        elif name == "remove":
            await self._remove(itx, channel_id, options)
        elif name == "mygames":
            await self.reply(itx, await self._mygames(itx))
        elif name == "autopilot":
            await self._autopilot(itx, channel_id, options)
        elif name == "deadline":
            await self._deadline(itx, channel_id, options)
        elif name == "stats":
            await self.reply(itx, await self._stats(itx, channel_id, options))
        elif name == "leaderboard":
            await self.reply(itx, await self._leaderboard(itx, channel_id, options))
        elif name == "language":
            lang = str(options.get("lang", ""))
            await self.service.set_language(
                channel_id, itx.user.id, lang, can_manage=self._can_manage(itx)
            )
            await self.reply(
                itx,
                tr("The game here now posts in English.")
                if lang == i18n.ENGLISH
                else tr("The game here now posts in French."),
            )
        elif name == "reminders":
            hours = _interval(str(options.get("every", "")))
            await self.service.set_game_reminders(
                channel_id, itx.user.id, hours, can_manage=self._can_manage(itx)
            )
            await self.reply(
                itx,
                tr(
                    "Reminders in this game: {every}, from the next turn "
                    "(players' own `/settings reminders` come first).",
                    every=reminders.interval_label(hours),
                ),
            )
        elif name == "export":
            await self._export(itx, channel_id, None)
        elif name == "replay":
            await self._replay(itx, channel_id, None)
        else:  # "about"
            await self.reply(itx, await self._about(itx))

    async def _move_command(
        self,
        itx: discord.Interaction[Any],
        channel_id: int,
        plugin: GamePlugin,
        name: str,
        options: Mapping[str, Any],
    ) -> None:
        move = plugin.move_from_call(name, options)
        await itx.response.defer(ephemeral=True, thinking=True)
        try:
            result = await self.service.play(
                channel_id,
                itx.user.id,
                move,
                confirm=bool(options.get("confirm")),
                command=True,
            )
        except NeedsConfirmation as exc:
            call = plugin.call_text(move)
            raise Refusal(
                tr(
                    "{reason} To go ahead anyway, run `{call} confirm:True`.",
                    reason=exc.reason,
                    call=call,
                )
            ) from None
        rec = result.record
        seat = rec.seat_of(itx.user.id)
        assert seat is not None
        note = f"✅ {result.text}{self._posting_warning(itx)}"
        undo = await self.service.can_undo(channel_id, itx.user.id)
        text, panel_view = self.panel_message(rec, seat, note=note, undo=undo)
        await self.reply(itx, text, view=panel_view)

    async def _status(self, channel_id: int) -> str:
        rec = await self._game(channel_id)
        names = ", ".join(
            tr("{name} (seat {seat})", name=texts.name(s.name), seat=s.seat + 1) for s in rec.seats
        )
        title = rec.plugin.title
        if rec.state is None:
            return tr(
                "A {title} lobby is open here. Players so far: {names}.",
                title=title,
                names=names or tr("none"),
            )
        extra = ""
        due = self.service.deadline_at(rec)
        if rec.deadline_hours is not None:
            span = ai_seats.deadline_label(rec.deadline_hours)
            extra = "\n" + (
                tr(
                    "Turn deadline: {span}; the AI plays this turn <t:{ts}:R>.",
                    span=span,
                    ts=int(due.timestamp()),
                )
                if due
                else tr("Turn deadline: {span}.", span=span)
            )
        auto = [texts.name(s.name) for s in rec.seats if s.ai is not None and not s.robot]
        if auto:
            extra += "\n" + tr(
                "{robot} On autopilot: {names}.", robot=ai_seats.ROBOT, names=", ".join(auto)
            )
        status = rec.plugin.status_line(rec.seen(None))
        return f"**{title}** · {status}\n" + tr("Players: {names}.", names=names) + extra

    async def _board(self, itx: discord.Interaction[Any], channel_id: int, *, public: bool) -> None:
        rec = await self._game(channel_id)
        if rec.state is None:
            raise Refusal(tr("The game here hasn't started yet: the lobby is still open."))
        if public:
            self._check_public_post(itx, channel_id)
        await itx.response.defer(ephemeral=not public, thinking=True)
        # Even a private `board` shows the public view: the seat's secrets go only to `hand`.
        public_seen = rec.seen(None)
        files = await asyncio.to_thread(
            self.draw, rec.kind, rec.plugin.board_pictures(), public_seen.view
        )
        await self.reply(
            itx, rec.plugin.status_line(public_seen), files=files, ephemeral=not public
        )

    def _check_public_post(self, itx: discord.Interaction[Any], channel_id: int) -> None:
        """At most one public board or history picture per channel every PUBLIC_BOARD_EVERY."""
        self._check_bot_permissions(itx)
        last = self._public_board.get(channel_id)
        now = self.clock()
        if last is not None and now - last < PUBLIC_BOARD_EVERY:
            wait = int(PUBLIC_BOARD_EVERY - (now - last)) + 1
            raise Refusal(
                tr(
                    "A board was posted here moments ago; another can be posted in {wait} s. "
                    "Without public it is shown to you alone right now.",
                    wait=wait,
                )
            )
        self._public_board[channel_id] = now

    async def _log_page(
        self, itx: discord.Interaction[Any], channel_id: int, page: int
    ) -> tuple[str, discord.ui.View | None]:
        """One page of the whole log (newest first) with buttons to the older and newer ones."""
        lines, page, pages = await self.service.log_page(channel_id, page, reader_id=itx.user.id)
        head = tr(
            "**Game log** — page {page} of {pages} (page 1 is the latest)", page=page, pages=pages
        )
        text = texts.fit("\n".join([head, *lines]) if lines else tr("No moves yet."))
        return text, views.log_view(page, pages)

    async def _history(
        self, itx: discord.Interaction[Any], channel_id: int, unit: str, public: bool
    ) -> None:
        """The public board at the end of an earlier action phase, redrawn from the log."""
        rec, (r, p), view = await self.service.history(channel_id, unit)
        if public:
            self._check_public_post(itx, channel_id)
        await itx.response.defer(ephemeral=not public, thinking=True)
        files = await asyncio.to_thread(self.draw, rec.kind, rec.plugin.board_pictures(), view)
        await self.reply(
            itx,
            tr(
                "🕰️ {title}: the board at the end of round {round}, phase {phase}, as the table "
                "saw it.",
                title=rec.plugin.title,
                round=r,
                phase=p,
            ),
            files=files,
            ephemeral=not public,
        )

    async def _me(self, itx: discord.Interaction[Any], channel_id: int) -> None:
        """The seat's private view (hand, shipyard), only ever as an ephemeral reply."""
        rec, _, seat = await self._playing(channel_id, itx.user.id)
        await itx.response.defer(ephemeral=True, thinking=True)
        mine = rec.seen(seat)
        files = await asyncio.to_thread(
            self.draw_private, rec.kind, rec.plugin.hand_pictures(), mine
        )
        await self.reply(itx, rec.plugin.hand_text(mine), files=files, ephemeral=True)

    async def _abort(self, itx: discord.Interaction[Any], channel_id: int) -> None:
        rec = await self._game(channel_id)
        if itx.user.id != rec.host_id and not self._can_manage(itx):
            raise Refusal(tr("Only the host or a member with Manage Channels can abort the game."))
        cid = ids.CustomId("abort", rec.id, rec.version, "yes")
        await self.reply(
            itx,
            tr("Abort the game here for everyone? This can't be undone."),
            view=views.abort_view(cid),
        )

    # --- hosting: skip, replace, remove, mygames, about ----------------------------------------

    def _check_moderator(self, itx: discord.Interaction[Any], rec: GameRecord, what: str) -> None:
        """`what` is already in the reader's language (the callers pass `tr(...)`)."""
        if itx.user.id != rec.host_id and not self._can_manage(itx):
            raise Refusal(
                tr("Only the host or a member with Manage Channels can {what}.", what=what)
            )

    async def _skip(self, itx: discord.Interaction[Any], channel_id: int) -> None:
        rec = await self._game(channel_id)
        self._check_moderator(itx, rec, tr("skip a turn"))
        if rec.status != "active" or rec.state is None:
            raise Refusal(tr("Nothing to skip: the game here hasn't started yet."))
        seat = rec.current
        if seat is None:
            raise Refusal(tr("Nothing to skip: the game is over."))
        plugin = rec.plugin
        # The moderator is often the opponent: the prompt is built from the public view only
        # and names no move (the skipped seat's moves would show its hidden cards, and the AI
        # decides them only once the skip is confirmed).
        cid = ids.CustomId("skip", rec.id, rec.version, str(seat))
        await self.reply(
            itx,
            tr(
                "Skip the turn of {seat} {name}? They must {decide}; the AI decides and plays "
                "this turn for them. This is logged in the channel and in the game's log.",
                seat=texts.seat_tag(seat),
                name=texts.name(rec.names[seat]),
                decide=plugin.must_decide(rec.seen(None), you=False),
            ),
            view=views.confirm_view(cid, tr("Yes, skip the turn")),
        )

    async def _replace(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> None:
        rec = await self._game(channel_id)
        self._check_moderator(itx, rec, tr("hand a seat to someone else"))
        old, new = options.get("old"), options.get("new")
        if old is None or new is None:
            raise Refusal(tr("Name both members: `/games replace old:@player new:@member`."))
        seat = rec.seat_of(old.id)
        if seat is None:
            raise Refusal(tr("{name} has no seat in this game.", name=texts.name(old.display_name)))
        if rec.seat_of(new.id) is not None:
            raise Refusal(
                tr(
                    "{name} already has a seat in this game; a player can hold only one.",
                    name=texts.name(new.display_name),
                )
            )
        if getattr(new, "bot", False) is True:
            raise Refusal(tr("A bot can't take a seat."))
        self._pending_names[new.id] = new.display_name
        cid = ids.CustomId("replace", rec.id, rec.version, f"{old.id}.{new.id}")
        await self.reply(
            itx,
            tr(
                "Hand seat {seat} from {old} to {new}? They get the pings and the panel from now "
                "on. This is logged in the channel.",
                seat=seat + 1,
                old=texts.name(old.display_name),
                new=texts.name(new.display_name),
            ),
            view=views.confirm_view(cid, tr("Yes, hand the seat over")),
        )

    async def _confirm_replace(
        self, itx: discord.Interaction[Any], channel_id: int, cid: ids.CustomId
    ) -> None:
        await self._game(channel_id, game_id=cid.game_id)
        old_raw, _, new_raw = cid.arg.partition(".")
        if not (old_raw.isdigit() and new_raw.isdigit()):
            raise Refusal(tr("That button is not known; run `/games replace` again."))
        old_id, new_id = int(old_raw), int(new_raw)
        name = self._pending_names.get(new_id)
        if name is None:
            raise Refusal(
                tr("That confirmation has expired (the bot restarted); run `/games replace` again.")
            )
        await itx.response.defer()
        rec = await self.service.replace_player(
            channel_id,
            itx.user.id,
            old_id,
            new_id,
            name,
            can_manage=self._can_manage(itx),
            by_name=itx.user.display_name,
        )
        self._pending_names.pop(new_id, None)
        seat = rec.seat_of(new_id)
        assert seat is not None
        await itx.edit_original_response(
            content=tr("Seat {seat} now belongs to {name}.", seat=seat + 1, name=texts.name(name)),
            view=None,
        )

    async def _remove(
        self, itx: discord.Interaction[Any], channel_id: int, options: Mapping[str, Any]
    ) -> None:
        member = options.get("member")
        if member is None:
            raise Refusal(tr("Name the player: `/games remove member:@player`."))
        await itx.response.defer(ephemeral=True, thinking=True)
        await self.service.remove(
            channel_id, itx.user.id, member.id, can_manage=self._can_manage(itx)
        )
        await self.reply(
            itx, tr("{name} was removed from the lobby.", name=texts.name(member.display_name))
        )

    async def _mygames(self, itx: discord.Interaction[Any]) -> str:
        assert itx.guild_id is not None
        games = await self.service.my_games(itx.guild_id, itx.user.id)
        if not games:
            return tr(
                "You have no seat in a lobby or game on this server. Open one with {new}.",
                new=_new_hint(),
            )
        lines = [tr("**Your games here** ({n})", n=len(games))]
        for g in games:
            since = _unix(g.since)
            when = " · " + tr("waiting since <t:{ts}:R>", ts=since) if since is not None else ""
            where = f"<#{g.channel_id}> {g.title}"
            if g.your_turn:
                lines.append(
                    "▶ "
                    + tr("{game} — **your turn**: {decide}", game=where, decide=g.decide)
                    + when
                )
            else:
                lines.append(
                    "• "
                    + tr(
                        "{game} — seat {seat}: {decide}",
                        game=where,
                        seat=g.seat + 1,
                        decide=g.decide,
                    )
                )
        return "\n".join(lines)

    async def _about(self, itx: discord.Interaction[Any]) -> str:
        assert itx.guild_id is not None
        try:
            version = importlib.metadata.version("nauticus-bot")
        except importlib.metadata.PackageNotFoundError:
            version = tr("unknown (not installed)")
        active = await self.service.count_active(itx.guild_id)
        up = int(self.clock() - self.started)
        games = " · ".join(
            tr(
                "{title} (`/{command}`, engine {engine}, {least}–{most} players)",
                title=g.title,
                command=g.command,
                engine=g.rules.engine_version,
                least=g.rules.min_players,
                most=g.rules.max_players,
            )
            for g in GAMES
        )
        ai_moves = (
            tr(", {n} AI moves since start", n=self.ai_runner.played) if self.ai_runner else ""
        )
        return tr(
            "**Nautilus games bot** {version} · discord.py {discord}\nGames installed: {games}\n"
            "Up for {up} · {active} in progress on this server · AI: {workers} process(es)"
            "{ai_moves}.\nWhen reporting a problem, quote these lines and the error id you were "
            "shown.",
            version=version,
            discord=discord.__version__,
            games=games,
            up=_duration(up),
            active=trn("{n} game", "{n} games", active),
            workers=self.service.thinker.workers,
            ai_moves=ai_moves,
        )

    # --- autocomplete --------------------------------------------------------------------------

    async def units(self, itx: discord.Interaction[Any], current: str) -> list[str]:
        """The phases played in the channel's game, latest first, for `history`."""
        if itx.channel_id is None or itx.guild_id is None:
            return []
        try:
            played = await self.service.units_played(itx.channel_id)
        except ServiceError:
            return []
        labels = [f"{r}.{p}" for r, p in reversed(played)]
        return [u for u in labels if u.startswith(current.strip())][:25]

    async def autocomplete(
        self, itx: discord.Interaction[Any], command: str, option: str, current: str
    ) -> list[Suggestion]:
        """Legal values for an option of a move command (none outside a game or a turn), from
        the caller's own legal moves and view only."""
        if itx.channel_id is None or itx.guild_id is None:
            return []
        try:
            rec = await self.service.game_in(itx.channel_id)
        except ServiceError:
            return []
        if rec is None or rec.state is None:
            return []
        seat = rec.seat_of(itx.user.id)
        if seat is None:
            return []
        filled = {k: v for k, v in vars(itx.namespace).items() if k != option}
        return rec.plugin.suggest(rec.seen(seat), command, option, current or "", filled)


# Commands of the shared `/games` group: they act on whatever game the channel holds.
_SHARED = frozenset(
    {
        "status",
        "log",
        "abort",
        "skip",
        "replace",
        "remove",
        "mygames",
        "about",
        "autopilot",
        "deadline",
        "stats",
        "leaderboard",
        "export",
        "replay",
        "reminders",
        "language",
    }
)


def _interval(choice: str) -> int | None:
    """A reminder interval choice ("default", "off", "12h", …) as stored hours."""
    if choice == "default":
        return None
    if choice not in reminders.INTERVALS:
        raise Refusal(
            tr(
                "Reminders can be default, {choices}; not {value}.",
                choices=", ".join(reminders.INTERVALS),
                value=texts.quoted(choice)[:20],
            )
        )
    return reminders.INTERVALS[choice]


def _games(n: int) -> str:
    return trn("{n} game", "{n} games", n)


def _wins(n: int) -> str:
    return trn("{n} win", "{n} wins", n)


def _unix(iso: str) -> int | None:
    try:
        return int(datetime.fromisoformat(iso).timestamp())
    except ValueError:
        return None


def _duration(seconds: int) -> str:
    days, rest = divmod(max(0, seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return tr("{days} d {hours} h", days=days, hours=hours)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


def _int(text: str) -> int:
    return int(text) if text.isdigit() else 0


def _file(f: OutFile) -> discord.File:
    return discord.File(io.BytesIO(f.data), filename=f.filename, description=f.description or None)
