"""The crash test's own blind spots: a bot that loses an acknowledged move, and kills inside
the database commit.

1. The check catches a lossy bot: a move shown to its player as done is taken out of the
   database between a SIGKILL and the restart (and the game's state rewound to match, so the
   bot itself sees nothing wrong); the driver's check fails, naming the move. The same run
   without the tampering passes, so the check is not vacuous.
2. SIGKILL inside the COMMIT of a move (`commit_killer`): at seeded moves, the bot is restarted
   under the killer and dies 0-3 ms into the COMMIT that stores the next move. Each killed
   move is either wholly stored (in the log, the game one version further, its posts queued)
   or not at all; the database opens (its start check passes); no acknowledged move is lost;
   the log equals the moves played and the stored state is its replay.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from engine.nauticus import to_json
from tests.e2e.client import Reply
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.game import (
    Driver,
    bot_process,
    open_game,
    read_game,
    read_moves,
    read_outbox,
    replay,
    start_bot,
)
from tests.e2e.harness import BotProcess
from tests.e2e.policy import Policy

# Channel buckets off: this scenario is about whole games and kills, not Discord's limits
# (see UNTHROTTLED in tests/e2e/conftest.py).
pytestmark = pytest.mark.unthrottled

KILLS = 8
SEED = 11


def _lose_last_move(db: Path, game_id: int, seed: int) -> None:
    """What a broken bot would do: forget the last stored move (the log's triggers forbid it;
    a broken bot would not have them) and rewind the game to match."""
    moves = read_moves(db, game_id)
    state = replay(seed, 3, moves[:-1])
    conn = sqlite3.connect(db, timeout=10)
    try:
        with conn:
            conn.execute("DROP TRIGGER moves_no_delete")
            conn.execute(
                "DELETE FROM moves WHERE game_id = ? AND n = (SELECT MAX(n) FROM moves "
                "WHERE game_id = ?)",
                (game_id, game_id),
            )
            conn.execute(
                "UPDATE games SET state_json = ?, version = version - 1 WHERE id = ?",
                (to_json(state), game_id),
            )
    finally:
        conn.close()


@pytest.mark.parametrize("lossy", [False, True])
async def test_the_check_catches_a_bot_that_loses_an_acknowledged_move(
    world: World, tmp_path: Path, lossy: bool
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        fake = world.fake
        db = tmp_path / "game.db"
        bot = bot_process(world, db, tmp_path / "bot.log")
        await start_bot(bot)
        try:
            alice, bob, carol = (world.user(n) for n in ("alice", "bob", "carol"))
            game = await open_game(fake, db, world.channel, alice, [bob, carol])
            driver = Driver(fake, db, world.channel, {int(u.id): u for u in (alice, bob, carol)})
            driver.refresh_old_panels = True
            policy = Policy(SEED)
            for _ in range(6):
                assert game.state is not None
                game, _ = await driver.play(game, policy.pick(game.state))
            assert len(driver.acknowledged) == 6
            driver.verify()
            assert await bot.kill() == -9
            await fake.wait_disconnected()
            if lossy:
                _lose_last_move(db, game.id, game.seed)
            await start_bot(bot)
            if lossy:
                with pytest.raises(AssertionError, match="was shown to its player as done"):
                    driver.verify()
            else:
                driver.verify()
        finally:
            await bot.stop()


class CommitKill:
    """Restarts the bot under the commit killer before the armed move's final click, then waits
    for it to die inside that move's COMMIT and starts the plain bot again."""

    def __init__(self, killer: Killer, delay_ms: float | None) -> None:
        self.killer = killer
        self.delay_ms = delay_ms

    def arm(self) -> None:
        pass  # the killer bot is already running (started before the move)

    async def fire(self, reply: Reply) -> None:
        bot = self.killer.bot
        assert bot is not None and bot.proc is not None
        code = await asyncio.wait_for(bot.proc.wait(), 15)
        assert code == -9, f"the bot was not killed inside the commit ({code})"
        await self.killer.world.fake.wait_disconnected()
        self.killer.kills += 1
        await self.killer.start()


