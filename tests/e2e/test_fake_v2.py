"""Components V2 messages in the fake (IS_COMPONENTS_V2, 1 << 15), checked with raw HTTP.

Each rule has a body Discord accepts (stored, readable through `text()`, `alt_texts()`,
`button_ids()`) and the same body one step past the rule, refused with 400/50035.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import World
from tests.e2e.fake_discord import MENTION_EVERYONE, RateLimits
from tests.e2e.test_fake_rules import Api, _png, error_codes

V2 = 1 << 15


@pytest.fixture
async def api(world: World) -> AsyncIterator[Api]:
    world.fake.deliver_interactions = False  # no bot here: interactions are only recorded
    # Payload rules only: many edits of one message here would meet the per-channel bucket.
    world.fake.rate_limits = RateLimits(global_limit=None, routes={})
    async with aiohttp.ClientSession() as session:
        yield Api(world.fake, session)


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def gallery(*urls: str, alt: str | None = None) -> dict[str, Any]:
    items: list[dict[str, Any]] = []
    for url in urls:
        item: dict[str, Any] = {"media": {"url": url}}
        if alt is not None:
            item["description"] = f"{alt} {url}"
        items.append(item)
    return {"type": 12, "items": items}


def button(custom_id: str, label: str = "Play") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **extra}


WEB = "https://example.com/p.png"

# (name, accepted body, the same past the rule, Discord's error code)
V2_CASES = [
    (
        "content",
        v2(container(text("hi"))),
        v2(container(text("hi")), content="hi"),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    (
        "embeds",
        v2(container(text("hi")), embeds=[]),
        v2(container(text("hi")), embeds=[{"title": "t"}]),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    (
        "40 components, nested counted",
        v2(container(*[text(f"t{i}") for i in range(39)])),
        v2(container(*[text(f"t{i}") for i in range(40)])),
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "4000 characters of text",
        v2(text("a" * 2000), container(text("b" * 2000))),
        v2(text("a" * 2000), container(text("b" * 2001))),
        "COMPONENTS_V2_TEXT_TOO_LONG",
    ),
    (
        "gallery of at most 10",
        v2(gallery(*[WEB] * 10)),
        v2(gallery(*[WEB] * 11)),
        "BASE_TYPE_BAD_LENGTH",
    ),
    ("gallery of at least 1", v2(gallery(WEB)), v2(gallery()), "BASE_TYPE_BAD_LENGTH"),
    (
        "nested container",
        v2(container(text("a"), {"type": 14, "divider": True, "spacing": 1})),
        v2(container(container(text("a")))),
        "UNION_TYPE_CHOICES",
    ),
    (
        "a bare button at the top level",
        v2({"type": 1, "components": [button("p")]}),
        v2(button("p")),
        "UNION_TYPE_CHOICES",
    ),
    (
        "custom ids unique across the layout",
        v2(
            container({"type": 1, "components": [button("a")]}),
            {"type": 1, "components": [button("b")]},
        ),
        v2(
            container({"type": 1, "components": [button("a")]}),
            {"type": 1, "components": [button("a")]},
        ),
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    (
        "section: text plus a thumbnail or button accessory",
        v2(
            {"type": 9, "components": [text("a")], "accessory": {"type": 11, "media": {"url": WEB}}}
        ),
        v2({"type": 9, "components": [text("a")], "accessory": text("not an accessory")}),
        "UNION_TYPE_CHOICES",
    ),
    (
        "V2 components need the flag",
        v2(container(text("hi"))),
        {"components": [container(text("hi"))]},
        "UNION_TYPE_CHOICES",
    ),
]


@pytest.mark.parametrize(("name", "ok", "bad", "code"), V2_CASES, ids=[c[0] for c in V2_CASES])
async def test_v2_message_rules(
    world: World, api: Api, name: str, ok: dict[str, Any], bad: dict[str, Any], code: str
) -> None:
    status, answer = await api.post(world.channel.id, ok)
    assert status == 200, (name, answer)
    stored = world.fake.messages[answer["id"]]
    assert stored.is_v2 == bool(ok.get("flags")) and answer["content"] == ""
    status, answer = await api.post(world.channel.id, bad)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body"), name
    assert code in error_codes(answer), error_codes(answer)
    assert len(world.fake.channel_messages(world.channel)) == 1, "a refused post stores nothing"


async def test_v2_post_is_stored_with_its_text_pictures_alt_texts_and_buttons(
    world: World, api: Api
) -> None:
    fake = world.fake
    alice = world.user("alice")
    body = v2(
        container(
            text(f"**Round 1** {alice.mention}"),
            text("second line"),
            gallery("attachment://board.png", "attachment://ships.png", alt="alt of"),
            {"type": 1, "components": [button("nx:play:1:2")]},
        ),
        allowed_mentions={"parse": [], "users": [int(alice.id)]},
    )
    status, answer, _ = await api.call(
        "POST",
        f"/channels/{world.channel.id}/messages",
        body,
        files=[("board.png", _png()), ("ships.png", _png())],
    )
    assert status == 200, answer
    assert answer["content"] == "" and answer["flags"] == V2
    assert [a["filename"] for a in answer["attachments"]] == ["board.png", "ships.png"]
    message = fake.messages[answer["id"]]
    assert message.text() == f"**Round 1** {alice.mention}\nsecond line"
    assert message.content == message.text(), "readers see the text of both kinds"
    assert message.alt_texts() == ["alt of attachment://board.png", "alt of attachment://ships.png"]
    assert [img.size for img in message.images()] == [(3, 2), (3, 2)]
    assert message.button_ids() == ["nx:play:1:2"]
    assert message.pinged_user_ids == [alice.id], "mentions in a TextDisplay ping as listed"
    click = await alice.click(message, "Play")  # the button nested in the container
    assert click.interaction.payload["data"]["custom_id"] == "nx:play:1:2"
    assert click.interaction.payload["message"]["flags"] == V2


async def test_v2_gallery_may_only_show_files_of_the_message(world: World, api: Api) -> None:
    path = f"/channels/{world.channel.id}/messages"
    bad = v2(container(text("t"), gallery("attachment://missing.png")))
    status, answer, _ = await api.call("POST", path, bad, files=[("board.png", _png())])
    assert status == 400 and "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND" in error_codes(answer)
    # The filename may also be set by the attachments payload, as discord.py does.
    renamed = v2(
        container(text("t"), gallery("attachment://named.png")),
        attachments=[{"id": 0, "filename": "named.png", "description": "alt"}],
    )
    status, answer, _ = await api.call("POST", path, renamed, files=[("x.png", _png())])
    assert status == 200, answer
    assert world.fake.messages[answer["id"]].alt_texts() == [None]


async def test_v2_edits(world: World, api: Api) -> None:
    fake = world.fake
    cid = world.channel.id
    path = f"/channels/{cid}/messages"
    status, posted, _ = await api.call(
        "POST",
        path,
        v2(container(text("one"), gallery("attachment://a.png"))),
        files=[("a.png", _png())],
    )
    assert status == 200
    edit = f"{path}/{posted['id']}"
    message = fake.messages[posted["id"]]

    status, answer, _ = await api.call("PATCH", edit, {"flags": 0, "content": "plain"})
    assert status == 400 and "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG" in error_codes(answer)
    status, answer, _ = await api.call("PATCH", edit, {"content": "sneaked in"})
    assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in error_codes(
        answer
    )
    assert message.text() == "one" and message.is_v2, "a refused edit changes nothing"

    # Without the flag in the body the message stays V2; a kept attachment may still be shown.
    status, answer, _ = await api.call(
        "PATCH", edit, {"components": [container(text("two"), gallery("attachment://a.png"))]}
    )
    assert status == 200 and answer["flags"] == V2 and message.text() == "two"
    dropped = v2(container(text("three"), gallery("attachment://a.png")), attachments=[])
    status, answer, _ = await api.call("PATCH", edit, dropped)
    assert status == 400 and "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND" in error_codes(answer)
    assert len(message.attachments) == 1

    # A classic message becomes V2 only when its content is cleared in the same edit.
    _, classic = await api.post(cid, {"content": "classic"})
    upgrade = f"{path}/{classic['id']}"
    status, answer, _ = await api.call("PATCH", upgrade, v2(container(text("now v2"))))
    assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in error_codes(
        answer
    )
    status, answer, _ = await api.call(
        "PATCH", upgrade, v2(container(text("now v2")), content=None)
    )
    assert status == 200 and fake.messages[classic["id"]].text() == "now v2"
    assert fake.messages[classic["id"]].is_v2 and answer["content"] == ""


async def test_v2_in_interaction_responses_follow_ups_and_webhook_edits(
    world: World, api: Api
) -> None:
    from tests.e2e.test_fake_rules import interaction, respond

    fake = world.fake
    alice = world.user("alice")
    iid, token = await interaction(world, alice)
    bad = {"type": 4, "data": v2(container(text("x")), content="x")}
    status, answer = await respond(api, iid, token, bad)
    assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in error_codes(
        answer
    )
    status, answer = await respond(api, iid, token, {"type": 4, "data": v2(container(text("r")))})
    assert status == 200, answer
    original = fake.messages[answer["interaction"]["response_message_id"]]
    assert original.is_v2 and original.text() == "r"

    hook = f"/webhooks/{fake.application_id}/{token}"
    status, answer, _ = await api.call(
        "PATCH", f"{hook}/messages/@original", {"flags": 0, "content": "back"}, auth=False
    )
    assert status == 400 and "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG" in error_codes(answer)
    too_long = v2(text("a" * 4001))
    status, answer, _ = await api.call("POST", hook, too_long, auth=False, params={"wait": "1"})
    assert status == 400 and "COMPONENTS_V2_TEXT_TOO_LONG" in error_codes(answer)
    status, answer, _ = await api.call(
        "POST", hook, v2(text("follow-up")), auth=False, params={"wait": "1"}
    )
    assert status == 200 and fake.messages[answer["id"]].text() == "follow-up"


async def test_v2_everyone_in_text_follows_permissions(world: World, api: Api) -> None:
    fake = world.fake
    _, answer = await api.post(world.channel.id, v2(text("@everyone look")))
    assert not fake.messages[answer["id"]].pinged_everyone
    fake.guilds[world.guild.id].roles[world.guild.id].permissions |= MENTION_EVERYONE
    _, answer = await api.post(world.channel.id, v2(text("@everyone look")))
    assert fake.messages[answer["id"]].pinged_everyone
