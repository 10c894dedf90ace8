"""A seeded playout policy for the duel: every move comes from `legal_moves`, reweighted.

Uniform play over `legal_moves` plays the anchor almost at once (every placement offers up to 11
anchor variants) and rarely keeps the kraken for later; a per-game taste makes some games hold the
anchor, some throw arrow cards early, some favour the opponent's side, so the corners are reached.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import duel
from engine.duel import data
from engine.duel.state import State

Move = dict[str, Any]


@dataclass(frozen=True)
class Taste:
    anchor: float  # chance that a placement also plays the anchor
    arrows: float  # weight of placing an arrow card
    specials: float  # weight of placing the kraken or fishbone
    own_side: float  # weight of placing on one's own side


def taste(rng: random.Random) -> Taste:
    return Taste(
        anchor=rng.choice((0.05, 0.3, 0.9)),
        arrows=rng.choice((0.3, 1.0, 5.0)),
        specials=rng.choice((0.1, 1.0, 3.0)),
        own_side=rng.choice((0.3, 1.0, 3.0)),
    )


def choose(rng: random.Random, state: State, moves: list[Move], t: Taste) -> Move:
    if not moves or moves[0]["type"] != "place":
        return rng.choice(moves)
    with_anchor = [m for m in moves if "anchor" in m]
    if with_anchor and rng.random() < t.anchor:
        return rng.choice(with_anchor)
    plain = [m for m in moves if "anchor" not in m]
    weights = []
    for m in plain:
        w = 1.0
        if data.arrow_of(m["card"]) is not None:
            w *= t.arrows
        if m["card"] in data.SPECIAL_OF_VALUE:
            w *= t.specials
        if m["side"] == state.turn:
            w *= t.own_side
        weights.append(w)
    return rng.choices(plain, weights)[0]


def game_rng(seed: int) -> random.Random:
    return random.Random(f"duel-policy/{seed}")


def playout(seed: int, first: int | None = None) -> list[tuple[State, int, Move]]:
    """One whole seeded game: (state before, seat, move) for every move, then the final state."""
    rng = game_rng(seed)
    t = taste(rng)
    state = duel.new_game(2, seed, first=first)
    out: list[tuple[State, int, Move]] = []
    while not duel.is_over(state):
        seat = state.turn
        move = choose(rng, state, duel.legal_moves(state, seat), t)
        out.append((state, seat, move))
        state, _ = duel.apply(state, seat, move)
    out.append((state, -1, {}))
    return out
