"""The seeded policy the e2e players follow: it prefers doing things to passing.

It picks among `legal_moves` only, weighted so that a game through the panel includes what the
scenarios assert: a buy on each paid action, a transport, a finished ship and its rewards, a
delivery, a crowns scoring, an extra action and a confirmation prompt (ending a turn with blue
workers left, the start player passing, or a free tile bought into a full storage).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.games.nauticus.texts import confirmation_needed
from engine.nauticus import State, legal_moves

Move = dict[str, Any]


class Policy:
    """Weights the legal moves; `seen` steers the start player towards rarely chosen actions."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.chosen: Counter[str] = Counter()

    def weight(self, state: State, move: Move) -> float:
        kind = move["type"]
        seat = state.current
        assert seat is not None
        me = state.players[seat]
        turn = state.turn
        if kind == "choose_action":
            action = state.tiles[move["space"]]
            w = 4.0 / (1 + self.chosen[action]) ** 2
            ready = [s for p in state.players for s in p.ships if s.finished]
            if action == "deliver" and any(s.goods_count() == s.size for s in ready):
                w += 20.0  # a loaded ship waits: deliver it
            if action == "goods" and any(s.goods_count() < s.size for s in ready):
                w += 5.0
            return w
        if kind in ("buy", "transport"):
            to = move["to"]
            if to == "storage":
                # A free tile lost to a full storage asks for a confirmation: now and then.
                return 0.3 if confirmation_needed(state, seat, move) else 1.0
            w = 6.0
            if isinstance(to, dict) and isinstance(to.get("ship"), int):
                # Grow the ships furthest along: that finishes ships, which earns rewards.
                ship = me.ships[to["ship"]]
                w *= (1 + ship.size + sum(m is not None for m in ship.masts)) ** 2
                if ship.finished:
                    w *= 10.0  # loading goods on a finished ship makes it deliverable
            elif move["item"] == "one_ship":
                w *= 5.0  # a one-tile ship is closed at once: the quickest to finish
            return w * (3.0 if kind == "transport" else 1.0)
        if kind == "crowns":
            return 3.0 + float(move["workers"])
        if kind == "money":
            return 1.0 + float(move["workers"]) * 0.2
        if kind == "deliver":
            return 50.0
        if kind in ("reward", "take_bonus", "take_free_tile"):
            return 1.0
        if kind == "extra":
            return 0.6 if turn is not None and turn.uses else 0.05
        if kind == "end_extra":
            return 0.3
        if kind == "pass":
            # The start player passing needs a confirmation: let it happen now and then.
            return 0.04
        if kind == "end_turn":
            if turn is not None and turn.uses and turn.blue:
                return 0.15  # blue workers left: asks for a confirmation
            return 0.5
        return 1.0

    def pick(self, state: State) -> Move:
        seat = state.current
        assert seat is not None
        moves = legal_moves(state, seat)
        weights = [self.weight(state, m) for m in moves]
        move = self.rng.choices(moves, weights)[0]
        if move["type"] == "choose_action":
            self.chosen[state.tiles[move["space"]]] += 1
        return move
