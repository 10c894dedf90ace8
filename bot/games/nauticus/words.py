"""Player-facing words for items, destinations and costs, shared by the panel, autocomplete and
the channel's texts, in the language of the context (`bot.i18n`).

The engine names things in English (`engine.nauticus.data`); the tables here mark the same
words for the catalogue, keyed by the engine's ids, and say them through `tr` when shown. The
French words are the French rulebook's (proue, poupe, mât, voile, armoiries, entrepôt…).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, tr, trn
from engine.nauticus import State, data
from engine.nauticus.rules import price_of
from engine.nauticus.state import Player, Ship

HULL_WORDS = {
    "bow": N_("bow"),
    "middle": N_("middle"),
    "stern": N_("stern"),
    "one_ship": N_("one-ship"),
}
CREST_WORDS = {
    "whale": N_("Whale"),
    "anchor_ship": N_("Anchor ship"),
    "helm": N_("Helm"),
    "tower": N_("Tower"),
    "crown": N_("Crown"),
}
GOODS_WORDS = {"coffee": N_("coffee"), "grain": N_("grain"), "fish": N_("fish"), "salt": N_("salt")}
ACTION_WORDS = {
    "hulls": N_("Hulls"),
    "masts": N_("Masts"),
    "sails": N_("Sails"),
    "goods": N_("Goods"),
    "transport": N_("Transport"),
    "money": N_("Money"),
    "deliver": N_("Deliver"),
    "crowns": N_("Crowns"),
}
END_WORDS = {"front": N_("front"), "back": N_("back")}


def item_label(item: str) -> str:
    """'mast_helm' -> 'Helm mast'; goods and hulls keep their plain names."""
    if item in HULL_WORDS:
        return tr(HULL_WORDS[item])
    if item in GOODS_WORDS:
        return tr(GOODS_WORDS[item])
    for kind in ("mast", "sail"):
        crest = CREST_WORDS.get(item.removeprefix(f"{kind}_")) if item.startswith(kind) else None
        if crest is not None:
            return (
                tr("{crest} mast", crest=tr(crest))
                if kind == "mast"
                else tr("{crest} sail", crest=tr(crest))
            )
    return data.item_name(item) if item in data.ITEM_INDEX else item


# An item as the object of a verb ("bought a bow", "took an Anchor ship mast", "some coffee"):
# French needs each word's gender and article ("une proue", "un mât", "du café", "des céréales"),
# so each is a whole phrase of the catalogue.
_ITEM_A = {
    "bow": N_("a bow"),
    "middle": N_("a middle"),
    "stern": N_("a stern"),
    "one_ship": N_("a one-ship"),
    "coffee": N_("some coffee"),
    "grain": N_("some grain"),
    "fish": N_("some fish"),
    "salt": N_("some salt"),
}


def item_a(item: str) -> str:
    """`item` with its indefinite article, as the object of a verb: 'a bow', 'an Anchor ship
    mast', 'some coffee' (French 'une proue', 'un mât Bateau à ancre', 'du café')."""
    if item in _ITEM_A:
        return tr(_ITEM_A[item])
    crest = CREST_WORDS.get(item.split("_", 1)[-1])
    if crest is not None and item.startswith("mast_"):
        return tr("a {crest} mast", crest=tr(crest))
    if crest is not None and item.startswith("sail_"):
        return tr("a {crest} sail", crest=tr(crest))
    return item_label(item)


def goods_word(good: str) -> str:
    return tr(GOODS_WORDS[good]) if good in GOODS_WORDS else good


def crest_word(crest: str) -> str:
    return tr(CREST_WORDS[crest]) if crest in CREST_WORDS else crest


def plural(n: int, word: str) -> str:
    """A count and an English word: only for the words `counted` knows in other languages."""
    return counted(n, word)


# The counted words of the Nauticus texts, each with its plural for the catalogue.
_COUNTED = {
    "worker": lambda n: trn("{n} worker", "{n} workers", n),
    "blue worker": lambda n: trn("{n} blue worker", "{n} blue workers", n),
    "blue worker left": lambda n: trn("{n} blue worker left", "{n} blue workers left", n),
    "crown": lambda n: trn("{n} crown", "{n} crowns", n),
    "reward": lambda n: trn("{n} reward", "{n} rewards", n),
    "mast": lambda n: trn("{n} mast", "{n} masts", n),
    "sail": lambda n: trn("{n} sail", "{n} sails", n),
}


def counted(n: int, word: str) -> str:
    """'3 workers' in the language of the context."""
    say = _COUNTED.get(word)
    return say(n) if say is not None else f"{n} {word}" + ("" if n == 1 else "s")


def taler(n: int) -> str:
    """'1 taler', '2 taler' (French '1 thaler', '2 thalers')."""
    return trn("{n} taler", "{n} taler", n)


def bonus_text(bonus: data.Bonus) -> str:
    """'1 worker + 1 good' style text of a space bonus (the engine's `bonus_text`, said in the
    language of the context)."""
    parts: list[str] = []
    if bonus.workers:
        parts.append(counted(bonus.workers, "worker"))
    if bonus.taler:
        parts.append(taler(bonus.taler))
    if bonus.vp:
        parts.append(tr("{n} VP", n=bonus.vp))
    if bonus.tile:
        parts.append(tr("1 {tile}", tile=tile_word(bonus.tile)))
    return " + ".join(parts)


