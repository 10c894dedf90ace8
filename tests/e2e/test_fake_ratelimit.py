"""Discord's rate limits in the fake: per-route buckets, the global limit, and the 429 answer.

The raw-HTTP tests pin the headers and bodies; the last test proves the real discord.py obeys
them: a burst through the probe bot arrives complete, once each, in order, after 429s.
Limits are lowered per fake so each test takes about a second, not Discord's 5-second windows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.conftest import World, start_probe
from tests.e2e.fake_discord import FakeDiscord, RateLimit, RateLimits
from tests.e2e.test_fake_rules import Api, interaction, respond


class RawApi(Api):
    """Api that also returns the answer's headers."""

    async def post_h(self, channel_id: str, body: object) -> tuple[int, object, dict[str, str]]:
        async with self.session.post(
            f"{self.base}/channels/{channel_id}/messages",
            json=body,
            headers={"Authorization": f"Bot {self.fake.token}"},
        ) as response:
            return response.status, await response.json(), dict(response.headers)


@pytest.fixture
async def api(world: World) -> AsyncIterator[RawApi]:
    world.fake.deliver_interactions = False
    async with aiohttp.ClientSession() as session:
        yield RawApi(world.fake, session)


def test_defaults_are_discords() -> None:
    limits = FakeDiscord().rate_limits
    assert limits.global_limit == RateLimit(50, 1.0)
    assert limits.routes["post"] == RateLimit(5, 5.0) and limits.routes["edit"] == RateLimit(5, 5.0)
    assert "callback" not in limits.routes and "callback" in limits.exempt_global


async def test_route_bucket_headers_and_429(world: World, api: RawApi) -> None:
    fake = world.fake  # Discord's real 5 per 5 s per channel
    seen = []
    for i in range(5):
        status, _, headers = await api.post_h(world.channel.id, {"content": f"m{i}"})
        assert status == 200
        seen.append(int(headers["X-RateLimit-Remaining"]))
        assert headers["X-RateLimit-Limit"] == "5"
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
        assert abs(float(headers["X-RateLimit-Reset"]) - time.time() - 5.0) < 1.0
    assert seen == [4, 3, 2, 1, 0]
    status, body, headers = await api.post_h(world.channel.id, {"content": "sixth"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0
    assert headers["Retry-After"] in {"4", "5"} and headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Remaining"] == "0" and "X-RateLimit-Global" not in headers
    assert headers["X-RateLimit-Bucket"] and headers["Via"]
    assert len(fake.channel_messages(world.channel)) == 5, "a 429 stores nothing"
    # The bucket is per channel: the thread still has its own five.
    status, _, headers = await api.post_h(world.thread.id, {"content": "elsewhere"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert [c.status for c in fake.rate_limited()] == [429]


async def test_bucket_refills_after_its_window(world: World, api: RawApi) -> None:
    world.fake.rate_limits = RateLimits(routes={"post": RateLimit(2, 0.3)})
    statuses = [(await api.post_h(world.channel.id, {"content": "x"}))[0] for _ in range(3)]
    assert statuses == [200, 200, 429]
    _, body, _ = await api.post_h(world.channel.id, {"content": "x"})
    await asyncio.sleep(body["retry_after"])  # the real window: what a client must wait
    status, _, headers = await api.post_h(world.channel.id, {"content": "after"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "1"


async def test_global_limit(world: World, api: RawApi) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(global_limit=RateLimit(3, 1.0), routes={})
    channels = [world.channel, world.thread, world.quiet]
    for channel in channels:
        status, _, headers = await api.post_h(channel.id, {"content": "x"})
        assert status == 200 and "X-RateLimit-Bucket" not in headers  # no route limit set
    status, body, headers = await api.post_h(world.channel.id, {"content": "fourth"})
    assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    status, _, _ = await api.call("GET", "/users/@me")
    assert status == 429, "the global limit counts every route"


async def test_interaction_callbacks_are_not_rate_limited(world: World, api: RawApi) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(
        global_limit=RateLimit(1, 60.0), routes={"post": RateLimit(1, 60.0)}
    )
    assert (await api.post_h(world.channel.id, {"content": "uses the global"}))[0] == 200
    assert (await api.post_h(world.channel.id, {"content": "x"}))[0] == 429
    for _ in range(3):
        iid, token = await interaction(world, world.user("alice"))
        status, answer = await respond(api, iid, token, {"type": 4, "data": {"content": "ok"}})
        assert status == 200, answer
        hook = f"/webhooks/{fake.application_id}/{token}"
        status, _, _ = await api.call("POST", hook, {"content": "f"}, auth=False)
        assert status == 204


async def test_discord_py_obeys_the_limits(world: World, tmp_path: Path) -> None:
    fake = world.fake
    # Lowered so a short burst meets both: 3 posts per 0.6 s per channel, 4 requests per 0.6 s
    # in all. Two channels posting at once need 6 per window: the global limit answers 429.
    fake.rate_limits = RateLimits(
        global_limit=RateLimit(4, 0.6), routes={"post": RateLimit(3, 0.6)}
    )
    bot = await start_probe(world, tmp_path)
    try:
        await bot.wait_line("READY", timeout=20)
        alice = world.user("alice")
        count = 9
        started = time.monotonic()
        reply = await alice.slash("probe burst", count=count, other=world.thread.id)
        done = await reply.message(timeout=30)  # the follow-up fills the deferral
        took = time.monotonic() - started
        assert done.content.startswith("burst done"), done.content
    finally:
        await bot.stop()
    for channel in (world.channel, world.thread):
        posted = [m.content for m in fake.channel_messages(channel)]
        assert posted == [f"burst {channel.id} {i}" for i in range(count)], posted
    posts = [c for c in fake.calls if c.route == "post"]
    limited = fake.rate_limited()
    assert limited, "the burst met no 429: the test proves nothing"
    assert all(c.response["global"] for c in limited if c.route == "post")
    accepted = [c for c in posts if c.status == 200]
    assert len(accepted) == 2 * count, "each message was accepted exactly once"
    # 18 posts at 3 per 0.6 s per channel cannot take less than two full windows.
    assert took >= 2 * 0.6
    print(
        f"\nburst: {len(accepted)} messages, {len(limited)} answered 429 "
        f"({sum(c.response['global'] for c in limited)} global), {took:.2f} s"
    )
