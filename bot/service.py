"""GameService: the one place every lobby change and every move goes through.

load -> check the user's seat and turn -> the game's `rules.apply` -> persist (move, state under
a version check, outbox rows: one transaction) -> kick the outbox sender. Every game goes
through here the same way: the service knows a game only as a `GamePlugin` of the registry, and
builds every word it stores for the channel from the public `Seen` (`bot.visibility`). Moves in
one channel are serial (a per-channel asyncio.Lock); a stale panel or a double click fails the
version check and is refused, never applied twice.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from bot import ai_seats, i18n, move_words, ratings, records, reminders, texts, undo
from bot.games import GAMES
from bot.i18n import N_, t, tr, trn
from bot.outbox import Outbox, error_id
from bot.plugin import EventLine, GamePlugin, Post, Seen
from bot.store import (
    GameRow,
    MoveRow,
    NewOutbox,
    SeatRow,
    Store,
    Tx,
    UnreadableMove,
    UserSettings,
    WaitRow,
)
from bot.visibility import event_dict, readable, seen
from engine.api import EventLike

log = logging.getLogger(__name__)


# --- errors --------------------------------------------------------------------------------


class ServiceError(Exception):
    """A request the service refuses; `str(exc)` says what is wrong and what to do instead."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params


class NoGame(ServiceError):
    code = "no_game"


class NotInGame(ServiceError):
    code = "not_in_game"


class NotYourTurn(ServiceError):
    code = "not_your_turn"


class StaleVersion(ServiceError):
    code = "stale_version"

    def __init__(self, message: str, *, current: int) -> None:
        super().__init__(message, current=current)
        self.current = current


class NeedsConfirmation(ServiceError):
    code = "needs_confirmation"

    def __init__(self, reason: str) -> None:
        super().__init__(tr("{reason} Confirm to go ahead (or use confirm:true).", reason=reason))
        self.reason = reason


class NotAllowed(ServiceError):
    code = "not_allowed"


class UndoRefused(ServiceError):
    code = "undo_refused"


class LobbyError(ServiceError):
    code = "lobby"


class GameUnavailable(ServiceError):
    """The stored game can't be used safely (replay mismatch, other engine version)."""

    code = "unavailable"

    def __init__(self, message: str, *, code: str, error_id: str) -> None:
        super().__init__(message, code=code, error_id=error_id)
        self.error_id = error_id


# --- records ---------------------------------------------------------------------------------


class Seat(NamedTuple):
    seat: int  # engine seat, 0-based (players read seat + 1)
    user_id: int  # < 0: a robot seat, no Discord member behind it
    name: str
    ai: str | None = None  # the AI level that plays this seat (robot or autopilot), else None

    @property
    def robot(self) -> bool:
        return self.user_id < 0


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    status: str  # "lobby" | "active" | "finished" | "aborted"
    host_id: int
    version: int
    state: Any  # the engine's state (opaque here), None in a lobby or when unreadable
    seats: list[Seat]
    engine_version: str
    seed: int
    flagged: str | None = None
    seating: str = "random"  # lobby setting: "random" draw or "join" order
    updated_at: str = ""
    kind: str = ""  # the game (registry key)
    deadline_hours: int | None = None  # the host's turn deadline (None: none)
    reminder_hours: int | None = None  # the host's reminder interval (None: not set, 0: off)
    locale: str = i18n.ENGLISH  # the language of the game's channel posts

    @property
    def plugin(self) -> GamePlugin:
        return GAMES.get(self.kind)

    def seen(self, audience: int | None) -> Seen:
        """What `audience` (None: the channel; a seat: its holder alone) may see now."""
        assert self.state is not None
        # A record never changes, so each audience's Seen is made once (kept in __dict__:
        # the dataclass is frozen, and `replace` makes a new record with an empty cache).
        cache: dict[int | None, Seen] = self.__dict__.setdefault("_seen", {})
        found = cache.get(audience)
        if found is None:
            found = cache[audience] = seen(self.plugin, self.state, self.names, audience)
        return found

    @property
    def current(self) -> int | None:
        """The seat that must decide now (None in a lobby or once over)."""
        return None if self.state is None else self.plugin.rules.current(self.state)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def user_at(self, seat: int) -> int:
        return self.seats[seat].user_id


@dataclass(frozen=True)
class PlayResult:
    record: GameRecord  # the game after the move
    move: dict[str, Any]
    events: list[EventLike]
    text: str  # the move in words, with its cost
    n: int  # the move's number in the game's log


def _seats(rows: Sequence[SeatRow]) -> list[Seat]:
    return [Seat(r.seat, r.user_id, r.name, r.ai) for r in rows]


DEFAULT_LOBBY_IDLE = timedelta(days=7)
# Two identical slash-command moves of one player this close together are one double send.
DUPLICATE_WINDOW = timedelta(seconds=10)
UNDO = "undo"  # what `_double_send` remembers of a slash `/<game> undo`
SKIP_LIMIT = 12  # moves one skip may play: choose, bonus, rewards, pass, end turn


def utc_now() -> datetime:
    return datetime.now(UTC)


LOG_PAGE = 15  # moves on one page of `/games log` (a reply holds 2,000 characters)
DIGEST_LINES = 4  # players' runs of moves shown in a turn ping; the rest is in `/games log`


def _newest_first_fit(words: Sequence[str], limit: int) -> str:
    """`words` joined with " · ", dropping the oldest (not the newest) when too long."""
    kept: list[str] = []
    size = 0
    for w in reversed(words):
        if kept and size + len(w) + 3 > limit:
            return "… · " + " · ".join(reversed(kept))
        kept.append(texts.fit(w, limit))
        size += len(w) + 3
    return " · ".join(reversed(kept))


def _iso(when: datetime) -> str:
    """A stored time: UTC, to the second, so stored times compare as text in SQL."""
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _iso_or_none(when: datetime | None) -> str | None:
    return None if when is None else _iso(when)


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


@dataclass(frozen=True)
class SkipResult:
    record: GameRecord
    seat: int  # the seat whose turn was skipped
    texts: list[str]  # the moves played for it, in words


@dataclass(frozen=True)
class MyGame:
    """One line of `/games mygames`."""

    game_id: int
    channel_id: int
    status: str
    seat: int
    your_turn: bool
    decide: str  # what you (or whoever acts) must decide
    since: str  # when the game last changed (ISO time): how long it has waited
    title: str = ""  # the game's name


def replay(plugin: GamePlugin, seed: int, players: int, moves: Sequence[MoveRow]) -> Any:
    """Rebuild a game from its seed and log."""
    rules = plugin.rules
    state = rules.new_game(players, seed)
    for m in moves:
        state, _ = rules.apply(state, m.seat, m.move)
    return state


def _same(plugin: GamePlugin, a: Any, b: Any) -> bool:
    return plugin.rules.to_json(a) == plugin.rules.to_json(b)


def _post_payload(rec: GameRecord, post: Post, public: Seen) -> dict[str, Any]:
    """An outbox payload of a public post: its pictures are drawn from the public view only."""
    assert public.audience is None
    return {
        "text": post.text,
        "pictures": list(post.pictures),
        "view": public.view,
        "game": rec.kind,
    }


def _new_commands() -> str:
    return tr(" or ").join(f"`/{g.command} new`" for g in GAMES)


def _no_game_here() -> str:
    return tr("No game is being played here. Start one with {commands}.", commands=_new_commands())


def _checked(*values: object) -> None:
    """Refuse an id or count no Discord request carries (not an int, or outside SQLite's
    64-bit integers), before it reaches the database."""
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not -(1 << 63) <= v < 1 << 63:
            raise ServiceError(
                tr("That request is malformed; nothing was changed."), code="bad_input"
            )


# A move is a small JSON object (a type and a few values); anything much deeper or larger is not
# a move, and an engine that quotes it back in a refusal would recurse through it.
MOVE_DEPTH = 8
MOVE_NODES = 200


def _move_shaped(move: object) -> bool:
    """Whether `move` is a dict of at most MOVE_DEPTH levels and MOVE_NODES values (walked
    without recursion, so no nesting can exhaust the stack here)."""
    if not isinstance(move, dict):
        return False
    todo: list[tuple[object, int]] = [(move, 1)]
    nodes = 0
    while todo:
        value, depth = todo.pop()
        nodes += 1
        if depth > MOVE_DEPTH or nodes > MOVE_NODES:
            return False
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            todo.extend((v, depth + 1) for v in value)
    return True


# --- the service -----------------------------------------------------------------------------


