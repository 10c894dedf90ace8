"""One-line English descriptions of moves, for logs, menus and phase summaries."""

from __future__ import annotations

from typing import Any

from engine.nauticus import data
from engine.nauticus.rules import dest_text, price_of
from engine.nauticus.state import State

_ORD = {1: "1st", 2: "2nd", 3: "3rd"}


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """Describe `move`; given the state it is about to be played on, costs are included."""
    t = move.get("type")
    if t == "choose_action":
        space = move.get("space")
        if state is not None and isinstance(space, int) and 0 <= space < data.SPACES:
            action = data.ACTION_NAMES[state.tiles[space]]
            bonus = data.bonus_text(data.SPACE_BONUS[space])
            return (
                f"Choose {action} on space {space} (bonus {bonus}, "
                f"{state.blue_on(space)} blue workers)"
            )
        return f"Choose the action on space {space}"
    if t == "take_bonus":
        return f"Take a {_item(move.get('item'))} as bonus"
    if t == "buy":
        item = move.get("item")
        cost = ""
        if state is not None and state.turn is not None and isinstance(item, str):
            try:
                price = price_of(state, item)
            except (KeyError, ValueError, AssertionError):
                price = None
            if price is not None:
                copy = "" if item not in state.turn.bought else "another "
                return f"Buy {copy}{_item(item)} for {price} taler → {dest_text(move.get('to'))}"
        return f"Buy {_item(item)}{cost} → {dest_text(move.get('to'))}"
    if t == "take_free_tile":
        return f"Take a free {_item(move.get('item'))} (to storage)"
    if t == "transport":
        return f"Transport {_item(move.get('item'))} → {dest_text(move.get('to'))}"
    if t == "money":
        n = move.get("workers")
        taler = 2 * n if isinstance(n, int) else "?"
        return f"Money: {n} worker{'s' if n != 1 else ''} → {taler} taler"
    if t == "crowns":
        n = move.get("workers")
        if state is not None and state.turn is not None and isinstance(n, int):
            crowns = state.players[state.turn.seat].crowns
            raw = crowns * n
            vp = min(raw, data.CROWN_CAP - state.turn.crown_vp)
            capped = f" (capped from {raw})" if vp < raw else ""
            return f"Crowns: {n} worker{'s' if n != 1 else ''} × {crowns} crowns → {vp} VP{capped}"
        return f"Crowns: {n} workers"
    if t == "deliver":
        ship = move.get("ship")
        return f"Deliver ship #{ship + 1 if isinstance(ship, int) else ship}"
    if t == "reward":
        kind: Any = move.get("kind")
        name = data.REWARD_NAMES.get(kind, repr(kind)) if isinstance(kind, str) else repr(kind)
        if kind == "goods" and isinstance(move.get("goods"), list):
            return f"Reward: {' + '.join(map(str, move['goods']))}"
        return f"Reward: {name}"
    if t == "extra":
        act: Any = move.get("action")
        label = data.ACTION_NAMES.get(act, repr(act)) if isinstance(act, str) else repr(act)
        return f"Extra action: {label} (+{data.EXTRA_WORKERS} workers)"
    if t == "end_extra":
        return "End the extra action"
    if t == "pass":
        return "Pass"
    if t == "end_turn":
        return "End turn"
    return f"Unknown move {move!r}"


def _item(item: Any) -> str:
    return data.item_name(item) if isinstance(item, str) and item in data.ITEM_INDEX else repr(item)
