"""Malformed moves of the duel, by the shared kit tests/kits/fuzz.py: its states (every step,
placing with the anchor or the kraken), card moves and odd numbers for card and slot fields."""

from __future__ import annotations

import functools
from typing import Any

from engine import duel
from engine.duel import data, rules
from engine.duel.state import State
from tests.engine.duel.policy import choose, game_rng, taste
from tests.kits import fuzz

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


KIT = fuzz.MoveFuzz(
    rules=duel.RULES,
    states=states,
    move_types=tuple(rules.MOVE_TYPES),
    wrong_type="place ",
    fields=FIELDS,
    words=(*data.SPECIALS, *rules.MOVE_TYPES, "0", "15"),
    templates=_templates,
    odd_ints=(*fuzz.ODD_INTS[:3], 16, *fuzz.ODD_INTS[3:], [1], {"v": 1}),
    fields_at_most=5,
)
# The shared tests (tests/kits/fuzz.py), collected from this module.
globals().update(fuzz.malformed_tests(KIT))


def test_states_cover_every_step() -> None:
    keys = {s.step for s in states()}
    assert keys == {"keep", "eye", "dive", "harpoon", "place", "arrow", "over"}
