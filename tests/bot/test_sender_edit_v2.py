"""`DiscordSender.edit` keeps a Components V2 post V2 and lets every other refusal through.

Discord never removes IS_COMPONENTS_V2 from a message, and refuses `content` on one with 400,
JSON code 50035 and the field error MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2. A post
the sender knows to be V2 is therefore edited as V2 at once; an unknown one (posted before a
restart) is edited as classic and retried as V2 on that refusal only. Any other 400 (content over
2,000 characters, an empty message) is a real fault and must surface, not be retried away.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.discord_app.sender import V2_LEGACY_FIELDS, DiscordSender, is_v2_refusal
from bot.outbox import OutFile, OutMessage

PHASE = OutMessage(
    text="**Round 2** — <@55> moves next.",
    files=(OutFile("board.png", b"png-1", "The board"),),
    mention_user_ids=(55,),
    components="play",
    game_id=3,
    version=9,
    kind="phase",
)
DONE = OutMessage(text="✅ Round over", game_id=3)


def _channel() -> Any:
    channel = MagicMock(spec=discord.TextChannel)
    channel.guild = MagicMock(spec=discord.Guild)
    channel.guild.me = MagicMock(spec=discord.Member)
    channel.permissions_for.return_value = discord.Permissions.all()
    sent = MagicMock(spec=discord.Message)
    sent.id = 555
    channel.send = AsyncMock(return_value=sent)
    partial = MagicMock(spec=discord.PartialMessage)
    partial.edit = AsyncMock()
    channel.get_partial_message.return_value = partial
    return channel


def _client(channel: Any, cached: list[Any] | None = None) -> Any:
    client = MagicMock(spec=discord.Client)
    client.get_channel.return_value = channel
    client.cached_messages = cached or []
    return client


def _refusal(body: dict[str, Any], status: int = 400) -> discord.HTTPException:
    """The exception discord.py raises for this Discord error body."""
    return discord.HTTPException(MagicMock(status=status, reason="Bad Request"), body)


V2_REFUSAL: dict[str, Any] = {
    "code": 50035,
    "message": "Invalid Form Body",
    "errors": {
        "content": {
            "_errors": [
                {
                    "code": V2_LEGACY_FIELDS,
                    "message": "The 'content' field cannot be used when using "
                    "MessageFlags.IS_COMPONENTS_V2",
                }
            ]
        }
    },
}
TOO_LONG: dict[str, Any] = {
    "code": 50035,
    "message": "Invalid Form Body",
    "errors": {
        "content": {
            "_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
            ]
        }
    },
}


def _is_v2_edit(kwargs: dict[str, Any]) -> bool:
    view = kwargs["view"]
    return kwargs["content"] is None and isinstance(view, discord.ui.LayoutView)


async def test_a_text_edit_of_a_post_sent_as_v2_is_a_v2_edit_at_once() -> None:
    channel = _channel()
    sender = DiscordSender(_client(channel))
    message_id = await sender.send(1, PHASE)
    edit = channel.get_partial_message.return_value.edit
    await sender.edit(1, message_id, DONE)
    assert edit.call_count == 1, "no classic attempt that Discord would refuse"
    kwargs = edit.call_args.kwargs
    assert _is_v2_edit(kwargs) and kwargs["attachments"] == []
    assert kwargs["view"].to_components()[0]["components"] == [
        {"type": 10, "content": "✅ Round over"}
    ]


async def test_a_post_edited_into_v2_stays_v2() -> None:
    channel = _channel()
    sender = DiscordSender(_client(channel))
    edit = channel.get_partial_message.return_value.edit
    await sender.edit(1, 777, PHASE)  # pictures: the message becomes V2
    await sender.edit(1, 777, DONE)
    assert [_is_v2_edit(c.kwargs) for c in edit.call_args_list] == [True, True]


async def test_a_message_cached_with_the_v2_flag_is_edited_as_v2() -> None:
    channel = _channel()
    cached = MagicMock(spec=discord.Message)
    cached.id = 888
    cached.flags = discord.MessageFlags(components_v2=True)
    sender = DiscordSender(_client(channel, [cached]))
    await sender.edit(1, 888, DONE)
    edit = channel.get_partial_message.return_value.edit
    assert edit.call_count == 1 and _is_v2_edit(edit.call_args.kwargs)


async def test_a_classic_post_is_edited_as_classic() -> None:
    channel = _channel()
    sender = DiscordSender(_client(channel))
    ping = OutMessage(text="<@55> your turn", mention_user_ids=(55,), game_id=3)
    message_id = await sender.send(1, ping)
    await sender.edit(1, message_id, DONE)
    edit = channel.get_partial_message.return_value.edit
    assert edit.call_count == 1
    assert edit.call_args.kwargs["content"] == "✅ Round over"
    assert edit.call_args.kwargs["view"] is None


async def test_an_unknown_v2_post_is_retried_as_v2_on_discords_v2_refusal_only() -> None:
    channel = _channel()
    sender = DiscordSender(_client(channel))
    edit = channel.get_partial_message.return_value.edit
    edit.side_effect = [_refusal(V2_REFUSAL), None, None]
    await sender.edit(1, 999, DONE)  # posted before a restart: not known as V2
    first, second = (c.kwargs for c in edit.call_args_list)
    assert first["content"] == "✅ Round over"
    assert _is_v2_edit(second)
    await sender.edit(1, 999, DONE)  # now known: straight to V2
    assert edit.call_count == 3 and _is_v2_edit(edit.call_args.kwargs)


async def test_other_invalid_form_bodies_propagate_unretried() -> None:
    channel = _channel()
    edit = channel.get_partial_message.return_value.edit
    edit.side_effect = _refusal(TOO_LONG)
    with pytest.raises(discord.HTTPException) as caught:
        await DiscordSender(_client(channel)).edit(1, 999, OutMessage(text="x" * 2001, game_id=3))
    assert caught.value.code == 50035
    assert edit.call_count == 1, "a content over 2,000 characters is not a V2 post"


@pytest.mark.parametrize(
    "body",
    [
        {"code": 50006, "message": "Cannot send an empty message"},
        {"code": 50035, "message": "Invalid Form Body"},  # no field errors at all
        {"code": 50035, "message": "Invalid Form Body", "errors": {"allowed_mentions": {}}},
    ],
)
async def test_other_400s_propagate_unretried(body: dict[str, Any]) -> None:
    channel = _channel()
    edit = channel.get_partial_message.return_value.edit
    edit.side_effect = _refusal(body)
    with pytest.raises(discord.HTTPException):
        await DiscordSender(_client(channel)).edit(1, 999, DONE)
    assert edit.call_count == 1


def test_is_v2_refusal_reads_the_field_error_code() -> None:
    assert is_v2_refusal(_refusal(V2_REFUSAL))
    embeds = {**V2_REFUSAL, "errors": {"embeds": V2_REFUSAL["errors"]["content"]}}
    assert is_v2_refusal(_refusal(embeds))
    assert not is_v2_refusal(_refusal(TOO_LONG))
    assert not is_v2_refusal(_refusal({**V2_REFUSAL, "code": 50006}))
    assert not is_v2_refusal(_refusal(V2_REFUSAL, status=403))
