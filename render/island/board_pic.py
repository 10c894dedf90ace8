"""The board: the Nautilus (columns bow→stern, stacks, pawns above and below), camp, portholes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import palette as P
from render.canvas import Box, Canvas, Format, Picture, font
from render.island.common import (
    GAP,
    MARGIN,
    MEDIUM,
    SMALL,
    WIDTH,
    obj,
    side_word,
    token_label,
)
from render.island.icons import CARD_BACK, CATEGORY_COLOR, CATEGORY_TINT, icon
from render.island.text import board_alt
from render.seats import NOTHING, Shown, name_tag, outline_new, short_name
from render.words import w, wc, wn

TITLE_H = 48
ENDS_Y = TITLE_H + 4  # the bow/stern line
ENDS_H = 34
ABOVE_Y = ENDS_Y + ENDS_H
PAWN_H = 72  # a badge over a name
HULL_Y = ABOVE_Y + PAWN_H + 2
HEAD_H = 36  # column number on the hull
TILE_H = 66
HULL_H = HEAD_H + 3 * (TILE_H + GAP) + 8
BELOW_Y = HULL_Y + HULL_H + 2
CAMP_Y = BELOW_Y + PAWN_H + 10
CAMP_ROW = 60  # one camp space
CAMP_H = 38 + 2 * CAMP_ROW + GAP + 8
PORT_Y = CAMP_Y + CAMP_H + 10
PORT_H = 122
HEIGHT = PORT_Y + PORT_H + MARGIN
HULL = (86, 96, 104)
HULL_DARK = (52, 58, 66)


def column_box(i: int, n: int) -> Box:
    cw = (WIDTH - 2 * MARGIN - (n - 1) * GAP) // n
    x = MARGIN + i * (cw + GAP)
    return (x, HULL_Y, x + cw, HULL_Y + HULL_H)


def _title(c: Canvas, view: dict[str, Any], names: Sequence[str]) -> None:
    d = c.draw
    d.rectangle((0, 0, WIDTH, TITLE_H), fill=P.INK)
    if view["step"] == "over":
        c.text((MARGIN + 6, TITLE_H // 2), w("Game over"), MEDIUM, P.PAPER, key="over", anchor="lm")
    else:
        side = side_word(view["side"])
        if view["last_round"]:
            label = w("Round {n} (LAST): pawns go {side}", n=view["round"], side=side)
        else:
            label = w("Round {n}: pawns go {side}", n=view["round"], side=side)
        title = c.text((MARGIN + 6, TITLE_H // 2), label, MEDIUM, P.PAPER, key="round", anchor="lm")
        cur = view["current"]
        if cur is not None:
            x = WIDTH - MARGIN - 6
            # The name gets what the round's words leave (a long name once ran over them):
            # the badge (38 px), a gap and the words around the name.
            around = font(SMALL).getlength(w("{name} plays", name=""))
            room = min(260, int(x - title[2] - 38 - 16 - around))
            who = short_name(names, cur, SMALL, room) if names else ""
            box = c.text(
                (x, TITLE_H // 2),
                w("{name} plays", name=who) if who else w("seat {n} plays", n=cur + 1),
                SMALL,
                P.PAPER,
                key="turn",
                anchor="rm",
            )
            c.icon(
                (box[0] - 38, TITLE_H // 2 - 16),
                icon(f"player_{cur}", 32),
                key="turn",
                value=f"player_{cur}",
            )
    y = ENDS_Y + ENDS_H // 2
    c.text((MARGIN + 4, y), w("← bow"), SMALL, P.INK, anchor="lm")
    c.text((WIDTH - MARGIN - 4, y), w("stern →"), SMALL, P.INK, anchor="rm")
    if any(p["pawn"]["moved"] and p["pawn"]["last_column"] is not None for p in view["players"]):
        c.text((WIDTH // 2, y), w("hollow = where it was"), SMALL, P.MUTED, anchor="mm")


def _stack(c: Canvas, box: Box, st: dict[str, Any]) -> None:
    d = c.draw
    x0, y0, x1, y1 = box
    s = st["index"]
    count = str(st["count"])
    top = st["top"]
    if st["count"] == 0:
        d.rounded_rectangle(box, radius=7, outline=P.MUTED, width=2)
        c.text(
            ((x0 + x1) // 2, (y0 + y1) // 2),
            w("empty"),
            SMALL,
            P.MUTED,
            key=f"stack.{s}.empty",
            anchor="mm",
        )
        return
    if top is None:  # face down: the back and the count, nothing else
        d.rounded_rectangle(box, radius=7, fill=CARD_BACK, outline=P.INK, width=2)
        c.icon(
            (x0 + 6, y0 + (y1 - y0 - 36) // 2),
            icon("card_back", 36),
            key=f"stack.{s}.back",
            value="face-down",
        )
        c.text((x1 - 8, (y0 + y1) // 2), count, MEDIUM, P.PAPER, key=f"stack.{s}", anchor="rm")
        return
    cat = top["category"]
    d.rounded_rectangle(
        box, radius=7, fill=CATEGORY_TINT[cat], outline=CATEGORY_COLOR[cat], width=3
    )
    c.icon((x0 + 5, y0 + 4), icon(f"cat_{cat}", 28), key=f"stack.{s}.top", value=f"cat_{cat}")
    c.text((x1 - 7, y0 + 18), count, SMALL, P.INK, key=f"stack.{s}", anchor="rm")
    c.text(
        ((x0 + x1) // 2, y0 + 48),
        obj(top["object"]),
        SMALL,
        P.INK,
        key=f"stack.{s}.top",
        anchor="mm",
    )


# A pawn cell: the badge on top, the seat's short name under it across the whole cell (beside
# the badge it kept 4-5 letters; across the cell it keeps 7-8, "Benjamin", at the 12-px size).
BADGE = 28


def _badge_and_name(
    c: Canvas, box: Box, seat: int, names: Sequence[str], kind: str, key: str, color: P.Color
) -> None:
    x0, y0, x1, _ = box
    cx = (x0 + x1) // 2
    c.icon(
        (cx - BADGE // 2, y0 + 5), icon(f"{kind}_{seat}", BADGE), key=key, value=f"{kind}_{seat}"
    )
    # The name may reach into the gap between two cells: two names side by side still keep
    # GAP - 2 pixels apart.
    room = x1 - x0 + GAP - 2
    name_tag(
        c,
        (cx, y0 + 5 + BADGE + 14),
        names,
        seat,
        SMALL,
        room,
        color,
        key=f"{key}.name" if kind == "player" else key,
        anchor="mm",
    )


def _pawn_cell(c: Canvas, box: Box, seat: int, current: bool, names: Sequence[str]) -> None:
    """A pawn: its badge and its seat's short name (the number when no names are given)."""
    x0, y0, x1, y1 = box
    if current:
        frame = (x0 + 1, y0 + 2, x1 - 1, y1 - 2)
        c.draw.rounded_rectangle(frame, radius=10, fill=(250, 226, 140), outline=P.CURRENT, width=3)
        c.area(frame, key=f"pawn.{seat}.current", value="current")
    _badge_and_name(c, box, seat, names, "player", f"pawn.{seat}", P.INK)


