"""A Pillow image that records what is drawn on it, the bundled font, and encoding.

Every text and icon goes through `Canvas`, so the list of marks a picture carries is exactly what
was drawn: tests compare it with the view (completeness), with the picture's width (the
12-px-at-400-px rule) and with each other (no text overlaps another).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

from PIL import Image, ImageDraw, ImageFont

from render.text import fit

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

Color = tuple[int, int, int]
Box = tuple[int, int, int, int]
Format = Literal["png", "webp"]

# A number or label must stay >= 12 px tall once the picture is scaled to this width (issue 3).
PREVIEW_WIDTH = 400
MIN_PREVIEW_PX = 12
# Size rules of every picture (issue 3).
MAX_SIDE = 1600
MIN_ASPECT = 3 / 4
MAX_ASPECT = 16 / 9
MAX_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing drawn: `key` names what it stands for, `value` is the text or the icon's name."""

    key: str
    value: str
    box: Box
    font_px: int = 0  # 0 for an icon or an area
    kind: str = "icon"  # "text", "icon", or "area" (a state shown by colour or a frame)

    @property
    def is_text(self) -> bool:
        return self.kind == "text"


@dataclass(frozen=True, slots=True)
class Picture:
    """An encoded picture, its plain-text summary and the record of what it shows."""

    data: bytes
    filename: str
    alt_text: str
    width: int
    height: int
    drawn: tuple[Mark, ...]


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    # The only file the renderer reads, once per process.
    return resources.files("render").joinpath("fonts/DejaVuSans-Bold.ttf").read_bytes()


