"""`RULES`: Nautilus Island behind the engine contract (`engine.api.Rules`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.api import Move
from engine.island import data
from engine.island.describe import describe
from engine.island.determinize import determinize
from engine.island.events import Event
from engine.island.rules import apply, legal_moves, new_game
from engine.island.scoring import Score, final_scores
from engine.island.state import ENGINE_VERSION, State, from_json, to_json
from engine.island.view import view


class IslandRules:
    """The module's functions as one object."""

    name = "island"
    engine_version = ENGINE_VERSION
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS

    def new_game(self, players: int, seed: int) -> State:
        return new_game(players, seed)

    def current(self, state: State) -> int | None:
        return state.current

    def is_over(self, state: State) -> bool:
        return state.step == "over"

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, Sequence[Event]]:
        return apply(state, seat, move)

    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        return view(state, seat)

    def final_scores(self, state: State) -> Sequence[Score]:
        return final_scores(state)

    def to_json(self, state: State) -> str:
        return to_json(state)

    def from_json(self, text: str) -> State:
        return from_json(text)

    def describe(self, move: Move, state: State | None = None) -> str:
        return describe(move, state)

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        return determinize(state, seat, rng)


RULES = IslandRules()
