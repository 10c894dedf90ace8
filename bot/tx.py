"""The open transaction's statements: typed reads and writes of games, seats, settings, waits,
the move log, the admin log and the outbox. Valid only inside `Store.write` / `Store.read`."""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import aiosqlite

from bot.rows import (
    _GAME_COLS,
    _OUTBOX_COLS,
    SET_ASIDE,
    GameRow,
    MoveRow,
    NewOutbox,
    OutboxRow,
    Reported,
    SeatRow,
    UserSettings,
    WaitRow,
    _game,
    _move,
    _move_json,
    _outbox,
    _wait,
    dumps,
    hours_ok,
    now,
    report,
    settings_damage,
)

log = logging.getLogger("bot.store")

# The columns `bump_game` may change, and its statement for each set of them (made on first use).
_BUMPABLE = frozenset(
    {"status", "host_id", "state_json", "seed", "flagged", "engine_version", "seating"}
)
_BUMP_SQL: dict[tuple[str, ...], str] = {}


def _rowcount(raw: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    """On the connection's thread: run one statement, return the rows it changed."""
    return raw.execute(sql, params).rowcount


class _GameStatements:
    """Statements about games, seats, settings and waits (the move log and outbox: `Tx`)."""

    def __init__(self, conn: aiosqlite.Connection, reported: Reported | None = None) -> None:
        self.conn = conn
        # The damaged values already logged (shared by the store's transactions).
        self.reported: Reported = {} if reported is None else reported

    # One hop to aiosqlite's thread per statement where its helpers allow it (`execute_fetchall`,
    # `execute_insert`): a cursor's execute, fetch and close would be three.

    async def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.conn.execute_fetchall(sql, params)
        for row in rows:
            return tuple(row)
        return None

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.execute_fetchall(sql, params)]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute a statement; return the number of rows it changed. One hop: aiosqlite's
        public `execute` returns a cursor whose closing is a second one, so the statement
        and its row count are taken in one call on the connection's thread (aiosqlite's
        private `_execute`, as `Store.write_at_once`)."""
        conn = self.conn
        changed = await conn._execute(_rowcount, conn._conn, sql, params)  # type: ignore[no-untyped-call]
        return int(changed)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        row = await self.conn.execute_insert(sql, params)
        assert row is not None and row[0] is not None
        return int(row[0])

    async def many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, params)

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

    async def bump_game(
        self, game_id: int, expected_version: int, *, at: str | None = None, **changes: Any
    ) -> bool:
        """Store `changes` and bump the version if it is still `expected_version`; `at`: the
        time to store as `updated_at` (now if None; a move passes the one time of its rows)."""
        keys = tuple(changes)
        sql = _BUMP_SQL.get(keys)
        if sql is None:
            # Built (and its columns checked) once per set of columns: a move always changes
            # the same two.
            assert set(keys) <= _BUMPABLE, changes
            sets = "".join(f", {k} = ?" for k in keys)
            sql = _BUMP_SQL[keys] = (
                f"UPDATE games SET version = version + 1, updated_at = ?{sets} "
                "WHERE id = ? AND version = ?"
            )
        n = await self.run(sql, (at or now(), *changes.values(), game_id, expected_version))
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
        await self.many(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai) for s in seats],
        )


class Tx(_GameStatements):
    """The open transaction: typed statements over the connection, valid inside `Store.write`."""

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
        at: str | None = None,
    ) -> int:
        """Append a move to the game's log as its next number, which is returned; `at`: the
        time to store (now if None)."""
        # Two statements: one `INSERT ... SELECT MAX(n) + 1 ... RETURNING n` instead was
        # measured 2-4x slower than both together (SQLite 3.40), on the service's side and
        # run bare alike: RETURNING costs more than the statement it saves.
        row = await self.one("SELECT COALESCE(MAX(n), 0) FROM moves WHERE game_id = ?", (game_id,))
        assert row is not None
        n = int(row[0]) + 1
        await self.run(
            "INSERT INTO moves (game_id, n, seat, user_id, round, phase, move_json, events_json, "
            "text, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                n,
                seat,
                user_id,
                round,
                phase,
                dumps(move),
                dumps(events),
                text,
                at or now(),
            ),
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

    async def unit_events(
        self, game_id: int, unit: tuple[int, int]
    ) -> list[tuple[int, int, str, list[dict[str, Any]]]]:
        """(n, seat, text, events) of the game's effective moves in `unit` (a round and phase,
        as the moves are stored), oldest first: what a move's posts read of its unit. The
        same rows as `moves(round=, phase=)`, without reading (or decoding) their moves."""
        rows = await self.all(
            "SELECT n, seat, text, events_json FROM moves WHERE game_id = ? "
            "AND n NOT IN (SELECT n FROM undone WHERE game_id = ?) AND round = ? AND phase = ? "
            "ORDER BY n",
            (game_id, game_id, unit[0], unit[1]),
        )
        return [
            (int(n), int(seat), str(text), _move_json(game_id, int(n), "events", events))
            for n, seat, text, events in rows
        ]

    async def unit_since_last_move(
        self, game_id: int, seat: int, unit: tuple[int, int]
    ) -> tuple[bool, list[tuple[int, str]]]:
        """Whether `seat` has an effective move in `unit` (a round and phase, as the moves are
        stored), and the (seat, text) of the other seats' moves of that unit since its last one
        there (since the unit began if none), oldest first: what a turn ping's digest tells, the
        units before being told by their phase posts. Reads only those rows' seat and text (no
        JSON is decoded), in one statement."""
        rows = await self.all(
            "WITH live AS (SELECT n, seat, text FROM moves WHERE game_id = ? AND round = ? "
            "AND phase = ? AND n NOT IN (SELECT n FROM undone WHERE game_id = ?)), "
            "mine AS (SELECT COALESCE(MAX(n), 0) AS last FROM live WHERE seat = ?) "
            "SELECT mine.last, live.seat, live.text FROM live, mine "
            "WHERE live.n > mine.last AND live.seat != ? ORDER BY live.n",
            (game_id, unit[0], unit[1], game_id, seat, seat),
        )
        return bool(rows and rows[0][0]), [(int(r[1]), str(r[2])) for r in rows]

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

    async def add_outbox(
        self, game_id: int | None, rows: Sequence[NewOutbox], *, at: str | None = None
    ) -> list[int]:
        """Insert outbox rows in order; return their ids. `at`: their `created_at` (now if
        None)."""
        ids: list[int] = []
        if not rows:
            return ids  # most moves post nothing: not even the clock is read
        t = at or now()
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

    async def latest_outbox_id(self, game_id: int, kind: str) -> int | None:
        """The id of the game's newest outbox row of `kind`: what an edit of it needs, without
        reading and decoding its payload (`latest_outbox`)."""
        row = await self.one(
            "SELECT id FROM outbox WHERE game_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
            (game_id, kind),
        )
        return None if row is None else int(row[0])

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


class ThreadTx(Tx):
    """The same statements as `Tx`, run directly on the sqlite3 connection from aiosqlite's own
    thread, for a transaction that runs there whole (`Store.write_at_once`): `Tx` costs one hop
    to that thread and back per statement, this one none. Its coroutines never suspend (nothing
    here awaits anything real), so a whole move can be driven to its end on that thread in one
    go. Never use it from the event loop's thread: the connection belongs to aiosqlite's."""

    def __init__(
        self, conn: aiosqlite.Connection, raw: sqlite3.Connection, reported: Reported
    ) -> None:
        super().__init__(conn, reported)
        self.raw = raw

    async def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self.raw.execute(sql, params).fetchall()
        return tuple(rows[0]) if rows else None

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.raw.execute(sql, params).fetchall()]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.raw.execute(sql, params).rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        rowid = self.raw.execute(sql, params).lastrowid
        assert rowid is not None
        return rowid

    async def many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        self.raw.executemany(sql, params)
