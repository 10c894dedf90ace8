"""Nautilus Island in words: cards, hands, columns and turns, read from a view dict only.

Every function here takes the plain `engine.island.view(...)` output (or public event dicts),
never the engine's state, so a public text can only say what the public view holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot import texts
from bot.i18n import N_, tr, trn
from engine.island import data

EMOJI = {
    "clothing": "🟩",
    "navigation": "🟥",
    "repair": "🟦",
    "fishing": "🟪",
    "food": "🟧",
    "treasure": "🟨",
}


# The engine's words (`engine.island.data`), marked for the catalogue and said through `tr`
# where shown; the French are the rulebook's (Vêtements, Outils de navigation, …, jetons Hublot).
CATEGORY_WORDS = {
    "clothing": N_("clothing"),
    "navigation": N_("navigation tools"),
    "repair": N_("repair tools"),
    "fishing": N_("fishing gear"),
    "food": N_("food"),
    "treasure": N_("Nautilus treasures"),
}
SHORT_CATEGORY_WORDS = {
    "clothing": N_("clothing"),
    "navigation": N_("navigation"),
    "repair": N_("repair"),
    "fishing": N_("fishing"),
    "food": N_("food"),
    "treasure": N_("treasure"),
}
OBJECT_WORDS = {
    "hat": N_("hat"),
    "coat": N_("coat"),
    "boots": N_("boots"),
    "gloves": N_("gloves"),
    "compass": N_("compass"),
    "spyglass": N_("spyglass"),
    "sextant": N_("sextant"),
    "chart": N_("chart"),
    "hammer": N_("hammer"),
    "saw": N_("saw"),
    "wrench": N_("wrench"),
    "rope": N_("rope"),
    "rod": N_("rod"),
    "net": N_("net"),
    "harpoon": N_("harpoon"),
    "hook": N_("hook"),
    "bread": N_("bread"),
    "cheese": N_("cheese"),
    "fruit": N_("fruit"),
    "ham": N_("ham"),
    "pearl": N_("pearl"),
    "coin": N_("coin"),
    "goblet": N_("goblet"),
    "crown": N_("crown"),
}
TOKEN_WORDS = {
    "vp2": N_("2 VP"),
    "vp3": N_("3 VP"),
    "per_card": N_("+1 VP per card"),
    "double_porthole": N_("double porthole"),
    "odd": N_("odd: 4 VP"),
    "pair": N_("pair: 5 VP"),
}
SIDE_WORDS = {"above": N_("above"), "below": N_("below")}


def category_name(category: str) -> str:
    word = CATEGORY_WORDS.get(category)
    return tr(word) if word is not None else data.CATEGORY_NAME.get(category, category)


def short_category(category: str) -> str:
    """The category's short word ('food', 'navigation'), as in collection lines."""
    word = SHORT_CATEGORY_WORDS.get(category)
    return tr(word) if word is not None else category


def object_name(obj: str) -> str:
    word = OBJECT_WORDS.get(obj)
    return tr(word) if word is not None else obj


def token_name(token: str) -> str:
    word = TOKEN_WORDS.get(token)
    return tr(word) if word is not None else data.TOKEN_NAME.get(token, token)


def side_word(side: str) -> str:
    word = SIDE_WORDS.get(side)
    return tr(word) if word is not None else side


def object_of(card_id: str) -> str:
    """'food:ham:3' -> 'ham'; a card the only one of its object has no copy number
    ('navigation:sextant', 'treasure:crown' -> 'sextant', 'crown')."""
    parts = card_id.split(":")
    return parts[1] if len(parts) in (2, 3) else card_id


def counted(objects: Iterable[str]) -> str:
    """'ham ×2, bread' in the category's object order."""
    c = Counter(objects)
    order = sorted(c, key=lambda o: (data.OBJECT_INDEX.get(o, 99), o))
    return ", ".join(object_name(o) if c[o] == 1 else f"{object_name(o)} ×{c[o]}" for o in order)


def cards(n: int) -> str:
    return trn("{n} card", "{n} cards", n)


def who(names: Sequence[str], seat: int) -> str:
    return f"{texts.seat_tag(seat)} {texts.name(names[seat])}"


