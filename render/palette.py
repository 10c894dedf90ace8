"""Colours and the words that go with them (player colours, crest colours)."""

from __future__ import annotations

from typing import Final

from render.words import w, w_

Color = tuple[int, int, int]

INK: Final[Color] = (25, 28, 36)
PAPER: Final[Color] = (255, 255, 255)
BG: Final[Color] = (233, 226, 208)  # parchment
PANEL: Final[Color] = (250, 246, 236)
SEA: Final[Color] = (196, 220, 236)
WOOD: Final[Color] = (184, 124, 70)
WOOD_DARK: Final[Color] = (92, 54, 24)
MUTED: Final[Color] = (120, 116, 108)
PAID: Final[Color] = (38, 84, 150)  # the blue paid action tiles
FREE: Final[Color] = (150, 96, 36)  # the free action tiles
FLIPPED: Final[Color] = (92, 92, 98)
CURRENT: Final[Color] = (235, 170, 20)
RED: Final[Color] = (190, 30, 30)
GREEN: Final[Color] = (30, 130, 50)
BLUE: Final[Color] = (40, 90, 200)

# Seat 0..3: colour and a symbol, so seats differ without colour (UX.md). Every pair stays >= 25
# CIELAB units apart under simulated protanopia and deuteranopia (tests/render/
# test_colour_vision.py): the red leans to scarlet and the green to emerald for that.
PLAYER_COLOR: Final[tuple[Color, ...]] = (
    (210, 40, 28),
    (40, 100, 220),
    (30, 165, 84),
    (246, 196, 30),
)
PLAYER_SYMBOL: Final[tuple[str, ...]] = (w_("circle"), w_("square"), w_("triangle"), w_("cross"))
PLAYER_COLOR_NAME: Final[tuple[str, ...]] = (w_("red"), w_("blue"), w_("green"), w_("yellow"))

CREST_COLOR: Final[dict[str, Color]] = {
    "whale": (28, 52, 120),
    "anchor_ship": (24, 24, 30),
    "helm": (128, 66, 20),
    "tower": (96, 96, 110),
    "crown": (236, 180, 24),
}


def player_words(seat: int) -> str:
    """'seat 2 (blue square)': how texts name a seat's colour and symbol."""
    return w(
        "seat {n} ({colour} {symbol})",
        n=seat + 1,
        colour=w(PLAYER_COLOR_NAME[seat]),
        symbol=w(PLAYER_SYMBOL[seat]),
    )
