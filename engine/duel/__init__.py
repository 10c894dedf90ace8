"""The Nautilus duel rules engine: pure, deterministic, JSON in and out, with secret hands.

    >>> from engine import duel
    >>> state = duel.new_game(players=2, seed=1)
    >>> seat = duel.current(state)
    >>> state, events = duel.apply(state, seat, duel.legal_moves(state, seat)[0])

`duel.RULES` is the same engine as an `engine.api.Rules` object. See engine/duel/README.md.
"""

from __future__ import annotations

from engine.common import GameFunctions, ModuleRules
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


class DuelRules(ModuleRules[State]):
    """`engine.api.Rules` for Nautilus duel: the module's functions behind one object
    (engine/common.py)."""


RULES = DuelRules(
    data.GAME,
    ENGINE_VERSION,
    (data.PLAYERS, data.PLAYERS),
    GameFunctions(
        new_game, legal_moves, apply, view, final_scores, to_json, from_json, describe, determinize
    ),
)

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
