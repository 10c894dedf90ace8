"""A bad database at start: `run`, `check` and `backup` refuse a file that is not a healthy
database of this bot with a plain `error:` line (exit 2), and `run` says where it creates a new
one. Real files throughout: empty, random bytes, truncated, a garbage page, another app's."""

from __future__ import annotations

import os
import random
import shutil
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store
from tests.bot.test_service import play_any, started
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhT5xQ.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab"


def closed_port() -> int:
    """A loopback port nobody listens on: `run` fails to reach "Discord" right after start."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(cwd: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    env["DISCORD_TOKEN"] = FAKE_TOKEN
    env["DISCORD_API_BASE"] = f"http://127.0.0.1:{closed_port()}"
    return run_module(
        ["-m", "bot", *args],
        cwd=cwd,
        env=env,
        timeout=60,
    )


async def real_db(path: Path, moves: int = 30) -> None:
    """A bot database with a game of `moves` moves and enough pages to damage one."""
    store = await Store.open(path)
    svc = GameService(store)
    rec = await started(svc)
    rng = random.Random(3)
    for _ in range(moves):
        rec = await play_any(svc, rec, rng)
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _empty(path: Path, good: Path) -> None:
    path.write_bytes(b"")


def _random(path: Path, good: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(50_000))


def _truncated(path: Path, good: Path) -> None:
    data = good.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def _garbage_page(path: Path, good: Path) -> None:
    data = bytearray(good.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    pages = len(data) // page
    assert pages >= 4, pages
    k = pages - 2  # a page of the tables, not the header page
    data[k * page : (k + 1) * page] = random.Random(2).randbytes(page)
    path.write_bytes(bytes(data))


def _other_app(path: Path, good: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, email TEXT)")
        conn.execute("INSERT INTO contacts (email) VALUES ('a@example.com')")


BAD = {
    "empty": (_empty, "empty"),
    "random": (_random, "not an SQLite database"),
    "truncated": (_truncated, "damaged"),
    "garbage page": (_garbage_page, "damaged"),
    "other app": (_other_app, "not a database of this bot"),
}


@pytest.mark.parametrize("kind", list(BAD))
@pytest.mark.parametrize("command", ["run", "check", "backup"])
async def test_a_bad_database_is_refused_plainly_at_start(
    tmp_path: Path, kind: str, command: str
) -> None:
    good = tmp_path / "good.db"
    await real_db(good)
    bad = tmp_path / "bad.db"
    make, words = BAD[kind]
    make(bad, good)
    before = bad.read_bytes()
    args = [command] + ([str(tmp_path / "copy.db")] if command == "backup" else [])
    done = cli(tmp_path, bad, *args)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("error: "), done.stderr
    assert str(bad.resolve()) in lines[-1] and words in lines[-1], lines[-1]
    assert "Traceback" not in done.stderr and "CRITICAL" not in done.stderr
    assert bad.read_bytes() == before  # nothing written into the bad file
    assert not (tmp_path / "copy.db").exists()


async def test_a_healthy_database_still_passes(tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    await real_db(good)
    assert cli(tmp_path, good, "check").returncode == 0
    made = cli(tmp_path, good, "backup", str(tmp_path / "copy.db"))
    assert made.returncode == 0, made.stderr
    shutil.copy(tmp_path / "copy.db", tmp_path / "again.db")
    ran = cli(tmp_path, tmp_path / "again.db", "run")
    # It got as far as reaching "Discord" (a closed port): the database was accepted.
    assert ran.returncode == 1 and "could not reach Discord" in ran.stderr, ran.stderr
    assert "error: " in ran.stderr and "database" not in ran.stderr.split("error: ")[-1]


def test_a_new_database_is_announced_with_its_full_path(
    tmp_path: Path,
) -> None:
    """A new database in an existing folder is allowed, with its WARNING (a missing folder is
    refused: tests/bot/test_database_path.py)."""
    (tmp_path / "typo" / "folder").mkdir(parents=True)
    db = Path("typo") / "folder" / "nauticus.db"
    ran = cli(tmp_path, db, "run")
    created = (tmp_path / db).resolve()
    assert created.is_file()
    warnings = [line for line in ran.stderr.splitlines() if " WARNING " in line]
    assert any(str(created) in w and "new empty database" in w for w in warnings), ran.stderr
    again = cli(tmp_path, db, "run")  # the second start uses it quietly
    assert not any("new empty database" in line for line in again.stderr.splitlines())
