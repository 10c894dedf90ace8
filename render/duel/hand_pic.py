"""The viewer's private picture: their divers and special, what they know, their won pile.

Only for `view(state, seat)` (the "me" part): never posted in the channel, sent to that player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, min_font_px, num
from render.duel.icons import DOMAIN_COLOR, icon
from render.duel.text import domain as domain_word
from render.duel.text import hand_alt, special
from render.seats import outline_new, short_name
from render.words import w, wc

WIDTH = 800
SMALL = min_font_px(WIDTH)
CARD_W, CARD_H = 84, 104
HAND_Y = 64
INFO_Y = HAND_Y + CARD_H + 20
INFO_ROW = 40
PILE_ROW = 56


def _mini_card(c: Canvas, x: int, y: int, value: int, key: str, *, dim: bool = False) -> None:
    fill = (236, 232, 222) if dim else (252, 250, 244)
    c.draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=8, fill=fill, outline=P.INK, width=3
    )
    arrow = "vertical" if value in (6, 9) else "horizontal" if value in (7, 8) else None
    if arrow:
        c.icon((x + 4, y + 4), icon(f"arrow_{arrow}", 28), key=f"{key}.arrow", value=arrow)
    c.text((x + CARD_W / 2, y + 68), str(value), 40, P.INK, key=key, anchor="mm")


def _info_lines(me: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, text) of each line of what the player knows or must decide."""
    lines: list[tuple[str, str]] = []
    if me["drawn"]:
        drawn = w(" or ").join(special(s) for s in me["drawn"])
        lines.append(("drawn", w("Keep one: {list}", list=drawn)))
    if me["module"]:
        module = w(" and ").join(map(str, me["module"]))
        lines.append(("module", w("Module drew: {list}", list=module)))
    if me["harpoon"]:
        h = me["harpoon"]
        if h["role"] == "took":
            lines.append(("harpoon", w("Harpoon took: {card}", card=h["card"])))
        else:
            lines.append(("harpoon", w("Harpooned from you: {card}", card=h["card"])))
    if me["eye"]:
        eye = ", ".join(map(str, me["eye"]["divers"]))
        lines.append(("eye", w("Eye saw: {list}", list=eye)))
    if me["known"]:
        lines.append(("known", w("Opponent holds: {list}", list=", ".join(map(str, me["known"])))))
    if me["opponent_special"]:
        given = special(me["opponent_special"])
        lines.append(("opponent_special", w("You gave: {special}", special=given)))
    if me["deck_top"] is not None:
        lines.append(("deck_top", w("Top of diver deck: {card}", card=me["deck_top"])))
    return lines


def height(view: dict[str, Any]) -> int:
    return INFO_Y + len(_info_lines(view["me"])) * INFO_ROW + 48 + 5 * PILE_ROW + 16


def draw_hand(
    view: dict[str, Any], names: Sequence[str] = (), before: Mapping[str, Any] | None = None
) -> Canvas:
    me = view["me"]
    seat = me["seat"]
    h = max(height(view), int(WIDTH * 9 / 16) + 1)
    c = Canvas.blank((WIDTH, h), P.BG)
    d = c.draw
    c.icon((12, 12), icon(f"player_{seat}", 36), key="seat", value=f"player_{seat}")
    if names:
        title = w(
            "{name} · your hand · round {round}/{rounds}",
            name=short_name(names, seat, SMALL, 260),
            round=view["round"],
            rounds=view["rounds"],
        )
    else:
        title = w(
            "Seat {n} · your hand · round {round}/{rounds}",
            n=seat + 1,
            round=view["round"],
            rounds=view["rounds"],
        )
    c.text((56, 30), title, SMALL, P.INK, key="title", anchor="lm")
    x = 12
    held = set(before["me"]["divers"]) if before is not None else None
    for v in me["divers"]:
        _mini_card(c, x, HAND_Y, v, f"diver.{v}")
        if held is not None and v not in held:
            # Dealt, drawn or taken since the seat's previous picture.
            outline_new(c, (x, HAND_Y, x + CARD_W, HAND_Y + CARD_H), key=f"diver.{v}")
        x += CARD_W + 8
    if me["special"]:
        sp = me["special"]
        d.rounded_rectangle(
            (x, HAND_Y, x + 2 * CARD_W, HAND_Y + CARD_H),
            radius=8,
            fill=(255, 236, 170),
            outline=P.INK,
            width=3,
        )
        c.icon((x + CARD_W - 26, HAND_Y + 6), icon(sp, 52), key="special", value=sp)
        c.text(
            (x + CARD_W, HAND_Y + CARD_H - 12),
            # The card is two divers wide: a long name takes its short word (French "module").
            wc("card", "diving module") if sp == "diving_module" else special(sp),
            SMALL,
            P.INK,
            key="special.name",
            anchor="ms",
        )
    y = INFO_Y
    for key, line in _info_lines(me):
        c.text((14, y + INFO_ROW / 2), line, SMALL, P.INK, key=f"info.{key}", anchor="lm")
        y += INFO_ROW
    d.rounded_rectangle((6, y, WIDTH - 6, h - 6), radius=10, fill=P.PANEL)
    c.text((16, y + 24), w("Won pile"), SMALL, P.INK, key="label", anchor="lm")
    c.text((WIDTH - 16, y + 24), w("total"), SMALL, P.MUTED, key="label", anchor="rm")
    y += 48
    for domain, pile in me["won_by_domain"].items():
        c.icon((16, y + 4), icon(f"domain_{domain}", 44), key=f"won.{domain}", value=domain)
        c.text(
            (70, y + 26),
            domain_word(domain).capitalize(),
            SMALL,
            DOMAIN_COLOR[domain],
            key=f"won.{domain}.name",
            anchor="lm",
        )
        x = 290
        for card in pile["cards"]:
            c.icon((x, y + 8), icon(card["kind"], 38), key=f"won.{domain}.card", value=card["kind"])
            x += 42
        c.text(
            (WIDTH - 16, y + 26),
            num(pile["total"]),
            SMALL + 4,
            P.INK,
            key=f"won.{domain}.total",
            anchor="rm",
        )
        y += PILE_ROW
    return c


def hand(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """The private picture of `view = view(state, seat)`: raises ValueError for a public view.
    `names` are the seats' names (the picture draws what its font can of the viewer's);
    `before` is the same seat's view at its previous picture: divers new since are framed."""
    if view.get("me") is None:
        raise ValueError("hand() needs a seat's view (view(state, seat)), not the public view")
    return draw_hand(view, names, before).picture(
        f"duel-hand-s{view['me']['seat'] + 1}", hand_alt(view), fmt
    )
