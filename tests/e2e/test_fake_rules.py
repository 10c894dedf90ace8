"""The fake's own strictness, checked with raw HTTP (no bot process, so these are fast).

A fake that accepted everything would let a broken bot pass the end-to-end tests; these tests pin
each Discord rule the fake enforces, with the boundary value accepted and one past it refused.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord.gateway
import discord.http
import pytest
import yarl

from tests.e2e.api_base import apply_api_base
from tests.e2e.client import TestUser
from tests.e2e.conftest import World
from tests.e2e.fake_discord import (
    ATTACH_FILES,
    MENTION_EVERYONE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeDiscord,
)


class Api:
    """A bare HTTP client speaking to the fake as a bot would, without discord.py."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session
        self.base = f"{fake.api_base}/api/v10"

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: list[tuple[str, bytes]] | None = None,
        auth: bool = True,
        params: dict[str, str] | None = None,
    ) -> tuple[int, Any, str]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        data: Any = None
        if files is not None:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            for i, (name, blob) in enumerate(files):
                form.add_field(f"files[{i}]", blob, filename=name, content_type="image/png")
            data = form
        elif body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        async with self.session.request(
            method, self.base + path, data=data, headers=headers, params=params
        ) as response:
            text = await response.text()
            ctype = response.headers.get("Content-Type", "")
            return response.status, (json.loads(text) if text else None), ctype

    async def post(self, channel_id: str, body: Any, **kw: Any) -> tuple[int, Any]:
        status, answer, _ = await self.call("POST", f"/channels/{channel_id}/messages", body, **kw)
        return status, answer


@pytest.fixture
async def api(world: World) -> AsyncIterator[Api]:
    world.fake.deliver_interactions = False  # no bot here: interactions are only recorded
    async with aiohttp.ClientSession() as session:
        yield Api(world.fake, session)


