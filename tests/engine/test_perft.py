"""Perft: recompute the stored counts of legal move sequences (see tests/engine/perft.py)."""

from __future__ import annotations

from engine import nauticus
from tests.engine.perft import KIT, POSITIONS
from tests.kits.perft import perft_tests

perft = KIT.perft
position = KIT.position

# The shared tests (tests/kits/perft.py), collected from this module.
globals().update(perft_tests(KIT))


def test_start_position_depth_1_is_the_eight_spaces() -> None:
    # N-ROUND-1: the first decision of a game is the start player's choice among 8 spaces.
    for players in (2, 3, 4):
        assert perft(nauticus.new_game(players, 5), 1) == 8


def test_perft_positions_are_mid_game_where_stated() -> None:
    for pos in POSITIONS:
        state = position(pos)
        assert state.step != "over"
        if pos.plies >= 90:
            assert (state.round, state.phase) > (1, 3), pos.name
