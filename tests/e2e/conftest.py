"""Fixtures: a started fake Discord with one guild, and the probe bot running against it.

Every test ends by asserting the bot called no endpoint the fake does not implement, so a new
discord.py call path shows up as a failure naming the endpoint rather than as a silent gap.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.client import TestUser
from tests.e2e.fake_discord import Channel, FakeDiscord, Guild, RateLimits
from tests.e2e.harness import BotProcess

# A scenario has no time budget: on a busy machine it takes what it takes, and each step waits
# for a state or an event. This guard only ends a scenario that is stuck (a deadlock), long after
# any slow machine would have finished.
HANG_GUARD = 600.0


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    thread: Channel
    quiet: Channel  # a channel where tests deny the bot permissions

    def user(self, name: str) -> TestUser:
        return TestUser(self.fake, self.fake.add_user(name, name.title()), self.channel)


# A scenario about something else than Discord's per-channel buckets (5 posts and 5 edits per
# 5 s) may switch them off with this mark: a whole game posts about 140 messages in its channel,
# so under the real buckets it spends two of its two and a half minutes waiting for them, and the
# suite waits with it. The global limit (50 requests a second) goes with them: the buckets are
# what keeps a real bot far below it, and without them a phase's posts and edits, released
# together after a slow moment on a busy machine, once drew a 429 the scenario counted as an
# error. The limits themselves keep their tests: test_scenario_ratelimit plays a game under
# limits tighter than Discord's, and test_fake_ratelimit checks the fake's windows.
UNTHROTTLED = "unthrottled"


@pytest.fixture
async def world(request: pytest.FixtureRequest) -> AsyncIterator[World]:
    unthrottled = request.node.get_closest_marker(UNTHROTTLED) is not None
    fake = FakeDiscord(
        rate_limits=RateLimits(global_limit=None, routes={}) if unthrottled else None
    )
    guild = fake.add_guild("Harbour")
    channel = fake.add_text_channel(guild, "games")
    thread = fake.add_thread(channel, "game-1")
    quiet = fake.add_text_channel(guild, "quiet")
    await fake.start()
    try:
        yield World(fake, guild, channel, thread, quiet)
    finally:
        await fake.close()
    missing = [f"{c.method} {c.path}" for c in fake.unimplemented]
    assert not missing, f"the bot called endpoints the fake does not implement: {missing}"
    assert not fake.internal_errors, f"the fake itself failed: {fake.internal_errors}"


async def start_probe(world: World, tmp_path: Path, **env: str) -> BotProcess:
    bot = BotProcess(
        world.fake,
        ["-m", "tests.e2e.sample_bot"],
        {"FAKE_TOKEN": world.fake.token, "FAKE_GUILD_ID": world.guild.id, **env},
        tmp_path / "bot.log",
    )
    await bot.start()
    return bot


@pytest.fixture
async def probe(world: World, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The probe bot, identified and past on_ready."""
    bot = await start_probe(world, tmp_path)
    try:
        await bot.wait_line("READY", timeout=20)
        yield bot
    finally:
        await bot.stop()
        print(f"--- probe bot log (tail) ---\n{bot.log()}")  # shown by pytest on failure


def assert_answered(fake: FakeDiscord, at_least: int = 3) -> int:
    """What every scenario ends with, in the test's own body (its detailed checks run inside the
    scenario): the bot answered at least `at_least` of the members' interactions through Discord,
    and called no route the fake does not implement. A bot that answers nothing, or talks to
    Discord in a way Discord does not know, fails here. Returns how many it answered."""
    answered = sum(1 for i in fake.interactions.values() if i.acknowledged)
    assert answered >= at_least, f"the bot answered {answered} interactions"
    assert fake.unimplemented == []
    return answered
