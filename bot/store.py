"""SQLite storage for games, seats, the append-only move log and the outbox (aiosqlite).

One connection for the whole process. Coroutines sharing an aiosqlite connection share its
transaction, so every use of the connection - reads included, which would otherwise see another
coroutine's uncommitted writes - runs under one asyncio.Lock, every write is one
`BEGIN IMMEDIATE ... COMMIT` and every read one `BEGIN ... COMMIT` (a consistent snapshot).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

# Each entry moves the schema from version i to i + 1; never edit a released entry, append one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL DEFAULT 'nauticus',
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
            host_id INTEGER NOT NULL,
            engine_version TEXT NOT NULL,
            seed INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            state_json TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
        # One lobby or game in progress per channel or thread; finished ones stay as history.
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')
        """,
        """
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            phase INTEGER NOT NULL,
            move_json TEXT NOT NULL,
            events_json TEXT NOT NULL,
            text TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID
        """,
        # The log is the game's history and the source of the replay check: never rewritten.
        """
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END
        """,
        """
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END
        """,
        """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            game_id INTEGER REFERENCES games (id),
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL
                CHECK (kind IN ('turn_ping', 'ping_done', 'phase_post', 'final_post', 'lobby',
                    'notice')),
            payload_json TEXT NOT NULL,
            edits INTEGER REFERENCES outbox (id),
            nonce INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            sent_at TEXT,
            message_id INTEGER,
            attempts INTEGER NOT NULL DEFAULT 0,
            error TEXT
        )
        """,
        "CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL",
    ),
    (
        # A stored state that disagrees with a replay of its log is flagged, not used.
        "ALTER TABLE games ADD COLUMN flagged TEXT",
        "CREATE INDEX games_status ON games (status)",
    ),
    (
        # Hosting for weeks: the host may fix the seat order, seats change hands, and
        # `/nauticus mygames` looks games up by player.
        "ALTER TABLE games ADD COLUMN seating TEXT NOT NULL DEFAULT 'random' "
        "CHECK (seating IN ('random', 'join'))",
        "CREATE INDEX seats_user ON seats (user_id)",
        # Not engine moves (the replay never reads them), but part of the game's history that
        # `/nauticus log` shows: seats handed over, turns skipped by a moderator.
        """
        CREATE TABLE admin_log (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            after_move INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('replace', 'skip', 'remove', 'expire')),
            by_user_id INTEGER NOT NULL,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )
        """,
        "CREATE INDEX admin_log_game ON admin_log (game_id, after_move)",
    ),
    (
        # AI seats: `ai` is the level of the search player that plays the seat - a robot seat
        # (user_id < 0, no Discord member) or a member's seat on autopilot. NULL: a person.
        "ALTER TABLE seats ADD COLUMN ai TEXT",
        # The host's turn deadline; past it the AI plays the waiting seat's turn. NULL: none.
        "ALTER TABLE games ADD COLUMN deadline_hours INTEGER",
    ),
    (
        # Each finished game's result per seat, written with its last move (bot/ratings.py);
        # stats and leaderboards read it, `python -m bot ratings --rebuild` rewrites it.
        """
        CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games (id),
            guild_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            vp INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            robot INTEGER NOT NULL,
            ended_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_player ON results (guild_id, kind, user_id)",
        # openskill ratings per server, game and member (mu, sigma), from the results.
        """
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, kind, user_id)
        ) WITHOUT ROWID
        """,
    ),
    (
        # Settings: each member's own per server (reminder interval, quiet hours), the server's
        # default reminder interval, and a game's (set by its host). reminder_hours: NULL = not
        # set (the next level decides), 0 = no reminders.
        """
        CREATE TABLE user_settings (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            reminder_hours INTEGER,
            quiet_from TEXT,
            quiet_to TEXT,
            timezone TEXT,
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            reminder_hours INTEGER
        )
        """,
        "ALTER TABLE games ADD COLUMN reminder_hours INTEGER",
        # The decision a game waits for and its reminder schedule (bot/reminders.py): written
        # with each turn ping, advanced with each reminder in the same transaction as its post,
        # so a restart neither forgets a reminder nor sends one twice.
        """
        CREATE TABLE waits (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            since TEXT NOT NULL,
            sent INTEGER NOT NULL DEFAULT 0,
            next_at TEXT,
            snooze_until TEXT,
            stalled INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX waits_due ON waits (next_at) WHERE next_at IS NOT NULL",
    ),
    (
        # Undo: the move log stays append-only; an undo is a row here naming the move it takes
        # back. Every reader of the log (replay, check, records, ratings) sees the effective
        # log - the moves not undone - through `Tx.moves`.
        """
        CREATE TABLE undone (
            game_id INTEGER NOT NULL REFERENCES games (id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID
        """,
    ),
    (
        # The language of a game's channel posts ('en' or 'fr'), fixed when its lobby opens:
        # every public text of the game, including those written by background tasks (AI
        # moves, reminders) that have no interaction to take a language from, uses it.
        "ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en'",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database can't be used (newer schema than this code, or a broken file)."""


class DiskFull(StoreError):
    """SQLite could not write: the disk (or the database's size limit) is full. The
    transaction was rolled back, so nothing changed; the message is meant for the player."""

    def __init__(self) -> None:
        super().__init__(
            "The server's disk is full, so this could not be saved and nothing changed. An admin "
            "of the bot must free space on the server; then try again."
        )


def is_disk_full(exc: BaseException) -> bool:
    """True for SQLite's SQLITE_FULL ("database or disk is full")."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)


class UnreadableMove(StoreError):
    """A row of the move log holds invalid JSON: its game can't be replayed (nor go on)."""

    def __init__(self, game_id: int, n: int, column: str, detail: str) -> None:
        super().__init__(f"move {n} of the log is unreadable ({column}: {detail})")
        self.game_id = game_id
        self.n = n


SQLITE_HEADER = b"SQLite format 3\x00"
_BOT_TABLES = frozenset({"games", "seats", "moves", "outbox"})


def verify_file(path: Path) -> None:
    """Refuse, before anything opens it, a file at `path` that is not a healthy database of this
    bot: empty, not SQLite, damaged (`PRAGMA quick_check`), another application's, or newer
    than this code. A missing file is fine (`Store.open` creates it). Reads only.

    Raises:
        StoreError: the message names the file (absolute path) and what is wrong with it.
    """
    where = path.resolve()
    if not path.exists():
        return
    if not path.is_file():
        raise StoreError(f"{where} (DATABASE_PATH) is not a file.")
    wal = path.with_name(path.name + "-wal")
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
        wal_size = wal.stat().st_size if wal.is_file() else 0
    except OSError as exc:
        raise StoreError(f"{where} (DATABASE_PATH) can't be read: {exc.strerror}.") from exc
    if not head and not wal_size:
        raise StoreError(
            f"{where} (DATABASE_PATH) is empty (0 bytes), not a database of this bot. If it "
            "should hold your games, restore a backup; to start afresh, delete the empty file."
        )
    if head and head != SQLITE_HEADER:
        raise StoreError(
            f"{where} (DATABASE_PATH) is not an SQLite database (it does not start with "
            "SQLite's header). Check DATABASE_PATH, or restore a backup."
        )
    try:
        conn = sqlite3.connect(path, timeout=30)
        try:
            problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
            tables = {
                str(r[0])
                for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{where} (DATABASE_PATH) is damaged ({exc}). Restore a backup "
            "(`python -m bot restore FILE`)."
        ) from exc
    if problems != ["ok"]:
        raise StoreError(
            f"{where} (DATABASE_PATH) is damaged (quick_check: {'; '.join(problems)}). Restore "
            "a backup (`python -m bot restore FILE`)."
        )
    if (tables or version) and not tables >= _BOT_TABLES:
        raise StoreError(
            f"{where} (DATABASE_PATH) is an SQLite database, but not a database of this bot "
            f"(tables: {', '.join(sorted(tables)) or 'none'}). Check DATABASE_PATH."
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{where} (DATABASE_PATH) has schema version {version}, newer than this bot's "
            f"{SCHEMA_VERSION}: update the bot instead of downgrading the database."
        )


def now() -> str:
    """The current UTC time as stored in every `*_at` column."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    status: str
    host_id: int
    engine_version: str
    seed: int
    version: int
    state_json: str | None
    flagged: str | None
    created_at: str
    updated_at: str
    seating: str = "random"  # "random" (drawn with the seed) or "join" (join order)
    kind: str = "nauticus"  # the game (a key of the registry in bot.games)
    deadline_hours: int | None = None  # past it, the AI plays the waiting seat's turn
    reminder_hours: int | None = None  # the host's reminder interval (None: not set, 0: off)
    locale: str = "en"  # the language of the game's channel posts


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int  # < 0: a robot seat (no Discord member behind it)
    name: str
    ai: str | None = None  # the AI level playing the seat (a robot, or a member's autopilot)


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A member's own settings on one server (None: not set)."""

    reminder_hours: int | None = None  # 0: no reminders
    quiet_from: str | None = None  # "22:00"
    quiet_to: str | None = None
    timezone: str | None = None  # IANA name


@dataclass(frozen=True, slots=True)
class WaitRow:
    """The decision a game waits for, and where its reminders stand."""

    game_id: int
    seat: int
    user_id: int
    since: str  # ISO time the wait began (its turn ping)
    sent: int  # reminders sent during this wait
    next_at: str | None  # when the next reminder (or the stall notice) is due; None: none
    snooze_until: str | None
    stalled: bool


@dataclass(frozen=True, slots=True)
class MoveRow:
    n: int
    seat: int
    user_id: int
    round: int
    phase: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    text: str
    at: str


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int | None
    channel_id: int
    kind: str
    payload: dict[str, Any]
    edits: int | None
    nonce: int
    created_at: str
    sent_at: str | None
    message_id: int | None
    attempts: int
    error: str | None
    # Why the payload could not be read (invalid JSON): the row is set aside, never delivered.
    unreadable: str | None = None


@dataclass(frozen=True, slots=True)
class NewOutbox:
    """An outbox row to insert; `edits_ref` names a row inserted earlier in the same batch."""

    channel_id: int
    kind: str
    payload: dict[str, Any]
    edits: int | None = None
    edits_ref: int | None = None  # index into the batch being inserted


_GAME_COLS = (
    "id, guild_id, channel_id, status, host_id, engine_version, seed, version, state_json, "
    "flagged, created_at, updated_at, seating, kind, deadline_hours, reminder_hours, "
    "locale"
)
_OUTBOX_COLS = (
    "id, game_id, channel_id, kind, payload_json, edits, nonce, created_at, sent_at, message_id, "
    "attempts, error"
)


# --- damaged stored values --------------------------------------------------------------------
# The bot writes only values it has checked, but SQLite does not enforce column types and a file
# edited by hand or damaged on disk can hold anything. The readers check every per-game, per-seat
# and per-member value a runner or a move uses: a bad one costs its own game (held, as a game
# whose state disagrees with its log is) or its member's setting (the default is used), never
# the scan, the reminders or the moves of every other game. Each is logged once per database
# and process (`Reported`), not at every tick that reads it again.

MAX_HOURS = 24 * 366  # far above any interval the bot offers (7 days), far below an overflow
LOCALES = ("en", "fr")  # the languages a game's posts can be in (bot.i18n.LOCALES)
SEATINGS = ("random", "join")
IN_PLAY = ("lobby", "active")  # a damaged value of these holds the game

Reported = dict[tuple[str, str, str], str]  # (where, column, value) -> error id, logged once


def hours_ok(value: Any) -> bool:
    """A stored interval in hours the bot can compute with (0 .. MAX_HOURS)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_HOURS


def time_ok(value: Any) -> bool:
    """An ISO time with a zone, far enough from year 9999 that adding a year cannot overflow."""
    if not isinstance(value, str):
        return False
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return False
    return when.tzinfo is not None and 1 < when.year < 9000


def report(reported: Reported, where: str, column: str, value: Any, then: str) -> str:
    """Log a damaged stored value once (one ERROR line); return its error id, the same at each
    read, so the id a player is shown matches the line in the log."""
    shown = repr(value)[:60]
    key = (where, column, shown)
    eid = reported.get(key)
    if eid is None:
        eid = reported[key] = secrets.token_hex(3)
        log.error("%s: stored %s %s is damaged; %s [error %s]", where, column, shown, then, eid)
    return eid


def game_damage(g: GameRow) -> list[tuple[str, Any, bool]]:
    """(column, value, holds the game) of each damaged value of a game row a runner or a move
    reads. The turn deadline (and the time it counts from) decides who plays: a game in play
    with a bad one is held rather than played without it. The others have a harmless default."""
    bad: list[tuple[str, Any, bool]] = []
    play = g.status in IN_PLAY
    if g.deadline_hours is not None and not hours_ok(g.deadline_hours):
        bad.append(("deadline_hours", g.deadline_hours, play))
    if g.status == "active" and not time_ok(g.updated_at):
        bad.append(("updated_at", g.updated_at, True))
    if g.reminder_hours is not None and not hours_ok(g.reminder_hours):
        bad.append(("reminder_hours", g.reminder_hours, False))
    if g.locale not in LOCALES:
        bad.append(("locale", g.locale, False))
    if g.seating not in SEATINGS:
        bad.append(("seating", g.seating, False))
    return bad


_GAME_DEFAULTS: dict[str, Any] = {
    "deadline_hours": None,
    "reminder_hours": None,
    "locale": "en",
    "seating": "random",
}


def _game_checked(g: GameRow, reported: Reported) -> GameRow:
    """The row with each damaged value replaced by its default and, if one of them holds the
    game, `flagged` set (in memory: mending the value in the file releases the game)."""
    changes: dict[str, Any] = {}
    hold: str | None = None
    for column, value, holds in game_damage(g):
        then = "the game is on hold" if holds else "the default is used"
        eid = report(reported, f"game {g.id}", column, value, then)
        if column in _GAME_DEFAULTS:
            changes[column] = _GAME_DEFAULTS[column]
        if holds and hold is None:
            hold = f"[{eid}] its stored {column} {value!r:.40} is damaged"
    if hold is not None and not g.flagged:
        changes["flagged"] = hold
    return replace(g, **changes) if changes else g


def settings_damage(s: UserSettings) -> list[tuple[str, Any]]:
    """(column, value) of each damaged value of a member's settings."""
    from bot import reminders  # here: reminders imports the catalogue, which the store needs not

    bad: list[tuple[str, Any]] = []
    if s.reminder_hours is not None and not hours_ok(s.reminder_hours):
        bad.append(("reminder_hours", s.reminder_hours))
    quiet = (s.quiet_from, s.quiet_to, s.timezone)
    if any(v is not None for v in quiet):
        try:
            ok = reminders.quiet_of(*quiet) is not None
        except Exception:  # not even text: quiet_of expects strings
            ok = False
        if not ok:
            bad.append(("quiet hours", quiet))
    return bad


def wait_damage(w: WaitRow) -> list[tuple[str, Any]]:
    """(column, value) of each damaged value of a stored wait (its reminder schedule)."""
    bad: list[tuple[str, Any]] = []
    if not time_ok(w.since):
        bad.append(("since", w.since))
    if not (isinstance(w.sent, int) and not isinstance(w.sent, bool) and 0 <= w.sent < 1 << 31):
        bad.append(("sent", w.sent))
    for column, value in (("next_at", w.next_at), ("snooze_until", w.snooze_until)):
        if value is not None and not time_ok(value):
            bad.append((column, value))
    return bad


def _wait(r: tuple[Any, ...], reported: Reported | None = None) -> WaitRow:
    w = WaitRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]))
    changes: dict[str, Any] = {}
    for column, value in wait_damage(w):
        if reported is not None:
            report(reported, f"wait of game {w.game_id}", column, value, "the default is used")
        # A wait that cannot say when it began starts now; a schedule that cannot be read
        # sends no more reminders (the next turn ping writes a new one).
        changes[column] = {"since": now(), "sent": 0}.get(column)
    return replace(w, **changes) if changes else w


