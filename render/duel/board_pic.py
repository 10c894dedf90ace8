"""The Nautilus duel board: the 5 slots with their domain cards, both sides' cards, the award log.

The viewer's side is at the bottom (seat 1's in the public picture). Every card shows its value
large, its arrow (vertical for 6/9, horizontal for 7/8) and the anchor as icons in its top strip,
and the kraken or fishbone by name, so nothing depends on colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, min_font_px, text_width
from render.duel.icons import DOMAIN_COLOR, DOMAIN_SHORT, icon
from render.duel.text import board_alt, special, status_line
from render.seats import NEW, name_tag, outline_new
from render.words import w, wn

WIDTH = 800
SMALL = min_font_px(WIDTH)  # 24: 12 px at the 400-px preview
BIG = 48
LEFT = 150  # the seats' column
PITCH = 128  # one slot
CARD_W, CARD_H = 116, 128
DOM_H = 150
HEAD_H = 56
ROW_TOP = HEAD_H + 8
NAUT_TOP = ROW_TOP + CARD_H + 10
ROW_BOT = NAUT_TOP + DOM_H + 10
STATUS_Y = ROW_BOT + CARD_H + 8
AWARDS_Y = STATUS_Y + 44
AWARD_ROW = 36
# The award log's title ('Awards by round'), over the round numbers: 'R1' columns were too
# narrow for French 'Manche 1', so the word is said once.
AWARD_TITLE = 30
HEIGHT = AWARDS_Y + AWARD_TITLE + 36 + 5 * AWARD_ROW + 12
CARD_FACE = (252, 250, 244)
HULL = (70, 92, 110)
HULL_LIGHT = (210, 222, 230)


def _short(domain: str) -> str:
    word = DOMAIN_SHORT[domain]
    return w(word)


def _x(slot: int) -> int:
    return LEFT + slot * PITCH + (PITCH - CARD_W) // 2


def _space(c: Canvas, x: int, y: int, sp: dict[str, Any], key: str) -> None:
    d = c.draw
    owner = P.PLAYER_COLOR[sp["side"]]
    if sp["card"] is None:
        d.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=10, outline=owner, width=2)
        d.rounded_rectangle(
            (x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6), radius=8, outline=(200, 194, 180)
        )
        return
    fill = (255, 236, 170) if sp["anchored"] else CARD_FACE
    d.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=10, fill=fill, outline=owner, width=4
    )
    if sp["arrow"]:
        c.icon(
            (x + 6, y + 6), icon(f"arrow_{sp['arrow']}", 32), key=f"{key}.arrow", value=sp["arrow"]
        )
    if sp["anchored"]:
        c.icon((x + CARD_W - 38, y + 6), icon("anchor", 32), key=f"{key}.anchor", value="anchor")
    if sp["name"]:
        c.icon(
            (x + (CARD_W - 32) // 2, y + 6),
            icon(sp["name"], 32),
            key=f"{key}.name",
            value=sp["name"],
        )
        c.text((x + CARD_W / 2, y + 66), str(sp["card"]), 40, P.INK, key=key, anchor="mm")
        c.text(
            (x + CARD_W / 2, y + CARD_H - 8),
            special(sp["name"]),  # in the game's language: "arête" on a French board
            SMALL,
            P.INK,
            key=f"{key}.name",
            anchor="ms",
        )
    else:
        c.text((x + CARD_W / 2, y + 80), str(sp["card"]), BIG, P.INK, key=key, anchor="mm")


def _domain(c: Canvas, x: int, y: int, slot: dict[str, Any]) -> None:
    d = c.draw
    k = slot["index"]
    dom = slot["domain"]
    if dom is None:
        d.rounded_rectangle((x, y, x + CARD_W, y + DOM_H), radius=10, outline=HULL_LIGHT, width=2)
        return
    color = DOMAIN_COLOR[dom["domain"]]
    light = tuple(int(v + (255 - v) * 0.78) for v in color)
    d.rounded_rectangle(
        (x, y, x + CARD_W, y + DOM_H),
        radius=10,
        fill=light,
        outline=color,
        width=4,
    )
    c.icon(
        (x + (CARD_W - 56) // 2, y + 36),
        icon(f"domain_{dom['domain']}", 56),
        key=f"slot.{k}.domain",
        value=dom["domain"],
    )
    c.icon(
        (x + (CARD_W - 44) // 2, y + 98),
        icon(dom["kind"], 44),
        key=f"slot.{k}.kind",
        value=dom["kind"],
    )
    c.text(
        (x + CARD_W / 2, y + 20),
        _short(dom["domain"]),
        SMALL,
        P.INK,
        key=f"slot.{k}.code",
        anchor="mm",
    )
    if slot["winner"] is not None:
        w = slot["winner"]
        c.icon(
            (x + CARD_W - 32, y + DOM_H - 32),
            icon(f"player_{w}", 26),
            key=f"slot.{k}.winner",
            value=f"player_{w}",
        )


def _seat(c: Canvas, view: dict[str, Any], seat: int, y: int, names: Sequence[str]) -> None:
    p = view["players"][seat]
    key = f"seat.{seat}"
    if view["current"] == seat:
        c.draw.rounded_rectangle(
            (6, y - 2, LEFT - 8, y + CARD_H + 2),
            radius=10,
            fill=(255, 240, 190),
            outline=P.CURRENT,
            width=3,
        )
        c.area((6, y - 2, LEFT - 8, y + CARD_H + 2), key=f"{key}.state", value="to act")
    c.icon((12, y + 6), icon(f"player_{seat}", 34), key=key, value=f"player_{seat}")
    if names:
        name_tag(c, (52, y + 24), names, seat, SMALL, LEFT - 12 - 52, key=f"{key}.name")
    else:
        c.text(
            (54, y + 24), w("Seat {n}", n=seat + 1), SMALL, P.INK, key=f"{key}.name", anchor="lm"
        )
    if view["first"] == seat and view["step"] != "over":
        c.icon((LEFT - 40, y + 92), icon("start", 30), key=f"{key}.nemo", value="nemo")
    n = p["divers_in_hand"]
    c.text(
        (14, y + 74),
        wn("{n} diver", "{n} divers", n),
        SMALL,
        P.INK,
        key=f"{key}.hand",
        anchor="lm",
    )
    x = 12
    if p["holds_special"]:
        c.icon((x, y + 92), icon("card_back", 30), key=f"{key}.special", value="held")
        x += 32
    for sp in p["played"]:
        c.icon((x, y + 92), icon(sp, 30), key=f"{key}.played", value=sp)
        x += 32


def _awards(c: Canvas, view: dict[str, Any], before: Mapping[str, Any] | None) -> None:
    d = c.draw
    old = {(a["round"], a["slot"]) for a in before["awards"]} if before is not None else None
    y0 = AWARDS_Y
    d.rounded_rectangle((6, y0, WIDTH - 6, HEIGHT - 6), radius=10, fill=P.PANEL)
    col = (WIDTH - 12) // view["rounds"]
    by = {(a["round"], a["slot"]): a for a in view["awards"]}
    c.text((18, y0 + 20), w("Awards by round"), SMALL, P.INK, key="awards", anchor="lm")
    y0 += AWARD_TITLE
    for r in range(1, view["rounds"] + 1):
        x0 = 6 + (r - 1) * col
        if r > 1:
            d.line((x0, y0 + 6, x0, HEIGHT - 12), fill=(214, 206, 188), width=2)
        c.text(
            (x0 + col / 2, y0 + 20),
            str(r),
            SMALL,
            P.INK if r <= view["round"] else P.MUTED,
            key=f"award.{r}",
            anchor="mm",
        )
        for k in range(5):
            a = by.get((r, k))
            if a is None:
                continue
            y = y0 + 38 + k * AWARD_ROW
            key = f"award.{r}.{k}"
            if old is not None and (r, k) not in old:
                # Awarded since the previous post.
                outline_new(c, (x0 + 6, y - 1, x0 + 116, y + 33), key=key, width=3, radius=6)
            c.icon(
                (x0 + 10, y),
                icon(f"domain_{a['domain']['domain']}", 32),
                key=f"{key}.domain",
                value=a["domain"]["domain"],
            )
            c.icon(
                (x0 + 46, y),
                icon(a["domain"]["kind"], 32),
                key=f"{key}.kind",
                value=a["domain"]["kind"],
            )
            c.icon(
                (x0 + 86, y + 3),
                icon(f"player_{a['winner']}", 26),
                key=f"{key}.winner",
                value=f"player_{a['winner']}",
            )


def _cards(view: Mapping[str, Any]) -> dict[int, tuple[int, int]]:
    """Where each card lies: card -> (side, slot)."""
    return {
        sp["card"]: (side, slot["index"])
        for slot in view["slots"]
        for side, sp in enumerate(slot["sides"])
        if sp["card"] is not None
    }


def _centre(side: int, slot: int, bottom: int) -> tuple[int, int]:
    y = ROW_BOT if side == bottom else ROW_TOP
    return _x(slot) + CARD_W // 2, y + CARD_H // 2


def _changes(c: Canvas, view: dict[str, Any], before: Mapping[str, Any], bottom: int) -> None:
    """Frame the cards placed since the previous post and draw the moves arrows made since:
    a line from where the card lay to where it lies, ending in a head."""
    was, now = _cards(before), _cards(view)
    for card, (side, slot) in now.items():
        x, y = _x(slot), (ROW_BOT if side == bottom else ROW_TOP)
        if card not in was:
            outline_new(c, (x, y, x + CARD_W, y + CARD_H), key=f"space.{side}.{slot}", radius=10)
        elif was[card] != (side, slot):
            outline_new(c, (x, y, x + CARD_W, y + CARD_H), key=f"space.{side}.{slot}", radius=10)
            (x0, y0), (x1, y1) = _centre(*was[card], bottom), _centre(side, slot, bottom)
            # Along the cards' lower edge (a move within a row) or their left edge (across the
            # Nautilus), so the line never hides a card's number.
            if was[card][0] == side:
                y0 = y1 = y0 + CARD_H // 2 - 14
            else:
                x0, x1 = x0 - CARD_W // 2 + 14, x1 - CARD_W // 2 + 14
            _arrow_line(c, (x0, y0), (x1, y1))
            c.area(
                (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                key=f"moved.{card}",
                value=f"{was[card][0]}.{was[card][1]}→{side}.{slot}",
            )


def _arrow_line(c: Canvas, a: tuple[int, int], b: tuple[int, int]) -> None:
    """A thick line from `a` to `b` with a head at `b`, and a dot where the card lay."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # Stop short of the end so the head lands inside the card it points to.
    ex, ey = x1 - ux * 30, y1 - uy * 30
    d = c.draw
    d.ellipse((x0 - 9, y0 - 9, x0 + 9, y0 + 9), fill=NEW, outline=P.PAPER, width=2)
    d.line((x0, y0, ex, ey), fill=P.PAPER, width=12)
    d.line((x0, y0, ex, ey), fill=NEW, width=7)
    head = [
        (ex + ux * 22, ey + uy * 22),
        (ex - uy * 14, ey + ux * 14),
        (ex + uy * 14, ey - ux * 14),
    ]
    d.polygon(head, fill=NEW, outline=P.PAPER)


