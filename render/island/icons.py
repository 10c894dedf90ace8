"""Nautilus Island art drawn in code: a symbol per category, card backs, pawn ghosts, portholes.

Every category has its own shape (shirt, compass rose, hammer, fish, apple, gem) on its own
colour, so categories read apart in greyscale too. Drawn with the shared supersampled Pen of
render.icons and cached per (name, size).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.icons import Pen
from render.icons import icon as shared_icon
from render.palette import INK, PAPER, PLAYER_COLOR, PLAYER_SYMBOL

Color = tuple[int, int, int]

# [fixed here] colours of the rules page: green, red, blue, purple, orange, yellow.
# Tuned so every pair stays >= 25 CIELAB units apart under simulated protanopia and
# deuteranopia too (tests/render/test_colour_vision.py): the red is deeper and the green bluer
# than the rulebook's, so navigation, clothing and food no longer merge for red-green blindness.
CATEGORY_COLOR: dict[str, Color] = {
    "clothing": (46, 140, 90),
    "navigation": (176, 10, 28),
    "repair": (30, 106, 216),
    "fishing": (108, 42, 136),
    "food": (226, 118, 18),
    "treasure": (255, 212, 46),
}
# A pale tint of each colour for card faces and collection rows.
CATEGORY_TINT: dict[str, Color] = {
    k: (
        (c[0] + 3 * 255) // 4,
        (c[1] + 3 * 255) // 4,
        (c[2] + 3 * 255) // 4,
    )
    for k, c in CATEGORY_COLOR.items()
}
CATEGORY_SYMBOL: dict[str, str] = {
    "clothing": "shirt",
    "navigation": "compass rose",
    "repair": "hammer",
    "fishing": "fish",
    "food": "apple",
    "treasure": "gem",
}
CARD_BACK: Color = (32, 52, 92)


def _shirt(pen: Pen, c: Color) -> None:
    pen.poly(
        [
            (0.3, 0.12),
            (0.42, 0.18),
            (0.58, 0.18),
            (0.7, 0.12),
            (0.95, 0.32),
            (0.82, 0.48),
            (0.74, 0.42),
            (0.74, 0.9),
            (0.26, 0.9),
            (0.26, 0.42),
            (0.18, 0.48),
            (0.05, 0.32),
        ],
        c,
        INK,
        0.05,
    )


def _rose(pen: Pen, c: Color) -> None:
    pen.circle((0.5, 0.5), 0.44, PAPER, INK, 0.05)
    pen.poly(
        [
            (0.5, 0.08),
            (0.6, 0.4),
            (0.92, 0.5),
            (0.6, 0.6),
            (0.5, 0.92),
            (0.4, 0.6),
            (0.08, 0.5),
            (0.4, 0.4),
        ],
        c,
        INK,
        0.04,
    )
    pen.circle((0.5, 0.5), 0.07, PAPER, INK, 0.03)


def _hammer(pen: Pen, c: Color) -> None:
    pen.rect((0.42, 0.3, 0.58, 0.94), (150, 100, 50), INK, 0.05)
    pen.rect((0.1, 0.08, 0.9, 0.34), c, INK, 0.05)


def _fish(pen: Pen, c: Color) -> None:
    pen.poly([(0.62, 0.5), (0.96, 0.22), (0.96, 0.78)], c, INK, 0.05)
    pen.ellipse((0.04, 0.26, 0.74, 0.74), c, INK, 0.05)
    pen.circle((0.22, 0.45), 0.05, INK, None)


def _apple(pen: Pen, c: Color) -> None:
    pen.circle((0.5, 0.58), 0.38, c, INK, 0.05)
    pen.line([(0.5, 0.24), (0.56, 0.06)], (92, 54, 24), 0.07)
    pen.ellipse((0.56, 0.06, 0.86, 0.22), (46, 140, 64), INK, 0.03)


def _gem(pen: Pen, c: Color) -> None:
    pen.poly([(0.22, 0.14), (0.78, 0.14), (0.96, 0.38), (0.5, 0.92), (0.04, 0.38)], c, INK, 0.05)
    pen.line([(0.04, 0.38), (0.96, 0.38)], INK, 0.03)
    pen.line([(0.34, 0.38), (0.5, 0.92), (0.66, 0.38)], INK, 0.03)
    pen.line([(0.34, 0.38), (0.42, 0.14)], INK, 0.03)
    pen.line([(0.66, 0.38), (0.58, 0.14)], INK, 0.03)


SYMBOL_DRAW = {
    "clothing": _shirt,
    "navigation": _rose,
    "repair": _hammer,
    "fishing": _fish,
    "food": _apple,
    "treasure": _gem,
}


def _back(pen: Pen) -> None:
    pen.rect((0.04, 0.04, 0.96, 0.96), CARD_BACK, INK, 0.05)
    pen.circle((0.5, 0.5), 0.26, None, (150, 170, 210), 0.06)
    pen.line([(0.5, 0.24), (0.5, 0.76)], (150, 170, 210), 0.05)
    pen.line([(0.24, 0.5), (0.76, 0.5)], (150, 170, 210), 0.05)


def _ghost(pen: Pen, seat: int) -> None:
    """Where a pawn stood last round: its symbol in outline only."""
    c = PLAYER_COLOR[seat]
    shape = PLAYER_SYMBOL[seat]
    w = 0.1
    if shape == "circle":
        pen.circle((0.5, 0.5), 0.4, None, c, w)
    elif shape == "square":
        pen.rect((0.12, 0.12, 0.88, 0.88), None, c, w)
    elif shape == "triangle":
        pen.poly([(0.5, 0.08), (0.92, 0.88), (0.08, 0.88)], None, c, w)
    else:
        pen.line([(0.5, 0.08), (0.5, 0.92)], c, w + 0.06)
        pen.line([(0.08, 0.5), (0.92, 0.5)], c, w + 0.06)


def _porthole(pen: Pen, closed: bool) -> None:
    rim = (120, 124, 130)
    pen.circle((0.5, 0.5), 0.46, (200, 204, 210), INK, 0.05)
    pen.circle((0.5, 0.5), 0.34, (196, 224, 240) if not closed else (90, 150, 200), rim, 0.05)
    for x, y in ((0.5, 0.1), (0.9, 0.5), (0.5, 0.9), (0.1, 0.5)):
        pen.circle((x, y), 0.04, INK, None)


def _draw(name: str, pen: Pen) -> None:
    if name.startswith("cat_"):
        category = name[4:]
        SYMBOL_DRAW[category](pen, CATEGORY_COLOR[category])
    elif name == "card_back":
        _back(pen)
    elif name.startswith("ghost_"):
        _ghost(pen, int(name[6:]))
    elif name == "porthole":
        _porthole(pen, False)
    elif name == "porthole_closed":
        _porthole(pen, True)
    elif name == "token":
        pen.circle((0.5, 0.5), 0.44, (236, 214, 160), (120, 84, 30), 0.07)
    else:
        raise KeyError(f"no island icon named {name!r}")


@lru_cache(maxsize=512)
def icon(name: str, size: int) -> Image.Image:
    """The RGBA icon `name` in a `size`-px square (cached); player badges come from render.icons."""
    if name.startswith("player_"):
        return shared_icon(name, size)
    pen = Pen(size)
    _draw(name, pen)
    return pen.result(size)
