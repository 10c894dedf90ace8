"""Malformed moves for any engine: hypothesis-generated JSON, thrown at states of every step.

Whatever arrives from a button, a slash command or a stored log, `apply` either plays a move that
`legal_moves` lists or raises IllegalMove, and a refusal changes nothing. Never a KeyError,
TypeError, IndexError, AttributeError, ... The same for `describe` (always a line) and
`from_json` (a saved game, or IllegalMove "bad_state"). Hypothesis runs derandomized: see
tests/conftest.py.

Each game's tests/engine/**/test_malformed.py describes its moves in a `MoveFuzz` (its states,
move fields, valid-looking templates, words worth trying, and ways to break a field) and takes
the tests of `malformed_tests(kit)` into its module, where pytest collects them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.api import Rules
from engine.errors import IllegalMove

Move = dict[str, Any]
# A way to break a move: the field it sets (None: the field picked at random) and the values.
Breaker = tuple[str | None, st.SearchStrategy[Any]]

ODD_INTS: tuple[Any, ...] = (True, False, -1, -(2**63), 2**63, 10**30, 0, 1.0, 2.5, "1", None)
CLEAN = ("refused", "played a listed move")


def json_values(words: Sequence[str]) -> st.SearchStrategy[Any]:
    """Any JSON value, its strings now and then one of the game's own `words`."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=True)
        | st.text(max_size=12)
        | st.sampled_from(list(words))
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    )


@dataclass(frozen=True)
class MoveFuzz:
    """One game's moves, as the malformed-move tests need them."""

    rules: Rules
    states: Callable[[], Sequence[Any]]  # one state of each step, game over included
    move_types: tuple[str, ...]  # every move type of the game
    wrong_type: str  # a near miss of a real move type ("buy ")
    fields: tuple[str, ...]  # every field name a move of the game may have, "type" included
    words: tuple[str, ...]  # the game's words (items, categories, move types...) to try
    templates: Callable[[Any, int], list[Move]]  # valid-looking moves of every type
    odd_ints: tuple[Any, ...] = ODD_INTS  # odd values for a whole-number field
    # More ways to break a field than "value", "int", "drop" and "add", by name.
    breakers: dict[str, Breaker] = field(default_factory=dict)
    fields_at_most: int = 4  # of the dictionaries of move fields thrown at `apply`
    # A move shape to describe too with a value that is not a JSON object in its fields.
    describe_in: Callable[[Any], Move] | None = None

    def seat(self, state: Any) -> int:
        """Whose decision it is; seat 0 once the game is over."""
        seat = self.rules.current(state)
        return seat if seat is not None else 0


def outcome(rules: Rules, state: Any, seat: Any, move: Any) -> str:
    """What `apply` did with the move: one of CLEAN, or what went wrong, in words."""
    before = rules.to_json(state)
    try:
        rules.apply(state, seat, move)
    except IllegalMove as exc:
        if not (exc.code and str(exc)):
            return "refused without a code or a reason"
        if rules.to_json(state) != before:
            return "refused but the state changed"
        return "refused"
    # Accepted: then it must be a move legal_moves offers, to the letter.
    if move not in rules.legal_moves(state, seat):
        return f"accepted the unlisted move {move!r}"
    return "played a listed move"


def near_valid(
    kit: MoveFuzz, values: st.SearchStrategy[Any]
) -> Callable[[Any], st.SearchStrategy[tuple[int, Move]]]:
    """Per state: a valid-looking move with one to three fields broken."""
    hows = ["value", "int", "drop", "add", *kit.breakers]
    ints = st.sampled_from(kit.odd_ints)

    @st.composite
    def strategy(draw: st.DrawFn, state: Any) -> tuple[int, Move]:
        seat = kit.seat(state)
        move = dict(draw(st.sampled_from(kit.templates(state, seat))))
        for _ in range(draw(st.integers(1, 3))):
            how = draw(st.sampled_from(hows))
            key = draw(st.sampled_from(sorted(move) if move and how != "add" else kit.fields))
            if how == "drop":
                move.pop(key, None)
            elif how == "int":
                move[key] = draw(ints)
            elif how in kit.breakers:
                target, odd = kit.breakers[how]
                move[target or key] = draw(odd)
            else:
                move[key] = draw(values)
        return seat, move

    return strategy


def malformed_tests(kit: MoveFuzz) -> dict[str, Callable[..., None]]:
    """The shared tests, by name, for a game's test module to take in (`globals().update`)."""
    rules = kit.rules
    any_json = json_values(kit.words)
    values = st.sampled_from(kit.odd_ints) | any_json  # odd values for any field
    move_fields = st.dictionaries(st.sampled_from(kit.fields), values, max_size=kit.fields_at_most)
    broken = near_valid(kit, values)

    @given(st.data(), any_json)
    def test_arbitrary_json_is_refused_cleanly(data_: st.DataObject, move: Any) -> None:
        state = data_.draw(st.sampled_from(kit.states()))
        result = outcome(rules, state, kit.seat(state), move)
        # Only a JSON object can be a move: anything else is refused.
        wanted = CLEAN if isinstance(move, dict) else ("refused",)
        assert result in wanted, result

    @given(st.data(), move_fields)
    def test_json_objects_with_move_fields_are_refused_cleanly(
        data_: st.DataObject, fields: dict[str, Any]
    ) -> None:
        state = data_.draw(st.sampled_from(kit.states()))
        types = [*sorted(kit.move_types), kit.wrong_type]
        move = {"type": data_.draw(st.sampled_from(types))}
        move.update(fields)
        result = outcome(rules, state, kit.seat(state), move)
        assert result in CLEAN, result

    @given(st.data())
    def test_near_valid_moves_are_refused_cleanly(data_: st.DataObject) -> None:
        state = data_.draw(st.sampled_from(kit.states()))
        seat, move = data_.draw(broken(state))
        result = outcome(rules, state, seat, move)
        assert result in CLEAN, result

    @given(st.data(), values)
    def test_bad_seats_are_refused_cleanly(data_: st.DataObject, seat: Any) -> None:
        state = data_.draw(st.sampled_from(kit.states()))
        move = data_.draw(st.sampled_from(kit.templates(state, 0)))
        result = outcome(rules, state, seat, move)
        assert result in CLEAN, result

    @given(st.data(), any_json | move_fields)
    def test_describe_never_raises(data_: st.DataObject, move: Any) -> None:
        # The bot describes moves from old logs and user input too: a line, never a crash.
        state = data_.draw(st.sampled_from(kit.states()))
        if isinstance(move, dict) and data_.draw(st.booleans()):
            move["type"] = data_.draw(st.sampled_from(sorted(kit.move_types)))
        moves = [move]
        if not isinstance(move, dict) and kit.describe_in is not None:
            moves.append(kit.describe_in(move))
        for m in moves:
            for line in (rules.describe(m), rules.describe(m, state)):
                assert isinstance(line, str) and line

    @given(any_json | st.text(max_size=40))
    def test_from_json_refuses_anything_else_cleanly(value: Any) -> None:
        text = value if isinstance(value, str) else json.dumps(value)
        try:
            rules.from_json(text)
        except IllegalMove as exc:
            assert exc.code == "bad_state"

    return {
        t.__name__: t
        for t in (
            test_arbitrary_json_is_refused_cleanly,
            test_json_objects_with_move_fields_are_refused_cleanly,
            test_near_valid_moves_are_refused_cleanly,
            test_bad_seats_are_refused_cleanly,
            test_describe_never_raises,
            test_from_json_refuses_anything_else_cleanly,
        )
    }
