"""Plain-text summaries of the duel pictures (alt text) and the board's status line, in the
language of the context (`render.words`).

Built from the view dict alone; seats are "seat 1" and "seat 2" (no player names), domain cards
are spelled out ("science ★★", "war ink blot").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from render.canvas import min_font_px, text_width
from render.seats import drawable, short_name
from render.text import ALT_LIMIT, clauses, fit
from render.words import w, w_, wn

# Spelt out: a screen reader says "★★" as "black star black star".
KIND_WORDS = {"two_stars": w_("2 stars"), "one_star": w_("1 star"), "ink": w_("ink blot")}
SPECIAL_WORDS = {
    "kraken": w_("kraken"),
    "fishbone": w_("fishbone"),
    "anchor": w_("anchor"),
    "eye": w_("eye"),
    "diving_module": w_("diving module"),
    "harpoon": w_("harpoon"),
}
DOMAIN_WORDS = {
    "science": w_("science"),
    "exploration": w_("exploration"),
    "navigation": w_("navigation"),
    "engineering": w_("engineering"),
    "war": w_("war"),
}
ARROW_WORDS = {"vertical": w_("vertical"), "horizontal": w_("horizontal")}


def special(name: str) -> str:
    return w(SPECIAL_WORDS[name]) if name in SPECIAL_WORDS else name


def domain(name: str) -> str:
    return w(DOMAIN_WORDS[name]) if name in DOMAIN_WORDS else name


def seat_words(seat: int) -> str:
    return w("seat {n}", n=seat + 1)


def _cards(n: int) -> str:
    return wn("{n} card", "{n} cards", n)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_words(card: dict[str, Any]) -> str:
    return f"{domain(card['domain'])} {w(KIND_WORDS[card['kind']])}"


NAME_PX = min_font_px(800)  # the duel pictures (800 px wide) write these lines at their SMALL size
NAME_ROOM = 300  # px: the most a name takes of a line


def _named(seat: int, names: Sequence[str], room: float, line: Callable[[str], str]) -> str:
    """`line(who)` with the seat as a picture names it: its short name, cut so the whole line
    fits `room` pixels (the rest of the line's length is the language's: French runs longer),
    or 'Seat 1' when it has no name to draw."""
    if not (seat < len(names) and drawable(names[seat])):
        return line(_capital(seat_words(seat)))
    rest = text_width(line(""), NAME_PX)
    return line(short_name(names, seat, NAME_PX, int(min(NAME_ROOM, room - rest))))


def result_words(
    final: list[dict[str, Any]], names: Sequence[str] = (), room: float = math.inf
) -> str:
    """Who won, in one line of at most `room` pixels (a name is shortened to fit)."""
    winners = [s["seat"] for s in final if s["rank"] == 1]
    if len(winners) == 2:
        return w("Shared win (same domains and points)")
    won = final[winners[0]]
    if final[0]["tiebreak"] == "domains":
        template, n = w_("{who} wins, {n} domains"), won["vp"]
    else:
        template, n = w_("{who} wins on points ({n})"), won["points"]
    return _named(won["seat"], names, room, lambda who: w(template, who=who, n=n))


# What the table waits for at each step, from the seat to move ("{who}").
WAITING = {
    "keep": w_("{who} keeps one of 2 specials"),
    "eye": w_("{who} looks with the eye"),
    "dive": w_("{who} keeps 1 of 2 divers"),
    "harpoon": w_("{who} keeps or returns the harpooned diver"),
    "arrow": w_("{who} chooses the {card}'s move ({n} options)"),
    "place": w_("{who} to place"),
}


def status_line(view: dict[str, Any], names: Sequence[str] = (), room: float = math.inf) -> str:
    """What the table is waiting for, in one short line of at most `room` pixels; the seat by
    its name when `names` are given (what the font can draw of it, shortened to fit), else as
    'Seat 1'."""
    if view["step"] == "over":
        over = w("Game over: {result}", result="")
        return w(
            "Game over: {result}",
            result=result_words(view["final"], names, room - text_width(over, NAME_PX)),
        )
    fields: dict[str, Any] = {}
    if view["step"] == "arrow":
        fields = {"card": view["arrow"]["card"], "n": len(view["arrow"]["options"])}
    template = WAITING.get(view["step"], WAITING["place"])
    return _named(view["current"], names, room, lambda who: w(template, who=who, **fields))


def _against(space: dict[str, Any]) -> str:
    """One side's diver for the 'A against B' of a slot: '9 (vertical arrow)', 'kraken (15,
    anchored)', 'empty'. The details sit in brackets so the commas of the slot stay its own."""
    if space["card"] is None:
        return w("empty")
    marks = [str(space["card"])] if space["name"] else []
    if space["arrow"]:
        arrow = ARROW_WORDS.get(space["arrow"])
        marks.append(w("{direction} arrow", direction=w(arrow) if arrow else space["arrow"]))
    if space["anchored"]:
        marks.append(w("anchored"))
    said = special(space["name"]) if space["name"] else str(space["card"])
    return w("{card} ({details})", card=said, details=", ".join(marks)) if marks else said


