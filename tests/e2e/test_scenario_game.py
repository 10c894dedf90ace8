"""Scenario 1: three users play a whole game of Nauticus through Discord interactions only."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from engine.nauticus import data
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import Message
from tests.e2e.game import (
    Driver,
    bot_process,
    open_game,
    plan_seed,
    read_game,
    read_moves,
    replay,
    scores_of,
    start_bot,
)
from tests.e2e.policy import Policy

# Channel buckets off: this scenario is about whole games and kills, not Discord's limits
# (see UNTHROTTLED in tests/e2e/conftest.py).
pytestmark = pytest.mark.unthrottled

WANT = {
    "buy.hulls",
    "buy.masts",
    "buy.sails",
    "buy.goods",
    "transport",
    "reward",
    "deliver",
    "crowns",
    "extra",
    "confirm",
}
SCORE_LINE = re.compile(r"^(\d)\. \S+ (.+?) — (\d+) VP \(track", re.MULTILINE)


async def test_three_players_play_a_whole_game(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _whole_game(world, tmp_path)
    assert_answered(world.fake)


async def _whole_game(world: World, tmp_path: Path) -> None:
    fake = world.fake
    db = tmp_path / "game.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    await start_bot(bot)
    try:
        alice, bob, carol = (world.user(n) for n in ("alice", "bob", "carol"))
        game = await open_game(fake, db, world.channel, alice, [bob, carol])
        assert game.state is not None
        policy = Policy(plan_seed(game.state, WANT))
        users = {int(u.id): u for u in (alice, bob, carol)}
        driver = Driver(fake, db, world.channel, users)
        while game.state is not None and game.state.step != "over":
            game, _ = await driver.play(game, policy.pick(game.state))
        final = await fake.wait_for(
            lambda: [m for m in fake.channel_messages(world.channel) if "Game over" in m.content],
            timeout=30,
            what="the final score post",
        )
        assert game.state is not None
        phases_total = game.state.rounds * data.PHASES_PER_ROUND

        def phase_posts() -> list[Message] | None:
            posts = [
                m for m in fake.channel_messages(world.channel) if m.content.startswith("**Round")
            ]
            return posts if len(posts) >= phases_total else None

        phases = await fake.wait_for(phase_posts, timeout=30, what="a post per action phase")
        assert len(phases) == phases_total
    finally:
        await bot.stop()
        print(f"--- bot log (tail) ---\n{bot.log()}")

    stats = driver.stats
    assert {"hulls", "masts", "sails", "goods"} <= stats.bought_in
    for kind in ("transport", "reward", "deliver", "crowns", "extra"):
        assert kind in stats.kinds, kind
    assert stats.panel_rewards >= 1 and stats.confirmations >= 1
    # Every phase summary carries the board and the shipyards, as valid images.
    for post in phases:
        images = post.images()
        assert len(images) >= 2 and all(i.width > 100 and i.height > 100 for i in images)
    # The posted final scores are the engine's scores of a replay of the stored log.
    assert len(final) == 1
    assert [i.format for i in final[0].images()] == ["PNG"]
    stored = read_game(db, world.channel.id)
    assert stored is not None and stored.status == "finished"
    moves = read_moves(db, stored.id)
    assert len(moves) == stats.moves
    replayed = replay(stored.seed, 3, moves)
    posted = [(int(r), name, int(vp)) for r, name, vp in SCORE_LINE.findall(final[0].content)]
    expected = [(rank, stored.names[seat], vp) for rank, seat, vp in scores_of(replayed)]
    assert posted == expected
    errors = [(c.route, c.status, c.response) for c in fake.errors()]
    assert not errors, errors
