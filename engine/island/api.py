"""`RULES`: Nautilus Island behind the engine contract (`engine.api.Rules`)."""

from __future__ import annotations

from engine.common import GameFunctions, ModuleRules
from engine.island import data
from engine.island.describe import describe
from engine.island.determinize import determinize
from engine.island.rules import apply, legal_moves, new_game
from engine.island.scoring import final_scores
from engine.island.state import ENGINE_VERSION, State, from_json, to_json
from engine.island.view import view


class IslandRules(ModuleRules[State]):
    """The module's functions as one object (engine/common.py)."""


RULES = IslandRules(
    "island",
    ENGINE_VERSION,
    (data.MIN_PLAYERS, data.MAX_PLAYERS),
    GameFunctions(
        new_game, legal_moves, apply, view, final_scores, to_json, from_json, describe, determinize
    ),
)
