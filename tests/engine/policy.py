"""A seeded random policy for playouts: uniform over `legal_moves`, reweighted by a per-game taste.

Pure uniform play rarely finishes a 4-tile ship or hits the crown cap, so each game draws a
"taste" from its seed (which actions it likes, how much it builds, hoards crowns or passes) and
weights the legal moves by it. Every move it plays still comes from `legal_moves`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import nauticus
from engine.nauticus import data
from engine.nauticus.state import State

Move = dict[str, Any]


@dataclass(frozen=True)
class Taste:
    actions: dict[str, float]  # how much the start player likes choosing each action
    extra: dict[str, float]  # how much each action is liked for the extra action
    rewards: dict[str, float]
    build: float  # weight of placing a tile in the shipyard, against storage
    extra_weight: float
    pass_weight: float
    crowns_greed: float  # exponent on the worker count of a crowns move
    hoard_crowns: bool  # save the extra action for a crowns performance that hits the cap
    never_pass: bool  # use the action whenever possible (loses 6 VP of pass tiles a round)


def taste(rng: random.Random) -> Taste:
    return Taste(
        actions={a: rng.choice((0.3, 1.0, 3.0, 8.0)) for a in data.ACTIONS},
        extra={a: rng.choice((0.2, 1.0, 5.0)) for a in data.ACTIONS},
        rewards={k: rng.choice((0.3, 1.0, 4.0)) for k in data.REWARD_KINDS},
        build=rng.choice((0.5, 3.0, 10.0)),
        extra_weight=rng.choice((0.05, 0.3, 1.0)),
        pass_weight=rng.choice((0.2, 1.0, 4.0)),
        crowns_greed=rng.choice((0.0, 2.0, 4.0)),
        hoard_crowns=rng.random() < 0.3,
        never_pass=rng.random() < 0.2,
    )


def weight(state: State, move: Move, t: Taste) -> float:
    kind = move["type"]
    seat = state.current
    assert seat is not None
    me = state.players[seat]
    if kind == "choose_action":
        return t.actions[state.tiles[move["space"]]]
    if kind in ("buy", "transport"):
        to = move["to"]
        if to == "storage":
            return 1.0
        w = t.build
        if isinstance(to, dict) and isinstance(to.get("ship"), int):
            # Grow the ships furthest along rather than scatter tiles: that finishes big ships.
            ship = me.ships[to["ship"]]
            w *= (1 + ship.size + sum(m is not None for m in ship.masts)) ** 2
        return w * (2.0 if kind == "transport" else 1.0)
    if kind == "crowns":
        return float(move["workers"] ** t.crowns_greed)
    if kind == "deliver":
        return 30.0
    if kind == "reward":
        return t.rewards[move["kind"]]
    if kind == "extra":
        w = t.extra_weight * t.extra[move["action"]]
        if t.hoard_crowns:
            capped = me.crowns * (me.workers + data.EXTRA_WORKERS) > data.CROWN_CAP
            w = 1000.0 if capped and move["action"] == "crowns" else w * 0.01
        return w
    if kind == "pass":
        return 0.0 if t.never_pass else t.pass_weight
    if kind == "end_turn" and t.never_pass and state.turn is not None and not state.turn.uses:
        return 0.001
    return 1.0


def choose(rng: random.Random, state: State, moves: list[Move], t: Taste) -> Move:
    weights = [weight(state, m, t) for m in moves]
    return rng.choices(moves, weights)[0]


def uniform(rng: random.Random, state: State, moves: list[Move]) -> Move:
    return rng.choice(moves)


def game_rng(players: int, seed: int) -> random.Random:
    return random.Random(f"playout/{players}/{seed}")


def play(players: int, seed: int) -> tuple[State, list[tuple[int, Move]]]:
    """Play one biased game to the end; return the final state and the (seat, move) log."""
    rng = game_rng(players, seed)
    t = taste(rng)
    state = nauticus.new_game(players, seed)
    log: list[tuple[int, Move]] = []
    while state.step != "over":
        seat = state.current
        assert seat is not None
        move = choose(rng, state, nauticus.legal_moves(state, seat), t)
        state, _ = nauticus.apply(state, seat, move)
        log.append((seat, move))
    return state, log
