"""Hidden information end to end: the real bot process, with the test-only game Gems installed
through `BOT_EXTRA_GAMES`, played to the end through the fake Discord. No channel message, edit,
ping or attachment alt text, and no reply the other player sees, names a gem its holder never
revealed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.game import bot_process, start_bot
from tests.platform.secret_game import GEMS, TURNS

GEM = re.compile("|".join(GEMS))


async def test_gems_secrets_stay_with_their_holders(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _gems(world, tmp_path)
    assert_answered(world.fake)


async def _gems(world: World, tmp_path: Path) -> None:
    fake = world.fake
    bot = bot_process(world, tmp_path / "bot.db", tmp_path / "bot.log")
    bot.env["BOT_EXTRA_GAMES"] = "tests.platform.secret_game:PLUGIN"
    await start_bot(bot)
    try:
        ana, ben = world.user("ana"), world.user("ben")
        assert "Lobby open" in (await (await ana.slash("gems new")).message()).content
        lobby = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(world.channel) if "Gems lobby" in m.content),
                None,
            ),
            what="the Gems lobby",
        )
        await (await ben.click(lobby, "Join")).message()
        await (await ana.click(lobby, "Seating: random / join order")).message()
        started = await ana.click(lobby, "Start")
        assert "has started" in (await started.message()).content
        users = (ana, ben)
        held: list[set[str]] = [set(), set()]
        revealed: list[set[str]] = [set(), set()]
        for turn in range(TURNS):
            seat = turn % 2
            user = users[seat]
            hand_reply = await (await user.slash("gems hand")).message()
            assert hand_reply.visible_to == user.id
            hand = GEM.findall(hand_reply.content)
            assert hand, hand_reply.content
            held[seat] |= set(hand)
            if len(hand) > 1:
                move = await user.slash("gems reveal", gem=hand[0])
                revealed[seat].add(hand[0])
            else:
                move = await user.slash("gems draw")
            assert "✅" in (await move.message()).content
        await fake.wait_for(
            lambda: any("Game over" in m.content for m in fake.channel_messages(world.channel)),
            # Discord's 5 posts per 5 s per channel hold a quick game's last posts back.
            timeout=30,
            what="the final post",
        )
        secret = [held[s] - revealed[s] for s in (0, 1)]
        assert all(secret), "each player kept a gem to the end"
        public = [
            "\n".join([m.content, *(a.description or "" for a in m.attachments)])
            for m in fake.channel_messages(world.channel, include_deleted=True)
        ]
        assert len(public) >= TURNS
        for s in (0, 1):
            other = users[1 - s]
            seen_by_other = [m.content for m in fake.ephemerals_for(other.user)]
            for text in public + seen_by_other:
                assert not (set(GEM.findall(text)) & secret[s]), text
    finally:
        await bot.stop()
        print(f"--- bot log (tail) ---\n{bot.log()}")
