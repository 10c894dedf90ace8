"""A move in words for the move log, in the language of the context, for any game.

A game plugin may say its moves itself through the catalogue with an optional
`describe_move(move, state)` (the three games of this repository do, in
`bot/games/<game>/move_words.py`); any other game falls back to its engine's English
`describe`. Looked up on the plugin, so the platform imports no game module.
"""

from __future__ import annotations

from typing import Any

from bot.games import GAMES


def describe(kind: str, move: dict[str, Any], state: Any | None = None) -> str:
    """`move` (about to be played on `state`, if given) in words."""
    plugin = GAMES.get(kind)
    say = getattr(plugin, "describe_move", None)
    if say is not None:
        return str(say(move, state))
    return plugin.rules.describe(move, state)
