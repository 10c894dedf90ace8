"""Custom ids, the dynamic items rebuilt from them, and the outbox sender's Discord calls."""

from __future__ import annotations

import json
import re
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.discord_app import ids, panel, views
from bot.discord_app.sender import DiscordSender
from bot.outbox import DeliveryRefused, OutFile, OutMessage
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.bot.test_discord_support import sample_states

BIG = 2**63 - 1  # the largest snowflake-sized id and version


@pytest.mark.parametrize("kind", ids.KINDS)
def test_custom_ids_round_trip_within_100_chars(kind: ids.Kind) -> None:
    for arg in ("", "0", "transport.mast_anchor_ship/12", "end_turn", "m:3".replace(":", "")):
        cid = ids.CustomId(kind, BIG, BIG, arg)
        text = cid.encode()
        assert len(text) <= 100
        assert ids.decode(text) == cid


def test_every_panel_custom_id_fits_and_round_trips() -> None:
    for state, seat in sample_states()[::5]:
        built = panel.build(PLUGIN, seen_of(state, seat))
        view = views.panel_view(built, BIG, BIG)
        for child in view.children if view else []:
            cid = str(getattr(child, "custom_id", ""))
            assert len(cid) <= 100
            decoded = ids.decode(cid)
            assert decoded is not None and decoded.encode() == cid


@pytest.mark.parametrize(
    "text", ["nx:play:1", "nx:fly:1:2", "nx:w:1:2:bad arg", "xx:w:1:2", "nx:w:1:2:" + "a" * 61]
)
def test_foreign_or_malformed_custom_ids_are_not_ours(text: str) -> None:
    assert ids.decode(text) is None


def test_an_id_that_would_not_round_trip_is_refused() -> None:
    with pytest.raises(ValueError, match="not a valid custom id"):
        ids.CustomId("b", 1, 2, "has space").encode()


async def test_dynamic_items_rebuild_from_their_custom_id_after_a_restart() -> None:
    cid = ids.CustomId("b", 12, 34, "end_turn")
    original = views.GameButton(cid, "End turn", discord.ButtonStyle.success)
    match = re.fullmatch(views.GameButton.__discord_ui_compiled_template__, cid.encode())
    assert match is not None
    itx = MagicMock(spec=discord.Interaction)
    rebuilt = await views.GameButton.from_custom_id(itx, original.item, match)
    assert rebuilt.cid == cid and rebuilt.item.label == "End turn"

    scid = ids.CustomId("t", 12, 34, "buy.bow/1")
    options = [discord.SelectOption(label="New ship", value="m:1")]
    select = views.GameSelect(scid, "Where does it go?", options)
    smatch = re.fullmatch(views.GameSelect.__discord_ui_compiled_template__, scid.encode())
    assert smatch is not None
    again = await views.GameSelect.from_custom_id(itx, select.item, smatch)
    assert again.cid == scid and [o.value for o in again.item.options] == ["m:1"]
    # A select id never matches the button template, and the reverse.
    assert views.GameButton.__discord_ui_compiled_template__.fullmatch(scid.encode()) is None


async def test_a_click_reaches_the_app_with_the_decoded_id_and_values() -> None:
    calls: list[tuple[Any, ...]] = []

    class App:
        async def on_component(self, itx: Any, cid: ids.CustomId, values: Any = ()) -> None:
            calls.append((cid, list(values)))

    itx = MagicMock(spec=discord.Interaction)
    itx.client = MagicMock()
    itx.client.game_app = App()
    cid = ids.CustomId("w", 5, 6, "0")
    select = views.GameSelect(cid, "What do you do?", [discord.SelectOption(label="x", value="x")])
    select.item._values = ["choose.3"]  # what discord.py fills in from the interaction data
    await select.callback(itx)
    await views.GameButton(ids.CustomId("play", 5, 6)).callback(itx)
    assert calls == [(cid, ["choose.3"]), (ids.CustomId("play", 5, 6), [])]


# --- the sender ----------------------------------------------------------------------------------


def _channel(perms: discord.Permissions, *, thread: bool = False) -> Any:
    channel = MagicMock(spec=discord.Thread if thread else discord.TextChannel)
    channel.guild = MagicMock(spec=discord.Guild)
    channel.guild.me = MagicMock(spec=discord.Member)
    channel.permissions_for.return_value = perms
    sent = MagicMock(spec=discord.Message)
    sent.id = 999
    channel.send = AsyncMock(return_value=sent)
    return channel