def _ghost_cell(c: Canvas, box: Box, seat: int, names: Sequence[str]) -> None:
    _badge_and_name(c, box, seat, names, "ghost", f"pawn.{seat}.last", P.MUTED)


def _nautilus(c: Canvas, view: dict[str, Any], seen: Shown) -> None:
    names = seen.names
    olds = (
        {
            (col["index"], st["index"]): st["count"]
            for col in seen.before["columns"]
            for st in col["stacks"]
        }
        if seen.before is not None
        else {}
    )
    d = c.draw
    cols = view["columns"]
    n = len(cols)
    d.rounded_rectangle(
        (MARGIN - 4, HULL_Y, WIDTH - MARGIN + 4, HULL_Y + HULL_H),
        radius=26,
        fill=HULL,
        outline=HULL_DARK,
        width=3,
    )
    for y in (ABOVE_Y, BELOW_Y):
        d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + PAWN_H - 2), radius=8, fill=P.SEA)
    pawns = {p["seat"]: p["pawn"] for p in view["players"]}
    for col in cols:
        i = col["index"]
        x0, y0, x1, _ = column_box(i, n)
        cx = (x0 + x1) // 2
        d.ellipse((cx - 16, y0 + 3, cx + 16, y0 + 35), fill=P.PANEL, outline=HULL_DARK, width=2)
        c.text((cx, y0 + 19), str(i), SMALL, P.INK, key=f"col.{i}", anchor="mm")
        for k, st in enumerate(col["stacks"]):
            ty = y0 + HEAD_H + k * (TILE_H + GAP)
            _stack(c, (x0 + 3, ty, x1 - 3, ty + TILE_H), st)
            if olds.get((i, st["index"]), st["count"]) > st["count"]:
                # A card was taken from this stack since the previous post.
                outline_new(c, (x0 + 3, ty, x1 - 3, ty + TILE_H), key=f"stack.{st['index']}")
        for side, y in (("above", ABOVE_Y), ("below", BELOW_Y)):
            seat = col[side]
            cell = (x0, y, x1, y + PAWN_H - 2)
            if seat is not None:
                _pawn_cell(c, cell, seat, seat == view["current"], names)
                continue
            for other, pw in pawns.items():
                # A pawn that crossed this round left this spot, on the side it came from.
                if pw["moved"] and pw["last_column"] == i and pw["side"] != side:
                    _ghost_cell(c, cell, other, names)


