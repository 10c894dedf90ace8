"""`python -m bot export` (issue 23): a stored game's record written to a file from the command
line, with no Discord, through a real process against a database the GameService filled.

A finished game's record is complete and `python -m bot replay` plays it to the same final
scores; a game in progress gives only what the table sees (no seed, no moves); bad or unknown
ids, a missing database and an existing output file are refused in one `error:` line (exit 2).
The database is only read: the bot may hold its run lock meanwhile."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from bot import records
from bot.games import GAMES
from bot.ops import RunLock
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]
GUILD = 9
DONE_CH, PLAYING_CH, EMPTY_CH = 700, 701, 702
ANA, BEN, CLEO = 31, 32, 33


def cli(cwd: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    return run_module(
        ["-m", "bot", *args],
        cwd=cwd,  # no .env there; no token either: export needs none
        env=env,
        timeout=120,
    )


async def play(svc: GameService, rec: GameRecord, moves: int | None, seed: int) -> GameRecord:
    """Seeded random legal moves: `moves` of them, or (None) until the game is over."""
    rng = random.Random(seed)
    rules = rec.plugin.rules
    while rec.status == "active" and (moves is None or moves > 0):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(rec.channel_id, rec.user_at(seat), move, confirm=True)).record
        moves = None if moves is None else moves - 1
    return rec


async def build_db(path: Path) -> tuple[GameRecord, GameRecord]:
    """A finished Nauticus game in DONE_CH and a Nautilus Island game in progress in
    PLAYING_CH."""
    store = await Store.open(path)
    try:
        svc = GameService(store)
        await svc.open_lobby(GUILD, DONE_CH, ANA, "Ana", kind="nauticus")
        await svc.join(DONE_CH, BEN, "Ben")
        await svc.join(DONE_CH, CLEO, "Cleo")
        rec = await svc.start(DONE_CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=5)
        done = await play(svc, rec, None, seed=2)
        assert done.status == "finished"
        await svc.open_lobby(GUILD, PLAYING_CH, BEN, "Ben", kind="island")
        await svc.join(PLAYING_CH, CLEO, "Cleo")
        rec = await svc.start(PLAYING_CH, BEN, can_manage=False, order=[BEN, CLEO], seed=11)
        playing = await play(svc, rec, 20, seed=3)
        assert playing.status == "active"
    finally:
        await store.close()
    return done, playing


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameRecord, GameRecord]:
    path = tmp_path_factory.mktemp("export-db") / "bot.db"
    done, playing = asyncio.run(build_db(path))
    return path, done, playing


def scores_of(replay_output: str) -> dict[str, int]:
    """{name: VP} from the summary `python -m bot replay` prints ("Played …: Ana 41 VP …")."""
    line = next(x for x in replay_output.splitlines() if x.startswith("Played "))
    return {name: int(vp) for name, vp in re.findall(r"(\w+) (-?\d+) VP", line)}


def test_a_finished_game_exported_by_channel_replays_to_the_same_final_scores(
    db: tuple[Path, GameRecord, GameRecord], tmp_path: Path
) -> None:
    path, done, _ = db
    out = tmp_path / "done.json"
    proc = cli(tmp_path, path, "export", "--channel", str(DONE_CH), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"to {out} (complete" in proc.stdout
    record = json.loads(out.read_bytes())
    assert record["complete"] is True and record["seed"] == 5
    assert record["game_id"] == done.id and record["status"] == "finished"
    assert all("move" in m for m in record["moves"]) and record["moves"]
    assert "private" not in record  # exported for nobody's seat
    rules = GAMES.get("nauticus").rules
    assert done.state is not None
    expected = {done.names[s.seat]: s.vp for s in rules.final_scores(done.state)}
    assert {s["name"]: s["vp"] for s in record["final_scores"]} == expected
    # The admin's next step, without Discord: replay the file into a folder.
    again = tmp_path / "again"
    proc = cli(tmp_path, path, "replay", str(out), "--out", str(again))
    assert proc.returncode == 0, proc.stderr
    assert "The replay gives the record's final scores." in proc.stdout
    assert scores_of(proc.stdout) == expected
    assert (again / "replay.gif").is_file()


def test_export_by_game_id_gives_the_record_of_that_game(
    db: tuple[Path, GameRecord, GameRecord], tmp_path: Path
) -> None:
    path, done, _ = db
    # No --out: the record's own file name in the working folder.
    proc = cli(tmp_path, path, "export", "--game", str(done.id))
    assert proc.returncode == 0, proc.stderr
    default = tmp_path / f"nauticus-game-{done.id}.json"
    record = records.parse(default.read_bytes())
    assert record.complete and record.seed == 5
    # With --channel too, the game must be that channel's.
    both = tmp_path / "both.json"
    args = ["export", "--channel", str(DONE_CH), "--game", str(done.id), "--out", str(both)]
    proc = cli(tmp_path, path, *args)
    assert proc.returncode == 0, proc.stderr
    assert records.parse(both.read_bytes()).script == record.script


def test_a_game_in_progress_exports_only_what_the_table_sees(
    db: tuple[Path, GameRecord, GameRecord], tmp_path: Path
) -> None:
    path, _, playing = db
    out = tmp_path / "playing.json"
    # The bot may be running: export takes no run lock and reads only.
    with RunLock(path):
        proc = cli(tmp_path, path, "export", "--game", str(playing.id), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "active: only what the table sees" in proc.stdout
    record = json.loads(out.read_bytes())
    assert record["status"] == "active" and record["complete"] is False
    assert record["seed"] is None and record["final_scores"] is None
    assert "private" not in record
    assert len(record["moves"]) == 20
    assert all("move" not in m for m in record["moves"])
    assert record["public_view"]
    # Such a record is refused by replay, which says why.
    proc = cli(tmp_path, path, "replay", str(out), "--out", str(tmp_path / "no"))
    assert proc.returncode == 1 and "holds only what the table could see" in proc.stderr
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--channel", "abc"], "error: --channel must be an id"),
        (["--game", "-4"], "error: --game must be an id"),
        (["--game", str(1 << 63)], "error: --game must be an id"),
        ([], "error: say which game to export"),
        (["--game", "999"], "error: there is no game 999 in"),
        (["--channel", str(EMPTY_CH)], f"error: no game was played in channel {EMPTY_CH}"),
        (["--channel", str(PLAYING_CH), "--game", "1"], "error: there is no game 1 in channel"),
    ],
)
def test_bad_or_unknown_ids_are_refused_in_one_line(
    db: tuple[Path, GameRecord, GameRecord], tmp_path: Path, args: list[str], says: str
) -> None:
    path, done, _ = db
    assert done.id == 1  # so that game 1 is not PLAYING_CH's
    out = tmp_path / "x.json"
    proc = cli(tmp_path, path, "export", *args, "--out", str(out))
    assert proc.returncode == 2
    assert proc.stderr.startswith(says), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not out.exists() and proc.stdout == ""


def test_a_missing_database_or_an_existing_file_is_refused(
    db: tuple[Path, GameRecord, GameRecord], tmp_path: Path
) -> None:
    path, done, _ = db
    missing = tmp_path / "nowhere.db"
    proc = cli(tmp_path, missing, "export", "--game", "1", "--out", "x.json")
    assert proc.returncode == 2 and proc.stderr.startswith("error: there is no database at")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not missing.exists() and not (tmp_path / "x.json").exists()
    # Never overwrites a file (a mistyped --out could name the database itself).
    before = path.read_bytes()
    proc = cli(tmp_path, path, "export", "--game", str(done.id), "--out", str(path))
    assert proc.returncode == 2 and "already exists; nothing was written" in proc.stderr
    assert path.read_bytes() == before
