"""Plain-text summaries of the pictures (alt text), in the words of UX.md, in the language of
the context (`render.words`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from render.palette import player_words
from render.text import ALT_LIMIT, clauses, fit
from render.words import w, w_, wc, wn

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


def count_words(item: str, n: int) -> str:
    """`n` of `item`, the noun agreeing with its count: '1 bow', '2 Helm masts', '3 coffee'
    (French '2 mâts Gouvernail', '3 cafés')."""
    if item.startswith("mast_"):
        return wn("{n} {crest} mast", "{n} {crest} masts", n, crest=crest(item[5:]))
    if item.startswith("sail_"):
        return wn("{n} {crest} sail", "{n} {crest} sails", n, crest=crest(item[5:]))
    say = _COUNTED.get(item)
    return say(n) if say is not None else f"{n} {item}"


# Each hull tile and good with its plural, for the catalogue (French nouns agree: "2 proues").
_COUNTED = {
    "bow": lambda n: wn("{n} bow", "{n} bows", n),
    "middle": lambda n: wn("{n} middle", "{n} middles", n),
    "stern": lambda n: wn("{n} stern", "{n} sterns", n),
    "one_ship": lambda n: wn("{n} one-ship", "{n} one-ships", n),
    "coffee": lambda n: wn("{n} coffee", "{n} coffee", n),
    "grain": lambda n: wn("{n} grain", "{n} grain", n),
    "fish": lambda n: wn("{n} fish", "{n} fish", n),
    "salt": lambda n: wn("{n} salt", "{n} salt", n),
}


def _counted(items: list[str]) -> str:
    counts = Counter(items)
    return ", ".join(count_words(i, n) for i, n in sorted(counts.items()))


def taler_words(n: int) -> str:
    """'1 taler', '2 taler' (French '1 thaler', '2 thalers')."""
    return wn("{n} taler", "{n} taler", n)


def bonus_words(b: dict[str, Any]) -> str:
    """The engine's bonus text ('1 worker + 1 good') from the bonus itself."""
    parts = []
    if b["workers"]:
        parts.append(wn("{n} worker", "{n} workers", b["workers"]))
    if b["taler"]:
        parts.append(taler_words(b["taler"]))
    if b["vp"]:
        parts.append(w("{n} VP", n=b["vp"]))
    if b["tile"]:
        tile = TILES.get(b["tile"])
        parts.append(w("1 {tile}", tile=w(tile) if tile else b["tile"]))
    return " + ".join(parts)


