"""One-line English descriptions of moves, for logs and phase summaries.

A line tells what a player did, in the past and without its subject ("bought a Helm mast for 2
taler → storage"): the bot writes the player's name before it ("Ana bought…"), so the same line
reads right in a log, a digest or a notice, about anyone.
"""

from __future__ import annotations

from typing import Any

from engine.nauticus import data
from engine.nauticus.rules import dest_text, price_of
from engine.nauticus.state import State


def _n(n: Any, word: str) -> str:
    """'1 worker', '2 workers' ('?' counts as many)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _a(words: str) -> str:
    """'a Helm mast', 'an Anchor ship mast', 'a one-ship' (English article by sound), 'some
    coffee'."""
    if words in data.GOODS:
        return f"some {words}"
    low = words.lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(("one", "uni", "use"))
    return f"an {words}" if vowel else f"a {words}"


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """Describe `move`; given the state it is about to be played on, costs are included."""
    if not isinstance(move, dict):
        # A stored log or user input may hold anything: a line, never a crash (as island, duel).
        return f"Unknown move {move!r}"
    t = move.get("type")
    if t == "choose_action":
        space = move.get("space")
        if state is not None and isinstance(space, int) and 0 <= space < data.SPACES:
            action = data.ACTION_NAMES[state.tiles[space]]
            bonus = data.bonus_text(data.SPACE_BONUS[space])
            blue = _n(state.blue_on(space), "blue worker")
            return f"chose {action} on space {space} (bonus {bonus}, {blue})"
        return f"chose the action on space {space}"
    if t == "take_bonus":
        return f"took {_a(_item(move.get('item')))} as bonus"
    if t == "buy":
        item = move.get("item")
        if state is not None and state.turn is not None and isinstance(item, str):
            try:
                price = price_of(state, item)
            except (KeyError, ValueError, AssertionError):
                price = None
            if price is not None:
                again = " again" if item in state.turn.bought else ""
                return (
                    f"bought {_a(_item(item))}{again} for {price} taler → "
                    f"{dest_text(move.get('to'))}"
                )
        return f"bought {_a(_item(item))} → {dest_text(move.get('to'))}"
    if t == "take_free_tile":
        return f"took {_a(_item(move.get('item')))} for free (to storage)"
    if t == "transport":
        return f"moved {_a(_item(move.get('item')))} → {dest_text(move.get('to'))}"
    if t == "money":
        n = move.get("workers")
        taler = 2 * n if isinstance(n, int) else "?"
        return f"took money: {_n(n, 'worker')} → {taler} taler"
    if t == "crowns":
        n = move.get("workers")
        if state is not None and state.turn is not None and isinstance(n, int):
            crowns = state.players[state.turn.seat].crowns
            raw = crowns * n
            vp = min(raw, data.CROWN_CAP - state.turn.crown_vp)
            capped = f" (capped from {raw})" if vp < raw else ""
            return f"scored crowns: {_n(n, 'worker')} × {_n(crowns, 'crown')} → {vp} VP{capped}"
        return f"scored crowns with {_n(n, 'worker')}"
    if t == "deliver":
        ship = move.get("ship")
        return f"delivered ship #{ship + 1 if isinstance(ship, int) else ship}"
    if t == "reward":
        kind: Any = move.get("kind")
        name = data.REWARD_NAMES.get(kind, repr(kind)) if isinstance(kind, str) else repr(kind)
        if kind == "goods" and isinstance(move.get("goods"), list):
            return f"took as reward: {' + '.join(map(str, move['goods']))}"
        return f"took as reward: {name}"
    if t == "extra":
        act: Any = move.get("action")
        label = data.ACTION_NAMES.get(act, repr(act)) if isinstance(act, str) else repr(act)
        return f"used the extra action: {label} (+{data.EXTRA_WORKERS} workers)"
    if t == "end_extra":
        return "ended the extra action"
    if t == "pass":
        return "passed"
    if t == "end_turn":
        return "ended their turn"
    return f"Unknown move {move!r}"


def _item(item: Any) -> str:
    return data.item_name(item) if isinstance(item, str) and item in data.ITEM_INDEX else repr(item)
