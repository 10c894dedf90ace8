"""Nautilus duel in words, from views only: cards, spaces, slots, seats and events.

Every function reads a view (`engine.duel.view(state, seat)` output) or stored event dicts; none
sees a state. Public words (posts, pings, status) get the public view and public events, so they
can only say what the whole table saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts as common
from engine.duel import data

SPECIAL_WORDS = {
    "kraken": "kraken",
    "fishbone": "fishbone",
    "anchor": "anchor",
    "eye": "eye",
    "diving_module": "diving module",
    "harpoon": "harpoon",
}
SPECIAL_HINTS = {
    "kraken": "place it as a 15 instead of a diver (optional)",
    "fishbone": "place it as a 0 instead of a diver (optional)",
    "anchor": "play it with a placement, on that card or any card in play (optional)",
    "eye": "look at the opponent's divers before any card is placed",
    "diving_module": "draw 2 divers, keep 1, before any card is placed",
    "harpoon": "take a random diver from the opponent before any card is placed",
}
CARD_NAMES = {0: "fishbone", 15: "kraken"}
KIND_WORDS = {"two_stars": "★★", "one_star": "★", "ink": "ink blot"}
STEP_WORDS = {
    "keep": "keep one of two specials and give the other away",
    "eye": "play the eye",
    "dive": "keep one of the two divers the diving module drew",
    "harpoon": "keep or return the harpooned diver",
    "place": "place a card",
    "arrow": "choose what the arrow moves",
}
SPACES = 10
PLAYER = tuple(m.emoji for m in common.PLAYER_MARKS)


def special(name: str | None) -> str:
    return SPECIAL_WORDS.get(name or "", str(name))


def card(value: int) -> str:
    """'the 7', 'the kraken (15)'."""
    named = CARD_NAMES.get(value)
    return f"the {named} ({value})" if named else f"the {value}"


def card_short(value: int) -> str:
    """'7', 'kraken (15)'."""
    named = CARD_NAMES.get(value)
    return f"{named} ({value})" if named else str(value)


def arrow_of(value: int) -> str | None:
    if value in (6, 9):
        return "vertical"
    if value in (7, 8):
        return "horizontal"
    return None


def card_label(value: int) -> str:
    """'7 (horizontal arrow)', 'kraken (15)', '1 (crab: beats the 14)'."""
    text = card_short(value)
    arrow = arrow_of(value)
    if arrow:
        text += f" ({arrow} arrow)"
    elif value == 1:
        text += " (crab: beats 14)"
    return text


def values(cards: Sequence[int]) -> str:
    return ", ".join(card_short(v) for v in cards) or "none"


def domain_card(d: Mapping[str, Any] | None) -> str:
    if d is None:
        return "no card"
    return f"{d['domain']} {KIND_WORDS[d['kind']]}"


def slot(view: Mapping[str, Any], k: int) -> str:
    """'slot 3 (war ★★)'."""
    d = view["slots"][k]["domain"] if 0 <= k < len(view["slots"]) else None
    return f"slot {k + 1} ({domain_card(d)})" if d else f"slot {k + 1}"


def who(names: Sequence[str], seat: int) -> str:
    """'🔴 Ana'."""
    return f"{common.PLAYER_MARKS[seat].emoji} {common.name(names[seat])}"


def opp(names: Sequence[str], seat: int) -> str:
    return common.name(names[1 - seat])


def side(names: Sequence[str], s: int, viewer: int | None = None) -> str:
    """'Ana's side', or 'your side' for the viewer."""
    if viewer is not None and s == viewer:
        return "your side"
    return f"{common.name(names[s])}'s side"


def unit(view: Mapping[str, Any]) -> tuple[int, int]:
    """(round, placement): 0 is the specials phase, 1..10 the placement being made (its arrow
    included)."""
    step = view["step"]
    placed = int(view["placed"])
    if step in ("keep", "eye", "dive", "harpoon"):
        return int(view["round"]), 0
    if step == "place":
        return int(view["round"]), placed + 1
    return int(view["round"]), max(1, placed)