def _client(channel: Any) -> Any:
    client = MagicMock(spec=discord.Client)
    client.get_channel.return_value = channel
    return client


MSG = OutMessage(
    text="<@55> — your turn. @everyone <@&77> <@66>",
    files=(OutFile("board.png", b"png", "The board: Hulls on space 3"),),
    mention_user_ids=(55,),
    components="play",
    game_id=3,
    version=9,
    nonce=4242,
    kind="turn_ping",
)


async def test_posts_may_ping_only_the_listed_user_and_carry_alt_text_and_play() -> None:
    channel = _channel(discord.Permissions.all())
    message_id = await DiscordSender(_client(channel)).send(1, MSG)
    assert message_id == 999
    args, kwargs = channel.send.call_args
    # A post with pictures is one Components V2 message: no content, the text in the layout.
    assert args == ()
    payload = kwargs["view"].to_components()
    flat = json.dumps(payload, ensure_ascii=False)
    assert MSG.text in flat and "attachment://" in flat and "The board: Hulls on space 3" in flat
    allowed = kwargs["allowed_mentions"].to_dict()
    assert allowed == {"parse": [], "users": [55]}
    assert [f.description for f in kwargs["files"]] == ["The board: Hulls on space 3"]
    assert '"custom_id": "nx:play:3:9"' in flat
    assert kwargs["nonce"] == 4242


async def test_lobby_posts_carry_join_leave_start_cancel_seating_and_ai_seats() -> None:
    channel = _channel(discord.Permissions.all())
    lobby = OutMessage(text="Lobby", components="lobby", game_id=3, version=1)
    await DiscordSender(_client(channel)).send(1, lobby)
    view = channel.send.call_args.kwargs["view"]
    assert [c.custom_id for c in view.children] == [
        f"nx:lobby:3:1:{a}" for a in ("join", "leave", "start", "cancel", "seating", "ai")
    ]
    assert channel.send.call_args.kwargs["allowed_mentions"].to_dict()["users"] == []


@pytest.mark.parametrize(
    ("missing", "thread", "name"),
    [
        ("send_messages", False, "Send Messages"),
        ("send_messages_in_threads", True, "Send Messages in Threads"),
        ("embed_links", True, "Embed Links"),
        ("view_channel", False, "View Channel"),
    ],
)
async def test_a_missing_permission_is_named_before_posting(
    missing: str, thread: bool, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    perms = discord.Permissions.all()
    setattr(perms, missing, False)
    channel = _channel(perms, thread=thread)
    with pytest.raises(DeliveryRefused, match=name):
        await DiscordSender(_client(channel)).send(1, MSG)
    channel.send.assert_not_called()
    assert name in caplog.text


async def test_a_thread_needs_no_channel_send_permission() -> None:
    perms = discord.Permissions.all()
    perms.send_messages = False
    channel = _channel(perms, thread=True)
    assert await DiscordSender(_client(channel)).send(1, MSG) == 999


async def test_edits_replace_text_files_and_buttons_with_the_same_mention_limits() -> None:
    channel = _channel(discord.Permissions.all())
    partial = MagicMock(spec=discord.PartialMessage)
    partial.edit = AsyncMock()
    channel.get_partial_message.return_value = partial
    done = OutMessage(text="✅ Ana took Hulls.", mention_user_ids=(), components=None, game_id=3)
    await DiscordSender(_client(channel)).edit(1, 555, done)
    channel.get_partial_message.assert_called_once_with(555)
    kwargs = partial.edit.call_args.kwargs
    assert kwargs["content"] == "✅ Ana took Hulls."
    assert kwargs["view"] is None and kwargs["attachments"] == []
    assert kwargs["allowed_mentions"].to_dict() == {"parse": [], "users": []}


async def test_without_attach_files_a_post_with_pictures_goes_out_as_text_with_a_note() -> None:
    perms = discord.Permissions.all()
    perms.attach_files = False
    channel = _channel(perms)
    assert MSG.files
    assert await DiscordSender(_client(channel)).send(1, MSG) == 999
    (text,), kwargs = channel.send.call_args
    assert text.startswith(MSG.text)
    assert "Attach Files" in text and "not attached" in text
    assert "files" not in kwargs
    # A post without pictures is not affected at all.
    plain = OutMessage(text="Your turn", mention_user_ids=(55,), components=None, game_id=3)
    await DiscordSender(_client(channel)).send(1, plain)
    assert channel.send.call_args.args == ("Your turn",)