def draw_board(
    view: dict[str, Any], names: Sequence[str] = (), before: Mapping[str, Any] | None = None
) -> Canvas:
    c = Canvas.blank((WIDTH, HEIGHT), P.BG)
    d = c.draw
    bottom = view["viewer"] if view["viewer"] is not None else 0
    top = 1 - bottom
    # Header: round, Nemo token, domain deck.
    c.text(
        (12, HEAD_H // 2),
        w("Round {n}/{rounds}", n=view["round"], rounds=view["rounds"]),
        SMALL + 4,
        P.INK,
        key="round",
        anchor="lm",
    )
    c.text((240, HEAD_H // 2), "Nemo", SMALL, P.INK, key="label", anchor="lm")
    c.icon(
        (326, HEAD_H // 2 - 17),
        icon(f"player_{view['first']}", 34),
        key="nemo",
        value=f"player_{view['first']}",
    )
    deck = w("Domain deck")
    if names:
        # The holder's name takes the room left of the deck's label, whose length the language
        # sets ("Pioche Domaine" is longer than "Domain deck"): a long name is shortened there
        # instead of running under the label.
        room = int(WIDTH - 60 - text_width(deck, SMALL) - 16 - 366)
        name_tag(c, (366, HEAD_H // 2), names, view["first"], SMALL, room, key="nemo.name")
    c.text((WIDTH - 60, HEAD_H // 2), deck, SMALL, P.INK, key="label", anchor="rm")
    c.text(
        (WIDTH - 12, HEAD_H // 2),
        str(view["domain_deck"]),
        SMALL + 4,
        P.INK,
        key="deck.domain",
        anchor="rm",
    )
    # The Nautilus: a hull band under the domain cards.
    d.rounded_rectangle(
        (LEFT - 6, NAUT_TOP - 6, WIDTH - 6, NAUT_TOP + DOM_H + 6), radius=40, fill=HULL
    )
    c.text((LEFT / 2 - 2, NAUT_TOP + DOM_H / 2), "Nautilus", SMALL, P.INK, key="label", anchor="mm")
    for slot in view["slots"]:
        k = slot["index"]
        _domain(c, _x(k), NAUT_TOP, slot)
        for side, y in ((top, ROW_TOP), (bottom, ROW_BOT)):
            _space(c, _x(k), y, slot["sides"][side], f"space.{side}.{k}")
    _seat(c, view, top, ROW_TOP, names)
    _seat(c, view, bottom, ROW_BOT, names)
    if before is not None:
        _changes(c, view, before, bottom)
    status = status_line(view, names, WIDTH - 24)
    c.text((12, STATUS_Y + 18), status, SMALL, P.INK, key="status", anchor="lm")
    _awards(c, view, before)
    return c


def board(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """The board picture of `view` (public or a seat's: only public parts are drawn).

    `names` are the seats' names (the picture draws what its font can of each); `before` is
    the view the previous post was drawn from: cards placed since are framed, and a card an
    arrow moved since is framed with a line from where it lay."""
    return draw_board(view, names, before).picture(
        f"duel-board-r{view['round']}", board_alt(view), fmt
    )
