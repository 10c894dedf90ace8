"""Every IllegalMove code the engine can raise: provoked, and its message read.

A refusal must say what was wrong (the bad value) and what is possible instead, because the bot
shows it to the player as it is. test_every_engine_code_has_a_test keeps this file complete: a new
code in the engine fails it until a test here provokes the code.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine import nauticus
from engine.nauticus import data
from engine.nauticus.state import Pending, Player, Ship, State

ENGINE = Path(nauticus.__file__).parent


# --- builders ----------------------------------------------------------------------------------


def refused(state: State, seat: Any, move: Any, code: str, *says: str) -> str:
    """Apply a move that must be refused with `code`; check the message and that nothing moved."""
    before = nauticus.to_json(state)
    with pytest.raises(nauticus.IllegalMove) as info:
        nauticus.apply(state, seat, move)
    exc = info.value
    assert exc.code == code, str(exc)
    for text in says:
        assert text in str(exc), f"{text!r} not in {str(exc)!r}"
    assert nauticus.to_json(state) == before
    return str(exc)


def me(state: State, seat: int = 0, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def supply(state: State, **counts: int) -> State:
    s = list(state.supply)
    for item, n in counts.items():
        s[data.ITEM_INDEX[item]] = n
    return replace(state, supply=tuple(s))


def at(action: str, space: int = 3, **changes: Any) -> State:
    """A 3-player game where seat 0 has just chosen `action` lying on `space` (anchor on 0).

    Space 3 prices its slots 1, 2, 3, 0 (bow 1, middle 2, stern 3, one-ship 0), has the 2 VP
    bonus and 3 blue workers.
    """
    state = nauticus.new_game(3, 1)
    tiles = list(state.tiles)
    j = tiles.index(action)
    tiles[j], tiles[space] = tiles[space], tiles[j]
    state = me(replace(state, tiles=tuple(tiles)), **changes)
    state, _ = nauticus.apply(state, 0, {"type": "choose_action", "space": space})
    return state


def reward_pending(taken: tuple[str, ...] = (), **changes: Any) -> State:
    state = at("transport", ships=(ship_(),), **changes)
    assert state.turn is not None
    turn = replace(state.turn, pending=(Pending("reward", ship=0, left=2, taken=taken),))
    return replace(state, turn=turn)


def ship_(
    hulls: str = "bow stern",
    masts: str = "- -",
    sails: str = "- -",
    goods: str = "- -",
) -> Ship:
    def row(spec: str) -> tuple[str | None, ...]:
        return tuple(None if x == "-" else x for x in spec.split())

    return Ship(tuple(hulls.split()), row(masts), row(sails), row(goods))


@cache
def finished_game() -> State:
    state = nauticus.new_game(2, 3)
    rng = random.Random(3)
    while state.step != "over":
        seat = state.current
        assert seat is not None
        state, _ = nauticus.apply(state, seat, rng.choice(nauticus.legal_moves(state, seat)))
    return state


def player(state: State, seat: int = 0) -> Player:
    return state.players[seat]


# --- the registry: every code the engine raises, and the tests that provoke it -----------------


def _engine_codes() -> set[str]:
    codes: set[str] = set()
    # engine/common.py checks every game's move shapes: its codes are this game's too.
    for path in (*ENGINE.glob("*.py"), ENGINE.parent / "common.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            first = node.args[0]
            for leaf in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):
                assert isinstance(leaf, ast.Constant), ast.dump(first)
                codes.add(str(leaf.value))
    return codes


TESTED: dict[str, list[str]] = {}


F = TypeVar("F", bound=Callable[..., None])


def provokes(*codes: str) -> Callable[[F], F]:
    def mark(fn: F) -> F:
        for code in codes:
            TESTED.setdefault(code, []).append(fn.__name__)
        return fn

    return mark


def test_every_engine_code_has_a_test() -> None:
    codes = _engine_codes()
    assert len(codes) >= 30
    assert sorted(codes - set(TESTED)) == []
    assert sorted(set(TESTED) - codes) == []


# --- new game, loading, seats, turn order ------------------------------------------------------


@provokes("bad_players")
@pytest.mark.parametrize("players", [1, 5, 0, "3", True])
def test_bad_players(players: Any) -> None:
    with pytest.raises(nauticus.IllegalMove) as info:
        nauticus.new_game(players, 1)
    assert info.value.code == "bad_players"
    assert f"not {players!r}" in str(info.value)
    assert "2 to 4 players" in str(info.value)


@provokes("bad_seed")
def test_bad_seed() -> None:
    with pytest.raises(nauticus.IllegalMove) as info:
        nauticus.new_game(3, "abc")  # type: ignore[arg-type]
    assert info.value.code == "bad_seed"
    assert "'abc'" in str(info.value)
    assert "whole number" in str(info.value)


@provokes("bad_state")
def test_bad_state_names_versions_and_garbage() -> None:
    saved = nauticus.to_json(nauticus.new_game(2, 1))
    old = saved.replace(nauticus.ENGINE_VERSION, "nauticus-0")
    with pytest.raises(nauticus.IllegalMove) as info:
        nauticus.from_json(old)
    assert info.value.code == "bad_state"
    assert "'nauticus-0'" in str(info.value)
    assert repr(nauticus.ENGINE_VERSION) in str(info.value)
    for text in ("", "[1, 2]", "{", saved.replace('"seed"', '"sead"')):
        with pytest.raises(nauticus.IllegalMove) as info:
            nauticus.from_json(text)
        assert info.value.code == "bad_state"
        assert "not a saved Nauticus game" in str(info.value) or "engine" in str(info.value)


@provokes("bad_seat")
@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0", None, 1.0])
def test_bad_seat(seat: Any) -> None:
    state = nauticus.new_game(3, 1)
    assert (
        refused(
            state, seat, {"type": "choose_action", "space": 0}, "bad_seat", repr(seat), "0 to 2"
        )
        == f"There is no seat {seat!r}; seats are 0 to 2."
    )


@provokes("not_your_turn")
def test_out_of_turn_names_both_seats() -> None:
    state = nauticus.new_game(3, 1)
    assert (
        refused(
            state, 2, {"type": "choose_action", "space": 0}, "not_your_turn", "seat 3", "seat 1"
        )
        == "It is not seat 3's turn; seat 1 must decide now."
    )
    later = at("money")
    assert (
        refused(later, 1, {"type": "money", "workers": 1}, "not_your_turn", "seat 2", "seat 1 must")
        == "It is not seat 2's turn; seat 1 must decide now."
    )


@provokes("game_over")
def test_game_over_refuses_every_move_and_seat() -> None:
    state = finished_game()
    assert state.step == "over"
    for seat in (0, 1):
        assert nauticus.legal_moves(state, seat) == []
        refused(state, seat, {"type": "end_turn"}, "game_over", "game is over")
        refused(state, seat, {"type": "choose_action", "space": 0}, "game_over", "no more moves")


# --- move shape --------------------------------------------------------------------------------


@provokes("malformed")
def test_malformed_moves() -> None:
    state = at("money")
    assert (
        refused(state, 0, "pass", "malformed", "'pass'", "JSON object with a 'type'")
        == "A move must be a JSON object with a 'type', not 'pass'."
    )
    assert (
        refused(state, 0, ["pass"], "malformed", "['pass']")
        == "A move must be a JSON object with a 'type', not ['pass']."
    )
    assert (
        refused(state, 0, {"type": "money"}, "malformed", "'money' move takes workers", "missing")
        == "A 'money' move takes workers: missing workers."
    )
    assert (
        refused(
            state,
            0,
            {"type": "end_turn", "now": 1},
            "malformed",
            "takes no fields",
            "unexpected now",
        )
        == "A 'end_turn' move takes no fields: unexpected now."
    )
    assert (
        refused(
            reward_pending(),
            0,
            {"type": "reward", "kind": "vp", "goods": ["coffee"]},
            "malformed",
            "Only the goods reward takes 'goods'",
            "'vp'",
        )
        == "Only the goods reward takes 'goods'; 'vp' does not."
    )


@provokes("unknown_type")
def test_unknown_type_lists_the_types() -> None:
    state = nauticus.new_game(2, 1)
    assert refused(
        state, 0, {"type": "sail"}, "unknown_type", "'sail'", "choose_action", "end_turn"
    ) == (
        "Unknown move type 'sail'; the move types are: choose_action, take_bonus, buy, "
        "take_free_tile, transport, money, crowns, deliver, reward, extra, end_extra, pass, "
        "end_turn."
    )
    assert refused(state, 0, {"space": 1}, "unknown_type", "None", "take_bonus") == (
        "Unknown move type None; the move types are: choose_action, take_bonus, buy, "
        "take_free_tile, transport, money, crowns, deliver, reward, extra, end_extra, pass, "
        "end_turn."
    )


@provokes("not_now")
def test_not_now_says_what_is_possible() -> None:
    state = nauticus.new_game(2, 1)
    assert (
        refused(
            state, 0, {"type": "pass"}, "not_now", "can't pass now", "you can: choose an action"
        )
        == "You can't pass now; you can: choose an action."
    )
    buying = at("hulls")
    assert (
        refused(
            buying,
            0,
            {"type": "money", "workers": 1},
            "not_now",
            "can't take money now",
            "buy, pass, start the extra action or end your turn",
        )
        == "You can't take money now; you can: buy, pass, start the extra action or end your turn."
    )


# --- choosing, bonus ---------------------------------------------------------------------------


@provokes("bad_space", "space_taken")
def test_bad_and_taken_spaces() -> None:
    state = nauticus.new_game(2, 1)
    refused(
        state,
        0,
        {"type": "choose_action", "space": 8},
        "bad_space",
        "Space 8 does not exist",
        "0, 1, 2, 3, 4, 5, 6, 7",
    )
    refused(state, 0, {"type": "choose_action", "space": "3"}, "bad_space", "'3'")
    state = at("money", space=3)
    state, _ = nauticus.apply(state, 0, {"type": "end_turn"})
    state, _ = nauticus.apply(state, 1, {"type": "end_turn"})
    state, _ = nauticus.apply(state, 2, {"type": "end_turn"})
    assert state.step == "choose" and state.start == 1
    refused(
        state,
        1,
        {"type": "choose_action", "space": 3},
        "space_taken",
        "Space 3 has already been played",
        "0, 1, 2, 4, 5, 6, 7",
    )


@provokes("unknown_item", "crown_not_allowed", "wrong_item", "empty_stack")
def test_bonus_tile_refusals() -> None:
    state = at("money", space=1)  # bonus: 1 mast of the player's choice
    assert state.step == "bonus"
    masts = "mast_whale, mast_anchor_ship, mast_helm, mast_tower"
    refused(state, 0, {"type": "take_bonus", "item": "mast"}, "unknown_item", "'mast'", masts)
    refused(
        state,
        0,
        {"type": "take_bonus", "item": "mast_crown"},
        "crown_not_allowed",
        "Crown mast can't be a bonus",
        masts,
    )
    refused(
        state,
        0,
        {"type": "take_bonus", "item": "coffee"},
        "wrong_item",
        "coffee is not possible for the bonus",
        masts,
    )
    empty = supply(state, mast_helm=0)
    refused(
        empty,
        0,
        {"type": "take_bonus", "item": "mast_helm"},
        "empty_stack",
        "Helm mast stack is empty",
        "mast_whale, mast_anchor_ship, mast_tower",
    )


@provokes("wrong_item", "empty_stack")
def test_free_tile_refusals() -> None:
    state = at("hulls")
    assert state.turn is not None
    turn = replace(state.turn, pending=(Pending("free_tile", items=data.HULLS),))
    state = supply(replace(state, turn=turn), middle=0)
    refused(
        state,
        0,
        {"type": "take_free_tile", "item": "middle"},
        "empty_stack",
        "middle stack is empty",
        "bow, stern, one_ship",
    )
    refused(
        state,
        0,
        {"type": "take_free_tile", "item": "coffee"},
        "wrong_item",
        "coffee is not possible for the free tile",
        "bow, stern, one_ship",
    )


# --- buying ------------------------------------------------------------------------------------


@provokes("crown_not_allowed", "wrong_item", "unknown_item")
def test_buy_wrong_items() -> None:
    masts = at("masts")
    assert refused(
        masts,
        0,
        {"type": "buy", "item": "mast_crown", "to": "storage"},
        "crown_not_allowed",
        "Crown masts and sails can't be bought",
        "mast_whale, mast_anchor_ship, mast_helm, mast_tower",
    ) == (
        "Crown masts and sails can't be bought, only received as rewards; Masts sells: "
        "mast_whale, mast_anchor_ship, mast_helm, mast_tower."
    )
    hulls = at("hulls")
    assert (
        refused(
            hulls,
            0,
            {"type": "buy", "item": "coffee", "to": "storage"},
            "wrong_item",
            "Hulls doesn't sell coffee",
            "bow, middle, stern, one_ship",
        )
        == "Hulls doesn't sell coffee; it sells: bow, middle, stern, one_ship."
    )
    assert (
        refused(
            hulls,
            0,
            {"type": "buy", "item": "boat", "to": "storage"},
            "unknown_item",
            "'boat' is not an item",
            "bow, middle, stern, one_ship",
        )
        == "'boat' is not an item; Hulls can be: bow, middle, stern, one_ship."
    )


@provokes("empty_stack")
def test_buy_from_empty_stack() -> None:
    state = supply(at("hulls"), bow=0)
    refused(
        state,
        0,
        {"type": "buy", "item": "bow", "to": "storage"},
        "empty_stack",
        "bow stack is empty",
        "middle, stern, one_ship",
    )
    assert {"type": "buy", "item": "bow", "to": "storage"} not in nauticus.legal_moves(state, 0)


@provokes("cannot_afford")
def test_cannot_afford_names_price_and_purse() -> None:
    state = at("hulls", taler=2)  # +2 VP bonus only; stern costs 3 on space 3
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "stern", "to": "storage"},
            "cannot_afford",
            "stern costs 3 taler here and you have 2",
        )
        == "A stern costs 3 taler here and you have 2."
    )
    state, _ = nauticus.apply(state, 0, {"type": "buy", "item": "bow", "to": "storage"})
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "bow", "to": "storage"},
            "cannot_afford",
            "bow costs 4 taler here and you have 1",
        )
        == "A bow costs 4 taler here and you have 1."
    )


@provokes("no_workers")
def test_no_workers_for_a_purchase() -> None:
    state = at("hulls", workers=0)
    assert state.turn is not None
    state = replace(state, turn=replace(state.turn, blue=0))
    refused(
        state,
        0,
        {"type": "buy", "item": "bow", "to": "storage"},
        "no_workers",
        "Buying needs 1 worker",
        "0 blue and 0 own",
    )


@provokes("storage_full")
def test_storage_full_points_to_the_shipyard() -> None:
    full = ("coffee",) * 12
    state = at("hulls", storage=full)
    assert refused(
        state,
        0,
        {"type": "buy", "item": "bow", "to": "storage"},
        "storage_full",
        "12/12 units used",
        "no room for a bow",
        "Place it in your shipyard instead: a new ship",
    ) == (
        "Your storage has 12/12 units used: no room for a bow. Place it in your shipyard "
        "instead: a new ship."
    )


@provokes("free_to_storage")
def test_free_purchase_must_go_to_storage() -> None:
    state = at("hulls")  # one-ship costs 0 on space 3
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "one_ship", "to": {"ship": "new"}},
            "free_to_storage",
            "one-ship bought for 0 taler is free and must go to storage",
        )
        == "A one-ship bought for 0 taler is free and must go to storage (the golden rule)."
    )


# --- the shipyard ------------------------------------------------------------------------------


@provokes("bad_destination")
def test_bad_destinations() -> None:
    state = at("hulls", ships=(ship_("bow"),))
    hull_shape = "'storage', {'ship': 'new'} or {'ship': n, 'end': 'front'|'back'}"
    assert refused(
        state,
        0,
        {"type": "buy", "item": "stern", "to": {"ship": 0, "tile": 0}},
        "bad_destination",
        "{'ship': 0, 'tile': 0} is not a place for a stern",
        hull_shape,
    ) == (
        "{'ship': 0, 'tile': 0} is not a place for a stern; use 'storage', {'ship': 'new'} or "
        "{'ship': n, 'end': 'front'|'back'}."
    )
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "stern", "to": {"ship": 4, "end": "back"}},
            "bad_destination",
            "You have no ship #5",
            "a new ship, ship #1 (back)",
        )
        == "You have no ship #5; a stern can go on: a new ship, ship #1 (back)."
    )
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "bow", "to": {"ship": 0, "end": "back"}},
            "bad_destination",
            "A bow can't go at the back",
            "a new ship",
        )
        == "A bow can't go at the back of a ship; it can go on: a new ship."
    )
    masts = at("masts", ships=(ship_("bow stern"),))
    assert refused(
        masts,
        0,
        {"type": "buy", "item": "mast_helm", "to": {"ship": "new"}},
        "bad_destination",
        "is not a place for a Helm mast",
        "'storage' or {'ship': n, 'tile': i}",
    ) == (
        "{'ship': 'new'} is not a place for a Helm mast; use 'storage' or {'ship': n, 'tile': i}."
    )
    assert (
        refused(
            masts,
            0,
            {"type": "buy", "item": "mast_helm", "to": {"ship": 0, "tile": 2}},
            "bad_destination",
            "Ship #1 has no tile 3",
            "ship #1, tile 1, ship #1, tile 2",
        )
        == "Ship #1 has no tile 3; a Helm mast can go on: ship #1, tile 1, ship #1, tile 2."
    )
    moving = at("transport", storage=("mast_helm",), ships=(ship_("bow stern"),))
    assert (
        refused(
            moving,
            0,
            {"type": "transport", "item": "mast_helm", "to": "storage"},
            "bad_destination",
            "not back to storage",
        )
        == "Transport moves a Helm mast from storage into your shipyard, not back to storage."
    )


@provokes("hull_closed", "too_many_middles")
def test_hull_refusals() -> None:
    state = at("hulls", ships=(ship_("bow stern"), ship_("bow middle middle")))
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "middle", "to": {"ship": 0, "end": "front"}},
            "hull_closed",
            "Ship #1 is closed at the front",
            "a new ship",
        )
        == "Ship #1 is closed at the front; a middle can go on: a new ship."
    )
    assert (
        refused(
            state,
            0,
            {"type": "buy", "item": "middle", "to": {"ship": 1, "end": "back"}},
            "too_many_middles",
            "Ship #2 already has 2 middles",
            "a new ship",
        )
        == "Ship #2 already has 2 middles; a middle can go on: a new ship."
    )


@provokes("wrong_crest", "no_mast", "tile_occupied")
def test_mast_and_sail_refusals() -> None:
    yard = (ship_("bow stern", "helm -", "- -"),)
    masts = at("masts", ships=yard)
    assert refused(
        masts,
        0,
        {"type": "buy", "item": "mast_whale", "to": {"ship": 0, "tile": 1}},
        "wrong_crest",
        "can't place a Whale mast on ship #1: its crest is Helm",
        "It can go on: no place in your shipyard",
    ) == (
        "You can't place a Whale mast on ship #1: its crest is Helm (one crest per ship, crowns "
        "excepted). It can go on: no place in your shipyard."
    )
    assert (
        refused(
            masts,
            0,
            {"type": "buy", "item": "mast_helm", "to": {"ship": 0, "tile": 0}},
            "tile_occupied",
            "Tile 1 of ship #1 already has a mast",
            "ship #1, tile 2",
        )
        == "Tile 1 of ship #1 already has a mast; a Helm mast can go on: ship #1, tile 2."
    )
    sails = at("sails", ships=yard)
    assert (
        refused(
            sails,
            0,
            {"type": "buy", "item": "sail_helm", "to": {"ship": 0, "tile": 1}},
            "no_mast",
            "Tile 2 of ship #1 has no mast to carry a sail",
            "ship #1, tile 1",
        )
        == "Tile 2 of ship #1 has no mast to carry a sail; it can go on: ship #1, tile 1."
    )


@provokes("not_in_storage")
def test_transport_needs_the_tile_in_storage() -> None:
    state = at("transport", storage=("coffee", "stern"), ships=(ship_("bow"),))
    assert (
        refused(
            state,
            0,
            {"type": "transport", "item": "bow", "to": {"ship": "new"}},
            "not_in_storage",
            "You have no bow in storage",
            "you can transport: stern, coffee",
        )
        == "You have no bow in storage; you can transport: stern, coffee."
    )


# --- free actions ------------------------------------------------------------------------------


@provokes("bad_count", "no_workers")
def test_worker_counts() -> None:
    state = at("money", workers=2)  # 3 blue workers on space 3
    refused(state, 0, {"type": "money", "workers": 6}, "bad_count", "6 is not a number", "1 to 5")
    refused(state, 0, {"type": "crowns", "workers": 0}, "not_now")  # Money is the action here
    refused(state, 0, {"type": "money", "workers": True}, "bad_count", "True", "1 to 5")
    assert state.turn is not None
    empty = me(replace(state, turn=replace(state.turn, blue=0)), workers=0)
    refused(empty, 0, {"type": "money", "workers": 1}, "no_workers", "no worker left", "Money")


@provokes("bad_ship", "not_finished", "missing_goods")
def test_delivery_refusals() -> None:
    ready = ship_("one_ship", "whale", "whale", "salt")
    unfinished = ship_("bow stern", "whale whale", "whale -", "salt salt")
    empty = ship_("bow stern", "whale whale", "whale crown", "coffee -")
    state = at("deliver", ships=(ready, unfinished, empty))
    assert (
        refused(state, 0, {"type": "deliver", "ship": 7}, "bad_ship", "no ship 7", "ready", "#1")
        == "You have no ship 7; ships ready to deliver: #1."
    )
    assert (
        refused(
            state,
            0,
            {"type": "deliver", "ship": 1},
            "not_finished",
            "Ship #2 is not finished",
            "ships ready: #1",
        )
        == "Ship #2 is not finished, so it can't deliver; ships ready: #1."
    )
    assert (
        refused(
            state,
            0,
            {"type": "deliver", "ship": 2},
            "missing_goods",
            "Ship #3 has 1 goods for 2 hull tiles",
            "Ships ready: #1",
        )
        == "Ship #3 has 1 goods for 2 hull tiles; every tile needs a good. Ships ready: #1."
    )


@provokes("no_workers")
def test_delivery_needs_a_worker_per_good() -> None:
    big = ship_("bow stern", "whale whale", "whale whale", "salt fish")
    state = at("deliver", ships=(big,), workers=0)
    assert state.turn is not None
    state = replace(state, turn=replace(state.turn, blue=1))
    refused(
        state,
        0,
        {"type": "deliver", "ship": 0},
        "no_workers",
        "Delivering ship #1 needs 2 workers",
        "1 blue and 0 own",
    )


# --- rewards -----------------------------------------------------------------------------------


@provokes("unknown_reward", "reward_limit", "empty_stack", "bad_goods")
def test_reward_refusals() -> None:
    state = reward_pending(taken=("vp", "vp"))
    assert (
        refused(
            state,
            0,
            {"type": "reward", "kind": "gold"},
            "unknown_reward",
            "'gold' is not a reward",
            "crown_mast, crown_sail, taler, workers, goods",
        )
        == "'gold' is not a reward; you can choose: crown_mast, crown_sail, taler, workers, goods."
    )
    assert refused(
        state,
        0,
        {"type": "reward", "kind": "vp"},
        "reward_limit",
        "3 VP was already chosen twice",
        "crown_mast, crown_sail, taler, workers, goods",
    ) == (
        "3 VP was already chosen twice for this ship; you can choose: crown_mast, crown_sail, "
        "taler, workers, goods."
    )
    empty = supply(state, mast_crown=0)
    assert refused(
        empty,
        0,
        {"type": "reward", "kind": "crown_mast"},
        "empty_stack",
        "Crown mast can't be supplied: its stack is empty",
        "crown_sail, taler, workers, goods",
    ) == (
        "Crown mast can't be supplied: its stack is empty. You can choose: crown_sail, taler, "
        "workers, goods."
    )
    assert refused(
        state,
        0,
        {"type": "reward", "kind": "goods", "goods": ["coffee", "coffee"]},
        "bad_goods",
        "['coffee', 'coffee'] is not a choice",
        "coffee+grain",
        "fish+salt",
    ) == (
        "['coffee', 'coffee'] is not a choice of goods for this reward; choose one of: "
        "coffee+grain; coffee+fish; coffee+salt; grain+fish; grain+salt; fish+salt (when only "
        "one fits in storage, the first is kept)."
    )


# --- extra action ------------------------------------------------------------------------------


@provokes("unknown_action")
def test_unknown_extra_action() -> None:
    state = at("money")
    assert refused(
        state,
        0,
        {"type": "extra", "action": "fishing"},
        "unknown_action",
        "'fishing' is not an action",
        "hulls, masts, sails, goods, transport, money, deliver, crowns",
    ) == (
        "'fishing' is not an action; choose one of: hulls, masts, sails, goods, transport, "
        "money, deliver, crowns."
    )
