"""Malformed moves: hypothesis-generated JSON, thrown at states of every step.

Whatever arrives from a button, a slash command or a stored log, `apply` either plays a move that
`legal_moves` lists or raises IllegalMove, and a refusal changes nothing. Never a KeyError,
TypeError, IndexError, AttributeError, ... The profile is the derandomized "ci" one of
tests/conftest.py.
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import island
from engine.island import data, rules
from engine.island.state import State
from tests.engine.island.walk import playout

Move = dict[str, Any]
FIELDS = ("type", "column", "category", "objects")


def _category(state: State) -> str:
    if state.step != "act" or state.current is None:
        return state.step
    column = state.players[state.current].pawn.column
    assert column is not None
    return f"act {state.layout[column]}"


@functools.cache
def states() -> tuple[State, ...]:
    """One state of each step (and each column size when acting), from seeded playouts."""
    found: dict[str, State] = {}
    for seed in range(1, 30):
        for before, _, after, _ in playout(4, 80_000 + seed):
            found.setdefault(_category(before), before)
            found.setdefault(_category(after), after)
        if len(found) >= 7:
            break
    return tuple(found[k] for k in sorted(found))


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from([*data.CATEGORIES, *data.OBJECT_CATEGORY, *rules.MOVE_TYPES])
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
odd_objects = (
    st.dictionaries(
        st.sampled_from([*data.OBJECT_CATEGORY, "Ham", "", "ham "]),
        odd_ints | st.integers(-3, 5),
        max_size=4,
    )
    | json_values
)


def _templates(state: State, seat: int) -> list[Move]:
    return [
        *island.legal_moves(state, seat),
        {"type": "place", "column": 0},
        {"type": "move", "column": 1},
        {"type": "collect"},
        {"type": "store", "category": "food", "objects": {"ham": 1}},
        {"type": "store", "category": "clothing", "objects": {"hat": 2, "coat": 1}},
        {"type": "close"},
        {"type": "keep_open"},
        {"type": "idle"},
    ]


@st.composite
def near_valid(draw: st.DrawFn, state: State) -> tuple[int, Any]:
    """A valid-looking move with one to three fields broken."""
    seat = state.current if state.current is not None else 0
    move = dict(draw(st.sampled_from(_templates(state, seat))))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["value", "int", "objects", "drop", "add", "name"]))
        key = draw(st.sampled_from(sorted(move) if move and how != "add" else FIELDS))
        if how == "drop":
            move.pop(key, None)
        elif how == "int":
            move[key] = draw(odd_ints)
        elif how == "objects":
            move["objects"] = draw(odd_objects)
        elif how == "name":
            move[key] = draw(st.sampled_from(["Food", "treasure", "food ", "", "pearl", "ham"]))
        else:
            move[key] = draw(odd_values)
    return seat, move


CLEAN = ("refused", "played a listed move")


def _outcome(state: State, seat: Any, move: Any) -> str:
    """What `apply` did with the move: one of CLEAN, or what went wrong, in words."""
    before = island.to_json(state)
    try:
        island.apply(state, seat, move)
    except island.IllegalMove as exc:
        if not (exc.code and str(exc)):
            return "refused without a code or a reason"
        if island.to_json(state) != before:
            return "refused but the state changed"
        return "refused"
    # Accepted: then it must be a move legal_moves offers, to the letter.
    if move not in island.legal_moves(state, seat):
        return f"accepted the unlisted move {move!r}"
    return "played a listed move"


def test_states_cover_every_step() -> None:
    cats = {_category(s) for s in states()}
    assert {"place", "move", "close", "act 1", "act 2", "act 3"} <= cats


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
    move = {"type": data_.draw(st.sampled_from([*sorted(rules.MOVE_TYPES), "store "]))}
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
    move = data_.draw(st.sampled_from(_templates(state, 0)))
    outcome = _outcome(state, seat, move)
    assert outcome in CLEAN, outcome


@given(st.data(), json_values | st.dictionaries(st.sampled_from(FIELDS), odd_values, max_size=4))
def test_describe_never_raises(data_: st.DataObject, move: Any) -> None:
    state = data_.draw(st.sampled_from(states()))
    if isinstance(move, dict) and data_.draw(st.booleans()):
        move["type"] = data_.draw(st.sampled_from(sorted(rules.MOVE_TYPES)))
    for line in (island.describe(move), island.describe(move, state)):
        assert isinstance(line, str) and line


@given(json_values | st.text(max_size=40))
def test_from_json_refuses_anything_else_cleanly(value: Any) -> None:
    import json

    text = value if isinstance(value, str) else json.dumps(value)
    try:
        island.from_json(text)
    except island.IllegalMove as exc:
        assert exc.code == "bad_state"
