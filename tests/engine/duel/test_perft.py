"""Perft: recompute the stored counts of legal move sequences (see tests/engine/duel/perft.py)."""

from __future__ import annotations

from engine import duel
from tests.engine.duel.perft import KIT, POSITIONS
from tests.kits.perft import perft_tests

perft = KIT.perft
position = KIT.position

# The shared tests (tests/kits/perft.py), collected from this module.
globals().update(perft_tests(KIT))


def test_start_position_is_the_choice_of_two_specials() -> None:
    # D-ROUND-1: the first decision of every game is which of the 2 specials to keep.
    for seed in range(10):
        assert perft(duel.new_game(2, seed), 1) == 2


def test_perft_positions_cover_the_steps_and_rounds() -> None:
    states = [position(p) for p in POSITIONS]
    assert {s.step for s in states} >= {"keep", "place"}
    assert max(s.round for s in states) == 6