def _camp(c: Canvas, view: dict[str, Any]) -> None:
    d = c.draw
    d.rounded_rectangle(
        (MARGIN, CAMP_Y, WIDTH - MARGIN, CAMP_Y + CAMP_H),
        radius=10,
        fill=P.PANEL,
        outline=P.INK,
        width=2,
    )
    c.text((MARGIN + 10, CAMP_Y + 20), w("Camp"), SMALL, P.INK, anchor="lm")
    c.text(
        (WIDTH - MARGIN - 10, CAMP_Y + 20),
        wn("{n} face-down token", "{n} face-down tokens", view["reserve"]),
        SMALL,
        P.INK,
        key="reserve",
        anchor="rm",
    )
    # Two rows (3 + 2) so each token's words fit whole beside its category (French
    # "+1 PV/carte", "impair : 4"), instead of five cells too narrow for them.
    cell_w = (WIDTH - 2 * MARGIN - 12 - 2 * GAP) // 3
    for k, space in enumerate(view["camp"]):
        cat = space["category"]
        row, col = divmod(k, 3)
        x0 = MARGIN + 6 + col * (cell_w + GAP)
        y0 = CAMP_Y + 38 + row * (CAMP_ROW + GAP)
        d.rounded_rectangle(
            (x0, y0, x0 + cell_w, y0 + 60),
            radius=8,
            fill=CATEGORY_TINT[cat],
            outline=CATEGORY_COLOR[cat],
            width=3,
        )
        c.icon((x0 + 5, y0 + 12), icon(f"cat_{cat}", 36), key=f"camp.{cat}", value=f"cat_{cat}")
        token = space["token"]
        text, color = (token_label(token), P.INK) if token else ("—", P.MUTED)
        c.text(
            (x0 + 44 + (cell_w - 44) // 2, y0 + 31),
            text,
            SMALL,
            color,
            key=f"camp.{cat}.token",
            anchor="mm",
        )


def _portholes(c: Canvas, view: dict[str, Any]) -> None:
    d = c.draw
    d.rounded_rectangle(
        (MARGIN, PORT_Y, WIDTH - MARGIN, PORT_Y + PORT_H),
        radius=10,
        fill=P.PANEL,
        outline=P.INK,
        width=2,
    )
    piles = view["portholes"]
    cell_w = (WIDTH - 2 * MARGIN - 12 - (len(piles) - 1) * GAP) // len(piles)
    for k, pile in enumerate(piles):
        x0 = MARGIN + 6 + k * (cell_w + GAP)
        size = pile["size"]
        y = PORT_Y + 8
        d.rounded_rectangle(
            (x0, y, x0 + cell_w, PORT_Y + PORT_H - 6), radius=8, outline=P.MUTED, width=1
        )
        c.text(
            (x0 + 6, y + 16),
            wc("porthole pile", "{n} cards", n=size),
            SMALL,
            P.INK,
            key=f"port.{size}",
            anchor="lm",
        )
        # How many are left goes under the values still to come, not beside "3 cards": both
        # whole words fit a quarter of the width that way.
        c.text(
            (x0 + 74, y + 92),
            w("{n} left", n=pile["left"]),
            SMALL,
            P.INK,
            key=f"port.{size}.left",
            anchor="lm",
        )
        # The glass is decoration: the number drawn on it is what it says.
        c.paste((x0 + 4, y + 36), icon("porthole", 60))
        nxt = pile["next"]
        c.text(
            (x0 + 34, y + 67),
            "—" if nxt is None else str(nxt),
            MEDIUM,
            P.INK if nxt is not None else P.MUTED,
            key=f"port.{size}.next",
            anchor="mm",
        )
        rest = pile["values"][len(pile["values"]) - pile["left"] + 1 :] if nxt is not None else []
        if rest:
            c.text(
                (x0 + 74, y + 58),
                "→ " + " ".join(map(str, rest)),
                SMALL,
                P.MUTED,
                key=f"port.{size}.rest",
                anchor="lm",
            )


def draw_board(view: dict[str, Any], seen: Shown = NOTHING) -> Canvas:
    """The board drawn and not yet encoded (the benchmark times the two apart)."""
    c = Canvas.blank((WIDTH, HEIGHT), P.BG)
    _title(c, view, seen.names)
    _nautilus(c, view, seen)
    _camp(c, view)
    _portholes(c, view)
    return c


def board(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """The public board of `view` (any seat's view: it shows no hand). `names` are the seats'
    names (the picture draws what its font can of each); `before` the public view of the
    previous post: the stacks a card was taken from since are framed."""
    return draw_board(view, Shown(names, before)).picture("board", board_alt(view), fmt)
