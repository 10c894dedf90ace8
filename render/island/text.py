"""Alt texts of the Nautilus Island pictures, built from the view dict alone, in the language
of the context (`render.words`).

A reader who cannot see the picture gets the same facts: what each column offers and who faces
it, the camp, the portholes, each collection, the viewer's own hand, the final breakdown.
"""

from __future__ import annotations

from typing import Any

from render.island.common import cat_word, entry, grouped, obj, side_word, token_words
from render.palette import player_words
from render.words import w, wn


def _seat(seat: int) -> str:
    return player_words(seat)


def board_alt(view: dict[str, Any]) -> str:
    head = w("Nautilus Island, round {n}", n=view["round"])
    if view["step"] == "over":
        head += w(", game over")
    else:
        head += w(", pawns go {side}", side=side_word(view["side"]))
        if view["last_round"]:
            head += w(", last round")
        if view["current"] is not None:
            head += w("; {seat} to play", seat=_seat(view["current"]))
    parts = [head + w(". Columns from bow to stern:")]
    pawns = {p["seat"]: p["pawn"] for p in view["players"]}
    for col in view["columns"]:
        stacks = []
        for st in col["stacks"]:
            if st["count"] == 0:
                stacks.append(w("empty"))
            elif st["top"] is not None:
                stacks.append(
                    w("{n} up, top {object}", n=st["count"], object=obj(st["top"]["object"]))
                )
            else:
                stacks.append(w("{n} down", n=st["count"]))
        faced = [
            w("{side} seat {n}", side=side_word(side), n=col[side] + 1)
            for side in ("above", "below")
            if col[side] is not None
        ]
        last = [
            w("seat {n} last round", n=seat + 1)
            for seat, pw in pawns.items()
            if pw["moved"] and pw["last_column"] == col["index"]
        ]
        who = "; ".join(faced + last)
        parts.append(f"{col['index']}: {', '.join(stacks)}" + (f" ({who})" if who else ""))
    camp = ", ".join(
        f"{cat_word(sp['category'])} {token_words(sp['token']) if sp['token'] else w('empty')}"
        for sp in view["camp"]
    )
    parts.append(
        w(
            "Camp: {camp}; {tokens}",
            camp=camp,
            tokens=wn("{n} face-down token", "{n} face-down tokens", view["reserve"]),
        )
    )
    piles = ", ".join(
        w(
            "{size} cards {next} ({left} left)",
            size=p["size"],
            next=p["next"] if p["next"] is not None else w("none"),
            left=p["left"],
        )
        for p in view["portholes"]
    )
    parts.append(w("Portholes next: {piles}.", piles=piles))
    return "; ".join(parts[:1]) + " " + "; ".join(parts[1:])


def player_alt(view: dict[str, Any], seat: int) -> str:
    p = view["players"][seat]
    pawn = p["pawn"]
    where = (
        w("pawn {side} column {n}", side=side_word(pawn["side"]), n=pawn["column"])
        if pawn["side"] is not None
        else w("no pawn")
    )
    cols = []
    for c in p["collections"]:
        if not c["size"] and not c["tokens"]:
            continue
        cards = ", ".join(entry(o, n) for o, n in grouped(c["cards"]))
        toks = ", ".join(
            w("{token} now {vp}", token=token_words(t["token"]), vp=t["vp"]) for t in c["tokens"]
        )
        state = w("closed {vp} VP", vp=c["porthole"]) if c["closed"] else w("open")
        tokens = w("; tokens {list}", list=toks) if toks else ""
        cols.append(f"{cat_word(c['category'])} {c['size']} ({cards}){tokens}; {state}")
    body = " | ".join(cols) if cols else w("no collection yet")
    who = _seat(seat)
    return w(
        "{who}: {cards} in hand, {vp} VP so far, {where}. {body}.",
        who=who[:1].upper() + who[1:],
        cards=wn("{n} card", "{n} cards", p["hand_size"]),
        vp=p["score"],
        where=where,
        body=body,
    )


def areas_alt(view: dict[str, Any], seats: list[int]) -> str:
    return w("Players' collections.") + " " + " ".join(player_alt(view, seat) for seat in seats)


def hand_alt(view: dict[str, Any]) -> str:
    seat = view["viewer"]
    p = view["players"][seat]
    hand = p["hand"]
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for card in hand:
        by_cat.setdefault(card["category"], []).append(card)
    parts = [
        f"{cat_word(cat)}: {', '.join(entry(o, n) for o, n in grouped(cards))}"
        for cat, cards in by_cat.items()
    ]
    return (
        w(
            "Your hand, {seat}: {cards}, treasures worth {vp} VP.",
            seat=_seat(seat),
            cards=wn("{n} card", "{n} cards", len(hand)),
            vp=p["treasure_vp"],
        )
        + " "
        + ("; ".join(parts) if parts else w("No cards."))
    )


def scores_alt(view: dict[str, Any]) -> str:
    rows = []
    for sc in sorted(view["final"], key=lambda x: (x["rank"], x["seat"])):
        toks = " + ".join(str(t["vp"]) for t in sc["tokens"]) or "0"
        port = " + ".join(str(p["vp"]) for p in sc["portholes"]) or "0"
        tre = " + ".join(str(v) for v in sc["treasures"]) or "0"
        rows.append(
            w(
                "{rank}. seat {n}: {vp} VP (bonus tokens {tokens}; portholes {portholes}; "
                "treasures {treasures}; pawn column {column})",
                rank=sc["rank"],
                n=sc["seat"] + 1,
                vp=sc["vp"],
                tokens=toks,
                portholes=port,
                treasures=tre,
                column=sc["tiebreak"],
            )
        )
    return w("Final scores.") + " " + " ".join(rows)
