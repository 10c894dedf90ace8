"""The final score sheet: one column per player, one row per part of the score (I-END-2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from render.canvas import Format, Picture, font
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
from render.sheet import Layout, Row, draw_table, height, ordinal
from render.words import w_

LABEL_W = 250
HEAD_H = 92  # the seats heads: badge over name
ROW_H = 40

ROWS: tuple[Row, ...] = (
    *(
        Row(f"bonus.{cat}", CATEGORY_WORDS[cat], f"cat_{cat}", rule=i == 0)
        for i, cat in enumerate(STORABLE)
    ),
    Row("bonus", w_("Bonus tokens"), None),
    Row("portholes", w_("Portholes"), "porthole_closed", rule=True),
    Row("treasures", w_("Treasures"), "cat_treasure"),
    Row("vp", w_("Total VP"), None, rule=True, big=True),
    Row("tiebreak", w_("Pawn column"), None),
    Row("rank", w_("Rank"), None, big=True),
)
HEIGHT = max(HEAD_H + height(ROWS, ROW_H) + 16, MIN_HEIGHT)
LAYOUT = Layout(WIDTH, HEIGHT, MARGIN, LABEL_W, HEAD_H, ROW_H, SMALL, MEDIUM, BIG, 30)


def _sum_text(values: list[int]) -> str:
    """'2+5+0' (each token's points) or '—'."""
    if not values:
        return "—"
    return "+".join(str(v) for v in values) if len(values) > 1 else str(values[0])


def _parts(key: str, sc: dict[str, Any]) -> str:
    if key.startswith("bonus."):
        return _sum_text([t["vp"] for t in sc["tokens"] if t["category"] == key[6:]])
    if key == "portholes":
        return _sum_text([p["vp"] for p in sc["portholes"]])
    if key == "treasures":
        return _sum_text(sc["treasures"])
    if key == "bonus":
        return str(sc["bonus_vp"])
    if key == "rank":
        return ordinal(sc["rank"])
    return str(sc[key])


def _total(key: str, sc: dict[str, Any]) -> str:
    if key.startswith("bonus."):
        return str(sum(t["vp"] for t in sc["tokens"] if t["category"] == key[6:]))
    if key == "portholes":
        return str(sc["porthole_vp"])
    if key == "treasures":
        return str(sc["treasure_vp"])
    return ""


def cell_text(key: str, text: str, total: str, width: int) -> str:
    """A cell's text, or its total when the sum of parts is wider than the column."""
    return text if font(SMALL).getlength(text) <= width - 10 else total


def _cell(key: str, sc: dict[str, Any], col: int) -> str:
    return cell_text(key, _parts(key, sc), _total(key, sc), col)


def score_sheet(view: dict[str, Any], *, names: Sequence[str] = (), fmt: Format = "png") -> Picture:
    """The final breakdown of a finished game; `names` are the seats' names (the picture draws
    what its font can of each).

    Raises:
        ValueError: if the game in `view` is not over.
    """
    final = view.get("final")
    if final is None:
        raise ValueError("the score sheet needs a finished game (view['final'] is None)")
    c = draw_table(final, ROWS, _cell, icon, LAYOUT, names)
    return c.picture("scores", scores_alt(view), fmt)
