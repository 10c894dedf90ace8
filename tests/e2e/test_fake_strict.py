"""The fake refuses what Discord refuses beyond the payload limits (raw HTTP, no bot process).

Each rule: a bad payload is answered 400 / 50035 "Invalid Form Body" with the field error code,
and the nearest good payload is accepted, so a bot that only works because the fake was lenient
fails here as it would against Discord.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import World
from tests.e2e.fake_discord import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    Interaction,
)
from tests.e2e.test_fake_rules import Api, _png, error_codes

STRING, INTEGER, NUMBER = 3, 4, 10
EPHEMERAL, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, V2 = 1 << 6, 1 << 2, 1 << 12, 1 << 15


@pytest.fixture
async def api(world: World) -> AsyncIterator[Api]:
    world.fake.deliver_interactions = False  # no bot here: interactions are only recorded
    async with aiohttp.ClientSession() as session:
        yield Api(world.fake, session)


def refused(status: int, answer: Any, code: str) -> bool:
    """Discord's answer to an invalid body: 400, JSON code 50035, `code` among the field errors."""
    return (status, answer.get("code"), answer.get("message")) == (
        400,
        50035,
        "Invalid Form Body",
    ) and code in error_codes(answer)


def opt(name: str, kind: int = STRING, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "d", "type": kind, **extra}


