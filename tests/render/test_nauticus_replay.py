"""The frames of a Nauticus replay (`render.nauticus.replay`): the board and every shipyard.

A frame is drawn part by part (only the parts whose view changed are drawn again), so each test
compares it with the same moment drawn whole by the posts' own functions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.ai.evaluate import _nauticus_rollout
from engine.nauticus import RULES as rules
from engine.nauticus.view import view
from render import palette as P
from render.canvas import Canvas
from render.nauticus.board_pic import draw_board, height
from render.nauticus.replay import GAP, SHIPS_BUDGET, Frames, block_heights
from render.nauticus.shipyard_pic import HEAD_H, WIDTH, block_height, draw_block
from render.seats import Shown

NAMES = ("Ana", "Ben", "Cléo", "Dev")


def phase_views(players: int, seed: int, *, builders: bool) -> list[dict[str, Any]]:
    """The public view at the start and after every action phase of one whole game, played by
    uniform random players or by the AI's rollout policy (which builds ships)."""
    rng = random.Random(seed)
    state = rules.new_game(players, seed)
    views = [view(state, None)]
    unit = (state.round, state.phase)
    while not rules.is_over(state):
        seat = rules.current(state)
        assert seat is not None
        moves = rules.legal_moves(state, seat)
        move = _nauticus_rollout(state, seat, moves, rng) if builders else rng.choice(moves)
        state, _ = rules.apply(state, seat, move)
        if (state.round, state.phase) != unit or rules.is_over(state):
            views.append(view(state, None))
            unit = (state.round, state.phase)
    return views


def whole(v: dict[str, Any], frames: Frames) -> Image.Image:
    """The frame's moment drawn whole, in RGB, by the posts' own functions."""
    names = NAMES[: len(v["players"])]
    im = Image.new("RGB", frames.size, P.BG)
    im.paste(draw_board(v, names).im, (0, 0))
    for seat, (top, h) in enumerate(zip(frames.tops, frames.heights, strict=True)):
        c = Canvas.blank((WIDTH, h), P.BG)
        draw_block(c, v, seat, 0, h - HEAD_H - 16, Shown(names, None))
        im.paste(c.im, (0, top))
    return im


GAMES = [(4, 1, False), (4, 3, True), (3, 2, True), (2, 5, True)]


@pytest.mark.parametrize(("players", "seed", "builders"), GAMES)
def test_each_frame_is_the_board_above_every_shipyard_as_drawn_whole(
    players: int, seed: int, builders: bool
) -> None:
    views = phase_views(players, seed, builders=builders)
    assert len(views) == {2: 4, 3: 5, 4: 5}[players] * 7 + 1
    frames = Frames(views, NAMES[:players])
    # The board on top, then one block a seat, each as tall as it gets in the game.
    heights = [
        max(block_height(v["players"][s], SHIPS_BUDGET) for v in views) for s in range(players)
    ]
    assert frames.heights == heights == block_heights(views)
    assert frames.size == (WIDTH, height(players) + GAP + sum(heights))
    assert frames.tops[0] == height(players) + GAP
    if builders:
        # Ships were built: the blocks are taller than an empty shipyard's.
        assert max(heights) > HEAD_H + 48 + 16
    palette = None
    for i, v in enumerate(views):
        got = frames.frame(i)
        assert got.mode == "P" and got.size == frames.size
        # One palette for the whole replay.
        palette = palette or got.getpalette()
        assert got.getpalette() == palette
        # Drawn part by part, it is exactly the moment drawn whole, mapped to that palette.
        want = whole(v, frames)
        mapped = want.quantize(palette=frames.palette, dither=Image.Dither.NONE)
        assert got.tobytes() == mapped.tobytes(), f"frame {i}"
        # And the palette keeps the picture's colours: few pixels move by more than a shade.
        diff = ImageChops.difference(got.convert("RGB"), want).convert("L")
        hist = diff.histogram()
        assert sum(hist[24:]) < 0.003 * frames.size[0] * frames.size[1], f"frame {i}"


def test_a_shipyard_that_changed_changes_its_block_and_only_that() -> None:
    views = phase_views(4, 3, builders=True)
    frames = Frames(views, NAMES)
    shots = [frames.frame(i) for i in range(len(views))]
    changed_blocks = 0
    for i in range(1, len(views)):
        for seat, (top, h) in enumerate(zip(frames.tops, frames.heights, strict=True)):
            box = (0, top, WIDTH, top + h)
            moved = ImageChops.difference(shots[i].crop(box), shots[i - 1].crop(box)).getbbox()
            before, now = views[i - 1], views[i]
            flag = [v["start_player"] == seat and v["step"] != "over" for v in (before, now)]
            same = before["players"][seat] == now["players"][seat] and flag[0] == flag[1]
            assert (moved is None) == same, (i, seat)
            changed_blocks += moved is not None
    # Most phases change a shipyard (a worker spent, taler earned): the blocks are really drawn.
    assert changed_blocks > len(views)


def test_the_frames_need_a_view() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        Frames([], NAMES)


def test_a_delta_holds_exactly_the_pixels_that_changed() -> None:
    # Each delta is cut to the pixels that changed (RGB) since the frame before, not to the
    # parts drawn again: its box is exactly the box of those pixels in the frames drawn whole,
    # and inside it every pixel keeping its palette entry is transparent, every other one is
    # the new frame's entry.
    views = phase_views(4, 3, builders=True)
    frames, deltas = Frames(views, NAMES), Frames(views, NAMES)
    assert deltas.clear == 255 and len(frames.palette.getpalette() or []) == 3 * 255
    before, before_rgb = frames.frame(0), whole(views[0], frames)
    first = deltas.delta(0)
    assert first is not None and first[1] == (0, 0, *frames.size)
    assert first[0].tobytes() == before.tobytes()
    for i in range(1, len(views)):
        now, now_rgb = frames.frame(i), whole(views[i], frames)
        got = deltas.delta(i)
        moved = ImageChops.difference(now_rgb, before_rgb).getbbox()
        assert moved is not None, i  # every action phase changes something shown
        assert got is not None and got[1] == moved, i
        kept = ImageChops.difference(now.crop(moved), before.crop(moved))
        want = now.crop(moved)
        want.paste(deltas.clear, mask=kept.point([255] + [0] * 255, "1"))
        assert got[0].tobytes() == want.tobytes(), i
        before, before_rgb = now, now_rgb


@pytest.mark.parametrize(("players", "seed", "builders"), GAMES[1:])
def test_the_parts_of_a_frame_never_overlap(players: int, seed: int, builders: bool) -> None:
    # A part drawn again is compared with its own last drawing to find the pixels that
    # changed: that holds only if no other part ever draws inside its box.
    views = phase_views(players, seed, builders=builders)
    frames = Frames(views, NAMES[:players])
    width, height = frames.size
    for i, v in enumerate(views):
        boxes = sorted(box for _, _, box, _, _ in frames._parts(v))
        assert len(boxes) == 12 + 4 * players, i  # round bar, 8 spaces, wheel, players, supply
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, (i, k)
            for a0, b0, a1, b1 in boxes[k + 1 :]:
                assert a0 >= x1 or a1 <= x0 or b0 >= y1 or b1 <= y0, (i, (x0, y0, x1, y1))
