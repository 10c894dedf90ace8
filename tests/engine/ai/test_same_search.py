"""A faster search is the same search: pinned moves and root statistics, and the fast move keys.

The digests below were computed with the code before the duel speed-ups (commit 372d973: the
duel engine with `dataclasses.replace`, `move_key` by `json.dumps`, the plain
`_duel_place_values`). A change meant only to make a decision cheaper must keep every chosen
move and every root visit count and mean reward, to the last bit, on the same seeds.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engine import duel, island, nauticus
from engine.ai import choose_with_stats, move_key
from engine.api import Rules

SEARCH_DIGESTS = {
    "easy": "73f4b1a0c16a27c8c43260df136ea32097e96d2ef7f26bc89f82830b5d17acb9",
    "normal": "4e0fe9d5cc0e386e841adc67ac81cd739131c8c28b22a86627988bba44b18819",
}


def _positions() -> list[tuple[Any, int, int]]:
    """Eight duel decisions with two or more moves, from seeded random games: placements of
    rounds 1-4 and two special choices."""
    out: list[tuple[Any, int, int]] = []
    for seed in range(8):
        rng = random.Random(f"golden-ai/{seed}")
        state = duel.new_game(2, seed)
        stop = 3 + 7 * seed
        ply = 0
        while not duel.is_over(state):
            seat = duel.current(state)
            assert seat is not None
            moves = duel.legal_moves(state, seat)
            if ply >= stop and len(moves) > 1:
                out.append((state, seat, seed))
                break
            state, _ = duel.apply(state, seat, rng.choice(moves))
            ply += 1
    return out


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_duel_search_chooses_exactly_as_before_the_speed_ups(level: str) -> None:
    positions = _positions()
    assert [(s.step, s.round, s.placed) for s, _, _ in positions] == [
        ("place", 1, 1),
        ("place", 1, 6),
        ("place", 2, 3),
        ("place", 2, 8),
        ("place", 3, 2),
        ("keep", 4, 0),
        ("place", 4, 5),
        ("keep", 5, 0),
    ]
    h = hashlib.sha256()
    for state, seat, seed in positions:
        move, stats = choose_with_stats(duel.RULES, state, seat, level=level, seed=seed)
        h.update(move_key(move).encode())
        h.update(json.dumps(stats, sort_keys=True).encode())
    assert h.hexdigest() == SEARCH_DIGESTS[level]


def _json_key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    ("rules", "players"), [(duel.RULES, 2), (island.RULES, 3), (nauticus.RULES, 3)]
)
def test_move_key_is_the_sorted_json_of_every_legal_move(rules: Rules, players: int) -> None:
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = rules.new_game(players, seed)
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            for m in moves:
                assert move_key(m) == _json_key(m)
            checked += len(moves)
            state, _ = rules.apply(state, seat, rng.choice(moves))
    assert checked > 200


def test_move_key_falls_back_to_json_for_what_it_does_not_write_itself() -> None:
    for move in (
        {"type": "x", "flag": True},  # a bool is an int subclass, but JSON writes true
        {"type": "é", "text": 'a "quoted"\nline'},  # escapes and non-ASCII
        {"type": "x", "cards": [3, 1]},
        {"type": "x", "share": 0.5},
        {"type": "x", "nested": {"b": 1, "a": 2}},
        {},
    ):
        assert move_key(move) == _json_key(move)
    assert move_key({"slot": 1, "card": 7, "type": "place"}) == (
        '{"card":7,"slot":1,"type":"place"}'
    )