def _game(row: sqlite3.Row | tuple[Any, ...], reported: Reported | None = None) -> GameRow:
    g = GameRow(*row)
    return g if reported is None else _game_checked(g, reported)


def _move(game_id: int, r: tuple[Any, ...]) -> MoveRow:
    """A move-log row, or UnreadableMove naming it if its move or events are not valid JSON."""
    parsed: list[Any] = []
    for column, text in (("move", r[5]), ("events", r[6])):
        try:
            value = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise UnreadableMove(game_id, int(r[0]), column, str(exc)[:80]) from exc
        if not isinstance(value, dict if column == "move" else list):
            raise UnreadableMove(game_id, int(r[0]), column, f"a {type(value).__name__}")
        parsed.append(value)
    return MoveRow(r[0], r[1], r[2], r[3], r[4], parsed[0], parsed[1], r[7], r[8])


SET_ASIDE = "set aside"  # the start of `error` for an outbox row that is never delivered


def _outbox(row: sqlite3.Row | tuple[Any, ...]) -> OutboxRow:
    r = tuple(row)
    try:
        payload = json.loads(r[4])
        unreadable = None if isinstance(payload, dict) else f"a {type(payload).__name__}"
    except (TypeError, ValueError, RecursionError) as exc:
        unreadable = str(exc)[:80]
    if unreadable is not None:
        payload = {}
    return OutboxRow(
        r[0], r[1], r[2], r[3], payload, r[5], r[6], r[7], r[8], r[9], r[10], r[11], unreadable
    )


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


