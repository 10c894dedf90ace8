"""Nautilus duel in words, from views only: cards, spaces, slots, seats and events.

Every function reads a view (`engine.duel.view(state, seat)` output) or stored event dicts; none
sees a state. Public words (posts, pings, status) get the public view and public events, so they
can only say what the whole table saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts as common
from bot.i18n import N_, tr, trn
from engine.duel import data

# English words, marked for the catalogue and said through `tr` where shown; the French are the
# duel rulebook's (Scaphandrier, cartes spéciales, Arête, Œil, Module de plongée, Harpon…).
SPECIAL_WORDS = {
    "kraken": N_("kraken"),
    "fishbone": N_("fishbone"),
    "anchor": N_("anchor"),
    "eye": N_("eye"),
    "diving_module": N_("diving module"),
    "harpoon": N_("harpoon"),
}
# The special with its article ("the eye", "l'œil"): French articles depend on the word.
THE_SPECIAL = {
    "kraken": N_("the kraken"),
    "fishbone": N_("the fishbone"),
    "anchor": N_("the anchor"),
    "eye": N_("the eye"),
    "diving_module": N_("the diving module"),
    "harpoon": N_("the harpoon"),
}
SPECIAL_HINTS = {
    "kraken": N_("place it as a 15 instead of a diver (optional)"),
    "fishbone": N_("place it as a 0 instead of a diver (optional)"),
    "anchor": N_("play it with a placement, on that card or any card in play (optional)"),
    "eye": N_("look at the opponent's divers before any card is placed"),
    "diving_module": N_("draw 2 divers, keep 1, before any card is placed"),
    "harpoon": N_("take a random diver from the opponent before any card is placed"),
}
CARD_NAMES = {0: "fishbone", 15: "kraken"}
KIND_WORDS = {"two_stars": "★★", "one_star": "★", "ink": N_("ink blot")}
DOMAIN_WORDS = {
    "science": N_("science"),
    "exploration": N_("exploration"),
    "navigation": N_("navigation"),
    "engineering": N_("engineering"),
    "war": N_("war"),
}
STEP_WORDS = {
    "keep": N_("keep one of two specials and give the other away"),
    "eye": N_("play the eye"),
    "dive": N_("keep one of the two divers the diving module drew"),
    "harpoon": N_("keep or return the harpooned diver"),
    "place": N_("place a card"),
    "arrow": N_("choose what the arrow moves"),
}
ARROW_WORDS = {"vertical": N_("vertical"), "horizontal": N_("horizontal")}
SPACES = 10
PLAYER = tuple(m.emoji for m in common.PLAYER_MARKS)


def special(name: str | None) -> str:
    word = SPECIAL_WORDS.get(name or "")
    return tr(word) if word is not None else str(name)


def the_special(name: str | None) -> str:
    """'the eye' ('l'œil')."""
    word = THE_SPECIAL.get(name or "")
    return tr(word) if word is not None else str(name)


def domain(name: str) -> str:
    word = DOMAIN_WORDS.get(name)
    return tr(word) if word is not None else name


def card(value: int) -> str:
    """'the 7', 'the kraken (15)'."""
    named = CARD_NAMES.get(value)
    if named:
        return tr("{the_special} ({n})", the_special=the_special(named), n=value)
    return tr("the {n}", n=value)


def card_short(value: int) -> str:
    """'7', 'kraken (15)'."""
    named = CARD_NAMES.get(value)
    return f"{special(named)} ({value})" if named else str(value)


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
    if arrow == "vertical":
        text += tr(" (vertical arrow)")
    elif arrow == "horizontal":
        text += tr(" (horizontal arrow)")
    elif value == 1:
        text += tr(" (crab: beats 14)")
    return text


def values(cards: Sequence[int]) -> str:
    return ", ".join(card_short(v) for v in cards) or tr("none")


def domain_card(d: Mapping[str, Any] | None) -> str:
    if d is None:
        return tr("no card")
    return f"{domain(d['domain'])} {tr(KIND_WORDS[d['kind']])}"


def slot(view: Mapping[str, Any], k: int) -> str:
    """'slot 3 (war ★★)'."""
    d = view["slots"][k]["domain"] if 0 <= k < len(view["slots"]) else None
    if d:
        return tr("slot {n} ({card})", n=k + 1, card=domain_card(d))
    return tr("slot {n}", n=k + 1)


def who(names: Sequence[str], seat: int) -> str:
    """'🔴 Ana'."""
    return f"{common.PLAYER_MARKS[seat].emoji} {common.name(names[seat])}"


def opp(names: Sequence[str], seat: int) -> str:
    return common.name(names[1 - seat])


def side(names: Sequence[str], s: int, viewer: int | None = None) -> str:
    """'Ana's side', or 'your side' for the viewer."""
    if viewer is not None and s == viewer:
        return tr("your side")
    return tr("{name}'s side", name=common.name(names[s]))


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
        return tr("nothing: the game is over")
    if step == "arrow" and view.get("arrow"):
        a = view["arrow"]
        if a["direction"] == "vertical":
            return tr("choose which card {card}'s vertical arrow moves", card=card(a["card"]))
        if a["direction"] == "horizontal":
            return tr("choose which card {card}'s horizontal arrow moves", card=card(a["card"]))
        return tr("choose which card {card}'s arrow moves", card=card(a["card"]))
    words = STEP_WORDS.get(str(step))
    return tr(words) if words is not None else str(step)


def where(view: Mapping[str, Any]) -> str:
    """'Round 2/6 · placement 3/10' or 'Round 2/6 · specials'."""
    r, p = unit(view)
    head = tr("Round {n}/{rounds}", n=r, rounds=view["rounds"])
    if view["step"] == "over":
        return tr("{head} · game over", head=head)
    if p == 0:
        return tr("{head} · specials", head=head)
    return tr("{head} · placement {p}/{spaces}", head=head, p=p, spaces=SPACES)


def won_counts(view: Mapping[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{who(names, p['seat'])} {p['won_count']}" for p in view["players"])


def event_line(e: Mapping[str, Any], names: Sequence[str], view: Mapping[str, Any]) -> str | None:
    """A public event in words ('🔴 Ana placed the 7 on Ben's side, slot 3'), or None for one
    that needs no line. `view` is the public view the slots are read from."""
    k = e["kind"]
    if k == "special_kept":
        return tr(
            "{who} kept one special and gave the other to {name}",
            who=who(names, e["seat"]),
            name=common.name(names[e["to"]]),
        )
    if k == "special_played":
        if e["special"] == "eye":
            return tr(
                "{who} played the eye and saw {name}'s divers",
                who=who(names, e["seat"]),
                name=opp(names, e["seat"]),
            )
        return None  # the harpoon, the module, the anchor, kraken and fishbone: said below
    if k == "module_kept":
        return tr(
            "{who} played the diving module: drew two divers, kept one and put the other back "
            "on top of the deck",
            who=who(names, e["seat"]),
        )
    if k == "harpoon_took":
        return tr(
            "{who} played the harpoon and took a random diver from {name}",
            who=who(names, e["seat"]),
            name=common.name(names[e["victim"]]),
        )
    if k == "harpoon_resolved":
        if e["kept"]:
            return tr(
                "{who} kept the harpooned diver and gave {name} another one for it",
                who=who(names, e["seat"]),
                name=common.name(names[e["victim"]]),
            )
        return tr(
            "{who} gave the harpooned diver back to {name}",
            who=who(names, e["seat"]),
            name=common.name(names[e["victim"]]),
        )
    if k == "placed":
        where_ = tr("their own side") if e["side"] == e["seat"] else side(names, e["side"])
        return tr(
            "{who} placed {card} on {side}, {slot}",
            who=who(names, e["seat"]),
            card=card(e["card"]),
            side=where_,
            slot=slot(view, e["slot"]),
        )
    if k == "anchored":
        return tr("⚓ the anchor lies on {card}", card=card(e["card"]))
    if k == "arrow_moved":
        params = {
            "arrow": card(e["arrow"]),
            "card": card(e["card"]),
            "side": side(names, e["side"]),
            "slot": e["slot"] + 1,
            "how": tr(" (its only possible move)") if e["forced"] else "",
        }
        if e["side"] != e["from_side"]:
            return tr("↔ {arrow}'s arrow moved {card} across to {side}, slot {slot}{how}", **params)
        return tr("↔ {arrow}'s arrow moved {card} along to {side}, slot {slot}{how}", **params)
    if k == "arrow_blocked":
        return tr("{arrow}'s arrow has nothing to move", arrow=card(e["arrow"]))
    if k == "arrow_pending":
        return tr(
            "{arrow}'s arrow can move a card in {ways}; its player chooses next",
            arrow=card(e["arrow"]),
            ways=trn("{n} way", "{n} ways", e["options"]),
        )
    if k == "special_deck_rebuilt":
        return tr("the special deck is rebuilt from all 6 specials and shuffled")
    return None


def award_lines(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """The awards of a round's end, one line per slot, then the round's count."""
    out = []
    for e in events:
        if e["kind"] == "slot_awarded":
            a, b = e["values"]
            d = {"domain": _domain_of(e["card"]), "kind": _kind_of(e["card"])}
            crab = tr(" (crab beats 14)") if {a, b} == {1, 14} else ""
            out.append(
                tr(
                    "• slot {n} {card}: {p0} {a} vs {p1} {b} → {winner}{crab}",
                    n=e["slot"] + 1,
                    card=domain_card(d),
                    p0=PLAYER[0],
                    a=card_short(a),
                    p1=PLAYER[1],
                    b=card_short(b),
                    winner=who(names, e["winner"]),
                    crab=crab,
                )
            )
        elif e["kind"] == "round_ended":
            x, y = e["cards_won"]
            out.append(
                tr(
                    "Round {n}: {first} wins {x}, {second} {y}.",
                    n=e["round"],
                    first=who(names, 0),
                    x=trn("{n} card", "{n} cards", x),
                    second=who(names, 1),
                    y=trn("{n} card", "{n} cards", y),
                )
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
    return tr(
        "**Round {n} begins** — Nemo token: {who}. Slots: {slots}.",
        n=e["round"],
        who=who(names, e["first"]),
        slots=cards,
    )


def result(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The winner and the tie-break that decided, from the final scores of a view."""
    final = view["final"] or []
    if not final:
        return tr("The game is not over.")
    winners = [s["seat"] for s in final if s["rank"] == 1]
    how = final[0]["tiebreak"]
    a, b = final
    n0, n1 = common.name(names[0]), common.name(names[1])
    score = tr(
        "domains won: {n0} {a}, {n1} {b}; points: {n0} {pa}, {n1} {pb}",
        n0=n0,
        n1=n1,
        a=a["vp"],
        b=b["vp"],
        pa=a["points"],
        pb=b["points"],
    )
    if len(winners) == 2:
        return tr(
            "**Shared win** for {first} and {second}: the same number of domains and the same "
            "points ({score}).",
            first=who(names, 0),
            second=who(names, 1),
            score=score,
        )
    w = final[winners[0]]
    if how == "domains":
        why = tr(
            "with {domains} won to {other}",
            domains=trn("{n} domain", "{n} domains", w["vp"]),
            other=final[1 - w["seat"]]["vp"],
        )
    else:
        why = tr(
            "on the tie-break: domains level at {n} each, then more domain points ({mine} to "
            "{theirs})",
            n=w["vp"],
            mine=w["points"],
            theirs=final[1 - w["seat"]]["points"],
        )
    return tr(
        "🏆 **{name} wins** {why}. ({score})",
        name=common.name(names[w["seat"]]),
        why=why,
        score=score,
    )


def domain_table(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    final = view["final"] or []
    if len(final) != 2:
        return []
    a, b = final
    out = []
    for d in _DOMAINS:
        x, y = a["totals"][d], b["totals"][d]
        winner = tr("nobody") if x == y else common.name(names[0 if x > y else 1])
        out.append(
            tr("• {domain}: {x} – {y} → {winner}", domain=domain(d), x=x, y=y, winner=winner)
        )
    return out


def private_line(e: Mapping[str, Any]) -> str:
    """A private event, told to its owner."""
    k = e.get("kind")
    if k == "divers_dealt":
        return tr("you were dealt {cards}", cards=values(e["divers"]))
    if k == "specials_drawn":
        drawn = tr(" and ").join(the_special(s) for s in e["specials"])
        return tr("you drew {specials}", specials=drawn)
    if k == "special_chosen":
        return tr(
            "you kept {kept} and gave {given}",
            kept=the_special(e["kept"]),
            given=the_special(e["given"]),
        )
    if k == "special_received":
        return tr("you received {special}", special=the_special(e["special"]))
    if k == "eye_seen":
        return tr("the eye showed the opponent's divers: {cards}", cards=values(e["divers"]))
    if k == "module_drew":
        return tr("the diving module drew {cards}", cards=values(e["divers"]))
    if k == "module_chosen":
        return tr(
            "you kept {kept}; {returned} went back on top of the deck",
            kept=card(e["kept"]),
            returned=card(e["returned"]),
        )
    if k == "harpoon_card":
        if e.get("role") == "took":
            return tr("your harpoon took {card}", card=card(e["card"]))
        return tr("the harpoon took your {card}", card=card_short(e["card"]))
    if k == "harpoon_exchange":
        if e.get("gave") is None:
            return tr("you got {card} back", card=card(e["received"]))
        return tr(
            "you received {received} and gave {gave}",
            received=card(e["received"]),
            gave=card(e["gave"]),
        )
    if k == "special_discarded":
        return tr(
            "your unplayed {special} was discarded at the round's end",
            special=special(e["special"]),
        )
    if k == "won_pile":
        ids = list(e.get("cards", ()))
        piles = ", ".join(domain_card({"domain": _domain_of(c), "kind": _kind_of(c)}) for c in ids)
        return tr("your won pile: {cards}", cards=piles or tr("empty"))
    return str(k)