def error_codes(answer: Any) -> list[str]:
    """All leaf error codes of a 50035 body."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "_errors":
                    found.extend(e["code"] for e in value)
                else:
                    walk(value)

    walk(answer.get("errors", {}))
    return found


def buttons(n: int, prefix: str = "b", label: str = "Go") -> list[dict[str, Any]]:
    return [{"type": 2, "style": 1, "label": label, "custom_id": f"{prefix}{i}"} for i in range(n)]


def select(n: int, custom_id: str = "s") -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


# A body at the limit, and the same body one step past it, with the code Discord reports.
LIMIT_CASES = [
    ("content", {"content": "x" * 2000}, {"content": "x" * 2001}, "BASE_TYPE_MAX_LENGTH"),
    (
        "embeds",
        {"embeds": [{"title": "t"}] * 10},
        {"embeds": [{"title": "t"}] * 11},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "embed title",
        {"embeds": [{"title": "t" * 256}]},
        {"embeds": [{"title": "t" * 257}]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "embed total",
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2000}]},
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    (
        "embed fields",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "rows",
        {"components": [row(*buttons(1, f"r{i}-")) for i in range(5)]},
        {"components": [row(*buttons(1, f"r{i}-")) for i in range(6)]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "buttons per row",
        {"components": [row(*buttons(5))]},
        {"components": [row(*buttons(6))]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "label",
        {"components": [row(*buttons(1, label="l" * 80))]},
        {"components": [row(*buttons(1, label="l" * 81))]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "custom_id",
        {"components": [row(*buttons(1, prefix="c" * 99))]},
        {"components": [row(*buttons(1, prefix="c" * 100))]},
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "duplicate custom_id",
        {"components": [row(*buttons(2))]},
        {"components": [row(*buttons(1)), row(*buttons(1))]},
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    (
        "select options",
        {"components": [row(select(25))]},
        {"components": [row(select(26))]},
        "BASE_TYPE_BAD_LENGTH",
    ),
    ("empty select", {"components": [row(select(1))]}, {"components": [row(select(0))]}, None),
    (
        "select shares a row",
        {"components": [row(select(3)), row(*buttons(1))]},
        {"components": [row(select(3), *buttons(1))]},
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
]


@pytest.mark.parametrize(
    ("name", "ok", "bad", "code"), LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES]
)
async def test_message_limits(
    world: World, api: Api, name: str, ok: dict[str, Any], bad: dict[str, Any], code: str | None
) -> None:
    status, _ = await api.post(world.channel.id, ok)
    assert status == 200, name
    status, answer = await api.post(world.channel.id, bad)
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    if code is not None:
        assert code in error_codes(answer)
    assert len(world.fake.channel_messages(world.channel)) == 1, "a refused post stores nothing"


async def test_error_path_names_the_offending_field(world: World, api: Api) -> None:
    body = {"components": [row(*buttons(1)), row(*buttons(1, "x"), *buttons(1, "y", "l" * 81))]}
    status, answer = await api.post(world.channel.id, body)
    assert status == 400
    errors = answer["errors"]["components"]["1"]["components"]["1"]["label"]["_errors"]
    assert errors == [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]


async def test_attachments_limit_and_images(world: World, api: Api) -> None:
    png = _png()
    status, answer = await api.post(
        world.channel.id, {"content": "ten"}, files=[("a.png", png)] * 10
    )
    assert status == 200 and len(answer["attachments"]) == 10
    message = world.fake.messages[answer["id"]]
    assert [img.size for img in message.images()] == [(3, 2)] * 10
    status, answer = await api.post(
        world.channel.id, {"content": "11"}, files=[("a.png", png)] * 11
    )
    assert status == 400 and answer["code"] == 50035


async def test_enforced_nonce_returns_the_earlier_message(world: World, api: Api) -> None:
    fake = world.fake
    body = {"content": "once", "nonce": "700322574502844", "enforce_nonce": True}
    _, first = await api.post(world.channel.id, body)
    _, again = await api.post(world.channel.id, body)
    assert again["id"] == first["id"] and fake.deduplicated == 1
    _, unenforced = await api.post(world.channel.id, {**body, "enforce_nonce": False})
    assert unenforced["id"] != first["id"]
    fake.clock.advance(121)
    _, later = await api.post(world.channel.id, body)
    assert later["id"] != first["id"]
    assert len(fake.channel_messages(world.channel)) == 3
    status, answer = await api.post(world.channel.id, {"content": "x", "nonce": "n" * 26})
    assert (status, answer["code"]) == (400, 50035)


async def test_edit_keeps_listed_attachments_and_adds_new_ones(world: World, api: Api) -> None:
    png = _png()
    _, posted = await api.post(world.channel.id, {"content": "two"}, files=[("a.png", png)] * 2)
    keep = posted["attachments"][1]
    body = {"content": "edited", "attachments": [keep, {"id": 0, "filename": "new.png"}]}
    status, answer, _ = await api.call(
        "PATCH", f"/channels/{world.channel.id}/messages/{posted['id']}", body, files=[("x", png)]
    )
    assert status == 200
    assert [a["filename"] for a in answer["attachments"]] == ["a.png", "new.png"]
    assert answer["attachments"][0]["id"] == keep["id"] and answer["edited_timestamp"]
    status, answer, _ = await api.call(
        "DELETE", f"/channels/{world.channel.id}/messages/{posted['id']}"
    )
    assert status == 204 and world.fake.channel_messages(world.channel) == []


async def test_empty_message_and_json_content_type(world: World, api: Api) -> None:
    status, answer, ctype = await api.call("POST", f"/channels/{world.channel.id}/messages", {})
    assert (status, answer["code"]) == (400, 50006)
    assert ctype == "application/json", "discord.py only parses this exact header"


async def test_auth_and_unknown_endpoint_are_loud(world: World, api: Api) -> None:
    status, answer, _ = await api.call("GET", "/users/@me", auth=False)
    assert status == 401
    status, answer, _ = await api.call("GET", "/guilds/1/audit-logs")
    assert status == 404 and "does not implement GET" in answer["message"]
    assert [c.path for c in world.fake.unimplemented] == ["/api/v10/guilds/1/audit-logs"]
    world.fake.unimplemented.clear()  # expected here; the fixture fails on any left over


COMMAND = {"name": "nauticus", "description": "Play", "options": []}
BAD_COMMANDS = [
    ("space in name", {**COMMAND, "name": "bad name"}, "APPLICATION_COMMAND_INVALID_NAME"),
    ("upper case", {**COMMAND, "name": "Nauticus"}, "APPLICATION_COMMAND_INVALID_NAME"),
    ("33 chars", {**COMMAND, "name": "n" * 33}, "APPLICATION_COMMAND_INVALID_NAME"),
    ("description 101", {**COMMAND, "description": "d" * 101}, "BASE_TYPE_BAD_LENGTH"),
    ("no description", {**COMMAND, "description": ""}, "BASE_TYPE_BAD_LENGTH"),
    (
        "26 options",
        {
            **COMMAND,
            "options": [{"name": f"o{i}", "description": "d", "type": 3} for i in range(26)],
        },
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "required after optional",
        {
            **COMMAND,
            "options": [
                {"name": "a", "description": "d", "type": 3},
                {"name": "b", "description": "d", "type": 3, "required": True},
            ],
        },
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    ),
    (
        "26 choices",
        {
            **COMMAND,
            "options": [
                {
                    "name": "a",
                    "description": "d",
                    "type": 3,
                    "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
                }
            ],
        },
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "subcommand mixed with option",
        {
            **COMMAND,
            "options": [
                {"name": "new", "description": "d", "type": 1},
                {"name": "x", "description": "d", "type": 3},
            ],
        },
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
]


@pytest.mark.parametrize(
    ("name", "command", "code"), BAD_COMMANDS, ids=[c[0] for c in BAD_COMMANDS]
)
async def test_command_rules(world: World, api: Api, name: str, command: Any, code: str) -> None:
    path = f"/applications/{world.fake.application_id}/commands"
    status, answer, _ = await api.call("PUT", path, [command])
    assert status == 400 and code in error_codes(answer), name
    assert world.fake.global_commands == []


async def test_command_sync_echoes_stable_ids(world: World, api: Api) -> None:
    path = f"/applications/{world.fake.application_id}/commands"
    status, first, _ = await api.call("PUT", path, [COMMAND])
    assert status == 200 and first[0]["id"].isdigit() and first[0]["type"] == 1
    status, second, _ = await api.call("PUT", path, [COMMAND, {**COMMAND, "name": "other"}])
    assert second[0]["id"] == first[0]["id"] and second[1]["id"] != first[0]["id"]


async def interaction(world: World, user: TestUser) -> tuple[str, str]:
    """A recorded slash interaction (no bot delivers it); returns (id, token)."""
    world.fake.global_commands = [
        {**COMMAND, "id": "1", "type": 1, "application_id": world.fake.application_id}
    ]
    reply = await user.slash("nauticus")
    return reply.interaction.id, reply.interaction.token


async def respond(api: Api, iid: str, token: str, body: Any) -> tuple[int, Any]:
    status, answer, _ = await api.call(
        "POST",
        f"/interactions/{iid}/{token}/callback",
        body,
        auth=False,
        params={"with_response": "1"},
    )
    return status, answer


async def test_interaction_timing_rules(world: World, api: Api) -> None:
    fake = world.fake
    alice = world.user("alice")
    iid, token = await interaction(world, alice)
    fake.clock.advance(2.5)  # leaves margin for a slow machine between here and the callback
    status, answer = await respond(api, iid, token, {"type": 4, "data": {"content": "hi"}})
    assert status == 200 and answer["interaction"]["response_message_id"]
    assert answer["resource"]["message"]["content"] == "hi"
    status, answer = await respond(api, iid, token, {"type": 4, "data": {"content": "again"}})
    assert (status, answer["code"]) == (400, 40060)

    late_id, late_token = await interaction(world, alice)
    fake.clock.advance(3.1)
    status, answer = await respond(api, late_id, late_token, {"type": 5})
    assert (status, answer["code"]) == (404, 10062)

    hook = f"/webhooks/{fake.application_id}/{token}"
    fake.clock.advance(14 * 60)
    status, _, _ = await api.call(
        "POST", hook, {"content": "still"}, auth=False, params={"wait": "1"}
    )
    assert status == 200
    fake.clock.advance(60)
    status, answer, _ = await api.call("POST", hook, {"content": "late"}, auth=False)
    assert (status, answer["code"]) == (401, 50027)
    status, answer, _ = await api.call("PATCH", f"{hook}/messages/@original", {"content": "x"})
    assert (status, answer["code"]) == (401, 50027)


async def test_follow_up_needs_an_initial_response(world: World, api: Api) -> None:
    iid, token = await interaction(world, world.user("alice"))
    hook = f"/webhooks/{world.fake.application_id}/{token}"
    status, answer, _ = await api.call("POST", hook, {"content": "early"}, auth=False)
    assert (status, answer["code"]) == (404, 10015)
    status, answer = await respond(api, iid, token, {"type": 8, "data": {"choices": []}})
    assert (status, answer["code"]) == (400, 50035), "autocomplete result for a slash command"


async def test_autocomplete_choice_limit(world: World, api: Api) -> None:
    fake = world.fake
    fake.global_commands = [
        {
            **COMMAND,
            "id": "1",
            "type": 1,
            "options": [{"name": "q", "description": "d", "type": 3, "autocomplete": True}],
        }
    ]
    alice = world.user("alice")
    for count, expected in ((25, 200), (26, 400)):
        ix = await fake.create_interaction(
            alice.user, world.channel, 4, {"id": "1", "name": "nauticus", "options": []}
        )
        choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(count)]
        status, _ = await respond(api, ix.id, ix.token, {"type": 8, "data": {"choices": choices}})
        assert status == expected


async def test_channel_permissions(world: World, api: Api) -> None:
    fake = world.fake
    fake.deny_bot(world.quiet, ATTACH_FILES)
    status, _ = await api.post(world.quiet.id, {"content": "text is fine"})
    assert status == 200
    status, answer = await api.post(world.quiet.id, {"content": "img"}, files=[("a.png", _png())])
    assert (status, answer["code"]) == (403, 50013)

    # Role deny on @everyone, member allow wins; thread posting needs SEND_MESSAGES_IN_THREADS.
    fake.set_overwrite(world.channel, world.guild.everyone, deny=SEND_MESSAGES)
    assert not fake.permissions(fake.bot_user.id, world.channel) & SEND_MESSAGES
    fake.set_overwrite(world.channel, fake.bot_user, allow=SEND_MESSAGES)
    assert fake.permissions(fake.bot_user.id, world.channel) & SEND_MESSAGES
    fake.set_overwrite(world.channel, fake.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    status, answer = await api.post(world.thread.id, {"content": "in thread"})
    assert (status, answer["code"]) == (403, 50013)

    fake.set_overwrite(world.quiet, world.guild.everyone, deny=VIEW_CHANNEL)
    assert fake.permissions(fake.bot_user.id, world.quiet) == 0
    status, answer = await api.post(world.quiet.id, {"content": "hidden"})
    assert (status, answer["code"]) == (403, 50001)


async def test_interaction_reports_app_and_member_permissions(world: World) -> None:
    fake = world.fake
    fake.deliver_interactions = False
    fake.deny_bot(world.quiet, ATTACH_FILES)
    alice = world.user("alice")
    ix = await fake.create_interaction(alice.user, world.quiet, 2, {"name": "x"})
    payload = ix.payload
    assert not int(payload["app_permissions"]) & ATTACH_FILES
    assert int(payload["member"]["permissions"]) & ATTACH_FILES
    required = {"id", "application_id", "type", "token", "version", "attachment_size_limit"}
    assert required <= payload.keys() and payload["channel"]["id"] == world.quiet.id
    assert payload["guild_id"] == world.guild.id and isinstance(
        payload["member"]["permissions"], str
    )
    dm = await fake.create_interaction(alice.user, fake.add_dm(alice.user), 2, {"name": "x"})
    assert "member" not in dm.payload and dm.payload["user"]["id"] == alice.id
    assert "guild_id" not in dm.payload


async def test_mentions_follow_allowed_mentions(world: World, api: Api) -> None:
    fake = world.fake
    alice = world.user("alice")
    text = f"{alice.mention} @everyone"
    status, answer = await api.post(world.channel.id, {"content": text})
    assert status == 200
    pinged = fake.messages[answer["id"]]
    # The bot role lacks MENTION_EVERYONE, so @everyone stays inert.
    assert pinged.pinged_user_ids == [alice.id] and not pinged.pinged_everyone
    _, answer = await api.post(
        world.channel.id, {"content": text, "allowed_mentions": {"parse": []}}
    )
    quiet = fake.messages[answer["id"]]
    assert quiet.pinged_user_ids == [] and quiet.mentioned_user_ids == [alice.id]
    bob = world.user("bob")
    only_bob = {"parse": [], "users": [int(bob.id)]}  # discord.py sends integer ids
    _, answer = await api.post(
        world.channel.id,
        {"content": f"{alice.mention} {bob.mention}", "allowed_mentions": only_bob},
    )
    assert fake.messages[answer["id"]].pinged_user_ids == [bob.id]
    fake.guilds[world.guild.id].roles[world.guild.id].permissions |= MENTION_EVERYONE
    _status, answer = await api.post(world.channel.id, {"content": "@here"})
    assert fake.messages[answer["id"]].pinged_everyone


async def test_client_refuses_what_a_discord_client_cannot_send(world: World, api: Api) -> None:
    alice = world.user("alice")
    _status, answer = await api.post(
        world.channel.id,
        {
            "content": "panel",
            "components": [row(select(3)), row({**buttons(1)[0], "disabled": True})],
        },
    )
    panel = world.fake.messages[answer["id"]]
    with pytest.raises(AssertionError, match="not offered"):
        await alice.select(panel, ["nope"])
    with pytest.raises(AssertionError, match="disabled"):
        await alice.click(panel, "Go")
    with pytest.raises(AssertionError, match="not registered"):
        await alice.slash("nauticus new")
    forged = await alice.select(panel, ["nope"], strict=False)
    assert forged.interaction.payload["data"]["values"] == ["nope"]
    assert forged.interaction.payload["message"]["id"] == panel.id


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "https://127.0.0.2"],
)
def test_apply_api_base_accepts_loopback(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    apply_api_base(url)
    assert url.rstrip("/") + "/api/v10" == discord.http.Route.BASE
    assert discord.http.Route("GET", "/users/@me").url == url + "/api/v10/users/@me"
    assert isinstance(gateway.DEFAULT_GATEWAY, yarl.URL)
    assert gateway.DEFAULT_GATEWAY.host == yarl.URL(url).host
    assert gateway.DEFAULT_GATEWAY.scheme in ("ws", "wss")


@pytest.mark.parametrize(
    "url",
    [
        "http://discord.com",
        "http://10.0.0.1:80",
        "http://127.0.0.1.example.com",
        "ftp://127.0.0.1",
        "http://127.0.0.1/api",
        "127.0.0.1:80",
        "",
    ],
)
def test_apply_api_base_refuses_anything_else(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = discord.http.Route.BASE
    with pytest.raises(ValueError):
        apply_api_base(url)
    assert before == discord.http.Route.BASE


def _png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(buffer, format="PNG")
    return buffer.getvalue()