def board_alt(view: dict[str, Any]) -> str:
    """Round, start player, each space (bonus, tile, prices), blue workers, supply, scores.

    Kept under Discord's 1,024-character limit for attachment descriptions (a 4-player French
    board said everything in up to ~1,140) by saying things once rather than by leaving any
    out: the blue workers in one sentence grouped by their number instead of "2 blue workers"
    in every space, masts and sails of a crest together ("Whale 11 and 12"), the supply in one
    sentence, the scores as "VP: 33 for seat 1, 26 for seat 2" (the seats' colours are in the
    shipyards' texts); the prices and bonus of a turned-over space are left out (the extra
    action pays 2 for any first copy and gives no bonus). The scores come last, and a test over
    many states checks they are never cut.
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
        head += " " + w("Start player: {seat}.", seat=w("seat {n}", n=view["start_player"] + 1))
    lines.append(head)
    for s in view["spaces"]:
        # A turned-over space's bonus can't be had again this round (N-ROUND-3; the extra
        # action gives none, N-EXTRA-3) and the tiles are shuffled for the next: not said.
        marks = [] if s["flipped"] else ["+" + bonus_words(s["bonus"])]
        if view["wheel_anchor"] == s["index"]:
            marks.append(w("wheel's anchor"))
        if view["anchor_tile"] == s["index"]:
            marks.append(w("anchor tile"))
        action = ACTIONS.get(s["action"])
        said = w(action) if action else s["action"].capitalize()
        if marks:
            text = w(
                "Space {n} ({marks}): {action}", n=s["index"], marks=", ".join(marks), action=said
            )
        else:
            text = w("Space {n}: {action}", n=s["index"], action=said)
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
    blue = _blue_words(view["spaces"])
    if blue:
        lines.append(blue)
    sup = view["supply"]
    hulls = ", ".join(f"{w(HULL[h])} {sup[h]}" for h in HULL)
    crests = ", ".join(
        w(
            "{crest} {masts} and {sails}",
            crest=crest(c),
            masts=sup["mast_" + c],
            sails=sup["sail_" + c],
        )
        for c in CREST
    )
    goods = ", ".join(f"{good(g)} {sup[g]}" for g in ("coffee", "grain", "fish", "salt"))
    lines.append(w("Supply: {list}.", list=f"{hulls}, {goods}"))
    lines.append(w("Masts and sails: {list}.", list=crests))
    # Last, each seat by its number (the shipyards' texts say its colour and symbol).
    scores = ", ".join(
        w("{vp} for {seat}", vp=p["score"], seat=w("seat {n}", n=p["seat"] + 1))
        for p in view["players"]
    )
    lines.append(w("VP: {scores}.", scores=scores))
    return fit("\n".join(lines))


def _blue_words(spaces: list[dict[str, Any]]) -> str:
    """'Blue workers: spaces 1 and 6 have 3; space 4 has 1.' (most first), '' if none."""
    by_count: dict[int, list[int]] = {}
    for s in spaces:
        if s["blue"]:
            by_count.setdefault(s["blue"], []).append(s["index"])
    groups = []
    for n, where in sorted(by_count.items(), reverse=True):
        numbers = [str(i) for i in where]
        if len(numbers) > 1:
            listed = w("{list} and {last}", list=", ".join(numbers[:-1]), last=numbers[-1])
        else:
            listed = numbers[0]
        groups.append(
            wn(
                "space {spaces} has {count}",
                "spaces {spaces} have {count}",
                len(where),
                count=n,
                spaces=listed,
            )
        )
    if not groups:
        return ""
    return w("Blue workers: {groups}.", groups=clauses(groups))


def _short(item: str) -> str:
    """Item words without 'mast'/'sail' where the tile already says which: 'Helm'."""
    if item.startswith(("mast_", "sail_")):
        return crest(item[5:])
    return item_words(item)


def _hull_and_cargo(ship: dict[str, Any]) -> tuple[str, str]:
    """A ship's hull ('4 tiles', 'one-ship', 'bow, middle') and cargo ('2 Crown masts, 1
    coffee'; '' when bare)."""
    tiles = ship["tiles"]
    if ship["closed"]:
        one = HULL.get("one_ship", "")
        hull = w(one) if ship["size"] == 1 else wn("{n} tile", "{n} tiles", ship["size"])
    else:
        hull = ", ".join(item_words(t["hull"]) for t in tiles)
    masts = [f"mast_{t['mast']}" for t in tiles if t["mast"]]
    sails = [f"sail_{t['sail']}" for t in tiles if t["sail"]]
    goods = [t["good"] for t in tiles if t["good"]]
    cargo = ", ".join(
        count_words(i, n) for kind in (masts, sails, goods) for i, n in _in_order(kind)
    )
    return hull, cargo


def ship_words(ship: dict[str, Any]) -> str:
    """'Ship 1 (4 tiles), finished: 2 Crown masts, 2 Whale masts, 1 Whale sail, 1 coffee.'"""
    hull, cargo = _hull_and_cargo(ship)
    done = wc("ship", "finished") if ship["finished"] else wc("ship", "unfinished")
    params = {"n": ship["index"] + 1, "hull": hull, "done": done}
    if cargo:
        return w("Ship {n} ({hull}), {done}: {cargo}.", cargo=cargo, **params)
    return w("Ship {n} ({hull}), {done}.", **params)


def _ships_by_state(ships: list[dict[str, Any]]) -> str:
    """The same facts as `ship_words`, 'Ship' and the state said once for all ships alike:
    'Unfinished ships: 1, bow with 1 Helm mast; 3, stern. Finished ships: 2, one-ship with 1
    Tower mast, 1 Tower sail.'"""
    said: dict[bool, list[str]] = {False: [], True: []}
    for ship in ships:
        hull, cargo = _hull_and_cargo(ship)
        n = ship["index"] + 1
        said[ship["finished"]].append(
            w("{n}, {hull} with {cargo}", n=n, hull=hull, cargo=cargo)
            if cargo
            else w("{n}, {hull}", n=n, hull=hull)
        )
    out = []
    if said[False]:
        out.append(w("Unfinished ships: {list}.", list=clauses(said[False])))
    if said[True]:
        out.append(w("Finished ships: {list}.", list=clauses(said[True])))
    return " ".join(out)


