"""The final score sheet: one column per player, one row per part of the score (I-END-2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, font
from render.island.common import (
    BIG,
    CATEGORY_WORDS,
    MARGIN,
    MEDIUM,
    MIN_HEIGHT,
    SMALL,
    STORABLE,
    WIDTH,
)
from render.island.icons import icon
from render.island.text import scores_alt
from render.words import w, w_

LABEL_W = 250
HEAD_H = 64
ROW_H = 40

Cell = Callable[[dict[str, Any]], str]


def _ordinal(n: int) -> str:
    return {1: w("1st"), 2: w("2nd"), 3: w("3rd")}.get(n) or w("{n}th", n=n)


def _sum_text(values: list[int]) -> str:
    """'2+5+0' (each token's points) or '—'; the total alone when the parts would not fit."""
    if not values:
        return "—"
    return "+".join(str(v) for v in values) if len(values) > 1 else str(values[0])


def _category_cell(category: str) -> Cell:
    return lambda sc: _sum_text([t["vp"] for t in sc["tokens"] if t["category"] == category])


# (key, label, icon or None, cell text, section break before this row)
ROWS: tuple[tuple[str, str, str | None, Cell, bool], ...] = (
    *(
        (f"bonus.{cat}", CATEGORY_WORDS[cat], f"cat_{cat}", _category_cell(cat), i == 0)
        for i, cat in enumerate(STORABLE)
    ),
    ("bonus", w_("Bonus tokens"), None, lambda sc: str(sc["bonus_vp"]), False),
    (
        "portholes",
        w_("Portholes"),
        "porthole_closed",
        lambda sc: _sum_text([p["vp"] for p in sc["portholes"]]),
        True,
    ),
    ("treasures", w_("Treasures"), "cat_treasure", lambda sc: _sum_text(sc["treasures"]), False),
    ("vp", w_("Total VP"), None, lambda sc: str(sc["vp"]), True),
    ("tiebreak", w_("Pawn column"), None, lambda sc: str(sc["tiebreak"]), False),
    ("rank", w_("Rank"), None, lambda sc: _ordinal(sc["rank"]), False),
)
HEIGHT = max(HEAD_H + len(ROWS) * ROW_H + 16, MIN_HEIGHT)


def cell_text(key: str, text: str, total: str, width: int) -> str:
    """A cell's text, or its total when the sum of parts is wider than the column."""
    return text if font(SMALL).getlength(text) <= width - 10 else total


def score_sheet(view: dict[str, Any], *, fmt: Format = "png") -> Picture:
    """The final breakdown of a finished game.

    Raises:
        ValueError: if the game in `view` is not over.
    """
    final = view.get("final")
    if final is None:
        raise ValueError("the score sheet needs a finished game (view['final'] is None)")
    n = len(final)
    col = (WIDTH - 2 * MARGIN - LABEL_W) // n
    c = Canvas.blank((WIDTH, HEIGHT), P.BG)
    d = c.draw
    d.rounded_rectangle((MARGIN, 4, WIDTH - MARGIN, HEIGHT - 6), radius=10, fill=P.PANEL)
    c.text((MARGIN + 12, HEAD_H // 2 + 2), w("Final scores"), MEDIUM, P.INK, anchor="lm")
    for r, row in enumerate(ROWS):
        y0 = HEAD_H + r * ROW_H
        if r % 2:
            d.rectangle((MARGIN + 2, y0, WIDTH - MARGIN - 2, y0 + ROW_H), fill=(240, 234, 220))
        if row[4]:
            d.line((MARGIN + 4, y0, WIDTH - MARGIN - 4, y0), fill=P.INK, width=2)
    bottom = HEAD_H + len(ROWS) * ROW_H
    winners = {sc["seat"] for sc in final if sc["rank"] == 1}
    for k, sc in enumerate(final):
        x0 = MARGIN + LABEL_W + k * col
        seat = sc["seat"]
        if seat in winners:
            d.rectangle((x0 + 2, HEAD_H, x0 + col - 2, bottom), fill=(250, 226, 140))
            c.area((x0, HEAD_H, x0 + col, bottom), key=f"p{seat}.final.winner", value="winner")
        d.rectangle((x0, 8, x0 + col, HEAD_H - 2), fill=P.PLAYER_COLOR[seat])
        d.ellipse((x0 + col // 2 - 44, 10, x0 + col // 2, 54), fill=P.PANEL)
        c.icon(
            (x0 + col // 2 - 40, 14),
            icon(f"player_{seat}", 36),
            key=f"p{seat}",
            value=f"player_{seat}",
        )
        c.text(
            (x0 + col // 2 + 14, HEAD_H // 2 - 1),
            str(seat + 1),
            BIG,
            P.INK if seat == 3 else P.PAPER,
            key=f"p{seat}.seat",
            anchor="lm",
        )
    for r, (key, label, ic, cell, _) in enumerate(ROWS):
        cy = HEAD_H + r * ROW_H + ROW_H // 2
        x = MARGIN + 12
        if ic is not None:
            c.icon((x, cy - 15), icon(ic, 30), key="label", value=ic)
            x += 38
        big = key in ("vp", "rank")
        c.text((x, cy + 1), w(label), MEDIUM if big else SMALL, P.INK, anchor="lm")
        for k, sc in enumerate(final):
            x0 = MARGIN + LABEL_W + k * col
            text = cell_text(key, cell(sc), _total(key, sc), col)
            c.text(
                (x0 + col // 2, cy + 1),
                text,
                BIG if big else SMALL,
                P.INK,
                key=f"p{sc['seat']}.final.{key}",
                anchor="mm",
            )
    for k in range(n + 1):
        x = MARGIN + LABEL_W + k * col
        d.line((x, 8, x, bottom), fill=P.MUTED, width=1)
    d.rounded_rectangle((MARGIN, 4, WIDTH - MARGIN, HEIGHT - 6), radius=10, outline=P.INK, width=2)
    return c.picture("scores", scores_alt(view), fmt)


def _total(key: str, sc: dict[str, Any]) -> str:
    if key.startswith("bonus."):
        return str(sum(t["vp"] for t in sc["tokens"] if t["category"] == key[6:]))
    if key == "portholes":
        return str(sc["porthole_vp"])
    if key == "treasures":
        return str(sc["treasure_vp"])
    return ""
