"""A DATABASE_PATH whose folder does not exist is refused at once (issue 21, item 11): one
`error:` line naming the folder, exit status 2, and nothing created, for every command that uses
the database. A new database in an existing folder stays allowed, with its WARNING.

Each command runs as a real process with a dummy token and a loopback DISCORD_API_BASE on which
nothing listens, so `run` can never reach Discord."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from bot.store import Store
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]


async def make_db(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


def cli(cwd: Path, db: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    env["DISCORD_TOKEN"] = "dummy-token-for-a-test"
    env["DISCORD_API_BASE"] = "http://127.0.0.1:9"  # loopback, nothing listens: never Discord
    return run_module(
        ["-m", "bot", *args],
        cwd=cwd,  # no .env there
        env=env,
        timeout=60,
    )


COMMANDS = {
    "run": ["run"],
    "check": ["check"],
    "backup": ["backup", "copy.db"],
    "restore": ["restore", "copy.db"],
    "ratings": ["ratings", "--rebuild"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_database_path_in_a_missing_folder_is_refused_and_nothing_is_created(
    tmp_path: Path, command: str
) -> None:
    if command == "restore":  # a usable backup, so that only the folder can be wrong
        asyncio.run(make_db(tmp_path / "copy.db"))
    missing = tmp_path / "nonexistent" / "dir"
    proc = cli(tmp_path, missing / "x.db", *COMMANDS[command])
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, proc.stderr
    assert str(missing) in errors[0] and "does not exist" in errors[0], errors
    assert "DATABASE_PATH" in errors[0]
    assert not (tmp_path / "nonexistent").exists()  # no folder, no database, no lock file
    assert "could not reach Discord" not in proc.stderr


def test_a_relative_database_path_in_a_missing_folder_names_it_in_full(tmp_path: Path) -> None:
    proc = cli(tmp_path, os.path.join("nope", "x.db"), "run")
    assert proc.returncode == 2, proc.stderr
    assert str(tmp_path / "nope") in proc.stderr
    assert not (tmp_path / "nope").exists()


def test_a_database_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    proc = cli(tmp_path, tmp_path / "afile" / "x.db", "run")
    assert proc.returncode == 2, proc.stderr
    assert "error:" in proc.stderr and str(tmp_path / "afile") in proc.stderr
    assert (tmp_path / "afile").read_text() == "not a folder"


def test_a_new_database_in_an_existing_folder_is_still_created_with_a_warning(
    tmp_path: Path,
) -> None:
    (tmp_path / "data").mkdir()
    db = tmp_path / "data" / "new.db"
    proc = cli(tmp_path, db, "run")
    # It got as far as Discord, which is not there (exit 1): the database was allowed.
    assert proc.returncode == 1, proc.stderr
    assert "could not reach Discord" in proc.stderr
    assert "WARNING" in proc.stderr and "created a new empty database" in proc.stderr
    assert db.is_file()