def must_decide(view: Mapping[str, Any]) -> str:
    step = view["step"]
    if step == "over":
        return "nothing: the game is over"
    if step == "arrow" and view.get("arrow"):
        a = view["arrow"]
        return f"choose which card {card(a['card'])}'s {a['direction']} arrow moves"
    return STEP_WORDS.get(str(step), str(step))


def where(view: Mapping[str, Any]) -> str:
    """'Round 2/6 · placement 3/10' or 'Round 2/6 · specials'."""
    r, p = unit(view)
    head = f"Round {r}/{view['rounds']}"
    if view["step"] == "over":
        return f"{head} · game over"
    return f"{head} · " + ("specials" if p == 0 else f"placement {p}/{SPACES}")


def won_counts(view: Mapping[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{who(names, p['seat'])} {p['won_count']}" for p in view["players"])


def event_line(e: Mapping[str, Any], names: Sequence[str], view: Mapping[str, Any]) -> str | None:
    """A public event in words ('🔴 Ana placed the 7 on Ben's side, slot 3'), or None for one
    that needs no line. `view` is the public view the slots are read from."""
    k = e["kind"]
    if k == "special_kept":
        return (
            f"{who(names, e['seat'])} kept one special and gave the other to "
            f"{common.name(names[e['to']])}"
        )
    if k == "special_played":
        if e["special"] == "eye":
            return (
                f"{who(names, e['seat'])} played the eye and saw {opp(names, e['seat'])}'s divers"
            )
        return None  # the harpoon, the module, the anchor, kraken and fishbone: said below
    if k == "module_kept":
        return (
            f"{who(names, e['seat'])} played the diving module: drew two divers, kept one and put "
            "the other back on top of the deck"
        )
    if k == "harpoon_took":
        return (
            f"{who(names, e['seat'])} played the harpoon and took a random diver from "
            f"{common.name(names[e['victim']])}"
        )
    if k == "harpoon_resolved":
        if e["kept"]:
            return (
                f"{who(names, e['seat'])} kept the harpooned diver and gave "
                f"{common.name(names[e['victim']])} another one for it"
            )
        return (
            f"{who(names, e['seat'])} gave the harpooned diver back to "
            f"{common.name(names[e['victim']])}"
        )
    if k == "placed":
        return (
            f"{who(names, e['seat'])} placed {card(e['card'])} on "
            f"{'their own side' if e['side'] == e['seat'] else side(names, e['side'])}, "
            f"{slot(view, e['slot'])}"
        )
    if k == "anchored":
        return f"⚓ the anchor lies on {card(e['card'])}"
    if k == "arrow_moved":
        how = " (its only possible move)" if e["forced"] else ""
        moved = "across to" if e["side"] != e["from_side"] else "along to"
        return (
            f"↔ the {e['arrow']}'s arrow moved {card(e['card'])} {moved} "
            f"{side(names, e['side'])}, slot {e['slot'] + 1}{how}"
        )
    if k == "arrow_blocked":
        return f"the {e['arrow']}'s arrow has nothing to move"
    if k == "arrow_pending":
        return f"the {e['arrow']}'s arrow can move {common.plural(e['options'], 'way')}: choosing"
    if k == "special_deck_rebuilt":
        return "the special deck is rebuilt from all 6 specials and shuffled"
    return None


def award_lines(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """The awards of a round's end, one line per slot, then the round's count."""
    out = []
    for e in events:
        if e["kind"] == "slot_awarded":
            a, b = e["values"]
            d = {"domain": _domain_of(e["card"]), "kind": _kind_of(e["card"])}
            crab = " (crab beats 14)" if {a, b} == {1, 14} else ""
            out.append(
                f"• slot {e['slot'] + 1} {domain_card(d)}: {PLAYER[0]} {card_short(a)} vs "
                f"{PLAYER[1]} {card_short(b)} → {who(names, e['winner'])}{crab}"
            )
        elif e["kind"] == "round_ended":
            x, y = e["cards_won"]
            out.append(
                f"Round {e['round']}: {who(names, 0)} wins {common.plural(x, 'card')}, "
                f"{who(names, 1)} {common.plural(y, 'card')}."
            )
    return out


_DOMAINS = data.DOMAINS
_domain_of = data.domain_of
_kind_of = data.kind_of


def round_start(e: Mapping[str, Any], names: Sequence[str]) -> str:
    cards = ", ".join(
        f"{k + 1} {domain_card({'domain': _domain_of(c), 'kind': _kind_of(c)})}"
        for k, c in enumerate(e["slots"])
    )
    return f"**Round {e['round']} begins** — Nemo token: {who(names, e['first'])}. Slots: {cards}."


def result(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The winner and the tie-break that decided, from the final scores of a view."""
    final = view["final"] or []
    if not final:
        return "The game is not over."
    winners = [s["seat"] for s in final if s["rank"] == 1]
    how = final[0]["tiebreak"]
    a, b = final
    n0, n1 = common.name(names[0]), common.name(names[1])
    score = (
        f"domains won: {n0} {a['vp']}, {n1} {b['vp']}; "
        f"points: {n0} {a['points']}, {n1} {b['points']}"
    )
    if len(winners) == 2:
        return (
            f"**Shared win** for {who(names, 0)} and {who(names, 1)}: the same number of "
            f"domains and the same points ({score})."
        )
    w = final[winners[0]]
    if how == "domains":
        why = f"with {common.plural(w['vp'], 'domain')} won to {final[1 - w['seat']]['vp']}"
    else:
        why = (
            f"on the tie-break: domains level at {w['vp']} each, then more domain points "
            f"({w['points']} to {final[1 - w['seat']]['points']})"
        )
    return f"🏆 **{common.name(names[w['seat']])} wins** {why}. ({score})"


def domain_table(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    final = view["final"] or []
    if len(final) != 2:
        return []
    a, b = final
    out = []
    for d in _DOMAINS:
        x, y = a["totals"][d], b["totals"][d]
        winner = "nobody" if x == y else common.name(names[0 if x > y else 1])
        out.append(f"• {d}: {x} – {y} → {winner}")
    return out


def private_line(e: Mapping[str, Any]) -> str:
    """A private event, told to its owner."""
    k = e.get("kind")
    if k == "divers_dealt":
        return f"you were dealt {values(e['divers'])}"
    if k == "specials_drawn":
        drawn = " and the ".join(special(s) for s in e["specials"])
        return f"you drew the {drawn}"
    if k == "special_chosen":
        return f"you kept the {special(e['kept'])} and gave the {special(e['given'])}"
    if k == "special_received":
        return f"you received the {special(e['special'])}"
    if k == "eye_seen":
        return f"the eye showed the opponent's divers: {values(e['divers'])}"
    if k == "module_drew":
        return f"the diving module drew {values(e['divers'])}"
    if k == "module_chosen":
        return f"you kept {card(e['kept'])}; {card(e['returned'])} went back on top of the deck"
    if k == "harpoon_card":
        if e.get("role") == "took":
            return f"your harpoon took {card(e['card'])}"
        return f"the harpoon took your {card_short(e['card'])}"
    if k == "harpoon_exchange":
        if e.get("gave") is None:
            return f"you got {card(e['received'])} back"
        return f"you received {card(e['received'])} and gave {card(e['gave'])}"
    if k == "special_discarded":
        return f"your unplayed {special(e['special'])} was discarded at the round's end"
    if k == "won_pile":
        ids = list(e.get("cards", ()))
        piles = ", ".join(domain_card({"domain": _domain_of(c), "kind": _kind_of(c)}) for c in ids)
        return f"your won pile: {piles or 'empty'}"
    return str(k)
