"""Latency through the fake Discord: interaction -> first response, interaction -> picture posted.

    python bench/e2e_bench.py --rounds 60

Runs the probe bot (tests/e2e/sample_bot.py) against the fake and sends `/probe picture` (defer,
then a follow-up carrying a PNG) and `/probe admin ping` (an immediate reply) in turn. The figures
are the floor the fake, discord.py and the machine impose; the game bot's figures come from the
same measurement over a played game. Times are on the fake's clock, from the moment the
interaction is sent on the gateway to the moment the fake has read the bot's request.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.client import Reply, TestUser
from tests.e2e.fake_discord import FakeDiscord, Interaction, Message
from tests.e2e.harness import BotProcess


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[int(p) - 1]


def first_response(ix: Interaction) -> float:
    return ix.callbacks[0].at - ix.created_at


def picture_posted(fake: FakeDiscord, ix: Interaction) -> float | None:
    ids = [ix.original_message_id, *ix.followup_ids]
    times = [fake.messages[m].attached_at for m in ids if m is not None]
    posted = [t for t in times if t is not None]
    return min(posted) - ix.created_at if posted else None


async def settled(fake: FakeDiscord, message: Message) -> None:
    """The probe edits its filled deferral once more; wait for it so rounds don't overlap."""
    await fake.wait_for(lambda: message.edits >= 2, timeout=10)


def report(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:<24} n={len(ms):<4} p50={percentile(ms, 50):7.1f} ms  "
        f"p95={percentile(ms, 95):7.1f} ms  max={max(ms):7.1f} ms"
    )


async def run(rounds: int) -> None:
    fake = FakeDiscord()
    guild = fake.add_guild()
    channel = fake.add_text_channel(guild, "games")
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(
            fake,
            ["-m", "tests.e2e.sample_bot"],
            {"FAKE_TOKEN": fake.token, "FAKE_GUILD_ID": guild.id},
            Path(tmp) / "bot.log",
        )
        await bot.start()
        try:
            await bot.wait_line("READY", timeout=30)
            user = TestUser(fake, fake.add_user("bench"), channel)
            responses: list[float] = []
            pictures: list[float] = []
            for i in range(rounds):
                reply: Reply
                if i % 2:
                    reply = await user.slash("probe admin ping", count=1)
                    await reply.message(timeout=10)
                else:
                    reply = await user.slash("probe picture")
                    message = await reply.message(timeout=10)
                    await settled(fake, message)
                    posted = picture_posted(fake, reply.interaction)
                    assert posted is not None
                    pictures.append(posted)
                responses.append(first_response(reply.interaction))
        finally:
            await bot.stop()
            await fake.close()
    print(report("first response", responses))
    print(report("picture posted", pictures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(run(args.rounds))


if __name__ == "__main__":
    main()