def tile_word(tile: str) -> str:
    """A bonus tile kind ('mast', 'sail', 'good', …) as a word."""
    return tr(_TILE_WORDS[tile]) if tile in _TILE_WORDS else tile


_TILE_WORDS = {"mast": N_("mast"), "sail": N_("sail"), "good": N_("good"), "tile": N_("tile")}


def reward_name(kind: str) -> str:
    """A reward kind in words ('Crown mast', '3 VP', …)."""
    named = {
        "crown_mast": lambda: tr("Crown mast"),
        "crown_sail": lambda: tr("Crown sail"),
        "vp": lambda: tr("{n} VP", n=data.REWARD_VP),
        "taler": lambda: taler(data.REWARD_TALER),
        "workers": lambda: counted(data.REWARD_WORKERS, "worker"),
        "goods": lambda: tr("{n} different goods", n=data.REWARD_GOODS),
    }.get(kind)
    return named() if named is not None else data.REWARD_NAMES.get(kind, kind)


def ship_summary(ship: Ship) -> str:
    """Hull tiles front to back, '…' on an open end, then masts, sails and crest: 'bow-middle…'."""
    hull = "-".join(tr(HULL_WORDS[h]) for h in ship.hulls)
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
        parts.append(crest_word(crest))
    if ship.finished:
        parts.append(tr("finished"))
    return ", ".join(parts)


def dest_label(player: Player, item: str, to: Any) -> str:
    """Words for where `item` goes: 'Storage (7/12 used)', 'New ship', 'Ship #2 (bow…) — add at
    the back'."""
    if to == "storage":
        units = data.item_units(item)
        return tr(
            "Storage ({used}/{size} used, needs {units})",
            used=player.storage_used,
            size=data.STORAGE_UNITS,
            units=units,
        )
    if isinstance(to, dict):
        n = to.get("ship")
        if n == "new":
            return tr("New ship")
        if isinstance(n, int) and 0 <= n < len(player.ships):
            ship = player.ships[n]
            head = tr("Ship #{n} ({summary})", n=n + 1, summary=ship_summary(ship))
            if "end" in to:
                if to["end"] == "front":
                    return tr("{ship} — add at the front", ship=head)
                return tr("{ship} — add at the back", ship=head)
            tile = to.get("tile")
            if isinstance(tile, int) and 0 <= tile < ship.size:
                return tr(
                    "{ship} — tile {n} ({hull})",
                    ship=head,
                    n=tile + 1,
                    hull=tr(HULL_WORDS[ship.hulls[tile]]),
                )
    return str(to)


def buy_cost(state: State, item: str) -> str:
    """'1 taler, 1 worker' — the price of the next copy of `item` now (N-BUY-1, N-EXTRA-2)."""
    price = price_of(state, item)
    return tr("{price}, 1 worker", price=taler(price))


def buy_label(state: State, item: str) -> str:
    turn = state.turn
    again = turn is not None and item in turn.bought
    if again:
        label = tr("Buy another {item} — {cost}", item=item_label(item), cost=buy_cost(state, item))
    else:
        label = tr("Buy {item} — {cost}", item=item_label(item), cost=buy_cost(state, item))
    if price_of(state, item) == 0:
        label += tr(" (free: to storage)")
    return label


def reward_label(kind: str, goods: list[str] | None = None) -> str:
    if kind == "goods" and goods:
        if len(goods) == 1:
            return tr("Goods: {good} (the only kind left)", good=goods_word(goods[0]))
        return tr("Goods: {a} + {b}", a=goods_word(goods[0]), b=goods_word(goods[1]))
    return reward_name(kind)


def space_label(state: State, space: int) -> str:
    return tr(
        "{action} on space {space} — bonus {bonus}, {blue}",
        action=action_label(state.tiles[space]),
        space=space,
        bonus=bonus_text(data.SPACE_BONUS[space]),
        blue=counted(state.blue_on(space), "blue worker"),
    )


def workers_label(state: State, kind: str, n: int) -> str:
    if kind == "money":
        return tr("{workers} → {taler}", workers=counted(n, "worker"), taler=taler(2 * n))
    turn = state.turn
    crowns = state.players[turn.seat].crowns if turn is not None else 0
    used = turn.crown_vp if turn is not None else 0
    raw = crowns * n
    vp = min(raw, data.CROWN_CAP - used)
    capped = tr(" (capped from {raw})", raw=raw) if vp < raw else ""
    return tr(
        "{workers} × {crowns} → {vp} VP{capped}",
        workers=counted(n, "worker"),
        crowns=counted(crowns, "crown"),
        vp=vp,
        capped=capped,
    )


def deliver_label(player: Player, ship: int) -> str:
    s = player.ships[ship]
    goods = ", ".join(goods_word(g) for g in s.goods if g is not None)
    return tr(
        "Deliver ship #{n} ({goods}) — {workers}",
        n=ship + 1,
        goods=goods,
        workers=counted(s.size, "worker"),
    )


def action_label(action: str) -> str:
    return tr(ACTION_WORDS[action]) if action in ACTION_WORDS else action
