"""The final score sheet's table, shared by the games that score by categories.

One column per seat (its colour, badge and short name on top, the winners' columns gold), one row
per part of the score (an optional icon and a label on the left). Each game gives its rows and
how a cell reads; the drawing is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render import palette as P
from render.canvas import Canvas
from render.seats import score_header
from render.words import w

STRIPE: P.Color = (240, 234, 220)
WINNER: P.Color = (250, 226, 140)

# A cell's text from the row's key, the seat's final scores and the column's width in pixels.
CellText = Callable[[str, dict[str, Any], int], str]


@dataclass(frozen=True, slots=True)
class Row:
    """One row: `key` names its marks, `label` is a catalogue word (said with `w`), `icon` an
    icon name or None, `rule` draws a section line above it, `big` a larger font, `note` a
    second, muted line under the label that says what the row means (a catalogue word)."""

    key: str
    label: str
    icon: str | None
    rule: bool = False
    big: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    margin: int
    label_w: int
    head_h: int
    row_h: int
    small: int
    medium: int
    big: int
    icon_px: int


def ordinal(n: int) -> str:
    """'1st', '2nd', … in the language drawn."""
    return {1: w("1st"), 2: w("2nd"), 3: w("3rd")}.get(n) or w("{n}th", n=n)


def height(rows: Sequence[Row], lay_row_h: int) -> int:
    """The rows' total height: a row with a note is half as tall again."""
    return sum(_row_h(r, lay_row_h) for r in rows)


def _row_h(row: Row, row_h: int) -> int:
    return row_h * 3 // 2 + 4 if row.note else row_h


def draw_table(
    final: Sequence[dict[str, Any]],
    rows: Sequence[Row],
    cell: CellText,
    icon_of: Callable[[str, int], Image.Image],
    lay: Layout,
    names: Sequence[str] = (),
) -> Canvas:
    """The whole sheet: title, seat heads, striped rows, cells, winners' columns."""
    n = len(final)
    col = (lay.width - 2 * lay.margin - lay.label_w) // n
    m, hh = lay.margin, lay.head_h
    tops = [hh]
    for row in rows:
        tops.append(tops[-1] + _row_h(row, lay.row_h))
    bottom = tops[-1]
    c = Canvas.blank((lay.width, lay.height), P.BG)
    d = c.draw
    d.rounded_rectangle((m, 4, lay.width - m, lay.height - 6), radius=10, fill=P.PANEL)
    c.text((m + 12, hh // 2 + 2), w("Final scores"), lay.medium, P.INK, anchor="lm")
    for r, row in enumerate(rows):
        if r % 2:
            d.rectangle((m + 2, tops[r], lay.width - m - 2, tops[r + 1]), fill=STRIPE)
        if row.rule:
            d.line((m + 4, tops[r], lay.width - m - 4, tops[r]), fill=P.INK, width=2)
    winners = {s["seat"] for s in final if s["rank"] == 1}
    for k, s in enumerate(final):
        x0 = m + lay.label_w + k * col
        seat = s["seat"]
        if seat in winners:
            d.rectangle((x0 + 2, hh, x0 + col - 2, bottom), fill=WINNER)
            c.area((x0, hh, x0 + col, bottom), key=f"p{seat}.final.winner", value="winner")
        score_header(c, (x0, 8, x0 + col, hh - 2), seat, names, lay.medium)
    for r, row in enumerate(rows):
        cy = (tops[r] + tops[r + 1]) // 2
        x = m + 8
        if row.icon is not None:
            ic = icon_of(row.icon, lay.icon_px)
            c.icon((x, cy - lay.icon_px // 2), ic, key="label", value=row.icon)
            x += lay.icon_px + 8
        size = lay.medium if row.big else lay.small
        if row.note is None:
            c.text((x, cy + 1), w(row.label), size, P.INK, anchor="lm")
        else:
            c.text((x, cy - 15), w(row.label), size, P.INK, anchor="lm")
            c.text((x, cy + 15), w(row.note), lay.small, P.MUTED, anchor="lm")
        for k, s in enumerate(final):
            x0 = m + lay.label_w + k * col
            c.text(
                (x0 + col // 2, cy + 1),
                cell(row.key, s, col),
                lay.big if row.big else lay.small,
                P.INK,
                key=f"p{s['seat']}.final.{row.key}",
                anchor="mm",
            )
    for k in range(n + 1):
        x = m + lay.label_w + k * col
        d.line((x, 8, x, bottom), fill=P.MUTED, width=1)
    d.rounded_rectangle((m, 4, lay.width - m, lay.height - 6), radius=10, outline=P.INK, width=2)
    return c
