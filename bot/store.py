"""SQLite storage for games, seats, the append-only move log and the outbox (aiosqlite).

One connection for the whole process. Coroutines sharing an aiosqlite connection share its
transaction, so every use of the connection - reads included, which would otherwise see another
coroutine's uncommitted writes - runs under one asyncio.Lock, every write is one
`BEGIN IMMEDIATE ... COMMIT` and every read one `BEGIN ... COMMIT` (a consistent snapshot).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.rows import (
    IN_PLAY,
    SET_ASIDE,
    DiskFull,
    GameRow,
    MoveRow,
    NewOutbox,
    OutboxRow,
    Reported,
    SeatRow,
    StoreError,
    UnreadableMove,
    UserSettings,
    WaitRow,
    dumps,
    is_disk_full,
    now,
    report,
)
from bot.tx import ThreadTx, Tx

log = logging.getLogger(__name__)

T = TypeVar("T")

# What the rest of the bot imports from here (the rows, the schema and the transaction live in
# bot.rows, bot.migrations and bot.tx; this module opens, migrates and guards the file).
__all__ = [
    "IN_PLAY",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SET_ASIDE",
    "DiskFull",
    "GameRow",
    "MoveRow",
    "NewOutbox",
    "OutboxRow",
    "Reported",
    "SeatRow",
    "Store",
    "StoreError",
    "ThreadTx",
    "Tx",
    "UnreadableMove",
    "UserSettings",
    "WaitRow",
    "dumps",
    "is_disk_full",
    "now",
    "report",
    "verify_file",
]

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
            # One line per problem: SQLite may report several in one row, line by line, and
            # the error is printed as one `error:` line.
            problems = [
                " ".join(str(r[0]).split())
                for r in conn.execute("PRAGMA quick_check(5)").fetchall()
            ]
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
        # The -wal file's name, made once: `_committed` looks at its size after every commit.
        self._wal = str(path.with_name(path.name + "-wal"))
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
            await self._committed()

    async def write_at_once(self, work: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """`work(tx)` in one `BEGIN IMMEDIATE ... COMMIT` transaction run whole on the
        connection's thread: one hop there and back for the whole transaction instead of one
        per statement (`write`), each hop costing more than most of a move's statements.
        Rolled back if `work` raises; the same guarantees as `write` otherwise.

        `work` must await nothing but its `tx`'s statements (they never suspend there): it
        runs on aiosqlite's thread, in a copy of the caller's context (its language and other
        context variables), and awaiting anything else is refused (RuntimeError, rolled back).
        """
        ctx = contextvars.copy_context()
        async with self._lock:
            # aiosqlite has no public way to run a function on its connection's thread: its
            # private `_execute` queues one (each public method is one such call) and `_conn`
            # is the sqlite3 connection that thread owns; both are the same in 0.20.0 (the
            # lowest version pyproject allows, which .ci/lowest plays a game with) and 0.22.
            conn = self._conn
            try:
                # Awaited directly (no task, no shield): each extra layer is one more turn of
                # the event loop per move.
                result: T = await conn._execute(  # type: ignore[no-untyped-call]
                    self._whole, conn._conn, work, ctx
                )
            except asyncio.CancelledError:
                # The transaction still runs to its end on the thread (committed or rolled
                # back). A no-op queued behind it returns once it has: keep the lock until
                # then, so nothing else uses the connection mid-transaction.
                await asyncio.shield(conn._execute(_nothing))  # type: ignore[no-untyped-call]
                raise
            except BaseException as exc:
                if is_disk_full(exc):
                    self._note_disk_full(exc)
                    raise DiskFull() from exc
                raise
            await self._committed()
            return result

    def _whole(
        self,
        raw: sqlite3.Connection,
        work: Callable[[Tx], Coroutine[Any, Any, T]],
        ctx: contextvars.Context,
    ) -> T:
        """On the connection's thread: the transaction of `write_at_once`."""
        tx = ThreadTx(self._conn, raw, self._reported)
        raw.execute("BEGIN IMMEDIATE")
        try:
            result: T = ctx.run(_run_to_end, work(tx))
            raw.execute("COMMIT")
        except BaseException:
            # A failed COMMIT can leave the transaction open; never leave it to the next user.
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        return result

    async def _committed(self) -> None:
        """After each commit: clear a full-disk outage, and checkpoint now and then."""
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
            return os.stat(self._wal).st_size
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


def _nothing() -> None:
    """Queued behind a transaction on the connection's thread: returns once it has ended."""


def _run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """Drive a coroutine that never suspends (a `ThreadTx`'s statements run at once) to its end,
    on this thread; refuse one that waits for something (it would wait for ever here)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a transaction run on the connection's thread awaited something else")
