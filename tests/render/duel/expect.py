"""What each duel picture must show, built from the view dict alone.

The renderer records a mark for each text and icon it draws; these builders list the marks a
complete picture must carry, and tests compare the two as multisets.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

SHORT = {"science": "SCI", "exploration": "EXP", "navigation": "NAV", "engineering": "ENG"}
SHORT["war"] = "WAR"


def n(x: int) -> str:
    return f"−{-x}" if x < 0 else str(x)


def board_marks(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    want: list[tuple[str, str]] = [
        ("round", f"Round {view['round']}/{view['rounds']}"),
        ("nemo", f"player_{view['first']}"),
        ("deck.domain", str(view["domain_deck"])),
    ]
    for p in view["players"]:
        s = p["seat"]
        key = f"seat.{s}"
        want += [(key, f"player_{s}"), (f"{key}.name", f"Seat {s + 1}")]
        k = p["divers_in_hand"]
        want.append((f"{key}.hand", f"{k} diver{'s' if k != 1 else ''}"))
        if view["current"] == s:
            want.append((f"{key}.state", "to act"))
        if view["first"] == s and view["step"] != "over":
            want.append((f"{key}.nemo", "nemo"))
        if p["holds_special"]:
            want.append((f"{key}.special", "held"))
        want += [(f"{key}.played", sp) for sp in p["played"]]
    for slot in view["slots"]:
        k = slot["index"]
        dom = slot["domain"]
        if dom is not None:
            want += [
                (f"slot.{k}.domain", dom["domain"]),
                (f"slot.{k}.kind", dom["kind"]),
                (f"slot.{k}.code", SHORT[dom["domain"]]),
            ]
        if slot["winner"] is not None:
            want.append((f"slot.{k}.winner", f"player_{slot['winner']}"))
        for sp in slot["sides"]:
            key = f"space.{sp['side']}.{k}"
            if sp["card"] is None:
                continue
            want.append((key, str(sp["card"])))
            if sp["arrow"]:
                want.append((f"{key}.arrow", sp["arrow"]))
            if sp["anchored"]:
                want.append((f"{key}.anchor", "anchor"))
            if sp["name"]:
                want += [(f"{key}.name", sp["name"])] * 2  # the icon and the word
    want.append(("awards", "Awards by round"))
    want += [(f"award.{r}", str(r)) for r in range(1, view["rounds"] + 1)]
    for a in view["awards"]:
        key = f"award.{a['round']}.{a['slot']}"
        want += [
            (f"{key}.domain", a["domain"]["domain"]),
            (f"{key}.kind", a["domain"]["kind"]),
            (f"{key}.winner", f"player_{a['winner']}"),
        ]
    return Counter(want)


def hand_marks(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    me = view["me"]
    want: list[tuple[str, str]] = [("seat", f"player_{me['seat']}")]
    for v in me["divers"]:
        want.append((f"diver.{v}", str(v)))
        if v in (6, 9):
            want.append((f"diver.{v}.arrow", "vertical"))
        if v in (7, 8):
            want.append((f"diver.{v}.arrow", "horizontal"))
    if me["special"]:
        want.append(("special", me["special"]))
    for domain, pile in me["won_by_domain"].items():
        want += [(f"won.{domain}", domain), (f"won.{domain}.total", n(pile["total"]))]
        want += [(f"won.{domain}.card", c["kind"]) for c in pile["cards"]]
    for key in ("drawn", "module", "harpoon", "eye", "known", "opponent_special", "deck_top"):
        if me[key] not in (None, []):
            want.append((f"info.{key}", "line"))
    return Counter(want)


def scores_marks(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    want: list[tuple[str, str]] = [(f"row.{d}", d) for d in view["final"][0]["totals"]]
    for s in view["final"]:
        p = f"p{s['seat']}"
        want += [(p, "badge"), (f"{p}.name", str(s["seat"] + 1))]
        if s["rank"] == 1:
            want.append((f"{p}.winner", "winner"))
        for d, total in s["totals"].items():
            want.append((f"{p}.{d}", n(total)))
            if d in s["domains"]:
                want.append((f"{p}.{d}.won", "won"))
            elif total == s["opponent_totals"][d]:
                want.append((f"{p}.{d}.tie", "tie"))
        want += [(f"{p}.vp", n(s["vp"])), (f"{p}.points", n(s["points"]))]
    return Counter(want)
