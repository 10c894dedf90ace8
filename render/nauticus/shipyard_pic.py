"""Shipyards: each player's resources, storage, delivered goods and ships, tile by tile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image

from render import palette as P
from render.canvas import Canvas, Format, Mark, Picture, min_font_px, num, text_width
from render.icons import icon
from render.nauticus.text import shipyard_alt, shipyards_alt_uncut
from render.seats import NOTHING, Shown, gain, name_tag, outline_new
from render.words import w

WIDTH = 800
# Font sizes: the smallest stays 12 px tall when the picture is shown 400 px wide.
SMALL = min_font_px(WIDTH)
MEDIUM = SMALL + 4
BIG = SMALL + 8
MARGIN = 10

HEAD_H = 176  # the three rows above the ships: title, resources, storage
ROW_A, ROW_B, ROW_C = 30, 84, 142  # vertical centres of those rows within a block
UNIT = 44  # one storage unit
STORE_X = WIDTH - MARGIN - 8 - 12 * UNIT
EMPTY_SHIPS_H = 48
MIN_HEIGHT = 450  # 800 / 450 = 16:9
MAX_HEIGHT = 1066  # 800 / 1066 ≈ 3:4
GOODS = ("coffee", "grain", "fish", "salt")
PASS_X = 438  # the first pass tile
EXTRA_W = 176  # the extra-action tile, right of the three pass tiles


def c_len(text: str, px: int) -> int:
    return round(text_width(text, px))


# No icon under 24 px: 12 px at the 400-px preview, at every ship scale.
MIN_ICON = 24


@dataclass(frozen=True, slots=True)
class ShipGeometry:
    """Sizes of the ship art at one scale; the label row keeps its font size at every scale."""

    tile: int  # width of one hull tile

    @property
    def label_h(self) -> int:
        return 30

    @property
    def sail(self) -> int:
        return max(int(self.tile * 0.86), MIN_ICON)

    @property
    def mast(self) -> int:
        return max(int(self.tile * 0.86), MIN_ICON)

    @property
    def good(self) -> int:
        return max(int(self.tile * 0.6), MIN_ICON)

    @property
    def height(self) -> int:
        # label, sail, mast, hull (its drawn part is the middle 40% of its square), good
        return self.label_h + self.sail + self.mast + int(self.tile * 0.42) + self.good + 12

    def width(self, size: int) -> int:
        return max(size * self.tile + 16, 88)


SCALES = (ShipGeometry(56), ShipGeometry(46), ShipGeometry(38), ShipGeometry(30))
SHIP_GAP = 8


def _flow(sizes: list[int], geo: ShipGeometry, width: int) -> tuple[list[tuple[int, int]], int]:
    """Positions of ship boxes wrapping left to right, and the height they take."""
    x, y = 0, 0
    pos = []
    for size in sizes:
        w = geo.width(size)
        if x > 0 and x + w > width:
            x, y = 0, y + geo.height + SHIP_GAP
        pos.append((x, y))
        x += w + SHIP_GAP
    return pos, (y + geo.height if sizes else EMPTY_SHIPS_H)


def _ships_layout(
    player: dict[str, Any], budget: int
) -> tuple[ShipGeometry, list[tuple[int, int]], int]:
    """The largest ship scale whose rows fit in `budget` pixels (the smallest otherwise)."""
    sizes = [s["size"] for s in player["ships"]]
    inner = WIDTH - 2 * MARGIN - 8
    for geo in SCALES:
        pos, h = _flow(sizes, geo, inner)
        if h <= budget:
            return geo, pos, h
    geo = SCALES[-1]
    pos, h = _flow(sizes, geo, inner)
    return geo, pos, h


def block_height(player: dict[str, Any], budget: int = MAX_HEIGHT - HEAD_H - 16) -> int:
    return HEAD_H + _ships_layout(player, budget)[2] + 16


@lru_cache(maxsize=8)
def _head(seat: int, labels: tuple[str]) -> tuple[Image.Image, tuple[Mark, ...]]:
    """The unchanging part of a player's block: badge, label, empty storage units.
    `labels` is the word "Storage" in the language drawn: part of the cache key, so a French
    block is never reused for an English game."""
    c = Canvas.blank((WIDTH, HEAD_H), P.BG)
    d = c.draw
    d.rounded_rectangle((MARGIN, 4, WIDTH - MARGIN, HEAD_H - 4), radius=10, fill=P.PANEL)
    band = (MARGIN, 4, WIDTH - MARGIN, 56)
    d.rounded_rectangle(band, radius=10, fill=P.PLAYER_COLOR[seat])
    d.rectangle((MARGIN, 40, WIDTH - MARGIN, 56), fill=P.PLAYER_COLOR[seat])
    d.ellipse((MARGIN + 6, 8, MARGIN + 50, 52), fill=P.PANEL)
    c.icon((MARGIN + 10, 12), icon(f"player_{seat}", 36), key=f"p{seat}", value="badge")
    c.text((MARGIN + 12, ROW_C), labels[0], SMALL, P.INK, anchor="lm")
    for k in range(12):
        x = STORE_X + k * UNIT
        d.rectangle(
            (x, ROW_C - UNIT // 2, x + UNIT, ROW_C + UNIT // 2), fill=P.PAPER, outline=P.MUTED
        )
    d.rounded_rectangle((MARGIN, 4, WIDTH - MARGIN, HEAD_H - 4), radius=10, outline=P.INK, width=2)
    return c.im, tuple(c.marks)


def _header(c: Canvas, view: dict[str, Any], seat: int, y0: int, seen: Shown) -> None:
    head, marks = _head(seat, (w("Storage"),))
    c.im.paste(head, (0, y0))
    c.marks.extend(
        replace(m, box=(m.box[0], m.box[1] + y0, m.box[2], m.box[3] + y0)) for m in marks
    )
    _row_a(c, view, seat, y0, seen)
    _row_b(c, view, seat, y0, seen)
    _row_c(c, view, seat, y0, seen)


# The bands of a block's head each row draws inside, from the block's top.
BAND_A, BAND_B, BAND_C = (0, 57), (57, 113), (113, HEAD_H)
Row = tuple[tuple[int, int], str, Callable[[Canvas, int], None]]


def rows(view: dict[str, Any], seat: int, budget: int, names: Sequence[str] = ()) -> list[Row]:
    """The parts of a player's block that change independently: (band, key, draw).

    `band` is the rows (from the block's top; the ships' band ends where the block does) that
    `draw(c, y0)` draws inside, on `_head`'s picture for the three head rows and on the
    background for the ships; two views whose part has the same `key` draw it the same (with
    the same `names`). A replay (`render.nauticus.replay`) draws again only the parts whose key
    changed since its previous frame; `draw_block` draws them all.
    """
    p = view["players"][seat]
    seen = Shown(names, None)
    flag = view["start_player"] == seat and view["step"] != "over"
    head = repr((flag, p["score"], p["pass_tiles"], p["extra"]))
    stock = repr([p[k] for k in ("workers", "taler", "crowns", "delivered")])
    return [
        (BAND_A, head, lambda c, y0: _row_a(c, view, seat, y0, seen)),
        (BAND_B, stock, lambda c, y0: _row_b(c, view, seat, y0, seen)),
        (BAND_C, repr(p["storage"]), lambda c, y0: _row_c(c, view, seat, y0, seen)),
        (
            (HEAD_H, HEAD_H + budget + 16),
            repr(p["ships"]),
            lambda c, y0: _ships(c, view, seat, y0 + HEAD_H + 8, budget, seen),
        ),
    ]


def _row_a(c: Canvas, view: dict[str, Any], seat: int, y0: int, seen: Shown) -> None:
    """Name, start flag, score, pass tiles and the extra action."""
    p = view["players"][seat]
    was = seen.before["players"][seat] if seen.before is not None else None
    pre = f"p{seat}"
    ink = P.INK if seat == 3 else P.PAPER
    ya = y0 + ROW_A
    # The name, then the start flag, the score and what it gained, before the pass tiles.
    x = MARGIN + 60
    if view["start_player"] == seat and view["step"] != "over":
        d = c.draw
        d.ellipse((x - 4, ya - 20, x + 36, ya + 20), fill=P.PANEL)
        c.icon((x, ya - 16), icon("start", 32), key=pre, value="start")
        x += 44
    score = num(p["score"])
    vp = w("VP")
    moved = p["score"] - was["score"] if was is not None else 0
    right = PASS_X - 12 - c_len(score, BIG) - 6 - c_len(vp, SMALL)
    if moved:
        right -= c_len(f"+{moved}", MEDIUM) + 8
    room = min(230, right - 14 - x)
    box = name_tag(c, (x, ya + 2), seen.names, seat, MEDIUM, room, ink, key=f"{pre}.name")
    x = box[2] + 14
    box = c.text((x, ya + 2), score, BIG, ink, key=f"{pre}.score", anchor="lm")
    box = c.text((box[2] + 6, ya + 2), vp, SMALL, ink, anchor="lm")
    gain(c, (box[2] + 12, ya + 2), moved, MEDIUM, key=f"{pre}.score", chip=True)
    # Pass tiles in the order they are flipped; a flipped one shows its crown.
    x = PASS_X
    for k, t in enumerate(p["pass_tiles"]):
        bx = x + k * 52
        if t["flipped"]:
            c.icon((bx, ya - 22), icon("pass_flipped", 44), key=f"{pre}.pass.{k}", value="flipped")
        else:
            c.draw.rounded_rectangle(
                (bx, ya - 22, bx + 46, ya + 22), radius=5, fill=P.PANEL, outline=P.INK, width=2
            )
            c.text(
                (bx + 23, ya + 1), num(t["value"]), SMALL, P.RED, key=f"{pre}.pass.{k}", anchor="mm"
            )
    # The extra-action tile.
    ex = WIDTH - MARGIN - 8
    ready = p["extra"] == "ready"
    c.draw.rounded_rectangle(
        (ex - EXTRA_W, ya - 22, ex, ya + 22),
        radius=6,
        fill=(60, 150, 70) if ready else P.FLIPPED,
        outline=P.INK,
        width=2,
    )
    c.text(
        (ex - EXTRA_W // 2, ya + 1),
        w("Extra") if ready else w("Extra ✗"),
        SMALL,
        P.PAPER if ready else (200, 200, 205),
        anchor="mm",
    )
    c.area((ex - EXTRA_W, ya - 22, ex, ya + 22), key=f"{pre}.extra", value=p["extra"])


def _row_b(c: Canvas, view: dict[str, Any], seat: int, y0: int, seen: Shown) -> None:
    """Resources and delivered goods."""
    p = view["players"][seat]
    was = seen.before["players"][seat] if seen.before is not None else None
    pre = f"p{seat}"
    yb = y0 + ROW_B
    x = MARGIN + 10
    for name, field in (("worker", "workers"), ("taler", "taler"), ("crown", "crowns")):
        value = p[field]
        c.icon((x, yb - 18), icon(name, 36), key=f"{pre}.{name}", value=name)
        box = c.text((x + 40, yb + 1), num(value), BIG, P.INK, key=f"{pre}.{name}", anchor="lm")
        if was is not None:
            up = gain(c, (box[2] + 4, yb + 1), value - was[field], SMALL, key=f"{pre}.{name}")
            box = up or box
        x = max(box[2] + 18, x + 100)
    # The Deliver tile's picture heads the delivered goods, as on the board.
    c.draw.line((x, yb - 22, x, yb + 22), fill=P.MUTED, width=2)
    c.icon((x + 10, yb - 20), icon("act_deliver", 40), key="label", value="delivered")
    x += 62
    step = (WIDTH - MARGIN - 8 - x) // 4
    for g in GOODS:
        c.icon((x, yb - 17), icon(g, 34), key=f"{pre}.delivered.{g}", value=g)
        box = c.text(
            (x + 38, yb + 1),
            num(p["delivered"][g]),
            MEDIUM,
            P.INK,
            key=f"{pre}.delivered.{g}",
            anchor="lm",
        )
        if was is not None:
            moved = p["delivered"][g] - was["delivered"][g]
            gain(c, (box[2] + 2, yb + 1), moved, SMALL, key=f"{pre}.delivered.{g}")
        x += step


def _row_c(c: Canvas, view: dict[str, Any], seat: int, y0: int, seen: Shown) -> None:
    """Storage: 12 units, a mast spans two."""
    p = view["players"][seat]
    was = seen.before["players"][seat] if seen.before is not None else None
    pre = f"p{seat}"
    yc = y0 + ROW_C
    st = p["storage"]
    c.text(
        (MARGIN + 22 + c_len(w("Storage"), SMALL), yc + 1),
        f"{st['used']}/{st['capacity']}",
        MEDIUM,
        P.RED if st["used"] >= st["capacity"] else P.INK,
        key=f"{pre}.storage.used",
        anchor="lm",
    )
    u = 0
    # Items in storage that were not there at the previous post are framed as new.
    old = Counter(was["storage"]["items"]) if was is not None else Counter(st["items"])
    for item in _storage_order(st["items"]):
        units = 2 if item.startswith("mast_") else 1
        x = STORE_X + u * UNIT
        top = yc - UNIT // 2
        if old[item] > 0:
            old[item] -= 1
        else:
            outline_new(
                c, (x + 1, top + 1, x + units * UNIT - 1, top + UNIT - 1), key=f"{pre}.storage.{u}"
            )
        if units == 2:
            c.draw.rectangle(
                (x + 2, top + 2, x + 2 * UNIT - 2, top + UNIT - 2),
                fill=(236, 226, 204),
                outline=P.WOOD_DARK,
                width=2,
            )
            # A bare mast and its crest's medallion side by side: the crest at 40 px (14 px at
            # the 400-px preview) instead of inside a 40-px mast icon (8 px).
            c.paste((x + 4, top + 2), icon("mast_any", 40))
            c.icon(
                (x + UNIT + 0, top + 2),
                icon(f"medal_{item[5:]}", 40),
                key=f"{pre}.storage",
                value=item,
            )
        else:
            c.icon((x + 3, top + 3), icon(item, 40), key=f"{pre}.storage", value=item)
        u += units


def _storage_order(items: list[str]) -> list[str]:
    """Masts first: they are the ones that take two units, so they read as pairs of cells."""
    return sorted(items, key=lambda i: (not i.startswith("mast_"), i))


def _ship(
    c: Canvas,
    pre: str,
    ship: dict[str, Any],
    geo: ShipGeometry,
    xy: tuple[int, int],
    old: Mapping[str, Any] | None,
) -> None:
    """One ship; `old` is the same ship at the previous post ({} when it is new since, None
    when there is nothing to compare with): its new parts are framed."""
    x0, y0 = xy
    n = ship["index"] + 1
    w, h = geo.width(ship["size"]), geo.height
    finished = ship["finished"]
    c.draw.rounded_rectangle(
        (x0, y0, x0 + w, y0 + h),
        radius=8,
        fill=(226, 244, 228) if finished else P.PANEL,
        outline=P.GREEN if finished else P.MUTED,
        width=3 if finished else 2,
    )
    key = f"{pre}.ship.{n}"
    if old is not None and not old:
        outline_new(c, (x0, y0, x0 + w, y0 + h), key=key)
    old_tiles = list(old["tiles"]) if old else []
    box = c.text((x0 + 8, y0 + 4), f"#{n}", SMALL, P.INK, key=key, anchor="la")
    if finished:
        c.icon((box[2] + 6, y0 + 4), icon("finished", 24), key=key, value="finished")
    t = geo.tile
    ys = y0 + geo.label_h
    ym = ys + geo.sail
    yh = ym + geo.mast - int(t * 0.4)  # hull square's top, so its deck meets the mast foot
    yg = yh + int(t * 0.82)
    for k, tile in enumerate(ship["tiles"]):
        tx = x0 + 8 + k * t
        tk = f"{key}.{k}"
        if old:
            was = old_tiles[k] if k < len(old_tiles) else {}
            parts = [
                (part, top, size)
                for part, top, size in (
                    ("sail", ys, geo.sail),
                    ("mast", ym, geo.mast),
                    ("hull", yh + int(t * 0.3), int(t * 0.42)),
                    ("good", yg, geo.good),
                )
                if tile[part] and was.get(part) != tile[part]
            ]
            for part, top, size in parts:
                box = (tx + (t - size) // 2 if part != "hull" else tx, top, tx + t, top + size)
                if part != "hull":
                    box = (box[0], top, box[0] + size, top + size)
                outline_new(c, box, key=f"{tk}.{part}", width=3, radius=4)
        c.icon((tx, yh), icon(tile["hull"], t), key=f"{tk}.hull", value=tile["hull"])
        if tile["mast"]:
            c.icon(
                (tx + (t - geo.mast) // 2, ym),
                icon(f"mast_{tile['mast']}", geo.mast),
                key=f"{tk}.mast",
                value=tile["mast"],
            )
        if tile["sail"]:
            c.icon(
                (tx + (t - geo.sail) // 2, ys),
                icon(f"sail_{tile['sail']}", geo.sail),
                key=f"{tk}.sail",
                value=tile["sail"],
            )
        if tile["good"]:
            c.icon(
                (tx + (t - geo.good) // 2, yg),
                icon(tile["good"], geo.good),
                key=f"{tk}.good",
                value=tile["good"],
            )


def _ships(c: Canvas, view: dict[str, Any], seat: int, y0: int, budget: int, seen: Shown) -> None:
    p = view["players"][seat]
    olds: dict[int, Mapping[str, Any]] | None = None
    if seen.before is not None:
        olds = {s["index"]: s for s in seen.before["players"][seat]["ships"]}
    geo, pos, _ = _ships_layout(p, budget)
    if not p["ships"]:
        c.text(
            (MARGIN + 12, y0 + EMPTY_SHIPS_H // 2), w("No ships yet"), SMALL, P.MUTED, anchor="lm"
        )
    for ship, (x, y) in zip(p["ships"], pos, strict=True):
        old = None if olds is None else olds.get(ship["index"], {})
        _ship(c, f"p{seat}", ship, geo, (MARGIN + 4 + x, y0 + y), old)


def draw_block(
    c: Canvas, view: dict[str, Any], seat: int, y0: int, budget: int, seen: Shown = NOTHING
) -> None:
    _header(c, view, seat, y0, seen)
    _ships(c, view, seat, y0 + HEAD_H + 8, budget, seen)


def draw_shipyard(view: dict[str, Any], seat: int, seen: Shown = NOTHING) -> Canvas:
    p = view["players"][seat]
    budget = MAX_HEIGHT - HEAD_H - 16
    h = max(MIN_HEIGHT, block_height(p, budget))
    c = Canvas.blank((WIDTH, h), P.BG)
    draw_block(c, view, seat, 0, budget, seen)
    return c


def shipyard(
    view: dict[str, Any],
    seat: int,
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """One player's shipyard. `names` are the seats' names (the picture draws what its font can
    of each); `before` the view of the previous post: what changed since is marked (new tiles
    framed, '+3' beside the numbers that moved).

    Raises:
        IndexError: if `seat` is not a seat of this game.
    """
    if not 0 <= seat < len(view["players"]):
        raise IndexError(f"no seat {seat} in a {len(view['players'])}-player game")
    c = draw_shipyard(view, seat, Shown(names, before))
    return c.picture(f"shipyard-seat{seat + 1}", shipyard_alt(view, seat), fmt)


def shipyards(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> list[Picture]:
    """Every shipyard in one picture if it fits the size rules and its alt text fits Discord's
    limit uncut, otherwise one per player (`names` and `before` as for `shipyard`): a listener
    then hears every shipyard whole rather than a text cut short."""
    seen = Shown(names, before)
    players = view["players"]
    heights = [block_height(p) for p in players]
    total = sum(heights)
    alt = shipyards_alt_uncut(view) if total <= MAX_HEIGHT else None
    if alt is not None:
        c = Canvas.blank((WIDTH, max(MIN_HEIGHT, total)), P.BG)
        y = 0
        for seat, h in enumerate(heights):
            draw_block(c, view, seat, y, h - HEAD_H - 16, seen)
            y += h
        return [c.picture("shipyards", alt, fmt)]
    return [shipyard(view, s, names=names, before=before, fmt=fmt) for s in range(len(players))]
