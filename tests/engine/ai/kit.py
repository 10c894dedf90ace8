"""Shared helpers for the AI tests: sampled positions and wrapped engines."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine import duel, island, nauticus
from engine.api import EventLike, Move, Rules

ALL: dict[str, Rules] = {"nauticus": nauticus.RULES, "island": island.RULES, "duel": duel.RULES}
HIDDEN: dict[str, Rules] = {"island": island.RULES, "duel": duel.RULES}


def positions(rules: Rules, seed: int, count: int, players: int = 2) -> Iterator[tuple[Any, int]]:
    """`count` (state, seat) pairs along one random game, each with a real choice (2+ moves)."""
    rng = random.Random(f"ai-test/{rules.name}/{seed}")
    state = rules.new_game(players, seed)
    found = 0
    while found < count:
        if rules.is_over(state):
            seed += 1000
            state = rules.new_game(players, seed)
        seat = rules.current(state)
        assert seat is not None
        moves = rules.legal_moves(state, seat)
        if len(moves) > 1 and rng.random() < 0.3:
            found += 1
            yield state, seat
        state, _ = rules.apply(state, seat, rng.choice(moves))


class Wrapped:
    """A `Rules` that forwards everything to `inner`, for counting or tampering in tests."""

    def __init__(self, inner: Rules) -> None:
        self.inner = inner
        self.name = inner.name
        self.engine_version = inner.engine_version
        self.min_players = inner.min_players
        self.max_players = inner.max_players
        self.applies = 0

    def new_game(self, players: int, seed: int) -> Any:
        return self.inner.new_game(players, seed)

    def current(self, state: Any) -> int | None:
        return self.inner.current(state)

    def is_over(self, state: Any) -> bool:
        return self.inner.is_over(state)

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        return self.inner.legal_moves(state, seat)

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, Sequence[EventLike]]:
        self.applies += 1
        return self.inner.apply(state, seat, move)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return self.inner.view(state, seat)

    def final_scores(self, state: Any) -> Sequence[Any]:
        return self.inner.final_scores(state)

    def to_json(self, state: Any) -> str:
        return self.inner.to_json(state)

    def from_json(self, text: str) -> Any:
        return self.inner.from_json(text)

    def describe(self, move: Move, state: Any | None = None) -> str:
        return self.inner.describe(move, state)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        return self.inner.determinize(state, seat, rng)


class Peeking(Wrapped):
    """A cheat: its "determinization" is the true state itself, secrets and all."""

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        return state
