"""Golden pictures, compared block by block so that a font-hinting change passes and a missing
tile does not.

The views are stored as JSON next to the pictures, so the goldens depend on the renderer only.
To regenerate after a deliberate change of the pictures, run

    RENDER_GOLDEN_UPDATE=1 pytest tests/render/test_golden.py

then look at every file in tests/render/golden/ before committing them.
"""

from __future__ import annotations

import copy
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from render import Picture
from render.nauticus import board, score_sheet, shipyard

GOLDEN = Path(__file__).parent / "golden"
BLOCK = 32
TOLERANCE = 10.0  # mean absolute difference per channel within one block, in levels of 255
UPDATE = os.environ.get("RENDER_GOLDEN_UPDATE") == "1"


def _view(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.view.json").read_text())
    return data


CASES: dict[str, tuple[str, Callable[[dict[str, Any]], Picture]]] = {
    "board_late": ("late_game", board),
    "shipyard_late_seat2": ("late_game", lambda v: shipyard(v, 1)),
    "shipyard_late_seat4": ("late_game", lambda v: shipyard(v, 3)),
    "scores_final": ("final", score_sheet),
}


def worst_block(a: Image.Image, b: Image.Image) -> tuple[float, tuple[int, int]]:
    """The largest per-block mean difference of two same-size pictures, and where it is."""
    assert a.size == b.size, (a.size, b.size)
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst, where = 0.0, (0, 0)
    for y in range(0, a.height, BLOCK):
        for x in range(0, a.width, BLOCK):
            block = diff.crop((x, y, min(x + BLOCK, a.width), min(y + BLOCK, a.height)))
            mean = sum(ImageStat.Stat(block).mean) / 3
            if mean > worst:
                worst, where = mean, (x, y)
    return worst, where


def _decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("case", sorted(CASES))
def test_picture_matches_its_golden_block_by_block(case: str) -> None:
    view_name, draw = CASES[case]
    pic = draw(_view(view_name))
    path = GOLDEN / f"{case}.png"
    if UPDATE:
        path.write_bytes(pic.data)
    worst, where = worst_block(_decode(pic.data), Image.open(path))
    assert worst <= TOLERANCE, f"{case}: block at {where} differs by {worst:.1f}"


def test_a_missing_one_ship_tile_fails_the_comparison() -> None:
    # The tolerance must be tight enough to catch a lost tile: seat 2's lone one-ship (#2).
    view = _view("late_game")
    changed = copy.deepcopy(view)
    ship = changed["players"][1]["ships"][1]
    assert [t["hull"] for t in ship["tiles"]] == ["one_ship"]
    ship["tiles"] = []
    ship["size"] = 0
    worst, _ = worst_block(
        _decode(shipyard(changed, 1).data), Image.open(GOLDEN / "shipyard_late_seat2.png")
    )
    assert worst > TOLERANCE


def test_a_changed_price_fails_the_comparison() -> None:
    view = _view("late_game")
    changed = copy.deepcopy(view)
    paid = next(s for s in changed["spaces"] if s["paid"])
    paid["items"][0]["price"] = (paid["items"][0]["price"] + 1) % 4
    worst, _ = worst_block(_decode(board(changed).data), Image.open(GOLDEN / "board_late.png"))
    assert worst > TOLERANCE
