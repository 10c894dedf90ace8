"""The client and its command tree: no privileged intents, commands synced once in setup_hook,
and the tree's schema pinned in a data file so that renaming a command or option is deliberate."""

from __future__ import annotations

import json
from pathlib import Path
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot.discord_app import commands
from bot.discord_app.client import GameClient, create_client, intents
from bot.discord_app.views import GameButton, GameSelect
from bot.games.nauticus import moves_map

SCHEMA = Path(__file__).parent / "data" / "discord_commands.json"


def _tree() -> app_commands.CommandTree[discord.Client]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    for group in commands.build_groups():
        tree.add_command(group)
    return tree


def test_the_command_tree_matches_the_pinned_schema() -> None:
    # To rename on purpose: regenerate the file with commands.schema() and review the diff.
    assert commands.schema(_tree()) == json.loads(SCHEMA.read_text())


def test_move_commands_take_the_options_moves_map_reads() -> None:
    by_name = {c["command"]: c["options"] for c in commands.schema(_tree())}
    types = {"int": "integer", "str": "string", "bool": "boolean"}
    for spec in moves_map.MOVE_COMMANDS:
        options = by_name[f"nauticus {spec.name}"]
        assert [(o["name"], o["type"], o["required"]) for o in options] == [
            (o.name, types[o.type], o.required) for o in spec.options
        ]
        # Every option but the yes/no confirmation autocompletes from the legal moves.
        assert all(o["autocomplete"] == (o["name"] != "confirm") for o in options)


def test_no_group_is_offered_in_direct_messages() -> None:
    groups = _tree().get_commands()
    assert {g.name for g in groups} == {"nauticus", "island", "duel", "games", "settings"}
    assert all(isinstance(g, app_commands.Group) and g.guild_only for g in groups)


def test_every_group_keeps_room_below_discords_25_subcommands() -> None:
    for group in _tree().get_commands():
        assert isinstance(group, app_commands.Group)
        assert len(group.commands) <= commands.MAX_GROUP < 25, group.name


def test_no_privileged_intent_is_requested() -> None:
    wanted = intents()
    assert wanted.guilds
    assert not (wanted.members or wanted.presences or wanted.message_content)
    assert wanted.value == discord.Intents(guilds=True).value


@pytest.mark.parametrize("dev_guild", [None, 4242])
async def test_setup_hook_registers_components_and_syncs_once(dev_guild: int | None) -> None:
    service = MagicMock()
    client = GameClient(service, dev_guild_id=dev_guild, start_outbox=False)
    client.tree.sync = AsyncMock(return_value=[])  # type: ignore[method-assign]
    await client.setup_hook()
    if dev_guild is None:
        client.tree.sync.assert_awaited_once_with()
    else:
        client.tree.sync.assert_awaited_once_with(guild=discord.Object(id=dev_guild))
        assert client.tree.get_commands(guild=discord.Object(id=dev_guild))
    patterns = set(client._connection._view_store._dynamic_items)
    assert {
        GameButton.__discord_ui_compiled_template__,
        GameSelect.__discord_ui_compiled_template__,
    } <= patterns
    # Replies never ping anyone unless a message widens it.
    assert client.allowed_mentions is not None
    assert client.allowed_mentions.to_dict()["parse"] == []
    # Reconnects fire on_ready again, never setup_hook: on_ready must not sync.
    await client.on_ready()
    assert client.tree.sync.await_count == 1
    await client.close()


async def test_create_client_wires_the_configured_dev_guild(tmp_path: Path) -> None:
    from bot.config import Config
    from bot.store import Store

    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        config = Config(
            token=None, database_path=tmp_path / "bot.sqlite", dev_guild_id=77, log_level="INFO"
        )
        client = create_client(config=config, store=store)
        assert client.dev_guild_id == 77 and client.service.store is store
        await client.close()
    finally:
        await store.close()
