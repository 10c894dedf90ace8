"""The Nautilus duel rules engine: pure, deterministic, JSON in and out, with secret hands.

    >>> from engine import duel
    >>> state = duel.new_game(players=2, seed=1)
    >>> seat = duel.current(state)
    >>> state, events = duel.apply(state, seat, duel.legal_moves(state, seat)[0])

`duel.RULES` is the same engine as an `engine.api.Rules` object. See engine/duel/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.duel import data
from engine.duel.describe import describe
from engine.duel.determinize import determinize
from engine.duel.events import Event
from engine.duel.rules import Move, apply, legal_moves, new_game
from engine.duel.scoring import Score, final_scores
from engine.duel.state import ENGINE_VERSION, State, from_json, to_json
from engine.duel.view import view
from engine.errors import IllegalMove


def current(state: State) -> int | None:
    """The one seat that must decide now, or None once the game is over."""
    return state.current


def is_over(state: State) -> bool:
    return state.step == "over"


class DuelRules:
    """`engine.api.Rules` for Nautilus duel: the module's functions behind one object."""

    name: str = data.GAME
    engine_version: str = ENGINE_VERSION
    min_players: int = data.PLAYERS
    max_players: int = data.PLAYERS

    def new_game(self, players: int, seed: int) -> State:
        return new_game(players, seed)

    def current(self, state: Any) -> int | None:
        return current(state)

    def is_over(self, state: Any) -> bool:
        return is_over(state)

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def apply(self, state: Any, seat: int, move: Move) -> tuple[State, Sequence[Event]]:
        return apply(state, seat, move)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return view(state, seat)

    def final_scores(self, state: Any) -> Sequence[Score]:
        return final_scores(state)

    def to_json(self, state: Any) -> str:
        return to_json(state)

    def from_json(self, text: str) -> State:
        return from_json(text)

    def describe(self, move: Move, state: Any | None = None) -> str:
        return describe(move, state)

    def determinize(self, state: Any, seat: int | None, rng: random.Random) -> State:
        return determinize(state, seat, rng)


RULES = DuelRules()

__all__ = [
    "ENGINE_VERSION",
    "RULES",
    "DuelRules",
    "Event",
    "IllegalMove",
    "Move",
    "Score",
    "State",
    "apply",
    "current",
    "describe",
    "determinize",
    "final_scores",
    "from_json",
    "is_over",
    "legal_moves",
    "new_game",
    "to_json",
    "view",
]
