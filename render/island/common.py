"""Sizes, words and small helpers shared by the Nautilus Island pictures (view dicts only)."""

from __future__ import annotations

from typing import Any

from render.canvas import min_font_px
from render.words import w, w_, wc

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
    "vp2": w_("2 VP"),
    "vp3": w_("3 VP"),
    "per_card": w_("+1/card"),
    "double_porthole": w_("×2 port"),
    "odd": w_("odd 4"),
    "pair": w_("pair 5"),
}
TOKEN_WORDS = {
    "vp2": w_("2 VP"),
    "vp3": w_("3 VP"),
    "per_card": w_("+1 VP per card"),
    "double_porthole": w_("double porthole"),
    "odd": w_("4 VP if odd"),
    "pair": w_("5 VP per pair"),
}
# The words of the engine's ids (render reads ids from views and says them through `w`).
OBJECT_WORDS = {
    o: o
    for o in (
        w_("hat"),
        w_("coat"),
        w_("boots"),
        w_("gloves"),
        w_("compass"),
        w_("spyglass"),
        w_("sextant"),
        w_("chart"),
        w_("hammer"),
        w_("saw"),
        w_("wrench"),
        w_("rope"),
        w_("rod"),
        w_("net"),
        w_("harpoon"),
        w_("hook"),
        w_("bread"),
        w_("cheese"),
        w_("fruit"),
        w_("ham"),
        w_("pearl"),
        w_("coin"),
        w_("goblet"),
        w_("crown"),
    )
}
CATEGORY_WORDS = {
    "clothing": w_("clothing"),
    "navigation": w_("navigation"),
    "repair": w_("repair"),
    "fishing": w_("fishing"),
    "food": w_("food"),
    "treasure": w_("treasure"),
}
SIDE_WORDS = {"above": w_("above"), "below": w_("below")}


def token_label(token: str) -> str:
    return w(TOKEN_LABEL[token])


def token_words(token: str) -> str:
    return w(TOKEN_WORDS[token])


def obj(name: str) -> str:
    """An object's name ('ham', French 'jambon').

    A stack's box holds about eight letters: where a language's name of an object is longer
    (French "carte marine", "longue-vue"), the pictures take its short word, told apart by the
    context "picture" (the card's colour and icon say the rest).
    """
    if name == "chart":
        return wc("picture", "chart")
    if name == "spyglass":
        return wc("picture", "spyglass")
    return w(OBJECT_WORDS[name]) if name in OBJECT_WORDS else name


def cat_word(category: str) -> str:
    return w(CATEGORY_WORDS[category]) if category in CATEGORY_WORDS else category


def side_word(side: str) -> str:
    return w(SIDE_WORDS[side]) if side in SIDE_WORDS else side


def grouped(cards: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """(object, count) in the order the view lists the cards (category, then object order)."""
    out: dict[str, int] = {}
    for card in cards:
        out[card["object"]] = out.get(card["object"], 0) + 1
    return list(out.items())


def entry(name: str, n: int) -> str:
    return obj(name) if n == 1 else f"{obj(name)} ×{n}"


def s(n: int) -> str:
    return "" if n == 1 else "s"
