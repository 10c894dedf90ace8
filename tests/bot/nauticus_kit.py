"""Nauticus through the platform's interface, for tests of the generic panel and service."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.nauticus.plugin import PLUGIN
from bot.plugin import Seen
from bot.visibility import seen
from engine.nauticus import State

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def seen_of(state: State, seat: int | None, names: Sequence[str] = NAMES) -> Seen:
    """What `seat` (None: everyone) sees of a Nauticus state."""
    return seen(PLUGIN, state, names[: len(state.players)], seat)


__all__ = ["NAMES", "PLUGIN", "seen_of"]
