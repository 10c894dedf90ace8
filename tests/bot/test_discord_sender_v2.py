"""Phase posts as Components V2 messages, built the way discord.py sends them (no network).

The payload is produced by discord.py's own `handle_message_parameters` and checked against the
e2e fake's Discord rules (`tests.e2e.limits`), so a layout Discord would refuse fails here.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord.http import handle_message_parameters

from bot.discord_app.sender import NO_PICTURES, DiscordSender, button_rows, layout
from bot.outbox import OutFile, OutMessage
from tests.e2e import limits

V2 = 1 << 15

PHASE = OutMessage(
    text="**Round 2** — <@55> moves next. @everyone <@&77> <@66>",
    files=(
        OutFile("board.png", b"png-1", "The board: Hulls on space 3"),
        OutFile("ships.png", b"png-2", "Ana's ships: one finished"),
    ),
    mention_user_ids=(55,),
    components="play",
    game_id=3,
    version=9,
    nonce=4242,
    kind="phase",
)


def _channel(perms: discord.Permissions) -> Any:
    channel = MagicMock(spec=discord.TextChannel)
    channel.guild = MagicMock(spec=discord.Guild)
    channel.guild.me = MagicMock(spec=discord.Member)
    channel.permissions_for.return_value = perms
    sent = MagicMock(spec=discord.Message)
    sent.id = 999
    channel.send = AsyncMock(return_value=sent)
    partial = MagicMock(spec=discord.PartialMessage)
    partial.edit = AsyncMock()
    channel.get_partial_message.return_value = partial
    return channel


def _client(channel: Any) -> Any:
    client = MagicMock(spec=discord.Client)
    client.get_channel.return_value = channel
    return client


def _payload(**kwargs: Any) -> dict[str, Any]:
    """What discord.py would send for these Messageable.send/edit arguments."""
    params = handle_message_parameters(**kwargs)
    if params.multipart:
        import json

        payload: dict[str, Any] = json.loads(params.multipart[0]["value"])
        return payload
    assert params.payload is not None
    return dict(params.payload)


def _problems(payload: dict[str, Any], filenames: set[str]) -> list[Any]:
    problems = limits.Problems()
    limits.check_message(payload, problems, files=len(filenames), filenames=filenames)
    return problems.items


async def test_a_phase_post_is_one_v2_message_with_text_gallery_alt_texts_and_play() -> None:
    channel = _channel(discord.Permissions.all())
    assert await DiscordSender(_client(channel)).send(1, PHASE) == 999
    args, kwargs = channel.send.call_args
    assert args == (), "no content: a V2 message carries its text in a TextDisplay"
    view = kwargs["view"]
    assert isinstance(view, discord.ui.LayoutView) and view.has_components_v2()
    (container,) = view.to_components()
    assert container["type"] == 17
    text, gallery, row = container["components"]
    assert text == {"type": 10, "content": PHASE.text}
    assert gallery["type"] == 12
    assert [(i["media"]["url"], i.get("description")) for i in gallery["items"]] == [
        ("attachment://board.png", "The board: Hulls on space 3"),
        ("attachment://ships.png", "Ana's ships: one finished"),
    ]
    assert row["type"] == 1
    assert [(b["type"], b["label"], b["custom_id"]) for b in row["components"]] == [
        (2, "Play", "nx:play:3:9")
    ]
    assert kwargs["nonce"] == 4242
    assert [f.filename for f in kwargs["files"]] == ["board.png", "ships.png"]

    payload = _payload(
        view=view, files=kwargs["files"], allowed_mentions=kwargs["allowed_mentions"], nonce=4242
    )
    assert payload["flags"] == V2 and "content" not in payload and "embeds" not in payload
    assert payload["allowed_mentions"] == {"parse": [], "users": [55]}
    assert [a["description"] for a in payload["attachments"]] == [
        "The board: Hulls on space 3",
        "Ana's ships: one finished",
    ]
    assert _problems(payload, {"board.png", "ships.png"}) == [], "Discord would accept it"
    assert _problems(payload, {"board.png"}), "a gallery naming a missing file is refused"


async def test_without_play_the_layout_has_no_row_and_lobby_buttons_keep_their_ids() -> None:
    quiet = OutMessage(text="Final scores", files=PHASE.files, game_id=3, version=9)
    (container,) = layout(quiet).to_components()
    assert [c["type"] for c in container["components"]] == [10, 12]
    lobby = OutMessage(text="Lobby", files=PHASE.files, components="lobby", game_id=3, version=1)
    rows = button_rows(lobby)
    assert [len(r.children) for r in rows] == [5, 1]  # Discord allows 5 buttons per row
    assert [c.custom_id for r in rows for c in r.children] == [  # type: ignore[attr-defined]
        f"nx:lobby:3:1:{a}" for a in ("join", "leave", "start", "cancel", "seating", "ai")
    ]


def test_layout_text_respects_the_v2_limit() -> None:
    long = OutMessage(text="x" * 5000, files=PHASE.files)
    (container,) = layout(long).to_components()
    assert len(container["components"][0]["content"]) <= 4000
    payload = _payload(view=layout(long), files=[])
    assert _problems(payload, {"board.png", "ships.png"}) == []


async def test_without_attach_files_the_classic_fallback_is_unchanged() -> None:
    perms = discord.Permissions.all()
    perms.attach_files = False
    channel = _channel(perms)
    await DiscordSender(_client(channel)).send(1, PHASE)
    (text,), kwargs = channel.send.call_args
    assert text == f"{PHASE.text}\n{NO_PICTURES}"
    assert "files" not in kwargs
    view = kwargs["view"]
    assert isinstance(view, discord.ui.View) and not view.has_components_v2()
    assert [c.custom_id for c in view.children] == ["nx:play:3:9"]  # type: ignore[attr-defined]
    payload = _payload(content=text, view=view)
    assert "flags" not in payload, "the fallback is a classic message"


def test_the_note_is_game_neutral() -> None:
    assert "/nauticus" not in NO_PICTURES
    assert "the game's `board` command shows the board privately meanwhile" in NO_PICTURES
    assert "Attach Files" in NO_PICTURES


async def test_messages_without_pictures_stay_classic() -> None:
    channel = _channel(discord.Permissions.all())
    ping = OutMessage(text="<@55> your turn", mention_user_ids=(55,), components="play", game_id=3)
    await DiscordSender(_client(channel)).send(1, ping)
    (text,), kwargs = channel.send.call_args
    assert text == "<@55> your turn" and "files" not in kwargs
    assert not kwargs["view"].has_components_v2()


async def test_an_edit_with_pictures_stays_v2() -> None:
    channel = _channel(discord.Permissions.all())
    await DiscordSender(_client(channel)).edit(1, 555, PHASE)
    kwargs = channel.get_partial_message.return_value.edit.call_args.kwargs
    assert kwargs["content"] is None, "a V2 message has no content; None clears an old one"
    assert isinstance(kwargs["view"], discord.ui.LayoutView)
    assert [f.filename for f in kwargs["attachments"]] == ["board.png", "ships.png"]
    payload = _payload(
        content=None, attachments=kwargs["attachments"], view=kwargs["view"], allowed_mentions=None
    )
    assert payload["flags"] == V2 and payload["content"] is None
    assert _problems(payload, {"board.png", "ships.png"}) == []


async def test_a_text_edit_of_a_v2_message_is_retried_as_a_v2_layout() -> None:
    channel = _channel(discord.Permissions.all())
    edit = channel.get_partial_message.return_value.edit
    response = MagicMock(status=400, reason="Bad Request")
    # Discord's exact refusal of `content` on a V2 message (any other 400 is not retried).
    refused = discord.HTTPException(
        response,
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {
                "content": {
                    "_errors": [
                        {
                            "code": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                            "message": "The 'content' field cannot be used when using "
                            "MessageFlags.IS_COMPONENTS_V2",
                        }
                    ]
                }
            },
        },
    )
    edit.side_effect = [refused, None]
    done = OutMessage(text="✅ Round over", game_id=3)
    await DiscordSender(_client(channel)).edit(1, 555, done)
    first, second = (c.kwargs for c in edit.call_args_list)
    assert first["content"] == "✅ Round over" and first["view"] is None
    assert second["content"] is None and second["attachments"] == []
    assert second["view"].to_components() == [
        {
            "type": 17,
            "accent_color": None,
            "spoiler": False,
            "components": [{"type": 10, "content": "✅ Round over"}],
        }
    ]


async def test_other_edit_failures_are_not_retried() -> None:
    channel = _channel(discord.Permissions.all())
    edit = channel.get_partial_message.return_value.edit
    response = MagicMock(status=404, reason="Not Found")
    edit.side_effect = discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})
    from bot.outbox import DeliveryRefused

    with pytest.raises(DeliveryRefused):
        await DiscordSender(_client(channel)).edit(1, 555, OutMessage(text="x", game_id=3))
    assert edit.call_count == 1


async def test_the_final_post_has_replay_rematch_and_record_buttons() -> None:
    final = OutMessage(
        text="Final scores", files=PHASE.files, components="final", game_id=4, version=80
    )
    (row,) = button_rows(final)
    buttons = [c.item for c in row.children]  # type: ignore[attr-defined]
    assert [(b.label, str(b.emoji), b.custom_id) for b in buttons] == [
        ("Replay", "🎞️", "nx:end:4:80:replay"),
        ("Rematch", "🔁", "nx:end:4:80:rematch"),
        ("Record", "📄", "nx:end:4:80:record"),
    ]
