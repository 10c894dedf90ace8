"""The duel's own art, drawn in code with the shared `Pen`: domain symbols, stars, the ink blot,
arrows, the anchor and the six specials.

Each domain has its own shape (flask, compass, helm, gear, crossed swords) as well as its own
colour, so the domains read in greyscale and for colour-blind players too.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from render.icons import Pen
from render.icons import icon as shared_icon
from render.palette import INK, PAPER
from render.words import w_

Color = tuple[int, int, int]

DOMAIN_COLOR: dict[str, Color] = {
    "science": (36, 140, 72),
    "exploration": (222, 128, 24),
    "navigation": (24, 132, 150),
    "engineering": (120, 72, 168),
    "war": (72, 72, 84),
}
DOMAIN_SHORT = {
    "science": w_("SCI"),
    "exploration": w_("EXP"),
    "navigation": w_("NAV"),
    "engineering": w_("ENG"),
    "war": w_("WAR"),
}
STAR: Color = (246, 190, 20)
INK_BLOT: Color = (20, 20, 30)


def _flask(pen: Pen, c: Color) -> None:
    pen.rect((0.4, 0.08, 0.6, 0.4), PAPER, INK, 0.05)
    pen.poly([(0.4, 0.38), (0.6, 0.38), (0.9, 0.9), (0.1, 0.9)], c, INK, 0.05)
    pen.rect((0.33, 0.06, 0.67, 0.12), INK, None)
    pen.circle((0.45, 0.72), 0.06, PAPER, None)
    pen.circle((0.6, 0.6), 0.04, PAPER, None)


def _compass(pen: Pen, c: Color) -> None:
    pen.circle((0.5, 0.5), 0.44, PAPER, INK, 0.06)
    pen.poly([(0.5, 0.1), (0.62, 0.5), (0.5, 0.9), (0.38, 0.5)], c, INK, 0.03)
    pen.poly([(0.1, 0.5), (0.5, 0.42), (0.9, 0.5), (0.5, 0.58)], INK, None)
    pen.circle((0.5, 0.5), 0.06, PAPER, INK, 0.03)


def _helm(pen: Pen, c: Color) -> None:
    for k in range(8):
        a = math.pi * k / 4
        x, y = 0.5 + 0.44 * math.cos(a), 0.5 + 0.44 * math.sin(a)
        pen.line([(0.5, 0.5), (x, y)], c, 0.08)
        pen.circle((x, y), 0.06, c, None)
    pen.ellipse((0.2, 0.2, 0.8, 0.8), None, c, 0.1)
    pen.circle((0.5, 0.5), 0.11, c, None)


def _gear(pen: Pen, c: Color) -> None:
    pts = []
    for k in range(32):
        a = 2 * math.pi * k / 32
        r = 0.46 if (k // 2) % 2 == 0 else 0.34
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    pen.poly(pts, c, INK, 0.03)
    pen.circle((0.5, 0.5), 0.14, PAPER, INK, 0.03)


def _swords(pen: Pen, c: Color) -> None:
    for (x0, y0), (x1, y1) in (((0.14, 0.14), (0.8, 0.8)), ((0.86, 0.14), (0.2, 0.8))):
        pen.line([(x0, y0), (x1, y1)], c, 0.1)
        # A cross-guard across the blade near the hilt, then the grip.
        dx, dy = x1 - x0, y1 - y0
        n = math.hypot(dx, dy)
        px, py = -dy / n * 0.14, dx / n * 0.14
        gx, gy = x0 + dx * 0.8, y0 + dy * 0.8
        pen.line([(gx + px, gy + py), (gx - px, gy - py)], INK, 0.08)
        pen.line([(gx, gy), (x1 + dx * 0.16, y1 + dy * 0.16)], INK, 0.1)


DOMAIN_DRAW = {
    "science": _flask,
    "exploration": _compass,
    "navigation": _helm,
    "engineering": _gear,
    "war": _swords,
}


def _star(pen: Pen, cx: float, cy: float, r: float) -> None:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + math.pi * k / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    pen.poly(pts, STAR, INK, 0.04)


def _blot(pen: Pen) -> None:
    pts = []
    for k in range(16):
        a = 2 * math.pi * k / 16
        r = 0.36 if k % 2 == 0 else 0.26 + 0.05 * (k % 3)
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    pen.poly(pts, INK_BLOT, None)
    for x, y, r in ((0.14, 0.2, 0.06), (0.86, 0.76, 0.07), (0.8, 0.16, 0.04)):
        pen.circle((x, y), r, INK_BLOT, None)


def _arrow(pen: Pen, vertical: bool) -> None:
    # A double-headed arrow: vertical for 6/9 (across the Nautilus), horizontal for 7/8.
    pen.circle((0.5, 0.5), 0.48, PAPER, INK, 0.05)
    a, b = (0.14, 0.86)
    if vertical:
        pen.line([(0.5, a + 0.1), (0.5, b - 0.1)], INK, 0.1)
        pen.poly([(0.5, a), (0.7, a + 0.22), (0.3, a + 0.22)], INK, None)
        pen.poly([(0.5, b), (0.7, b - 0.22), (0.3, b - 0.22)], INK, None)
    else:
        pen.line([(a + 0.1, 0.5), (b - 0.1, 0.5)], INK, 0.1)
        pen.poly([(a, 0.5), (a + 0.22, 0.3), (a + 0.22, 0.7)], INK, None)
        pen.poly([(b, 0.5), (b - 0.22, 0.3), (b - 0.22, 0.7)], INK, None)


def _anchor(pen: Pen) -> None:
    c = (20, 40, 90)
    pen.circle((0.5, 0.5), 0.48, (250, 226, 140), INK, 0.05)
    pen.ellipse((0.42, 0.1, 0.58, 0.26), None, c, 0.06)
    pen.rect((0.46, 0.24, 0.54, 0.84), c, None)
    pen.rect((0.3, 0.32, 0.7, 0.39), c, None)
    pen.arc((0.18, 0.3, 0.82, 0.86), 15, 165, c, 0.08)


def _kraken(pen: Pen) -> None:
    c = (150, 40, 90)
    pen.ellipse((0.26, 0.04, 0.74, 0.52), c, INK, 0.04)
    for k in range(5):
        x = 0.22 + k * 0.14
        pen.line([(x + 0.04, 0.42), (x - 0.06, 0.7), (x + 0.04, 0.92)], c, 0.08)
    pen.circle((0.42, 0.28), 0.06, PAPER, None)
    pen.circle((0.58, 0.28), 0.06, PAPER, None)


def _fishbone(pen: Pen) -> None:
    c = (110, 110, 120)
    pen.line([(0.12, 0.5), (0.8, 0.5)], c, 0.07)
    for x in (0.3, 0.44, 0.58):
        pen.line([(x, 0.28), (x + 0.08, 0.5), (x, 0.72)], c, 0.05)
    pen.circle((0.82, 0.5), 0.12, c, None)
    pen.poly([(0.12, 0.5), (0.02, 0.32), (0.02, 0.68)], c, None)


def _eye(pen: Pen) -> None:
    pen.poly(
        [
            (0.04, 0.5),
            (0.25, 0.26),
            (0.5, 0.18),
            (0.75, 0.26),
            (0.96, 0.5),
            (0.75, 0.74),
            (0.5, 0.82),
            (0.25, 0.74),
        ],
        PAPER,
        INK,
        0.05,
    )
    pen.circle((0.5, 0.5), 0.2, (40, 110, 170), INK, 0.04)
    pen.circle((0.5, 0.5), 0.08, INK, None)


def _module(pen: Pen) -> None:
    c = (170, 130, 60)
    pen.circle((0.5, 0.46), 0.38, c, INK, 0.05)
    pen.circle((0.5, 0.46), 0.2, (190, 220, 240), INK, 0.05)
    for x, y in ((0.5, 0.1), (0.14, 0.46), (0.86, 0.46)):
        pen.circle((x, y), 0.05, INK, None)
    pen.rect((0.3, 0.84, 0.7, 0.96), c, INK, 0.04)


def _harpoon(pen: Pen) -> None:
    c = (90, 60, 30)
    pen.line([(0.1, 0.9), (0.78, 0.22)], c, 0.08)
    pen.poly([(0.94, 0.06), (0.62, 0.2), (0.8, 0.38)], (120, 120, 130), INK, 0.03)
    pen.line([(0.62, 0.38), (0.72, 0.28)], INK, 0.05)


def _card_back(pen: Pen) -> None:
    pen.rect((0.18, 0.06, 0.82, 0.94), (60, 90, 140), INK, 0.06)
    pen.ellipse((0.32, 0.32, 0.68, 0.68), None, PAPER, 0.06)


def _draw(name: str, pen: Pen) -> None:
    if name.startswith("domain_"):
        d = name[7:]
        DOMAIN_DRAW[d](pen, DOMAIN_COLOR[d])
    elif name == "two_stars":
        _star(pen, 0.28, 0.34, 0.27)
        _star(pen, 0.72, 0.66, 0.27)
    elif name == "one_star":
        _star(pen, 0.5, 0.52, 0.46)
    elif name == "ink":
        _blot(pen)
    elif name == "arrow_vertical":
        _arrow(pen, True)
    elif name == "arrow_horizontal":
        _arrow(pen, False)
    elif name == "anchor":
        _anchor(pen)
    elif name == "kraken":
        _kraken(pen)
    elif name == "fishbone":
        _fishbone(pen)
    elif name == "eye":
        _eye(pen)
    elif name == "diving_module":
        _module(pen)
    elif name == "harpoon":
        _harpoon(pen)
    elif name == "card_back":
        _card_back(pen)
    else:
        raise KeyError(f"no duel icon named {name!r}")


@lru_cache(maxsize=512)
def icon(name: str, size: int) -> Image.Image:
    """The RGBA icon `name` in a `size`-px square (cached); player badges come from render.icons."""
    if name.startswith("player_") or name == "start":
        return shared_icon(name, size)
    pen = Pen(size)
    _draw(name, pen)
    return pen.result(size)