def command(*options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": "game", "description": "Play", "options": list(options), **extra}


async def sync(api: Api, commands: list[dict[str, Any]]) -> tuple[int, Any]:
    path = f"/applications/{api.fake.application_id}/commands"
    status, answer, _ = await api.call("PUT", path, commands)
    return status, answer


# (rule, a good command, the same command breaking the rule, Discord's field error code)
LOCALIZATION_CASES = [
    (
        "locale keys come from Discord's list",
        command(name_localizations={"fr": "partie"}),
        command(name_localizations={"fr-FR": "partie"}),
        "BASE_TYPE_CHOICES",
    ),
    (
        "localized command names are lower case",
        command(name_localizations={"fr": "partie", "de": "spiel"}),
        command(name_localizations={"fr": "Partie"}),
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "localized names match the name regex (Devanagari signs, apostrophes are fine)",
        command(name_localizations={"hi": "खेल", "fr": "l'île"}),
        command(name_localizations={"fr": "une partie"}),
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "localized names have 1 to 32 characters",
        command(name_localizations={"fr": "p" * 32}),
        command(name_localizations={"fr": "p" * 33}),
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "localized option names follow the name rules",
        command(opt("size", name_localizations={"fr": "taille"})),
        command(opt("size", name_localizations={"fr": "Taille"})),
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "localized descriptions have at most 100 characters",
        command(description_localizations={"fr": "d" * 100}),
        command(description_localizations={"fr": "d" * 101}),
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "localized descriptions are not empty",
        command(opt("size", description_localizations={"fr": "t"})),
        command(opt("size", description_localizations={"fr": ""})),
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "localized choice names have 1 to 100 characters",
        command(
            opt(
                "size",
                choices=[{"name": "s", "value": "s", "name_localizations": {"fr": "c" * 100}}],
            )
        ),
        command(
            opt(
                "size",
                choices=[{"name": "s", "value": "s", "name_localizations": {"fr": "c" * 101}}],
            )
        ),
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "localized choice name locales come from Discord's list",
        command(
            opt("size", choices=[{"name": "s", "value": "s", "name_localizations": {"pt-BR": "p"}}])
        ),
        command(
            opt("size", choices=[{"name": "s", "value": "s", "name_localizations": {"pt_BR": "p"}}])
        ),
        "BASE_TYPE_CHOICES",
    ),
    (
        "option names are unique within a locale",
        command(
            opt("from", name_localizations={"fr": "debut"}),
            opt("to", name_localizations={"fr": "fin"}),
        ),
        command(
            opt("from", name_localizations={"fr": "heure"}),
            opt("to", name_localizations={"fr": "heure"}),
        ),
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
    ),
    (
        "a localized option name differs from the other options' default names",
        command(
            opt("from", name_localizations={"fr": "de"}), opt("to", name_localizations={"fr": "a"})
        ),
        command(
            opt("from", name_localizations={"fr": "to"}), opt("to", name_localizations={"fr": "a"})
        ),
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
    ),
    (
        "an unlocalized option keeps its name in every locale",
        command(opt("from", name_localizations={"fr": "de"}), opt("to")),
        command(opt("from", name_localizations={"fr": "to"}), opt("to")),
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
    ),
]


@pytest.mark.parametrize(
    ("rule", "ok", "bad", "code"), LOCALIZATION_CASES, ids=[c[0] for c in LOCALIZATION_CASES]
)
async def test_command_localization_rules(
    world: World, api: Api, rule: str, ok: dict[str, Any], bad: dict[str, Any], code: str
) -> None:
    status, answer = await sync(api, [ok])
    assert status == 200, (rule, answer)
    status, answer = await sync(api, [bad])
    assert refused(status, answer, code), (rule, status, answer)
    assert world.fake.global_commands[0]["name"] == "game", "a refused sync changes nothing"


async def test_two_subcommands_may_each_have_an_option_of_the_same_name(api: Api) -> None:
    sub = {"type": 1, "description": "d"}
    same = opt("name", name_localizations={"fr": "nom"})
    tree = command(
        {**sub, "name": "add", "options": [same]}, {**sub, "name": "drop", "options": [same]}
    )
    status, answer = await sync(api, [tree])
    assert status == 200, answer


def sized_command(size: int) -> tuple[dict[str, Any], int]:
    """A command whose documented size is `size`, its French descriptions the longest texts;
    also returns its size counting the default texts only.

    Size (application-commands.mdx, "Slash Commands"): name + description of the command and
    of every option, choice names and values, each field counted at its longest localization.
    """
    options = []
    total = len("game") + len("Play")
    for i in range(25):
        choices = []
        for j in range(3):
            choices.append({"name": f"c{j}", "value": "v" * 100})
        options.append(
            {
                **opt(f"o{i}", choices=choices),
                "description_localizations": {"fr": "é" * 100},
            }
        )
        total += len(f"o{i}") + 100 + 3 * (2 + 100)
    excess = total - size
    assert excess >= 0
    for option in reversed(options):
        for choice in reversed(option["choices"]):
            cut = min(excess, 99)
            choice["value"] = "v" * (100 - cut)
            excess -= cut
    defaults_only = size - 25 * (100 - 1)  # the default descriptions are "d"
    return command(*options), defaults_only


async def test_command_size_counts_the_longest_localization_up_to_8000(api: Api) -> None:
    at_limit, defaults = sized_command(8000)
    assert defaults > 4000, "Discord's limit is 8000 now, not the old 4000"
    status, answer = await sync(api, [at_limit])
    assert status == 200, answer
    past, defaults = sized_command(8001)
    assert defaults < 8000, "only the French descriptions take it past the limit"
    status, answer = await sync(api, [past])
    assert refused(status, answer, "APPLICATION_COMMAND_TOO_LARGE"), answer


# (option type, a value of that type, values of other types, the field error code)
VALUE_CASES = [
    (STRING, "1", [1, 1.5, True], "BASE_TYPE_STRING"),
    (INTEGER, 1, ["1", 1.5, True, 2**53], "NUMBER_TYPE_COERCE"),
    (NUMBER, 1.5, ["1.5", True], "NUMBER_TYPE_COERCE"),
]


@pytest.mark.parametrize(("kind", "good", "bads", "code"), VALUE_CASES)
async def test_choice_values_match_the_option_type(
    api: Api, kind: int, good: Any, bads: list[Any], code: str
) -> None:
    status, answer = await sync(
        api, [command(opt("n", kind, choices=[{"name": "a", "value": good}]))]
    )
    assert status == 200, answer
    if kind == NUMBER:  # an integer is a number too
        status, answer = await sync(
            api, [command(opt("n", kind, choices=[{"name": "a", "value": 2}]))]
        )
        assert status == 200, answer
    for bad in bads:
        status, answer = await sync(
            api, [command(opt("n", kind, choices=[{"name": "a", "value": bad}]))]
        )
        assert refused(status, answer, code), (kind, bad, answer)


async def autocompleting(world: World, kind: int) -> Interaction:
    """An autocomplete interaction typing into an option of type `kind` of /game."""
    fake = world.fake
    fake.global_commands = [
        {
            **command(opt("q", kind, autocomplete=True)),
            "id": "1",
            "type": 1,
            "application_id": fake.application_id,
        }
    ]
    focused = {"name": "q", "type": kind, "value": "", "focused": True}
    alice = fake.add_user(f"alice{kind}")
    data = {"id": "1", "name": "game", "type": 1, "options": [focused]}
    return await fake.create_interaction(alice, world.channel, AUTOCOMPLETE, data)


async def respond(api: Api, ix: Interaction, body: dict[str, Any]) -> tuple[int, Any]:
    status, answer, _ = await api.call(
        "POST", f"/interactions/{ix.id}/{ix.token}/callback", body, auth=False
    )
    return status, answer


@pytest.mark.parametrize(("kind", "good", "bads", "code"), VALUE_CASES)
async def test_autocomplete_values_match_the_focused_option_type(
    world: World, api: Api, kind: int, good: Any, bads: list[Any], code: str
) -> None:
    ix = await autocompleting(world, kind)
    status, answer = await respond(
        api, ix, {"type": 8, "data": {"choices": [{"name": "a", "value": good}]}}
    )
    assert status == 204, answer
    for bad in bads:
        ix = await autocompleting(world, kind)
        body = {"type": 8, "data": {"choices": [{"name": "a", "value": bad}]}}
        status, answer = await respond(api, ix, body)
        assert refused(status, answer, code), (kind, bad, answer)


@pytest.mark.parametrize("kind", ["users", "roles"])
async def test_allowed_mentions_parse_and_ids_are_mutually_exclusive(
    world: World, api: Api, kind: str
) -> None:
    alice = world.user("alice")
    content = {"content": f"hi {alice.mention}"}
    for allowed in (
        {"parse": [kind]},
        {"parse": [], kind: [alice.id]},
        {"parse": [kind], kind: []},
    ):
        status, answer = await api.post(world.channel.id, {**content, "allowed_mentions": allowed})
        assert status == 200, (allowed, answer)
    both = {"parse": [kind], kind: [alice.id]}
    status, answer = await api.post(world.channel.id, {**content, "allowed_mentions": both})
    assert refused(status, answer, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"), answer
    # The same on an edit.
    _, posted = await api.post(world.channel.id, content)
    status, answer, _ = await api.call(
        "PATCH",
        f"/channels/{world.channel.id}/messages/{posted['id']}",
        {**content, "allowed_mentions": both},
    )
    assert refused(status, answer, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"), answer


@pytest.mark.parametrize("flag", [EPHEMERAL, SUPPRESS_NOTIFICATIONS])
async def test_an_edit_cannot_set_ephemeral_or_silent(world: World, api: Api, flag: int) -> None:
    _, posted = await api.post(world.channel.id, {"content": "hello"})
    path = f"/channels/{world.channel.id}/messages/{posted['id']}"
    status, answer, _ = await api.call(
        "PATCH", path, {"content": "edited", "flags": SUPPRESS_EMBEDS}
    )
    assert status == 200, answer
    status, answer, _ = await api.call("PATCH", path, {"content": "again", "flags": flag})
    assert refused(status, answer, "MESSAGE_FLAGS_INVALID"), answer
    assert world.fake.messages[posted["id"]].content == "edited", "a refused edit changes nothing"

    # The interaction's own message (edit original response) too.
    ix = await slash(world)
    status, answer = await respond(api, ix, {"type": 4, "data": {"content": "reply"}})
    assert status == 204, answer
    hook = f"/webhooks/{world.fake.application_id}/{ix.token}/messages/@original"
    status, answer, _ = await api.call("PATCH", hook, {"content": "x", "flags": flag}, auth=False)
    assert refused(status, answer, "MESSAGE_FLAGS_INVALID"), answer
    status, answer, _ = await api.call("PATCH", hook, {"content": "x"}, auth=False)
    assert status == 200, answer


async def slash(world: World) -> Interaction:
    fake = world.fake
    fake.global_commands = [
        {**command(), "id": "1", "type": 1, "application_id": fake.application_id}
    ]
    user = fake.add_user("bob")
    data = {"id": "1", "name": "game", "type": 1}
    return await fake.create_interaction(user, world.channel, APPLICATION_COMMAND, data)


async def test_a_deferral_cannot_be_components_v2(world: World, api: Api) -> None:
    ix = await slash(world)
    status, answer = await respond(api, ix, {"type": 5, "data": {"flags": V2}})
    assert refused(status, answer, "MESSAGE_FLAGS_INVALID"), answer
    assert not ix.acknowledged, "a refused deferral acknowledges nothing"
    status, answer = await respond(api, ix, {"type": 5, "data": {"flags": EPHEMERAL}})
    assert status == 204, answer

    # A deferred update of a component's message.
    fake = world.fake
    _, posted = await api.post(
        world.channel.id,
        {
            "content": "panel",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}],
                }
            ],
        },
    )
    click = {"custom_id": "go", "component_type": 2}
    message = fake.messages[posted["id"]]
    ix = await fake.create_interaction(
        fake.add_user("carol"), world.channel, MESSAGE_COMPONENT, click, message=message
    )
    status, answer = await respond(api, ix, {"type": 6, "data": {"flags": V2}})
    assert refused(status, answer, "MESSAGE_FLAGS_INVALID"), answer
    status, answer = await respond(api, ix, {"type": 6})
    assert status == 204, answer


