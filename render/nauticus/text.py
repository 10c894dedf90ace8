"""Plain-text summaries of the pictures (alt text), in the words of UX.md, in the language of
the context (`render.words`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from render.palette import player_words
from render.words import w, w_, wn

CREST = {
    "whale": w_("Whale"),
    "anchor_ship": w_("Anchor ship"),
    "helm": w_("Helm"),
    "tower": w_("Tower"),
    "crown": w_("Crown"),
}
HULL = {"bow": w_("bow"), "middle": w_("middle"), "stern": w_("stern"), "one_ship": w_("one-ship")}
GOODS = {"coffee": w_("coffee"), "grain": w_("grain"), "fish": w_("fish"), "salt": w_("salt")}
ACTIONS = {
    "hulls": w_("Hulls"),
    "masts": w_("Masts"),
    "sails": w_("Sails"),
    "goods": w_("Goods"),
    "transport": w_("Transport"),
    "money": w_("Money"),
    "deliver": w_("Deliver"),
    "crowns": w_("Crowns"),
}
TILES = {"mast": w_("mast"), "sail": w_("sail"), "good": w_("good")}


def crest(c: str) -> str:
    return w(CREST[c])


def good(g: str) -> str:
    return w(GOODS[g]) if g in GOODS else g


def item_words(item: str) -> str:
    """'mast_helm' -> 'Helm mast', 'one_ship' -> 'one-ship', 'coffee' -> 'coffee'."""
    if item in HULL:
        return w(HULL[item])
    if item.startswith("mast_"):
        return w("{crest} mast", crest=crest(item[5:]))
    if item.startswith("sail_"):
        return w("{crest} sail", crest=crest(item[5:]))
    return good(item)


def _counted(items: list[str]) -> str:
    counts = Counter(items)
    return ", ".join(
        f"{n} {item_words(i)}" if n > 1 else item_words(i) for i, n in sorted(counts.items())
    )


def bonus_words(b: dict[str, Any]) -> str:
    """The engine's bonus text ('1 worker + 1 good') from the bonus itself."""
    parts = []
    if b["workers"]:
        parts.append(wn("{n} worker", "{n} workers", b["workers"]))
    if b["taler"]:
        parts.append(w("{n} taler", n=b["taler"]))
    if b["vp"]:
        parts.append(w("{n} VP", n=b["vp"]))
    if b["tile"]:
        tile = TILES.get(b["tile"])
        parts.append(w("1 {tile}", tile=w(tile) if tile else b["tile"]))
    return " + ".join(parts)


def board_alt(view: dict[str, Any]) -> str:
    """Round, start player, each space (bonus, blue workers, tile, prices), scores, supply.

    Kept under Discord's 1,024-character limit for attachment descriptions: prices of flipped
    tiles are left out (the extra action pays 2 for any first copy), the supply is grouped.
    """
    lines = []
    head = w(
        "Board, round {round}/{rounds}, phase {phase}/7.",
        round=view["round"],
        rounds=view["rounds"],
        phase=view["phase"],
    )
    if view["step"] == "over":
        head += " " + w("Game over.")
    else:
        head += " " + w("Start player: {seat}.", seat=player_words(view["start_player"]))
    lines.append(head)
    for s in view["spaces"]:
        blue = s["blue"]
        marks = [
            "+" + bonus_words(s["bonus"]),
            wn("{n} blue worker", "{n} blue workers", blue),
        ]
        if view["wheel_anchor"] == s["index"]:
            marks.append(w("wheel's anchor"))
        if view["anchor_tile"] == s["index"]:
            marks.append(w("anchor tile"))
        action = ACTIONS.get(s["action"])
        text = w(
            "Space {n} ({marks}): {action}",
            n=s["index"],
            marks=", ".join(marks),
            action=w(action) if action else s["action"].capitalize(),
        )
        if s["flipped"]:
            text += w(", flipped")
        else:
            if s["current"]:
                text += w(", chosen now")
            if s["items"]:
                text += " — " + ", ".join(
                    f"{_short(it['item'])} {it['price']}" for it in s["items"]
                )
        lines.append(text + ".")
    scores = "; ".join(
        w("{seat} {n} VP", seat=player_words(p["seat"]), n=p["score"]) for p in view["players"]
    )
    lines.append(w("Scores: {scores}.", scores=scores))
    sup = view["supply"]
    groups = [
        ", ".join(f"{w(HULL[h])} {sup[h]}" for h in HULL),
        w("masts {list}", list=", ".join(f"{crest(c)} {sup['mast_' + c]}" for c in CREST)),
        w("sails {list}", list=", ".join(f"{crest(c)} {sup['sail_' + c]}" for c in CREST)),
        ", ".join(f"{good(g)} {sup[g]}" for g in ("coffee", "grain", "fish", "salt")),
    ]
    lines.append(w("Supply: {groups}.", groups="; ".join(groups)))
    return "\n".join(lines)


