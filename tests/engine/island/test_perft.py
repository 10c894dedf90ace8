"""Perft: recompute the stored counts of legal move sequences (see perft.py)."""

from __future__ import annotations

import pytest

from engine import island
from tests.engine.island.perft import POSITIONS, Position, compute, perft, position, read

STORED = {row.name: row for row in read()}


def test_data_file_lists_every_position() -> None:
    assert [r.name for r in read()] == [p.name for p in POSITIONS]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p.name)
def test_perft_counts_match_the_data_file(pos: Position) -> None:
    stored = STORED[pos.name]
    row = compute(pos)
    assert (row.players, row.seed, row.plies) == (stored.players, stored.seed, stored.plies)
    assert row.position == stored.position, "the seeded walk reached another position"
    assert (row.depth1, row.depth2, row.depth3) == (stored.depth1, stored.depth2, stored.depth3)


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
