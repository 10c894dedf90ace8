"""Every IllegalMove code the engine can raise: provoked, and its message read.

A refusal must say what was wrong (the bad value) and what is possible instead, because the bot
shows it to the player as it is. test_every_engine_code_has_a_test keeps this file complete.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine import island
from tests.engine.island.kit import acting, camp, empty_column, game, play, set_collection, store

ENGINE = Path(island.__file__).parent
TESTED: set[str] = set()  # filled at import by @provokes, so any test order works
F = TypeVar("F", bound=Callable[..., None])


def provokes(*codes: str) -> Callable[[F], F]:
    def mark(fn: F) -> F:
        TESTED.update(codes)
        return fn

    return mark


def engine_codes() -> set[str]:
    """Every code passed as the first argument of IllegalMove(...) in engine/island."""
    codes = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMove"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(str(node.args[0].value))
    return codes


def refused(state: island.State, seat: Any, move: Any, code: str, *says: str) -> str:
    before = island.to_json(state)
    with pytest.raises(island.IllegalMove) as info:
        island.apply(state, seat, move)
    exc = info.value
    assert exc.code == code, str(exc)
    for text in says:
        assert text in str(exc), f"{text!r} not in {str(exc)!r}"
    assert island.to_json(state) == before
    return str(exc)


def raised(code: str, call: Any, *says: str) -> None:
    with pytest.raises(island.IllegalMove) as info:
        call()
    assert info.value.code == code, str(info.value)
    for text in says:
        assert text in str(info.value), f"{text!r} not in {str(info.value)!r}"


def _round_two() -> island.State:
    state = game(3, 1)
    for seat, column in ((0, 1), (1, 3), (2, 4)):
        state, _ = play(state, seat, {"type": "place", "column": column}, {"type": "collect"})
    return state  # seat 2 (column 4) moves first


@provokes("bad_players", "bad_seed", "bad_first")
def test_bad_players_bad_seed_bad_first() -> None:
    raised("bad_players", lambda: island.new_game(5, 1), "2 to 4 players, not 5")
    seed: Any = "x"
    raised("bad_seed", lambda: island.new_game(3, seed), "whole number, not 'x'")
    raised("bad_first", lambda: island.new_game(3, 1, first=3), "seat from 0 to 2, not 3")


@provokes("bad_state")
def test_bad_state() -> None:
    raised("bad_state", lambda: island.from_json("[1, 2]"), "not a saved Nautilus Island game")
    raised("bad_state", lambda: island.from_json("{nope"), "not a saved Nautilus Island game")
    text = island.to_json(game()).replace('"island-1"', '"island-0"')
    raised("bad_state", lambda: island.from_json(text), "'island-0'", "'island-1'")
    broken = island.to_json(game()).replace('"box":[', '"box":["food:ham:1",', 1)
    raised("bad_state", lambda: island.from_json(broken), "exactly one place")


@provokes("bad_seat", "game_over", "not_your_turn")
def test_bad_seat_game_over_not_your_turn() -> None:
    state = game(3, 1)
    refused(state, 3, {"type": "collect"}, "bad_seat", "no seat 3", "0 to 2")
    refused(state, True, {"type": "collect"}, "bad_seat", "no seat True")
    refused(state, 1, {"type": "collect"}, "not_your_turn", "not seat 2's turn", "seat 1 must")
    over = replace(state, step="over", current=None)
    refused(over, 0, {"type": "collect"}, "game_over", "game is over")


@provokes("malformed", "unknown_type")
def test_malformed_and_unknown_type() -> None:
    state = game(3, 1)
    refused(state, 0, "collect", "malformed", "JSON object with a 'type'")
    refused(state, 0, {"type": "place"}, "malformed", "'place' move takes column", "missing")
    refused(state, 0, {"type": "collect", "column": 1}, "malformed", "no other field", "'column'")
    refused(state, 0, {"type": "jump"}, "unknown_type", "'jump'", "place, move, collect")
    refused(state, 0, {}, "unknown_type", "None")


@provokes("not_now")
def test_not_now() -> None:
    state = game(3, 1)
    refused(state, 0, {"type": "collect"}, "not_now", "can't collect now", "place your pawn")
    refused(state, 0, {"type": "move", "column": 1}, "not_now", "move your pawn")
    state, _ = island.apply(state, 0, {"type": "place", "column": 0})
    refused(state, 0, {"type": "close"}, "not_now", "can't close the collection", "collect")


@provokes("bad_column", "same_column", "column_taken", "empty_column")
def test_bad_column_same_column_column_taken_empty_column() -> None:
    state = _round_two()
    for bad in (-1, 5, 10**30, True, "1", 1.0, None):
        refused(state, 2, {"type": "move", "column": bad}, "bad_column", "0 (bow) to 4 (stern)")
    refused(state, 2, {"type": "move", "column": 4}, "same_column", "faced column 4", "0, 1, 2, 3")
    state, _ = play(state, 2, {"type": "move", "column": 1}, {"type": "collect"})
    refused(state, 1, {"type": "move", "column": 1}, "column_taken", "Seat 3's pawn", "0, 2, 4")
    state = empty_column(state, 0)
    refused(state, 1, {"type": "move", "column": 0}, "empty_column", "last round", "2, 4")


@provokes("collect_empty", "cannot_idle")
def test_collect_empty_and_cannot_idle() -> None:
    state = empty_column(acting(3, 0, 2, hand=("food:ham:1",)), 2)
    state = replace(state, last_round=True, end_triggered=True)
    refused(state, 0, {"type": "collect"}, "collect_empty", "Column 2 has no cards", "store cards")
    full = acting(3, 0, 2, hand=("food:ham:1",))
    refused(full, 0, {"type": "idle"}, "cannot_idle", "empty column", "collect or store cards")


@provokes(
    "unknown_category",
    "treasure_not_storable",
    "collection_closed",
    "bad_objects",
    "too_many_cards",
    "not_in_hand",
)
def test_store_refusals() -> None:
    state = acting(3, 0, 1, hand=("food:ham:1", "food:ham:2", "treasure:coin:1"))
    state = set_collection(state, 0, "repair", "repair:saw:1", "repair:saw:2", "repair:saw:3")
    state = replace(state, players=tuple(state.players))
    refused(state, 0, store("drinks", ham=1), "unknown_category", "'drinks'", "clothing")
    refused(state, 0, store("treasure", coin=1), "treasure_not_storable", "never stored")
    closed = set_collection(state, 0, "repair", tokens=(), porthole=5)
    refused(closed, 0, store("repair", saw=1), "collection_closed", "repair collection is closed")
    refused(state, 0, store("food", hat=1), "bad_objects", "'hat' is not an object of food")
    refused(state, 0, store("food", ham=0), "bad_objects", "0 is not a number of ham")
    refused(state, 0, store("food", ham=True), "bad_objects", "True is not a number")
    refused(
        state,
        0,
        {"type": "store", "category": "food", "objects": {}},
        "bad_objects",
        "bread, cheese, fruit, ham",
        "2 cards at most",
    )
    refused(
        state,
        0,
        {"type": "store", "category": "food", "objects": ["ham"]},
        "bad_objects",
        "['ham'] is not a set of cards",
    )
    refused(state, 0, store("food", ham=3), "too_many_cards", "2 stacks", "1 to 2 cards, not 3")
    refused(state, 0, store("food", bread=1), "not_in_hand", "hold 0 bread cards", "ham ×2")
    state = camp(state, food=None)
    refused(state, 0, store("food", ham=2, bread=0), "bad_objects")


def test_every_engine_code_has_a_test() -> None:
    codes = engine_codes()
    assert len(codes) == 22
    assert codes == TESTED, codes ^ TESTED
