"""Every player's area: one row per storable category with its cards, tokens and porthole.

Players are drawn one block under another; when they do not fit one picture of the allowed
shape, they are split evenly over as few pictures as needed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, font
from render.island.common import (
    MARGIN,
    MAX_HEIGHT,
    MEDIUM,
    MIN_HEIGHT,
    SMALL,
    WIDTH,
    cat_word,
    entry,
    grouped,
    side_word,
    token_label,
)
from render.island.icons import CATEGORY_COLOR, CATEGORY_TINT, icon
from render.island.text import areas_alt
from render.seats import NOTHING, Shown, gain, outline_new, short_name, tick_new
from render.words import w, wc, wn

TITLE_H = 44
LINE_H = 48  # the head's first line: badge, name, score
HEAD_H = LINE_H + 34  # and its second: hand and pawn
LINE = 30
ROW_PAD = 14
# Cells of a category row, left to right: category, size, cards, tokens, porthole.
# The porthole cell holds French 'ouverte' (105 px) whole; a token's VP keeps 12 px from it.
CAT_X, SIZE_X, CARDS_X, TOKENS_X, PORT_X = 0, 184, 226, 398, 672
ROW_W = WIDTH - 2 * MARGIN


def token_lines(tokens: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """One line per token on a collection: its label and the VP it gives. Two tokens of a kind
    take two lines: 'label ×2' beside its VP did not fit the row in French ('+1 PV/carte ×2')."""
    return [(token_label(t["token"]), f"= {t['vp']}") for t in tokens]


def row_height(col: dict[str, Any]) -> int:
    lines = max(1, len(grouped(col["cards"])), len(token_lines(col["tokens"])))
    return lines * LINE + ROW_PAD


def block_height(player: dict[str, Any]) -> int:
    return HEAD_H + sum(row_height(c) for c in player["collections"]) + 10


def _block(c: Canvas, y: int, view: dict[str, Any], seat: int, seen: Shown) -> int:
    d = c.draw
    p = view["players"][seat]
    names = seen.names
    was = seen.before["players"][seat] if seen.before is not None else None
    h = block_height(p)
    x0, x1 = MARGIN, WIDTH - MARGIN
    d.rounded_rectangle((x0, y, x1, y + h - 6), radius=10, fill=P.PANEL, outline=P.INK, width=2)
    d.rounded_rectangle((x0, y, x1, y + HEAD_H), radius=10, fill=P.PLAYER_COLOR[seat])
    d.rectangle((x0, y + HEAD_H - 10, x1, y + HEAD_H), fill=P.PLAYER_COLOR[seat])
    cy = y + LINE_H // 2
    ink = P.INK if seat == 3 else P.PAPER  # the yellow seat needs dark letters
    pawn = p["pawn"]
    where = (
        w("{side} column {n}", side=side_word(pawn["side"]), n=pawn["column"])
        if pawn["side"] is not None
        else w("not placed")
    )
    # First line: the name (as wide as it needs, up to 300 px), the score and what it gained;
    # second line: the hand and the pawn, in whole words.
    box = c.text(
        (x1 - 10, cy + 1),
        w("{n} VP so far", n=p["score"]),
        SMALL,
        ink,
        key=f"p{seat}.score",
        anchor="rm",
    )
    if was is not None:
        up = gain(
            c,
            (box[0] - 8, cy + 1),
            p["score"] - was["score"],
            SMALL,
            key=f"p{seat}.score",
            anchor="rm",
            chip=True,
        )
        box = up if up is not None else box
    room = min(300, box[0] - 20 - (x0 + 52))
    name = short_name(names, seat, MEDIUM, room)
    right = x0 + 52 + round(font(MEDIUM).getlength(name)) + 10
    d.rounded_rectangle((x0 + 6, y + 5, right, y + LINE_H - 3), radius=8, fill=P.PANEL)
    c.icon((x0 + 10, cy - 17), icon(f"player_{seat}", 34), key=f"p{seat}", value=f"player_{seat}")
    c.text((x0 + 52, cy + 1), name, MEDIUM, P.INK, key=f"p{seat}.name", anchor="lm")
    cy2 = y + LINE_H + (HEAD_H - LINE_H) // 2 - 2
    box = c.text(
        (x0 + 14, cy2),
        wn("{n} card in hand", "{n} cards in hand", p["hand_size"]),
        SMALL,
        ink,
        key=f"p{seat}.hand",
        anchor="lm",
    )
    c.text(
        (box[2] + 28, cy2),
        w("pawn {where}", where=where),
        SMALL,
        ink,
        key=f"p{seat}.pawn",
        anchor="lm",
    )
    ry = y + HEAD_H
    for k, col in enumerate(p["collections"]):
        rh = row_height(col)
        cat = col["category"]
        key = f"p{seat}.{cat}"
        if k % 2:
            d.rectangle((x0 + 2, ry, x1 - 2, ry + rh), fill=(243, 238, 226))
        d.rectangle((x0 + 2, ry, x0 + 8, ry + rh), fill=CATEGORY_COLOR[cat])
        first = ry + ROW_PAD // 2 + LINE // 2
        c.icon((x0 + 14, first - 15), icon(f"cat_{cat}", 30), key=key, value=f"cat_{cat}")
        c.text((x0 + 48, first + 1), cat_word(cat), SMALL, P.INK, anchor="lm")
        c.text(
            (x0 + SIZE_X + 24, first + 1),
            str(col["size"]),
            MEDIUM,
            P.INK,
            key=f"{key}.size",
            anchor="mm",
        )
        # What is new since the previous post: more cards of an object, a token line, a porthole.
        was_col = was["collections"][k] if was is not None else None
        had = dict(grouped(was_col["cards"])) if was_col is not None else None
        had_tokens = Counter(token_lines(was_col["tokens"])) if was_col is not None else None
        for i, (obj, n) in enumerate(grouped(col["cards"])):
            if had is not None and n > had.get(obj, 0):
                tick_new(c, x0 + CARDS_X - 1, first + i * LINE, key=f"{key}.cards.{i}")
            c.text(
                (x0 + CARDS_X, first + i * LINE + 1),
                entry(obj, n),
                SMALL,
                P.INK,
                key=f"{key}.cards",
                anchor="lm",
            )
        for i, (label, vp) in enumerate(token_lines(col["tokens"])):
            ty = first + i * LINE
            if had_tokens is not None:
                if had_tokens[(label, vp)] > 0:
                    had_tokens[(label, vp)] -= 1
                else:
                    tick_new(c, x0 + TOKENS_X - 3, ty, key=f"{key}.token.{i}")
            c.icon((x0 + TOKENS_X, ty - 12), icon("token", 24), key="label", value="token")
            c.text(
                (x0 + TOKENS_X + 28, ty + 1), label, SMALL, P.INK, key=f"{key}.token", anchor="lm"
            )
            c.text((x0 + PORT_X - 12, ty + 1), vp, SMALL, P.INK, key=f"{key}.token.vp", anchor="rm")
        if col["closed"]:
            px = x0 + PORT_X
            if was_col is not None and not was_col["closed"]:
                outline_new(
                    c, (px, first - 18, px + 36, first + 18), key=f"{key}.porthole", width=3
                )
            c.icon(
                (px, first - 18),
                icon("porthole_closed", 36),
                key=f"{key}.porthole",
                value="porthole_closed",
            )
            c.text(
                (px + 42, first + 1),
                str(col["porthole"]),
                MEDIUM,
                P.INK,
                key=f"{key}.porthole",
                anchor="lm",
            )
        else:
            c.text(
                (x1 - 6, first + 1),
                wc("collection", "open"),
                SMALL,
                P.MUTED,
                key=f"{key}.porthole",
                anchor="rm",
            )
        d.line((x0 + 2, ry, x1 - 2, ry), fill=CATEGORY_TINT[cat], width=1)
        ry += rh
    return h


def chunks(view: dict[str, Any]) -> list[list[int]]:
    """Seats per picture: as few pictures as fit, seats split evenly and in order."""
    seats = list(range(view["players_count"]))
    heights = [block_height(p) for p in view["players"]]
    for k in range(1, len(seats) + 1):
        size, extra = divmod(len(seats), k)
        out, i = [], 0
        for j in range(k):
            n = size + (1 if j < extra else 0)
            out.append(seats[i : i + n])
            i += n
        if all(TITLE_H + sum(heights[s] for s in part) + MARGIN <= MAX_HEIGHT for part in out):
            return out
    return [[s] for s in seats]


def draw_areas(view: dict[str, Any], seats: list[int], seen: Shown = NOTHING) -> Canvas:
    """One areas picture of `seats`, drawn and not yet encoded."""
    need = TITLE_H + sum(block_height(view["players"][s]) for s in seats) + MARGIN
    c = Canvas.blank((WIDTH, max(need, MIN_HEIGHT)), P.BG)
    c.draw.rectangle((0, 0, WIDTH, TITLE_H - 6), fill=P.INK)
    if len(seats) == view["players_count"] or seen.names:
        # Each block carries its seat's name: the title needs no seat numbers then.
        label = w("Collections")
    else:
        label = w("Collections: seat {list}", list=", ".join(str(s + 1) for s in seats))
    c.text((MARGIN + 6, (TITLE_H - 6) // 2), label, SMALL, P.PAPER, anchor="lm")
    y = TITLE_H
    for seat in seats:
        y += _block(c, y, view, seat, seen)
    return c


def _picture(view: dict[str, Any], seats: list[int], fmt: Format, seen: Shown) -> Picture:
    c = draw_areas(view, seats, seen)
    name = "areas" if len(seats) == view["players_count"] else f"areas-seat{seats[0] + 1}"
    return c.picture(name, areas_alt(view, seats), fmt)


def areas(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> list[Picture]:
    """Every player's collections, tokens and portholes, hand size and pawn (no hand cards).
    `names` are the seats' names (the picture draws what its font can of each); `before` the
    public view of the previous post: VP gained since read '+3', new cards and tokens framed."""
    seen = Shown(names, before)
    return [_picture(view, part, fmt, seen) for part in chunks(view)]
