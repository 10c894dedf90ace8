"""The fake Discord against the real discord.py library: a probe bot in a subprocess.

Each test drives the bot only through Discord's protocol (gateway events in, REST calls out) and
checks what the fake recorded. Every wait has a deadline; nothing sleeps.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.conftest import World, start_probe
from tests.e2e.fake_discord import ATTACH_FILES, FakeDiscord, Message
from tests.e2e.harness import BotProcess


async def channel_text(fake: FakeDiscord, channel_id: str, text: str) -> Message:
    """The first public message in the channel whose content is exactly `text`."""

    def find() -> Message | None:
        return next((m for m in fake.channel_messages(channel_id) if m.content == text), None)

    result: Message = await fake.wait_for(find, what=f"message {text!r}")
    return result


async def test_wait_for_rereads_a_predicate_on_state_the_fake_does_not_record(
    world: World,
) -> None:
    """A predicate on state outside the fake (the bot's database, where a post is marked sent
    only after the fake recorded it) is re-read on its own, every POLL_INTERVAL: a flag set
    while the fake records nothing is seen at once, not at the next gateway heartbeat (40 s)
    or the hang floor (WAIT_FLOOR, 120 s)."""
    flag: list[bool] = []
    calls = 0

    def raised() -> bool:
        nonlocal calls
        calls += 1
        return bool(flag)

    asyncio.get_running_loop().call_later(0.2, flag.append, True)
    async with asyncio.timeout(30):  # a hang guard only: the poll sees the flag within 0.05 s
        assert await world.fake.wait_for(raised, what="the flag") is True
    assert calls >= 2


async def test_start_up_syncs_commands_and_identifies(world: World, probe: BotProcess) -> None:
    fake = world.fake
    routes = [c.route for c in fake.calls]
    assert routes[:4] == ["me", "app", "sync_global", "sync_guild"]
    assert all(c.status == 200 for c in fake.calls[:4])
    # The echo gave every command an id and the bot accepted it (no error, no crash).
    (probe_cmd,) = fake.global_commands
    assert probe_cmd["name"] == "probe" and probe_cmd["id"].isdigit()
    names = {o["name"]: o["type"] for o in probe_cmd["options"]}
    assert names["admin"] == 2 and names["hello"] == 1
    assert fake.guild_commands[world.guild.id][0]["guild_id"] == world.guild.id
    # discord.py asks for zlib-stream compression; plain JSON text frames are accepted anyway.
    assert fake.gateway_urls == ["/?v=10&encoding=json&compress=zlib-stream"]
    ops = [frame["op"] for frame in fake.gateway_log]
    assert ops[:2] == [1, 2], "discord.py heartbeats on HELLO, then identifies"
    assert fake.connections == 1 and fake.session is not None
    assert fake.session.intents & (1 << 0), "GUILDS intent requested"


async def test_slash_button_and_select(world: World, probe: BotProcess) -> None:
    fake = world.fake
    alice, bob = world.user("alice"), world.user("bob")
    reply = await alice.slash("probe hello", name="bob")
    panel = await reply.message()
    assert panel.content == "hello bob" and not panel.ephemeral
    assert panel.interaction_metadata is not None
    assert panel.interaction_metadata["user"]["id"] == alice.id
    (note,) = await reply.followups()
    assert note.content == "channel TextChannel"
    assert note.visible_to == alice.id and alice.ephemerals() == [note]

    join = await bob.click(panel, "Join")
    joined = await join.message()
    assert joined.content == f"joined 42 as {bob.id}", "the DynamicItem matched the custom_id"
    assert joined.visible_to == bob.id and not alice.ephemerals()[1:]

    pick = await alice.select(panel, ["beta", "gamma"])
    updated = await pick.message()
    assert (await pick.callback()).type == 7
    assert updated.id == panel.id and updated.content == "picked beta,gamma"
    assert fake.channel_messages(world.channel) == [panel]


async def test_subcommand_group_with_ranged_option(world: World, probe: BotProcess) -> None:
    alice = world.user("alice")
    reply = await alice.slash("probe admin ping", count=3)
    assert (await reply.message()).content == "pong pong pong "
    with pytest.raises(AssertionError, match="out of bounds"):
        await alice.slash("probe admin ping", count=9)  # a Discord client refuses to send it
    # The same command from a DM: payload with `user` instead of `member`, no guild.
    dm = world.fake.add_dm(alice.user)
    in_dm = await alice.slash("probe admin ping", count=2, channel=dm)
    answer = await in_dm.message()
    assert answer.content == "pong pong " and answer.channel_id == dm.id


async def test_deferred_ephemeral_follow_ups_stay_ephemeral(
    world: World, probe: BotProcess
) -> None:
    alice = world.user("alice")
    reply = await alice.slash("probe secret")
    first = await reply.callback()
    assert first.type == 5 and first.data.get("flags") == 64
    original = await reply.message()
    assert original.content == "the secret" and original.visible_to == alice.id
    (second,) = await reply.followups()
    assert second.content == "second secret" and second.visible_to == alice.id
    assert world.fake.channel_messages(world.channel) == []


async def test_deferred_public_follow_up_with_picture(world: World, probe: BotProcess) -> None:
    fake = world.fake
    reply = await world.user("alice").slash("probe picture")
    original = await reply.message()
    await fake.wait_for(lambda: original.content == "a picture, edited", what="edit of @original")
    (image,) = original.images()
    assert image.size == (40, 30) and image.format == "PNG"
    assert fake.channel_messages(world.channel) == [original]
    routes = [c.route for c in fake.calls if c.route.startswith("webhook")]
    assert routes == ["webhook_followup", "webhook_get", "webhook_edit"]


async def test_autocomplete(world: World, probe: BotProcess) -> None:
    alice = world.user("alice")
    choices = await alice.autocomplete("probe hello", focused="name", value="ga")
    assert choices == [{"name": "Gamma", "value": "gamma"}]
    everything = await alice.autocomplete("probe hello", focused="name", value="")
    assert [c["value"] for c in everything] == ["alpha", "beta", "gamma", "delta"]


async def test_oversized_message_is_rejected_like_discord(world: World, probe: BotProcess) -> None:
    fake = world.fake
    reply = await world.user("alice").slash("probe big")
    assert (await reply.message()).content == "rejected 400 50035"
    (refused,) = fake.errors()
    assert refused.route == "post"
    assert refused.response["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


async def test_response_after_three_seconds_is_unknown_interaction(
    world: World, probe: BotProcess
) -> None:
    reply = await world.user("alice").slash("probe hello", name="x", age=3.2)
    first = await reply.callback()
    assert (first.status, first.code) == (404, 10062)
    await channel_text(world.fake, world.channel.id, "error 404 10062")
    assert world.fake.interactions[reply.id].original_message_id is None


async def test_second_initial_response_is_already_acknowledged(
    world: World, probe: BotProcess
) -> None:
    reply = await world.user("alice").slash("probe double")
    (note,) = await reply.followups()
    assert note.content == "second refused 400 40060"
    statuses = [(c.status, c.code) for c in world.fake.interactions[reply.id].callbacks]
    assert statuses == [(200, None), (400, 40060)]
    assert (await reply.message()).content == "first"


async def test_denied_attach_files_is_enforced_and_reported(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.deny_bot(world.quiet, ATTACH_FILES)
    bot = await start_probe(world, tmp_path)
    try:
        await bot.wait_line("READY", timeout=20)
        alice = world.user("alice")
        seen = await (await alice.slash("probe perms", channel=world.quiet)).message()
        assert seen.content == "app attach=False cache attach=False send=True"
        allowed = await (await alice.slash("probe perms")).message()
        assert allowed.content == "app attach=True cache attach=True send=True"

        refused = await (await alice.slash("probe post", channel=world.quiet)).message()
        assert refused.content == "cannot post 403 50013"
        assert not [m for m in fake.channel_messages(world.quiet) if m.attachments]

        posted = await (await alice.slash("probe post")).message()
        assert posted.content == "posted"
        board = await channel_text(fake, world.channel.id, "board")
        assert board.images()[0].size == (40, 30)
    finally:
        await bot.stop()


async def test_thread_works_like_a_channel(world: World, probe: BotProcess) -> None:
    alice = world.user("alice")
    reply = await alice.slash("probe hello", name="t", channel=world.thread)
    panel = await reply.message()
    assert panel.channel_id == world.thread.id
    (note,) = await reply.followups()
    assert note.content == "channel Thread"
    clicked = await world.user("bob").click(panel, "Join")
    assert (await clicked.message()).content.startswith("joined 42")


async def test_reconnect_resumes_and_replays_missed_events(world: World, probe: BotProcess) -> None:
    fake = world.fake
    session = await fake.wait_ready()
    fake.gateway_open.clear()  # hold the reconnection until the interaction is queued
    await fake.drop_connection()
    # Sent while the bot is disconnected: Discord queues it and replays it on RESUME.
    reply = await world.user("alice").slash("probe admin ping", count=1)
    assert not reply.interaction.callbacks
    fake.gateway_open.set()
    await probe.wait_line("RESUMED")
    assert session.replayed == 1
    assert (await reply.message()).content == "pong "
    resume = [f for f in fake.gateway_log if f["op"] == 6]
    assert len(resume) == 1 and resume[0]["path"] == "/resume/"
    assert resume[0]["d"]["session_id"] == session.session_id
    assert session.resumes == 1 and fake.connections == 2
    assert [f["op"] for f in fake.gateway_log].count(2) == 1, "no second IDENTIFY"


async def test_sigkill_mid_request_then_restart(world: World, tmp_path: Path) -> None:
    """The crash-test tooling: park a request, SIGKILL the bot there, restart, carry on."""
    fake = world.fake
    alice = world.user("alice")
    first = await start_probe(world, tmp_path)
    await first.wait_line("READY", timeout=20)
    lost = fake.hold("callback", when="before")
    never = await alice.slash("probe admin ping", count=1)
    await fake.wait_for(lambda: lost.parked, what="the parked callback")
    assert await first.kill() == -9
    lost.release(process=False)  # as if it never reached Discord
    await fake.wait_disconnected()
    assert not never.interaction.acknowledged and not never.interaction.shown
    applied = fake.hold("callback", when="after")

    second = await start_probe(world, tmp_path)
    try:
        await second.wait_line("READY", timeout=20)
        assert fake.connections == 2 and len(fake.sessions) == 2, "a fresh IDENTIFY"
        reply = await alice.slash("probe admin ping", count=2)
        await fake.wait_for(lambda: applied.parked, what="the held answer")
        # Discord applied the response; the bot is killed before it hears so.
        assert reply.interaction.shown and (await reply.message()).content == "pong pong "
        await second.kill()
        applied.release()
        await fake.wait_disconnected()
        orphan = await alice.slash("probe admin ping", count=3)
        assert not orphan.interaction.delivered, "no bot connected: Discord drops it"
    finally:
        await second.stop()
