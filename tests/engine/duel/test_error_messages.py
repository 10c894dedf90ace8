"""Every IllegalMove code the duel engine can raise: provoked, and its message read.

A refusal must say what was wrong (the bad value) and what is allowed instead, because the bot
shows it to the player as it is. test_every_engine_code_has_a_test keeps this file complete.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from engine import duel
from engine.duel.state import State
from tests.engine.duel.kit import arrow, make, place, row
from tests.engine.duel.test_readme import engine_codes

HANDS = ((1, 2, 3, 4, 5), (10, 11, 12, 13, 14))
TESTED: set[str] = set()


def refused(state: State, seat: Any, move: Any, code: str, *says: str) -> str:
    before = duel.to_json(state)
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(state, seat, move)
    exc = info.value
    assert exc.code == code, str(exc)
    for text in says:
        assert text in str(exc), f"{text!r} not in {str(exc)!r}"
    assert duel.to_json(state) == before
    TESTED.add(code)
    return str(exc)


def raised(code: str, fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(duel.IllegalMove) as info:
        fn(*args, **kwargs)
    assert info.value.code == code, str(info.value)
    TESTED.add(code)
    return str(info.value)


def test_bad_players_bad_seed_bad_first() -> None:
    assert "exactly 2 players, not 3" in raised("bad_players", duel.new_game, 3, 1)
    assert "not True" in raised("bad_players", duel.new_game, True, 1)
    assert "whole number, not '7'" in raised("bad_seed", duel.new_game, 2, "7")
    msg = raised("bad_first", duel.new_game, 2, 1, first=2)
    assert "seat 1 or 2" in msg and "not 2" in msg


def test_bad_state() -> None:
    state = duel.new_game(2, 1)
    good = json.loads(duel.to_json(state))
    assert "engine 'duel-0'" in raised(
        "bad_state", duel.from_json, json.dumps({**good, "engine_version": "duel-0"})
    )
    assert "not a saved Nautilus duel" in raised("bad_state", duel.from_json, "[1, 2]")
    assert "not a saved" in raised("bad_state", duel.from_json, "{not json")
    lost = {**good, "diver_deck": good["diver_deck"][1:]}
    assert "14 divers do not add up" in raised("bad_state", duel.from_json, json.dumps(lost))
    wrong = {**good, "round": True}
    assert "whole number" in raised("bad_state", duel.from_json, json.dumps(wrong))


def test_bad_seat_and_not_your_turn_and_game_over() -> None:
    state = make(hands=HANDS)
    msg = refused(state, 2, place(1, 0, 0), "bad_seat", "no seat 2", "0 and 1")
    assert msg
    refused(state, True, place(1, 0, 0), "bad_seat", "no seat True")
    msg = refused(state, 1, place(10, 0, 0), "not_your_turn")
    assert msg == "It is not seat 2's turn; seat 1 must decide now (a card must be placed)."
    over = duel.new_game(2, 3)
    while not duel.is_over(over):
        seat = over.turn
        over, _ = duel.apply(over, seat, duel.legal_moves(over, seat)[0])
    refused(over, 0, place(1, 0, 0), "game_over", "The game is over", "final scores")


def test_malformed_unknown_type_not_now() -> None:
    state = make(hands=HANDS)
    refused(state, 0, "place 1", "malformed", "JSON object with a 'type'")
    msg = refused(state, 0, {"type": "place", "card": 1}, "malformed", "missing side, slot")
    assert "optionally anchor" in msg
    refused(state, 0, {**place(1, 0, 0), "x": 1}, "malformed", "unexpected x")
    refused(state, 0, place(True, 0, 0), "malformed", "'card' must be a whole number", "True")
    refused(state, 0, place(1, "0", 0), "malformed", "'side' must be a whole number")
    refused(state, 0, place(1, 0, 1.0), "malformed", "'slot'")
    refused(state, 0, {"type": "pass"}, "unknown_type", "'pass'", "keep, eye, dive")
    refused(state, 0, {"type": "eye"}, "not_now", "'eye' move is not possible now", "'place'")


def test_keep_codes() -> None:
    state = make(hands=HANDS, step="keep", drawn=("eye", "kraken"))
    refused(state, 0, {"type": "keep", "special": "crab"}, "unknown_special", "'eye' or 'kraken'")
    refused(state, 0, {"type": "keep", "special": 3}, "unknown_special", "3 is not a special")
    msg = refused(state, 0, {"type": "keep", "special": "anchor"}, "not_drawn")
    assert msg == "You did not draw the anchor; keep 'eye' or 'kraken'."


def test_dive_not_drawn() -> None:
    state = make(hands=HANDS, step="dive", module=(6, 7), played=((0, "diving_module"),))
    msg = refused(state, 0, {"type": "dive", "keep": 8}, "not_drawn")
    assert msg == "The diving module did not draw 8; keep 6, 7."


def test_not_in_hand() -> None:
    state = make(hands=HANDS, specials=("anchor", None))
    msg = refused(state, 0, place(10, 0, 0), "not_in_hand")
    assert msg == "You do not hold the 10; you can place 1, 2, 3, 4, 5."
    refused(state, 0, place(15, 0, 0), "not_in_hand", "the kraken")
    harpoon = make(
        hands=((1, 2, 3, 4, 5), (10, 11, 12, 13)),
        step="harpoon",
        harpooned=14,
        played=((0, "harpoon"),),
        turn=0,
    )
    msg = refused(harpoon, 0, {"type": "harpoon", "give": 10}, "not_in_hand")
    assert "give one of your divers (1, 2, 3, 4, 5) to keep the 14, or give the 14 back" in msg


def test_bad_card_and_bad_space() -> None:
    state = make(hands=HANDS)
    msg = refused(state, 0, place(16, 0, 0), "bad_card", "16 is not a card value")
    assert "1 to 14 (divers), 0 (the fishbone) and 15 (the kraken)" in msg
    refused(state, 0, place(10**30, 0, 0), "bad_card", str(10**30))
    refused(state, 0, place(1, 0, 0, anchor=-1), "bad_card", "-1")
    msg = refused(state, 0, place(1, 2, 0), "bad_space", "side 2, slot 0")
    assert "side is 0 or 1" in msg and "slot is 0 to 4" in msg
    refused(state, 0, place(1, 0, 5), "bad_space", "slot 5")


def test_space_taken() -> None:
    state = make(
        hands=((1, 2, 3, 4), (10, 11, 12, 13)),
        board=(row(5, None, None, None, None), row(14, None, None, None, None)),
    )
    msg = refused(state, 0, place(1, 1, 0), "space_taken", "Side 1, slot 0 already holds the 14")
    assert "the empty spaces are: side 0 slot 1," in msg


def test_anchor_codes() -> None:
    state = make(hands=HANDS)
    refused(state, 0, place(1, 0, 0, anchor=1), "no_anchor", "without 'anchor'")
    board = (row(5, None, None, None, None), row(14, None, None, None, None))
    held = make(hands=((1, 2, 3, 4), (10, 11, 12, 13)), specials=("anchor", None), board=board)
    msg = refused(held, 0, place(1, 0, 1, anchor=12), "bad_anchor_target")
    assert msg.endswith("not on the 12; choose 1, 5, 14.")


def test_arrow_codes() -> None:
    # The 9 on side 0 with the 5 anchored: the 3 or the 4 may cross.
    board = (row(3, 4, 5, None, None), row(None, None, None, None, 13))
    state = make(hands=((1, 9), (10, 11)), board=board, anchored=5, turn=0)
    state, _ = duel.apply(state, 0, place(9, 0, 3))
    assert state.step == "arrow"
    moves = "the moves are: 3 to side 1 slot 0; 4 to side 1 slot 1."
    refused(state, 0, arrow(9, 1, 3), "not_movable", "The 9 cannot be moved by the 9", moves)
    refused(state, 0, arrow(13, 0, 4), "not_movable", "only another card on side 0", moves)
    refused(state, 0, arrow(5, 1, 2), "anchored", "The 5 is anchored", moves)
    refused(state, 0, arrow(3, 1, 2), "bad_destination", "straight across the Nautilus", moves)
    refused(state, 1, arrow(3, 1, 0), "not_your_turn")


def _provoked_here() -> set[str]:
    """The codes this file's tests provoke: the `code` argument of every `refused(...)` and
    `raised(...)` call, read from the source, so the check does not depend on which tests ran
    before it (in any order, on any worker)."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            at = {"refused": 3, "raised": 0}.get(node.func.id)
            if at is not None and len(node.args) > at:
                arg = node.args[at]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    codes.add(arg.value)
    return codes


def test_every_engine_code_has_a_test() -> None:
    provoked = _provoked_here()
    # The helpers record what really ran; what ran in this process must be among the codes read.
    assert provoked >= TESTED
    missing = engine_codes() - provoked
    assert not missing, f"codes without a test: {sorted(missing)}"
