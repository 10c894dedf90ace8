"""A move in words for the move log, in the language of the context, for any game.

The games of this repository say their moves through the catalogue (`bot/games/<game>/
move_words.py`); any other installed game (a plugin from elsewhere, the tests' games) falls
back to its engine's English `describe`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from bot.games import GAMES
from bot.games.duel import move_words as duel_words
from bot.games.island import move_words as island_words
from bot.games.nauticus import move_words as nauticus_words

# Modules, not functions: each game's `describe` is looked up at every call.
_BY_KIND: dict[str, ModuleType] = {
    "nauticus": nauticus_words,
    "island": island_words,
    "duel": duel_words,
}


def describe(kind: str, move: dict[str, Any], state: Any | None = None) -> str:
    """`move` (about to be played on `state`, if given) in words."""
    module = _BY_KIND.get(kind)
    if module is not None:
        text: str = module.describe(move, state)
        return text
    return GAMES.get(kind).rules.describe(move, state)
