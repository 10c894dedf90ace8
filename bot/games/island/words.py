"""Nautilus Island in words: cards, hands, columns and turns, read from a view dict only.

Every function here takes the plain `engine.island.view(...)` output (or public event dicts),
never the engine's state, so a public text can only say what the public view holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot import texts
from engine.island import data

EMOJI = {
    "clothing": "🟩",
    "navigation": "🟥",
    "repair": "🟦",
    "fishing": "🟪",
    "food": "🟧",
    "treasure": "🟨",
}


def category_name(category: str) -> str:
    return data.CATEGORY_NAME.get(category, category)


def object_of(card_id: str) -> str:
    """'food:ham:3' -> 'ham'."""
    parts = card_id.split(":")
    return parts[1] if len(parts) == 3 else card_id


def counted(objects: Iterable[str]) -> str:
    """'ham ×2, bread' in the category's object order."""
    c = Counter(objects)
    order = sorted(c, key=lambda o: (data.OBJECT_INDEX.get(o, 99), o))
    return ", ".join(o if c[o] == 1 else f"{o} ×{c[o]}" for o in order)


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
            end = f"{vp} VP" if short else f"= {vp} VP at the end"
            lines.append(f"{EMOJI[cat]} treasures: {counted(objs)} {end}")
        else:
            lines.append(f"{EMOJI[cat]} {category_name(cat)}: {counted(objs)}")
    return lines


def hand_short(view: Mapping[str, Any], seat: int) -> str:
    """One line of the seat's own hand (its view), for the panel header."""
    hand = view["players"][seat]["hand"] or []
    if not hand:
        return "Your hand: empty"
    return f"Your hand ({len(hand)}): " + " · ".join(hand_lines(hand, short=True))


def column_label(view: Mapping[str, Any], c: int) -> str:
    """'column 2 — 2 stacks, 14 cards: coat on top + 1 face-down'."""
    col = view["columns"][c]
    if col["empty"]:
        return f"column {c} — {texts.plural(col['size'], 'stack')}, empty"
    tops = []
    down = 0
    for st in col["stacks"]:
        if st["count"] == 0:
            continue
        if st["face"] == "up" and st["top"] is not None:
            tops.append(st["top"]["object"])
        else:
            down += 1
    shown = " + ".join(tops + ([f"{down} face-down"] if down else []))
    return f"column {c} — {texts.plural(col['size'], 'stack')}, {col['cards']} cards: {shown}"


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
    last = ", the last" if view["last_round"] else ""
    return f"Round {view['round']}{last}"


def decision(view: Mapping[str, Any], *, you: bool) -> str:
    """What the current seat must decide, as a verb phrase."""
    step = view["step"]
    seat = view["current"]
    their = "your" if you else "their"
    if step == "over" or seat is None:
        return "nothing: the game is over"
    if step == "place":
        return f"place {their} pawn above a column, then collect or store"
    if step == "move":
        return f"move {their} pawn {view['side']} the Nautilus, then collect or store"
    if step == "act":
        col = facing(view, seat)
        if col is not None and view["columns"][col]["empty"]:
            return f"store from {their} hand (column {col} is empty) or do nothing"
        return f"collect from column {col} or store cards"
    if step == "close":
        pending = view.get("pending") or {}
        cat = category_name(str(pending.get("category", "")))
        return (
            f"close {their} {cat} collection ({pending.get('size')} cards) for the "
            f"{pending.get('porthole')} VP porthole, or keep it open"
        )
    return "decide"


def collections_line(player: Mapping[str, Any]) -> str:
    """'🟧 food 3 (2 VP, closed 5 VP)' for each non-empty collection."""
    parts = []
    for col in player["collections"]:
        if not col["size"] and not col["tokens"]:
            continue
        extra = [data.TOKEN_NAME.get(t["token"], t["token"]) for t in col["tokens"]]
        if col["closed"]:
            extra.append(f"closed {col['porthole']} VP")
        more = f" ({', '.join(extra)})" if extra else ""
        parts.append(f"{EMOJI[col['category']]} {col['category']} {col['size']}{more}")
    return " · ".join(parts) or "no collections yet"


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
            parts.append(f"placed their pawn above column {e['column']}")
        elif k == "pawn_moved":
            parts.append(f"moved {e['side']} column {e['column']} (from column {e['from_column']})")
        elif k == "card_taken":
            if e.get("card"):
                taken.append(object_of(str(e["card"])))
            else:
                hidden += 1
        elif k == "cards_stored":
            objs = counted(object_of(str(c)) for c in e["cards"])
            parts.append(
                f"stored {objs} in their {e['category']} collection "
                f"(now {texts.plural(int(e['size']), 'card')})"
            )
        elif k == "token_taken":
            parts.append(f"took the {data.TOKEN_NAME.get(e['token'], e['token'])} token")
        elif k == "collection_closed":
            parts.append(f"closed it with the {e['porthole']} VP porthole")
        elif k == "kept_open":
            parts.append("kept it open")
        elif k == "idled":
            parts.append(f"faced the empty column {e['column']} and did nothing")
        elif k == "turn_ended":
            hand = int(e["hand_size"])
    if taken or hidden:
        got = [counted(taken)] if taken else []
        if hidden:
            got.append(texts.plural(hidden, "face-down card"))
        parts.append("collected " + " + ".join(got))
    text = f"{who(names, seat)} " + ("; ".join(parts) or "played")
    if hand is not None:
        text += f" — {texts.plural(hand, 'card')} in hand"
    return text + "."


def table_notes(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The events of the table (not of one seat): refills, empty columns, rounds ending."""
    out = []
    for e in events:
        k = e.get("kind")
        if k == "camp_refilled":
            toks = ", ".join(
                f"{cat}: {data.TOKEN_NAME.get(tok, tok)}" for cat, tok in e.get("tokens", [])
            )
            out.append(f"🏕️ The camp was refilled — {toks} ({e['reserve_left']} tokens left).")
        elif k == "column_emptied":
            if e.get("first"):
                out.append(
                    f"⚠️ Column {e['column']} is empty! This round is finished, then one "
                    "last round is played."
                )
            else:
                out.append(f"Column {e['column']} is empty too.")
        elif k == "round_ended":
            line = f"Round {e['round']} is over: every pawn is {e['side']}."
            if e.get("next_is_last"):
                line += " **The next round is the last.**"
            out.append(line)
    return out


def score_lines(final: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    lines = []
    for s in sorted(final, key=lambda s: (s["rank"], s["seat"])):
        lines.append(
            f"{s['rank']}. {who(names, s['seat'])} — **{s['vp']} VP** (bonus tokens "
            f"{s['bonus_vp']}, portholes {s['porthole_vp']}, treasures {s['treasure_vp']}; "
            f"pawn at column {s['tiebreak']})"
        )
    return lines
