"""Plain-text summaries of the pictures (alt text), in the words of UX.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

from render.palette import player_words

CREST = {
    "whale": "Whale",
    "anchor_ship": "Anchor ship",
    "helm": "Helm",
    "tower": "Tower",
    "crown": "Crown",
}
HULL = {"bow": "bow", "middle": "middle", "stern": "stern", "one_ship": "one-ship"}


def item_words(item: str) -> str:
    """'mast_helm' -> 'Helm mast', 'one_ship' -> 'one-ship', 'coffee' -> 'coffee'."""
    if item in HULL:
        return HULL[item]
    if item.startswith(("mast_", "sail_")):
        return f"{CREST[item[5:]]} {item[:4]}"
    return item


def _counted(items: list[str]) -> str:
    counts = Counter(items)
    return ", ".join(
        f"{n} {item_words(i)}" if n > 1 else item_words(i) for i, n in sorted(counts.items())
    )


def board_alt(view: dict[str, Any]) -> str:
    """Round, start player, each space (bonus, blue workers, tile, prices), scores, supply.

    Kept under Discord's 1,024-character limit for attachment descriptions: prices of flipped
    tiles are left out (the extra action pays 2 for any first copy), the supply is grouped.
    """
    lines = []
    head = f"Board, round {view['round']}/{view['rounds']}, phase {view['phase']}/7."
    if view["step"] == "over":
        head += " Game over."
    else:
        head += f" Start player: {player_words(view['start_player'])}."
    lines.append(head)
    for s in view["spaces"]:
        blue = s["blue"]
        marks = [f"+{s['bonus_text']}", f"{blue} blue worker{'' if blue == 1 else 's'}"]
        if view["wheel_anchor"] == s["index"]:
            marks.append("wheel's anchor")
        if view["anchor_tile"] == s["index"]:
            marks.append("anchor tile")
        text = f"Space {s['index']} ({', '.join(marks)}): {s['action'].capitalize()}"
        if s["flipped"]:
            text += ", flipped"
        else:
            if s["current"]:
                text += ", chosen now"
            if s["items"]:
                text += " — " + ", ".join(
                    f"{_short(it['item'])} {it['price']}" for it in s["items"]
                )
        lines.append(text + ".")
    lines.append(
        "Scores: "
        + "; ".join(f"{player_words(p['seat'])} {p['score']} VP" for p in view["players"])
        + "."
    )
    sup = view["supply"]
    groups = [
        ", ".join(f"{HULL[h]} {sup[h]}" for h in HULL),
        "masts " + ", ".join(f"{CREST[c]} {sup['mast_' + c]}" for c in CREST),
        "sails " + ", ".join(f"{CREST[c]} {sup['sail_' + c]}" for c in CREST),
        ", ".join(f"{g} {sup[g]}" for g in ("coffee", "grain", "fish", "salt")),
    ]
    lines.append("Supply: " + "; ".join(groups) + ".")
    return "\n".join(lines)


def _short(item: str) -> str:
    """Item words without 'mast'/'sail' where the tile already says which: 'Helm'."""
    if item.startswith(("mast_", "sail_")):
        return CREST[item[5:]]
    return item_words(item)


def _crests(crests: list[str]) -> str:
    counts = Counter(crests)
    return ", ".join(f"{n} {CREST[c]}" if n > 1 else CREST[c] for c, n in sorted(counts.items()))


def ship_words(ship: dict[str, Any]) -> str:
    """'#1 4-tile, finished (masts 2 Crown, 2 Whale; sails …; goods coffee, fish)'."""
    tiles = ship["tiles"]
    if ship["closed"]:
        hull = "one-ship" if ship["size"] == 1 else f"{ship['size']}-tile"
    else:
        hull = "-".join(HULL[t["hull"]] for t in tiles)
    head = f"#{ship['index'] + 1} {hull}, {'finished' if ship['finished'] else 'unfinished'}"
    parts = []
    masts = [t["mast"] for t in tiles if t["mast"]]
    sails = [t["sail"] for t in tiles if t["sail"]]
    goods = [t["good"] for t in tiles if t["good"]]
    if masts:
        parts.append("masts " + _crests(masts))
    if sails:
        parts.append("sails " + _crests(sails))
    if goods:
        parts.append("goods " + _counted(goods))
    return head + (" (" + "; ".join(parts) + ")" if parts else "")


def shipyard_alt(view: dict[str, Any], seat: int) -> str:
    """One player's resources, storage, delivered goods and ships."""
    p = view["players"][seat]
    face_up = [str(t["value"]) for t in p["pass_tiles"] if not t["flipped"]]
    flipped = sum(t["flipped"] for t in p["pass_tiles"])
    head = (
        f"Shipyard of {player_words(seat)}: {p['score']} VP, {p['workers']} workers, "
        f"{p['taler']} taler, {p['crowns']} crowns, extra action {p['extra']}, "
        f"pass tiles face up: {' '.join(face_up) or 'none'}"
        + (f" ({flipped} flipped)" if flipped else "")
        + "."
    )
    if view["start_player"] == seat and view["step"] != "over":
        head += " Start player."
    st = p["storage"]
    lines = [head]
    lines.append(
        f"Storage {st['used']}/{st['capacity']}: " + (_counted(st["items"]) or "empty") + "."
    )
    # In the board's goods order: a view that went through JSON may have its keys sorted.
    goods = ("coffee", "grain", "fish", "salt")
    delivered = ", ".join(f"{g} {p['delivered'][g]}" for g in goods if g in p["delivered"])
    lines.append(f"Delivered: {delivered}.")
    if p["ships"]:
        lines.append("Ships: " + "; ".join(ship_words(s) for s in p["ships"]) + ".")
    else:
        lines.append("No ships yet.")
    return "\n".join(lines)


def scores_alt(view: dict[str, Any]) -> str:
    """Final ranking with each player's breakdown."""
    lines = ["Final scores."]
    for s in sorted(view["final"], key=lambda s: (s["rank"], s["seat"])):
        goods = ", ".join(
            f"{g} {s['goods'][g]}→{s['goods_vp'][g]}"
            for g in ("coffee", "grain", "fish", "salt")
            if s["goods"].get(g)
        )
        ships = ", ".join(f"{n}×size {k}" for k, n in sorted(s["ships"].items()) if n)
        lines.append(
            f"{s['rank']}. {player_words(s['seat'])}: {s['vp']} VP = track {s['track']}"
            f" + goods {sum(s['goods_vp'].values())} ({goods or 'none'})"
            f" + ships {s['ships_vp']} ({ships or 'none'})"
            f" + leftovers {s['leftover_vp']} ({s['total_taler']} taler)."
            f" Tie-break {s['tiebreak'][0]}, {s['tiebreak'][1]}."
        )
    return "\n".join(lines)
