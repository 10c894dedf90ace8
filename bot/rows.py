"""The rows of the database as typed values, how each is read from SQLite, and the checks that
find a damaged stored value (logged once, and the game held) instead of letting it fail a
player's command later."""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import orjson

log = logging.getLogger("bot.store")

# --- errors of a stored file or row ----------------------------------------------------------


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


# --- rows ----------------------------------------------------------------------------------


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


def _move_json(game_id: int, n: int, column: str, text: Any) -> Any:
    """One JSON column of move `n` (its "move", a dict, or its "events", a list), or
    UnreadableMove naming it."""
    try:
        value = loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise UnreadableMove(game_id, n, column, str(exc)[:80]) from exc
    if not isinstance(value, dict if column == "move" else list):
        raise UnreadableMove(game_id, n, column, f"a {type(value).__name__}")
    return value


def _move(game_id: int, r: tuple[Any, ...]) -> MoveRow:
    """A move-log row, or UnreadableMove naming it if its move or events are not valid JSON."""
    n = int(r[0])
    move = _move_json(game_id, n, "move", r[5])
    events = _move_json(game_id, n, "events", r[6])
    return MoveRow(r[0], r[1], r[2], r[3], r[4], move, events, r[7], r[8])


SET_ASIDE = "set aside"  # the start of `error` for an outbox row that is never delivered


def _outbox(row: sqlite3.Row | tuple[Any, ...]) -> OutboxRow:
    r = tuple(row)
    try:
        payload = loads(r[4])
        unreadable = None if isinstance(payload, dict) else f"a {type(payload).__name__}"
    except (TypeError, ValueError, RecursionError) as exc:
        unreadable = str(exc)[:80]
    if unreadable is not None:
        payload = {}
    return OutboxRow(
        r[0], r[1], r[2], r[3], payload, r[5], r[6], r[7], r[8], r[9], r[10], r[11], unreadable
    )


# `json.dumps` with any option builds a new encoder each call; this one is built once (the
# same options, so the same text).
_ENCODER = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def dumps(value: Any) -> str:
    return _ENCODER.encode(value)


def loads(text: Any) -> Any:
    """A stored JSON text read back, as `json.loads` reads it, about three times faster where
    orjson accepts the text: a phase post reads back the public view of the one before (~14 kB
    of payload), a turn-changing move the events of its unit. orjson reads valid JSON as the
    same value, but for an integer beyond 64 bits, which it reads as a float (the bot stores
    none: Discord's ids are below 2**63, its integer options within 2**53). What orjson refuses
    goes to `json.loads`: what the stdlib reads and orjson does not (NaN, Infinity, lone
    surrogates, nesting past 1024 levels), and the stdlib's own error for text that is not JSON.
    (orjson does not write `dumps`'s text: it writes a NaN as null, where the stdlib writes
    NaN.)"""
    try:
        return orjson.loads(text)
    except (orjson.JSONDecodeError, TypeError):
        return json.loads(text)