def hand_lines(hand: Sequence[Mapping[str, Any]], *, short: bool = False) -> list[str]:
    """The seat's own hand by category ('🟧 food: ham ×2, bread'); treasures with their VP."""
    by_cat: dict[str, list[str]] = {}
    for card in hand:
        by_cat.setdefault(card["category"], []).append(card["object"])
    lines = []
    for cat in data.CATEGORIES:
        objs = by_cat.get(cat)
        if not objs:
            continue
        if cat == data.TREASURE:
            vp = sum(data.TREASURE_VP.get(o, 0) for o in objs)
            end = tr("{vp} VP", vp=vp) if short else tr("= {vp} VP at the end", vp=vp)
            lines.append(
                tr(
                    "{emoji} treasures: {objects} {end}",
                    emoji=EMOJI[cat],
                    objects=counted(objs),
                    end=end,
                )
            )
        else:
            lines.append(
                tr(
                    "{emoji} {category}: {objects}",
                    emoji=EMOJI[cat],
                    category=category_name(cat),
                    objects=counted(objs),
                )
            )
    return lines


def hand_short(view: Mapping[str, Any], seat: int) -> str:
    """One line of the seat's own hand (its view), for the panel header."""
    hand = view["players"][seat]["hand"] or []
    if not hand:
        return tr("Your hand: empty")
    return tr(
        "Your hand ({n}): {cards}", n=len(hand), cards=" · ".join(hand_lines(hand, short=True))
    )


def column_label(view: Mapping[str, Any], c: int) -> str:
    """'column 2 — 2 stacks, 14 cards: coat on top + 1 face-down'."""
    col = view["columns"][c]
    stacks = trn("{n} stack", "{n} stacks", col["size"])
    if col["empty"]:
        return tr("column {c} — {stacks}, empty", c=c, stacks=stacks)
    tops = []
    down = 0
    for st in col["stacks"]:
        if st["count"] == 0:
            continue
        if st["face"] == "up" and st["top"] is not None:
            tops.append(object_name(st["top"]["object"]))
        else:
            down += 1
    shown = " + ".join(tops + ([tr("{n} face-down", n=down)] if down else []))
    return trn(
        "column {c} — {stacks}, {n} card: {shown}",
        "column {c} — {stacks}, {n} cards: {shown}",
        int(col["cards"]),
        c=c,
        stacks=stacks,
        shown=shown,
    )


def facing(view: Mapping[str, Any], seat: int) -> int | None:
    pawn = view["players"][seat]["pawn"]
    col = pawn.get("column")
    return col if isinstance(col, int) else None


def turn_in_game(view: Mapping[str, Any]) -> int:
    """The number of the turn being played (1, 2, ...): one turn per player per round."""
    players = int(view["players_count"])
    moved = sum(1 for p in view["players"] if p["pawn"].get("moved"))
    if view["step"] in ("act", "close"):
        moved -= 1  # the current seat has moved its pawn but its turn goes on
    if view["step"] == "over":
        moved = players
    return (int(view["round"]) - 1) * players + max(0, moved) + 1


def round_words(view: Mapping[str, Any]) -> str:
    if view["last_round"]:
        return tr("Round {n}, the last", n=view["round"])
    return tr("Round {n}", n=view["round"])


def decision(view: Mapping[str, Any], *, you: bool) -> str:
    """What the current seat must decide, as a verb phrase."""
    step = view["step"]
    seat = view["current"]
    if step == "over" or seat is None:
        return tr("nothing: the game is over")
    if step == "place":
        if you:
            return tr("place your pawn above a column, then collect or store")
        return tr("place their pawn above a column, then collect or store")
    if step == "move":
        side = side_word(str(view["side"]))
        if you:
            return tr("move your pawn {side} the Nautilus, then collect or store", side=side)
        return tr("move their pawn {side} the Nautilus, then collect or store", side=side)
    if step == "act":
        col = facing(view, seat)
        if col is not None and view["columns"][col]["empty"]:
            if you:
                return tr("store from your hand (column {c} is empty) or do nothing", c=col)
            return tr("store from their hand (column {c} is empty) or do nothing", c=col)
        return tr("collect from column {c} or store cards", c=col)
    if step == "close":
        pending = view.get("pending") or {}
        size = int(pending.get("size") or 0)
        params = {
            "category": category_name(str(pending.get("category", ""))),
            "vp": pending.get("porthole"),
        }
        if you:
            return trn(
                "close your {category} collection ({n} card) for the {vp} VP porthole, or keep "
                "it open",
                "close your {category} collection ({n} cards) for the {vp} VP porthole, or keep "
                "it open",
                size,
                **params,
            )
        return trn(
            "close their {category} collection ({n} card) for the {vp} VP porthole, or keep it "
            "open",
            "close their {category} collection ({n} cards) for the {vp} VP porthole, or keep it "
            "open",
            size,
            **params,
        )
    return tr("decide")