def _slot(slot: dict[str, Any]) -> str:
    """'Slot 1, war 2 stars: kraken (15) against 9 (vertical arrow), won by seat 1.': seat 1's
    card first, as the board's first sentence says (not 'on seat 1's side' twice a slot)."""
    first, second = slot["sides"]
    if first["card"] is None and second["card"] is None:
        sides = w("both sides empty")
    else:
        sides = w("{first} against {second}", first=_against(first), second=_against(second))
    if slot["winner"] is not None:
        sides += w(", won by {seat}", seat=seat_words(slot["winner"]))
    n = slot["index"] + 1
    d = slot["domain"]
    if d:
        return w("Slot {n}, {card}: {sides}.", n=n, card=card_words(d), sides=sides)
    return w("Slot {n}: {sides}.", n=n, sides=sides)


def _round_cards(r: int, by_seat: dict[int, list[str]]) -> str:
    """'Round 2: war 1 star, science ink blot to seat 1; navigation 2 stars to seat 2.'"""
    items = clauses(
        w("{card} to {seat}", card=", ".join(cards), seat=seat_words(seat))
        for seat, cards in sorted(by_seat.items())
    )
    return w("Round {n}: {items}.", n=r, items=items)


def _round_counts(rounds: list[tuple[int, dict[int, list[str]]]]) -> str:
    """The oldest rounds by how many cards each seat won, like a match's scores, in one
    sentence that says their domains were left out: 'Rounds 1 to 3, cards won, seat 1 against
    seat 2 (their domains left out for length): 3 to 2, 5 to 0, 1 to 4.'"""
    scores = ", ".join(
        w("{a} to {b}", a=len(by_seat.get(0, [])), b=len(by_seat.get(1, [])))
        for _, by_seat in rounds
    )
    first, last = rounds[0][0], rounds[-1][0]
    if first == last:
        return w(
            "Round {n}, cards won, seat 1 against seat 2 (their domains left out for length): "
            "{scores}.",
            n=first,
            scores=scores,
        )
    if last == first + 1:
        return w(
            "Rounds {first} and {last}, cards won, seat 1 against seat 2 (their domains left "
            "out for length): {scores}.",
            first=first,
            last=last,
            scores=scores,
        )
    return w(
        "Rounds {first} to {last}, cards won, seat 1 against seat 2 (their domains left out "
        "for length): {scores}.",
        first=first,
        last=last,
        scores=scores,
    )


