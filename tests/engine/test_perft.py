"""Perft: recompute the stored counts of legal move sequences (see tests/engine/perft.py)."""

from __future__ import annotations

import pytest

from engine import nauticus
from tests.engine.perft import POSITIONS, Position, compute, perft, position, read

STORED = {row.name: row for row in read()}


def test_data_file_lists_every_position() -> None:
    assert [r.name for r in read()] == [p.name for p in POSITIONS]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p.name)
def test_perft_counts_match_the_data_file(pos: Position) -> None:
    stored = STORED[pos.name]
    row = compute(pos)
    assert (row.players, row.seed, row.plies) == (stored.players, stored.seed, stored.plies)
    assert row.position == stored.position, "the seeded walk reached another position"
    assert (row.depth1, row.depth2) == (stored.depth1, stored.depth2)


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