def collections_line(player: Mapping[str, Any]) -> str:
    """'🟧 food 3 (2 VP, closed 5 VP)' for each non-empty collection."""
    parts = []
    for col in player["collections"]:
        if not col["size"] and not col["tokens"]:
            continue
        # Not `t`: the catalogue extractor reads `t[...]` as a call of the catalogue's `t`.
        extra = [token_name(tok["token"]) for tok in col["tokens"]]
        if col["closed"]:
            extra.append(tr("closed {vp} VP", vp=col["porthole"]))
        more = f" ({', '.join(extra)})" if extra else ""
        parts.append(
            f"{EMOJI[col['category']]} {short_category(col['category'])} {col['size']}{more}"
        )
    return " · ".join(parts) or tr("no collections yet")


def turn_story(names: Sequence[str], seat: int, events: Sequence[Mapping[str, Any]]) -> str:
    """What one seat did in its turn, from its public events only (a face-down card is only
    'a face-down card')."""
    parts: list[str] = []
    taken: list[str] = []
    hidden = 0
    hand: int | None = None
    for e in events:
        k = e.get("kind")
        if k == "pawn_placed":
            parts.append(tr("placed their pawn above column {c}", c=e["column"]))
        elif k == "pawn_moved":
            parts.append(
                tr(
                    "moved their pawn {side} column {c} (from column {old})",
                    side=side_word(str(e["side"])),
                    c=e["column"],
                    old=e["from_column"],
                )
            )
        elif k == "card_taken":
            if e.get("card"):
                taken.append(object_of(str(e["card"])))
            else:
                hidden += 1
        elif k == "cards_stored":
            objs = counted(object_of(str(c)) for c in e["cards"])
            parts.append(
                tr(
                    "stored {objects} in their {category} collection (now {cards})",
                    objects=objs,
                    category=short_category(str(e["category"])),
                    cards=cards(int(e["size"])),
                )
            )
        elif k == "token_taken":
            parts.append(tr("took the {token} token", token=token_name(str(e["token"]))))
        elif k == "collection_closed":
            # The collection is named: a close is a move of its own, its done line stands alone.
            parts.append(
                trn(
                    "closed their {category} collection ({n} card) with the {vp} VP porthole",
                    "closed their {category} collection ({n} cards) with the {vp} VP porthole",
                    int(e["size"]),
                    category=short_category(str(e["category"])),
                    vp=e["porthole"],
                )
            )
        elif k == "kept_open":
            parts.append(
                tr(
                    "kept their {category} collection open",
                    category=short_category(str(e["category"])),
                )
            )
        elif k == "idled":
            parts.append(tr("faced the empty column {c} and did nothing", c=e["column"]))
        elif k == "turn_ended":
            hand = int(e["hand_size"])
    if taken or hidden:
        got = [counted(taken)] if taken else []
        if hidden:
            got.append(trn("{n} face-down card", "{n} face-down cards", hidden))
        parts.append(tr("collected {cards}", cards=" + ".join(got)))
    text = f"{who(names, seat)} " + (tr("; ").join(parts) or tr("played"))
    if hand is not None:
        text += tr(" — {cards} in hand", cards=cards(hand))
    return text + "."


def table_notes(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The events of the table (not of one seat): refills, empty columns, rounds ending."""
    out = []
    for e in events:
        k = e.get("kind")
        if k == "camp_refilled":
            toks = ", ".join(
                tr("{category}: {token}", category=short_category(cat), token=token_name(tok))
                for cat, tok in e.get("tokens", [])
            )
            out.append(
                trn(
                    "🏕️ The camp was refilled — {tokens} ({n} token left).",
                    "🏕️ The camp was refilled — {tokens} ({n} tokens left).",
                    int(e["reserve_left"]),
                    tokens=toks,
                )
            )
        elif k == "column_emptied":
            if e.get("first"):
                out.append(
                    tr(
                        "⚠️ Column {c} is empty! This round is finished, then one last round is "
                        "played.",
                        c=e["column"],
                    )
                )
            else:
                out.append(tr("Column {c} is empty too.", c=e["column"]))
        elif k == "round_ended":
            line = tr(
                "Round {n} is over: every pawn is {side}.",
                n=e["round"],
                side=side_word(str(e["side"])),
            )
            if e.get("next_is_last"):
                line += " " + tr("**The next round is the last.**")
            out.append(line)
    return out


def score_lines(final: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    lines = []
    for s in sorted(final, key=lambda s: (s["rank"], s["seat"])):
        lines.append(
            tr(
                "{rank}. {who} — **{vp} VP** (bonus tokens {bonus}, portholes {portholes}, "
                "treasures {treasures}; pawn at column {column})",
                rank=s["rank"],
                who=who(names, s["seat"]),
                vp=s["vp"],
                bonus=s["bonus_vp"],
                portholes=s["porthole_vp"],
                treasures=s["treasure_vp"],
                column=s["tiebreak"],
            )
        )
    return lines
