"""Who is who and what changed, drawn the same way in every game's pictures.

A picture seen alone (forwarded, in the gallery, in a replay) must say who is who: `short_name`
makes the name a seat's badge carries (the characters the bundled font can draw, cut to the room
there is, the seat number when nothing is left). `gain` draws the "+3" beside a number that moved
since the previous post, `outline_new` frames a card or tile that is new since then, and
`score_header` draws the column heads of every game's final score sheet.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from render import palette as P
from render.canvas import Box, Canvas, _font_bytes, font, num, text_width
from render.icons import icon

# A new card, tile or stack is framed in this colour: magenta is far from the seat colours, from
# the current-space gold and from every category colour, also under red-green colour blindness.
NEW: P.Color = (200, 30, 160)
UP: P.Color = P.GREEN
DOWN: P.Color = P.RED


@dataclass(frozen=True, slots=True)
class Shown:
    """What a picture needs besides its view: the seats' names (display names, any Unicode) and
    `before`, the view the previous post's pictures were drawn from (public for public pictures,
    the seat's own for its private ones), or None to mark nothing as changed."""

    names: Sequence[str] = ()
    before: Mapping[str, Any] | None = None


NOTHING = Shown()  # no names (seat numbers) and nothing marked as changed


@lru_cache(maxsize=1)
def _cmap() -> frozenset[int]:
    """The code points the bundled font has a glyph for (its Windows Unicode cmap subtable)."""
    data = _font_bytes()
    (tables,) = struct.unpack_from(">H", data, 4)
    cmap = next(
        off
        for tag, off in (
            (data[12 + 16 * k : 16 + 16 * k], struct.unpack_from(">I", data, 20 + 16 * k)[0])
            for k in range(tables)
        )
        if tag == b"cmap"
    )
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    subtables = [struct.unpack_from(">HHI", data, cmap + 4 + 8 * k) for k in range(count)]
    points: set[int] = set()
    for platform, encoding, off in subtables:
        at = cmap + off
        (fmt,) = struct.unpack_from(">H", data, at)
        if (platform, encoding, fmt) == (3, 10, 12):
            (groups,) = struct.unpack_from(">I", data, at + 12)
            for g in range(groups):
                start, end, _ = struct.unpack_from(">III", data, at + 16 + 12 * g)
                points.update(range(start, end + 1))
        elif (platform, encoding, fmt) == (3, 1, 4):
            (seg2,) = struct.unpack_from(">H", data, at + 6)
            ends = struct.unpack_from(f">{seg2 // 2}H", data, at + 14)
            starts = struct.unpack_from(f">{seg2 // 2}H", data, at + 16 + seg2)
            for start, end in zip(starts, ends, strict=True):
                if start != 0xFFFF:
                    points.update(range(start, end + 1))
    return frozenset(points)


def drawable(text: str) -> str:
    """`text` with the characters the font lacks left out (an emoji, a CJK name) and its runs
    of spaces made one."""
    have = _cmap()
    kept = "".join(ch for ch in text if ord(ch) in have and ch.isprintable())
    return " ".join(kept.split())


def short_name(names: Sequence[str], seat: int, px: int, room: int) -> str:
    """The name seat `seat` wears on a picture: what the font can draw of it, cut with '…' to
    `room` pixels at `px`; the seat number when no name is given or nothing of it is left."""
    name = drawable(names[seat]) if seat < len(names) else ""
    if not name:
        return str(seat + 1)
    if text_width(name, px) <= room:
        return name
    while name and text_width(name.rstrip() + "…", px) > room:
        name = name[:-1]
    name = name.rstrip()
    return f"{name}…" if name else str(seat + 1)


def name_tag(
    c: Canvas,
    xy: tuple[float, float],
    names: Sequence[str],
    seat: int,
    px: int,
    room: int,
    color: P.Color = P.INK,
    *,
    key: str,
    anchor: str = "lm",
) -> Box:
    """Draw seat `seat`'s short name (recorded as `key`, so tests find it) and return its box."""
    return c.text(xy, short_name(names, seat, px, room), px, color, key=key, anchor=anchor)


def gain(
    c: Canvas,
    xy: tuple[float, float],
    delta: int,
    px: int,
    *,
    key: str,
    anchor: str = "lm",
    chip: bool = False,
) -> Box | None:
    """Draw '+3' (green) or '−2' (red) for a number that moved since the previous post; nothing
    when it did not move. Recorded as `key` + '.gain'. `chip` puts it on a paper chip, for a
    number written on a seat's colour."""
    if not delta:
        return None
    text = f"+{delta}" if delta > 0 else num(delta)
    if chip:
        adv = font(px).getlength(text)
        x, y = xy
        x0 = x - (adv / 2 if anchor[0] == "m" else adv if anchor[0] == "r" else 0)
        c.draw.rounded_rectangle(
            (x0 - 5, y - px * 0.62, x0 + adv + 5, y + px * 0.62), radius=6, fill=P.PANEL
        )
    return c.text(xy, text, px, UP if delta > 0 else DOWN, key=f"{key}.gain", anchor=anchor)


def outline_new(c: Canvas, box: Box, *, key: str, width: int = 5, radius: int = 8) -> None:
    """Frame `box` as new since the previous post (recorded as an area `key`.new)."""
    x0, y0, x1, y1 = box
    c.draw.rounded_rectangle(
        (x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=radius, outline=NEW, width=width
    )
    c.area(box, key=f"{key}.new", value="new")


def tick_new(c: Canvas, x: int, cy: int, *, key: str, h: int = 22) -> None:
    """A short upright bar ending at `x`, beside a line of text that is new since the previous
    post (a frame would touch the lines above and below); recorded as an area `key`.new."""
    box = (x - 6, cy - h // 2, x - 1, cy + h // 2)
    c.draw.rounded_rectangle(box, radius=2, fill=NEW)
    c.area(box, key=f"{key}.new", value="new")


def score_header(
    c: Canvas,
    box: Box,
    seat: int,
    names: Sequence[str],
    px: int,
    *,
    badge: int = 32,
    key: str | None = None,
) -> None:
    """One seat's head of a final score sheet's column: its colour, its badge on a paper disc
    (so the symbol reads on the colour) and under it the short name in the ink the colour lets
    read (dark on yellow), as wide as the column."""
    x0, y0, x1, y1 = box
    pre = key or f"p{seat}"
    d = c.draw
    d.rectangle(box, fill=P.PLAYER_COLOR[seat])
    cx = (x0 + x1) // 2
    r = badge // 2 + 3
    top = y0 + 4
    d.ellipse((cx - r, top, cx + r, top + 2 * r), fill=P.PANEL)
    c.icon((cx - badge // 2, top + 3), icon(f"player_{seat}", badge), key=pre, value="badge")
    ink = P.INK if seat == 3 else P.PAPER  # yellow needs dark ink
    name_y = (top + 2 * r + y1) / 2 + 1
    name_tag(c, (cx, name_y), names, seat, px, x1 - x0 - 8, ink, key=f"{pre}.name", anchor="mm")