def _in_order(items: list[str]) -> list[tuple[str, int]]:
    return sorted(Counter(items).items())


def _shipyard_parts(
    view: dict[str, Any], seat: int, by_state: bool = False
) -> tuple[str, list[tuple[str, str]]]:
    """One shipyard's opening sentence (seat, VP, workers, taler, crowns) and its other
    sentences by what they say: extra action, pass tiles, start player, storage, delivered
    goods, ships (one by one; or `by_state`, shorter: finished and unfinished ones together,
    and only the goods delivered)."""
    p = view["players"][seat]
    face_up = [str(t["value"]) for t in p["pass_tiles"] if not t["flipped"]]
    flipped = sum(t["flipped"] for t in p["pass_tiles"])
    head = w(
        "Shipyard of {seat}: {vp} VP, {workers}, {taler}, {crowns}.",
        seat=player_words(seat),
        vp=p["score"],
        workers=wn("{n} worker", "{n} workers", p["workers"]),
        taler=taler_words(p["taler"]),
        crowns=wn("{n} crown", "{n} crowns", p["crowns"]),
    )
    extra = {"ready": w_("Extra action ready."), "used": w_("Extra action used.")}.get(p["extra"])
    parts = [("extra", w(extra) if extra else p["extra"])]
    if face_up:
        tiles = w("Pass tiles face up: {tiles}", tiles=", ".join(face_up))
    else:
        tiles = w("No pass tile face up")
    if flipped:
        tiles = wn("{tiles} ({n} flipped)", "{tiles} ({n} flipped)", flipped, tiles=tiles)
    parts.append(("tiles", tiles + "."))
    if view["start_player"] == seat and view["step"] != "over":
        parts.append(("start", w("Start player.")))
    st = p["storage"]
    parts.append(
        (
            "storage",
            w(
                "Storage {used}/{capacity}: {items}.",
                used=st["used"],
                capacity=st["capacity"],
                items=_counted(st["items"]) or w("empty"),
            ),
        )
    )
    # In the board's goods order: a view that went through JSON may have its keys sorted.
    goods = ("coffee", "grain", "fish", "salt")
    if by_state:
        # Shorter, the same facts: the goods delivered, those not said being none.
        sent = ", ".join(f"{good(g)} {p['delivered'][g]}" for g in goods if p["delivered"].get(g))
        said = w("Delivered: {goods}.", goods=sent) if sent else w("Nothing delivered.")
    else:
        delivered = ", ".join(
            f"{good(g)} {p['delivered'][g]}" for g in goods if g in p["delivered"]
        )
        said = w("Delivered: {goods}.", goods=delivered)
    parts.append(("delivered", said))
    if p["ships"] and by_state:
        parts.append(("ships", _ships_by_state(p["ships"])))
    elif p["ships"]:
        parts.append(("ships", " ".join(ship_words(s) for s in p["ships"])))
    else:
        parts.append(("ships", w("No ships yet.")))
    return head, parts


# The sentences of a shipyard's first line; each other one has a line of its own.
_FIRST_LINE = frozenset({"extra", "tiles", "start"})


def _shipyard_lines(head: str, parts: list[tuple[str, str]]) -> str:
    first = [head] + [text for key, text in parts if key in _FIRST_LINE]
    return "\n".join([" ".join(first)] + [text for key, text in parts if key not in _FIRST_LINE])


def shipyard_alt(view: dict[str, Any], seat: int) -> str:
    """One player's resources, storage, delivered goods and ships."""
    return fit(_shipyard_lines(*_shipyard_parts(view, seat)))


