"""Malformed moves: hypothesis-generated JSON, thrown at states of every step.

Whatever arrives from a button, a slash command or a stored log, `apply` either plays a move that
`legal_moves` lists or raises IllegalMove, and a refusal changes nothing. Never a KeyError,
TypeError, IndexError, AttributeError, ...
"""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import nauticus
from engine.nauticus import data
from engine.nauticus.state import State
from tests.engine.policy import choose, game_rng, taste

Move = dict[str, Any]
FIELDS = ("type", "space", "item", "to", "workers", "ship", "kind", "goods", "action", "end")


def _category(state: State) -> str:
    turn = state.turn
    if state.step != "turn" or turn is None:
        return state.step
    if turn.pending:
        return turn.pending[0].kind
    if turn.extra is not None:
        return f"extra {turn.extra}"
    if turn.passed:
        return "after pass"
    return f"turn {state.action}"


@functools.cache
def states() -> tuple[State, ...]:
    """One state of each step and decision, from seeded playouts."""
    found: dict[str, State] = {}
    seed = 0
    while len(found) < 20 and seed < 40:
        seed += 1
        rng = game_rng(4, 90_000 + seed)
        t = taste(rng)
        state = nauticus.new_game(4, 90_000 + seed)
        while state.step != "over":
            found.setdefault(_category(state), state)
            seat = state.current
            assert seat is not None
            move = choose(rng, state, nauticus.legal_moves(state, seat), t)
            state, _ = nauticus.apply(state, seat, move)
        found.setdefault("over", state)
    return tuple(found[k] for k in sorted(found))


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from([*data.ITEMS, *data.ACTIONS, *data.REWARD_KINDS, "storage", "new", "front"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
odd_ints = st.sampled_from([True, False, -1, -(2**63), 2**63, 10**30, 0, 1.0, 2.5, "1", None])
odd_values = odd_ints | json_values
odd_dests = (
    st.fixed_dictionaries(
        {"ship": st.sampled_from(["new", 0, 1, -1, True, 99, "0", None])},
        optional={
            "end": st.sampled_from(["front", "back", "middle", 0, None, True]),
            "tile": odd_ints,
        },
    )
    | json_values
)


def _templates(state: State, seat: int) -> list[Move]:
    """Valid-looking moves of every type: the legal ones plus one of each shape."""
    return [
        *nauticus.legal_moves(state, seat),
        {"type": "choose_action", "space": 0},
        {"type": "take_bonus", "item": "mast_helm"},
        {"type": "buy", "item": "bow", "to": {"ship": 0, "end": "front"}},
        {"type": "buy", "item": "mast_whale", "to": {"ship": 0, "tile": 0}},
        {"type": "take_free_tile", "item": "coffee"},
        {"type": "transport", "item": "sail_tower", "to": {"ship": 0, "tile": 0}},
        {"type": "money", "workers": 1},
        {"type": "crowns", "workers": 2},
        {"type": "deliver", "ship": 0},
        {"type": "reward", "kind": "goods", "goods": ["coffee", "fish"]},
        {"type": "extra", "action": "money"},
        {"type": "end_extra"},
        {"type": "pass"},
        {"type": "end_turn"},
    ]


@st.composite
def near_valid(draw: st.DrawFn, state: State) -> tuple[int, Any]:
    """A valid-looking move with one to three fields broken."""
    seat = state.current if state.current is not None else 0
    move = dict(draw(st.sampled_from(_templates(state, seat))))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["value", "int", "dest", "drop", "add", "item"]))
        key = draw(st.sampled_from(sorted(move) if move and how != "add" else FIELDS))
        if how == "drop":
            move.pop(key, None)
        elif how == "int":
            move[key] = draw(odd_ints)
        elif how == "dest":
            move["to"] = draw(odd_dests)
        elif how == "item":
            move[key] = draw(st.sampled_from(["crown", "mast", "Bow", "mast_crown ", "", "salt"]))
        else:
            move[key] = draw(odd_values)
    return seat, move


CLEAN = ("refused", "played a listed move")


def _outcome(state: State, seat: Any, move: Any) -> str:
    """What `apply` did with the move: one of CLEAN, or what went wrong, in words."""
    before = nauticus.to_json(state)
    try:
        nauticus.apply(state, seat, move)
    except nauticus.IllegalMove as exc:
        if not (exc.code and str(exc)):
            return "refused without a code or a reason"
        if nauticus.to_json(state) != before:
            return "refused but the state changed"
        return "refused"
    # Accepted: then it must be a move legal_moves offers, to the letter.
    if move not in nauticus.legal_moves(state, seat):
        return f"accepted the unlisted move {move!r}"
    return "played a listed move"


def test_states_cover_every_step() -> None:
    cats = {_category(s) for s in states()}
    assert {"choose", "bonus", "reward", "free_tile", "over", "after pass"} <= cats
    assert any(c.startswith("extra ") for c in cats)
    assert {"turn hulls", "turn transport", "turn money", "turn crowns"} <= cats


@given(st.data(), json_values)
def test_arbitrary_json_is_refused_cleanly(data_: st.DataObject, move: Any) -> None:
    state = data_.draw(st.sampled_from(states()))
    seat = state.current if state.current is not None else 0
    outcome = _outcome(state, seat, move)
    # Only a JSON object can be a move: anything else is refused.
    wanted = CLEAN if isinstance(move, dict) else ("refused",)
    assert outcome in wanted, outcome


@given(st.data(), st.dictionaries(st.sampled_from(FIELDS), odd_values, max_size=4))
def test_json_objects_with_move_fields_are_refused_cleanly(
    data_: st.DataObject, fields: dict[str, Any]
) -> None:
    state = data_.draw(st.sampled_from(states()))
    seat = state.current if state.current is not None else 0
    move = {"type": data_.draw(st.sampled_from([*sorted(nauticus.rules.MOVE_TYPES), "buy "]))}
    move.update(fields)
    outcome = _outcome(state, seat, move)
    assert outcome in CLEAN, outcome


@given(st.data())
def test_near_valid_moves_are_refused_cleanly(data_: st.DataObject) -> None:
    state = data_.draw(st.sampled_from(states()))
    seat, move = data_.draw(near_valid(state))
    outcome = _outcome(state, seat, move)
    assert outcome in CLEAN, outcome


@given(st.data(), odd_values)
def test_bad_seats_are_refused_cleanly(data_: st.DataObject, seat: Any) -> None:
    state = data_.draw(st.sampled_from(states()))
    move = random.Random(0).choice(_templates(state, 0))
    outcome = _outcome(state, seat, move)
    assert outcome in CLEAN, outcome


@given(st.data(), json_values | st.dictionaries(st.sampled_from(FIELDS), odd_values, max_size=4))
def test_describe_never_raises(data_: st.DataObject, move: Any) -> None:
    # The bot describes moves from old logs and user input too: a line, never a crash.
    state = data_.draw(st.sampled_from(states()))
    if isinstance(move, dict) and data_.draw(st.booleans()):
        move["type"] = data_.draw(st.sampled_from(sorted(nauticus.rules.MOVE_TYPES)))
    if not isinstance(move, dict):
        move = {"type": "buy", "item": move, "to": move}
    for line in (nauticus.describe(move), nauticus.describe(move, state)):
        assert isinstance(line, str) and line
