"""Nauticus moves in words, in the language of the context: the move log's lines.

The engine's `describe` (engine/nauticus/describe.py) is the English original; this says the
same thing through the catalogue, branch for branch, so an English game logs exactly the
engine's words (a test holds them equal on every move of many games) and a French game logs
French.
"""

from __future__ import annotations

from typing import Any

from bot.games.nauticus import words
from bot.i18n import tr, trn
from engine.nauticus import data
from engine.nauticus.rules import price_of
from engine.nauticus.state import State


def _item(item: Any) -> str:
    if isinstance(item, str) and item in data.ITEM_INDEX:
        return words.item_label(item)
    return repr(item)


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
    """The engine's `describe`, in the language of the context."""
    t = move.get("type")
    if t == "choose_action":
        space = move.get("space")
        if state is not None and isinstance(space, int) and 0 <= space < data.SPACES:
            blue = state.blue_on(space)
            # The engine says "blue workers" for any count; French agrees in number.
            return trn(
                "Choose {action} on space {space} (bonus {bonus}, {blue} blue workers)",
                "Choose {action} on space {space} (bonus {bonus}, {blue} blue workers)",
                blue,
                action=words.action_label(state.tiles[space]),
                space=space,
                bonus=words.bonus_text(data.SPACE_BONUS[space]),
                blue=blue,
            )
        return tr("Choose the action on space {space}", space=space)
    if t == "take_bonus":
        return tr("Take a {item} as bonus", item=_item(move.get("item")))
    if t == "buy":
        item = move.get("item")
        if state is not None and state.turn is not None and isinstance(item, str):
            try:
                price = price_of(state, item)
            except (KeyError, ValueError, AssertionError):
                price = None
            if price is not None:
                params = {"item": _item(item), "price": price, "dest": dest_text(move.get("to"))}
                if item in state.turn.bought:
                    return tr("Buy another {item} for {price} taler → {dest}", **params)
                return tr("Buy {item} for {price} taler → {dest}", **params)
        return tr("Buy {item} → {dest}", item=_item(item), dest=dest_text(move.get("to")))
    if t == "take_free_tile":
        return tr("Take a free {item} (to storage)", item=_item(move.get("item")))
    if t == "transport":
        return tr(
            "Transport {item} → {dest}",
            item=_item(move.get("item")),
            dest=dest_text(move.get("to")),
        )
    if t == "money":
        n = move.get("workers")
        taler = 2 * n if isinstance(n, int) else "?"
        if n == 1:
            return tr("Money: {n} worker → {taler} taler", n=n, taler=taler)
        return tr("Money: {n} workers → {taler} taler", n=n, taler=taler)
    if t == "crowns":
        n = move.get("workers")
        if state is not None and state.turn is not None and isinstance(n, int):
            crowns = state.players[state.turn.seat].crowns
            raw = crowns * n
            vp = min(raw, data.CROWN_CAP - state.turn.crown_vp)
            params = {
                "n": n,
                "crowns": crowns,
                "vp": vp,
                "capped": tr(" (capped from {raw})", raw=raw) if vp < raw else "",
            }
            if n == 1:
                return tr("Crowns: {n} worker × {crowns} crowns → {vp} VP{capped}", **params)
            return tr("Crowns: {n} workers × {crowns} crowns → {vp} VP{capped}", **params)
        return tr("Crowns: {n} workers", n=n)
    if t == "deliver":
        ship = move.get("ship")
        return tr("Deliver ship #{n}", n=ship + 1 if isinstance(ship, int) else ship)
    if t == "reward":
        kind: Any = move.get("kind")
        if kind == "goods" and isinstance(move.get("goods"), list):
            goods = " + ".join(words.goods_word(str(g)) for g in move["goods"])
            return tr("Reward: {reward}", reward=goods)
        if isinstance(kind, str):
            name = words.reward_name(kind) if kind in data.REWARD_NAMES else repr(kind)
        else:
            name = repr(kind)
        return tr("Reward: {reward}", reward=name)
    if t == "extra":
        act: Any = move.get("action")
        if isinstance(act, str):
            label = words.action_label(act) if act in data.ACTION_NAMES else repr(act)
        else:
            label = repr(act)
        return tr("Extra action: {action} (+{n} workers)", action=label, n=data.EXTRA_WORKERS)
    if t == "end_extra":
        return tr("End the extra action")
    if t == "pass":
        return tr("Pass")
    if t == "end_turn":
        return tr("End turn")
    return tr("Unknown move {move}", move=repr(move))