class Killer:
    def __init__(self, world: World, db: Path, log: Path) -> None:
        self.world, self.db, self.log = world, db, log
        self.bot: BotProcess | None = None
        self.kills = 0

    async def start(self, *, kill_delay_ms: float | None = None, after: bool = False) -> None:
        if self.bot is not None and self.bot.running:
            await self.bot.stop()
        self.bot = bot_process(self.world, self.db, self.log)
        if kill_delay_ms is not None or after:
            delay = "after" if after else f"{kill_delay_ms:.3f}"
            self.bot.args = ["-m", "tests.e2e.commit_killer"]
            self.bot.env.update(E2E_KILL_AT_MOVE="1", E2E_KILL_DELAY_MS=delay)
        await start_bot(self.bot)


async def test_sigkill_inside_the_database_commit_stores_a_move_wholly_or_not_at_all(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        report = await _commit_kills(world, tmp_path)
    with capsys.disabled():
        print(f"\n{report}")
    assert_answered(world.fake)


async def _commit_kills(world: World, tmp_path: Path) -> str:
    fake = world.fake
    db = tmp_path / "game.db"
    rng = random.Random(SEED)
    killer = Killer(world, db, tmp_path / "bot.log")
    await killer.start()
    outcomes: Counter[str] = Counter()
    try:
        alice, bob, carol = (world.user(n) for n in ("alice", "bob", "carol"))
        game = await open_game(fake, db, world.channel, alice, [bob, carol])
        driver = Driver(fake, db, world.channel, {int(u.id): u for u in (alice, bob, carol)})
        driver.refresh_old_panels = True
        policy = Policy(SEED)
        played: list[dict[str, object]] = []
        move = None
        kills_left = KILLS
        while kills_left > 0 or driver.crash is not None:
            assert game.state is not None and game.state.step != "over"
            if move is None:
                move = policy.pick(game.state)
            armed = kills_left > 0 and rng.random() < 0.5
            if armed:
                # 0-3 ms into the COMMIT: before, during or after SQLite writes the WAL. The
                # first kill is as the COMMIT starts (surely not stored) and the second right
                # after it returned (surely stored), so that both outcomes are seen whatever
                # the machine's load; the others fall where a busy or idle machine puts them.
                armed_before = KILLS - kills_left
                delay: float | None = (
                    0.0
                    if armed_before == 0
                    else None
                    if armed_before == 1
                    else rng.choice([0.0, rng.uniform(0.0, 3.0)])
                )
                await killer.start(kill_delay_ms=delay, after=delay is None)
                driver.crash = CommitKill(killer, delay)
                kills_left -= 1
            before = game.version
            rows_before = len(read_outbox(db, game.id))
            game, _ = await driver.play(game, move)
            driver.crash = None
            saved = game.version == before + 1
            assert game.version in (before, before + 1)
            if armed:
                driver.verify()
                outcomes["stored" if saved else "not stored"] += 1
                if not saved:
                    # Not at all: no post of it was queued either (the outbox rows are written
                    # in the same transaction as the move).
                    assert len(read_outbox(db, game.id)) == rows_before
                else:
                    assert read_moves(db, game.id)[-1][1] == move
            if saved:
                played.append(move)
                move = None
        stored = read_game(db, world.channel.id)
        assert stored is not None and stored.status == "active"
    finally:
        if killer.bot is not None:
            await killer.bot.stop()
    log = read_moves(db, stored.id)
    assert [m for _, m in log] == played
    driver.verify()
    assert stored.state is not None
    assert to_json(replay(stored.seed, 3, log)) == to_json(stored.state)
    assert killer.kills == KILLS
    assert outcomes["stored"] >= 1 and outcomes["not stored"] >= 1, outcomes
    return f"commit-kill scenario: {killer.kills} SIGKILLs inside a COMMIT: {dict(outcomes)}"
