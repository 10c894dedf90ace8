"""Discord's application command limits in the fake: a command tree sync (bulk overwrite) that
breaks one is refused with 400/50035 and stores nothing; the same tree at the limit is stored."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import World
from tests.e2e.test_fake_rules import Api, error_codes


@pytest.fixture
async def api(world: World) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(world.fake, session)


def sub(name: str, options: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"name": name, "description": "d", "type": 1, "options": options or []}


def group(name: str, subs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "description": "d", "type": 2, "options": subs}


def opt(name: str, kind: int = 3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "d", "type": kind, **extra}


def command(options: list[dict[str, Any]], name: str = "game") -> dict[str, Any]:
    return {"name": name, "description": "Play", "options": options}


def choices(n: int) -> list[dict[str, Any]]:
    return [{"name": f"c{i}", "value": f"c{i}"} for i in range(n)]


# (name, tree at the limit, the same tree one step past it, Discord's error code)
TREE_CASES = [
    (
        "25 subcommands per command",
        [command([sub(f"s{i}") for i in range(25)])],
        [command([sub(f"s{i}") for i in range(26)])],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "25 subcommand groups per command",
        [command([group(f"g{i}", [sub("x")]) for i in range(25)])],
        [command([group(f"g{i}", [sub("x")]) for i in range(26)])],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "25 subcommands per group",
        [command([group("admin", [sub(f"s{i}") for i in range(25)])])],
        [command([group("admin", [sub(f"s{i}") for i in range(26)])])],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "25 options per subcommand",
        [command([sub("new", [opt(f"o{i}") for i in range(25)])])],
        [command([sub("new", [opt(f"o{i}") for i in range(26)])])],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "25 choices in a subcommand's option",
        [command([sub("new", [opt("size", choices=choices(25))])])],
        [command([sub("new", [opt("size", choices=choices(26))])])],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "choice name 100",
        [command([opt("q", choices=[{"name": "n" * 100, "value": "v"}])])],
        [command([opt("q", choices=[{"name": "n" * 101, "value": "v"}])])],
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "option name 32",
        [command([sub("new", [opt("o" * 32)])])],
        [command([sub("new", [opt("o" * 33)])])],
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "subcommand name 32",
        [command([sub("s" * 32)])],
        [command([sub("s" * 33)])],
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "option description 100",
        [command([sub("new", [{**opt("o"), "description": "d" * 100}])])],
        [command([sub("new", [{**opt("o"), "description": "d" * 101}])])],
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "command name 32",
        [command([], name="c" * 32)],
        [command([], name="c" * 33)],
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "100 chat-input commands",
        [command([], name=f"c{i}") for i in range(100)],
        [command([], name=f"c{i}") for i in range(101)],
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "a subcommand holds no subcommands",
        [command([sub("a", [opt("x")])])],
        [command([sub("a", [sub("b")])])],
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    (
        "a group holds only subcommands",
        [command([group("admin", [sub("ping")])])],
        [command([group("admin", [opt("x")])])],
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    (
        "choices only on strings and numbers",
        [command([opt("n", 4, choices=[{"name": "one", "value": 1}])])],
        [command([opt("n", 5, choices=[{"name": "yes", "value": True}])])],
        "APPLICATION_COMMAND_OPTIONS_CHOICES_INVALID",
    ),
    (
        "max_length 6000",
        [command([opt("t", min_length=0, max_length=6000)])],
        [command([opt("t", min_length=0, max_length=6001)])],
        "NUMBER_TYPE_MAX",
    ),
    (
        "min_value only on numbers",
        [command([opt("n", 4, min_value=1, max_value=5)])],
        [command([opt("n", 3, min_value=1)])],
        "APPLICATION_COMMAND_OPTION_INVALID",
    ),
    (
        "autocomplete only on strings and numbers",
        [command([opt("q", 3, autocomplete=True)])],
        [command([opt("q", 5, autocomplete=True)])],
        "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID",
    ),
    (
        "context menus take no options",
        [{"name": "Inspect", "type": 2}],
        [{"name": "Inspect", "type": 2, "options": [opt("x")]}],
        "APPLICATION_COMMAND_OPTIONS_INVALID",
    ),
]


@pytest.mark.parametrize(("name", "ok", "bad", "code"), TREE_CASES, ids=[c[0] for c in TREE_CASES])
@pytest.mark.parametrize("scope", ["global", "guild"])
async def test_command_tree_limits(
    world: World, api: Api, scope: str, name: str, ok: Any, bad: Any, code: str
) -> None:
    fake = world.fake
    base = f"/applications/{fake.application_id}"
    path = f"{base}/commands" if scope == "global" else f"{base}/guilds/{world.guild.id}/commands"

    def stored() -> list[dict[str, Any]]:
        return fake.global_commands if scope == "global" else fake.guild_commands[world.guild.id]

    status, answer, _ = await api.call("PUT", path, ok)
    assert status == 200, (name, answer)
    assert [c["name"] for c in stored()] == [c["name"] for c in ok]
    status, answer, _ = await api.call("PUT", path, bad)
    assert (status, answer["code"]) == (400, 50035), name
    assert code in error_codes(answer), error_codes(answer)
    assert [c["name"] for c in stored()] == [c["name"] for c in ok], (
        "a refused sync changes nothing"
    )
