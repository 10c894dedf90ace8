"""Frames of a Nauticus replay: the board, and every player's shipyard below it, in one picture.

A replay is watched as one animation: a player wants to see the ships being built as well as
the board, so each frame stacks the board (exactly as a phase post draws it) and one shipyard
block per seat (as the shipyards picture draws them, its ships at a compact scale), all 800 px
wide, so every text keeps the size it has in the posts (>= 12 px when shown 400 px wide).

Drawing every shipyard again for each of the ~36 frames would double the replay's time, and
most action phases change one or two of four shipyards. So `Frames`:

- draws a shipyard block again only when what it shows changed (its player's part of the view,
  and whether that player holds the start flag), keeping the others' last image;
- maps every part onto one palette chosen once for the whole replay (from the first and the
  last frame), instead of choosing a palette per frame (the octree is the slow part of
  quantizing); the frames then share their palette, so the GIF writer compares frames by
  palette index, and a block redrawn pastes its indices as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from render import palette as P
from render.canvas import Box, Canvas
from render.nauticus.board_pic import _static, draw_board, parts
from render.nauticus.shipyard_pic import HEAD_H, WIDTH, _head, block_height, draw_block, rows
from render.seats import Shown
from render.words import w

# The ships' rows of a block in a replay frame get this much height: one row of ships at the
# second scale (46-px hull tiles), more rows or more ships at the smaller ones. Smaller than
# the shipyards picture's (which may use 56-px tiles) so that four blocks under the board keep
# the frame readable as a whole; every icon stays >= 24 px (12 px at the 400-px preview).
SHIPS_BUDGET = 166
GAP = 6  # between the board and the first block
# Index kept out of the palette: the GIF writer's "unchanged" (transparent) pixel.
COLOURS = 255


def block_heights(views: Sequence[dict[str, Any]]) -> list[int]:
    """Each seat's block height in the frames: the tallest it is in any of `views`, so that the
    frames of one replay all have one size and a block never moves."""
    seats = len(views[0]["players"])
    return [max(block_height(v["players"][s], SHIPS_BUDGET) for v in views) for s in range(seats)]


class Frames:
    """Draws the frames of one replay, in order (see the module's docstring).

    `views` are the public views of every frame (they fix the frame's size and palette);
    `frame(i)` returns frame `i` as a "P" image whose palette is the same for every frame.
    """

    def __init__(self, views: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
        if not views:
            raise ValueError("a replay has at least one frame")
        self.views = list(views)
        self.names = tuple(names)
        self.heights = block_heights(self.views)
        players = self.views[0]["players_count"]
        self.base = _static(players)[0]
        self.board_h = self.base.height
        self.tops: list[int] = []
        y = self.board_h + GAP
        for h in self.heights:
            self.tops.append(y)
            y += h
        self.size = (WIDTH, y)
        # The palette: from the first and the last frame, drawn in full (the last one has the
        # most ship parts, goods and crests; the first the most supply), at half size.
        first, last = self._full(self.views[0]), self._full(self.views[-1])
        sample = Image.new("RGB", (2 * WIDTH, self.size[1]))
        sample.paste(first, (0, 0))
        sample.paste(last, (WIDTH, 0))
        none = Image.Dither.NONE
        self.palette = sample.reduce(2).quantize(
            COLOURS, method=Image.Quantize.FASTOCTREE, dither=none
        )
        # The frame being built, in RGB (what the parts are drawn on) and mapped to the
        # palette; the key each part was last drawn with.
        self.rgb = Canvas(first)
        self.screen = self._map(first)
        self.keys: dict[tuple[int, int], str] = {}

    def _full(self, view: dict[str, Any]) -> Image.Image:
        """A frame drawn whole, in RGB."""
        im = Image.new("RGB", self.size, P.BG)
        im.paste(draw_board(view, self.names).im, (0, 0))
        for seat, top in enumerate(self.tops):
            h = self.heights[seat]
            c = Canvas.blank((WIDTH, h), P.BG)
            draw_block(c, view, seat, 0, h - HEAD_H - 16, Shown(self.names, None))
            im.paste(c.im, (0, top))
        return im

    def _map(self, im: Image.Image) -> Image.Image:
        return im.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def _redraw(self, box: Box, under: Image.Image, draw: Callable[[Canvas], None]) -> None:
        """Draw one part again: its background `under` (the size of `box`), the part, then its
        pixels mapped to the palette."""
        c = self.rgb
        c.im.paste(under, box[:2])
        c.marks = []  # a replay keeps no record of what is drawn
        draw(c)
        self.screen.paste(self._map(c.im.crop(box)), box[:2])

    def frame(self, i: int) -> Image.Image:
        view = self.views[i]
        for k, (box, key, draw) in enumerate(parts(view, self.names)):
            if self.keys.get((-1, k)) != key:
                self.keys[-1, k] = key
                self._redraw(box, self.base.crop(box), draw)
        storage = (w("Storage"),)
        for seat, top in enumerate(self.tops):
            budget = self.heights[seat] - HEAD_H - 16
            head = _head(seat, storage)[0]
            for k, ((y0, y1), key, paint) in enumerate(rows(view, seat, budget, self.names)):
                if self.keys.get((seat, k)) == key:
                    continue
                self.keys[seat, k] = key
                box = (0, top + y0, WIDTH, top + y1)
                if y1 <= HEAD_H:
                    under = head.crop((0, y0, WIDTH, y1))
                else:
                    under = Image.new("RGB", (WIDTH, y1 - y0), P.BG)
                self._redraw(box, under, _at(paint, top))
        return self.screen.copy()


def _at(paint: Callable[[Canvas, int], None], top: int) -> Callable[[Canvas], None]:
    """A block's part drawn with the block's top at `top`."""
    return lambda c: paint(c, top)


__all__ = ["Frames", "block_heights"]
