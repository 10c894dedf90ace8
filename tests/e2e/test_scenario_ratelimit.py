"""Scenario: the real bot plays under tight rate limits. Discord's buckets are lowered so the
bot's posts and edits meet them within a few moves; every outbox row must still be delivered
exactly once, in order, and every interaction answered in time (callbacks are not limited)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import RateLimit, RateLimits
from tests.e2e.game import read_outbox, start_table
from tests.e2e.policy import Policy


async def test_a_game_under_tight_rate_limits(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _tight(world, tmp_path)
    assert_answered(world.fake)


async def _tight(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(
        global_limit=RateLimit(4, 1.0),
        routes={"post": RateLimit(1, 1.0), "edit": RateLimit(1, 1.0)},
    )
    table = await start_table(world, tmp_path)
    try:
        policy = Policy(4)
        for _ in range(8):
            assert table.game.state is not None
            table.game, _ = await table.driver.play(table.game, policy.pick(table.game.state))

        def delivered() -> bool:
            rows = read_outbox(table.db, table.game.id)
            return bool(rows) and all(r.sent for r in rows)

        await fake.wait_for(delivered, timeout=30, what="every outbox row delivered")
    finally:
        await table.bot.stop()
        print(f"--- bot log (tail) ---\n{table.bot.log()}")

    rows = read_outbox(table.db, table.game.id)
    assert all(r.error is None for r in rows), [(r.kind, r.error) for r in rows]
    posted = [r for r in rows if r.edits is None]
    ids = [str(r.message_id) for r in posted]
    assert "None" not in ids and len(set(ids)) == len(ids), "each post is its own message"
    in_channel = [m.id for m in fake.channel_messages(table.channel)]
    assert [m for m in in_channel if m in set(ids)] == ids, "posted in the outbox's order"
    accepted = [c for c in fake.calls if c.route == "post" and c.status == 200]
    assert len(accepted) == len(in_channel), "nothing posted twice"
    # Every interaction got its first response in time: none refused as too late.
    late = [c for ix in fake.interactions.values() for c in ix.callbacks if c.code == 10062]
    assert not late
    # The limit was in force and obeyed: accepted posts in the channel are a window apart.
    times = [c.at for c in accepted]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 3 and min(gaps) >= 0.9, gaps
    print(f"\nrate-limited game: {len(ids)} posts, {len(fake.rate_limited())} answered 429")