async def test_attachment_alt_text_has_at_most_1024_characters(world: World, api: Api) -> None:
    for length, ok in ((1024, True), (1025, False)):
        body = {"content": "pic", "attachments": [{"id": 0, "description": "a" * length}]}
        status, answer = await api.post(world.channel.id, body, files=[("a.png", _png())])
        if ok:
            assert status == 200, answer
            assert answer["attachments"][0]["description"] == "a" * length
        else:
            assert refused(status, answer, "BASE_TYPE_MAX_LENGTH"), answer


async def test_attachment_ids_name_uploaded_or_kept_files(world: World, api: Api) -> None:
    fake = world.fake
    one = [("a.png", _png())]
    status, answer = await api.post(
        world.channel.id, {"content": "pic", "attachments": [{"id": 1}]}, files=one
    )
    assert refused(status, answer, "ATTACHMENT_NOT_FOUND"), "files[0] is the only upload"
    status, posted = await api.post(
        world.channel.id, {"content": "pic", "attachments": [{"id": 0}]}, files=one
    )
    assert status == 200, posted
    kept = posted["attachments"][0]["id"]
    path = f"/channels/{world.channel.id}/messages/{posted['id']}"
    status, answer, _ = await api.call("PATCH", path, {"attachments": [{"id": kept}]})
    assert status == 200, answer
    status, answer, _ = await api.call(
        "PATCH", path, {"attachments": [{"id": kept}, {"id": fake.snowflake()}]}
    )
    assert refused(status, answer, "ATTACHMENT_NOT_FOUND"), answer
    assert [a.id for a in fake.messages[posted["id"]].attachments] == [kept]
