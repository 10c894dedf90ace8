"""The final score sheet: one column per player, one row per scoring category."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from render.canvas import Canvas, Format, Picture, min_font_px, num
from render.icons import icon
from render.nauticus.text import scores_alt
from render.sheet import Layout, Row, draw_table, height, ordinal
from render.words import w_

WIDTH = 800
# Font sizes: the smallest stays 12 px tall when the picture is shown 400 px wide.
SMALL = min_font_px(WIDTH)
MEDIUM = SMALL + 4
BIG = SMALL + 8
MARGIN = 10
LABEL_W = 290
HEAD_H = 92  # the seats heads: badge over name
ROW_H = 40
GOODS = ("coffee", "grain", "fish", "salt")
GOODS_WORDS = {"coffee": w_("coffee"), "grain": w_("grain"), "fish": w_("fish"), "salt": w_("salt")}

ROWS: tuple[Row, ...] = (
    Row("track", w_("Score track"), None),
    *(Row(f"goods.{g}", GOODS_WORDS[g], g, rule=i == 0) for i, g in enumerate(GOODS)),
    # The sizes on a second line: "Navires de taille 1/2/3/4" is wider than the label column.
    Row("ships", w_("Ships"), None, rule=True, note=w_("of size 1/2/3/4")),
    Row("ships_vp", w_("Ships VP"), None),
    Row("workers", w_("Workers"), "worker", rule=True),
    Row("storage", w_("Storage tiles"), None),
    Row("unfinished", w_("Unfinished parts"), None),
    Row("on_ships", w_("Goods on ships"), None),
    Row("taler", w_("Taler"), "taler"),
    Row("total_taler", w_("Total taler"), None),
    Row("leftover_vp", w_("Taler ÷ 3 → VP"), None),
    Row("vp", w_("Total VP"), None, rule=True, big=True),
    Row("tiebreak", w_("Tie-break"), None, note=w_("taler left after ÷ 3")),
    Row("rank", w_("Rank"), None, big=True),
)
HEIGHT = HEAD_H + height(ROWS, ROW_H) + 16
LAYOUT = Layout(WIDTH, HEIGHT, MARGIN, LABEL_W, HEAD_H, ROW_H, SMALL, MEDIUM, BIG, 32)


def _goods_cell(good: str) -> Callable[[dict[str, Any]], str]:
    # Thin spaces around the arrow: '30 → 145' fits a quarter of the width beside the labels.
    return lambda s: f"{s['goods'][good]}\u2009→\u2009{s['goods_vp'][good]}"


_CELLS: dict[str, Callable[[dict[str, Any]], str]] = {
    "track": lambda s: num(s["track"]),
    **{f"goods.{g}": _goods_cell(g) for g in GOODS},
    "ships": lambda s: "/".join(str(n) for n in s["ships"].values()),
    "ships_vp": lambda s: num(s["ships_vp"]),
    "workers": lambda s: str(s["workers"]),
    "storage": lambda s: str(s["storage_tiles"]),
    "unfinished": lambda s: str(s["unfinished_parts"]),
    "on_ships": lambda s: str(s["goods_on_ships"]),
    "taler": lambda s: str(s["taler"]),
    "total_taler": lambda s: str(s["total_taler"]),
    "leftover_vp": lambda s: num(s["leftover_vp"]),
    "vp": lambda s: num(s["vp"]),
    "tiebreak": lambda s: str(s["tiebreak"][0]),
    "rank": lambda s: ordinal(s["rank"]),
}


def _cell(key: str, s: dict[str, Any], col: int) -> str:
    return _CELLS[key](s)


def draw_scores(view: dict[str, Any], names: Sequence[str] = ()) -> Canvas:
    return draw_table(view["final"], ROWS, _cell, icon, LAYOUT, names)


def score_sheet(view: dict[str, Any], *, names: Sequence[str] = (), fmt: Format = "png") -> Picture:
    """The final score sheet of a finished game; `names` are the seats' names (display names,
    any Unicode: the picture draws what its font can of each).

    Raises:
        ValueError: if the game in `view` is not over.
    """
    if view.get("final") is None:
        raise ValueError("the score sheet needs a finished game (view['final'] is None)")
    c = draw_scores(view, names)
    return c.picture("scores", scores_alt(view), fmt)
