"""Every piece of art, drawn in code: items, crests, goods, player badges, tokens.

Icons are drawn once at 4x on a transparent square and scaled down (Pillow's polygons have no
anti-aliasing of their own), then cached per (name, size). Shapes carry the meaning; colour only
helps, so every crest, good and player badge reads in greyscale too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import (
    CREST_COLOR,
    INK,
    PAPER,
    PLAYER_COLOR,
    PLAYER_SYMBOL,
    WOOD,
    WOOD_DARK,
)

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]

_SS = 4  # supersampling factor


def _rgba(c: tuple[int, int, int], a: int = 255) -> RGBA:
    return (c[0], c[1], c[2], a)


class Pen:
    """Draws in unit coordinates (0..1 over the icon square) on a supersampled image."""

    def __init__(self, size: int) -> None:
        self.s = size * _SS
        self.im = Image.new("RGBA", (self.s, self.s), (0, 0, 0, 0))
        self.d = ImageDraw.Draw(self.im)

    def p(self, pts: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * self.s, y * self.s) for x, y in pts]

    def w(self, width: float) -> int:
        return max(1, round(width * self.s))

    def poly(
        self,
        pts: Sequence[Point],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        self.d.polygon(
            self.p(pts),
            fill=None if fill is None else _rgba(fill),
            outline=None if outline is None else _rgba(outline),
            width=self.w(width) if outline is not None else 0,
        )

    def ellipse(
        self,
        box: tuple[float, float, float, float],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        x0, y0, x1, y1 = box
        self.d.ellipse(
            (x0 * self.s, y0 * self.s, x1 * self.s, y1 * self.s),
            fill=None if fill is None else _rgba(fill),
            outline=None if outline is None else _rgba(outline),
            width=self.w(width) if outline is not None else 0,
        )

    def circle(
        self,
        c: Point,
        r: float,
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        self.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill, outline, width)

    def line(self, pts: Sequence[Point], color: tuple[int, int, int], width: float) -> None:
        self.d.line(self.p(pts), fill=_rgba(color), width=self.w(width), joint="curve")

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        x0, y0, x1, y1 = box
        self.d.rectangle(
            (x0 * self.s, y0 * self.s, x1 * self.s, y1 * self.s),
            fill=None if fill is None else _rgba(fill),
            outline=None if outline is None else _rgba(outline),
            width=self.w(width) if outline is not None else 0,
        )

    def arc(
        self,
        box: tuple[float, float, float, float],
        start: float,
        end: float,
        color: tuple[int, int, int],
        width: float,
    ) -> None:
        x0, y0, x1, y1 = box
        self.d.arc(
            (x0 * self.s, y0 * self.s, x1 * self.s, y1 * self.s),
            start,
            end,
            fill=_rgba(color),
            width=self.w(width),
        )

    def result(self, size: int) -> Image.Image:
        return self.im.resize((size, size), Image.Resampling.LANCZOS)


def _sub(pen: Pen, box: tuple[float, float, float, float]) -> Pen:
    """A pen drawing into a sub-square of `pen` (for symbols on medallions and sails)."""
    return _SubPen(pen, box)


class _SubPen(Pen):
    def __init__(self, parent: Pen, box: tuple[float, float, float, float]) -> None:
        self.parent = parent
        self.s = parent.s
        self.im = parent.im
        self.d = parent.d
        self.x0, self.y0, x1, _ = box
        self.k = x1 - self.x0

    def p(self, pts: Sequence[Point]) -> list[tuple[float, float]]:
        return [((self.x0 + x * self.k) * self.s, (self.y0 + y * self.k) * self.s) for x, y in pts]

    def w(self, width: float) -> int:
        return max(1, round(width * self.k * self.s))

    def ellipse(
        self,
        box: tuple[float, float, float, float],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        (a, b), (c, d) = self.p([(box[0], box[1]), (box[2], box[3])])
        self.parent.d.ellipse(
            (a, b, c, d),
            fill=None if fill is None else _rgba(fill),
            outline=None if outline is None else _rgba(outline),
            width=self.w(width) if outline is not None else 0,
        )

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = INK,
        width: float = 0.04,
    ) -> None:
        (a, b), (c, d) = self.p([(box[0], box[1]), (box[2], box[3])])
        self.parent.d.rectangle(
            (a, b, c, d),
            fill=None if fill is None else _rgba(fill),
            outline=None if outline is None else _rgba(outline),
            width=self.w(width) if outline is not None else 0,
        )

    def arc(
        self,
        box: tuple[float, float, float, float],
        start: float,
        end: float,
        color: tuple[int, int, int],
        width: float,
    ) -> None:
        (a, b), (c, d) = self.p([(box[0], box[1]), (box[2], box[3])])
        self.parent.d.arc((a, b, c, d), start, end, fill=_rgba(color), width=self.w(width))


# --- crests ----------------------------------------------------------------------------------


def _whale(pen: Pen, c: tuple[int, int, int]) -> None:
    # A whale seen from the side, tail flukes raised and a spout: nothing like the fish good.
    pen.poly(
        [
            (0.62, 0.62),
            (0.8, 0.4),
            (0.74, 0.24),
            (0.88, 0.34),
            (0.99, 0.2),
            (0.92, 0.42),
            (0.86, 0.5),
            (0.76, 0.76),
        ],
        c,
        INK,
        0.03,
    )
    pen.ellipse((0.02, 0.38, 0.82, 0.9), c, INK, 0.03)
    pen.rect((0.1, 0.7, 0.7, 0.74), PAPER, None)
    for x in (0.16, 0.28, 0.4):
        pen.line([(0.28, 0.38), (x, 0.1)], c, 0.06)
    pen.circle((0.17, 0.56), 0.05, PAPER, None)


def _anchor(pen: Pen, c: tuple[int, int, int]) -> None:
    pen.ellipse((0.4, 0.03, 0.6, 0.23), None, c, 0.07)
    pen.rect((0.45, 0.2, 0.55, 0.88), c, None)
    pen.rect((0.25, 0.3, 0.75, 0.39), c, None)
    pen.arc((0.12, 0.22, 0.88, 0.9), 15, 165, c, 0.1)
    pen.poly([(0.78, 0.7), (0.97, 0.6), (0.9, 0.48)], c, None)
    pen.poly([(0.22, 0.7), (0.03, 0.6), (0.1, 0.48)], c, None)


def _helm(pen: Pen, c: tuple[int, int, int]) -> None:
    for k in range(8):
        a = math.pi * k / 4
        x, y = 0.5 + 0.43 * math.cos(a), 0.5 + 0.43 * math.sin(a)
        pen.line([(0.5, 0.5), (x, y)], c, 0.07)
        pen.circle((x, y), 0.06, c, None)
    pen.ellipse((0.22, 0.22, 0.78, 0.78), None, c, 0.09)
    pen.circle((0.5, 0.5), 0.1, c, None)


def _tower(pen: Pen, c: tuple[int, int, int]) -> None:
    pen.rect((0.3, 0.34, 0.7, 0.94), c, None)
    pen.rect((0.2, 0.22, 0.8, 0.36), c, None)
    for x in (0.2, 0.44, 0.68):
        pen.rect((x, 0.06, x + 0.12, 0.24), c, None)
    pen.rect((0.42, 0.64, 0.58, 0.94), PAPER, None)
    pen.ellipse((0.42, 0.56, 0.58, 0.72), PAPER, None)
    pen.rect((0.45, 0.42, 0.55, 0.52), PAPER, None)


def _crown(pen: Pen, c: tuple[int, int, int]) -> None:
    pts = [(0.08, 0.84), (0.08, 0.3), (0.3, 0.55), (0.5, 0.16), (0.7, 0.55), (0.92, 0.3)]
    pen.poly([*pts, (0.92, 0.84)], c, INK, 0.04)
    pen.rect((0.08, 0.72, 0.92, 0.84), c, INK, 0.04)
    for x, y in ((0.08, 0.27), (0.5, 0.13), (0.92, 0.27)):
        pen.circle((x, y), 0.07, c, INK, 0.03)


CREST_DRAW: dict[str, Callable[[Pen, tuple[int, int, int]], None]] = {
    "whale": _whale,
    "anchor_ship": _anchor,
    "helm": _helm,
    "tower": _tower,
    "crown": _crown,
}


def _medal(pen: Pen, crest: str | None, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    pen.ellipse(box, PAPER, INK if crest is None else CREST_COLOR[crest], 0.06)
    if crest is not None:
        k = (x1 - x0) * 0.13
        CREST_DRAW[crest](_sub(pen, (x0 + k, y0 + k, x1 - k, y1 - k)), CREST_COLOR[crest])


# --- ship parts ------------------------------------------------------------------------------

_HULL: dict[str, list[Point]] = {
    # Bow and stern rise high at their ends, so they differ from a middle at a glance.
    "bow": [(0.0, 0.16), (0.16, 0.16), (0.34, 0.4), (1.0, 0.4), (1.0, 0.78), (0.4, 0.78)],
    "middle": [(0.0, 0.4), (1.0, 0.4), (1.0, 0.78), (0.0, 0.78)],
    "stern": [(0.0, 0.4), (0.52, 0.4), (0.52, 0.16), (1.0, 0.16), (0.9, 0.78), (0.0, 0.78)],
    "one_ship": [(0.0, 0.28), (0.2, 0.4), (0.8, 0.4), (1.0, 0.28), (0.78, 0.78), (0.22, 0.78)],
}


# Where a plank line may run inside each hull shape.
_PLANK: dict[str, tuple[float, float]] = {
    "bow": (0.3, 1.0),
    "middle": (0.0, 1.0),
    "stern": (0.0, 0.94),
    "one_ship": (0.14, 0.86),
}


def _hull(pen: Pen, kind: str) -> None:
    pen.poly(_HULL[kind], WOOD, WOOD_DARK, 0.045)
    x0, x1 = _PLANK[kind]
    pen.line([(x0, 0.59), (x1, 0.59)], WOOD_DARK, 0.03)


def _mast_any(pen: Pen) -> None:
    """A mast of any crest (the +1 mast bonus): a bare mast with two yards, a pennant and a
    foot; with no medallion, so it cannot read as a stopwatch (a dial under a crown)."""
    pen.rect((0.43, 0.1, 0.57, 0.92), WOOD_DARK, None)
    pen.rect((0.12, 0.3, 0.88, 0.38), WOOD_DARK, None)
    pen.rect((0.2, 0.58, 0.8, 0.66), WOOD_DARK, None)
    pen.poly([(0.57, 0.04), (0.92, 0.12), (0.57, 0.2)], (214, 48, 40), INK, 0.03)
    pen.poly([(0.28, 0.92), (0.72, 0.92), (0.62, 0.99), (0.38, 0.99)], WOOD, WOOD_DARK, 0.03)


def _mast(pen: Pen, crest: str | None) -> None:
    if crest is None:
        _mast_any(pen)
        return
    pen.rect((0.44, 0.0, 0.56, 1.0), WOOD_DARK, None)
    pen.rect((0.16, 0.04, 0.84, 0.12), WOOD_DARK, None)
    # A big medallion: the crest is what tells masts apart, also in greyscale.
    _medal(pen, crest, (0.1, 0.18, 0.92, 1.0))


_SAIL: list[Point] = [(0.12, 0.06), (0.88, 0.06), (0.97, 0.9), (0.5, 0.97), (0.03, 0.9)]


def _sail(pen: Pen, crest: str | None) -> None:
    pen.poly(_SAIL, (246, 240, 222), INK, 0.05)
    if crest is not None:
        CREST_DRAW[crest](_sub(pen, (0.15, 0.16, 0.85, 0.86)), CREST_COLOR[crest])


# --- goods -----------------------------------------------------------------------------------


def _rot_ellipse(c: Point, rx: float, ry: float, deg: float, n: int = 36) -> list[Point]:
    a = math.radians(deg)
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append(
            (c[0] + x * math.cos(a) - y * math.sin(a), c[1] + x * math.sin(a) + y * math.cos(a))
        )
    return pts


def _coffee(pen: Pen) -> None:
    pen.poly(_rot_ellipse((0.5, 0.5), 0.3, 0.45, 35), (105, 58, 25), INK, 0.04)
    pen.line([(0.62, 0.2), (0.5, 0.4), (0.52, 0.6), (0.38, 0.8)], (214, 170, 120), 0.06)


def _grain(pen: Pen) -> None:
    gold, dark = (236, 190, 60), (140, 100, 20)
    pen.line([(0.5, 0.98), (0.5, 0.2)], dark, 0.06)
    for y in (0.32, 0.5, 0.68):
        pen.poly(_rot_ellipse((0.36, y), 0.16, 0.08, -35, 20), gold, dark, 0.03)
        pen.poly(_rot_ellipse((0.64, y), 0.16, 0.08, 35, 20), gold, dark, 0.03)
    pen.poly(_rot_ellipse((0.5, 0.14), 0.08, 0.14, 0, 20), gold, dark, 0.03)


def _fish(pen: Pen) -> None:
    blue, dark = (80, 140, 200), (20, 50, 90)
    pen.poly([(0.64, 0.5), (0.97, 0.22), (0.97, 0.78)], blue, dark, 0.04)
    pen.poly(_rot_ellipse((0.38, 0.5), 0.35, 0.22, 0), blue, dark, 0.04)
    pen.circle((0.2, 0.45), 0.05, dark, None)
    pen.arc((0.25, 0.3, 0.55, 0.7), 300, 60, dark, 0.03)


def _salt(pen: Pen) -> None:
    pen.poly(
        [(0.04, 0.88), (0.22, 0.5), (0.42, 0.3), (0.58, 0.3), (0.78, 0.5), (0.96, 0.88)],
        (252, 252, 252),
        (90, 90, 100),
        0.05,
    )
    for x, y in ((0.3, 0.7), (0.5, 0.5), (0.7, 0.72), (0.5, 0.78), (0.42, 0.62), (0.6, 0.62)):
        pen.rect((x - 0.035, y - 0.035, x + 0.035, y + 0.035), (150, 150, 165), None)


GOOD_DRAW: dict[str, Callable[[Pen], None]] = {
    "coffee": _coffee,
    "grain": _grain,
    "fish": _fish,
    "salt": _salt,
}


def _crate(pen: Pen) -> None:
    pen.rect((0.12, 0.12, 0.88, 0.88), (200, 160, 110), WOOD_DARK, 0.06)
    pen.line([(0.12, 0.12), (0.88, 0.88)], WOOD_DARK, 0.05)
    pen.line([(0.88, 0.12), (0.12, 0.88)], WOOD_DARK, 0.05)


# --- players and tokens ----------------------------------------------------------------------


def _player(pen: Pen, seat: int) -> None:
    c = PLAYER_COLOR[seat]
    shape = PLAYER_SYMBOL[seat]
    if shape == "circle":
        pen.circle((0.5, 0.5), 0.45, c, INK, 0.07)
    elif shape == "square":
        pen.rect((0.08, 0.08, 0.92, 0.92), c, INK, 0.07)
    elif shape == "triangle":
        pen.poly([(0.5, 0.04), (0.97, 0.92), (0.03, 0.92)], c, INK, 0.07)
    else:  # cross
        pen.poly(
            [
                (0.34, 0.04),
                (0.66, 0.04),
                (0.66, 0.34),
                (0.96, 0.34),
                (0.96, 0.66),
                (0.66, 0.66),
                (0.66, 0.96),
                (0.34, 0.96),
                (0.34, 0.66),
                (0.04, 0.66),
                (0.04, 0.34),
                (0.34, 0.34),
            ],
            c,
            INK,
            0.07,
        )


def _worker(pen: Pen, c: tuple[int, int, int]) -> None:
    pen.poly([(0.18, 0.96), (0.36, 0.42), (0.64, 0.42), (0.82, 0.96)], c, INK, 0.06)
    pen.circle((0.5, 0.26), 0.18, c, INK, 0.06)


def _taler(pen: Pen) -> None:
    pen.circle((0.5, 0.5), 0.44, (242, 196, 58), (150, 110, 10), 0.07)
    pen.circle((0.5, 0.5), 0.27, None, (150, 110, 10), 0.05)


def _check(pen: Pen) -> None:
    pen.circle((0.5, 0.5), 0.46, (40, 150, 60), INK, 0.05)
    pen.line([(0.26, 0.52), (0.43, 0.7), (0.75, 0.3)], PAPER, 0.12)


def _flag(pen: Pen) -> None:
    pen.rect((0.18, 0.05, 0.26, 0.96), INK, None)
    pen.poly([(0.26, 0.08), (0.94, 0.3), (0.26, 0.54)], (220, 40, 40), INK, 0.05)


def _pass_flipped(pen: Pen) -> None:
    pen.rect((0.02, 0.02, 0.98, 0.98), (60, 60, 72), INK, 0.05)
    _crown(_sub(pen, (0.18, 0.18, 0.82, 0.82)), CREST_COLOR["crown"])


def _anchor_tile(pen: Pen) -> None:
    pen.rect((0.02, 0.02, 0.98, 0.98), (150, 40, 40), INK, 0.06)
    _anchor(_sub(pen, (0.15, 0.15, 0.85, 0.85)), PAPER)


def _money(pen: Pen) -> None:
    for x, y in ((0.34, 0.62), (0.66, 0.62), (0.5, 0.34)):
        pen.circle((x, y), 0.26, (242, 196, 58), (150, 110, 10), 0.05)


def _transport(pen: Pen) -> None:
    _crate(_sub(pen, (0.0, 0.0, 0.45, 0.45)))
    pen.poly(
        [
            (0.1, 0.6),
            (0.55, 0.6),
            (0.55, 0.46),
            (0.9, 0.72),
            (0.55, 0.98),
            (0.55, 0.84),
            (0.1, 0.84),
        ],
        (60, 110, 190),
        INK,
        0.04,
    )


def _deliver(pen: Pen) -> None:
    sub = _sub(pen, (0.0, 0.3, 0.7, 1.0))
    sub.poly(_HULL["one_ship"], WOOD, WOOD_DARK, 0.06)
    _crate(_sub(pen, (0.18, 0.22, 0.48, 0.52)))
    pen.poly(
        [(0.6, 0.3), (0.78, 0.05), (0.96, 0.3), (0.85, 0.3), (0.85, 0.6), (0.71, 0.6), (0.71, 0.3)],
        (60, 150, 70),
        INK,
        0.04,
    )


def _wheel_anchor(pen: Pen) -> None:
    pen.circle((0.5, 0.5), 0.48, PAPER, INK, 0.05)
    _anchor(_sub(pen, (0.15, 0.15, 0.85, 0.85)), (20, 40, 90))


def _draw(name: str, pen: Pen) -> None:
    if name in _HULL:
        _hull(pen, name)
    elif name.startswith("mast_"):
        crest = name[5:]
        _mast(pen, None if crest == "any" else crest)
    elif name.startswith("sail_"):
        crest = name[5:]
        _sail(pen, None if crest == "any" else crest)
    elif name.startswith("medal_"):
        _medal(pen, name[6:], (0.03, 0.03, 0.97, 0.97))
    elif name.startswith("crest_"):
        crest = name[6:]
        CREST_DRAW[crest](pen, CREST_COLOR[crest])
    elif name in GOOD_DRAW:
        GOOD_DRAW[name](pen)
    elif name == "good_any":
        _crate(pen)
    elif name.startswith("player_"):
        _player(pen, int(name[7:]))
    elif name == "worker":
        _worker(pen, (222, 178, 118))
    elif name == "blue_worker":
        _worker(pen, (50, 110, 225))
    elif name == "blue_empty":
        pen.poly(
            [(0.18, 0.96), (0.36, 0.42), (0.64, 0.42), (0.82, 0.96)], None, (150, 160, 180), 0.05
        )
        pen.circle((0.5, 0.26), 0.18, None, (150, 160, 180), 0.05)
    elif name == "taler":
        _taler(pen)
    elif name == "crown":
        _crown(pen, CREST_COLOR["crown"])
    elif name == "finished":
        _check(pen)
    elif name == "start":
        _flag(pen)
    elif name == "pass_flipped":
        _pass_flipped(pen)
    elif name == "anchor_tile":
        _anchor_tile(pen)
    elif name == "wheel_anchor":
        _wheel_anchor(pen)
    elif name == "act_money":
        _money(pen)
    elif name == "act_transport":
        _transport(pen)
    elif name == "act_deliver":
        _deliver(pen)
    elif name == "act_crowns":
        _crown(pen, CREST_COLOR["crown"])
    else:
        raise KeyError(f"no icon named {name!r}")


@lru_cache(maxsize=1024)
def icon(name: str, size: int) -> Image.Image:
    """The RGBA icon `name` in a `size`-px square (cached)."""
    pen = Pen(size)
    _draw(name, pen)
    return pen.result(size)