class Tx:
    """The open transaction: typed statements over the connection, valid inside `Store.write`."""

    def __init__(self, conn: aiosqlite.Connection, reported: Reported | None = None) -> None:
        self.conn = conn
        # The damaged values already logged (shared by the store's transactions).
        self.reported: Reported = {} if reported is None else reported

    async def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        async with self.conn.execute(sql, params) as cur:
            row = await cur.fetchone()
        return None if row is None else tuple(row)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.conn.execute(sql, params) as cur:
            rows = await cur.fetchall()
        return [tuple(r) for r in rows]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute a statement; return the number of rows it changed."""
        async with self.conn.execute(sql, params) as cur:
            return cur.rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.conn.execute(sql, params) as cur:
            rowid = cur.lastrowid
        assert rowid is not None
        return rowid

    # --- games ---------------------------------------------------------------------------

    async def open_game(self, channel_id: int) -> GameRow | None:
        """The lobby or game in progress in a channel, if any."""
        row = await self.one(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? "
            "AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else _game(row, self.reported)

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row, self.reported)

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The most recent game of a channel, whatever its status."""
        row = await self.one(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else _game(row, self.reported)

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_game(r, self.reported) for r in rows]

    async def insert_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        engine_version: str,
        seed: int,
        kind: str = "nauticus",
        locale: str = "en",
    ) -> int:
        t = now()
        return await self.insert(
            "INSERT INTO games (guild_id, channel_id, status, host_id, engine_version, seed, "
            "version, state_json, created_at, updated_at, kind, locale) VALUES (?, ?, 'lobby', ?, "
            "?, ?, 0, NULL, ?, ?, ?, ?)",
            (guild_id, channel_id, host_id, engine_version, seed, t, t, kind, locale),
        )

    async def bump_game(self, game_id: int, expected_version: int, **changes: Any) -> bool:
        """Store `changes` and bump the version if it is still `expected_version`."""
        allowed = {
            "status",
            "host_id",
            "state_json",
            "seed",
            "flagged",
            "engine_version",
            "seating",
        }
        assert set(changes) <= allowed, changes
        sets = "".join(f", {k} = ?" for k in changes)
        n = await self.run(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} "
            "WHERE id = ? AND version = ?",
            (now(), *changes.values(), game_id, expected_version),
        )
        return n == 1

    async def set_deadline(self, game_id: int, hours: int | None) -> None:
        """A setting, not a change of the game: the version (and so every panel) stays."""
        await self.run("UPDATE games SET deadline_hours = ? WHERE id = ?", (hours, game_id))

    async def set_game_locale(self, game_id: int, locale: str) -> None:
        """A setting, not a change of the game: the version stays."""
        await self.run("UPDATE games SET locale = ? WHERE id = ?", (locale, game_id))

    async def set_game_reminders(self, game_id: int, hours: int | None) -> None:
        """A setting, not a change of the game: the version stays."""
        await self.run("UPDATE games SET reminder_hours = ? WHERE id = ?", (hours, game_id))

    async def user_settings(self, guild_id: int, user_id: int) -> UserSettings:
        row = await self.one(
            "SELECT reminder_hours, quiet_from, quiet_to, timezone FROM user_settings "
            "WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return UserSettings()
        s = UserSettings(*row)
        for column, value in settings_damage(s):
            report(
                self.reported,
                f"member {user_id} on server {guild_id}",
                column,
                value,
                "the default is used",
            )
            if column == "reminder_hours":
                s = replace(s, reminder_hours=None)
            else:
                s = replace(s, quiet_from=None, quiet_to=None, timezone=None)
        return s

    async def set_user_settings(self, guild_id: int, user_id: int, s: UserSettings) -> None:
        await self.run(
            "INSERT INTO user_settings (guild_id, user_id, reminder_hours, quiet_from, quiet_to, "
            "timezone) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "reminder_hours = excluded.reminder_hours, quiet_from = excluded.quiet_from, "
            "quiet_to = excluded.quiet_to, timezone = excluded.timezone",
            (guild_id, user_id, s.reminder_hours, s.quiet_from, s.quiet_to, s.timezone),
        )

    async def guild_reminders(self, guild_id: int) -> int | None:
        row = await self.one(
            "SELECT reminder_hours FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None or row[0] is None or hours_ok(row[0]):
            return None if row is None else row[0]
        report(self.reported, f"server {guild_id}", "reminder_hours", row[0], "the default is used")
        return None

    async def set_guild_reminders(self, guild_id: int, hours: int | None) -> None:
        await self.run(
            "INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
            (guild_id, hours),
        )

    async def wait(self, game_id: int) -> WaitRow | None:
        row = await self.one(
            "SELECT game_id, seat, user_id, since, sent, next_at, snooze_until, stalled "
            "FROM waits WHERE game_id = ?",
            (game_id,),
        )
        return None if row is None else _wait(row, self.reported)

    async def put_wait(self, w: WaitRow) -> None:
        await self.run(
            "INSERT OR REPLACE INTO waits (game_id, seat, user_id, since, sent, next_at, "
            "snooze_until, stalled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                w.game_id,
                w.seat,
                w.user_id,
                w.since,
                w.sent,
                w.next_at,
                w.snooze_until,
                int(w.stalled),
            ),
        )

    async def due_waits(self, until: str) -> list[WaitRow]:
        """Waits of games in play whose next reminder is due by `until` (ISO time)."""
        rows = await self.all(
            "SELECT w.game_id, w.seat, w.user_id, w.since, w.sent, w.next_at, w.snooze_until, "
            "w.stalled FROM waits w JOIN games g ON g.id = w.game_id WHERE g.status = 'active' "
            "AND g.flagged IS NULL AND w.next_at IS NOT NULL AND w.next_at <= ? "
            "ORDER BY w.next_at",
            (until,),
        )
        return [_wait(r, self.reported) for r in rows]

    async def damaged_values(self, levels: Collection[str]) -> list[str]:
        """Every damaged stored value a runner or a move would read, in words, for `python -m
        bot check`: of the games in play, their seats (`levels`: the AI levels there are) and
        waits, and of the members' and servers' settings. Logs nothing (check prints them)."""
        out: list[str] = []

        def said(value: Any, holds: bool) -> str:
            then = "the game is on hold" if holds else "the default is used"
            return f"{value!r:.60} is damaged ({then})"

        games = await self.all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        for g in (GameRow(*r) for r in games):
            where = f"channel {g.channel_id}, game {g.id}"
            for column, value, holds in game_damage(g):
                out.append(f"{where}: stored {column} {said(value, holds)}")
            for seat, ai in await self.all(
                "SELECT seat, ai FROM seats WHERE game_id = ? AND ai IS NOT NULL ORDER BY seat",
                (g.id,),
            ):
                if ai not in levels:
                    out.append(f"{where}: stored AI level of seat {seat} {said(ai, True)}")
            wait = await self.one(
                "SELECT game_id, seat, user_id, since, sent, next_at, snooze_until, stalled "
                "FROM waits WHERE game_id = ?",
                (g.id,),
            )
            for column, value in wait_damage(_wait(wait)) if wait else []:
                out.append(f"{where}: stored {column} of its wait {said(value, False)}")
        for guild_id, user_id, *values in await self.all(
            "SELECT guild_id, user_id, reminder_hours, quiet_from, quiet_to, timezone "
            "FROM user_settings ORDER BY guild_id, user_id"
        ):
            for column, value in settings_damage(UserSettings(*values)):
                out.append(
                    f"member {user_id} on server {guild_id}: stored {column} {said(value, False)}"
                )
        for guild_id, hours in await self.all(
            "SELECT guild_id, reminder_hours FROM guild_settings ORDER BY guild_id"
        ):
            if hours is not None and not hours_ok(hours):
                out.append(f"server {guild_id}: stored reminder_hours {said(hours, False)}")
        return out

    async def set_seat_ai(self, game_id: int, seat: int, ai: str | None) -> None:
        """Hand a seat to the AI or take it back (autopilot); the game's version stays."""
        await self.run(
            "UPDATE seats SET ai = ? WHERE game_id = ? AND seat = ?", (ai, game_id, seat)
        )

    async def flag_game(self, game_id: int, reason: str) -> None:
        await self.run("UPDATE games SET flagged = ? WHERE id = ?", (reason, game_id))

    async def open_games_of(self, guild_id: int, user_id: int) -> list[GameRow]:
        """Lobbies and games in progress of one server where the user has a seat."""
        rows = await self.all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} "
            "FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.guild_id = ? AND g.status IN ('lobby', 'active') "
            "ORDER BY g.updated_at, g.id",
            (user_id, guild_id),
        )
        return [_game(r, self.reported) for r in rows]

    async def count_active(self, guild_id: int) -> int:
        row = await self.one(
            "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'active'", (guild_id,)
        )
        return 0 if row is None else int(row[0])

    async def idle_lobbies(self, before: str) -> list[GameRow]:
        """Lobbies with no change since `before` (an ISO time as stored in `updated_at`)."""
        rows = await self.all(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'lobby' AND updated_at < ? ORDER BY id",
            (before,),
        )
        return [_game(r, self.reported) for r in rows]

    # --- seats ---------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.all(
            "SELECT seat, user_id, name, ai FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(*r) for r in rows]

    async def set_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace the seats of a game (seat numbers are reassigned when the game starts)."""
        await self.run("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self.conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai) for s in seats],
        )

    # --- moves ---------------------------------------------------------------------------

    async def append_move(
        self,
        game_id: int,
        *,
        seat: int,
        user_id: int,
        round: int,
        phase: int,
        move: dict[str, Any],
        events: list[dict[str, Any]],
        text: str,
    ) -> int:
        row = await self.one("SELECT COALESCE(MAX(n), 0) FROM moves WHERE game_id = ?", (game_id,))
        assert row is not None
        n = int(row[0]) + 1
        await self.run(
            "INSERT INTO moves (game_id, n, seat, user_id, round, phase, move_json, events_json, "
            "text, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, n, seat, user_id, round, phase, dumps(move), dumps(events), text, now()),
        )
        return n

    async def moves(
        self,
        game_id: int,
        *,
        after: int = 0,
        round: int | None = None,
        phase: int | None = None,
        with_undone: bool = False,
    ) -> list[MoveRow]:
        """The game's effective log (moves taken back left out, unless `with_undone`)."""
        sql = (
            "SELECT n, seat, user_id, round, phase, move_json, events_json, text, at FROM moves "
            "WHERE game_id = ? AND n > ?"
        )
        params: list[Any] = [game_id, after]
        if not with_undone:
            sql += " AND n NOT IN (SELECT n FROM undone WHERE game_id = ?)"
            params.append(game_id)
        if round is not None:
            sql += " AND round = ?"
            params.append(round)
        if phase is not None:
            sql += " AND phase = ?"
            params.append(phase)
        rows = await self.all(sql + " ORDER BY n", params)
        return [_move(game_id, r) for r in rows]

    async def last_moves(
        self, game_id: int, count: int, *, with_undone: bool = False
    ) -> list[MoveRow]:
        rows = await self.all(
            "SELECT n FROM moves WHERE game_id = ? "
            + ("" if with_undone else "AND n NOT IN (SELECT n FROM undone WHERE game_id = ?) ")
            + "ORDER BY n DESC LIMIT ?",
            (game_id, count) if with_undone else (game_id, game_id, count),
        )
        if not rows:
            return []
        return await self.moves(game_id, after=int(rows[-1][0]) - 1, with_undone=with_undone)

    async def undo_move(self, game_id: int, n: int, seat: int, user_id: int) -> None:
        await self.run(
            "INSERT INTO undone (game_id, n, seat, user_id, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, n, seat, user_id, now()),
        )

    async def undone(self, game_id: int) -> set[int]:
        """The numbers of the moves taken back in a game."""
        return {
            int(r[0]) for r in await self.all("SELECT n FROM undone WHERE game_id = ?", (game_id,))
        }

    # --- admin log -----------------------------------------------------------------------

    async def add_admin_log(self, game_id: int, *, kind: str, by_user_id: int, text: str) -> None:
        row = await self.one("SELECT COALESCE(MAX(n), 0) FROM moves WHERE game_id = ?", (game_id,))
        after = 0 if row is None else int(row[0])
        await self.run(
            "INSERT INTO admin_log (game_id, after_move, kind, by_user_id, text, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, after, kind, by_user_id, text, now()),
        )

    async def admin_log(self, game_id: int, *, after_move: int = -1) -> list[tuple[int, str, str]]:
        """(after which move, kind, text) of the game's seat changes and skips, in order."""
        rows = await self.all(
            "SELECT after_move, kind, text FROM admin_log WHERE game_id = ? AND after_move > ? "
            "ORDER BY id",
            (game_id, after_move),
        )
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    # --- outbox --------------------------------------------------------------------------

    async def add_outbox(self, game_id: int | None, rows: Sequence[NewOutbox]) -> list[int]:
        """Insert outbox rows in order; return their ids."""
        ids: list[int] = []
        t = now()
        for r in rows:
            edits = r.edits if r.edits_ref is None else ids[r.edits_ref]
            # Discord drops a second message with the same nonce, so a resend after a crash
            # between delivery and `mark_sent` does not show twice.
            nonce = secrets.randbits(53)
            ids.append(
                await self.insert(
                    "INSERT INTO outbox (game_id, channel_id, kind, payload_json, edits, nonce, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, r.channel_id, r.kind, dumps(r.payload), edits, nonce, t),
                )
            )
        return ids

    async def pending_outbox(self, limit: int = 100, after: int = 0) -> list[OutboxRow]:
        """Undelivered rows with an id above `after`, oldest first."""
        rows = await self.all(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE sent_at IS NULL AND id > ? "
            "ORDER BY id LIMIT ?",
            (after, limit),
        )
        return [_outbox(r) for r in rows]

    async def outbox_row(self, row_id: int) -> OutboxRow | None:
        row = await self.one(f"SELECT {_OUTBOX_COLS} FROM outbox WHERE id = ?", (row_id,))
        return None if row is None else _outbox(row)

    async def latest_outbox(self, game_id: int, kind: str) -> OutboxRow | None:
        row = await self.one(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? AND kind = ? "
            "ORDER BY id DESC LIMIT 1",
            (game_id, kind),
        )
        return None if row is None else _outbox(row)

    async def first_outbox(self, game_id: int, kind: str) -> OutboxRow | None:
        row = await self.one(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? AND kind = ? ORDER BY id LIMIT 1",
            (game_id, kind),
        )
        return None if row is None else _outbox(row)

    async def mark_sent(
        self, row_id: int, message_id: int | None, error: str | None = None
    ) -> bool:
        """Record a delivery; False if the row had already been marked (never twice)."""
        n = await self.run(
            "UPDATE outbox SET sent_at = ?, message_id = ?, error = ? "
            "WHERE id = ? AND sent_at IS NULL",
            (now(), message_id, error, row_id),
        )
        return n == 1

    async def set_aside_outbox(self) -> list[OutboxRow]:
        """The rows given up as unreadable (`SET_ASIDE`), oldest first, for `check`."""
        rows = await self.all(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE error LIKE ? ORDER BY id", (SET_ASIDE + "%",)
        )
        return [_outbox(r) for r in rows]

    async def note_failure(self, row_id: int, error: str) -> int:
        """Count a failed delivery attempt; return the attempts so far."""
        await self.run(
            "UPDATE outbox SET attempts = attempts + 1, error = ? WHERE id = ?", (error, row_id)
        )
        row = await self.one("SELECT attempts FROM outbox WHERE id = ?", (row_id,))
        return 0 if row is None else int(row[0])


