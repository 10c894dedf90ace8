"""Perft: recompute the stored counts of legal move sequences (see tests/engine/duel/perft.py)."""

from __future__ import annotations

import pytest

from engine import duel
from tests.engine.duel.perft import POSITIONS, Position, compute, perft, position, read

STORED = {row.name: row for row in read()}


def test_data_file_lists_every_position() -> None:
    assert [r.name for r in read()] == [p.name for p in POSITIONS]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p.name)
def test_perft_counts_match_the_data_file(pos: Position) -> None:
    stored = STORED[pos.name]
    row = compute(pos)
    assert (row.seed, row.first, row.plies) == (stored.seed, stored.first, stored.plies)
    assert row.position == stored.position, "the seeded walk reached another position"
    assert (row.depth1, row.depth2) == (stored.depth1, stored.depth2)


def test_start_position_is_the_choice_of_two_specials() -> None:
    # D-ROUND-1: the first decision of every game is which of the 2 specials to keep.
    for seed in range(10):
        assert perft(duel.new_game(2, seed), 1) == 2


def test_perft_positions_cover_the_steps_and_rounds() -> None:
    states = [position(p) for p in POSITIONS]
    assert {s.step for s in states} >= {"keep", "place"}
    assert max(s.round for s in states) == 6
