"""The final score sheet: one column per player, one row per scoring category."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, min_font_px, num
from render.icons import icon
from render.nauticus.text import scores_alt
from render.words import w, w_

WIDTH = 800
# Font sizes: the smallest stays 12 px tall when the picture is shown 400 px wide.
SMALL = min_font_px(WIDTH)
MEDIUM = SMALL + 4
BIG = SMALL + 8
MARGIN = 10
LABEL_W = 280
HEAD_H = 64
ROW_H = 40
GOODS = ("coffee", "grain", "fish", "salt")
GOODS_WORDS = {"coffee": w_("coffee"), "grain": w_("grain"), "fish": w_("fish"), "salt": w_("salt")}

Cell = Callable[[dict[str, Any]], str]


def _ordinal(n: int) -> str:
    return {1: w("1st"), 2: w("2nd"), 3: w("3rd")}.get(n) or w("{n}th", n=n)


def _goods_cell(good: str) -> Cell:
    return lambda s: f"{s['goods'][good]} → {s['goods_vp'][good]}"


# (key, label, icon or None, cell text, section break before this row)
ROWS: tuple[tuple[str, str, str | None, Cell, bool], ...] = (
    ("track", w_("Score track"), None, lambda s: num(s["track"]), False),
    *((f"goods.{g}", GOODS_WORDS[g], g, _goods_cell(g), i == 0) for i, g in enumerate(GOODS)),
    (
        "ships",
        w_("Ships size 1/2/3/4"),
        None,
        lambda s: "/".join(str(n) for n in s["ships"].values()),
        True,
    ),
    ("ships_vp", w_("Ships VP"), None, lambda s: num(s["ships_vp"]), False),
    ("workers", w_("Workers"), "worker", lambda s: str(s["workers"]), True),
    ("storage", w_("Storage tiles"), None, lambda s: str(s["storage_tiles"]), False),
    ("unfinished", w_("Unfinished parts"), None, lambda s: str(s["unfinished_parts"]), False),
    ("on_ships", w_("Goods on ships"), None, lambda s: str(s["goods_on_ships"]), False),
    ("taler", w_("Taler"), "taler", lambda s: str(s["taler"]), False),
    ("total_taler", w_("Total taler"), None, lambda s: str(s["total_taler"]), False),
    ("leftover_vp", w_("÷ 3 → VP"), None, lambda s: num(s["leftover_vp"]), False),
    ("vp", w_("Total VP"), None, lambda s: num(s["vp"]), True),
    ("tiebreak", w_("Tie-break: rest"), None, lambda s: str(s["tiebreak"][0]), False),
    ("rank", w_("Rank"), None, lambda s: _ordinal(s["rank"]), False),
)
HEIGHT = HEAD_H + len(ROWS) * ROW_H + 16


def draw_scores(view: dict[str, Any]) -> Canvas:
    final = view["final"]
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
    winners = {s["seat"] for s in final if s["rank"] == 1}
    for k, s in enumerate(final):
        x0 = MARGIN + LABEL_W + k * col
        seat = s["seat"]
        if seat in winners:
            d.rectangle((x0 + 2, HEAD_H, x0 + col - 2, HEIGHT - 10), fill=(250, 226, 140))
        d.rectangle((x0, 8, x0 + col, HEAD_H - 2), fill=P.PLAYER_COLOR[seat])
        d.ellipse((x0 + col // 2 - 44, 10, x0 + col // 2, 54), fill=P.PANEL)
        c.icon((x0 + col // 2 - 40, 14), icon(f"player_{seat}", 36), key=f"p{seat}", value="badge")
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
            c.icon((x, cy - 16), icon(ic, 32), key="label", value=ic)
            x += 40
        big = key in ("vp", "rank")
        c.text((x, cy + 1), w(label), MEDIUM if big else SMALL, P.INK, anchor="lm")
        for k, s in enumerate(final):
            x0 = MARGIN + LABEL_W + k * col
            c.text(
                (x0 + col // 2, cy + 1),
                cell(s),
                BIG if big else SMALL,
                P.INK,
                key=f"p{s['seat']}.final.{key}",
                anchor="mm",
            )
    for k in range(n + 1):
        x = MARGIN + LABEL_W + k * col
        d.line((x, 8, x, HEIGHT - 10), fill=P.MUTED, width=1)
    d.rounded_rectangle((MARGIN, 4, WIDTH - MARGIN, HEIGHT - 6), radius=10, outline=P.INK, width=2)
    for k, s in enumerate(final):
        if s["seat"] in winners:
            x0 = MARGIN + LABEL_W + k * col
            box = (x0, HEAD_H, x0 + col, HEIGHT - 10)
            c.area(box, key=f"p{s['seat']}.final.winner", value="winner")
    return c


def score_sheet(view: dict[str, Any], *, fmt: Format = "png") -> Picture:
    """The final score sheet of a finished game.

    Raises:
        ValueError: if the game in `view` is not over.
    """
    if view.get("final") is None:
        raise ValueError("the score sheet needs a finished game (view['final'] is None)")
    c = draw_scores(view)
    return c.picture("scores", scores_alt(view), fmt)
