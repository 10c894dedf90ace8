"""Plain-text summaries of the duel pictures (alt text) and the board's status line.

Built from the view dict alone; seats are "seat 1" and "seat 2" (no player names), domain cards
are spelled out ("science ★★", "war ink blot").
"""

from __future__ import annotations

from typing import Any

from render.text import fit

KIND_WORDS = {"two_stars": "★★", "one_star": "★", "ink": "ink blot"}
SPECIAL_WORDS = {
    "kraken": "kraken",
    "fishbone": "fishbone",
    "anchor": "anchor",
    "eye": "eye",
    "diving_module": "diving module",
    "harpoon": "harpoon",
}


def seat_words(seat: int) -> str:
    return f"seat {seat + 1}"


def card_words(card: dict[str, Any]) -> str:
    return f"{card['domain']} {KIND_WORDS[card['kind']]}"


def value_words(space: dict[str, Any]) -> str:
    if space["card"] is None:
        return "empty"
    text = space["name"] or str(space["card"])
    if space["name"]:
        text += f" ({space['card']})"
    if space["arrow"]:
        text += f", {space['arrow']} arrow"
    if space["anchored"]:
        text += ", anchored"
    return text


def result_words(final: list[dict[str, Any]]) -> str:
    winners = [s["seat"] for s in final if s["rank"] == 1]
    how = final[0]["tiebreak"]
    if len(winners) == 2:
        return "Shared win (same domains and points)"
    w = final[winners[0]]
    if how == "domains":
        return f"{seat_words(w['seat']).capitalize()} wins, {w['vp']} domains"
    return f"{seat_words(w['seat']).capitalize()} wins on points ({w['points']})"


def status_line(view: dict[str, Any]) -> str:
    """What the table is waiting for, in one short line."""
    if view["step"] == "over":
        return "Game over: " + result_words(view["final"])
    who = seat_words(view["current"]).capitalize()
    step = view["step"]
    if step == "keep":
        return f"{who} keeps one of 2 specials"
    if step == "eye":
        return f"{who} looks with the eye"
    if step == "dive":
        return f"{who} keeps 1 of 2 divers"
    if step == "harpoon":
        return f"{who} keeps or returns the harpooned diver"
    if step == "arrow":
        arrow = view["arrow"]
        return f"{who} chooses the {arrow['card']}'s move ({len(arrow['options'])} options)"
    return f"{who} to place"


def board_alt(view: dict[str, Any]) -> str:
    parts = [
        f"Nautilus duel board, round {view['round']}/{view['rounds']}; "
        f"Nemo token: {seat_words(view['first'])}; domain deck {view['domain_deck']}. "
        f"{status_line(view)}."
    ]
    for slot in view["slots"]:
        d = slot["domain"]
        head = f"Slot {slot['index'] + 1}" + (f" {card_words(d)}" if d else "")
        sides = "; ".join(
            f"{seat_words(sp['side'])} side {value_words(sp)}" for sp in slot["sides"]
        )
        won = "" if slot["winner"] is None else f", won by {seat_words(slot['winner'])}"
        parts.append(f"{head}: {sides}{won}.")
    for p in view["players"]:
        played = ", ".join(SPECIAL_WORDS[s] for s in p["played"]) or "no special"
        parts.append(
            f"{seat_words(p['seat']).capitalize()}: {p['divers_in_hand']} divers in hand"
            f"{', a special in hand' if p['holds_special'] else ''}; played {played}."
        )
    by_round: dict[int, list[str]] = {}
    for a in view["awards"]:
        by_round.setdefault(a["round"], []).append(
            f"{card_words(a['domain'])} to {seat_words(a['winner'])}"
        )
    for r, items in by_round.items():
        parts.append(f"Round {r} awards: {', '.join(items)}.")
    return fit(" ".join(parts))


def hand_alt(view: dict[str, Any]) -> str:
    me = view["me"]
    parts = [f"Your hand ({seat_words(me['seat'])}), round {view['round']}/{view['rounds']}."]
    parts.append(f"Divers: {', '.join(map(str, me['divers'])) or 'none'}.")
    parts.append(
        f"Special: {SPECIAL_WORDS[me['special']]}." if me["special"] else "No special in hand."
    )
    if me["drawn"]:
        parts.append(f"Drawn specials: {', '.join(SPECIAL_WORDS[s] for s in me['drawn'])}.")
    if me["module"]:
        parts.append(f"Diving module drew: {', '.join(map(str, me['module']))}.")
    if me["harpoon"]:
        h = me["harpoon"]
        parts.append(f"Harpoon {'took' if h['role'] == 'took' else 'took from you'}: {h['card']}.")
    if me["eye"]:
        parts.append(f"The eye showed: {', '.join(map(str, me['eye']['divers']))}.")
    if me["known"]:
        parts.append(f"The opponent holds: {', '.join(map(str, me['known']))}.")
    won = [
        f"{d} {w['total']} ({len(w['cards'])} cards)"
        for d, w in me["won_by_domain"].items()
        if w["cards"]
    ]
    parts.append(f"Won pile: {', '.join(won) if won else 'empty'}.")
    return fit(" ".join(parts))


def scores_alt(view: dict[str, Any]) -> str:
    final = view["final"]
    parts = [f"Final scores. {result_words(final)}."]
    s0, s1 = final
    for d in s0["totals"]:
        a, b = s0["totals"][d], s1["totals"][d]
        winner = "nobody" if a == b else seat_words(0 if a > b else 1)
        parts.append(f"{d.capitalize()}: seat 1 {a}, seat 2 {b}, won by {winner}.")
    parts.append(
        f"Domains won: seat 1 {s0['vp']}, seat 2 {s1['vp']}. "
        f"Points: seat 1 {s0['points']}, seat 2 {s1['points']}."
    )
    return fit(" ".join(parts))
