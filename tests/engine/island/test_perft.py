"""Perft: recompute the stored counts of legal move sequences (see perft.py)."""

from __future__ import annotations

from engine import island
from tests.engine.island.perft import KIT, POSITIONS
from tests.kits.perft import perft_tests

perft = KIT.perft
position = KIT.position

# The shared tests (tests/kits/perft.py), collected from this module.
globals().update(perft_tests(KIT))


def test_start_position_by_hand() -> None:
    # I-TURN-1: the first player may face any column; then only "collect" (empty hand); then
    # the next seat may face any column but that one.
    for players, columns in ((2, 4), (3, 5), (4, 6)):
        state = island.new_game(players, 5)
        assert perft(state, 1) == columns
        assert perft(state, 2) == columns
        assert perft(state, 3) == columns * (columns - 1)


def test_perft_positions_are_mid_game_where_stated() -> None:
    for pos in POSITIONS:
        state = position(pos)
        assert state.step != "over"
        if pos.plies >= 50:
            assert state.round > 2, pos.name
