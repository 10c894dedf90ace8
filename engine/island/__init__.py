"""The Nautilus Island rules engine: pure, deterministic, JSON in and out, with secret hands.

    >>> from engine import island
    >>> state = island.new_game(players=3, seed=1)
    >>> move = island.legal_moves(state, state.current)[0]
    >>> state, events = island.apply(state, state.current, move)

See engine/island/README.md for the whole API.
"""

from engine.errors import IllegalMove
from engine.island.api import RULES, IslandRules
from engine.island.describe import describe
from engine.island.determinize import determinize
from engine.island.events import Event
from engine.island.rules import Move, apply, legal_moves, new_game
from engine.island.scoring import Score, final_scores
from engine.island.state import ENGINE_VERSION, State, from_json, to_json
from engine.island.view import view


def current(state: State) -> int | None:
    """The one seat that must decide now, or None once the game is over."""
    return state.current


def is_over(state: State) -> bool:
    return state.step == "over"


__all__ = [
    "ENGINE_VERSION",
    "RULES",
    "Event",
    "IllegalMove",
    "IslandRules",
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
