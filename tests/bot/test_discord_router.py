"""The router's tables: every command of the tree and every kind of custom id reaches a
handler, none is left over, and a click the tables do not know is refused, not dropped."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_app import ids, router, views
from bot.discord_app.app import GameApp
from bot.discord_app.commands import build_groups
from bot.discord_app.handlers import lobby, looking, play
from bot.games import GAMES
from bot.service import GameService
from bot.store import Store
from tests.bot.test_discord_support import CHANNEL, fake_itx

ANA, BEN = 101, 202


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store))
    finally:
        await store.close()


def _tree_commands() -> dict[str, set[str]]:
    """Group name -> the command names the router receives from it."""
    out: dict[str, set[str]] = {}
    for group in build_groups():
        prefix = "settings " if group.name == "settings" else ""
        out[group.name] = {prefix + c.name for c in group.commands}
    return out


def test_every_command_of_the_tree_has_a_route() -> None:
    unrouted = []
    for group, names in _tree_commands().items():
        plugin = GAMES.games.get(group)
        own = set() if plugin is None else {c.name for c in plugin.move_commands}
        if plugin is not None:
            own.add(plugin.hand_command)
        unrouted += [f"/{group} {n}" for n in sorted(names - set(router.COMMANDS) - own)]
    assert unrouted == []


def test_every_route_is_a_command_of_the_tree() -> None:
    in_tree = set().union(*_tree_commands().values())
    assert set(router.COMMANDS) - in_tree == set()


def test_the_routes_about_the_channels_game_are_the_game_groups_own() -> None:
    in_game = {name for name, route in router.COMMANDS.items() if route.in_game}
    assert in_game == {"board", "history", "undo"}


def test_every_custom_id_kind_has_exactly_one_handler() -> None:
    assert set(router.COMPONENTS) == set(ids.KINDS)
    assert router.COMPONENTS["w"] is router.COMPONENTS["ok"] is play.panel_click
    assert router.COMPONENTS["log"] is looking.log_click


def test_every_button_under_the_final_scores_and_in_the_lobby_has_a_handler() -> None:
    assert set(router.FINAL_BUTTONS) == {arg for arg, _, _ in views.FINAL_BUTTONS}
    posted = {ids.decode(c) for c in _custom_ids(views.lobby_view(1, 2))}
    assert {cid.arg for cid in posted if cid is not None} == set(lobby.LOBBY_BUTTONS)


def _custom_ids(view: object) -> list[str]:
    return [str(getattr(child, "custom_id", "")) for child in getattr(view, "children", [])]


async def test_a_final_button_with_an_unknown_argument_is_refused(app: GameApp) -> None:
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, ids.CustomId("end", 1, 1, "dance"))
    assert replies.text == "That button is not one of this bot's; nothing was done."
    assert replies.last[2]["ephemeral"] is True


async def test_a_lobby_button_with_an_unknown_argument_is_refused(app: GameApp) -> None:
    itx, _ = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "new", {}, game="duel")
    rec = await app.service.game_in(CHANNEL)
    assert rec is not None
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "dance"))
    assert replies.text == "That button is not known; open a fresh lobby."
    after = await app.service.game_in(CHANNEL)
    assert after is not None and [s.user_id for s in after.seats] == [ANA]


async def test_a_game_command_the_game_does_not_have_is_refused(app: GameApp) -> None:
    itx, _ = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "new", {}, game="duel")
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "buy", {}, game="duel")  # a Nauticus move, not a Duel one
    assert replies.text == "/duel buy is not a command."
