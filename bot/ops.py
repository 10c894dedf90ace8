"""Running the bot for weeks: the run lock, backups, restores, and a clean stop on a signal.

The run lock belongs to the database *file*, not to one spelling of its path: `python -m bot run`
holds it for as long as the process lives, and `restore` and `ratings --rebuild` (the admin
commands that write) take it without waiting, so they refuse while a bot runs on that database,
and a second bot refuses to start, whichever path each of them was given. It is two OS locks
(`flock` on POSIX, `msvcrt.locking` on Windows), both taken without waiting:

- on `<real path>.lock`, next to the database's resolved path (symlinks, `..` and a relative
  path followed), which is also where SQLite keeps the `-wal` and `-shm` files. This covers a
  database that does not exist yet (its identity is then its resolved path) and holds, for a
  human to read, who holds the lock and since when;
- on the database file itself (its device and inode) once it exists, which covers a hard link
  in another folder under another name: no file next to either name is shared by both, and a
  lock file named from (device, inode) in a common folder such as the temporary folder is not
  shared either, because services often get a private /tmp (systemd's PrivateTmp) and each
  user has their own runtime folder. The pid of that holder is read from /proc/locks where
  there is one. On Linux `flock` and SQLite's own `fcntl` byte-range locks are independent; on
  Windows the locked byte lies far beyond SQLite's lock bytes. On macOS and the BSDs `flock` and
  `fcntl` locks interact, so this second lock would block SQLite itself: there only the first
  lock is taken, and a hard link goes unnoticed.

The OS drops both locks when the process ends, however it ends (even `kill -9` or a power cut),
so there is never a stale lock to clean up.

Backups use SQLite's online backup API (`sqlite3.Connection.backup`): one step copies every page
under a single read transaction, which in WAL mode does not block the bot's writes, so the copy
is a consistent snapshot of committed moves even while games are being played. They read only,
and take no lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from bot.outbox import Outbox
    from bot.service import GameService
    from bot.store import Store

log = logging.getLogger(__name__)


class OpsError(Exception):
    """An admin command refused; the message says why and what to do. Nothing was changed."""


class AlreadyRunning(OpsError):
    """Another process (a running bot, a restore) holds the database's run lock."""


def lock_path(db_path: Path) -> Path:
    """`<real path>.lock`: every spelling of one database path names the same lock file."""
    real = db_path.resolve()  # not strict: a database not created yet resolves as far as it can
    return real.with_name(real.name + ".lock")


