"""The kernel: what every concern of the core stands on.

It holds the per-channel locks (moves in one channel are serial; a stale panel or a double
click fails the version check and is refused, never applied twice), the cache of games in
progress, loading a game with its replay check, and the wake-ups after a change (the outbox
sender and the AI runner). Every concern (`bot.core.turns`, `lobby`, …) is handed the one
kernel of the service; none of them keeps state of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot import ai_seats, texts
from bot.core.errors import (
    GameUnavailable,
    NoGame,
    NotAllowed,
    ServiceError,
)
from bot.core.game import (
    GameRecord,
    checked,
    new_commands,
    no_game_here,
    replay,
    same_state,
    seat_list,
)
from bot.games import GAMES
from bot.i18n import tr
from bot.outbox import Outbox, error_id
from bot.store import (
    GameRow,
    Store,
    Tx,
    UnreadableMove,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_LOBBY_IDLE = timedelta(days=7)
# Two identical slash-command moves of one player this close together are one double send.
DUPLICATE_WINDOW = timedelta(seconds=10)


def check_may_manage(host_id: int, user_id: int, can_manage: bool, what: str) -> None:
    """The one host-or-moderator rule: the host, or a member with Manage Channels (which the
    Discord layer checked and passes as `can_manage`)."""
    if user_id != host_id and not can_manage:
        raise NotAllowed(
            tr("Only the host or a member with Manage Channels can {what}.", what=what),
            host_id=host_id,
        )


class Kernel:
    """Locks, cache, loading and wake-ups, shared by every concern of one service."""

    def __init__(
        self,
        store: Store,
        *,
        outbox: Outbox | None,
        cache_size: int,
        lobby_idle: timedelta | None,
        clock: Callable[[], datetime],
        thinker: ai_seats.Thinker | None,
    ):
        self.store = store
        # Where AI decisions are computed (the bot passes a process pool; inline by default).
        self.thinker = thinker or ai_seats.Thinker(workers=0)
        # Told (channel, version) whenever the AI should play the seat to move; the bot's
        # AiRunner plays it after a short delay. None: nobody plays AI turns (tests call
        # `play_ai` themselves).
        self.on_ai_turn: Callable[[int, int], None] | None = None
        self.outbox = outbox
        self.locks: dict[int, asyncio.Lock] = {}
        self.cache: dict[int, GameRecord] = {}  # channel -> active game, replay-checked
        self._cache_size = cache_size
        self.lobby_idle = lobby_idle  # None: lobbies never expire
        self.clock = clock
        self.started_at = clock()
        self._closing = False
        # (channel, user) -> the last slash-command move (or UNDO) the user sent, when, and the
        # game's version right after it (see `double_send`).
        self._last_command: dict[tuple[int, int], tuple[object, datetime, int]] = {}

    async def close(self) -> None:
        """Refuse new requests and wait until those already running have committed.

        Every write happens under a channel lock, so once each lock has been held once after
        `closing` is set, no move is in flight and the connection can be closed.
        """
        self._closing = True
        for lock in list(self.locks.values()):
            async with lock:
                pass

    @property
    def closing(self) -> bool:
        return self._closing

    def forget(self, channel_id: int) -> None:
        """Drop a channel's game from the cache: it is read (and replay-checked) again on next
        use, after a change that touched more than its state (seats, settings, status)."""
        self.cache.pop(channel_id, None)

    async def write_game(self, channel_id: int, work: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """`work(tx)` in one transaction and one hop to the database's thread
        (`Store.write_at_once`): how a move, a robot's move, a skip and a take-back are stored.
        If the caller is cancelled meanwhile, the transaction may be committed all the same:
        the channel's cached game is then forgotten, to be read again rather than trusted."""
        try:
            return await self.store.write_at_once(work)
        except asyncio.CancelledError:
            self.forget(channel_id)
            raise

    async def reload(self, tx: Tx, game_id: int) -> GameRecord:
        """A game as just written in this transaction."""
        row = await tx.game(game_id)
        assert row is not None
        return await self.record(tx, row)

    @asynccontextmanager
    async def open_for_write(self, channel_id: int) -> AsyncIterator[tuple[Tx, GameRow]]:
        """The channel's lock, a write transaction, and its open lobby or game (NoGame else)."""
        async with self.lock(channel_id), self.store.write() as tx:
            yield tx, await self.open_row(tx, channel_id)

    def double_send(self, key: tuple[int, int], what: object, version: int) -> bool:
        """Whether `what` (a slash-command move, or UNDO) from this (channel, user) repeats the
        last one they sent, with the game still at the version that one left and within
        DUPLICATE_WINDOW: Discord can deliver one command twice, and a slash command carries
        no version to tell the copies apart. Any change to the game in between (a move by
        anyone, an undo) makes the same command a new intent."""
        last = self._last_command.get(key)
        return (
            last is not None
            and last[0] == what
            and last[2] == version
            and self.clock() - last[1] < DUPLICATE_WINDOW
        )

    def sent(self, key: tuple[int, int], what: object | None, version: int) -> None:
        """Remember a slash command just carried out (None: a component, which carries its
        version and so needs no guard, forgets the last command)."""
        if what is None:
            self._last_command.pop(key, None)
            return
        now = self.clock()
        if len(self._last_command) > 10_000:  # only the last few seconds matter
            self._last_command = {
                k: v for k, v in self._last_command.items() if now - v[1] < DUPLICATE_WINDOW
            }
        self._last_command[key] = (what, now, version)

    def lock(self, channel_id: int) -> asyncio.Lock:
        checked(channel_id)
        if self.closing:
            raise ServiceError(
                tr("The bot is restarting; nothing was changed. Try again in a minute."),
                code="closing",
            )
        lock = self.locks.get(channel_id)
        if lock is None:
            lock = self.locks[channel_id] = asyncio.Lock()
        return lock

    def kick(self) -> None:
        if self.outbox is not None:
            self.outbox.kick()

    def remember(self, rec: GameRecord) -> None:
        if rec.status == "active":
            self.forget(rec.channel_id)
            self.cache[rec.channel_id] = rec
            while len(self.cache) > self._cache_size:
                self.cache.pop(next(iter(self.cache)))
        else:
            self.forget(rec.channel_id)

    async def record(self, tx: Tx, row: GameRow) -> GameRecord:
        seat_rows = await tx.seats(row.id)
        seats = seat_list(seat_rows)
        state = None
        if row.state_json is not None:
            try:
                state = GAMES.get(row.kind).rules.from_json(row.state_json)
            except Exception:
                # A state another engine version wrote in a shape this one can't read, or a
                # damaged one: `_active` refuses (or flags) such a game with an error id and
                # `check_all` reports it, instead of every look at the channel failing.
                log.exception("game %s: state of engine %s unreadable", row.id, row.engine_version)
        return GameRecord(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            status=row.status,
            host_id=row.host_id,
            version=row.version,
            state=state,
            seats=seats,
            engine_version=row.engine_version,
            seed=row.seed,
            # Also held (in memory) while a seat's stored AI level is damaged.
            flagged=row.flagged or ai_seats.damaged_level(tx, row, seat_rows),
            seating=row.seating,
            updated_at=row.updated_at,
            kind=row.kind,
            deadline_hours=row.deadline_hours,
            reminder_hours=row.reminder_hours,
            locale=row.locale,
        )

    async def active(self, channel_id: int) -> GameRecord:
        """The channel's game in progress, checked against its log when first loaded.

        Raises:
            NoGame: nothing is being played here.
            GameUnavailable: the stored game disagrees with its log, or another engine version
                wrote a state this one can't read.

        A game stored by another engine version (before an upgrade) goes on from the state it
        stored: its log was played under other rules, so it is not replayed.
        """
        rec = self.cache.get(channel_id)
        if rec is not None:
            return rec
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise NoGame(no_game_here())
            if row.status == "lobby":
                raise NoGame(
                    tr(
                        "The game here hasn't started yet: join the lobby, and the host presses "
                        "Start."
                    )
                )
            rec = await self.record(tx, row)
            if rec.flagged:
                raise GameUnavailable(
                    tr(
                        "This game is on hold ({flagged}). An admin sees why with `python -m bot "
                        "check`, and can `/games abort` it.",
                        flagged=rec.flagged,
                    ),
                    code="flagged",
                    error_id=rec.flagged.split("]")[0].lstrip("["),
                )
            engine_version = rec.plugin.rules.engine_version
            unreadable: str | None = None  # a move-log row that is not valid JSON
            try:
                moves = await tx.moves(row.id) if row.engine_version == engine_version else None
            except UnreadableMove as exc:
                moves, unreadable = [], str(exc)
        if rec.state is None and row.engine_version != engine_version:
            eid = error_id()
            log.error(
                "game %s: stored by engine %s, running %s: state unreadable [error %s]",
                row.id,
                row.engine_version,
                engine_version,
                eid,
            )
            raise GameUnavailable(
                tr(
                    "This game was saved by another engine version ({version}) in a form this "
                    "one can't read, so it can't continue (error {eid}).",
                    version=row.engine_version,
                    eid=eid,
                ),
                code="engine_version",
                error_id=eid,
            )
        if moves is None:
            self.remember(rec)
            return rec
        replayed: Any = None
        if rec.state is not None and unreadable is None:
            try:
                replayed = replay(rec.plugin, rec.seed, len(rec.seats), moves)
            except Exception:
                # A log the engine refuses is as much a mismatch as a different state; letting
                # the engine's error through would read as if the player's move were illegal.
                log.exception("game %s: its log does not replay", rec.id)
        if replayed is None or rec.state is None or not same_state(rec.plugin, replayed, rec.state):
            eid = error_id()
            if unreadable is not None:
                reason = f"[{eid}] {unreadable}"
            elif rec.state is None:
                reason = f"[{eid}] stored state unreadable"
            elif replayed is None:
                reason = f"[{eid}] its {len(moves)} moves do not replay"
            else:
                reason = f"[{eid}] state differs from a replay of its {len(moves)} moves"
            log.error("game %s flagged: %s", rec.id, reason)
            async with self.store.write() as tx:
                await tx.flag_game(rec.id, reason)
            raise GameUnavailable(
                tr(
                    "This game is on hold: its stored state doesn't match its move log, so it "
                    "was not used (error {eid}). An admin can `/games abort` it.",
                    eid=eid,
                ),
                code="flagged",
                error_id=eid,
            )
        self.remember(rec)
        return rec

    async def game_in(self, channel_id: int) -> GameRecord | None:
        """The lobby or game in progress in a channel, or None."""
        cached = self.cache.get(channel_id)
        if cached is not None:
            return cached
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            return None if row is None else await self.record(tx, row)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The most recent game of a channel, finished or aborted ones included."""
        cached = self.cache.get(channel_id)
        if cached is not None:
            return cached
        async with self.store.read() as tx:
            row = await tx.last_game(channel_id)
            return None if row is None else await self.record(tx, row)

    async def active_games(self) -> list[GameRecord]:
        """Every game in progress (start-up: nothing to re-register but what is listed here)."""
        async with self.store.read() as tx:
            rows = await tx.games_with_status("active")
            return [await self.record(tx, r) for r in rows]

    async def open_row(self, tx: Tx, channel_id: int) -> GameRow:
        row = await tx.open_game(channel_id)
        if row is None:
            raise NoGame(
                tr("There is no lobby here. Open one with {commands}.", commands=new_commands())
            )
        return row

    async def game_here(self, tx: Tx, channel_id: int, game_id: int | None) -> GameRow:
        """Game `game_id` of this channel, or (None) the channel's open or latest game."""
        if game_id is None:
            row = await tx.open_game(channel_id) or await tx.last_game(channel_id)
        else:
            row = await tx.game(game_id)
            if row is not None and row.channel_id != channel_id:
                row = None
        if row is None:
            raise NoGame(
                tr(
                    "No game was played here yet. Start one with {commands}.",
                    commands=new_commands(),
                )
            )
        if row.kind not in GAMES.games:
            raise GameUnavailable(
                tr(
                    "That game ({kind}) is not installed on this bot.",
                    kind=texts.quoted(row.kind)[:40],
                ),
                code="not_installed",
                error_id=f"game-{row.id}",
            )
        return row

    def ai_reason(self, rec: GameRecord, now: datetime | None = None) -> str | None:
        """Why the AI should play the seat to move now: "robot", "autopilot", "deadline" (the
        host's turn deadline has passed), or None (a person decides)."""
        seat = rec.current
        if rec.status != "active" or seat is None or rec.flagged:
            return None
        holder = rec.seats[seat]
        if holder.robot:
            return "robot"
        if holder.ai is not None:
            return "autopilot"
        due = self.deadline_at(rec)
        if due is not None and (now or self.clock()) >= due:
            return "deadline"
        return None

    def deadline_at(self, rec: GameRecord) -> datetime | None:
        """When the AI takes the waiting seat's turn (None: no deadline). The wait starts at the
        game's last change: a move, a skip, a seat handed over."""
        if rec.deadline_hours is None or rec.current is None or not rec.updated_at:
            return None
        since = datetime.fromisoformat(rec.updated_at)
        return since + timedelta(hours=rec.deadline_hours)

    def ai_check(self, rec: GameRecord) -> None:
        """Tell the AI runner when a robot or an autopilot seat is to move."""
        if self.on_ai_turn is not None and self.ai_reason(rec) in ("robot", "autopilot"):
            self.on_ai_turn(rec.channel_id, rec.version)