def _hull(tile: dict[str, Any]) -> str:
    word = HULL[tile["hull"]]
    return w(word)


def _short(item: str) -> str:
    """Item words without 'mast'/'sail' where the tile already says which: 'Helm'."""
    if item.startswith(("mast_", "sail_")):
        return crest(item[5:])
    return item_words(item)


def _crests(crests: list[str]) -> str:
    counts = Counter(crests)
    return ", ".join(f"{n} {crest(c)}" if n > 1 else crest(c) for c, n in sorted(counts.items()))


def ship_words(ship: dict[str, Any]) -> str:
    """'#1 4-tile, finished (masts 2 Crown, 2 Whale; sails …; goods coffee, fish)'."""
    tiles = ship["tiles"]
    if ship["closed"]:
        one = HULL.get("one_ship", "")
        hull = w(one) if ship["size"] == 1 else w("{n}-tile", n=ship["size"])
    else:
        hull = "-".join(_hull(t) for t in tiles)
    done = w("finished") if ship["finished"] else w("unfinished")
    head = f"#{ship['index'] + 1} {hull}, {done}"
    parts = []
    masts = [t["mast"] for t in tiles if t["mast"]]
    sails = [t["sail"] for t in tiles if t["sail"]]
    goods = [t["good"] for t in tiles if t["good"]]
    if masts:
        parts.append(w("masts {list}", list=_crests(masts)))
    if sails:
        parts.append(w("sails {list}", list=_crests(sails)))
    if goods:
        parts.append(w("goods {list}", list=_counted(goods)))
    return head + (" (" + "; ".join(parts) + ")" if parts else "")


def shipyard_alt(view: dict[str, Any], seat: int) -> str:
    """One player's resources, storage, delivered goods and ships."""
    p = view["players"][seat]
    face_up = [str(t["value"]) for t in p["pass_tiles"] if not t["flipped"]]
    flipped = sum(t["flipped"] for t in p["pass_tiles"])
    extra = {"ready": w_("ready"), "used": w_("used")}.get(p["extra"])
    head = w(
        "Shipyard of {seat}: {vp} VP, {workers} workers, {taler} taler, {crowns} crowns, extra "
        "action {extra}, pass tiles face up: {tiles}",
        seat=player_words(seat),
        vp=p["score"],
        workers=p["workers"],
        taler=p["taler"],
        crowns=p["crowns"],
        extra=w(extra) if extra else p["extra"],
        tiles=" ".join(face_up) or w("none"),
    )
    head += (w(" ({n} flipped)", n=flipped) if flipped else "") + "."
    if view["start_player"] == seat and view["step"] != "over":
        head += " " + w("Start player.")
    st = p["storage"]
    lines = [head]
    lines.append(
        w(
            "Storage {used}/{capacity}: {items}.",
            used=st["used"],
            capacity=st["capacity"],
            items=_counted(st["items"]) or w("empty"),
        )
    )
    # In the board's goods order: a view that went through JSON may have its keys sorted.
    goods = ("coffee", "grain", "fish", "salt")
    delivered = ", ".join(f"{good(g)} {p['delivered'][g]}" for g in goods if g in p["delivered"])
    lines.append(w("Delivered: {goods}.", goods=delivered))
    if p["ships"]:
        ships = "; ".join(ship_words(s) for s in p["ships"])
        lines.append(w("Ships: {ships}.", ships=ships))
    else:
        lines.append(w("No ships yet."))
    return "\n".join(lines)


def scores_alt(view: dict[str, Any]) -> str:
    """Final ranking with each player's breakdown."""
    lines = [w("Final scores.")]
    for s in sorted(view["final"], key=lambda s: (s["rank"], s["seat"])):
        goods = ", ".join(
            f"{good(g)} {s['goods'][g]}→{s['goods_vp'][g]}"
            for g in ("coffee", "grain", "fish", "salt")
            if s["goods"].get(g)
        )
        ships = ", ".join(w("{n}×size {k}", n=n, k=k) for k, n in sorted(s["ships"].items()) if n)
        lines.append(
            w(
                "{rank}. {seat}: {vp} VP = track {track} + goods {goods_vp} ({goods}) + ships "
                "{ships_vp} ({ships}) + leftovers {leftover} ({taler} taler). Tie-break {t0}, "
                "{t1}.",
                rank=s["rank"],
                seat=player_words(s["seat"]),
                vp=s["vp"],
                track=s["track"],
                goods_vp=sum(s["goods_vp"].values()),
                goods=goods or w("none"),
                ships_vp=s["ships_vp"],
                ships=ships or w("none"),
                leftover=s["leftover_vp"],
                taler=s["total_taler"],
                t0=s["tiebreak"][0],
                t1=s["tiebreak"][1],
            )
        )
    return "\n".join(lines)