def _own_head(view: dict[str, Any], seat: int) -> str:
    p = view["players"][seat]
    who = player_words(seat)
    return w(
        "{seat}: {vp} VP, {workers}, {taler}, {crowns}.",
        seat=who[:1].upper() + who[1:],
        vp=p["score"],
        workers=wn("{n} worker", "{n} workers", p["workers"]),
        taler=taler_words(p["taler"]),
        crowns=wn("{n} crown", "{n} crowns", p["crowns"]),
    )


def shipyards_alt_uncut(view: dict[str, Any]) -> str | None:
    """The alt text of the picture of every shipyard at once: each shipyard's text when they
    fit Discord's limit together; else what every shipyard says alike (early in a game: the
    same extra action, pass tiles, deliveries, no ships) said once first, then each seat's own,
    its ships grouped by state ('Unfinished ships: 1, bow; 2, …') (a 4-player French game's
    start said ~1,330 characters shipyard by shipyard); if that is still too long, the pass
    tiles are left out, and the text says so. None when even that does not fit (about 2 % of
    those pictures in French, 3-player games late in round 2 or 3): `shipyard_pic.shipyards`
    then draws one picture a seat, whose texts always fit (`shipyard_alt`, at most ~760)."""
    return next((t for t in _shipyards_texts(view) if len(t) <= ALT_LIMIT), None)


def _shipyards_texts(view: dict[str, Any]) -> list[str]:
    """The texts `shipyards_alt_uncut` tries, longest first (see there)."""
    seats = range(len(view["players"]))
    each = [_shipyard_parts(view, s) for s in seats]
    whole = "\n\n".join(_shipyard_lines(head, parts) for head, parts in each)
    texts = [whole]
    if len(whole) <= ALT_LIMIT:
        return texts
    each = [_shipyard_parts(view, s, by_state=True) for s in seats]
    said = [dict(parts) for _, parts in each]
    alike = [
        key
        for key, text in each[0][1]
        if key != "start" and all(other.get(key) == text for other in said)
    ]
    # The pass tiles only count when a seat passes: the first thing left out, and said so.
    for left_out in ((), ("tiles",)):
        common = [said[0][k] for k in alike if k not in left_out]
        if common and left_out:
            opening = w("First, what every shipyard has alike; pass tiles left out for length.")
        elif common:
            opening = w("First, what every shipyard has alike.")
        elif left_out:
            opening = w("Every shipyard, seat by seat; pass tiles left out for length.")
        else:
            opening = w("Every shipyard, seat by seat.")
        # Each seat's own, opened by the seat alone ("Seat 1 (red circle): 10 VP, …"): the
        # first sentence already said these are shipyards.
        own = [
            _shipyard_lines(
                _own_head(view, s),
                [(k, t) for k, t in each[s][1] if k not in alike and k not in left_out],
            )
            for s in seats
        ]
        texts.append("\n\n".join([" ".join([opening, *common]), *own]))
        if len(texts[-1]) <= ALT_LIMIT:
            break
    return texts


def scores_alt(view: dict[str, Any]) -> str:
    """Final ranking with each player's breakdown."""
    lines = [w("Final scores.")]
    for s in sorted(view["final"], key=lambda s: (s["rank"], s["seat"])):
        goods = ", ".join(
            w("{goods} for {vp} VP", goods=count_words(g, s["goods"][g]), vp=s["goods_vp"][g])
            for g in ("coffee", "grain", "fish", "salt")
            if s["goods"].get(g)
        )
        ships = ", ".join(
            wn("{n} ship of size {k}", "{n} ships of size {k}", n, k=k)
            for k, n in sorted(s["ships"].items())
            if n
        )
        lines.append(
            w(
                "{rank}. {seat}: {vp} VP = track {track} + goods {goods_vp} ({goods}) + ships "
                "{ships_vp} ({ships}) + leftovers {leftover} ({taler}). Tie-break: {left} "
                "left after dividing by 3.",
                rank=s["rank"],
                seat=player_words(s["seat"]),
                vp=s["vp"],
                track=s["track"],
                goods_vp=sum(s["goods_vp"].values()),
                goods=goods or wc("goods", "none"),
                ships_vp=s["ships_vp"],
                ships=ships or wc("ships", "none"),
                leftover=s["leftover_vp"],
                taler=taler_words(s["total_taler"]),
                left=taler_words(s["tiebreak"][0]),
            )
        )
    return fit("\n".join(lines))
