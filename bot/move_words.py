"""A move in words for the move log, in the language of the context, for any game.

The games of this repository say their moves through the catalogue (`bot/games/<game>/
move_words.py`); any other installed game (a plugin from elsewhere, the tests' games) falls
back to its engine's English `describe`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games import GAMES
from bot.games.duel import move_words as duel_words
from bot.games.island import move_words as island_words
from bot.games.nauticus import move_words as nauticus_words

_BY_KIND: dict[str, Callable[[dict[str, Any], Any], str]] = {
    "nauticus": nauticus_words.describe,
    "island": island_words.describe,
    "duel": duel_words.describe,
}


def describe(kind: str, move: dict[str, Any], state: Any | None = None) -> str:
    """`move` (about to be played on `state`, if given) in words."""
    say = _BY_KIND.get(kind)
    if say is not None:
        return say(move, state)
    return GAMES.get(kind).rules.describe(move, state)
