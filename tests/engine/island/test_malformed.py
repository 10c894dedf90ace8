"""Malformed moves of Nautilus Island, by the shared kit tests/kits/fuzz.py: its states (every
step, and acting at columns of 1, 2 and 3 stacks), store moves and the ways to break them."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

from engine import island
from engine.island import data, rules
from engine.island.state import State
from tests.engine.island.walk import playout
from tests.kits import fuzz

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


WORDS = (*data.CATEGORIES, *data.OBJECT_CATEGORY, *rules.MOVE_TYPES)
odd_objects = st.dictionaries(
    st.sampled_from([*data.OBJECT_CATEGORY, "Ham", "", "ham "]),
    st.sampled_from(fuzz.ODD_INTS) | st.integers(-3, 5),
    max_size=4,
) | fuzz.json_values(WORDS)


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


KIT = fuzz.MoveFuzz(
    rules=island.RULES,
    states=states,
    move_types=tuple(rules.MOVE_TYPES),
    wrong_type="store ",
    fields=FIELDS,
    words=WORDS,
    templates=_templates,
    breakers={
        "objects": ("objects", odd_objects),
        "name": (None, st.sampled_from(["Food", "treasure", "food ", "", "pearl", "ham"])),
    },
)
# The shared tests (tests/kits/fuzz.py), collected from this module.
globals().update(fuzz.malformed_tests(KIT))


def test_states_cover_every_step() -> None:
    cats = {_category(s) for s in states()}
    assert {"place", "move", "close", "act 1", "act 2", "act 3"} <= cats
