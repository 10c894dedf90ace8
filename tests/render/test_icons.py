"""Art that tells things apart must do so without colour (UX.md, issue 3)."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageChops

from render.icons import icon

SIZE = 48
THRESHOLD = 32  # greyscale levels (of 255) for two pixels to count as different
GROUPS = {
    "crests": [f"crest_{c}" for c in ("whale", "anchor_ship", "helm", "tower", "crown")],
    "goods": ["coffee", "grain", "fish", "salt"],
    "players": [f"player_{s}" for s in range(4)],
    "masts": [f"mast_{c}" for c in ("whale", "anchor_ship", "helm", "tower", "crown")],
    "sails": [f"sail_{c}" for c in ("whale", "anchor_ship", "helm", "tower", "crown")],
    "hulls": ["bow", "middle", "stern", "one_ship"],
}


def grey(name: str) -> Image.Image:
    ic = icon(name, SIZE)
    flat = Image.new("RGB", ic.size, (255, 255, 255))
    flat.paste(ic, (0, 0), ic)
    return flat.convert("L")


def differing(a: str, b: str) -> float:
    diff = ImageChops.difference(grey(a), grey(b)).point(lambda v: 255 if v > THRESHOLD else 0)
    return diff.histogram()[255] / (SIZE * SIZE)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_icons_of_a_group_differ_in_greyscale_on_15_percent_of_pixels(group: str) -> None:
    for a, b in combinations(GROUPS[group], 2):
        assert differing(a, b) >= 0.15, (a, b, differing(a, b))


def test_the_measure_sees_a_missing_symbol() -> None:
    # A blank sail differs from a crested one by the crest alone; a measure that let two equal
    # icons pass, or that a crest does not move, would be useless.
    assert differing("sail_helm", "sail_helm") == 0
    assert differing("sail_any", "sail_helm") > 0.05


def test_icons_are_cached_and_transparent_outside_the_art() -> None:
    assert icon("coffee", 40) is icon("coffee", 40)
    ic = icon("fish", 40)
    assert ic.mode == "RGBA" and ic.size == (40, 40)
    assert ic.getpixel((0, 0))[3] == 0
