"""Malformed moves of Nauticus, by the shared kit tests/kits/fuzz.py (which says what is checked):
here are the states of every step and decision, the move shapes and the ways to break them."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

from engine import nauticus
from engine.nauticus import data
from engine.nauticus.state import State
from tests.engine.policy import choose, game_rng, taste
from tests.kits import fuzz

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


WORDS = (*data.ITEMS, *data.ACTIONS, *data.REWARD_KINDS, "storage", "new", "front")
odd_ints = st.sampled_from(fuzz.ODD_INTS)
odd_dests = st.fixed_dictionaries(
    {"ship": st.sampled_from(["new", 0, 1, -1, True, 99, "0", None])},
    optional={
        "end": st.sampled_from(["front", "back", "middle", 0, None, True]),
        "tile": odd_ints,
    },
) | fuzz.json_values(WORDS)


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


KIT = fuzz.MoveFuzz(
    rules=nauticus.RULES,
    states=states,
    move_types=tuple(nauticus.rules.MOVE_TYPES),
    wrong_type="buy ",
    fields=FIELDS,
    words=WORDS,
    templates=_templates,
    breakers={
        "dest": ("to", odd_dests),
        "item": (None, st.sampled_from(["crown", "mast", "Bow", "mast_crown ", "", "salt"])),
    },
    # Odd values as a buy's item and destination too (describe reads both).
    describe_in=lambda v: {"type": "buy", "item": v, "to": v},
)
# The shared tests (tests/kits/fuzz.py), collected from this module.
globals().update(fuzz.malformed_tests(KIT))


def test_states_cover_every_step() -> None:
    cats = {_category(s) for s in states()}
    assert {"choose", "bonus", "reward", "free_tile", "over", "after pass"} <= cats
    assert any(c.startswith("extra ") for c in cats)
    assert {"turn hulls", "turn transport", "turn money", "turn crowns"} <= cats