@lru_cache(maxsize=64)
def font(px: int) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans Bold at `px` pixels (em size)."""
    return ImageFont.truetype(io.BytesIO(_font_bytes()), px)


@lru_cache(maxsize=4096)
def _text_mask(text: str, px: int) -> tuple[Image.Image, int, int]:
    """Anti-aliased coverage mask of `text`, with the offset of its ink from the origin."""
    f = font(px)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="ls"))
    w, h = max(1, right - left), max(1, bottom - top)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="ls")
    return mask, left, top


@lru_cache(maxsize=1024)
def _text_ink(text: str, px: int, color: Color) -> tuple[ImagingCore, int, int, int, int]:
    """`text` at `px` as an RGBA image of `color` whose alpha is its mask (Pillow's core image),
    the offset of its ink from the origin, and its size.

    Pasted through its own alpha, it gives exactly the pixels of `color` pasted through the
    mask (Pillow blends both with one formula) in about half the time: Pillow's paste of a
    colour through an "L" mask tests the image's mode for every channel of every pixel. A
    replay draws ~3,000 texts of ~150 (text, size, colour): cached, ~1 MB."""
    mask, left, top = _text_mask(text, px)
    ink = Image.new("RGBA", mask.size, color)
    ink.putalpha(mask)
    return ink.im, left, top, mask.width, mask.height


@lru_cache(maxsize=4096)
def _metrics(text: str, px: int) -> tuple[float, int, int]:
    """Advance width, ascent and descent of `text` at `px` (cached: FreeType layout is slow)."""
    f = font(px)
    asc, desc = f.getmetrics()
    return f.getlength(text), asc, desc


def text_width(text: str, px: int) -> float:
    """The advance width of `text` at `px`, as `font(px).getlength` (cached: layouts that
    measure the same labels in every picture, and a replay's every frame, ask it again)."""
    return _metrics(text, px)[0]


class Canvas:
    """An RGB image plus the marks drawn on it.

    `record` False: the marks are not kept (a replay's frames, whose marks nobody reads: a
    replay draws ~6,000 texts and icons, and building their marks was ~0.5 % of its work)."""

    def __init__(self, base: Image.Image, marks: list[Mark] | None = None) -> None:
        if base.mode != "RGB":
            # A text is pasted as an RGBA ink through its own alpha (`_text_ink`): over an image
            # with an alpha channel that would blend the ink's alpha into the image's.
            raise ValueError(f"a canvas draws on an RGB image, not {base.mode}")
        self.im = base
        self.draw = ImageDraw.Draw(self.im)
        self.marks: list[Mark] = list(marks or [])
        self.record = True

    @classmethod
    def blank(cls, size: tuple[int, int], color: Color) -> Canvas:
        return cls(Image.new("RGB", size, color))

    @property
    def width(self) -> int:
        return self.im.width

    @property
    def height(self) -> int:
        return self.im.height

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        px: int,
        color: Color,
        *,
        key: str = "label",
        anchor: str = "ls",
    ) -> Box:
        """Draw `text` with its anchor point at `xy` (Pillow anchors: l/m/r + a/m/s/d).

        The box recorded is the line box (ascent to descent) over the advance width, so that
        two texts placed one line apart never count as overlapping.
        """
        adv, asc, desc = _metrics(text, px)
        x, y = xy
        h, v = anchor[0], anchor[1]
        x0 = x - (adv / 2 if h == "m" else adv if h == "r" else 0)
        if v == "s":
            base = y
        elif v == "m":
            base = y + (asc - desc) / 2
        elif v == "a":
            base = y + asc
        elif v == "d":
            base = y - desc
        else:
            raise ValueError(f"unknown vertical anchor {v!r}")
        ink, left, top, mw, mh = _text_ink(text, px, color)
        ix, iy = round(x0 + left), round(base + top)
        # Pillow's own paste, without `Image.paste`'s checks (the canvas's image is loaded and
        # writable since its `ImageDraw`; the ink is an RGBA image drawn here): a replay draws
        # ~3,000 texts, and those checks were a tenth of each.
        self.im.im.paste(ink, (ix, iy, ix + mw, iy + mh), ink)
        box = (int(x0), int(base - asc), round(x0 + adv), round(base + desc))
        if self.record:
            self.marks.append(Mark(key, text, box, px, "text"))
        return box

    def icon(self, xy: tuple[int, int], img: Image.Image, *, key: str, value: str) -> Box:
        """Paste an RGBA icon with its top-left corner at `xy`."""
        x, y = xy
        w, h = img.size
        box = (x, y, x + w, y + h)
        # As `text`: Pillow's paste of an RGBA image through its own alpha, without the checks
        # (the icons are drawn in memory, so always loaded).
        core = img.im
        self.im.im.paste(core, box, core)
        if self.record:
            self.marks.append(Mark(key, value, box))
        return box

    def area(self, box: Box, *, key: str, value: str) -> None:
        """Record a state drawn as a frame or a fill (flipped tile, current space, winner)."""
        if self.record:
            self.marks.append(Mark(key, value, box, 0, "area"))

    def paste(self, xy: tuple[int, int], img: Image.Image) -> None:
        """Paste decoration that stands for nothing by itself (frames, water, hatching)."""
        self.im.paste(img, xy, img if img.mode == "RGBA" else None)

    def picture(
        self, filename: str, alt_text: str, fmt: Format = "png", *, quality: int = 80
    ) -> Picture:
        sink = _frames.get()
        if sink is not None and fmt == "png":
            # Inside `frames()`: keep the 256-colour image the PNG would hold, unencoded.
            sink.append(quantize(self.im))
            data = b""
        else:
            data = encode(self.im, fmt, quality=quality)
        return Picture(
            data=data,
            filename=f"{filename}.{fmt}",
            alt_text=fit(alt_text),
            width=self.width,
            height=self.height,
            drawn=tuple(self.marks),
        )


def encode(im: Image.Image, fmt: Format = "png", *, quality: int = 80) -> bytes:
    """Encode for upload: a 256-colour PNG (compress_level 1, of `quantize`) or an RGB WebP
    (method 2)."""
    buf = io.BytesIO()
    if fmt == "webp":
        (im if im.mode == "RGB" else im.convert("RGB")).save(buf, "WEBP", quality=quality, method=2)
    else:
        quantize(im).save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def quantize(im: Image.Image) -> Image.Image:
    """The 256-colour ("P" mode) image a PNG picture holds.

    The pictures are flat colours plus anti-aliased edges, which a 256-colour palette keeps
    intact. The palette is taken from a quarter-size copy (the octree is the slow part of
    quantizing) and then mapped onto the full picture: a quarter of an RGB PNG's time (whose
    per-row filtering costs more than its compression) and a third of its size.
    """
    if im.mode != "RGB":
        im = im.convert("RGB")
    none = Image.Dither.NONE
    pal = im.reduce(4).quantize(256, method=Image.Quantize.FASTOCTREE, dither=none)
    return im.quantize(palette=pal, dither=none)


# The list `frames()` collects into, in this thread or task; None outside it.
_frames: ContextVar[list[Image.Image] | None] = ContextVar("render_frames", default=None)


@contextmanager
def frames() -> Iterator[list[Image.Image]]:
    """Collect, instead of encoding them, the PNG pictures drawn inside the block.

    Yields a list that receives each picture's 256-colour image (`quantize`, exactly what its
    PNG would hold) as it is drawn; the pictures themselves come back with empty `data`. For
    an animation (the replay GIF): its frames go to the GIF encoder as they are, instead of
    being encoded to PNG, decoded and encoded again. WebP pictures are encoded as usual.
    """
    got: list[Image.Image] = []
    token = _frames.set(got)
    try:
        yield got
    finally:
        _frames.reset(token)


def min_font_px(width: int) -> int:
    """Smallest font size that stays >= 12 px at the 400-px preview of a `width`-px picture."""
    return -(-MIN_PREVIEW_PX * width // PREVIEW_WIDTH)


def num(n: int) -> str:
    """A number as drawn: a true minus sign, which reads better than a hyphen."""
    return f"−{-n}" if n < 0 else str(n)