class Store:
    """The bot's database: open with `await Store.open(path)`, close with `await store.close()`."""

    # Commits between two `wal_checkpoint(TRUNCATE)`s: SQLite's own auto-checkpoint copies pages
    # back but never shrinks the -wal file (about 4 MB for good, more after a long reader).
    CHECKPOINT_EVERY = 100
    CHECKPOINT_WAL_BYTES = 1 << 20  # ... or as soon as the -wal file is larger than this

    def __init__(self, conn: aiosqlite.Connection, path: Path, synchronous: str = "FULL") -> None:
        self._conn = conn
        self._commits = 0
        self.synchronous = synchronous
        self._lock = asyncio.Lock()
        self.path = path
        self.disk_full = False  # in a full-disk outage: logged once, cleared by the next commit
        self._reported: Reported = {}  # damaged stored values logged (once each)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> Store:
        """Open (creating if needed) and migrate the database at `path`.

        `synchronous` stays FULL for the bot (a committed move survives a power cut); the
        offline runner's throwaway database may pass "NORMAL".

        Raises:
            StoreError: the file was written by a newer version of the bot, or is not SQLite.
        """
        path = Path(path)
        if path.parent != Path(""):
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        store = cls(conn, path, synchronous)
        try:
            await store._setup()
        except BaseException:
            await conn.close()
            raise
        return store

    async def _setup(self) -> None:
        try:
            mode = await self._scalar("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a usable SQLite database: {exc}") from exc
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: WAL journal mode is not available (got {mode!r})")
        await self._conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        await self._conn.execute("PRAGMA foreign_keys = ON")
        await self._conn.execute("PRAGMA busy_timeout = 5000")
        await self.migrate()

    async def _scalar(self, sql: str) -> Any:
        async with self._conn.execute(sql) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def schema_version(self) -> int:
        async with self._lock:
            return int(await self._scalar("PRAGMA user_version"))

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Apply the forward migrations up to `target`; return the schema version reached.

        Raises:
            StoreError: the database is newer than this code knows.
        """
        async with self._lock:
            current = int(await self._scalar("PRAGMA user_version"))
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has schema version {current}, newer than this bot's "
                    f"{SCHEMA_VERSION}: update the bot instead of downgrading the database."
                )
            for version in range(current, target):
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[version]:
                        await self._conn.execute(statement)
                    # PRAGMA takes no parameters; `version + 1` is an int we computed.
                    await self._conn.execute(f"PRAGMA user_version = {version + 1}")
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise
            return max(current, target)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One `BEGIN IMMEDIATE ... COMMIT` transaction; rolled back if the block raises."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._conn, self._reported)
                await self._conn.execute("COMMIT")
            except BaseException as exc:
                # A failed COMMIT can leave the transaction open; never leave it to the next user.
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                if is_disk_full(exc):
                    self._note_disk_full(exc)
                    raise DiskFull() from exc
                raise
            if self.disk_full:
                self.disk_full = False
                log.warning("database %s: writes succeed again (the disk has space)", self.path)
            self._commits += 1
            if self._commits >= self.CHECKPOINT_EVERY or self._wal_bytes() > (
                self.CHECKPOINT_WAL_BYTES
            ):
                await self._checkpoint()

    def _wal_bytes(self) -> int:
        try:
            return self.path.with_name(self.path.name + "-wal").stat().st_size
        except OSError:
            return 0

    async def _checkpoint(self) -> None:
        """Copy the WAL into the database and truncate it (under the lock, no transaction open).

        A reader in another process (`check`, a backup) can keep it from finishing: then it is
        tried again later instead of waiting, so a move never waits for housekeeping."""
        self._commits = 0
        try:
            await self._conn.execute("PRAGMA busy_timeout = 0")
            try:
                async with self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
                    row = await cur.fetchone()
            finally:
                await self._conn.execute("PRAGMA busy_timeout = 5000")
        except sqlite3.Error as exc:
            log.warning("database %s: WAL checkpoint failed: %s", self.path, exc)
            return
        if row is not None and row[0]:
            log.debug("database %s: WAL checkpoint busy (a reader), tried again later", self.path)

    def _note_disk_full(self, exc: BaseException) -> None:
        """One ERROR per outage (not per move or per retry); the players are told each time."""
        if not self.disk_full:
            self.disk_full = True
            log.error(
                "database %s: the disk is full (%s); moves are refused and posts wait until an "
                "admin frees space",
                self.path.resolve(),
                exc,
            )

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """One read transaction (`BEGIN ... COMMIT`), serialised with the writes (one shared
        connection). In WAL mode every statement of the block sees the same snapshot, so a
        game's row and its moves agree even while another process (the bot, while `check`
        runs; a second bot on the same file) commits moves in between."""
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                yield Tx(self._conn, self._reported)
            finally:
                if self._conn.in_transaction:
                    await self._conn.execute("COMMIT")

    async def close(self) -> None:
        """Checkpoint the WAL (a clean stop leaves an empty -wal file) and close."""
        async with self._lock:
            try:
                await self._checkpoint()
            finally:
                await self._conn.close()
