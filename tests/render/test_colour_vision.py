"""Seat colours and Island's category colours stay apart for red-green colour blindness.

Each colour is passed through the Machado, Oliveira & Fernandes (2009) simulation matrices at
full severity (protanopia, deuteranopia), applied in linear RGB as the paper specifies, then
compared in CIELAB (D65). Every pair must stay at least MIN_DELTA_E units apart (CIE76
distance): 2.3 is the just-noticeable difference; 25 keeps two swatches obviously different
side by side and small, as a badge or a card's border is at the 400-px preview.
"""

from __future__ import annotations

import itertools
import math

import pytest

from render import palette as P
from render.island.icons import CATEGORY_COLOR

Rgb = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]

MIN_DELTA_E = 25.0
MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "normal vision": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}


def _linear(v: int) -> float:
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def seen_as(color: Rgb, vision: str) -> tuple[float, float, float]:
    """`color` in CIELAB as someone with `vision` sees it."""
    m = MACHADO[vision]
    lin = [_linear(v) for v in color]
    return _lab(
        (
            m[0][0] * lin[0] + m[0][1] * lin[1] + m[0][2] * lin[2],
            m[1][0] * lin[0] + m[1][1] * lin[1] + m[1][2] * lin[2],
            m[2][0] * lin[0] + m[2][1] * lin[1] + m[2][2] * lin[2],
        )
    )


def closest_pair(colors: dict[str, Rgb], vision: str) -> tuple[float, str, str]:
    return min(
        (math.dist(seen_as(a, vision), seen_as(b, vision)), ka, kb)
        for (ka, a), (kb, b) in itertools.combinations(colors.items(), 2)
    )


PALETTES: dict[str, dict[str, Rgb]] = {
    "seats": {f"seat {k + 1}": c for k, c in enumerate(P.PLAYER_COLOR)},
    "island categories": dict(CATEGORY_COLOR),
}


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("palette", list(PALETTES))
def test_every_pair_of_colours_stays_apart(palette: str, vision: str) -> None:
    gap, a, b = closest_pair(PALETTES[palette], vision)
    assert gap >= MIN_DELTA_E, f"{palette} under {vision}: {a} and {b} only {gap:.1f} apart"


def test_the_simulation_merges_what_red_green_blindness_merges() -> None:
    # The palette the issue was filed against: navigation red and clothing green 15 units apart
    # for deuteranopia (the test above fails on it), 48 apart for normal vision.
    old = {
        "clothing": (46, 140, 64),
        "navigation": (200, 44, 44),
        "repair": (40, 96, 200),
        "fishing": (128, 64, 168),
        "food": (236, 124, 24),
        "treasure": (236, 196, 30),
    }
    gap, a, b = closest_pair(old, "deuteranopia")
    assert (a, b) == ("clothing", "navigation") and 15.0 < gap < 16.0
    assert closest_pair({"r": old["navigation"], "g": old["clothing"]}, "normal vision")[0] > 45
    # Pure red and pure green are the textbook confusion pair; blue stays clear of both.
    red, green, blue = (255, 0, 0), (0, 140, 0), (0, 0, 255)
    for vision in ("protanopia", "deuteranopia"):
        assert math.dist(seen_as(red, vision), seen_as(green, vision)) < 20
    assert math.dist(seen_as(red, "deuteranopia"), seen_as(blue, "deuteranopia")) > 60
    # White stays white: the matrices keep the achromatic axis.
    assert math.dist(seen_as((255, 255, 255), "deuteranopia"), (100.0, 0.0, 0.0)) < 1.0