class GameService:
    """Every lobby action and move of every channel, from every source (commands, buttons,
    the offline runner)."""

    def __init__(
        self,
        store: Store,
        *,
        outbox: Outbox | None = None,
        cache_size: int = 2000,
        lobby_idle: timedelta | None = DEFAULT_LOBBY_IDLE,
        clock: Callable[[], datetime] = utc_now,
        thinker: ai_seats.Thinker | None = None,
    ):
        self.store = store
        # Where AI decisions are computed (the bot passes a process pool; inline by default).
        self.thinker = thinker or ai_seats.Thinker(workers=0)
        # Told (channel, version) whenever the AI should play the seat to move; the bot's
        # AiRunner plays it after a short delay. None: nobody plays AI turns (tests call
        # `play_ai` themselves).
        self.on_ai_turn: Callable[[int, int], None] | None = None
        self.outbox = outbox
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, GameRecord] = {}  # channel -> active game, replay-checked
        self._cache_size = cache_size
        self.lobby_idle = lobby_idle  # None: lobbies never expire
        self.clock = clock
        self.started_at = clock()
        self._closing = False
        # (channel, user) -> the last slash-command move (or UNDO) the user sent, when, and the
        # game's version right after it (see `_double_send`).
        self._last_command: dict[tuple[int, int], tuple[object, datetime, int]] = {}

    def _double_send(self, key: tuple[int, int], what: object, version: int) -> bool:
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

    def _sent(self, key: tuple[int, int], what: object | None, version: int) -> None:
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

    def _lock(self, channel_id: int) -> asyncio.Lock:
        _checked(channel_id)
        if self._closing:
            raise ServiceError(
                tr("The bot is restarting; nothing was changed. Try again in a minute."),
                code="closing",
            )
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def close(self) -> None:
        """Refuse new requests and wait until those already running have committed.

        Every write happens under a channel lock, so once each lock has been held once after
        `_closing` is set, no move is in flight and the connection can be closed.
        """
        self._closing = True
        for lock in list(self._locks.values()):
            async with lock:
                pass

    @property
    def closing(self) -> bool:
        return self._closing

    def _kick(self) -> None:
        if self.outbox is not None:
            self.outbox.kick()

    def _remember(self, rec: GameRecord) -> None:
        if rec.status == "active":
            self._cache.pop(rec.channel_id, None)
            self._cache[rec.channel_id] = rec
            while len(self._cache) > self._cache_size:
                self._cache.pop(next(iter(self._cache)))
        else:
            self._cache.pop(rec.channel_id, None)

    # --- loading -----------------------------------------------------------------------------

    async def _record(self, tx: Tx, row: GameRow) -> GameRecord:
        seat_rows = await tx.seats(row.id)
        seats = _seats(seat_rows)
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

    async def _active(self, channel_id: int) -> GameRecord:
        """The channel's game in progress, checked against its log when first loaded.

        Raises:
            NoGame: nothing is being played here.
            GameUnavailable: the stored game disagrees with its log, or another engine version
                wrote a state this one can't read.

        A game stored by another engine version (before an upgrade) goes on from the state it
        stored: its log was played under other rules, so it is not replayed.
        """
        rec = self._cache.get(channel_id)
        if rec is not None:
            return rec
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise NoGame(_no_game_here())
            if row.status == "lobby":
                raise NoGame(
                    tr(
                        "The game here hasn't started yet: join the lobby, and the host presses "
                        "Start."
                    )
                )
            rec = await self._record(tx, row)
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
            self._remember(rec)
            return rec
        replayed: Any = None
        if rec.state is not None and unreadable is None:
            try:
                replayed = replay(rec.plugin, rec.seed, len(rec.seats), moves)
            except Exception:
                # A log the engine refuses is as much a mismatch as a different state; letting
                # the engine's error through would read as if the player's move were illegal.
                log.exception("game %s: its log does not replay", rec.id)
        if replayed is None or rec.state is None or not _same(rec.plugin, replayed, rec.state):
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
        self._remember(rec)
        return rec

    async def game_in(self, channel_id: int) -> GameRecord | None:
        """The lobby or game in progress in a channel, or None."""
        cached = self._cache.get(channel_id)
        if cached is not None:
            return cached
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id)
            return None if row is None else await self._record(tx, row)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The most recent game of a channel, finished or aborted ones included."""
        cached = self._cache.get(channel_id)
        if cached is not None:
            return cached
        async with self.store.read() as tx:
            row = await tx.last_game(channel_id)
            return None if row is None else await self._record(tx, row)

    async def log(self, channel_id: int, n: int = 10, *, reader_id: int | None = None) -> list[str]:
        """The last `n` moves of the channel's current (or last) game, in words, as the member
        `reader_id` may read them: every move's public line, and the private lines of their own
        seat's events (the caller shows them only to that member).

        Raises:
            NoGame: no game was ever played here.
        """
        _checked(channel_id, n)
        lines, _, _ = await self._log(channel_id, reader_id, last=max(0, n))
        return lines

    async def log_page(
        self, channel_id: int, page: int, *, reader_id: int | None = None
    ) -> tuple[list[str], int, int]:
        """Page `page` of the whole log (`LOG_PAGE` moves a page; 1 = the newest), the page
        shown (clamped) and the number of pages.

        Raises:
            NoGame, GameUnavailable.
        """
        _checked(channel_id, page)
        return await self._log(channel_id, reader_id, page=page)

    async def _log(
        self,
        channel_id: int,
        reader_id: int | None,
        *,
        last: int | None = None,
        page: int | None = None,
    ) -> tuple[list[str], int, int]:
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.last_game(channel_id)
            if row is None:
                raise NoGame(
                    tr(
                        "No game was played here yet. Start one with {commands}.",
                        commands=_new_commands(),
                    )
                )
            plugin = GAMES.get(row.kind)
            seats = _seats(await tx.seats(row.id))
            try:
                if last is not None:
                    moves = await tx.last_moves(row.id, last, with_undone=True)
                    pages, newest = 1, True
                else:
                    everything = await tx.moves(row.id, with_undone=True)
                    pages = max(1, -(-len(everything) // LOG_PAGE))
                    page = min(max(1, page or 1), pages)
                    end = len(everything) - (page - 1) * LOG_PAGE
                    moves = everything[max(0, end - LOG_PAGE) : end]
                    newest = page == 1
                undone = await tx.undone(row.id)
            except UnreadableMove as exc:
                raise GameUnavailable(
                    tr(
                        "This game's log is damaged ({problem}), so it can't be shown and the "
                        "game is on hold. An admin can `/games abort` it; `python -m bot check` "
                        "lists it.",
                        problem=exc,
                    ),
                    code="unreadable_log",
                    error_id=f"move-{exc.n}",
                ) from None
            admin = await tx.admin_log(row.id, after_move=(moves[0].n - 2) if moves else -1)
        if not newest and moves:
            admin = [a for a in admin if a[0] < moves[-1].n]
        reader = next((s.seat for s in seats if s.user_id == reader_id), None)
        lines = []
        for m in moves:
            while admin and admin[0][0] < m.n:
                lines.append(f"— {admin.pop(0)[2]}")
            who = (
                texts.name(seats[m.seat].name)
                if m.seat < len(seats)
                else tr("seat {n}", n=m.seat + 1)
            )
            back = tr(" ↩️ (taken back)") if m.n in undone else ""
            lines.append(
                f"{m.n}. R{m.round}·P{m.phase} {texts.PLAYER_MARKS[m.seat].emoji} {who}: "
                f"{m.text}{back}"
            )
            if reader is not None:
                for e in m.events:
                    if e.get("private_to") == reader:
                        line = plugin.private_line(e)
                        lines.append("   " + tr("🔒 only you see: {line}", line=line))
        if newest:
            lines += [f"— {a[2]}" for a in admin]
        return lines, page or 1, pages

    async def active_games(self) -> list[GameRecord]:
        """Every game in progress (start-up: nothing to re-register but what is listed here)."""
        async with self.store.read() as tx:
            rows = await tx.games_with_status("active")
            return [await self._record(tx, r) for r in rows]

    async def check_all(self) -> list[tuple[int, int, str]]:
        """Replay every stored game against its log; return (game id, channel id, problem) for
        each mismatch. Games stored by another engine version are not replayed (their logs were
        played under other rules); only an unreadable state of theirs is a problem."""
        async with self.store.read() as tx:
            rows = await tx.games_with_status("active", "finished")
            problems = []
            loaded = []
            for r in rows:
                try:
                    loaded.append((await self._record(tx, r), await tx.moves(r.id)))
                except UnreadableMove as exc:  # that game only; the others are still checked
                    problems.append((r.id, r.channel_id, str(exc)))
        for rec, moves in loaded:
            if rec.state is None:
                problems.append(
                    (rec.id, rec.channel_id, f"state of engine {rec.engine_version} unreadable")
                )
                continue
            if rec.engine_version != rec.plugin.rules.engine_version:
                continue
            try:
                replayed = replay(rec.plugin, rec.seed, len(rec.seats), moves)
            except Exception as exc:
                problems.append((rec.id, rec.channel_id, f"replay fails: {exc}"))
                continue
            if not _same(rec.plugin, replayed, rec.state):
                problems.append(
                    (rec.id, rec.channel_id, f"state differs from a replay of {len(moves)} moves")
                )
        return problems

    # --- moves -------------------------------------------------------------------------------

    async def play(
        self,
        channel_id: int,
        user_id: int,
        move: dict[str, Any],
        *,
        version: int | None = None,
        confirm: bool = False,
        command: bool = False,
    ) -> PlayResult:
        """Play `move` for the user in the channel's game.

        `command`: the move comes from a slash command, which carries no version; the same
        command of the same player again within `DUPLICATE_WINDOW` is taken for a double send
        and refused (a component's version already refuses a second click).

        Raises:
            NoGame, NotInGame, NotYourTurn, StaleVersion, NeedsConfirmation, GameUnavailable:
                the move is refused and nothing changes.
            IllegalMove: the engine refuses the move (its message says why).
        """
        _checked(user_id, *([] if version is None else [version]))
        if not _move_shaped(move):
            raise ServiceError(tr("That move is malformed; nothing was changed."), code="bad_input")
        async with self._lock(channel_id):
            rec = await self._active(channel_id)
            state = rec.state
            assert state is not None
            seat = rec.seat_of(user_id)
            if seat is None:
                raise NotInGame(
                    tr(
                        "You are not playing in this game. You can follow it with "
                        "`/{command} board` and join the next one when its lobby opens.",
                        command=rec.plugin.command,
                    )
                )
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "That was an old panel or a second click: the game has moved on since. "
                        "Here is the current state; choose again."
                    ),
                    current=rec.version,
                )
            current = rec.current
            if current != seat:
                if current is None:
                    raise NotYourTurn(tr("The game is over: there is nothing left to play."))
                who = f"{texts.seat_tag(current)} {texts.name(rec.names[current])}"
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                raise NotYourTurn(
                    tr(
                        "It's not your turn: {who} must {must}. You'll be pinged when it's yours.",
                        who=who,
                        must=must,
                    ),
                    current=current,
                )
            if not confirm:
                reason = rec.plugin.confirmation(rec.seen(seat), move)
                if reason is not None:
                    raise NeedsConfirmation(reason)
            key = (channel_id, user_id)
            if command and self._double_send(key, move, rec.version):
                raise ServiceError(
                    tr(
                        "You sent exactly this move a moment ago and nothing has happened since, "
                        "so this looks like a double send: nothing was played twice. To play it "
                        "again, send it once more after {window} s, or use the panel.",
                        window=int(DUPLICATE_WINDOW.total_seconds()),
                    ),
                    code="duplicate",
                )
            # An illegal move raises inside the transaction, which then writes nothing.
            async with self.store.write() as tx:
                result = await self._commit(tx, rec, seat, user_id, move)
            self._remember(result.record)
            self._sent(key, move if command else None, result.record.version)
        self._kick()
        self._ai_check(result.record)
        return result

    async def _commit(
        self, tx: Tx, rec: GameRecord, seat: int, user_id: int, move: dict[str, Any], note: str = ""
    ) -> PlayResult:
        """Append one move, store the new state under the version check, queue its messages."""
        state = rec.state
        assert state is not None
        plugin = rec.plugin
        rules = plugin.rules
        new_state, events = rules.apply(state, seat, move)
        # The log line is public: an engine's describe never names a secret (engine/api.py).
        # The log line is written once, in the game's language (it is shown as stored).
        with i18n.use(rec.locale):
            text = move_words.describe(rec.kind, move, state) + note
        evs = [event_dict(e) for e in events]
        status = "finished" if rules.is_over(new_state) else "active"
        before = rec.seen(None)
        round_, phase = plugin.unit(before)
        n = await tx.append_move(
            rec.id,
            seat=seat,
            user_id=user_id,
            round=round_,
            phase=phase,
            move=move,
            events=evs,
            text=text,
        )
        ok = await tx.bump_game(
            rec.id, rec.version, state_json=rules.to_json(new_state), status=status
        )
        if not ok:
            # Only this service writes games, under this lock: a miss means another
            # process shares the database. Refuse rather than overwrite.
            self._cache.pop(rec.channel_id, None)
            raise StaleVersion(
                tr("The game changed while your move was being saved; choose again."),
                current=rec.version,
            )
        after = replace(rec, version=rec.version + 1, state=new_state, status=status)
        if status == "finished":
            # The result and the rating change are stored with the last move, or not at all.
            await self._record_result(tx, after)
        rows = await self._rows_after_move(
            tx, after, before, rules.current(state), seat, (round_, phase), evs
        )
        await tx.add_outbox(rec.id, rows)
        return PlayResult(after, move, list(events), text, n)

    async def _rows_after_move(
        self,
        tx: Tx,
        rec: GameRecord,
        before: Seen,
        before_current: int | None,
        seat: int,
        unit: tuple[int, int],
        evs: list[dict[str, Any]],
    ) -> list[NewOutbox]:
        """The channel posts a move causes, every word from the public view and events."""
        with i18n.use(rec.locale):
            plugin = rec.plugin
            after = rec.seen(None)
            rows: list[NewOutbox] = []
            if (unit, before_current) == (
                plugin.unit(after),
                rec.current,
            ) and rec.status == "active":
                return rows
            unit_moves = [
                EventLine(m.n, m.seat, m.round, m.phase, m.text, tuple(readable(m.events, None)))
                for m in await tx.moves(rec.id, round=unit[0], phase=unit[1])
            ]
            # The move itself was appended in this transaction, so it is in unit_moves already.
            mine = [e for m in unit_moves if m.seat == seat for e in m.events]
            # AI-played moves carry the robot mark in their log text (a note `play_ai` and `skip`
            # add; an engine's describe never writes it). Robots wear it in their names; the moves
            # the AI played for a person (autopilot, deadline, skip) are marked here.
            by_ai = {
                m.seat
                for m in unit_moves
                if ai_seats.ROBOT in m.text and not rec.seats[m.seat].robot
            }
            ping = await tx.latest_outbox(rec.id, "turn_ping")
            if ping is not None:
                done = plugin.done_line(before, seat, mine)
                if seat in by_ai and unit_moves and ai_seats.ROBOT in unit_moves[-1].text:
                    done = tr("{robot} (played by the AI) {done}", robot=ai_seats.ROBOT, done=done)
                rows.append(NewOutbox(rec.channel_id, "ping_done", {"text": done}, edits=ping.id))
            post = plugin.phase_post(before, after, unit_moves, readable(evs, None))
            if post is not None and by_ai:
                who = ", ".join(
                    f"{texts.seat_tag(s)} {texts.name(rec.names[s])}" for s in sorted(by_ai)
                )
                line = tr(
                    "{robot} Moves played by the AI for: {who}.", robot=ai_seats.ROBOT, who=who
                )
                post = replace(post, text=f"{post.text}\n{line}")
            if post is not None:
                rows.append(
                    NewOutbox(rec.channel_id, "phase_post", _post_payload(rec, post, after))
                )
            if rec.status == "finished":
                final = plugin.final_post(after)
                payload = _post_payload(rec, final, after)
                # Replay, Rematch and Record buttons under the final scores.
                payload.update(components="final", version=rec.version)
                rows.append(NewOutbox(rec.channel_id, "final_post", payload))
            else:
                rows.append(await self._ping_row(tx, rec))
            return rows

    async def _ping_row(self, tx: Tx, rec: GameRecord) -> NewOutbox:
        """The turn ping of the seat that must decide now, and the start of its wait: its
        reminder schedule is stored in the same transaction (bot/reminders.py)."""
        with i18n.use(rec.locale):
            current = rec.current
            assert current is not None
            holder = rec.seats[current]
            now = self.clock()
            if holder.ai is not None:
                # A robot has nobody to ping, and a member on autopilot asked not to be bothered:
                # the channel just sees who is thinking (this line is edited once the move is in).
                await tx.put_wait(
                    WaitRow(rec.id, current, holder.user_id, _iso(now), 0, None, None, False)
                )
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                how = "" if holder.robot else tr(" ({robot} autopilot)", robot=ai_seats.ROBOT)
                return NewOutbox(
                    rec.channel_id,
                    "turn_ping",
                    {
                        "text": tr(
                            "{seat} {name}{how} is thinking: must {must}…",
                            seat=texts.seat_tag(current),
                            name=texts.name(holder.name),
                            how=how,
                            must=must,
                        ),
                        "mentions": [],
                        "components": None,
                        "version": rec.version,
                    },
                )
            uid = rec.user_at(current)
            mine = await tx.user_settings(rec.guild_id, uid)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            # Inside the player's quiet hours the ping is posted without a notification, and a
            # reminder pings them when their quiet hours end.
            silent = quiet is not None and quiet.contains(now)
            plan = reminders.delays(await self._reminder_hours(tx, rec, mine))
            next_at = None if plan is None else reminders.due(now + plan[0], quiet)
            if silent:
                assert quiet is not None
                morning = quiet.morning(now)
                next_at = morning if next_at is None else min(next_at, morning)
            await tx.put_wait(
                WaitRow(rec.id, current, uid, _iso(now), 0, _iso_or_none(next_at), None, False)
            )
            text = rec.plugin.turn_ping(rec.seen(None), uid) + await self._digest(tx, rec, current)
            return NewOutbox(
                rec.channel_id,
                "turn_ping",
                {
                    "text": texts.fit(text),
                    "mentions": [uid],
                    "components": "play",
                    "version": rec.version,
                    "silent": silent,
                },
            )

    async def _digest(self, tx: Tx, rec: GameRecord, seat: int) -> str:
        """What the others did since `seat` last moved, in a few public lines, for its ping."""
        moves = await tx.moves(rec.id)
        last_own = max((m.n for m in moves if m.seat == seat), default=0)
        others = [m for m in moves if m.n > last_own and m.seat != seat]
        if not others:
            return ""
        # One line per player's run of moves (a Nauticus turn is several moves), newest last.
        runs: list[tuple[int, list[str]]] = []
        for m in others:
            if runs and runs[-1][0] == m.seat:
                runs[-1][1].append(m.text)
            else:
                runs.append((m.seat, [m.text]))
        shown = runs[-DIGEST_LINES:]
        lines = [
            tr(
                "• {emoji} {name}: {moves}",
                emoji=texts.PLAYER_MARKS[s].emoji,
                name=texts.name(rec.names[s]),
                moves=_newest_first_fit(words, 300),
            )
            for s, words in shown
        ]
        if len(runs) > len(shown):
            earlier = sum(len(words) for _, words in runs[: len(runs) - len(shown)])
            more = trn("{n} earlier move", "{n} earlier moves", earlier)
            lines.insert(0, f"• … {more} (`/games log`)")
        head = tr("Since your last move:") if last_own else tr("So far:")
        return "\n" + head + "\n" + "\n".join(lines)

    async def _reminder_hours(self, tx: Tx, rec: GameRecord, mine: UserSettings) -> int | None:
        """The interval that applies to this player in this game: theirs, else the game's (its
        host's), else the server's; None = the default (12 h, then every 24 h)."""
        for hours in (mine.reminder_hours, rec.reminder_hours):
            if hours is not None:
                return hours
        return await tx.guild_reminders(rec.guild_id)

    # --- lobby -------------------------------------------------------------------------------

    def _lobby_payload(self, rec: GameRecord, status: str, note: str = "") -> dict[str, Any]:
        with i18n.use(rec.locale):
            host = next((s.name for s in rec.seats if s.user_id == rec.host_id), "?")
            rules = rec.plugin.rules
            return {
                "text": texts.lobby_text(
                    status,
                    host,
                    [(s.user_id, s.name) for s in rec.seats],
                    title=rec.plugin.title,
                    min_players=rules.min_players,
                    max_players=rules.max_players,
                    order_note=note,
                    seating=rec.seating,
                ),
                "components": "lobby" if status == "lobby" else None,
                "version": rec.version,
            }

    async def _lobby_edit(self, tx: Tx, rec: GameRecord, status: str, note: str = "") -> None:
        first = await tx.first_outbox(rec.id, "lobby")
        await tx.add_outbox(
            rec.id,
            [
                NewOutbox(
                    rec.channel_id,
                    "lobby",
                    self._lobby_payload(rec, status, note),
                    edits=None if first is None else first.id,
                )
            ],
        )

    async def _open_row(self, tx: Tx, channel_id: int) -> GameRow:
        row = await tx.open_game(channel_id)
        if row is None:
            raise NoGame(
                tr("There is no lobby here. Open one with {commands}.", commands=_new_commands())
            )
        return row

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        kind: str,
        locale: str = i18n.ENGLISH,
    ) -> GameRecord:
        """Open a lobby for a game of `kind` in the channel with the user as host and first
        player; `locale` is the language of the game's channel posts.

        Raises:
            LobbyError: the channel already has a lobby or a game in progress.
            KeyError: no game of that kind is installed.
        """
        plugin = GAMES.get(kind)
        async with self._lock(channel_id), self.store.write() as tx:
            existing = await tx.open_game(channel_id)
            if existing is not None:
                raise LobbyError(
                    tr(
                        "This channel already has a lobby. Finish or abort it first, or open "
                        "the lobby in another channel or thread."
                    )
                    if existing.status == "lobby"
                    else tr(
                        "This channel already has a game in progress. Finish or abort it first, "
                        "or open the lobby in another channel or thread."
                    ),
                    code="channel_busy",
                )
            seed = secrets.randbits(52)
            game_id = await tx.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                engine_version=plugin.rules.engine_version,
                seed=seed,
                kind=plugin.kind,
                locale=i18n.normalize(locale),
            )
            await tx.set_seats(game_id, [SeatRow(0, user_id, name)])
            row = await tx.game(game_id)
            assert row is not None
            rec = await self._record(tx, row)
            await tx.add_outbox(
                game_id,
                [NewOutbox(channel_id, "lobby", self._lobby_payload(rec, "lobby"))],
            )
        self._kick()
        return rec

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        """Take a seat in the channel's lobby.

        Raises:
            NoGame: no lobby here. LobbyError: already seated, lobby full or game started.
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            if row.status != "lobby":
                raise LobbyError(
                    tr("The game here has already started; join the next lobby."),
                    code="started",
                )
            seats = await tx.seats(row.id)
            if any(s.user_id == user_id for s in seats):
                raise LobbyError(tr("You are already in this lobby."), code="already_joined")
            most = GAMES.get(row.kind).rules.max_players
            if len(seats) >= most:
                raise LobbyError(tr("The lobby is full ({most} players).", most=most), code="full")
            seats.append(SeatRow(len(seats), user_id, name))
            rec = await self._lobby_change(tx, row, seats, row.host_id)
        self._kick()
        return rec

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Give up a seat in the lobby; a leaving host hands over to the next player, and the
        lobby closes when nobody is left.

        Raises:
            NoGame: no lobby here. NotInGame: not in the lobby. LobbyError: game started.
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed. The host or a member with "
                        "Manage Channels can `/games abort` it."
                    ),
                    code="started",
                )
            seats = await tx.seats(row.id)
            if not any(s.user_id == user_id for s in seats):
                raise NotInGame(tr("You are not in this lobby."))
            rest = [
                replace(s, seat=i) for i, s in enumerate(s for s in seats if s.user_id != user_id)
            ]
            host = row.host_id if row.host_id != user_id else (rest[0].user_id if rest else 0)
            if not rest:
                rec = await self._close_lobby(tx, row, seats)
            else:
                rec = await self._lobby_change(tx, row, rest, host)
        self._kick()
        return rec

    async def _lobby_change(
        self, tx: Tx, row: GameRow, seats: list[SeatRow], host_id: int
    ) -> GameRecord:
        changes: dict[str, Any] = {}
        if host_id != row.host_id:
            changes["host_id"] = host_id
        if not await tx.bump_game(row.id, row.version, **changes):
            raise StaleVersion(tr("The lobby changed meanwhile; try again."), current=row.version)
        await tx.set_seats(row.id, seats)
        fresh = await tx.game(row.id)
        assert fresh is not None
        rec = await self._record(tx, fresh)
        await self._lobby_edit(tx, rec, "lobby")
        return rec

    async def _close_lobby(self, tx: Tx, row: GameRow, seats: list[SeatRow]) -> GameRecord:
        if not await tx.bump_game(row.id, row.version, status="aborted"):
            raise StaleVersion(tr("The lobby changed meanwhile; try again."), current=row.version)
        fresh = await tx.game(row.id)
        assert fresh is not None
        rec = await self._record(tx, fresh)
        await self._lobby_edit(tx, rec, "aborted")
        return rec

    def _check_may_manage(self, row: GameRow, user_id: int, can_manage: bool, what: str) -> None:
        if user_id != row.host_id and not can_manage:
            raise NotAllowed(
                tr("Only the host or a member with Manage Channels can {what}.", what=what),
                host_id=row.host_id,
            )

    async def start(
        self,
        channel_id: int,
        user_id: int,
        *,
        can_manage: bool,
        order: list[int] | None = None,
        seed: int | None = None,
        seat_seed: int | None = None,
        allow_only_ai: bool = False,
    ) -> GameRecord:
        """Start the lobby's game: seats in `order` (user ids), else in join order or drawn at
        random, as the lobby's seating says. The random draw has its own randomness
        (`seat_seed`, fixed only by tests), never the game's seed: the seat order is public, and
        anything drawn from the seed would tell the table something about the deal.
        A table of robots only is refused unless `allow_only_ai` (the offline runner).

        Raises:
            NoGame, NotAllowed, LobbyError (wrong player count, bad order, already started).
        """
        async with self._lock(channel_id):
            async with self.store.write() as tx:
                row = await self._open_row(tx, channel_id)
                self._check_may_manage(row, user_id, can_manage, tr("start the game"))
                if row.status != "lobby":
                    raise LobbyError(tr("The game has already started."), code="started")
                seats = await tx.seats(row.id)
                n = len(seats)
                plugin = GAMES.get(row.kind)
                rules = plugin.rules
                if not rules.min_players <= n <= rules.max_players:
                    span = (
                        tr("exactly {n}", n=rules.min_players)
                        if rules.min_players == rules.max_players
                        else f"{rules.min_players}–{rules.max_players}"
                    )
                    raise LobbyError(
                        tr(
                            "{title} needs {span} players; the lobby has {n}. Wait for more "
                            "players to join.",
                            title=plugin.title,
                            span=span,
                            n=n,
                        ),
                        code="player_count",
                    )
                if not allow_only_ai and all(s.user_id < 0 for s in seats):
                    raise LobbyError(
                        tr(
                            "A game needs at least one person at the table: join it, or wait for "
                            "a player, before starting."
                        ),
                        code="only_ai",
                    )
                game_seed = row.seed if seed is None else seed
                by_user = {s.user_id: s for s in seats}
                if order is None and row.seating == "join":
                    ordered = list(seats)
                    with i18n.use(row.locale):
                        note = tr("Seat order: join order, as the host chose.")
                elif order is not None:
                    if sorted(order) != sorted(by_user):
                        raise LobbyError(
                            tr("The seat order must list each player of the lobby exactly once."),
                            code="bad_order",
                        )
                    ordered = [by_user[u] for u in order]
                    with i18n.use(row.locale):
                        note = tr("Seat order fixed by the host.")
                else:
                    ordered = list(seats)
                    draw = secrets.randbits(64) if seat_seed is None else seat_seed
                    random.Random(f"seats/{draw}").shuffle(ordered)
                    with i18n.use(row.locale):
                        note = tr("Seat order drawn at random.")
                new_seats = [replace(s, seat=i) for i, s in enumerate(ordered)]
                state = rules.new_game(n, game_seed)
                if not await tx.bump_game(
                    row.id,
                    row.version,
                    status="active",
                    seed=game_seed,
                    state_json=rules.to_json(state),
                ):
                    raise StaleVersion(
                        tr("The lobby changed meanwhile; try again."), current=row.version
                    )
                await tx.set_seats(row.id, new_seats)
                fresh = await tx.game(row.id)
                assert fresh is not None
                rec = await self._record(tx, fresh)
                await self._lobby_edit(tx, rec, "active", note)
                public = rec.seen(None)
                with i18n.use(rec.locale):
                    start = _post_payload(rec, plugin.start_post(public), public)
                await tx.add_outbox(
                    rec.id,
                    [NewOutbox(channel_id, "phase_post", start), await self._ping_row(tx, rec)],
                )
            self._remember(rec)
        self._kick()
        self._ai_check(rec)
        return rec

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """Close the lobby without playing.

        Raises:
            NoGame, NotAllowed, LobbyError (the game has started: use abort).
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("cancel the lobby"))
            if row.status != "lobby":
                raise LobbyError(
                    tr("The game has started; use `/games abort` to end it."), code="started"
                )
            rec = await self._close_lobby(tx, row, await tx.seats(row.id))
        self._kick()
        return rec

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """End the channel's lobby or game in progress without a result.

        Raises:
            NoGame, NotAllowed.
        """
        async with self._lock(channel_id):
            async with self.store.write() as tx:
                row = await self._open_row(tx, channel_id)
                self._check_may_manage(row, user_id, can_manage, tr("abort the game"))
                if row.status == "lobby":
                    rec = await self._close_lobby(tx, row, await tx.seats(row.id))
                else:
                    if not await tx.bump_game(row.id, row.version, status="aborted"):
                        raise StaleVersion(
                            tr("The game changed meanwhile; try again."), current=row.version
                        )
                    fresh = await tx.game(row.id)
                    assert fresh is not None
                    rec = await self._record(tx, fresh)
                    seats = {s.user_id: s.name for s in rec.seats}
                    with i18n.use(rec.locale):
                        who = texts.name(seats.get(user_id) or tr("a moderator"))
                        aborted = tr("✗ Game aborted.")
                        notice = tr(
                            "This game of {title} was aborted by {who}; no result.",
                            title=rec.plugin.title,
                            who=who,
                        )
                    rows = []
                    ping = await tx.latest_outbox(rec.id, "turn_ping")
                    if ping is not None:
                        rows.append(
                            NewOutbox(channel_id, "ping_done", {"text": aborted}, edits=ping.id)
                        )
                    rows.append(NewOutbox(channel_id, "notice", {"text": notice}))
                    await tx.add_outbox(rec.id, rows)
            self._cache.pop(channel_id, None)
        self._kick()
        return rec

    # --- hosting: skip, replace, remove, seating, idle lobbies --------------------------------

    async def skip(
        self,
        channel_id: int,
        user_id: int,
        *,
        can_manage: bool,
        version: int | None = None,
        by_name: str = "a moderator",
    ) -> SkipResult:
        """End the current player's turn as a pass, through the engine and the move log.

        Raises:
            NoGame (nothing to skip), NotAllowed, StaleVersion (the game moved on since the
            confirmation was shown), GameUnavailable.
        """
        async with self._lock(channel_id):
            rec = await self._active(channel_id)
            self._check_may_manage_rec(rec, user_id, can_manage, tr("skip a turn"))
            seat = rec.current
            if rec.state is None or seat is None:
                raise NoGame(tr("Nothing to skip: the game is over."), code="nothing_to_skip")
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "The game has moved on since you asked; nothing was skipped. Run "
                        "`/games skip` again if the turn should still be skipped."
                    ),
                    current=rec.version,
                )
            plugin = rec.plugin
            who = texts.name(by_name)
            skipped = texts.name(rec.names[seat])
            with i18n.use(rec.locale):
                note = tr(" ({robot} AI, turn skipped by {who})", robot=ai_seats.ROBOT, who=who)
            # The AI plays the skipped turn (not a blind pass): its moves are decided first,
            # outside the write transaction (a search takes up to a second or two, and the
            # database serves every channel), then stored together.
            moves: list[dict[str, Any]] = []
            probe = rec
            for _ in range(SKIP_LIMIT):
                assert probe.state is not None
                before = probe.seen(seat)
                try:
                    move = dict(
                        await self.thinker.decide(
                            plugin.rules,
                            probe.state,
                            seat,
                            ai_seats.DEFAULT_LEVEL,
                            ai_seats.decision_seed(rec.id, probe.version, seat),
                        )
                    )
                except Exception:
                    # A moderator's skip must always work: should the AI fail (a broken
                    # worker pool, an engine breaking determinize's contract), the game's
                    # own safe choice (a pass, the first option) plays instead.
                    log.exception("game %s: the AI could not play the skipped turn", rec.id)
                    move = dict(plugin.skip_move(before))
                new_state, _ = plugin.rules.apply(probe.state, seat, move)
                status = "finished" if plugin.rules.is_over(new_state) else "active"
                probe = replace(probe, state=new_state, version=probe.version + 1, status=status)
                moves.append(move)
                if probe.current != seat or plugin.skip_ends(before, probe.seen(seat), move):
                    break
            done: list[str] = []
            async with self.store.write() as tx:
                cur = rec
                for move in moves:
                    result = await self._commit(tx, cur, seat, user_id, move, note)
                    with i18n.use(rec.locale):
                        done.append(move_words.describe(rec.kind, move, cur.state))
                    cur = result.record
                with i18n.use(rec.locale):
                    admin_text = tr(
                        "{who} skipped the turn of {skipped}: {moves}",
                        who=who,
                        skipped=skipped,
                        moves="; ".join(done),
                    )
                    notice = tr(
                        "⏭️ {who} skipped the turn of {seat} {skipped}: {moves}.",
                        who=who,
                        seat=texts.seat_tag(seat),
                        skipped=skipped,
                        moves="; ".join(done),
                    )
                await tx.add_admin_log(rec.id, kind="skip", by_user_id=user_id, text=admin_text)
                await tx.add_outbox(
                    rec.id, [NewOutbox(channel_id, "notice", {"text": texts.fit(notice)})]
                )
            self._remember(cur)
        self._kick()
        self._ai_check(cur)
        return SkipResult(cur, seat, done)

    def _check_may_manage_rec(
        self, rec: GameRecord, user_id: int, can_manage: bool, what: str
    ) -> None:
        if user_id != rec.host_id and not can_manage:
            raise NotAllowed(
                tr("Only the host or a member with Manage Channels can {what}.", what=what),
                host_id=rec.host_id,
            )

    async def replace_player(
        self,
        channel_id: int,
        user_id: int,
        old_id: int,
        new_id: int,
        new_name: str,
        *,
        can_manage: bool,
        by_name: str = "a moderator",
    ) -> GameRecord:
        """Hand `old_id`'s seat (lobby or game in progress) to `new_id`, who then gets the pings
        and the panel; a host's seat carries the host role with it.

        Raises:
            NoGame, NotAllowed, NotInGame (old not seated), LobbyError (new already seated).
        """
        async with self._lock(channel_id):
            async with self.store.write() as tx:
                row = await self._open_row(tx, channel_id)
                self._check_may_manage(row, user_id, can_manage, tr("hand a seat to someone else"))
                seats = await tx.seats(row.id)
                old = next((s for s in seats if s.user_id == old_id), None)
                if old is None:
                    raise NotInGame(
                        tr(
                            "<@{user}> has no seat in this game, so there is nothing to hand over.",
                            user=old_id,
                        ),
                        code="target_not_seated",
                    )
                if any(s.user_id == new_id for s in seats):
                    raise LobbyError(
                        tr(
                            "<@{user}> already has a seat in this game; a player can hold only "
                            "one.",
                            user=new_id,
                        ),
                        code="target_seated",
                    )
                host = new_id if row.host_id == old_id else row.host_id
                changes: dict[str, Any] = {"host_id": host} if host != row.host_id else {}
                if not await tx.bump_game(row.id, row.version, **changes):
                    raise StaleVersion(
                        tr("The game changed meanwhile; try again."), current=row.version
                    )
                await tx.set_seats(
                    row.id,
                    [SeatRow(s.seat, new_id, new_name) if s is old else s for s in seats],
                )
                fresh = await tx.game(row.id)
                assert fresh is not None
                rec = await self._record(tx, fresh)
                who = texts.name(by_name)
                with i18n.use(rec.locale):
                    line = tr(
                        "{who} handed seat {n} from {old} to {new}",
                        who=who,
                        n=old.seat + 1,
                        old=texts.name(old.name),
                        new=texts.name(new_name),
                    )
                    handed = tr("↪ Seat {n} was handed over.", n=old.seat + 1)
                await tx.add_admin_log(row.id, kind="replace", by_user_id=user_id, text=line)
                rows = [NewOutbox(channel_id, "notice", {"text": f"🔁 {line}."})]
                if rec.status == "active" and rec.current == old.seat:
                    # The seat must act now: the old ping is closed and the new holder pinged.
                    ping = await tx.latest_outbox(rec.id, "turn_ping")
                    if ping is not None:
                        rows.append(
                            NewOutbox(
                                channel_id,
                                "ping_done",
                                {"text": handed},
                                edits=ping.id,
                            )
                        )
                    rows.append(await self._ping_row(tx, rec))
                await tx.add_outbox(rec.id, rows)
                if rec.status == "lobby":
                    await self._lobby_edit(tx, rec, "lobby")
            # Reloaded (and replay-checked) on next use with the new seats.
            self._cache.pop(channel_id, None)
        self._kick()
        return rec

    async def remove(
        self, channel_id: int, user_id: int, target_id: int, *, can_manage: bool
    ) -> GameRecord:
        """Take someone's seat away in the lobby (the host's own seat: use Leave).

        Raises:
            NoGame, NotAllowed, NotInGame (target not in the lobby), LobbyError (game started,
            or removing yourself).
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("remove a player from the lobby"))
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed: hand the seat to someone "
                        "else with `/games replace`, or skip turns with `/games skip`."
                    ),
                    code="started",
                )
            if target_id == user_id:
                raise LobbyError(
                    tr("To give up your own seat, press Leave on the lobby."), code="remove_self"
                )
            seats = await tx.seats(row.id)
            target = next((s for s in seats if s.user_id == target_id), None)
            if target is None:
                raise NotInGame(
                    tr("<@{user}> is not in this lobby.", user=target_id), code="target_not_seated"
                )
            rest = [
                replace(s, seat=i) for i, s in enumerate(s for s in seats if s.user_id != target_id)
            ]
            await tx.add_admin_log(
                row.id,
                kind="remove",
                by_user_id=user_id,
                text=t(
                    "{name} was removed from the lobby", row.locale, name=texts.name(target.name)
                ),
            )
            if not rest:
                # A moderator removed the last seat: the lobby closes, as after a last Leave.
                rec = await self._close_lobby(tx, row, seats)
            else:
                host = row.host_id if row.host_id != target_id else rest[0].user_id
                rec = await self._lobby_change(tx, row, rest, host)
        self._kick()
        return rec

    async def toggle_seating(
        self, channel_id: int, user_id: int, *, can_manage: bool
    ) -> GameRecord:
        """Switch the lobby between a random seat order (drawn apart from the game's seed) and the
        join order.

        Raises:
            NoGame, NotAllowed, LobbyError (game started).
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("change the seat order"))
            if row.status != "lobby":
                raise LobbyError(tr("The game has started; the seats are fixed."), code="started")
            seating = "join" if row.seating == "random" else "random"
            if not await tx.bump_game(row.id, row.version, seating=seating):
                raise StaleVersion(
                    tr("The lobby changed meanwhile; try again."), current=row.version
                )
            fresh = await tx.game(row.id)
            assert fresh is not None
            rec = await self._record(tx, fresh)
            await self._lobby_edit(tx, rec, "lobby")
        self._kick()
        return rec

    # --- AI seats, autopilot, turn deadlines -------------------------------------------------

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

    def _ai_check(self, rec: GameRecord) -> None:
        """Tell the AI runner when a robot or an autopilot seat is to move."""
        if self.on_ai_turn is not None and self.ai_reason(rec) in ("robot", "autopilot"):
            self.on_ai_turn(rec.channel_id, rec.version)

    async def ai_due(self) -> list[tuple[int, int, datetime]]:
        """(channel, version, when) of every game in progress whose seat to move the AI will
        play: robots and autopilots now, deadlines when they pass (a start-up and periodic scan,
        so a restart in the middle of an AI turn resumes it)."""
        out = []
        now = self.clock()
        for rec in await self.active_games():
            why = self.ai_reason(rec, now)
            if why is not None:
                out.append((rec.channel_id, rec.version, now))
            else:
                due = self.deadline_at(rec)
                if due is not None:
                    out.append((rec.channel_id, rec.version, due))
        return out

    async def play_ai(self, channel_id: int, version: int) -> PlayResult | None:
        """Play the AI's move for the seat to move, if the AI should (a robot or autopilot seat,
        or a passed deadline) and the game is still at `version`; else None and nothing changes.

        The decision is computed outside the channel's lock (in the thinker's process pool),
        then committed under it with the version check, like any player's move.
        """
        rec = await self._active(channel_id)
        why = self.ai_reason(rec)
        if rec.version != version or why is None:
            return None
        seat = rec.current
        assert seat is not None and rec.state is not None
        level = rec.seats[seat].ai or ai_seats.DEFAULT_LEVEL
        move = await self.thinker.decide(
            rec.plugin.rules,
            rec.state,
            seat,
            level,
            ai_seats.decision_seed(rec.id, rec.version, seat),
        )
        with i18n.use(rec.locale):
            note = {
                "robot": f" {ai_seats.ROBOT}",
                "autopilot": tr(" ({robot} autopilot)", robot=ai_seats.ROBOT),
                "deadline": tr(" ({robot} AI: turn deadline passed)", robot=ai_seats.ROBOT),
            }[why]
        async with self._lock(channel_id):
            fresh = await self._active(channel_id)
            if fresh.version != version:
                return None
            async with self.store.write() as tx:
                result = await self._commit(tx, fresh, seat, fresh.user_at(seat), dict(move), note)
            self._remember(result.record)
        self._kick()
        self._ai_check(result.record)
        return result

    async def add_ai(
        self, channel_id: int, user_id: int, level: str, *, can_manage: bool
    ) -> GameRecord:
        """Seat a robot of `level` in the lobby (host or Manage Channels).

        Raises:
            NoGame, NotAllowed, LobbyError (started or full), ServiceError (no such level).
        """
        if level not in ai_seats.LEVELS:
            raise ServiceError(
                tr(
                    "There is no AI level {level}; choose {levels}.",
                    level=texts.quoted(str(level))[:40],
                    levels=", ".join(ai_seats.LEVELS),
                ),
                code="bad_level",
            )
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("add an AI seat"))
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed. A player can hand their seat "
                        "to the AI with `/games autopilot`."
                    ),
                    code="started",
                )
            seats = await tx.seats(row.id)
            most = GAMES.get(row.kind).rules.max_players
            if len(seats) >= most:
                raise LobbyError(tr("The lobby is full ({most} players).", most=most), code="full")
            robot_id = min([0, *(s.user_id for s in seats)]) - 1
            with i18n.use(row.locale):
                name = ai_seats.robot_name([s.name for s in seats], level)
            seats.append(SeatRow(len(seats), robot_id, name, level))
            rec = await self._lobby_change(tx, row, seats, row.host_id)
        self._kick()
        return rec

    async def remove_ai(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """Take the last robot seat out of the lobby (host or Manage Channels).

        Raises:
            NoGame, NotAllowed, LobbyError (started, or no AI seat to remove).
        """
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("remove an AI seat"))
            if row.status != "lobby":
                raise LobbyError(tr("The game has started, so seats are fixed."), code="started")
            seats = await tx.seats(row.id)
            robots = [s for s in seats if s.user_id < 0]
            if not robots:
                raise LobbyError(tr("There is no AI seat in this lobby to remove."), code="no_ai")
            gone = robots[-1]
            rest = [replace(s, seat=i) for i, s in enumerate(s for s in seats if s is not gone)]
            rec = await self._lobby_change(tx, row, rest, row.host_id)
        self._kick()
        return rec

    async def set_autopilot(
        self, channel_id: int, user_id: int, on: bool, level: str = ai_seats.DEFAULT_LEVEL
    ) -> GameRecord:
        """Hand the caller's seat to the AI (`on`) or take it back. The channel is told; the AI
        plays at once if it is the seat's turn.

        Raises:
            NoGame, NotInGame, LobbyError (already so), ServiceError (bad level).
        """
        _checked(user_id)
        if level not in ai_seats.LEVELS:
            raise ServiceError(
                tr(
                    "There is no AI level {level}; choose {levels}.",
                    level=texts.quoted(str(level))[:40],
                    levels=", ".join(ai_seats.LEVELS),
                ),
                code="bad_level",
            )
        async with self._lock(channel_id):
            rec = await self._active(channel_id)
            seat = rec.seat_of(user_id)
            if seat is None:
                raise NotInGame(
                    tr("You have no seat in this game, so there is no autopilot to set.")
                )
            holder = rec.seats[seat]
            if on and holder.ai is not None:
                raise LobbyError(
                    tr(
                        "Your seat is already on autopilot ({level}). Turn it off with "
                        "`/games autopilot on:False`.",
                        level=holder.ai,
                    ),
                    code="autopilot_on",
                )
            if not on and holder.ai is None:
                raise LobbyError(
                    tr("Your seat is not on autopilot: you are playing it yourself."),
                    code="autopilot_off",
                )
            with i18n.use(rec.locale):
                who = f"{texts.seat_tag(seat)} {texts.name(holder.name)}"
                text = (
                    tr(
                        "{robot} {who} handed their seat to the AI ({level}) until they take it "
                        "back.",
                        robot=ai_seats.ROBOT,
                        who=who,
                        level=level,
                    )
                    if on
                    else tr("👋 {who} is back and plays their own seat again.", who=who)
                )
                handed = "↪ " + (tr("handed to the AI.") if on else tr("taken back."))
            async with self.store.write() as tx:
                await tx.set_seat_ai(rec.id, seat, level if on else None)
                rows = [NewOutbox(channel_id, "notice", {"text": text})]
                fresh = replace(
                    rec,
                    seats=[
                        s._replace(ai=level if on else None) if s.seat == seat else s
                        for s in rec.seats
                    ],
                )
                if rec.current == seat:
                    # The waiting ping changes hands: the AI's "thinking" line, or the player's.
                    ping = await tx.latest_outbox(rec.id, "turn_ping")
                    if ping is not None:
                        rows.append(
                            NewOutbox(
                                channel_id,
                                "ping_done",
                                {"text": handed},
                                edits=ping.id,
                            )
                        )
                    rows.append(await self._ping_row(tx, fresh))
                await tx.add_outbox(rec.id, rows)
            self._remember(fresh)
        self._kick()
        self._ai_check(fresh)
        return fresh

    async def set_deadline(
        self, channel_id: int, user_id: int, hours: int | None, *, can_manage: bool
    ) -> GameRecord:
        """Set the game's turn deadline (host or Manage Channels): past it, the AI plays the
        waiting seat's turn, marked as such.

        Raises:
            NoGame, NotAllowed, ServiceError (a span not offered).
        """
        if hours not in ai_seats.DEADLINES.values():
            spans = ", ".join(ai_seats.DEADLINES)
            raise ServiceError(
                tr("The deadline must be one of {spans}.", spans=spans), code="bad_deadline"
            )
        async with self._lock(channel_id):
            async with self.store.write() as tx:
                row = await self._open_row(tx, channel_id)
                self._check_may_manage(row, user_id, can_manage, tr("set the turn deadline"))
                await tx.set_deadline(row.id, hours)
                fresh_row = await tx.game(row.id)
                assert fresh_row is not None
                rec = await self._record(tx, fresh_row)
                with i18n.use(rec.locale):
                    text = (
                        tr("⏰ Turn deadline: none.")
                        if hours is None
                        else tr(
                            "⏰ Turn deadline: {span}; past it, the AI ({level}) plays the "
                            "waiting turn.",
                            span=ai_seats.deadline_label(hours),
                            level=ai_seats.DEFAULT_LEVEL,
                        )
                    )
                await tx.add_outbox(rec.id, [NewOutbox(channel_id, "notice", {"text": text})])
            self._cache.pop(channel_id, None)
        self._kick()
        return rec

    # --- results, stats, ratings --------------------------------------------------------------

    async def _record_result(self, tx: Tx, rec: GameRecord) -> None:
        assert rec.state is not None
        scores = [(s.seat, s.vp, s.rank) for s in rec.plugin.rules.final_scores(rec.state)]
        moves = await tx.moves(rec.id)
        results = ratings.seat_results(
            [(s.seat, s.user_id, s.name) for s in rec.seats], scores, moves
        )
        await ratings.record_game(
            tx,
            game_id=rec.id,
            guild_id=rec.guild_id,
            kind=rec.kind,
            results=results,
            # The last move's time, so a rebuild writes exactly what the game's end wrote.
            ended_at=moves[-1].at if moves else self.clock().isoformat(),
        )

    async def rebuild_ratings(self) -> int:
        """Recompute every result and rating from the finished games and their logs, in the
        order the games were played; return how many games were counted. A game whose stored
        state this engine cannot read is skipped (it is listed by `check`)."""
        async with self.store.write() as tx:
            await ratings.clear(tx)
            counted = 0
            for row in await tx.games_with_status("finished"):
                rec = await self._record(tx, row)
                if rec.state is None or row.kind not in GAMES.games:
                    continue
                await self._record_result(tx, rec)
                counted += 1
        return counted

    async def standing(self, guild_id: int, kind: str, user_id: int) -> ratings.Standing | None:
        _checked(guild_id, user_id)
        async with self.store.read() as tx:
            return await ratings.standing(tx, guild_id, kind, user_id)

    async def leaderboard(self, guild_id: int, kind: str) -> list[ratings.Standing]:
        _checked(guild_id)
        async with self.store.read() as tx:
            return await ratings.leaderboard(tx, guild_id, kind)

    # --- undo ----------------------------------------------------------------------------------

    async def _undo_check(self, tx: Tx, rec: GameRecord, user_id: int) -> tuple[MoveRow, Any]:
        """The caller's move that may be taken back now, and the game before it.

        Raises:
            NotInGame, NotYourTurn, UndoRefused: with the reason and what is allowed.
        """
        seat = rec.seat_of(user_id)
        if seat is None:
            raise NotInGame(
                tr("You are not playing in this game: there is no move of yours to undo.")
            )
        if rec.current != seat:
            raise NotYourTurn(
                tr(
                    "You can only take back a move while it is still your turn; the game has "
                    "moved on. Ask the host if something went badly wrong."
                )
            )
        moves = await tx.moves(rec.id)
        last = moves[-1] if moves else None
        if last is None or last.seat != seat or last.user_id != user_id:
            raise UndoRefused(
                tr(
                    "There is no move of yours to take back in this turn: you can undo only "
                    "your own last move, while it is still your turn."
                )
            )
        if ai_seats.ROBOT in last.text:
            raise UndoRefused(
                tr("That move was played by the AI; only your own moves can be undone.")
            )
        plugin = rec.plugin
        before = replay(plugin, rec.seed, len(rec.seats), moves[:-1])
        assert rec.state is not None
        reason = undo.undo_refusal(
            plugin.rules, before, seat, last.move, rec.state, last.events, len(rec.seats)
        )
        if reason is None and plugin.unit(seen(plugin, before, rec.names, None)) != plugin.unit(
            rec.seen(None)
        ):
            reason = N_("it closed the action phase and the channel has seen its result")
        if reason is not None:
            raise UndoRefused(
                tr(
                    "You can't take back {move}: {reason}.",
                    move=texts.quoted(last.text)[:120],
                    reason=tr(reason),
                )
            )
        return last, before

    async def can_undo(self, channel_id: int, user_id: int) -> bool:
        """Whether `undo` would take back the caller's last move now (for the panel button)."""
        rec = await self.game_in(channel_id)
        if rec is None or rec.status != "active" or rec.flagged or rec.state is None:
            return False
        async with self.store.read() as tx:
            try:
                await self._undo_check(tx, rec, user_id)
            except ServiceError:
                return False
        return True

    async def undo(
        self, channel_id: int, user_id: int, *, version: int | None = None
    ) -> PlayResult:
        """Take back the caller's last move while it is still their turn and it revealed and
        drew nothing (`bot.undo`). The log stays append-only: the undo is a row of its own, and
        every replay leaves the move out. The channel is told in one line.

        Raises:
            NoGame, NotInGame, NotYourTurn, StaleVersion, UndoRefused, GameUnavailable.
        """
        _checked(user_id, *([] if version is None else [version]))
        async with self._lock(channel_id):
            rec = await self._active(channel_id)
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "That panel is out of date: the game has moved on; here is the current one."
                    ),
                    current=rec.version,
                )
            key = (channel_id, user_id)
            # The slash command carries no version: a second copy of it, with nothing played
            # since, is the same intent and must not take back a second move.
            if version is None and self._double_send(key, UNDO, rec.version):
                raise UndoRefused(
                    tr(
                        "You took a move back a moment ago and nothing has happened since, so "
                        "this looks like a double send: nothing more was taken back. To take back "
                        "the move before, send undo again after {window} s, or use the panel's "
                        "Undo button.",
                        window=int(DUPLICATE_WINDOW.total_seconds()),
                    )
                )
            async with self.store.write() as tx:
                last, before = await self._undo_check(tx, rec, user_id)
                plugin = rec.plugin
                await tx.undo_move(rec.id, last.n, last.seat, user_id)
                if not await tx.bump_game(
                    rec.id, rec.version, state_json=plugin.rules.to_json(before), status="active"
                ):
                    self._cache.pop(channel_id, None)
                    raise StaleVersion(
                        tr("The game changed meanwhile; try again."), current=rec.version
                    )
                with i18n.use(rec.locale):
                    who = f"{texts.seat_tag(last.seat)} {texts.name(rec.names[last.seat])}"
                    text = tr("↩️ {who} took back: {move}", who=who, move=last.text)
                await tx.add_outbox(rec.id, [NewOutbox(channel_id, "notice", {"text": text})])
                after = replace(rec, version=rec.version + 1, state=before, status="active")
            self._remember(after)
            self._sent(key, UNDO if version is None else None, after.version)
        self._kick()
        return PlayResult(after, last.move, [], last.text, last.n)

    # --- reminders, snooze, settings ------------------------------------------------------------

    async def due_reminders(self) -> list[int]:
        """Games whose waiting player is due a reminder (or whose host a stall notice) now."""
        async with self.store.read() as tx:
            return [w.game_id for w in await tx.due_waits(_iso(self.clock()))]

    async def remind(self, game_id: int) -> str | None:
        """Send the reminder due in a game, if it is still due: one write transaction posts it
        and advances the schedule, so a restart or a second call never sends it twice. After
        `STALL_AFTER` unanswered reminders the host gets a stall notice instead, once. Returns
        the text posted (None: nothing was due)."""
        _checked(game_id)
        now = self.clock()
        async with self.store.write() as tx:
            w = await tx.wait(game_id)
            row = await tx.game(game_id)
            if w is None or w.next_at is None or _when(w.next_at) > now or row is None:
                return None
            if row.status != "active" or row.flagged or row.kind not in GAMES.games:
                await tx.put_wait(replace(w, next_at=None))
                return None
            rec = await self._record(tx, row)
            current = rec.current
            if (
                current != w.seat
                or rec.seats[current].user_id != w.user_id
                or rec.seats[current].ai is not None
            ):
                # The seat changed hands or went to the AI without a new ping: nobody to remind.
                await tx.put_wait(replace(w, next_at=None))
                return None
            plugin = rec.plugin
            mine = await tx.user_settings(rec.guild_id, w.user_id)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            plan = reminders.delays(await self._reminder_hours(tx, rec, mine))
            with i18n.use(rec.locale):
                waited = reminders.waited(now - _when(w.since))
                who = f"{texts.seat_tag(current)} {texts.name(rec.names[current])}"
                if w.sent >= reminders.STALL_AFTER:
                    text = tr(
                        "⚠️ This {title} game has waited {waited} for {who}, after {n} "
                        "reminders. <@{host}>, as host (or any member with Manage Channels) you "
                        "can `/games skip` this turn (the AI plays it), `/games replace` the "
                        "player with someone else, set `/games deadline` so the AI plays late "
                        "turns, or `/games abort` the game. The player can hand their seat to the "
                        "AI with `/games autopilot on:True`.",
                        title=plugin.title,
                        waited=waited,
                        who=who,
                        n=w.sent,
                        host=rec.host_id,
                    )
                    row_out = NewOutbox(
                        rec.channel_id, "notice", {"text": text, "mentions": [rec.host_id]}
                    )
                    await tx.put_wait(replace(w, next_at=None, stalled=True))
                else:
                    n = w.sent + 1
                    must = plugin.must_decide(rec.seen(None), you=True)
                    text = tr(
                        "⏰ <@{user}>, it's still your turn in {title} here (reminder {n}): you "
                        "must {must}. The game has waited for you {waited}.",
                        user=w.user_id,
                        title=plugin.title,
                        n=n,
                        must=must,
                        waited=waited,
                    )
                    row_out = NewOutbox(
                        rec.channel_id,
                        "notice",
                        {
                            "text": texts.fit(text),
                            "mentions": [w.user_id],
                            "components": "reminder",
                            "version": rec.version,
                        },
                    )
                    every = reminders.DEFAULT_EVERY if plan is None else plan[1]
                    # With reminders off, only the morning ping after a night-time turn is sent.
                    later = reminders.due(now + every, quiet) if plan is not None else None
                    await tx.put_wait(replace(w, sent=n, next_at=_iso_or_none(later)))
            await tx.add_outbox(rec.id, [row_out])
        self._kick()
        return text

    async def snooze(self, channel_id: int, user_id: int) -> datetime:
        """Put off the caller's reminders in this channel's game by `SNOOZE` (not into their
        quiet hours); return when the next one may come.

        Raises:
            NoGame, NotYourTurn (the game is not waiting for the caller).
        """
        _checked(channel_id, user_id)
        now = self.clock()
        async with self._lock(channel_id), self.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None or row.status != "active":
                raise NoGame(tr("There is no game in progress here any more: nothing to snooze."))
            w = await tx.wait(row.id)
            if w is None or w.user_id != user_id:
                raise NotYourTurn(
                    tr(
                        "The game is not waiting for you, so there is no reminder of yours to "
                        "snooze."
                    )
                )
            mine = await tx.user_settings(row.guild_id, user_id)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            until = now + reminders.SNOOZE
            nxt = reminders.due(max(_when(w.next_at), until) if w.next_at else until, quiet)
            await tx.put_wait(replace(w, snooze_until=_iso(until), next_at=_iso(nxt)))
        return nxt

    async def settings(self, guild_id: int, user_id: int) -> tuple[UserSettings, int | None]:
        """A member's own settings on this server, and the server's reminder interval."""
        _checked(guild_id, user_id)
        async with self.store.read() as tx:
            return await tx.user_settings(guild_id, user_id), await tx.guild_reminders(guild_id)

    async def set_quiet(
        self, guild_id: int, user_id: int, start: str | None, end: str | None, zone: str | None
    ) -> UserSettings:
        """Set (all three given) or clear (all None) a member's quiet hours on this server.

        Raises:
            SettingError: a time that is not HH:MM, an unknown time zone, start == end.
        """
        _checked(guild_id, user_id)
        if start is None and end is None and zone is None:
            values: tuple[str | None, str | None, str | None] = (None, None, None)
        else:
            if start is None or end is None or zone is None:
                raise reminders.SettingError(tr("Give all three: from, to and timezone."))
            a, b = reminders.parse_clock(start), reminders.parse_clock(end)
            if a == b:
                raise reminders.SettingError(
                    tr("Quiet hours must start and end at different times (e.g. 22:00 to 08:00).")
                )
            values = (f"{a:%H:%M}", f"{b:%H:%M}", reminders.check_timezone(zone))
        async with self.store.write() as tx:
            old = await tx.user_settings(guild_id, user_id)
            new = replace(old, quiet_from=values[0], quiet_to=values[1], timezone=values[2])
            await tx.set_user_settings(guild_id, user_id, new)
        return new

    async def set_my_reminders(self, guild_id: int, user_id: int, hours: int | None) -> None:
        """A member's own reminder interval on this server (None: as the game or server says)."""
        _checked(guild_id, user_id)
        self._check_hours(hours)
        async with self.store.write() as tx:
            old = await tx.user_settings(guild_id, user_id)
            await tx.set_user_settings(guild_id, user_id, replace(old, reminder_hours=hours))

    async def set_server_reminders(self, guild_id: int, hours: int | None) -> None:
        """The server's default reminder interval (the caller checked Manage Server)."""
        _checked(guild_id)
        self._check_hours(hours)
        async with self.store.write() as tx:
            await tx.set_guild_reminders(guild_id, hours)

    async def set_game_reminders(
        self, channel_id: int, user_id: int, hours: int | None, *, can_manage: bool
    ) -> GameRecord:
        """The reminder interval of this channel's game (host or Manage Channels); players'
        own settings still come first. Applies from the next turn ping.

        Raises:
            NoGame, NotAllowed, SettingError.
        """
        _checked(channel_id, user_id)
        self._check_hours(hours)
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("set the game's reminders"))
            await tx.set_game_reminders(row.id, hours)
            fresh = await tx.game(row.id)
            assert fresh is not None
            rec = await self._record(tx, fresh)
        self._cache.pop(channel_id, None)
        return rec

    async def set_language(
        self, channel_id: int, user_id: int, locale: str, *, can_manage: bool
    ) -> GameRecord:
        """The language of this channel's lobby or game (host or Manage Channels): its posts
        and buttons from now on; what was posted stays as it was.

        Raises:
            NoGame, NotAllowed, ServiceError (a language the bot does not speak).
        """
        _checked(channel_id, user_id)
        if locale not in i18n.LOCALES:
            raise ServiceError(
                tr(
                    "The bot speaks {languages}, not {asked}.",
                    languages=", ".join(i18n.LOCALES),
                    asked=texts.quoted(str(locale))[:20],
                ),
                code="bad_language",
            )
        async with self._lock(channel_id), self.store.write() as tx:
            row = await self._open_row(tx, channel_id)
            self._check_may_manage(row, user_id, can_manage, tr("set the game's language"))
            await tx.set_game_locale(row.id, locale)
            fresh = await tx.game(row.id)
            assert fresh is not None
            rec = await self._record(tx, fresh)
            if rec.status == "lobby":
                await self._lobby_edit(tx, rec, "lobby")  # the lobby post, in its new language
        self._cache.pop(channel_id, None)
        self._kick()
        return rec

    @staticmethod
    def _check_hours(hours: int | None) -> None:
        if hours is not None and hours not in reminders.INTERVALS.values():
            raise reminders.SettingError(
                tr(
                    "Reminders can be {choices} (or the default).",
                    choices=", ".join(reminders.INTERVALS),
                )
            )

    # --- records, replays, rematch -------------------------------------------------------------

    async def _game_here(self, tx: Tx, channel_id: int, game_id: int | None) -> GameRow:
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
                    commands=_new_commands(),
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

    async def _with_log(
        self, channel_id: int, game_id: int | None
    ) -> tuple[GameRecord, list[MoveRow]]:
        """A game of this channel (see `_game_here`) and its whole move log, in one snapshot."""
        _checked(channel_id, *([] if game_id is None else [game_id]))
        async with self.store.read() as tx:
            rec = await self._record(tx, await self._game_here(tx, channel_id, game_id))
            try:
                return rec, await tx.moves(rec.id)
            except UnreadableMove as exc:
                raise GameUnavailable(
                    tr(
                        "This game's log is damaged ({problem}), so it can't be replayed or "
                        "exported.",
                        problem=exc,
                    ),
                    code="unreadable_log",
                    error_id=f"move-{exc.n}",
                ) from None

    async def export(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> dict[str, Any]:
        """The record (`bot.records`) of the channel's game (`game_id`, or the open or latest
        one) for the member `user_id`: complete once the game is finished; otherwise only what
        the table may see plus that member's own seat's private lines.

        Raises:
            NoGame: no such game in this channel. GameUnavailable: a damaged log.
        """
        _checked(user_id)
        rec, moves = await self._with_log(channel_id, game_id)
        return records.build(
            plugin=rec.plugin,
            game_id=rec.id,
            status=rec.status,
            engine_version=rec.engine_version,
            seed=rec.seed,
            seating=rec.seating,
            deadline_hours=rec.deadline_hours,
            seats=[(s.seat, s.name, s.ai, s.robot) for s in rec.seats],
            moves=moves,
            state=rec.state,
            reader_seat=rec.seat_of(user_id),
            exported_at=self.clock(),
        )

    async def units_played(self, channel_id: int) -> list[tuple[int, int]]:
        """The (round, phase) units of the channel's game in which moves were made, in order."""
        _, moves = await self._with_log(channel_id, None)
        return list(dict.fromkeys((m.round, m.phase) for m in moves))

    async def history(self, channel_id: int, unit: str) -> tuple[GameRecord, tuple[int, int], Any]:
        """The channel's game (current, else last) as the table saw it at the end of a unit
        ("3.2": round 3, phase 2, or the game's own unit): the record, the unit, and the
        public view to draw. Built by replaying the effective log up to that unit's last move.

        Raises:
            NoGame; ServiceError (bad_unit: malformed, or a unit not played yet, listing those
            that were).
        """
        rec, moves = await self._with_log(channel_id, None)
        played = list(dict.fromkeys((m.round, m.phase) for m in moves))
        names = ", ".join(f"{r}.{p}" for r, p in played[-12:]) or tr("none yet")
        try:
            r_text, p_text = str(unit).strip().split(".")
            wanted = (int(r_text), int(p_text))
        except ValueError:
            raise ServiceError(
                tr(
                    "Write the moment as round.phase, e.g. 3.2 (not {unit}). Played so far "
                    "(latest): {names}.",
                    unit=texts.quoted(str(unit))[:20],
                    names=names,
                ),
                code="bad_unit",
            ) from None
        if wanted not in played:
            raise ServiceError(
                tr(
                    "Nothing was played in {unit} yet. Played so far (latest): {names}.",
                    unit=f"{wanted[0]}.{wanted[1]}",
                    names=names,
                ),
                code="bad_unit",
            )
        last = max(i for i, m in enumerate(moves) if (m.round, m.phase) == wanted)
        state = replay(rec.plugin, rec.seed, len(rec.seats), moves[: last + 1])
        return rec, wanted, seen(rec.plugin, state, rec.names, None).view

    async def animation(self, channel_id: int, game_id: int | None = None) -> tuple[str, bytes]:
        """An animated GIF of the board after every action phase of a game of this channel,
        and its file name. Drawn from public views only, so anyone may see it. CPU-bound
        (about a second for a whole game): call it off the event loop.

        Raises:
            NoGame; GameUnavailable (no move yet, a damaged log, another engine version).
        """
        rec, moves = await self._with_log(channel_id, game_id)
        plugin = rec.plugin
        if rec.state is None or not moves:
            raise GameUnavailable(
                tr("There is nothing to replay yet: the game has no move."),
                code="no_moves",
                error_id=f"game-{rec.id}",
            )
        if rec.engine_version != plugin.rules.engine_version:
            raise GameUnavailable(
                tr(
                    "This game was played by another version of the rules, so it can't be replayed."
                ),
                code="old_engine",
                error_id=f"game-{rec.id}",
            )
        data = await asyncio.to_thread(
            records.animation, plugin, rec.seed, rec.names, [(m.seat, m.move) for m in moves]
        )
        return f"{plugin.kind}-game-{rec.id}-replay.gif", data

    async def rematch(
        self, guild_id: int, channel_id: int, game_id: int, user_id: int, name: str
    ) -> tuple[GameRecord, list[Seat]]:
        """Open a lobby here for another game of the same kind at the same table: the member
        asking hosts it and sits first, the robots sit again at their levels, the seat order
        setting and the turn deadline are kept; the other players are pinged to press Join.
        Returns the lobby and the players invited.

        Raises:
            NoGame: no such game here. NotAllowed: the member did not play in it.
            LobbyError: the game is not over, or the channel has a lobby or game already.
        """
        _checked(guild_id, channel_id, game_id, user_id)
        async with self._lock(channel_id), self.store.write() as tx:
            old = await self._game_here(tx, channel_id, game_id)
            if old.status not in ("finished", "aborted"):
                raise LobbyError(
                    tr("That game is not over yet: a rematch opens once it ends."), code="not_over"
                )
            seats = await tx.seats(old.id)
            if not any(s.user_id == user_id for s in seats):
                raise NotAllowed(
                    tr(
                        "Only the players of that game can open its rematch; anyone can open a "
                        "new lobby with `/{command} new`.",
                        command=GAMES.get(old.kind).command,
                    ),
                    code="not_player",
                )
            existing = await tx.open_game(channel_id)
            if existing is not None:
                raise LobbyError(
                    tr("This channel already has a lobby: join it, or finish it first.")
                    if existing.status == "lobby"
                    else tr(
                        "This channel already has a game in progress: join it, or finish it first."
                    ),
                    code="channel_busy",
                )
            plugin = GAMES.get(old.kind)
            new_id = await tx.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                engine_version=plugin.rules.engine_version,
                seed=secrets.randbits(52),
                kind=plugin.kind,
                locale=old.locale,
            )
            sitting = [SeatRow(0, user_id, name)]
            for s in seats:
                if s.user_id < 0:  # a robot: it sits again at its level
                    robot_id = min([0, *(r.user_id for r in sitting)]) - 1
                    sitting.append(SeatRow(len(sitting), robot_id, s.name, s.ai))
            await tx.set_seats(new_id, sitting)
            if old.seating != "random":
                assert await tx.bump_game(new_id, 0, seating=old.seating)
            if old.deadline_hours is not None:
                await tx.set_deadline(new_id, old.deadline_hours)
            row = await tx.game(new_id)
            assert row is not None
            rec = await self._record(tx, row)
            invited = [Seat(s.seat, s.user_id, s.name) for s in seats]
            invited = [s for s in invited if s.user_id >= 0 and s.user_id != user_id]
            rows = [NewOutbox(channel_id, "lobby", self._lobby_payload(rec, "lobby"))]
            if invited:
                who = ", ".join(f"<@{s.user_id}>" for s in invited)
                text = t(
                    "🔁 **Rematch!** {name} opened a lobby for another game of {title} with the "
                    "same table. {who}: press **Join** on it to take your seat again.",
                    rec.locale,
                    name=texts.name(name),
                    title=plugin.title,
                    who=who,
                )
                rows.append(
                    NewOutbox(
                        channel_id,
                        "notice",
                        {
                            "text": text,
                            "mentions": [s.user_id for s in invited],
                        },
                    )
                )
            await tx.add_outbox(new_id, rows)
        self._kick()
        return rec, invited

    async def expire_lobbies(self) -> list[GameRecord]:
        """Close every lobby without activity for `lobby_idle`, with a message; return them."""
        if self.lobby_idle is None or self._closing:
            return []
        cutoff = (self.clock() - self.lobby_idle).isoformat(timespec="milliseconds")
        async with self.store.read() as tx:
            rows = await tx.idle_lobbies(cutoff)
        closed = []
        for candidate in rows:
            async with self._lock(candidate.channel_id), self.store.write() as tx:
                row = await tx.game(candidate.id)
                # Someone may have joined since the list was read.
                if row is None or row.status != "lobby" or row.updated_at >= cutoff:
                    continue
                if not await tx.bump_game(row.id, row.version, status="aborted"):
                    continue
                fresh = await tx.game(row.id)
                assert fresh is not None
                rec = await self._record(tx, fresh)
                with i18n.use(rec.locale):
                    idle = texts.idle_span(self.lobby_idle)
                    admin_text = tr("lobby closed after {idle} idle", idle=idle)
                    note = tr(
                        "This {title} lobby was closed after {idle} without activity.",
                        title=rec.plugin.title,
                        idle=idle,
                    )
                    notice = tr(
                        "The {title} lobby here was closed: nothing happened in it for {idle}. "
                        "Open a new one any time with `/{command} new`.",
                        title=rec.plugin.title,
                        idle=idle,
                        command=rec.plugin.command,
                    )
                await tx.add_admin_log(row.id, kind="expire", by_user_id=0, text=admin_text)
                await self._lobby_edit(tx, rec, "aborted", note)
                await tx.add_outbox(rec.id, [NewOutbox(rec.channel_id, "notice", {"text": notice})])
                closed.append(rec)
        if closed:
            self._kick()
        return closed

    # --- looking across a server ----------------------------------------------------------------

    async def my_games(self, guild_id: int, user_id: int) -> list[MyGame]:
        """The user's lobbies and games in progress on one server: the ones waiting for them
        first, each group oldest waiting first."""
        async with self.store.read() as tx:
            rows = await tx.open_games_of(guild_id, user_id)
            recs = [await self._record(tx, r) for r in rows]
        out = []
        for rec in recs:
            seat = rec.seat_of(user_id)
            assert seat is not None
            current = rec.current
            if rec.status == "lobby":
                decide, mine = tr("lobby: waiting for the host to start"), False
            elif rec.flagged or rec.state is None:
                decide, mine = tr("on hold (an admin should look at it)"), False
            elif current == seat:
                decide, mine = rec.plugin.must_decide(rec.seen(None), you=True), True
            elif current is not None:
                who = texts.name(rec.names[current])
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                decide, mine = tr("waiting for {who} to {must}", who=who, must=must), False
            else:
                decide, mine = tr("finished"), False
            out.append(
                MyGame(
                    rec.id,
                    rec.channel_id,
                    rec.status,
                    seat,
                    mine,
                    decide,
                    rec.updated_at,
                    rec.plugin.title,
                )
            )
        out.sort(key=lambda g: (not g.your_turn, g.since, g.game_id))
        return out

    async def count_active(self, guild_id: int) -> int:
        async with self.store.read() as tx:
            return await tx.count_active(guild_id)