class RunLock:
    """The exclusive lock a running bot holds on its database (see the module docstring)."""

    def __init__(self, db_path: Path, purpose: str = "bot") -> None:
        self.db_path = db_path
        self.database = db_path.resolve()  # named in messages: the file, whatever the spelling
        self.path = lock_path(db_path)
        self.purpose = purpose
        self._fh: IO[str] | None = None
        self._db_fh: IO[bytes] | None = None

    def acquire(self) -> None:
        """Take the lock without waiting.

        Raises:
            AlreadyRunning: another process holds it (its pid is in the message when known).
            OpsError: the lock file can't be created (its folder is never created here).
        """
        try:
            fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        except OSError as exc:
            raise OpsError(f"Can't create the lock file {self.path}: {exc.strerror}.") from exc
        try:
            _lock(fh)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise self._in_use(holder) from None
        self._fh = fh
        try:
            self.hold_database()
        except BaseException:
            self.release()
            raise
        # Written only once both locks are held, so a refused process never overwrites it.
        fh.seek(0)
        fh.truncate()
        fh.write(
            f"{self.purpose} (pid {os.getpid()}, since {datetime.now(UTC):%Y-%m-%d %H:%M} UTC)"
        )
        fh.flush()

    def hold_database(self) -> None:
        """Lock the database file itself, if it exists and is not locked by us yet.

        `acquire` calls it; `run` calls it again once `Store.open` has created a new database,
        so that a hard link made afterwards is covered too.

        Raises:
            AlreadyRunning: another process holds the file (through another name).
            OpsError: the database can't be opened to lock it.
        """
        if self._db_fh is not None or not _LOCKS_DATABASE_FILE:
            return
        try:
            fh = open(self.db_path, "rb")  # noqa: SIM115 (held until release)
        except FileNotFoundError:
            return  # not created yet: the lock file next to its resolved path stands for it
        except OSError as exc:
            raise OpsError(f"Can't open the database {self.database} to lock it: {exc}.") from exc
        try:
            _lock_database(fh)
        except OSError:
            pid = _flock_holder(fh)
            fh.close()
            holder = f"another process (pid {pid})" if pid else "another process"
            raise self._in_use(holder) from None
        self._db_fh = fh

    def _in_use(self, holder: str) -> AlreadyRunning:
        return AlreadyRunning(
            f"The database {self.database} is in use by {holder}. Stop the bot first (for "
            "example `sudo systemctl stop nauticus`), then try again."
        )

    def release(self) -> None:
        db_fh, self._db_fh = self._db_fh, None
        if db_fh is not None:
            db_fh.close()  # closing the file drops its lock
        fh, self._fh = self._fh, None
        if fh is not None:
            with contextlib.suppress(OSError):
                fh.seek(0)
                fh.truncate()
                _unlock(fh)
            fh.close()

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    _LOCKS_DATABASE_FILE = True
    # Windows locks are mandatory: a byte this far beyond SQLite's lock bytes (at 1 GiB) and any
    # page a bot database reaches keeps its reads and writes free.
    _DATABASE_LOCK_BYTE = 1 << 40

    def _lock(fh: IO[str]) -> None:
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(fh: IO[str]) -> None:
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)

    def _lock_database(fh: IO[bytes]) -> None:
        fh.seek(_DATABASE_LOCK_BYTE)
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)

    def _flock_holder(fh: IO[bytes]) -> int | None:
        return None

else:
    import fcntl

    # Only where `flock` and SQLite's `fcntl` locks are independent (see the module docstring).
    _LOCKS_DATABASE_FILE = sys.platform.startswith("linux")

    def _lock(fh: IO[str]) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fh: IO[str]) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    def _lock_database(fh: IO[bytes]) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _flock_holder(fh: IO[bytes]) -> int | None:
        """The pid holding a `flock` on this file, from /proc/locks (Linux), if it says."""
        st = os.fstat(fh.fileno())
        key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        try:
            with open("/proc/locks", encoding="ascii", errors="replace") as locks:
                for line in locks:
                    # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; "->" marks a waiter.
                    fields = line.split()
                    if "FLOCK" in fields and "->" not in fields and key in fields:
                        pid = fields[fields.index(key) - 1]
                        return int(pid) if pid.isdigit() and int(pid) > 0 else None
        except OSError:
            pass
        return None


# --- backup and restore ----------------------------------------------------------------------


@dataclass(frozen=True)
class Copied:
    path: Path
    games: int
    active: int
    schema: int
    size: int  # bytes


def _describe(conn: sqlite3.Connection, path: Path) -> Copied:
    games, active = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(status = 'active'), 0) FROM games"
    ).fetchone()
    schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
    return Copied(path, int(games), int(active), schema, path.stat().st_size)


def _check_target(dest: Path) -> None:
    if dest.exists():
        raise OpsError(f"{dest} already exists; backups never overwrite a file. Choose a new name.")
    parent = dest.parent if str(dest.parent) else Path(".")
    if not parent.is_dir():
        raise OpsError(f"Can't write the backup: the folder {parent} does not exist.")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OpsError(f"Can't write the backup: no permission to write in {parent}.")


