"""The run lock belongs to the database file, not to one spelling of its path (issue 21, item 8):
a symlink, a hard link, `..` or a relative path to the live database meets the lock a running bot
holds, so a second `run`, a `restore` and `ratings --rebuild` are refused.

The holder is a separate process taking the real `RunLock`, as `python -m bot run` does; the
refused side is the real command line, started with a dummy token and a loopback
DISCORD_API_BASE on which nothing listens, so it can never reach Discord."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot import ops
from bot.service import GameService
from bot.store import Store
from tests.bot.test_service import CH, GUILD
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]

# Takes the run lock on argv[1] exactly as `python -m bot run` does, says so, and keeps it until
# its stdin is closed.
HOLD = """
import sys
from pathlib import Path
from bot.ops import RunLock
lock = RunLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
sys.stdin.read()
lock.release()
"""


def make_db(path: Path, games: int) -> None:
    async def fill() -> None:
        store = await Store.open(path)
        try:
            svc = GameService(store)
            for i in range(games):
                await svc.open_lobby(GUILD, CH + i, 1, "Ana", kind="nauticus")
        finally:
            await store.close()

    asyncio.run(fill())


def game_count(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])


@pytest.fixture
def live(tmp_path: Path) -> Path:
    """The live database, in its own folder (so a spelling elsewhere has another `.lock` name)."""
    (tmp_path / "data").mkdir()
    db = tmp_path / "data" / "bot.db"
    make_db(db, 3)
    return db


class Holder:
    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    @property
    def pid(self) -> int:
        return self.proc.pid


@pytest.fixture
def hold(tmp_path: Path) -> Iterator[Callable[[Path | str], Holder]]:
    """Starts holder processes; each lets go (stdin closed) when the test ends."""
    started: list[subprocess.Popen[str]] = []

    def start(spelling: Path | str) -> Holder:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env["PYTHONPATH"] = str(REPO)
        proc = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(spelling)],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if line != "held":
            proc.kill()
            raise AssertionError(f"the holder said {line!r}: {proc.communicate()[1]}")
        return Holder(proc)

    yield start
    for proc in started:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cli(cwd: Path, db: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    env["DISCORD_TOKEN"] = "dummy-token-for-a-test"
    env["DISCORD_API_BASE"] = "http://127.0.0.1:9"  # loopback, nothing listens: never Discord
    # Forked from the test launcher's preloaded interpreter (tests/e2e/launcher.py): the same
    # `python -m bot` with its own folder and settings, a second of CPU cheaper than a fresh
    # interpreter. The one test about what happens before discord.py is imported spawns its own.
    return run_module(["-m", "bot", *args], cwd=cwd, env=env, timeout=60)  # cwd: no .env there


def symlink_to(target: Path, link: Path) -> Path:
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(target)
    return link


def hard_link_to(target: Path, link: Path) -> Path:
    link.parent.mkdir(exist_ok=True)
    os.link(target, link)
    return link


def spelling(kind: str, live: Path) -> Path | str:
    tmp = live.parents[1]
    if kind == "symlink":
        return symlink_to(live, tmp / "elsewhere" / "link.db")
    if kind == "hard link":
        return hard_link_to(live, tmp / "elsewhere" / "same.db")
    if kind == "dotdot":
        (tmp / "elsewhere").mkdir()
        return tmp / "elsewhere" / ".." / "data" / "bot.db"
    assert kind == "relative"
    return os.path.join("data", "bot.db")  # the commands run in tmp_path


KINDS = ["symlink", "hard link", "dotdot", "relative"]


def refused(proc: subprocess.CompletedProcess[str], holder: Holder) -> str:
    """The command's `error:` line, after checking it was refused before reaching Discord."""
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert lines, proc.stderr
    assert "could not reach Discord" not in proc.stderr  # refused before any connection
    return lines[0]


@pytest.mark.parametrize("kind", KINDS)
def test_a_second_run_through_another_spelling_is_refused(
    tmp_path: Path, live: Path, hold: Callable[[Path | str], Holder], kind: str
) -> None:
    holder = hold(live)
    other = spelling(kind, live)
    said = refused(cli(tmp_path, other, "run"), holder)
    assert "in use by" in said and f"pid {holder.pid}" in said, said


