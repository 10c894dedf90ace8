"""Alt texts of the Nautilus Island pictures, built from the view dict alone, in the language
of the context (`render.words`).

A reader who cannot see the picture gets the same facts: what each column offers and who faces
it, the camp, the portholes, each collection, the viewer's own hand, the final breakdown.
"""

from __future__ import annotations

from typing import Any

from render.island.common import cat_word, entry, grouped, obj, side_word, token_words
from render.palette import player_words
from render.text import ALT_LIMIT, clauses, fit, labelled
from render.words import w, wc, wn


def _seat(seat: int) -> str:
    return player_words(seat)


def _stacks(stacks: list[dict[str, Any]]) -> list[str]:
    """A column's stacks, the same face-down stacks side by side said once ('2 stacks of 7
    cards face down'): the board's text stays under Discord's limit in French."""
    out: list[str] = []
    i = 0
    while i < len(stacks):
        st = stacks[i]
        n = st["count"]
        if n == 0:
            out.append(w("empty stack"))
        elif st["top"] is not None:
            top = obj(st["top"]["object"])
            out.append(wn("{n} card, {object} on top", "{n} cards, {object} on top", n, object=top))
        else:
            same = 1
            while (
                i + same < len(stacks)
                and stacks[i + same]["top"] is None
                and stacks[i + same]["count"] == n
            ):
                same += 1
            if same > 1:
                out.append(
                    wn(
                        "{k} stacks of {n} card face down",
                        "{k} stacks of {n} cards face down",
                        n,
                        k=same,
                    )
                )
            else:
                out.append(wn("{n} card face down", "{n} cards face down", n))
            i += same
            continue
        i += 1
    return out


def board_alt(view: dict[str, Any]) -> str:
    head = w("Nautilus Island, round {n}", n=view["round"])
    if view["step"] == "over":
        head += w(", game over")
    else:
        head += w(", pawns go {side}", side=side_word(view["side"]))
        if view["last_round"]:
            head += w(", last round")
    parts = [head + "."]
    if view["step"] != "over" and view["current"] is not None:
        parts.append(w("Next to play: {seat}.", seat=_seat(view["current"])))
    parts.append(w("Columns from bow to stern."))
    pawns = {p["seat"]: p["pawn"] for p in view["players"]}
    for col in view["columns"]:
        faced = [
            w("seat {n}'s pawn {side}", side=side_word(side), n=col[side] + 1)
            for side in ("above", "below")
            if col[side] is not None
        ]
        last = [
            w("seat {n}'s pawn last round", n=seat + 1)
            for seat, pw in pawns.items()
            if pw["moved"] and pw["last_column"] == col["index"]
        ]
        stacks = clauses(_stacks(col["stacks"]) + faced + last)
        parts.append(w("Column {n}: {stacks}.", n=col["index"], stacks=stacks))
    camp = ", ".join(
        w(
            "{category} {token}",
            category=cat_word(sp["category"]),
            token=token_words(sp["token"]) if sp["token"] else w("empty"),
        )
        for sp in view["camp"]
    )
    parts.append(w("Camp: {camp}.", camp=camp))
    parts.append(
        wn(
            "{n} face-down token left.",
            "{n} face-down tokens left.",
            view["reserve"],
        )
    )
    piles = ", ".join(
        wn(
            "{next} VP for {size} cards ({n} left)",
            "{next} VP for {size} cards ({n} left)",
            p["left"],
            size=p["size"],
            next=p["next"],
        )
        if p["next"] is not None
        else w("none left for {size} cards", size=p["size"])
        for p in view["portholes"]
    )
    parts.append(w("Next portholes: {piles}.", piles=piles))
    # Up to ~1,010 characters in French over 130 seeded games: `fit` only guards the limit.
    return fit(" ".join(parts))


# Tokens whose value never changes: their name says it ("2 VP token").
FLAT_TOKENS = frozenset({"vp2", "vp3"})


def _tokens(tokens: list[dict[str, Any]]) -> list[str]:
    """A collection's bonus tokens, the same token of the same value said once: 'double
    porthole token ×2, now 8 VP each' rather than the same clause twice."""
    said: list[str] = []
    seen: dict[tuple[str, int], int] = {}
    for t in tokens:
        key = (t["token"], t["vp"])
        seen[key] = seen.get(key, 0) + 1
    for (token, vp), k in seen.items():
        name = token_words(token)
        if token in FLAT_TOKENS:
            one = w("{token} token", token=name)
            said.append(one if k == 1 else w("{token} token ×{n}", n=k, token=name))
        elif k == 1:
            said.append(w("{token} token, now {vp} VP", token=name, vp=vp))
        else:
            said.append(w("{token} token ×{n}, now {vp} VP each", n=k, token=name, vp=vp))
    return said


