"""Malformed moves: hypothesis-generated JSON, thrown at states of every step.

Whatever arrives from a button, a slash command or a stored log, `apply` either plays a move that
`legal_moves` lists or raises IllegalMove, and a refusal changes nothing. Never a KeyError,
TypeError, IndexError, AttributeError, ... (hypothesis runs derandomized: tests/conftest.py).
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import duel
from engine.duel import data, rules
from engine.duel.state import State
from tests.engine.duel.policy import choose, game_rng, taste

Move = dict[str, Any]
FIELDS = ("type", "special", "keep", "give", "card", "side", "slot", "anchor")


@functools.cache
def states() -> tuple[State, ...]:
    """One state of each step (and placing with the anchor, the kraken), from seeded playouts."""
    found: dict[str, State] = {}
    for seed in range(1, 40):
        rng = game_rng(80_000 + seed)
        t = taste(rng)
        state = duel.new_game(2, 80_000 + seed)
        while not duel.is_over(state):
            key = state.step
            if key == "place" and state.hands[state.turn].special:
                key = f"place {state.hands[state.turn].special}"
            found.setdefault(key, state)
            seat = state.turn
            state, _ = duel.apply(state, seat, choose(rng, state, duel.legal_moves(state, seat), t))
        found.setdefault("over", state)
    return tuple(found[k] for k in sorted(found))


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from([*data.SPECIALS, *rules.MOVE_TYPES, "0", "15"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
odd_ints = st.sampled_from(
    [True, False, -1, 16, -(2**63), 2**63, 10**30, 0, 1.0, 2.5, "1", None, [1], {"v": 1}]
)
odd_values = odd_ints | json_values


def _templates(state: State, seat: int) -> list[Move]:
    return [
        *duel.legal_moves(state, seat)[:30],
        {"type": "keep", "special": "eye"},
        {"type": "eye"},
        {"type": "dive", "keep": 3},
        {"type": "harpoon", "give": 5},
        {"type": "place", "card": 7, "side": 0, "slot": 2},
        {"type": "place", "card": 15, "side": 1, "slot": 4, "anchor": 15},
        {"type": "arrow", "card": 3, "side": 1, "slot": 0},
    ]


@st.composite
def near_valid(draw: st.DrawFn, state: State) -> tuple[int, Any]:
    """A valid-looking move with one to three fields broken."""
    seat = state.current if state.current is not None else 0
    move = dict(draw(st.sampled_from(_templates(state, seat))))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["value", "int", "drop", "add"]))
        key = draw(st.sampled_from(sorted(move) if move and how != "add" else FIELDS))
        if how == "drop":
            move.pop(key, None)
        elif how == "int":
            move[key] = draw(odd_ints)
        else:
            move[key] = draw(odd_values)
    return seat, move


CLEAN = ("refused", "played a listed move")


def _outcome(state: State, seat: Any, move: Any) -> str:
    """What `apply` did with the move: one of CLEAN, or what went wrong, in words."""
    before = duel.to_json(state)
    try:
        duel.apply(state, seat, move)
    except duel.IllegalMove as exc:
        if not (exc.code and str(exc)):
            return "refused without a code or a reason"
        if duel.to_json(state) != before:
            return "refused but the state changed"
        return "refused"
    if move not in duel.legal_moves(state, seat):
        return f"accepted the unlisted move {move!r}"
    return "played a listed move"


def test_states_cover_every_step() -> None:
    keys = {s.step for s in states()}
    assert keys == {"keep", "eye", "dive", "harpoon", "place", "arrow", "over"}


@given(st.data(), json_values)
def test_arbitrary_json_is_refused_cleanly(data_: st.DataObject, move: Any) -> None:
    state = data_.draw(st.sampled_from(states()))
    seat = state.current if state.current is not None else 0
    outcome = _outcome(state, seat, move)
    # Only a JSON object can be a move: anything else is refused.
    wanted = CLEAN if isinstance(move, dict) else ("refused",)
    assert outcome in wanted, outcome


@given(st.data(), st.dictionaries(st.sampled_from(FIELDS), odd_values, max_size=5))
def test_json_objects_with_move_fields_are_refused_cleanly(
    data_: st.DataObject, fields: dict[str, Any]
) -> None:
    state = data_.draw(st.sampled_from(states()))
    seat = state.current if state.current is not None else 0
    move = {"type": data_.draw(st.sampled_from([*sorted(rules.MOVE_TYPES), "place "]))}
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
    move = _templates(state, 0)[0]
    outcome = _outcome(state, seat, move)
    assert outcome in CLEAN, outcome


@given(st.data(), json_values | st.dictionaries(st.sampled_from(FIELDS), odd_values, max_size=4))
def test_describe_never_raises(data_: st.DataObject, move: Any) -> None:
    state = data_.draw(st.sampled_from(states()))
    if isinstance(move, dict) and data_.draw(st.booleans()):
        move["type"] = data_.draw(st.sampled_from(sorted(rules.MOVE_TYPES)))
    for line in (duel.describe(move), duel.describe(move, state)):
        assert isinstance(line, str) and line


@given(json_values | st.text(max_size=40))
def test_from_json_refuses_anything_else_cleanly(junk: Any) -> None:
    import json

    text = junk if isinstance(junk, str) else json.dumps(junk)
    try:
        duel.from_json(text)
    except duel.IllegalMove as exc:
        assert exc.code == "bad_state"
