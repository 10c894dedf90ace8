"""The offline runner plays whole games through the real GameService into a folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import DEMO_AI, offline_seats
from bot.offline import TRANSCRIPT, run_offline
from engine.nauticus import data
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_offline_game_runs_to_the_end(tmp_path: Path, players: int) -> None:
    result = await run_offline(players, 3, tmp_path, pictures=False)
    text = result.transcript.read_text(encoding="utf-8")
    rounds = data.ROUNDS[players]
    # An opening post, one post per action phase, and the final result.
    assert text.count("(phase_post)") == 1 + rounds * data.PHASES_PER_ROUND
    assert text.count("(final_post)") == 1 and "**Game over!**" in text
    assert len(result.scores) == players
    assert sorted(rank for _, _, rank in result.scores)[0] == 1
    # Every ping became a done line once its player had acted, and each seat was pinged.
    pings = text.count("(turn_ping)")
    assert pings > 0 and text.count("(ping_done)") == pings
    assert "panel" not in text  # private panels go to each seat's own file, never here
    for name in result.names:
        private = (result.out / "private" / f"{name.lower()}.md").read_text(encoding="utf-8")
        assert "### panel (move" in private and "Your shipyard" in private
    assert result.moves > rounds * data.PHASES_PER_ROUND * players
    assert result.pictures == []


async def test_same_seed_same_transcript(tmp_path: Path) -> None:
    a = await run_offline(2, 9, tmp_path / "a", pictures=False)
    b = await run_offline(2, 9, tmp_path / "b", pictures=False)
    assert a.transcript.read_text(encoding="utf-8") == b.transcript.read_text(encoding="utf-8")
    c = await run_offline(2, 10, tmp_path / "c", pictures=False)
    assert c.transcript.read_text(encoding="utf-8") != a.transcript.read_text(encoding="utf-8")


async def test_offline_game_with_pictures(tmp_path: Path) -> None:
    result = await run_offline(2, 1, tmp_path)
    text = result.transcript.read_text(encoding="utf-8")
    phases = data.ROUNDS[2] * data.PHASES_PER_ROUND
    # The opening board, board + shipyards after each phase, the score sheet at the end.
    assert len(result.pictures) >= 1 + 2 * phases + 1
    for path in result.pictures:
        assert path.name in text  # each picture is listed where it was posted, with alt text
        with Image.open(path) as im:
            im.verify()
    assert any("score" in p.name for p in result.pictures)
    # A second run into the same folder replaces the first run's files, and only those.
    (tmp_path / "notes.png").write_bytes(b"mine")
    await run_offline(2, 1, tmp_path, pictures=False, panels=False)
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".png"] == ["notes.png"]


def test_cli_prints_where_the_files_are(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    out = tmp_path / "demo"
    # --random: the seeded random players (the demo's default is AI seats, much slower).
    args = ["offline", "--players", "2", "--seed", "4", "--out", str(out), "--no-pictures"]
    args.append("--random")
    proc = run_module(
        ["-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"Transcript: {out / TRANSCRIPT}" in proc.stdout
    assert "(winner)" in proc.stdout
    assert (out / TRANSCRIPT).exists()
    # The finished game in the runner's database replays to its stored state.
    env["DATABASE_PATH"] = str(out / "offline.db")
    check = run_module(
        ["-m", "bot", "check"],
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    assert "0 problem(s)" in check.stdout


def test_the_demo_seats_the_ai_unless_told_otherwise() -> None:
    """`python -m bot offline` (the README's first command): every seat an AI by default, so
    the demo is a game worth reading; `--ai` as given (`random` for a random seat); `--random`
    for the old seeded random players."""
    assert DEMO_AI == "easy"
    assert offline_seats("nauticus", 3, None, False) == ["easy"] * 3
    assert offline_seats("nauticus", None, None, False) == ["easy"] * 3  # the default count
    assert offline_seats("nauticus", 4, None, False) == ["easy"] * 4
    assert offline_seats("duel", None, None, False) == ["easy"] * 2  # its only count
    assert offline_seats("nauticus", 3, "random,random,random", False) == [None] * 3
    assert offline_seats("island", None, "hard,normal,random", False) == ["hard", "normal", None]
    assert offline_seats("nauticus", 3, None, True) == []  # run_offline: every seat random
    assert offline_seats("chess", None, None, False) == []  # run_offline names the games
