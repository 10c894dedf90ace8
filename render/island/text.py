"""Alt texts of the Nautilus Island pictures, built from the view dict alone.

A reader who cannot see the picture gets the same facts: what each column offers and who faces
it, the camp, the portholes, each collection, the viewer's own hand, the final breakdown.
"""

from __future__ import annotations

from typing import Any

from render.island.common import TOKEN_WORDS, entry, grouped, s
from render.palette import player_words


def _seat(seat: int) -> str:
    return player_words(seat)


def board_alt(view: dict[str, Any]) -> str:
    head = f"Nautilus Island, round {view['round']}"
    if view["step"] == "over":
        head += ", game over"
    else:
        head += f", pawns go {view['side']}"
        if view["last_round"]:
            head += ", last round"
        if view["current"] is not None:
            head += f"; {_seat(view['current'])} to play"
    parts = [head + ". Columns from bow to stern:"]
    pawns = {p["seat"]: p["pawn"] for p in view["players"]}
    for col in view["columns"]:
        stacks = []
        for st in col["stacks"]:
            if st["count"] == 0:
                stacks.append("empty")
            elif st["top"] is not None:
                stacks.append(f"{st['count']} up, top {st['top']['object']}")
            else:
                stacks.append(f"{st['count']} down")
        faced = [
            f"{side} seat {col[side] + 1}" for side in ("above", "below") if col[side] is not None
        ]
        last = [
            f"seat {seat + 1} last round"
            for seat, pw in pawns.items()
            if pw["moved"] and pw["last_column"] == col["index"]
        ]
        who = "; ".join(faced + last)
        parts.append(f"{col['index']}: {', '.join(stacks)}" + (f" ({who})" if who else ""))
    camp = ", ".join(
        f"{sp['category']} {TOKEN_WORDS[sp['token']] if sp['token'] else 'empty'}"
        for sp in view["camp"]
    )
    parts.append(f"Camp: {camp}; {view['reserve']} face-down token{s(view['reserve'])}")
    piles = ", ".join(
        f"{p['size']} cards {p['next'] if p['next'] is not None else 'none'}"
        + f" ({p['left']} left)"
        for p in view["portholes"]
    )
    parts.append(f"Portholes next: {piles}.")
    return "; ".join(parts[:1]) + " " + "; ".join(parts[1:])


def player_alt(view: dict[str, Any], seat: int) -> str:
    p = view["players"][seat]
    pawn = p["pawn"]
    where = (
        f"pawn {pawn['side']} column {pawn['column']}" if pawn["side"] is not None else "no pawn"
    )
    cols = []
    for c in p["collections"]:
        if not c["size"] and not c["tokens"]:
            continue
        cards = ", ".join(entry(o, n) for o, n in grouped(c["cards"]))
        toks = ", ".join(f"{TOKEN_WORDS[t['token']]} now {t['vp']}" for t in c["tokens"])
        state = f"closed {c['porthole']} VP" if c["closed"] else "open"
        cols.append(
            f"{c['category']} {c['size']} ({cards}){'; tokens ' + toks if toks else ''}; {state}"
        )
    body = " | ".join(cols) if cols else "no collection yet"
    return (
        f"{_seat(seat).capitalize()}: {p['hand_size']} card{s(p['hand_size'])} in hand, "
        f"{p['score']} VP so far, {where}. {body}."
    )


def areas_alt(view: dict[str, Any], seats: list[int]) -> str:
    return "Players' collections. " + " ".join(player_alt(view, seat) for seat in seats)


def hand_alt(view: dict[str, Any]) -> str:
    seat = view["viewer"]
    p = view["players"][seat]
    hand = p["hand"]
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for card in hand:
        by_cat.setdefault(card["category"], []).append(card)
    parts = [
        f"{cat}: {', '.join(entry(o, n) for o, n in grouped(cards))}"
        for cat, cards in by_cat.items()
    ]
    return (
        f"Your hand, {_seat(seat)}: {len(hand)} card{s(len(hand))}, treasures worth "
        f"{p['treasure_vp']} VP. " + ("; ".join(parts) if parts else "No cards.")
    )


def scores_alt(view: dict[str, Any]) -> str:
    rows = []
    for sc in sorted(view["final"], key=lambda x: (x["rank"], x["seat"])):
        toks = " + ".join(str(t["vp"]) for t in sc["tokens"]) or "0"
        port = " + ".join(str(p["vp"]) for p in sc["portholes"]) or "0"
        tre = " + ".join(str(v) for v in sc["treasures"]) or "0"
        rows.append(
            f"{sc['rank']}. seat {sc['seat'] + 1}: {sc['vp']} VP (bonus tokens {toks}; "
            f"portholes {port}; treasures {tre}; pawn column {sc['tiebreak']})"
        )
    return "Final scores. " + " ".join(rows)
