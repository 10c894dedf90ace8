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
  palette index, and a block redrawn pastes its indices as they are;
- maps and writes, of a part drawn again, only the box of its pixels that changed (compared
  in RGB with the part as last drawn): a third of the parts' pixels, so mapping and finding
  the unchanged pixels cost a third of what they did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

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
# The palette's colours; the entry after them is the GIF's "unchanged" (transparent) pixel.
COLOURS = 255
CLEAR = COLOURS
UNCHANGED = [255] + [0] * 255  # a difference of palette entries -> a mask of the unchanged
NO_DITHER = int(Image.Dither.NONE)


Where = tuple[int, int]  # a part: (-1, k) the board's k-th, (seat, k) a block's k-th row
# (which, key, box, background: an image and the box to take from it or None for the plain
# background, draw on the frame's canvas)
Part = tuple[Where, str, Box, tuple[Image.Image, Box] | None, Callable[[Canvas], None]]


def block_heights(views: Sequence[dict[str, Any]]) -> list[int]:
    """Each seat's block height in the frames: the tallest it is in any of `views`, so that the
    frames of one replay all have one size and a block never moves."""
    seats = len(views[0]["players"])
    return [max(block_height(v["players"][s], SHIPS_BUDGET) for v in views) for s in range(seats)]


class Frames:
    """Draws the frames of one replay, in order (see the module's docstring).

    `views` are the public views of every frame (they fix the frame's size and palette). Ask
    for the frames in order, from 0, each once, one way or the other: `frame(i)` is frame `i`
    whole, a "P" image whose palette is the same for every frame; `delta(i)` is what changed
    since frame `i - 1`, for the GIF writer.
    """

    clear = CLEAR  # a delta's unchanged pixels

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
        # most ship parts, goods and crests; the first the most supply), at a quarter size. 255
        # colours: the last entry is left for the GIF's "unchanged" pixels.
        first, last = self._full(self.views[0]), self._full(self.views[-1])
        # Each reduced alone, then side by side: the same pixels as the two side by side
        # reduced (WIDTH is a multiple of 4, so no 4 x 4 block straddles them), without a
        # full-size copy of both.
        quarters = first.reduce(4), last.reduce(4)
        sample = Image.new("RGB", (2 * quarters[0].width, quarters[0].height))
        sample.paste(quarters[0], (0, 0))
        sample.paste(quarters[1], (quarters[0].width, 0))
        none = Image.Dither.NONE
        self.palette = sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=none)
        # Exactly COLOURS entries (a plainer picture gets fewer), so that CLEAR is the first
        # entry past them whatever the game: the padding repeats a colour the palette has.
        rgb = self.palette.getpalette() or [0, 0, 0]
        self.palette.putpalette(rgb + rgb[-3:] * (COLOURS - len(rgb) // 3))
        # The frame being built, in RGB (what the parts are drawn on) and mapped to the
        # palette; the key each part was last drawn with: the first frame's, drawn above. The
        # last frame, drawn above too, gives its parts when their turn comes.
        self.rgb = Canvas(first)
        self.rgb.record = False  # a replay keeps no record of what is drawn
        self.last = last
        self.screen = self._map(first)
        self.keys = {where: key for where, key, _, _, _ in self._parts(self.views[0])}
        # Each part's RGB as last drawn (to find the pixels a new drawing changes) and its
        # background, kept once a part is drawn again.
        self.drawn: dict[Where, ImagingCore] = {}
        self.under: dict[Where, Image.Image] = {}
        self._next = 0

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

    def _parts(self, view: dict[str, Any]) -> Iterator[Part]:
        """Every part of the frame: (which, key, box, its background, how to draw it)."""
        for k, (box, key, draw) in enumerate(parts(view, self.names)):
            yield (-1, k), key, box, (self.base, box), draw
        storage = (w("Storage"),)
        for seat, top in enumerate(self.tops):
            budget = self.heights[seat] - HEAD_H - 16
            head = _head(seat, storage)[0]
            for k, ((y0, y1), key, paint) in enumerate(rows(view, seat, budget, self.names)):
                box = (0, top + y0, WIDTH, top + y1)
                # The head rows lie on the block's unchanging head, the ships on the background.
                under = (head, (0, y0, WIDTH, y1)) if y1 <= HEAD_H else None
                yield (seat, k), key, box, under, _at(paint, top)

    def _update(self, i: int, keep: bool) -> list[tuple[ImagingCore, Box]]:
        """Draw frame `i` over frame `i - 1`: each part whose key changed, on its background;
        the box of its pixels that changed mapped to the palette and pasted on `screen`.
        Returns, if `keep`, those pieces (their unchanged pixels CLEAR) and their boxes.

        The pieces go through Pillow's core images (`Image.im`) rather than `Image`: a replay
        maps ~400 pieces, each in ~8 steps, and `Image`'s checks, wrappers and palette copies
        (and `point`'s rounding of its 256 entries) cost about as much as the small pieces'
        pixels themselves."""
        if i != self._next:
            raise ValueError(f"frame {i} asked for, but frame {self._next} is next")
        self._next += 1
        if i == 0:
            return []
        pieces = []
        screen, palette = self.screen.im, self.palette.im
        # The last frame was drawn whole for the palette: its parts are taken from it.
        final = self.last.im if i == len(self.views) - 1 else None
        for where, key, box, under, draw in self._parts(self.views[i]):
            if self.keys[where] == key:
                continue
            self.keys[where] = key
            # The part as the previous frame shows it: as last drawn, or as the first frame.
            old = self.drawn.get(where)
            if old is None:
                old = self.rgb.im.im.crop(box)
            new = final.crop(box) if final is not None else self._draw(where, box, under, draw)
            self.drawn[where] = new
            # Only the pixels that changed are mapped and written: a part drawn again (a
            # shipyard row for one number, the players' box for the current player) changes
            # a third of its box on average.
            moved = new.chop_difference(old).getbbox(False)
            if moved is None:
                continue
            x, y = box[:2]
            at = (x + moved[0], y + moved[1], x + moved[2], y + moved[3])
            piece = new.crop(moved).convert("P", NO_DITHER, palette)
            if keep:
                # Its pixels that keep their palette entry: transparent, for a smaller GIF.
                same = piece.chop_difference(screen.crop(at)).point(UNCHANGED, "1")
                screen.paste(piece, at)
                piece.paste(CLEAR, (0, 0, *piece.size), same)
                pieces.append((piece, at))
            else:
                screen.paste(piece, at)
        return pieces

    def _draw(
        self,
        where: Where,
        box: Box,
        under: tuple[Image.Image, Box] | None,
        draw: Callable[[Canvas], None],
    ) -> ImagingCore:
        """Draw a part on its background, on the frame's RGB canvas; returns its pixels."""
        c = self.rgb
        if under is None:
            c.im.paste(P.BG, box)
        else:
            back = self.under.get(where)
            if back is None:
                back = self.under[where] = under[0].crop(under[1])
            c.im.paste(back, box[:2])
        draw(c)
        pixels: ImagingCore = c.im.im.crop(box)
        return pixels

    def frame(self, i: int) -> Image.Image:
        self._update(i, keep=False)
        return self.screen.copy()

    def delta(self, i: int) -> tuple[Image.Image, Box] | None:
        """Frame `i` as the GIF shows it over frame `i - 1`: the box around every changed
        piece of a part drawn again, "P" with the palette, its pixels that keep their entry
        `CLEAR` (transparent); frame 0 whole. None if nothing changed.

        Compared part by part rather than frame by frame: two 800 x 2,456 frames compared pixel
        by pixel (to make the unchanged ones transparent) took a fifth of the replay's time;
        the parts drawn again are a third of a frame or less.
        """
        pieces = self._update(i, keep=True)
        if i == 0:
            return self.screen.copy(), (0, 0, *self.size)
        if not pieces:
            return None
        x0 = min(b[0] for _, b in pieces)
        y0 = min(b[1] for _, b in pieces)
        x1 = max(b[2] for _, b in pieces)
        y1 = max(b[3] for _, b in pieces)
        out = Image.new("P", (x1 - x0, y1 - y0), CLEAR)
        out.putpalette(self.palette.getpalette() or [])
        for piece, (bx0, by0, bx1, by1) in pieces:
            out.im.paste(piece, (bx0 - x0, by0 - y0, bx1 - x0, by1 - y0))
        return out, (x0, y0, x1, y1)


def _at(paint: Callable[[Canvas, int], None], top: int) -> Callable[[Canvas], None]:
    """A block's part drawn with the block's top at `top`."""
    return lambda c: paint(c, top)


__all__ = ["Frames", "block_heights"]
