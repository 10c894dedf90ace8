"""The Nauticus rules engine: pure, deterministic, JSON in and out.

    >>> from engine import nauticus
    >>> state = nauticus.new_game(players=3, seed=1)
    >>> move = nauticus.legal_moves(state, 0)[0]
    >>> state, events = nauticus.apply(state, 0, move)

See engine/README.md for the whole API.
"""

from engine.errors import IllegalMove
from engine.nauticus.api import RULES, NauticusRules
from engine.nauticus.describe import describe
from engine.nauticus.events import Event
from engine.nauticus.rules import Move, apply, legal_moves, new_game
from engine.nauticus.scoring import Score, final_scores
from engine.nauticus.state import ENGINE_VERSION, State, from_json, to_json
from engine.nauticus.view import view

__all__ = [
    "ENGINE_VERSION",
    "RULES",
    "Event",
    "IllegalMove",
    "Move",
    "NauticusRules",
    "Score",
    "State",
    "apply",
    "describe",
    "final_scores",
    "from_json",
    "legal_moves",
    "new_game",
    "to_json",
    "view",
]
