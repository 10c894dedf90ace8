"""Player-facing words for items, destinations and costs, shared by the panel and autocomplete."""

from __future__ import annotations

from typing import Any

from engine.nauticus import State, data
from engine.nauticus.rules import price_of
from engine.nauticus.state import Player, Ship


def item_label(item: str) -> str:
    """'mast_helm' -> 'Helm mast'; goods and hulls keep their plain names."""
    return data.item_name(item) if item in data.ITEM_INDEX else item


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def ship_summary(ship: Ship) -> str:
    """Hull tiles front to back, '…' on an open end, then masts, sails and crest: 'bow-middle…'."""
    hull = "-".join(data.HULL_NAMES[h] for h in ship.hulls)
    front = "…" if ship.front_open else ""
    back = "…" if ship.back_open else ""
    masts = sum(m is not None for m in ship.masts)
    sails = sum(s is not None for s in ship.sails)
    parts = [f"{front}{hull}{back}"]
    if masts:
        parts.append(plural(masts, "mast"))
    if sails:
        parts.append(plural(sails, "sail"))
    crest = ship.crest
    if crest is not None:
        parts.append(data.CREST_NAMES[crest])
    if ship.finished:
        parts.append("finished")
    return ", ".join(parts)


def dest_label(player: Player, item: str, to: Any) -> str:
    """Words for where `item` goes: 'Storage (7/12 used)', 'New ship', 'Ship #2 (bow…) — add at
    the back'."""
    if to == "storage":
        units = data.item_units(item)
        return f"Storage ({player.storage_used}/{data.STORAGE_UNITS} used, needs {units})"
    if isinstance(to, dict):
        n = to.get("ship")
        if n == "new":
            return "New ship"
        if isinstance(n, int) and 0 <= n < len(player.ships):
            ship = player.ships[n]
            head = f"Ship #{n + 1} ({ship_summary(ship)})"
            if "end" in to:
                return f"{head} — add at the {to['end']}"
            tile = to.get("tile")
            if isinstance(tile, int) and 0 <= tile < ship.size:
                return f"{head} — tile {tile + 1} ({data.HULL_NAMES[ship.hulls[tile]]})"
    return str(to)


def buy_cost(state: State, item: str) -> str:
    """'1 taler, 1 worker' — the price of the next copy of `item` now (N-BUY-1, N-EXTRA-2)."""
    price = price_of(state, item)
    return f"{price} taler, 1 worker"


def buy_label(state: State, item: str) -> str:
    turn = state.turn
    again = turn is not None and item in turn.bought
    what = f"another {item_label(item)}" if again else item_label(item)
    label = f"Buy {what} — {buy_cost(state, item)}"
    if price_of(state, item) == 0:
        label += " (free: to storage)"
    return label


def reward_label(kind: str, goods: list[str] | None = None) -> str:
    if kind == "goods" and goods:
        if len(goods) == 1:
            return f"Goods: {goods[0]} (the only kind left)"
        return f"Goods: {goods[0]} + {goods[1]}"
    return data.REWARD_NAMES.get(kind, kind)


def space_label(state: State, space: int) -> str:
    action = data.ACTION_NAMES[state.tiles[space]]
    bonus = data.bonus_text(data.SPACE_BONUS[space])
    return (
        f"{action} on space {space} — bonus {bonus}, {plural(state.blue_on(space), 'blue worker')}"
    )


def workers_label(state: State, kind: str, n: int) -> str:
    if kind == "money":
        return f"{plural(n, 'worker')} → {2 * n} taler"
    turn = state.turn
    crowns = state.players[turn.seat].crowns if turn is not None else 0
    used = turn.crown_vp if turn is not None else 0
    raw = crowns * n
    vp = min(raw, data.CROWN_CAP - used)
    capped = f" (capped from {raw})" if vp < raw else ""
    return f"{plural(n, 'worker')} × {plural(crowns, 'crown')} → {vp} VP{capped}"


def deliver_label(player: Player, ship: int) -> str:
    s = player.ships[ship]
    goods = ", ".join(g for g in s.goods if g is not None)
    return f"Deliver ship #{ship + 1} ({goods}) — {plural(s.size, 'worker')}"


def action_label(action: str) -> str:
    return data.ACTION_NAMES.get(action, action)
