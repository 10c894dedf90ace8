"""Nauticus moves in words, in the language of the context: the move log's lines.

The engine's `describe` (engine/nauticus/describe.py) is the English original; this says the
same thing through the catalogue, branch for branch, so an English game logs exactly the
engine's words (a test holds them equal on every move of many games) and a French game logs
French.
"""

from __future__ import annotations

from typing import Any

from bot.games.nauticus import words
from bot.i18n import tr
from engine.nauticus import data
from engine.nauticus.rules import price_of
from engine.nauticus.state import State


def _item_a(item: Any) -> str:
    if isinstance(item, str) and item in data.ITEM_INDEX:
        return words.item_a(item)
    return f"a {item!r}"


def dest_text(dest: Any) -> str:
    """The engine's `dest_text`: where a tile goes."""
    if dest == "storage":
        return tr("storage")
    if isinstance(dest, dict):
        if dest.get("ship") == "new":
            return tr("a new ship")
        n = dest.get("ship")
        number = n + 1 if isinstance(n, int) else n
        if "end" in dest:
            end = words.END_WORDS.get(dest["end"])
            return tr(
                "ship #{n} ({end})", n=number, end=tr(end) if end is not None else dest["end"]
            )
        if "tile" in dest:
            t = dest["tile"]
            return tr("ship #{n}, tile {tile}", n=number, tile=t + 1 if isinstance(t, int) else t)
    return repr(dest)


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """The engine's `describe`, in the language of the context: what a player did, in the past
    and without its subject (the caller writes the player's name before it)."""
    t = move.get("type")
    if t == "choose_action":
        space = move.get("space")
        if state is not None and isinstance(space, int) and 0 <= space < data.SPACES:
            blue = state.blue_on(space)
            return tr(
                "chose {action} on space {space} (bonus {bonus}, {blue})",
                action=words.action_label(state.tiles[space]),
                space=space,
                bonus=words.bonus_text(data.SPACE_BONUS[space]),
                blue=words.counted(blue, "blue worker"),
            )
        return tr("chose the action on space {space}", space=space)
    if t == "take_bonus":
        return tr("took {item} as bonus", item=_item_a(move.get("item")))
    if t == "buy":
        item = move.get("item")
        if state is not None and state.turn is not None and isinstance(item, str):
            try:
                price = price_of(state, item)
            except (KeyError, ValueError, AssertionError):
                price = None
            if price is not None:
                params = {
                    "item": _item_a(item),
                    "price": words.taler(price),
                    "dest": dest_text(move.get("to")),
                }
                if item in state.turn.bought:
                    return tr("bought {item} again for {price} → {dest}", **params)
                return tr("bought {item} for {price} → {dest}", **params)
        return tr("bought {item} → {dest}", item=_item_a(item), dest=dest_text(move.get("to")))
    if t == "take_free_tile":
        return tr("took {item} for free (to storage)", item=_item_a(move.get("item")))
    if t == "transport":
        return tr(
            "moved {item} → {dest}",
            item=_item_a(move.get("item")),
            dest=dest_text(move.get("to")),
        )
    if t == "money":
        n = move.get("workers")
        if isinstance(n, int):
            return tr(
                "took money: {workers} → {taler}",
                workers=words.counted(n, "worker"),
                taler=words.taler(2 * n),
            )
        return tr("took money: {n} workers → ? taler", n=n)
    if t == "crowns":
        n = move.get("workers")
        if state is not None and state.turn is not None and isinstance(n, int):
            crowns = state.players[state.turn.seat].crowns
            raw = crowns * n
            vp = min(raw, data.CROWN_CAP - state.turn.crown_vp)
            return tr(
                "scored crowns: {workers} × {crowns} → {vp} VP{capped}",
                workers=words.counted(n, "worker"),
                crowns=words.counted(crowns, "crown"),
                vp=vp,
                capped=tr(" (capped from {raw})", raw=raw) if vp < raw else "",
            )
        if isinstance(n, int):
            return tr("scored crowns with {workers}", workers=words.counted(n, "worker"))
        return tr("scored crowns with {n} workers", n=n)
    if t == "deliver":
        ship = move.get("ship")
        return tr("delivered ship #{n}", n=ship + 1 if isinstance(ship, int) else ship)
    if t == "reward":
        kind: Any = move.get("kind")
        if kind == "goods" and isinstance(move.get("goods"), list):
            goods = " + ".join(words.goods_word(str(g)) for g in move["goods"])
            return tr("took as reward: {reward}", reward=goods)
        if isinstance(kind, str):
            name = words.reward_name(kind) if kind in data.REWARD_NAMES else repr(kind)
        else:
            name = repr(kind)
        return tr("took as reward: {reward}", reward=name)
    if t == "extra":
        act: Any = move.get("action")
        if isinstance(act, str):
            label = words.action_label(act) if act in data.ACTION_NAMES else repr(act)
        else:
            label = repr(act)
        return tr(
            "used the extra action: {action} (+{workers})",
            action=label,
            workers=words.counted(data.EXTRA_WORKERS, "worker"),
        )
    if t == "end_extra":
        return tr("ended the extra action")
    if t == "pass":
        return tr("passed")
    if t == "end_turn":
        return tr("ended their turn")
    return tr("Unknown move {move}", move=repr(move))
