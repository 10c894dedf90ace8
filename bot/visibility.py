"""The one place that decides what an audience may see of a game.

Everything the bot shows — channel posts, pings, pictures, alt texts, log lines, panels,
autocomplete, status and refusals — is built from a `Seen` made here: the engine's view for that
audience and only the events it may read. The channel (`audience=None`) gets the public view;
a seat gets its own view, and only in replies no one else can read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.plugin import GamePlugin, Seen
from engine.api import EventLike


def seen(plugin: GamePlugin, state: Any, names: Sequence[str], audience: int | None) -> Seen:
    """What `audience` (None: everyone; else one seat's holder) may know of `state` now."""
    legal = () if audience is None else tuple(plugin.rules.legal_moves(state, audience))
    return Seen(audience, plugin.rules.view(state, audience), tuple(names), legal)


def event_dict(event: EventLike) -> dict[str, Any]:
    """An event as the move log stores it; a private one carries `private_to`."""
    d = event.to_dict()
    if event.private_to is not None:
        d["private_to"] = event.private_to
    else:
        d.pop("private_to", None)
    return d


def readable(events: Iterable[dict[str, Any]], audience: int | None) -> list[dict[str, Any]]:
    """The stored events `audience` may read: public ones, and its own private ones."""
    out = []
    for e in events:
        owner = e.get("private_to")
        if owner is None or (audience is not None and owner == audience):
            out.append(e)
    return out
