"""Latency of the real bot over whole games through the fake Discord.

    python bench/e2e_game_bench.py --games 1

Three players play complete games through interactions only (Play on the ping, the panel's
selects and buttons, confirmations), as in tests/e2e/test_scenario_game.py. Two figures:

- first response: interaction sent on the gateway -> the bot's first interaction response
  (a reply, a panel update or a deferral) read by the fake; Discord's limit is 3 s;
- result shown: interaction -> the player sees its result (the reply, the updated panel, the
  move's outcome after a deferral), the moment its move is saved and answered;
- pictures posted: the interaction whose move ends an action phase -> the phase summary with
  its board and shipyard pictures posted in the channel (drawn by the bot at send time).

Times are on the fake's clock. The next move waits for the phase post, so a figure is one
interaction's latency, not a queue.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.conftest import World
from tests.e2e.fake_discord import FakeDiscord, Message
from tests.e2e.game import start_table
from tests.e2e.policy import Policy


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[int(p) - 1]


def report(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:<16} n={len(ms):<5} p50={percentile(ms, 50):7.1f} ms  "
        f"p95={percentile(ms, 95):7.1f} ms  max={max(ms):7.1f} ms"
    )


async def one_game(
    seed: int, responses: list[float], results: list[float], pictures: list[float]
) -> tuple[int, int]:
    fake = FakeDiscord()
    guild = fake.add_guild()
    world = World(
        fake,
        guild,
        fake.add_text_channel(guild, "games"),
        fake.add_thread(next(iter(guild.channels.values())), "thread"),
        fake.add_text_channel(guild, "quiet"),
    )
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            table = await start_table(world, Path(tmp))
            try:
                policy = Policy(seed)

                def summaries() -> list[Message]:
                    return [
                        m
                        for m in fake.channel_messages(world.channel)
                        if m.content.startswith("**Round") and m.attachments
                    ]

                moves = 0
                while table.game.state is not None and table.game.state.step != "over":
                    before = table.game.state
                    posted = len(summaries())
                    table.game, last = await table.driver.play(table.game, policy.pick(before))
                    moves += 1
                    after = table.game.state
                    assert after is not None and last is not None
                    if (after.round, after.phase) != (before.round, before.phase) or (
                        after.step == "over"
                    ):

                        def more(n: int = posted) -> list[Message] | None:
                            found = summaries()
                            return found if len(found) > n else None

                        post = (await fake.wait_for(more, timeout=30, what="the phase post"))[-1]
                        assert post.attached_at is not None
                        pictures.append(post.attached_at - last.interaction.created_at)
                for reply in table.driver.stats.replies:
                    ix = reply.interaction
                    responses.append(ix.callbacks[0].at - ix.created_at)
                    assert ix.shown_at is not None
                    results.append(ix.shown_at - ix.created_at)
                return moves, len(table.driver.stats.replies)
            finally:
                await table.bot.stop()
    finally:
        await fake.close()


async def run(games: int) -> None:
    responses: list[float] = []
    results: list[float] = []
    pictures: list[float] = []
    started = time.perf_counter()
    moves = interactions = 0
    for seed in range(games):
        m, i = await one_game(seed, responses, results, pictures)
        moves += m
        interactions += i
    took = time.perf_counter() - started
    print(
        f"{games} game(s), {moves} moves, {interactions} interactions in {took:.1f} s "
        f"on {os.cpu_count()} CPUs"
    )
    print(report("first response", responses))
    print(report("result shown", results))
    print(report("pictures posted", pictures))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.games))


if __name__ == "__main__":
    main()
