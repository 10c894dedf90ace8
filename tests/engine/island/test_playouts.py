"""Seeded random playouts with the invariants of invariants.py after every move.

300 games (2, 3 and 4 players) check after every move that the 96 cards, the 34 bonus tokens and
the 12 portholes are all accounted for, and that events keep face-down cards private; every
tenth move and the final state also get the view and JSON checks. 24 more games get every check
after every move. Each game's move log replays to the same final state.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import island
from engine.island.rules import column_choices
from engine.island.state import column_cards
from tests.engine.island import invariants as inv
from tests.engine.island.walk import playout
from tests.sweep import sweep

LIGHT_GAMES = sweep(24, 100)  # per player count
FULL_GAMES = sweep(5, 8)  # per player count


def _play(players: int, seed: int, full: bool) -> tuple[island.State, list[dict[str, object]]]:
    log = []
    state = island.new_game(players, seed)
    for i, (before, move, after, events) in enumerate(playout(players, seed)):
        seat = before.current
        assert seat is not None
        inv.check_conservation(after)
        inv.check_events(before, seat, events)
        if full or i % 10 == 0:
            inv.check_all(before, seat, events, after)
        log.append(move)
        state = after
    inv.check_all(state, 0, [], state)
    return state, log


def _replay(players: int, seed: int, log: list[dict[str, object]]) -> island.State:
    state = island.new_game(players, seed)
    for move in log:
        seat = state.current
        assert seat is not None
        state, _ = island.apply(state, seat, move)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_every_invariant(players: int) -> None:
    stats: Counter[str] = Counter()
    for seed in range(LIGHT_GAMES):
        state, log = _play(players, 1000 + seed, full=False)
        assert island.is_over(state) and state.last_round
        assert _replay(players, 1000 + seed, log) == state
        scores = island.final_scores(state)
        assert sorted(s.rank for s in scores) == list(range(1, players + 1))  # no tie at the end
        stats.update(m["type"] for m in log)  # type: ignore[misc]
        stats["closed"] += sum(c.closed for p in state.players for c in p.collections)
    # The walks reach every kind of decision.
    assert {"place", "move", "collect", "store", "close", "keep_open"} <= set(stats)
    assert stats["closed"] > LIGHT_GAMES


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_with_every_check_after_every_move(players: int) -> None:
    for seed in range(FULL_GAMES):
        state, log = _play(players, 5000 + seed, full=True)
        assert _replay(players, 5000 + seed, log) == state


def test_idle_and_last_round_empty_columns_are_reached() -> None:
    # Storing at an empty column happens in real games; so does the [fixed here] idle case,
    # though only when every column the pawn could face is empty (I-TURN-4): of the
    # three-player seeds from 9000, the first games to reach it are 9097, 9506 and 9827.
    store_at_empty = 0
    for seed in range(200):
        for before, move, _, _ in playout(4, 9000 + seed):
            seat = before.current
            assert seat is not None
            column = before.players[seat].pawn.column
            if move["type"] == "store" and column is not None and column_cards(before, column) == 0:
                store_at_empty += 1
        if store_at_empty:
            break
    assert store_at_empty > 0
    idle = 0
    moved_from: island.State | None = None
    for before, move, _, _ in playout(3, 9097):
        seat = before.current
        assert seat is not None
        if move["type"] == "move":
            moved_from = before
        if move["type"] == "idle":
            idle += 1
            assert moved_from is not None
            allowed = column_choices(moved_from, seat)
            assert all(column_cards(moved_from, c) == 0 for c in allowed)
    assert idle > 0
