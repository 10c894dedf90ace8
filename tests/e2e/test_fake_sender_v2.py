"""The bot's `DiscordSender` through the real discord.py to the fake: a phase post lands as one
Components V2 message with its gallery, alt texts and Play button, and its edits stay V2."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World, start_probe
from tests.e2e.fake_discord import Message

V2 = 1 << 15


async def test_a_phase_post_lands_as_v2_and_stays_v2(world: World, tmp_path: Path) -> None:
    fake = world.fake
    bot = await start_probe(world, tmp_path)
    try:
        await bot.wait_line("READY", timeout=20)
        alice = world.user("alice")
        # The probe edits its post right after posting it: each edit is parked until the post
        # has been looked at as it was, so the snapshots never race the bot.
        first_edit = fake.hold("edit")
        reply = await alice.slash("probe phase")
        await fake.wait_for(lambda: first_edit.parked, timeout=30, what="the first edit")
        (post,) = fake.channel_messages(world.channel)
        first = _snapshot(post)
        second_edit = fake.hold("edit")  # active before the first one goes on
        first_edit.release()
        await bot.wait_line("PHASE EDITED", timeout=30)
        await fake.wait_for(lambda: second_edit.parked, timeout=30, what="the second edit")
        second = _snapshot(post)
        second_edit.release()
        done = await reply.message(timeout=30)
        assert done.content == f"phase {post.id}"
    finally:
        routes = [(c.route, c.status) for c in fake.calls]
        print(f"--- requests: {routes}; bot said: {bot.lines[-5:]}")
        await bot.stop()
        print(f"--- probe bot log (tail) ---\n{bot.log()}")

    # The post: one V2 message, no content, text + gallery + Play inside one container.
    text, alts, buttons, sizes = first
    assert text == f"**Round 1** <@{alice.id}> plays next. @everyone"
    assert alts == ["The board: Hulls on space 3", "Your ships: one finished"]
    assert buttons == ["nx:play:7:3"]
    assert sizes == [(40, 30), (40, 30)]
    (created,) = [c for c in fake.calls if c.route == "post"]
    assert (
        created.status == 200
        and created.body["flags"] == V2
        and created.body.get("content") is None
    )
    assert [c["type"] for c in created.body["components"]] == [17]
    assert post.pinged_user_ids == [alice.id] and not post.pinged_everyone

    # Edit with a picture: still V2, the new text, one picture, the new version's Play.
    assert second == (
        "**Round 1** redrawn",
        ["The board: Hulls on space 3"],
        ["nx:play:7:4"],
        [(40, 30)],
    )

    # Edit without pictures: the sender knows the post is V2 and edits it as V2 at once (no
    # classic attempt for Discord to refuse).
    edits = [(c.status, c.body.get("flags")) for c in fake.calls if c.route == "edit"]
    assert edits == [(200, V2), (200, V2)], edits
    assert post.is_v2 and post.text() == "✅ Round 1 over"
    assert post.attachments == [] and post.button_ids() == []
    assert len(fake.channel_messages(world.channel)) == 1, "edits never post a second message"


def _snapshot(m: Message) -> tuple[str, list[str | None], list[str], list[tuple[int, int]]]:
    assert m.is_v2, "the phase post is a Components V2 message"
    return m.text(), m.alt_texts(), m.button_ids(), [img.size for img in m.images()]
