"""Scenario 4: abuse is refused clearly (ephemerally) or rendered harmlessly, and changes nothing.

Forged components are what a modified client could send: a message the user can click on
whose components carry a custom id of our format but for another game or state version.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from tests.e2e.client import STRING, Reply, TestUser
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import MESSAGE_COMPONENT, Channel, FakeDiscord, Message
from tests.e2e.game import Table, panel_version, pings_for, start_table
from tests.e2e.limits import JSON
from tests.e2e.policy import Policy

EVIL_NAMES = ("@everyone", "**Bold** _it_ `code` ||x|| <@&1> @here")


async def forged_click(
    fake: FakeDiscord,
    user: TestUser,
    channel: Channel,
    base: Message,
    custom_id: str,
    values: list[str] | None = None,
) -> Reply:
    """A click on a copy of `base` whose only component has `custom_id`."""
    if values is None:
        comp: JSON = {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}
    else:
        options = [{"label": v[:100] or "-", "value": v} for v in values]
        comp = {"type": 3, "custom_id": custom_id, "options": options}
    forged = dataclasses.replace(
        base,
        id=fake.snowflake(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        components=[{"type": 1, "id": 1, "components": [comp | {"id": 2}]}],
        visible_to=user.id,
        pinged_user_ids=[],  # a copy made by the test: it pinged nobody
        attachments=[],
    )
    fake.messages[forged.id] = forged
    data: JSON = {"custom_id": custom_id, "component_type": comp["type"], "id": 2}
    if values is not None:
        data["values"] = values
    ix = await fake.create_interaction(user.user, channel, MESSAGE_COMPONENT, data, message=forged)
    return Reply(fake, ix)


async def refusal(table: Table, reply: Reply, user: TestUser, *, expect: str = "") -> str:
    """The ephemeral answer the user saw; the game must not have changed."""
    ix = reply.interaction
    await table.world.fake.wait_for(lambda: ix.shown, what=f"an answer to {ix.id}")
    said = [m for m in reply.messages() if m.content]
    assert said, "no answer shown"
    for m in said:
        assert m.visible_to == user.id, f"not ephemeral: {m.content}"
    text = "\n".join(m.content for m in said)
    assert "Something went wrong" not in text, text
    assert expect.lower() in text.lower(), (expect, text)
    return text


async def test_abuse_is_refused_and_changes_nothing(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _abuse(world, tmp_path)
    assert_answered(world.fake)


async def _abuse(world: World, tmp_path: Path) -> None:
    fake = world.fake
    # Another server the bot is in, with a channel of its own (known from the start).
    elsewhere = fake.add_guild("Elsewhere")
    far_channel = fake.add_text_channel(elsewhere, "lounge")
    table = await start_table(
        world, tmp_path, names=("alice", "mallory", "trudy"), display_names=("Alice", *EVIL_NAMES)
    )
    try:
        stranger = world.user("oscar")
        policy = Policy(3)
        for _ in range(8):  # a few moves, so pings and summaries go out
            assert table.game.state is not None
            table.game, _ = await table.driver.play(table.game, policy.pick(table.game.state))
        game = table.refresh()
        moves = len(table.moves())
        current, other = table.current_user(), table.others()[0]
        ping = await fake.wait_for(lambda: pings_for(fake, table.channel, current))
        ping = ping[-1]

        def unchanged() -> None:
            assert table.refresh().version == game.version
            assert len(table.moves()) == moves

        # A user not in the game: Play, a move command, a forged panel click.
        await refusal(table, await stranger.click(ping, "Play"), stranger, expect="not playing")
        await refusal(table, await stranger.slash("nauticus pass"), stranger, expect="not playing")
        w = f"nx:w:{game.id}:{game.version}:0"
        forged = await forged_click(fake, stranger, table.channel, ping, w, ["pass"])
        await refusal(table, forged, stranger, expect="not playing")
        unchanged()

        # A seated user out of turn: a move command and a forged click of the current version.
        await refusal(table, await other.slash("nauticus pass"), other, expect="not your turn")
        forged = await forged_click(
            fake, other, table.channel, ping, f"nx:b:{game.id}:{game.version}:pass"
        )
        await refusal(table, forged, other, expect="not your turn")
        unchanged()

        # Custom ids forged for another game, or another version, by the current player.
        for cid in (
            f"nx:b:{game.id + 1000}:{game.version}:pass",
            f"nx:play:{game.id + 7}:0",
            f"nx:lobby:{game.id}:0:start",
        ):
            reply = await forged_click(fake, current, table.channel, ping, cid)
            text = await refusal(table, reply, current)
            assert any(w in text for w in ("no longer running", "started", "host")), (cid, text)
        for version in (game.version + 50, max(0, game.version - 3)):
            cid = f"nx:b:{game.id}:{version}:pass"
            reply = await forged_click(fake, current, table.channel, ping, cid)
            await refusal(table, reply, current, expect="out of date")
            assert panel_version(fake.messages[reply.interaction.source_message_id or ""]) in (
                game.version,
                None,
            )
        unchanged()

        # Custom ids that match none of our components: answered, not dropped.
        for cid, values in (
            ("nx:w:abc", None),
            ("not-ours", ["x"]),
            (f"nx:w:{game.id}:{game.version}:0", None),  # a select's id on a button
            ("nx:" + "9" * 97, None),
        ):
            reply = await forged_click(fake, current, table.channel, ping, cid, values)
            await refusal(table, reply, current, expect="isn't one of mine")
        unchanged()

        # From another server: our game's custom id clicked in a channel there.
        far = world.user("faraway")
        far.channel = far_channel
        fake.add_member(elsewhere, far.user)
        cid = f"nx:b:{game.id}:{game.version}:pass"
        reply = await forged_click(fake, far, far_channel, ping, cid)
        await refusal(table, reply, far, expect="")
        # ... and a forged guild id on a command in our channel, by a stranger.
        reply = await stranger.slash("nauticus pass", guild_id=elsewhere.id)
        await refusal(table, reply, stranger, expect="not playing")
        unchanged()

        # From a direct message: a click on our custom id there.
        dm = fake.add_dm(current.user)
        reply = await forged_click(fake, current, dm, ping, f"nx:b:{game.id}:{game.version}:pass")
        await refusal(table, reply, current, expect="direct messages")
        unchanged()

        # Oversized and malformed option values, as a forged client would send them.
        huge = "x" * 6000
        bad_calls: list[tuple[str, list[JSON]]] = [
            (
                "nauticus buy",
                [
                    {"name": "item", "type": STRING, "value": huge},
                    {"name": "to", "type": STRING, "value": huge},
                ],
            ),
            (
                "nauticus buy",
                [
                    {"name": "item", "type": STRING, "value": "bow"},
                    {"name": "to", "type": STRING, "value": "ship:99999999999999999999"},
                ],
            ),
            (
                "nauticus transport",
                [
                    {"name": "item", "type": STRING, "value": "\x00<@&1>@everyone"},
                    {"name": "to", "type": STRING, "value": "{}"},
                ],
            ),
            ("nauticus reward", [{"name": "kind", "type": STRING, "value": "💥" * 500}]),
            ("nauticus extra", [{"name": "action", "type": STRING, "value": ""}]),
            ("nauticus bonus", [{"name": "item", "type": STRING, "value": "../../etc/passwd"}]),
        ]
        for command, options in bad_calls:
            reply = await current.slash(command, raw_options=options, strict=False)
            text = await refusal(table, reply, current)
            assert len(text) <= 2000  # echoed values ping nobody: checked below
        for command, options in (
            ("nauticus choose", [{"name": "space", "type": 4, "value": 10**30}]),
            ("nauticus deliver", [{"name": "ship", "type": 4, "value": -5}]),
            ("nauticus money", [{"name": "workers", "type": 4, "value": 2**63}]),
        ):
            reply = await current.slash(command, raw_options=options, strict=False)
            await refusal(table, reply, current)
        # Select values the panel never offered (on its select, or a forged one if it has none).
        panel_reply = await current.click(ping, "Play")
        panel = await panel_reply.message()
        selects = [c for c in panel.iter_components() if c.get("type") == 3]
        for value in ("zzz", "page:99999999999999999999999", "m:999", "x" * 100):
            if selects:
                key = selects[0]["custom_id"]
                reply = await current.select(panel, [value], key=key, strict=False)
            else:
                cid = f"nx:w:{game.id}:{game.version}:0"
                reply = await forged_click(fake, current, table.channel, panel, cid, [value])
            await refusal(table, reply, current)
        unchanged()

        # Still responsive: the current player can play on.
        assert table.game.state is not None
        table.game, played = await table.driver.play(table.game, policy.pick(table.game.state))
        assert played is not None and played.interaction.shown
        assert table.game.version == game.version + 1
    finally:
        await table.bot.stop()
        print(f"--- bot log (tail) ---\n{table.bot.log()}")

    # Nobody was pinged who should not be: no @everyone/@here/roles, users only on their turn.
    for m in fake.messages.values():
        assert not m.pinged_everyone and not m.pinged_role_ids, m.content
        if m.pinged_user_ids:
            assert m.visible_to is None and len(m.pinged_user_ids) == 1, m.content
            assert "Play" in [c.get("label") for c in m.iter_components()] or m.edits, m.content
    # The evil names were rendered escaped wherever they appear.
    public = [m.content for m in fake.channel_messages(table.channel)]
    shown_names = "\n".join(public)
    assert "\\*\\*Bold\\*\\*" in shown_names
    assert "**Bold**" not in shown_names.replace("\\*\\*Bold\\*\\*", "")
