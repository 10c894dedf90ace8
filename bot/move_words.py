"""A move in words for the move log, in the language of the context, for any game.

Every game plugin says its moves through `describe_move(move, state)`, a hook of the plugin
interface (the three games of this repository say them through the catalogue, in
`bot/games/<game>/move_words.py`; a game with English only returns its engine's `describe`).
Looked up in the registry at the call, so the platform imports no game module.
"""

from __future__ import annotations

from typing import Any

from bot.games import GAMES


def describe(kind: str, move: dict[str, Any], state: Any | None = None) -> str:
    """`move` (about to be played on `state`, if given) in words."""
    return GAMES.get(kind).describe_move(move, state)