def _collection(c: dict[str, Any], short: bool = False) -> str:
    """'Food: fruit, ham (2 cards), open; 2 VP token.' or 'Food: …, closed, 8 VP porthole; …';
    `short` (an open collection when the text must be shorter): 'Food: fruit, ham; 2 VP
    token.', its count and state left to the reader (open: the closed ones are said apart)."""
    category = cat_word(c["category"])
    category = category[:1].upper() + category[1:]
    cards = ", ".join(entry(o, n) for o, n in grouped(c["cards"]))
    if short:
        head = labelled(category, cards) if cards else category
        return clauses([head, *_tokens(c["tokens"])]) + "."
    head = (
        w(
            "{category}: {objects} ({cards})",
            category=category,
            cards=wn("{n} card", "{n} cards", c["size"]),
            objects=cards,
        )
        if cards
        else category
    )
    state = (
        w("closed, {vp} VP porthole", vp=c["porthole"]) if c["closed"] else wc("collection", "open")
    )
    return clauses([f"{head}, {state}", *_tokens(c["tokens"])]) + "."


def _closed(closed: list[dict[str, Any]]) -> str:
    """Closed collections in one sentence, each by its size and what it scores (porthole and
    tokens together, which no longer change): 'Closed: fishing (3 cards, 8 VP), food (…).'"""
    # Each built apart: the extractor misses a catalogue call nested in another one's.
    each = [
        w(
            "{category} ({cards}, {vp} VP)",
            category=cat_word(c["category"]),
            cards=wn("{n} card", "{n} cards", c["size"]),
            vp=c["porthole"] + sum(t["vp"] for t in c["tokens"]),
        )
        for c in closed
    ]
    return w("Closed: {list}.", list=", ".join(each))


# How much an areas text says, longest first: everything; closed collections by their size and
# VP only; and open ones without their card count and the word 'open' too.
WHOLE, CLOSED_SHORT, ALL_SHORT = 0, 1, 2


def player_alt(view: dict[str, Any], seat: int, level: int = WHOLE) -> str:
    """One seat's hand size, VP, pawn and collections, at the `level` of detail that fits."""
    p = view["players"][seat]
    pawn = p["pawn"]
    where = (
        w("pawn {side} column {n}", side=side_word(pawn["side"]), n=pawn["column"])
        if pawn["side"] is not None
        else w("no pawn")
    )
    shown = [c for c in p["collections"] if c["size"] or c["tokens"]]
    closed = [c for c in shown if c["closed"]] if level >= CLOSED_SHORT else []
    cols = [_collection(c, short=level >= ALL_SHORT) for c in shown if c not in closed]
    if closed:
        cols.append(_closed(closed))
    body = " ".join(cols) if cols else w("No collection yet.")
    who = _seat(seat)
    return (
        w(
            "{who}: {cards} in hand, {vp} VP, {where}.",
            who=who[:1].upper() + who[1:],
            cards=wn("{n} card", "{n} cards", p["hand_size"]),
            vp=p["score"],
            where=where,
        )
        + " "
        + body
    )


def areas_alt(view: dict[str, Any], seats: list[int]) -> str:
    """The collections of `seats`, whole when they fit Discord's limit; else with less detail
    (closed collections by their size and VP, which no longer change; then open ones without
    their card count), and the text says so first."""
    heads = {
        WHOLE: w("Players' collections."),
        CLOSED_SHORT: w("Players' collections (closed ones: cards and VP only, for length)."),
        ALL_SHORT: w(
            "Players' collections (for length: open ones by objects and tokens, closed ones by "
            "cards and VP)."
        ),
    }
    text = ""
    for level, head in heads.items():
        text = " ".join([head, *(player_alt(view, s, level) for s in seats)])
        if len(text) <= ALT_LIMIT:
            return text
    return fit(text)


def hand_alt(view: dict[str, Any]) -> str:
    seat = view["viewer"]
    p = view["players"][seat]
    hand = p["hand"]
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for card in hand:
        by_cat.setdefault(card["category"], []).append(card)
    parts = []
    for cat, cards in by_cat.items():
        name = cat_word(cat)
        parts.append(
            labelled(name[:1].upper() + name[1:], ", ".join(entry(o, n) for o, n in grouped(cards)))
            + "."
        )
    return (
        w(
            "Your hand, {seat}: {cards}, treasures worth {vp} VP.",
            seat=_seat(seat),
            cards=wn("{n} card", "{n} cards", len(hand)),
            vp=p["treasure_vp"],
        )
        + " "
        + (" ".join(parts) if parts else w("No cards."))
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