def test_a_second_run_is_refused_before_discord_py_is_even_loaded(
    tmp_path: Path, live: Path, hold: Callable[[Path | str], Holder]
) -> None:
    # The lock comes first in `run`: a second bot started by mistake is told at once, without
    # the second or so that loading discord.py and the catalogues takes.
    holder = hold(live)
    probe = (
        "import sys\n"
        "from bot.__main__ import main\n"
        "code = main(['run'])\n"
        "print('discord loaded' if 'discord' in sys.modules else 'discord not loaded')\n"
        "sys.exit(code)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env |= {
        "PYTHONPATH": str(REPO),
        "DATABASE_PATH": str(live),
        "DISCORD_TOKEN": "dummy-token-for-a-test",
        "DISCORD_API_BASE": "http://127.0.0.1:9",  # loopback, nothing listens: never Discord
    }
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = refused(proc, holder)
    assert "in use by" in said and f"pid {holder.pid}" in said, said
    assert proc.stdout.strip() == "discord not loaded", proc.stdout


@pytest.mark.parametrize("kind", ["symlink", "hard link"])
def test_the_lock_taken_through_a_link_refuses_the_real_path(
    tmp_path: Path, live: Path, hold: Callable[[Path | str], Holder], kind: str
) -> None:
    holder = hold(spelling(kind, live))
    said = refused(cli(tmp_path, live, "run"), holder)
    assert "in use by" in said and f"pid {holder.pid}" in said, said


@pytest.mark.parametrize("kind", ["symlink", "hard link"])
def test_restore_through_a_link_is_refused_while_the_lock_is_held(
    tmp_path: Path, live: Path, hold: Callable[[Path | str], Holder], kind: str
) -> None:
    backup = tmp_path / "backup.db"
    make_db(backup, 1)
    holder = hold(live)
    other = spelling(kind, live)
    proc = cli(tmp_path, other, "restore", str(backup))
    assert f"pid {holder.pid}" in refused(proc, holder)
    assert "Stop the bot first" in proc.stderr
    assert game_count(live) == 3  # nothing was written into the live database
    assert not list(tmp_path.rglob("*.before-restore-*"))


def test_ratings_rebuild_is_refused_while_the_lock_is_held(
    tmp_path: Path, live: Path, hold: Callable[[Path | str], Holder]
) -> None:
    holder = hold(live)
    proc = cli(tmp_path, spelling("symlink", live), "ratings", "--rebuild")
    assert f"pid {holder.pid}" in refused(proc, holder)
    assert "rebuilt" not in proc.stdout


def test_a_new_database_is_locked_by_its_resolved_path(
    tmp_path: Path, hold: Callable[[Path | str], Holder]
) -> None:
    (tmp_path / "data").mkdir()
    new = tmp_path / "data" / "new.db"  # not created yet
    link = symlink_to(new, tmp_path / "elsewhere" / "new.db")  # dangling until it is
    holder = hold(new)
    with pytest.raises(ops.AlreadyRunning, match=f"pid {holder.pid}"):
        ops.RunLock(link).acquire()
    assert not new.exists()  # the lock does not create the database


def test_a_database_created_under_the_lock_is_then_locked_by_its_identity(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.db"
    lock = ops.RunLock(db)
    lock.acquire()  # as `run` does before Store.open creates the file
    try:
        make_db(db, 1)
        lock.hold_database()  # what `run` does once the file exists
        link = hard_link_to(db, tmp_path / "other" / "same.db")
        with pytest.raises(ops.AlreadyRunning, match=f"pid {os.getpid()}"):
            ops.RunLock(link).acquire()
    finally:
        lock.release()
    with ops.RunLock(tmp_path / "other" / "same.db"):  # released: free for the next holder
        pass


def test_restore_through_a_symlink_works_when_nothing_holds_the_lock(
    tmp_path: Path, live: Path
) -> None:
    backup = tmp_path / "backup.db"
    make_db(backup, 1)
    link = spelling("symlink", live)
    done = cli(tmp_path, link, "restore", str(backup))
    assert done.returncode == 0, done.stderr
    assert game_count(live) == 1  # restored into the file the link points to
    assert Path(link).is_symlink()  # the link itself was written through, not replaced
