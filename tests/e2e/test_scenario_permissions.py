"""Scenario 5: a channel without Attach Files is named, not failed silently; threads work."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import ATTACH_FILES, Message
from tests.e2e.game import start_table
from tests.e2e.policy import Policy


async def test_missing_attach_files_is_said(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _missing_permission(world, tmp_path)
    assert_answered(world.fake)


async def _missing_permission(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.deny_bot(world.quiet, ATTACH_FILES)  # known to the bot from GUILD_CREATE on
    table = await start_table(world, tmp_path)
    try:
        # A lobby where the bot can't post pictures is refused, and the refusal says why.
        host = world.user("dora")
        reply = await host.slash("nauticus new", channel=world.quiet)
        answer = await reply.message()
        assert answer.visible_to == host.id
        assert "Attach Files" in answer.content and "permission" in answer.content
        assert not fake.channel_messages(world.quiet), "nothing may be posted there"

        # Attach Files taken away while a game runs: the mover is told after the move.
        policy = Policy(5)
        assert table.game.state is not None
        table.game, _ = await table.driver.play(table.game, policy.pick(table.game.state))
        fake.deny_bot(world.channel, ATTACH_FILES)
        assert table.game.state is not None
        table.game, last = await table.driver.play(table.game, policy.pick(table.game.state))
        assert last is not None
        said = " ".join(
            str(c.body.get("content"))
            for c in fake.calls
            if last.interaction.token in c.path and isinstance(c.body, dict)
        )
        assert "Attach Files" in said, said
    finally:
        await table.bot.stop()
        print(f"--- bot log (tail) ---\n{table.bot.log()}")


async def test_a_game_in_a_thread_works_like_one_in_a_channel(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _thread_game(world, tmp_path)
    assert_answered(world.fake)


async def _thread_game(world: World, tmp_path: Path) -> None:
    fake = world.fake
    table = await start_table(world, tmp_path, channel=world.thread)
    try:
        policy = Policy(2)

        def summaries() -> list[Message]:
            return [
                m for m in fake.channel_messages(world.thread) if m.content.startswith("**Round")
            ]

        while len(summaries()) < 2:
            assert table.game.state is not None
            table.game, _ = await table.driver.play(table.game, policy.pick(table.game.state))
        posts = await fake.wait_for(
            lambda: [m for m in summaries() if m.attachments], what="pictures in the thread"
        )
        for post in posts:
            assert all(img.width > 100 for img in post.images())
        # Lobby, start post, pings and summaries all went to the thread, none to its parent.
        assert not fake.channel_messages(world.channel)
        thread_posts = fake.channel_messages(world.thread)
        assert any("Nauticus has started" in m.content for m in thread_posts)
        assert any(m.pinged_user_ids for m in thread_posts)
        assert not [c for c in fake.errors() if c.route in ("post", "edit")]
    finally:
        await table.bot.stop()
        print(f"--- bot log (tail) ---\n{table.bot.log()}")
