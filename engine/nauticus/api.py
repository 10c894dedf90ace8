"""`RULES`: Nauticus behind the engine contract (`engine.api.Rules`) the platform and AI use."""

from __future__ import annotations

from engine.common import GameFunctions, ModuleRules
from engine.nauticus import data
from engine.nauticus.describe import describe
from engine.nauticus.rules import apply, legal_moves, new_game
from engine.nauticus.scoring import final_scores
from engine.nauticus.state import ENGINE_VERSION, State, from_json, to_json
from engine.nauticus.view import view


class NauticusRules(ModuleRules[State]):
    """The module's functions as one object (engine/common.py). Nauticus has no hidden
    information: no determinize function, so a determinization is the state itself."""


RULES = NauticusRules(
    "nauticus",
    ENGINE_VERSION,
    (data.MIN_PLAYERS, data.MAX_PLAYERS),
    GameFunctions(new_game, legal_moves, apply, view, final_scores, to_json, from_json, describe),
)