def board_alt(view: dict[str, Any]) -> str:
    """The table in order: status, the 5 slots (seat 1's card against seat 2's), the hands,
    then every round's awards. A late game's awards are more than Discord keeps (1,024
    characters): the oldest rounds are then told by their counts of cards only, as few of them
    as it takes, so no round's result is ever lost to a cut."""
    head = w(
        "Nautilus duel board, round {round}/{rounds}; Nemo token: {first}; domain deck "
        "{deck}. {status}.",
        round=view["round"],
        rounds=view["rounds"],
        first=seat_words(view["first"]),
        deck=view["domain_deck"],
        status=status_line(view),
    )
    parts = [head, w("Slots, seat 1's card against seat 2's.")]
    parts += [_slot(slot) for slot in view["slots"]]
    for p in view["players"]:
        played = ", ".join(special(s) for s in p["played"])
        params = {
            "who": _capital(seat_words(p["seat"])),
            "special": w(", a special in hand") if p["holds_special"] else "",
            "played": played,
        }
        n = p["divers_in_hand"]
        parts.append(
            wn(
                "{who}: {n} diver in hand{special}; specials played: {played}.",
                "{who}: {n} divers in hand{special}; specials played: {played}.",
                n,
                **params,
            )
            if played
            else wn(
                "{who}: {n} diver in hand{special}; no special played.",
                "{who}: {n} divers in hand{special}; no special played.",
                n,
                **params,
            )
        )
    # Each round's awards by winner, oldest first.
    by_round: dict[int, dict[int, list[str]]] = {}
    for a in view["awards"]:
        won = by_round.setdefault(a["round"], {}).setdefault(a["winner"], [])
        won.append(card_words(a["domain"]))
    # At the end the last round's winners are in the slots ("won by seat 1"): said once.
    said_in_slots = view["round"] if view["step"] == "over" else None
    rounds = sorted(
        ((r, by_seat) for r, by_seat in by_round.items() if r != said_in_slots), key=lambda x: x[0]
    )
    text = " ".join(parts)
    for k in range(len(rounds) + 1):
        told = [_round_counts(rounds[:k])] if k else []
        told += [_round_cards(r, by_seat) for r, by_seat in rounds[k:]]
        text = " ".join([*parts, *told])
        if len(text) <= ALT_LIMIT:
            return text
    return fit(text)


def hand_alt(view: dict[str, Any]) -> str:
    me = view["me"]
    parts = [
        w(
            "Your hand ({seat}), round {round}/{rounds}.",
            seat=seat_words(me["seat"]),
            round=view["round"],
            rounds=view["rounds"],
        )
    ]
    parts.append(w("Divers: {list}.", list=", ".join(map(str, me["divers"])) or w("none")))
    parts.append(
        w("Special: {special}.", special=special(me["special"]))
        if me["special"]
        else w("No special in hand.")
    )
    if me["drawn"]:
        drawn = ", ".join(special(s) for s in me["drawn"])
        parts.append(w("Drawn specials: {list}.", list=drawn))
    if me["module"]:
        parts.append(w("Diving module drew: {list}.", list=", ".join(map(str, me["module"]))))
    if me["harpoon"]:
        h = me["harpoon"]
        if h["role"] == "took":
            parts.append(w("Harpoon took: {card}.", card=h["card"]))
        else:
            parts.append(w("Harpoon took from you: {card}.", card=h["card"]))
    if me["eye"]:
        parts.append(w("The eye showed: {list}.", list=", ".join(map(str, me["eye"]["divers"]))))
    if me["known"]:
        parts.append(w("The opponent holds: {list}.", list=", ".join(map(str, me["known"]))))
    won = [
        # Counted by its size: "-1 point" as "1 point" (English and French alike).
        wn(
            "{domain} {total} point from {cards}",
            "{domain} {total} points from {cards}",
            abs(pile["total"]),
            total=pile["total"],
            domain=domain(d),
            cards=_cards(len(pile["cards"])),
        )
        for d, pile in me["won_by_domain"].items()
        if pile["cards"]
    ]
    parts.append(w("Won pile: {list}.", list=", ".join(won) if won else w("empty")))
    return fit(" ".join(parts))


def scores_alt(view: dict[str, Any]) -> str:
    final = view["final"]
    parts = [w("Final scores. {result}.", result=result_words(final))]
    s0, s1 = final
    for d in s0["totals"]:
        a, b = s0["totals"][d], s1["totals"][d]
        params = {"domain": _capital(domain(d)), "a": a, "b": b}
        parts.append(
            w("{domain}: {a} for seat 1, {b} for seat 2, a tie.", **params)
            if a == b
            else w(
                "{domain}: {a} for seat 1, {b} for seat 2, won by {winner}.",
                winner=seat_words(0 if a > b else 1),
                **params,
            )
        )
    parts.append(
        w(
            "Domains won: {a} for seat 1, {b} for seat 2. Points: {pa} for seat 1, {pb} for "
            "seat 2.",
            a=s0["vp"],
            b=s1["vp"],
            pa=s0["points"],
            pb=s1["points"],
        )
    )
    return fit(" ".join(parts))
