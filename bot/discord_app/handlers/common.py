"""What every handler shares: the context, replies, the one place errors become replies, and
the guards (direct messages, the bot's permissions, the host-or-moderator rule, the game)."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import refusals, reminders, texts
from bot.discord_app import ids, panel, perms
from bot.games import GAMES
from bot.i18n import tr
from bot.outbox import Draw, OutFile, error_id
from bot.plugin import BadOption, GamePlugin, Seen
from bot.service import GameRecord, GameService, NotInGame, ServiceError
from bot.store import DiskFull
from engine.errors import IllegalMove

if TYPE_CHECKING:
    from bot.ai_runner import AiRunner

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()

# (game kind, picture names, the seat's own Seen) -> pictures for that seat's eyes only.
DrawPrivate = Callable[[str, Sequence[str], Seen], tuple[OutFile, ...]]


def draw_private(kind: str, names: Sequence[str], seen: Seen) -> tuple[OutFile, ...]:
    """A seat's private pictures (its hand, its shipyard), drawn from its own view only."""
    assert seen.audience is not None
    pictures = GAMES.get(kind).draw(names, seen)
    return tuple(OutFile(p.filename, p.data, p.description) for p in pictures)


class Refusal(Exception):
    """A request refused by the Discord layer itself (before the service is asked)."""


@dataclass
class Context:
    """What the handlers share across interactions: the service, the drawing functions, the
    clock, and the little state the Discord layer keeps itself."""

    service: GameService
    draw: Draw
    draw_private: DrawPrivate
    clock: Callable[[], float]
    started: float
    ai_runner: AiRunner | None = None  # set by the client that runs AI turns
    # channel id -> when its last public board or history picture was posted (clock time)
    public_board: dict[int, float] = field(default_factory=dict)
    # New seat holders' display names between `/games replace` and its confirmation (no
    # members intent to look them up later); a restart loses them, which only means the
    # moderator runs the command again.
    pending_names: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Call:
    """A slash command: its name ("settings quiet" for a subgroup's), its options, and the kind
    of the `/<game>` group it came from (None for the shared groups)."""

    itx: discord.Interaction[Any]
    channel_id: int
    name: str
    options: Mapping[str, Any]
    game: str | None


@dataclass(frozen=True)
class Click:
    """A click on one of our buttons, or a choice in one of our select menus."""

    itx: discord.Interaction[Any]
    channel_id: int
    cid: ids.CustomId
    values: Sequence[str]

    @property
    def value(self) -> str:
        """The select menu's choice ("" for a button)."""
        return self.values[0] if self.values else ""


CommandHandler = Callable[[Context, Call], Awaitable[None]]
ClickHandler = Callable[[Context, Click], Awaitable[None]]


# --- replies -------------------------------------------------------------------------------------


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


async def refuse(
    itx: discord.Interaction[Any], exc: BaseException, game_id: int | None = None
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
        await reply(itx, texts.quoted(refusals.text(exc)))
        return
    if isinstance(exc, BadOption):
        await reply(itx, texts.quoted(str(exc)))
        return
    if isinstance(exc, ServiceError | Refusal | DiskFull | reminders.SettingError):
        # A full disk is said as it is (DiskFull's text tells the admin what to do).
        await reply(itx, str(exc))
        return
    if isinstance(exc, panel.PanelError):
        await reply(
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
    await reply(
        itx,
        tr(
            "Something went wrong on my side (error `{eid}`); nothing was changed. "
            "Try again, and tell the server admins the error id if it keeps happening.",
            eid=eid,
        ),
    )


def new_hint() -> str:
    return tr(" or ").join(f"`/{g.command} new`" for g in GAMES)


def to_int(text: str) -> int:
    """A custom id's numeric argument (0 if it is not one)."""
    return int(text) if text.isdigit() else 0


def _file(f: OutFile) -> discord.File:
    return discord.File(io.BytesIO(f.data), filename=f.filename, description=f.description or None)


# --- guards --------------------------------------------------------------------------------------


def where(itx: discord.Interaction[Any]) -> int:
    """The channel id, refusing direct messages."""
    if itx.guild_id is None or itx.channel_id is None:
        raise Refusal(
            tr(
                "The games are played in a server channel or thread, not in direct messages. "
                "Open a lobby with `/<game> new` in a channel of your server."
            )
        )
    return itx.channel_id


def _is_thread(channel: Any) -> bool:
    return isinstance(channel, discord.Thread)


def check_bot_permissions(itx: discord.Interaction[Any]) -> None:
    lacking = perms.missing(itx.app_permissions, in_thread=_is_thread(itx.channel))
    if lacking:
        log.warning("missing permissions in channel %s: %s", itx.channel_id, lacking)
        raise Refusal(perms.refusal(lacking))


def posting_warning(itx: discord.Interaction[Any]) -> str:
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


def can_manage(itx: discord.Interaction[Any]) -> bool:
    """The member's Manage Channels permission here, which the service weighs with the host."""
    return bool(itx.permissions.manage_channels)


def check_host_or_moderator(itx: discord.Interaction[Any], rec: GameRecord, refusal: str) -> None:
    """The host-or-moderator rule, checked before a prompt the service would only refuse to
    carry out (the service checks it again, from `can_manage`, when the action is confirmed).
    `refusal` says what the member may not do, already in their language."""
    if itx.user.id != rec.host_id and not can_manage(itx):
        raise Refusal(refusal)


async def game(ctx: Context, channel_id: int, *, game_id: int | None = None) -> GameRecord:
    """The channel's lobby or game (the one the button belongs to, when `game_id` is given)."""
    rec = await ctx.service.game_in(channel_id)
    if rec is None or (game_id is not None and rec.id != game_id):
        raise Refusal(
            tr("That game is no longer running here.")
            if game_id is not None
            else tr("There is no game here. Open a lobby with {new}.", new=new_hint())
        )
    return rec


async def playing(
    ctx: Context, channel_id: int, user_id: int, *, game_id: int | None = None
) -> tuple[GameRecord, Any, int]:
    """The channel's running game, its state and the member's seat in it."""
    rec = await game(ctx, channel_id, game_id=game_id)
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


async def plugin_here(ctx: Context, channel_id: int, kind: str | None) -> GamePlugin:
    """The game of the command's group, or of the channel's game; refuses a mismatch."""
    rec = await ctx.service.game_in(channel_id)
    if kind is None:
        if rec is None:
            raise Refusal(tr("There is no game here. Open a lobby with {new}.", new=new_hint()))
        return rec.plugin
    plugin = GAMES.get(kind)
    if rec is not None and rec.kind != plugin.kind:
        here = rec.plugin
        raise Refusal(
            tr(
                "This channel is playing {here}, not {game}: use `/{command} …` here (one "
                "game per channel).",
                here=tr(here.title),
                game=tr(plugin.title),
                command=here.command,
            )
        )
    return plugin
