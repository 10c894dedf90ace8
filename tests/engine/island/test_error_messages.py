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
from tests.engine.island.kit import (
    acting,
    camp,
    empty_column,
    game,
    names,
    play,
    relocate,
    set_collection,
    store,
)

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
    # engine/common.py checks every game's move shapes: its codes are this game's too.
    for path in (*ENGINE.glob("*.py"), ENGINE.parent / "common.py"):
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


def raised(code: str, call: Any, *says: str) -> str:
    with pytest.raises(island.IllegalMove) as info:
        call()
    assert info.value.code == code, str(info.value)
    for text in says:
        assert text in str(info.value), f"{text!r} not in {str(info.value)!r}"
    return str(info.value)


def _round_two() -> island.State:
    state = game(3, 1)
    for seat, column in ((0, 1), (1, 3), (2, 4)):
        state, _ = play(state, seat, {"type": "place", "column": column}, {"type": "collect"})
    return state  # seat 2 (column 4) moves first


@provokes("bad_players", "bad_seed", "bad_first")
def test_bad_players_bad_seed_bad_first() -> None:
    assert (
        raised("bad_players", lambda: island.new_game(5, 1), "2 to 4 players, not 5")
        == "Nautilus Island is played by 2 to 4 players, not 5."
    )
    seed: Any = "x"
    assert (
        raised("bad_seed", lambda: island.new_game(3, seed), "whole number, not 'x'")
        == "The seed must be a whole number, not 'x'."
    )
    assert (
        raised("bad_first", lambda: island.new_game(3, 1, first=3), "seat from 0 to 2, not 3")
        == "The first player must be a seat from 0 to 2, not 3."
    )


@provokes("bad_state")
def test_bad_state() -> None:
    assert (
        raised("bad_state", lambda: island.from_json("[1, 2]"), "not a saved Nautilus Island game")
        == "This is not a saved Nautilus Island game: a saved game is a JSON object"
    )
    assert raised(
        "bad_state", lambda: island.from_json("{nope"), "not a saved Nautilus Island game"
    ) == (
        "This is not a saved Nautilus Island game: Expecting property name enclosed in "
        "double quotes: line 1 column 2 (char 1)"
    )
    text = island.to_json(game()).replace('"island-2"', '"island-0"')
    assert (
        raised("bad_state", lambda: island.from_json(text), "'island-0'", "'island-2'")
        == "This game was saved by engine 'island-0'; this engine reads 'island-2'."
    )
    # A game saved before the last-round rule (island-1) has the same shape: it is read and
    # goes on under the island-2 rules.
    old = island.to_json(game()).replace('"island-2"', '"island-1"')
    assert island.to_json(island.from_json(old)) == island.to_json(game())
    broken = island.to_json(game()).replace('"box":[', '"box":["food:ham:1",', 1)
    assert raised("bad_state", lambda: island.from_json(broken), "exactly one place") == (
        "This is not a saved Nautilus Island game: the 96 cards must each be in exactly one place"
    )


@provokes("bad_seat", "game_over", "not_your_turn")
def test_bad_seat_game_over_not_your_turn() -> None:
    state = game(3, 1)
    assert (
        refused(state, 3, {"type": "collect"}, "bad_seat", "no seat 3", "0 to 2")
        == "There is no seat 3; seats are 0 to 2."
    )
    assert (
        refused(state, True, {"type": "collect"}, "bad_seat", "no seat True")
        == "There is no seat True; seats are 0 to 2."
    )
    assert (
        refused(state, 1, {"type": "collect"}, "not_your_turn", "not seat 2's turn", "seat 1 must")
        == "It is not seat 2's turn; seat 1 must decide now."
    )
    over = replace(state, step="over", current=None)
    assert (
        refused(over, 0, {"type": "collect"}, "game_over", "game is over")
        == "The game is over; no more moves can be made."
    )


@provokes("malformed", "unknown_type")
def test_malformed_and_unknown_type() -> None:
    state = game(3, 1)
    assert (
        refused(state, 0, "collect", "malformed", "JSON object with a 'type'")
        == "A move must be a JSON object with a 'type', not 'collect'."
    )
    assert (
        refused(state, 0, {"type": "place"}, "malformed", "'place' move takes column", "missing")
        == "A 'place' move takes column: missing column."
    )
    assert (
        refused(
            state, 0, {"type": "collect", "column": 1}, "malformed", "no other field", "'column'"
        )
        == "A 'collect' move takes no other field: unexpected 'column'."
    )
    assert refused(
        state, 0, {"type": "jump"}, "unknown_type", "'jump'", "place, move, collect"
    ) == (
        "Unknown move type 'jump'; the move types are: place, move, collect, store, close, "
        "keep_open, idle."
    )
    assert refused(state, 0, {}, "unknown_type", "None") == (
        "Unknown move type None; the move types are: place, move, collect, store, close, "
        "keep_open, idle."
    )


@provokes("not_now")
def test_not_now() -> None:
    state = game(3, 1)
    assert (
        refused(state, 0, {"type": "collect"}, "not_now", "can't collect now", "place your pawn")
        == "You can't collect now; you can: place your pawn."
    )
    assert (
        refused(state, 0, {"type": "move", "column": 1}, "not_now", "move your pawn")
        == "You can't move your pawn now; you can: place your pawn."
    )
    state, _ = island.apply(state, 0, {"type": "place", "column": 0})
    assert (
        refused(state, 0, {"type": "close"}, "not_now", "can't close the collection", "collect")
        == "You can't close the collection now; you can: collect."
    )


