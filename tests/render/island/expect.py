"""What each Nautilus Island picture must show, built from the view dict alone.

The renderer records a mark for every text and icon it draws; these builders list, from the view
only, the marks a complete picture must carry. Tests compare the two as multisets, so a missing,
extra or wrong card, count, pawn, token or porthole fails.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from render.island.areas_pic import token_lines
from render.island.common import STORABLE, TOKEN_LABEL, entry, grouped
from render.island.hand_pic import hand_entries

Marks = Counter[tuple[str, str]]


def board_marks(view: dict[str, Any]) -> Marks:
    want: list[tuple[str, str]] = []
    if view["step"] == "over":
        want.append(("over", "Game over"))
    else:
        last = " (LAST)" if view["last_round"] else ""
        want.append(("round", f"Round {view['round']}{last}: pawns go {view['side']}"))
        cur = view["current"]
        want += [("turn", f"seat {cur + 1} plays"), ("turn", f"player_{cur}")]
    pawns = {p["seat"]: p["pawn"] for p in view["players"]}
    for col in view["columns"]:
        i = col["index"]
        want.append((f"col.{i}", str(i)))
        for st in col["stacks"]:
            s = st["index"]
            if st["count"] == 0:
                want.append((f"stack.{s}.empty", "empty"))
            elif st["top"] is None:
                want += [(f"stack.{s}", str(st["count"])), (f"stack.{s}.back", "face-down")]
            else:
                top = st["top"]
                want += [(f"stack.{s}", str(st["count"])), (f"stack.{s}.top", top["object"])]
                want.append((f"stack.{s}.top", f"cat_{top['category']}"))
        for side in ("above", "below"):
            seat = col[side]
            if seat is not None:
                want += [(f"pawn.{seat}", f"player_{seat}"), (f"pawn.{seat}.name", str(seat + 1))]
                if seat == view["current"]:
                    want.append((f"pawn.{seat}.current", "current"))
                continue
            for other, pw in pawns.items():
                if pw["moved"] and pw["last_column"] == i and pw["side"] != side:
                    want += [(f"pawn.{other}.last", f"ghost_{other}")]
                    want += [(f"pawn.{other}.last", str(other + 1))]
    tokens = "token" if view["reserve"] == 1 else "tokens"
    want.append(("reserve", f"{view['reserve']} face-down {tokens}"))
    for sp in view["camp"]:
        cat = sp["category"]
        want.append((f"camp.{cat}", f"cat_{cat}"))
        want.append((f"camp.{cat}.token", TOKEN_LABEL[sp["token"]] if sp["token"] else "—"))
    for pile in view["portholes"]:
        size = pile["size"]
        want.append((f"port.{size}", f"{size} cards"))
        want.append((f"port.{size}.left", f"{pile['left']} left"))
        nxt = pile["next"]
        want.append((f"port.{size}.next", "—" if nxt is None else str(nxt)))
        if nxt is not None and pile["left"] > 1:
            rest = pile["values"][len(pile["values"]) - pile["left"] + 1 :]
            want.append((f"port.{size}.rest", "→ " + " ".join(map(str, rest))))
    return Counter(want)


def area_marks(view: dict[str, Any], seat: int) -> Marks:
    p = view["players"][seat]
    pawn = p["pawn"]
    where = f"{pawn['side']} column {pawn['column']}" if pawn["side"] is not None else "not placed"
    want = [
        (f"p{seat}", f"player_{seat}"),
        (f"p{seat}.name", str(seat + 1)),
        (f"p{seat}.hand", f"{p['hand_size']} card{'' if p['hand_size'] == 1 else 's'} in hand"),
        (f"p{seat}.pawn", f"pawn {where}"),
        (f"p{seat}.score", f"{p['score']} VP so far"),
    ]
    assert [c["category"] for c in p["collections"]] == list(STORABLE)
    for col in p["collections"]:
        key = f"p{seat}.{col['category']}"
        want += [(key, f"cat_{col['category']}"), (f"{key}.size", str(col["size"]))]
        want += [(f"{key}.cards", entry(o, n)) for o, n in grouped(col["cards"])]
        for label, vp in token_lines(col["tokens"]):
            want += [(f"{key}.token", label), (f"{key}.token.vp", vp)]
        if col["closed"]:
            want += [
                (f"{key}.porthole", "porthole_closed"),
                (f"{key}.porthole", str(col["porthole"])),
            ]
        else:
            want.append((f"{key}.porthole", "open"))
    return Counter(want)


def hand_marks(view: dict[str, Any]) -> Marks:
    seat = view["viewer"]
    p = view["players"][seat]
    cards = p["hand"]
    n = len(cards)
    want = [
        ("hand", f"player_{seat}"),
        ("hand.title", f"Your hand: seat {seat + 1}"),
        ("hand.count", f"{n} card{'' if n == 1 else 's'}"),
        ("hand.treasure", f"treasures {p['treasure_vp']} VP"),
    ]
    if not cards:
        want.append(("hand.empty", "No cards in hand"))
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        by_cat.setdefault(card["category"], []).append(card)
    for cat, cs in by_cat.items():
        want += [(f"hand.{cat}", f"cat_{cat}")]
        want += [(f"hand.{cat}.count", f"{len(cs)} card{'' if len(cs) == 1 else 's'}")]
        want += [(f"hand.{cat}.cards", e) for e in hand_entries(cs)]
    return Counter(want)


def score_keys(view: dict[str, Any]) -> Counter[str]:
    """Score sheet: one cell per row per seat, a badge and short name, the winner's frame."""
    want: list[str] = []
    for sc in view["final"]:
        s = sc["seat"]
        want += [f"p{s}", f"p{s}.name"]
        want += [f"p{s}.final.{k}" for k in ROW_KEYS]
        if sc["rank"] == 1:
            want.append(f"p{s}.final.winner")
    return Counter(want)


ROW_KEYS = (
    *(f"bonus.{c}" for c in STORABLE),
    "bonus",
    "portholes",
    "treasures",
    "vp",
    "tiebreak",
    "rank",
)


def drawn(pic: Any) -> Marks:
    """What the picture says it shows, decoration ('label') left out."""
    return Counter((m.key, m.value) for m in pic.drawn if m.key != "label")