def backup(db_path: Path, dest: Path) -> Copied:
    """Copy the live database at `db_path` to the new file `dest` (works while the bot runs).

    The copy is written next to `dest` under a temporary name, checked, switched to a single
    self-contained file (no -wal), then renamed into place, so `dest` is never half-written.

    Raises:
        OpsError: no database, `dest` exists or its folder is missing or not writable.
    """
    if not db_path.is_file():
        raise OpsError(f"There is no database at {db_path} (DATABASE_PATH): nothing to back up.")
    _check_target(dest)
    tmp = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    try:
        src = sqlite3.connect(db_path, timeout=30)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)  # pages=-1: every page in one step, one consistent snapshot
                dst.execute("PRAGMA journal_mode = DELETE")
                ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
                if ok != "ok":
                    raise OpsError(
                        f"The copy failed its integrity check ({ok}); {dest} not written."
                    )
                dst.commit()
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(tmp, dest)
    except OpsError:
        tmp.unlink(missing_ok=True)
        raise
    except (OSError, sqlite3.Error) as exc:
        tmp.unlink(missing_ok=True)
        raise OpsError(f"The backup to {dest} failed: {exc}. Nothing was written.") from exc
    with contextlib.closing(sqlite3.connect(dest)) as conn:
        return _describe(conn, dest)


def _check_backup(src: Path) -> None:
    from bot.store import SCHEMA_VERSION

    if not src.is_file():
        raise OpsError(f"There is no file {src} to restore from.")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True)) as conn:
            ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
            schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
            has_games = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            ).fetchone()
    except sqlite3.Error as exc:
        raise OpsError(f"{src} is not a usable SQLite database ({exc}); nothing restored.") from exc
    if ok != "ok":
        raise OpsError(f"{src} fails SQLite's integrity check ({ok}); nothing restored.")
    if not has_games:
        raise OpsError(f"{src} is not a Nauticus bot database (no games table); nothing restored.")
    if schema > SCHEMA_VERSION:
        raise OpsError(
            f"{src} was written by a newer bot (schema {schema}, this bot knows {SCHEMA_VERSION}):"
            " update the bot first."
        )


def restore(db_path: Path, src: Path) -> tuple[Copied, Path | None]:
    """Replace the database at `db_path` with the backup `src`, keeping the old one aside.

    Returns the restored database's summary and where the replaced database was saved.

    Raises:
        AlreadyRunning: a bot is running on `db_path`.
        OpsError: `src` is missing, not a bot database, or newer than this bot.
    """
    with RunLock(db_path, "restore"):
        _check_backup(src)
        saved: Path | None = None
        if db_path.is_file():
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            saved = db_path.with_name(f"{db_path.name}.before-restore-{stamp}")
            backup(db_path, saved)
        try:
            with (
                contextlib.closing(sqlite3.connect(src)) as source,
                contextlib.closing(sqlite3.connect(db_path)) as target,
            ):
                source.backup(target)
                target.execute("PRAGMA journal_mode = WAL")
                summary = _describe(target, db_path)
        except (OSError, sqlite3.Error) as exc:
            kept = f" The previous database is kept at {saved}." if saved else ""
            raise OpsError(f"Restoring into {db_path} failed: {exc}.{kept}") from exc
        return summary, saved


# --- a clean stop on SIGTERM / Ctrl-C --------------------------------------------------------


class StopSignal:
    """SIGTERM (systemd, docker stop) and SIGINT (Ctrl-C) ask for a clean stop instead of
    killing the process in the middle of a move."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.received: str | None = None

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows
                loop.add_signal_handler(sig, self._on, sig)

    def _on(self, sig: signal.Signals) -> None:
        if self.received is None:
            log.info("%s received: stopping cleanly", sig.name)
        self.received = sig.name
        self.event.set()

    async def wait(self) -> None:
        await self.event.wait()


async def shut_down(service: GameService, outbox: Outbox | None, store: Store) -> None:
    """Stop in the order that leaves the database consistent: refuse new requests and let
    the moves in progress commit, let the message being delivered be marked sent (the rest stay
    in the outbox for the next start), then close the connection."""
    await service.close()
    if outbox is not None:
        await outbox.stop()
    await store.close()