@provokes("bad_column", "same_column", "column_taken", "empty_column")
def test_bad_column_same_column_column_taken_empty_column() -> None:
    state = _round_two()
    for bad in (-1, 5, 10**30, True, "1", 1.0, None):
        assert refused(
            state, 2, {"type": "move", "column": bad}, "bad_column", "0 (bow) to 4 (stern)"
        ) == (
            f"{bad!r} is not a column; columns are 0 (bow) to 4 (stern); you may choose: "
            "0, 1, 2, 3."
        )
    assert (
        refused(
            state, 2, {"type": "move", "column": 4}, "same_column", "faced column 4", "0, 1, 2, 3"
        )
        == "Your pawn faced column 4 last round; choose another: 0, 1, 2, 3."
    )
    state, _ = play(state, 2, {"type": "move", "column": 1}, {"type": "collect"})
    assert (
        refused(state, 1, {"type": "move", "column": 1}, "column_taken", "Seat 3's pawn", "0, 2, 4")
        == "Seat 3's pawn already faces column 1 below the Nautilus; choose a free column: 0, 2, 4."
    )
    state = empty_column(state, 0)
    assert refused(
        state, 1, {"type": "move", "column": 0}, "empty_column", "last round", "2, 4"
    ) == (
        "Column 0 has no cards left, and only in the last round may a pawn face an empty "
        "column; choose one with cards: 2, 4."
    )


@provokes("empty_column_no_store")
def test_empty_column_no_store() -> None:
    state = replace(empty_column(_round_two(), 0), last_round=True, end_triggered=True)
    state = _only_treasures(state, 2)
    assert refused(
        state, 2, {"type": "move", "column": 0}, "empty_column_no_store", "only to store", "1, 2, 3"
    ) == (
        "Column 0 has no cards left, and in the last round a pawn may face an empty column only "
        "to store, but you hold no card you may store; choose a column with cards: 1, 2, 3."
    )


def _only_treasures(state: island.State, seat: int) -> island.State:
    state = relocate(state, ("box",), *names(state.players[seat].hand))
    return relocate(state, ("hand", seat), "treasure:pearl:1")


@provokes("collect_empty", "cannot_idle")
def test_collect_empty_and_cannot_idle() -> None:
    state = empty_column(acting(3, 0, 2, hand=("food:ham:1",)), 2)
    state = replace(state, last_round=True, end_triggered=True)
    assert refused(
        state, 0, {"type": "collect"}, "collect_empty", "Column 2 has no cards", "store cards"
    ) == (
        "Column 2 has no cards left to collect; facing an empty column you may only store; "
        "you can: store cards."
    )
    full = acting(3, 0, 2, hand=("food:ham:1",))
    assert refused(
        full, 0, {"type": "idle"}, "cannot_idle", "empty column", "collect or store cards"
    ) == (
        "You may do nothing only when you face an empty column and have nothing you may "
        "store; you can: collect or store cards."
    )


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
    assert refused(
        state, 0, store("drinks", ham=1), "unknown_category", "'drinks'", "clothing"
    ) == (
        "'drinks' is not a category; the categories you may store are: clothing, navigation, "
        "repair, fishing, food."
    )
    assert refused(
        state, 0, store("treasure", coin=1), "treasure_not_storable", "never stored"
    ) == (
        "Treasure cards are never stored: they score from your hand at the end; store one "
        "of: clothing, navigation, repair, fishing, food."
    )
    closed = set_collection(state, 0, "repair", tokens=(), porthole=5)
    assert refused(
        closed, 0, store("repair", saw=1), "collection_closed", "repair collection is closed"
    ) == (
        "Your repair collection is closed and takes no more cards; open collections: "
        "clothing, navigation, fishing, food."
    )
    assert refused(
        state, 0, store("food", hat=1), "bad_objects", "'hat' is not an object of food"
    ) == (
        "'hat' is not an object of food; give 'objects' as {object: count} with objects of "
        "food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )
    assert refused(state, 0, store("food", ham=0), "bad_objects", "0 is not a number of ham") == (
        "0 is not a number of ham cards; give 'objects' as {object: count} with objects of "
        "food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )
    assert refused(state, 0, store("food", ham=True), "bad_objects", "True is not a number") == (
        "True is not a number of ham cards; give 'objects' as {object: count} with objects "
        "of food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )
    assert refused(
        state,
        0,
        {"type": "store", "category": "food", "objects": {}},
        "bad_objects",
        "bread, cheese, fruit, ham",
        "2 cards at most",
    ) == (
        "{} is not a set of cards to store; give 'objects' as {object: count} with objects "
        "of food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )
    assert refused(
        state,
        0,
        {"type": "store", "category": "food", "objects": ["ham"]},
        "bad_objects",
        "['ham'] is not a set of cards",
    ) == (
        "['ham'] is not a set of cards to store; give 'objects' as {object: count} with "
        "objects of food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )
    assert (
        refused(state, 0, store("food", ham=3), "too_many_cards", "2 stacks", "1 to 2 cards, not 3")
        == "Column 1 has 2 stacks, so you may store 1 to 2 cards, not 3."
    )
    assert (
        refused(state, 0, store("food", bread=1), "not_in_hand", "hold 0 bread cards", "ham ×2")
        == "You hold 0 bread cards, not 1; your food cards: ham ×2."
    )
    state = camp(state, food=None)
    assert refused(state, 0, store("food", ham=2, bread=0), "bad_objects") == (
        "0 is not a number of bread cards; give 'objects' as {object: count} with objects of "
        "food (bread, cheese, fruit, ham), counts from 1, 2 cards at most."
    )


def test_every_engine_code_has_a_test() -> None:
    codes = engine_codes()
    assert len(codes) == 23
    assert codes == TESTED, codes ^ TESTED
