"""`python -m bot check` and the service's replay check while another process writes moves to the
same file: every read is one snapshot, so a healthy game never looks damaged.

Run as a script (`python -m tests.bot.test_hardening_live DB GAMES`) it is the writer: it plays
random legal moves round-robin in GAMES channels until the file `DB.stop` appears.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.service import GameRecord, GameService
from bot.store import Store, Tx
from engine.nauticus import legal_moves
from tests.bot.test_service import ANA, BEN, CH, CLEO, GUILD, NAMES, play_any, started
from tests.e2e.harness import run_module
from tests.sweep import sweep

REPO = Path(__file__).resolve().parents[2]
FIRST_CHANNEL = 700


async def start_in(svc: GameService, channel: int, seed: int) -> GameRecord:
    await svc.open_lobby(GUILD, channel, ANA, NAMES[ANA], kind="nauticus")
    for u in (BEN, CLEO):
        await svc.join(channel, u, NAMES[u])
    return await svc.start(channel, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=seed)


async def writer(db: Path, games: int) -> None:
    store = await Store.open(db)
    svc = GameService(store)
    rng = random.Random(11)
    recs = {}
    for i in range(games):
        ch = FIRST_CHANNEL + i
        rec = await svc.game_in(ch)
        recs[ch] = rec if rec is not None else await start_in(svc, ch, i + 1)
    print("ready", flush=True)
    stop = Path(f"{db}.stop")
    while not stop.exists():
        for ch, rec in list(recs.items()):
            state = rec.state
            if rec.status != "active" or state is None or state.current is None:
                recs[ch] = await start_in(svc, ch, rng.randrange(1 << 30))
                continue
            move = rng.choice(legal_moves(state, state.current))
            result = await svc.play(ch, rec.user_at(state.current), move, confirm=True)
            recs[ch] = result.record
    await store.close()


def check(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    return run_module(
        ["-m", "bot", "check"],
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


RUNS = sweep(3, 12)  # `check` runs while the writer plays (12 with FULL_SWEEP=1)


def test_check_while_another_process_plays_reports_no_false_problem(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.test_hardening_live", str(db), "8"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready", child.stderr and child.stderr.read()
        bad = []
        # At least RUNS checks, and on until the writer has stored more than 100 moves, so the
        # checks overlap real writing however fast either side runs (at most 200 checks: a
        # writer that stalls fails the count below instead of hanging the test).
        runs = 0
        first = moves_in(db)
        while runs < RUNS or (moves_in(db) <= 100 and runs < 200):
            done = check(tmp_path, db)
            runs += 1
            assert "Traceback" not in done.stderr, done.stderr
            if done.returncode != 0 or "0 problem(s)" not in done.stdout:
                bad.append(done.stdout)
            assert child.poll() is None, "the writer stopped while check ran"
        last = moves_in(db)
    finally:
        Path(f"{db}.stop").touch()
        try:
            child.wait(timeout=60)
        finally:
            child.kill()
    assert child.returncode == 0, child.stderr.read() if child.stderr else ""
    assert not bad, f"{len(bad)} of {runs} check runs reported problems: {bad[0]}"
    # The writer really played during the checks.
    assert last > 100 and last > first, (first, last)


def moves_in(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    return count


async def test_a_move_committed_by_another_process_mid_load_does_not_put_the_game_on_hold(
    tmp_path: Path,
) -> None:
    """Service B loads the game (row, then moves) while A commits a move in between."""
    db = tmp_path / "shared.db"
    store_a = await Store.open(db)
    store_b = await Store.open(db)
    try:
        a = GameService(store_a)
        b = GameService(store_b)
        rec = await started(a)
        rng = random.Random(4)
        for _ in range(3):
            rec = await play_any(a, rec, rng)
        real_moves = Tx.moves
        fired = False

        async def moves_after_a_move(self: Tx, game_id: int, **kw: Any) -> Any:
            nonlocal fired, rec
            if self.conn is store_b._conn and not fired:
                fired = True
                rec = await play_any(a, rec, rng)  # committed by "the other process"
            return await real_moves(self, game_id, **kw)

        Tx.moves = moves_after_a_move  # type: ignore[method-assign]
        try:
            checked = await b._active(CH)
        finally:
            Tx.moves = real_moves  # type: ignore[method-assign]
        assert fired
        assert checked.flagged is None
        async with store_a.read() as tx:
            row = await tx.game(rec.id)
        assert row is not None and row.flagged is None, row and row.flagged
    finally:
        await store_a.close()
        await store_b.close()


if __name__ == "__main__":
    asyncio.run(writer(Path(sys.argv[1]), int(sys.argv[2])))
