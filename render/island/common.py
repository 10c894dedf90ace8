"""Sizes, words and small helpers shared by the Nautilus Island pictures (view dicts only)."""

from __future__ import annotations

from typing import Any

from render.canvas import min_font_px

WIDTH = 800
# Font sizes: the smallest stays 12 px tall when the picture is shown 400 px wide.
SMALL = min_font_px(WIDTH)
MEDIUM = SMALL + 4
BIG = SMALL + 8
MARGIN = 8
GAP = 4
# The tallest picture a width of 800 allows (aspect >= 3/4) and the shortest (<= 16/9).
MAX_HEIGHT = WIDTH * 4 // 3
MIN_HEIGHT = -(-WIDTH * 9 // 16)

CATEGORIES = ("clothing", "navigation", "repair", "fishing", "food", "treasure")
STORABLE = CATEGORIES[:5]
# Short token words for pictures; the alt texts use the longer names.
TOKEN_LABEL = {
    "vp2": "2 VP",
    "vp3": "3 VP",
    "per_card": "+1/card",
    "double_porthole": "×2 port",
    "odd": "odd 4",
    "pair": "pair 5",
}
TOKEN_WORDS = {
    "vp2": "2 VP",
    "vp3": "3 VP",
    "per_card": "+1 VP per card",
    "double_porthole": "double porthole",
    "odd": "odd: 4 VP",
    "pair": "pair: 5 VP",
}


def grouped(cards: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """(object, count) in the order the view lists the cards (category, then object order)."""
    out: dict[str, int] = {}
    for card in cards:
        out[card["object"]] = out.get(card["object"], 0) + 1
    return list(out.items())


def entry(obj: str, n: int) -> str:
    return obj if n == 1 else f"{obj} ×{n}"


def s(n: int) -> str:
    return "" if n == 1 else "s"
