"""`Canvas.text` pastes a cached RGBA ink (its colour, the text's coverage as alpha): the pixels
must be exactly those of the colour pasted through the coverage mask, over any background."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from render.canvas import Canvas, _text_mask, font


def test_a_text_is_its_colour_pasted_through_its_mask_over_any_background() -> None:
    # A background of random pixels exercises every blend of ink and background. The same text
    # in two colours (a cache keyed without the colour would draw the second in the first), and
    # at two vertical anchors.
    size = (420, 130)
    background = Image.frombytes("RGB", size, random.Random(7).randbytes(size[0] * size[1] * 3))
    text, px = "Storage 12 Ana…", 22
    red, blue = (190, 30, 30), (40, 90, 200)
    ascent = font(px).getmetrics()[0]

    c = Canvas(background.copy())
    c.text((10, 40), text, px, red)  # anchor "ls": the baseline starts at (10, 40)
    c.text((12, 120), text, px, blue)
    c.text((10, 50), text, px, red, anchor="la")  # "la": the line's top at y = 50

    want = background.copy()
    mask, left, top = _text_mask(text, px)
    for (x, base), colour in (((10, 40), red), ((12, 120), blue), ((10, 50 + ascent), red)):
        want.paste(colour, (x + left, base + top), mask)
    assert c.im.tobytes() == want.tobytes()
    assert c.im.tobytes() != background.tobytes()


def test_a_canvas_that_keeps_no_record_draws_the_same_pixels_and_no_marks() -> None:
    # A replay's canvas (`record` False) skips the marks, not the drawing.
    pictures = []
    for record in (True, False):
        c = Canvas.blank((200, 60), (233, 226, 208))
        c.record = record
        c.text((10, 40), "Ana 12", 22, (25, 28, 36))
        badge = Image.new("RGBA", (16, 16), (190, 30, 30, 128))
        c.icon((150, 20), badge, key="p0", value="badge")
        c.area((0, 0, 200, 60), key="current", value="frame")
        pictures.append((c.im.tobytes(), [(m.key, m.value, m.kind) for m in c.marks]))
    (kept, marks), (unkept, none) = pictures
    assert kept == unkept
    assert marks == [
        ("label", "Ana 12", "text"),
        ("p0", "badge", "icon"),
        ("current", "frame", "area"),
    ]
    assert none == []


def test_a_canvas_draws_only_on_an_rgb_image() -> None:
    # Over an image with alpha, the RGBA ink would blend its alpha into the image's.
    with pytest.raises(ValueError, match="RGB image, not RGBA"):
        Canvas(Image.new("RGBA", (10, 10)))
