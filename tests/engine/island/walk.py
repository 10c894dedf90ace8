"""Seeded random play for property tests: uniform over `legal_moves`, reweighted by a taste.

Pure uniform play stores as often as it collects and rarely builds a 6-card collection, so each
game draws from its seed how much it likes storing and closing. Every move it plays still comes
from `legal_moves`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine import island
from engine.island.state import State

Move = dict[str, Any]


def game_rng(players: int, seed: int) -> random.Random:
    return random.Random(f"island-walk/{players}/{seed}")


def choose(rng: random.Random, moves: list[Move], store_w: float, close_w: float) -> Move:
    weights = []
    for m in moves:
        t = m["type"]
        if t == "store":
            weights.append(store_w * sum(m["objects"].values()))
        elif t == "close":
            weights.append(close_w)
        else:
            weights.append(1.0)
    return rng.choices(moves, weights)[0]


def playout(players: int, seed: int) -> Iterator[tuple[State, Move, State, list[Any]]]:
    """Yield (before, move, after, events) for every move of one seeded game."""
    rng = game_rng(players, seed)
    store_w = rng.choice((0.2, 1.0, 3.0))
    close_w = rng.choice((0.3, 1.0, 5.0))
    state = island.new_game(players, seed)
    while state.current is not None:
        seat = state.current
        move = choose(rng, island.legal_moves(state, seat), store_w, close_w)
        after, events = island.apply(state, seat, move)
        yield state, move, after, events
        state = after


def final(players: int, seed: int) -> State:
    state = island.new_game(players, seed)
    for _, _, after, _ in playout(players, seed):
        state = after
    return state


def sample(players: int, seed: int, every: float, rng: random.Random) -> list[State]:
    """States along one game, each kept with probability `every`, plus the final one."""
    out = [s for s, _, _, _ in playout(players, seed) if rng.random() < every]
    out.append(final(players, seed))
    return out
