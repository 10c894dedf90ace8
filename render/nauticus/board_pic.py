"""The board: 8 action spaces around the wheel, round track, players' scores, the supply."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render import palette as P
from render.canvas import Box, Canvas, Format, Mark, Picture, min_font_px, num, text_width
from render.icons import icon
from render.nauticus.text import board_alt
from render.seats import gain, name_tag, outline_new, short_name
from render.words import w, w_, wc

WIDTH = 800
# Font sizes: the smallest stays 12 px tall when the picture is shown 400 px wide.
SMALL = min_font_px(WIDTH)
MEDIUM = SMALL + 4
BIG = SMALL + 8
MARGIN = 10
CELL = 256  # width of a space's cell
CELL_H = 236
GAP = 6
TOP = 52  # height of the round bar
GRID_Y = TOP
PLAYERS_Y = GRID_Y + 3 * CELL_H + 2 * GAP + 8
PLAYERS_H = 58
SUPPLY_ROW = 50


def _player_rows(players: int) -> int:
    # Four boxes in one row leave no room for a three-digit negative score beside the flag.
    return 1 if players <= 3 else 2


def supply_y(players: int) -> int:
    rows = _player_rows(players)
    return PLAYERS_Y + rows * PLAYERS_H + (rows - 1) * GAP + 8


def height(players: int) -> int:
    return supply_y(players) + 2 * SUPPLY_ROW + 8


# Spaces 0..7 clockwise from the top-left corner; the wheel sits in the middle cell.
CELL_OF_SPACE: tuple[tuple[int, int], ...] = (
    (0, 0),
    (1, 0),
    (2, 0),
    (2, 1),
    (2, 2),
    (1, 2),
    (0, 2),
    (0, 1),
)
# Supply in two rows: hulls then masts; goods then sails.
SUPPLY_ROWS: tuple[tuple[str, ...], ...] = (
    ("bow", "middle", "stern", "one_ship", *(f"mast_{c}" for c in P.CREST_COLOR)),
    ("coffee", "grain", "fish", "salt", *(f"sail_{c}" for c in P.CREST_COLOR)),
)
ACTION_LABEL = {
    "hulls": w_("HULLS"),
    "masts": w_("MASTS"),
    "sails": w_("SAILS"),
    "goods": w_("GOODS"),
    "transport": w_("TRANSPORT"),
    "money": w_("MONEY"),
    "deliver": w_("DELIVER"),
    "crowns": w_("CROWNS"),
}


def _action_label(space: dict[str, Any]) -> str:
    label = ACTION_LABEL[space["action"]]
    return w(label)


def cell_box(space: int) -> Box:
    col, row = CELL_OF_SPACE[space]
    x = MARGIN + col * (CELL + GAP)
    y = GRID_Y + row * (CELL_H + GAP)
    return (x, y, x + CELL, y + CELL_H)


def _players_box(seat: int, count: int) -> Box:
    per_row = count if _player_rows(count) == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    x = MARGIN + (seat % per_row) * (w + GAP)
    y = PLAYERS_Y + (seat // per_row) * (PLAYERS_H + GAP)
    return (x, y, x + w, y + PLAYERS_H)


@lru_cache(maxsize=1)
def _flipped_tile() -> Image.Image:
    """A face-down action tile: grey with hatching inside its border, drawn once."""
    w, h = CELL - 16, 44
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=P.FLIPPED)
    hatch = Image.new("L", (w, h), 0)
    hd = ImageDraw.Draw(hatch)
    for k in range(-h, w, 16):
        hd.line((k, h, k + h, 0), fill=255, width=3)
    inside = Image.new("L", (w, h), 0)
    ImageDraw.Draw(inside).rounded_rectangle((2, 2, w - 3, h - 3), radius=5, fill=255)
    im.paste((118, 118, 126, 255), (0, 0), ImageChops.multiply(hatch, inside))
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, outline=P.INK, width=2)
    return im


@lru_cache(maxsize=8)
def _static(players: int) -> tuple[Image.Image, tuple[Mark, ...]]:
    """Everything that never changes during a game: panels, space numbers, bonuses, icons."""
    c = Canvas.blank((WIDTH, height(players)), P.BG)
    d = c.draw
    d.rectangle((0, 0, WIDTH, TOP - 6), fill=P.INK)
    for space in range(8):
        x0, y0, x1, y1 = cell_box(space)
        d.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=P.PANEL, outline=P.INK, width=2)
        d.ellipse((x0 + 6, y0 + 5, x0 + 44, y0 + 43), fill=P.INK)
        c.text((x0 + 25, y0 + 24), str(space), SMALL, P.PAPER, key=f"space.{space}", anchor="mm")
    for seat in range(players):
        x0, y0, x1, y1 = _players_box(seat, players)
        d.rounded_rectangle((x0, y0, x1, y1), radius=8, fill=P.PANEL, outline=P.INK, width=2)
        c.icon((x0 + 8, y0 + 11), icon(f"player_{seat}", 40), key=f"player.{seat}", value="badge")
    sy = supply_y(players)
    d.rounded_rectangle(
        (MARGIN, sy, WIDTH - MARGIN, sy + 2 * SUPPLY_ROW),
        radius=8,
        fill=P.PANEL,
        outline=P.INK,
        width=2,
    )
    return c.im, tuple(c.marks)


def _bonus(c: Canvas, space: dict[str, Any], x: int, y: int) -> None:
    """The start-player bonus, right of the space number: '+3 [worker]', '+1 [mast]'..."""
    i = space["index"]
    b = space["bonus"]
    parts: list[tuple[str, str | None]] = []
    if b["workers"]:
        parts.append((f"+{b['workers']}", "worker"))
    if b["taler"]:
        parts.append((f"+{b['taler']}", "taler"))
    if b["vp"]:
        parts.append((f"+{b['vp']}", None))
    if b["tile"]:
        parts.append(("+1", f"{b['tile']}_any" if b["tile"] != "good" else "good_any"))
    for text, ic in parts:
        kind = {"worker": "workers", "taler": "taler", None: "vp"}.get(ic, "tile")
        key = f"space.{i}.bonus.{kind}"
        box = c.text((x, y), text, MEDIUM, P.INK, key=key, anchor="lm")
        x = box[2] + 2
        if ic is None:
            box = c.text((x, y), w("VP"), SMALL, P.INK, anchor="lm")
            x = box[2] + 10
        else:
            # 30 px: 15 px at the 400-px preview, and room for the anchor tile in the corner.
            c.icon((x, y - 15), icon(ic, 30), key=key, value=ic)
            x += 30 + 6


def _space(c: Canvas, space: dict[str, Any], view: dict[str, Any]) -> None:
    i = space["index"]
    x0, y0, x1, y1 = cell_box(i)
    d = c.draw
    _bonus(c, space, x0 + 56, y0 + 24)
    # The action tile.
    tx0, ty0, tx1, ty1 = x0 + 8, y0 + 48, x1 - 8, y0 + 92
    flipped = space["flipped"]
    if flipped:
        c.paste((tx0, ty0), _flipped_tile())
        c.area((tx0, ty0, tx1, ty1), key=f"space.{i}.state", value="flipped")
    else:
        fill = P.PAID if space["paid"] else P.FREE
        d.rounded_rectangle((tx0, ty0, tx1, ty1), radius=6, fill=fill, outline=P.INK, width=2)
    if view["anchor_tile"] == i:
        # In the cell's top-right corner, beside the bonus: the tile keeps its whole width for
        # the action's name (French MARCHANDISES).
        c.icon((x1 - 35, y0 + 9), icon("anchor_tile", 30), key=f"space.{i}", value="anchor_tile")
    label = _action_label(space)
    size = MEDIUM if text_width(label, MEDIUM) <= tx1 - tx0 - 12 else SMALL
    c.text(
        ((tx0 + tx1) // 2, (ty0 + ty1) // 2 + 1),
        label,
        size,
        (205, 205, 210) if flipped else P.PAPER,
        key=f"space.{i}.action",
        anchor="mm",
    )
    # Blue workers of the wheel section facing this space.
    by = y0 + 114
    blue = space["blue"]
    box = c.text((x0 + 12, by), str(blue), BIG, P.BLUE, key=f"space.{i}.blue", anchor="lm")
    bx = box[2] + 6
    if blue == 0:
        c.icon((bx, by - 17), icon("blue_empty", 34), key="label", value="blue_empty")
    for k in range(blue):
        c.icon((bx + 28 * k, by - 17), icon("blue_worker", 34), key="label", value="blue_worker")
    c.text((x1 - 10, by), wc("workers", "blue"), SMALL, P.BLUE, anchor="rm")
    if view["wheel_anchor"] == i:
        c.icon(
            (x1 - 112, by - 18), icon("wheel_anchor", 36), key=f"space.{i}", value="wheel_anchor"
        )
    # The 4 items with their price on this space, or the free action's picture.
    if space["paid"]:
        slot = (CELL - 16) // 4
        for k, it in enumerate(space["items"]):
            sx = x0 + 8 + k * slot
            c.icon(
                (sx + (slot - 50) // 2, y0 + 136),
                icon(it["item"], 50),
                key=f"space.{i}.item.{k}",
                value=it["item"],
            )
            cx = sx + slot // 2
            # 24 px: the coin stays 12 px wide at the 400-px preview.
            c.icon((cx - 30, y0 + 198), icon("taler", 24), key="label", value="taler")
            c.text(
                (cx + 10, y0 + 210),
                str(it["price"]),
                MEDIUM,
                P.INK,
                key=f"space.{i}.price.{k}",
                anchor="mm",
            )
    else:
        c.icon(
            (x0 + (CELL - 84) // 2, y0 + 138),
            icon(f"act_{space['action']}", 84),
            key=f"space.{i}.action",
            value=f"act_{space['action']}",
        )
    if flipped:
        # Fade what a flipped tile offers: only the extra action can still use it this round.
        c.paste((x0 + 4, y0 + 132), _veil(CELL - 8, CELL_H - 136))
    if space["current"]:
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=10, outline=P.CURRENT, width=6)
        c.area((x0, y0, x1, y1), key=f"space.{i}.state", value="current")


@lru_cache(maxsize=4)
def _veil(w: int, h: int) -> Image.Image:
    return Image.new("RGBA", (w, h), (*P.PANEL, 150))


def _wheel(c: Canvas, view: dict[str, Any]) -> None:
    """The wheel in the middle cell: a section per space with its blue workers as dots."""
    x0, y0 = MARGIN + CELL + GAP, GRID_Y + CELL_H + GAP
    cx, cy, r = x0 + CELL // 2, y0 + CELL_H // 2, CELL_H // 2 - 4
    d = c.draw
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=P.SEA, outline=P.INK, width=3)
    for space in view["spaces"]:
        i = space["index"]
        mid = 225 + 45 * i  # Pillow's degrees: clockwise from east; space 0 is north-west
        edge = math.radians(mid + 22.5)
        d.line((cx, cy, cx + r * math.cos(edge), cy + r * math.sin(edge)), fill=P.INK, width=2)
        a = math.radians(mid)
        if view["wheel_anchor"] == i:
            px, py = cx + 0.66 * r * math.cos(a), cy + 0.66 * r * math.sin(a)
            c.icon(
                (int(px) - 22, int(py) - 22),
                icon("wheel_anchor", 44),
                key="wheel",
                value=f"anchor→{i}",
            )
            continue
        for k in range(space["blue"]):
            rr = r * (0.5 + 0.17 * k)
            px, py = cx + rr * math.cos(a), cy + rr * math.sin(a)
            d.ellipse((px - 9, py - 9, px + 9, py + 9), fill=(50, 110, 225), outline=P.INK, width=2)
    d.ellipse((cx - 36, cy - 36, cx + 36, cy + 36), fill=P.WOOD, outline=P.WOOD_DARK, width=4)
    d.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=P.WOOD_DARK)


def shown_phase(view: dict[str, Any]) -> tuple[int, int, bool]:
    """(round, phase, done): the phase the picture is the outcome of.

    A phase's post is drawn once the phase has ended, when the view already waits for the next
    phase's action (step "choose"): that picture shows the phase just played, done, and is
    titled so ("Round 2/5 · Phase 3/7 done" under the post of phase 3). Only the very first
    picture, before any action, shows phase 1 of round 1 as it starts."""
    r, ph = view["round"], view["phase"]
    if view["step"] != "choose" or (r, ph) == (1, 1):
        return r, ph, False
    return (r, ph - 1, True) if ph > 1 else (r - 1, view["phases"], True)


def _top(c: Canvas, view: dict[str, Any], names: Sequence[str]) -> None:
    y = TOP // 2 - 3
    r, ph, done = shown_phase(view)
    box = c.text((MARGIN + 4, y), w("Round"), SMALL, P.PAPER, anchor="lm")
    box = c.text(
        (box[2] + 8, y), f"{r}/{view['rounds']}", MEDIUM, P.CURRENT, key="round", anchor="lm"
    )
    box = c.text((box[2] + 18, y), w("Phase"), SMALL, P.PAPER, anchor="lm")
    box = c.text(
        (box[2] + 8, y), f"{ph}/{view['phases']}", MEDIUM, P.CURRENT, key="phase", anchor="lm"
    )
    if done:
        box = c.text((box[2] + 10, y), wc("phase", "done"), SMALL, P.PAPER, key="done", anchor="lm")
    if view["step"] == "over":
        c.text((WIDTH - MARGIN - 4, y), w("Game over"), MEDIUM, P.CURRENT, key="over", anchor="rm")
        return
    seat = view["start_player"]
    # Right-aligned: the start player's word, flag, badge and name, the name taking what is left.
    word = wc("start player", "Start")
    fixed = c_len(word, SMALL) + 8 + 32 + 4 + 32 + 8
    room = min(180, WIDTH - MARGIN - 4 - (box[2] + 24) - fixed)
    name = short_name(names, seat, MEDIUM, room)
    x = WIDTH - MARGIN - 4 - c_len(name, MEDIUM) - fixed
    box = c.text((x, y), word, SMALL, P.PAPER, anchor="lm")
    c.icon((box[2] + 8, y - 16), icon("start", 32), key="start", value="flag")
    c.icon((box[2] + 44, y - 16), icon(f"player_{seat}", 32), key="start", value=f"player_{seat}")
    c.text((box[2] + 84, y), name, MEDIUM, P.PAPER, key="start.name", anchor="lm")


def c_len(text: str, px: int) -> int:
    return round(text_width(text, px))


def _players(
    c: Canvas, view: dict[str, Any], names: Sequence[str], before: dict[str, Any] | None
) -> None:
    count = view["players_count"]
    for p in view["players"]:
        seat = p["seat"]
        x0, y0, x1, y1 = _players_box(seat, count)
        cy = (y0 + y1) // 2
        if view["current"] == seat:
            c.draw.rounded_rectangle((x0, y0, x1, y1), radius=8, outline=P.CURRENT, width=5)
            c.area((x0, y0, x1, y1), key=f"player.{seat}.state", value="to act")
        right = x1 - 8
        if view["start_player"] == seat and view["step"] != "over":
            c.icon((x1 - 36, cy - 15), icon("start", 30), key=f"player.{seat}", value="start")
            right -= 32
        box = c.text((right, cy + 2), w("VP"), SMALL, P.INK, anchor="rm")
        box = c.text(
            (box[0] - 4, cy + 2),
            num(p["score"]),
            BIG,
            P.INK,
            key=f"player.{seat}.score",
            anchor="rm",
        )
        left = box[0] - 6
        if before is not None:
            moved = p["score"] - before["players"][seat]["score"]
            up = gain(c, (left, cy + 2), moved, SMALL, key=f"player.{seat}.score", anchor="rm")
            left = up[0] - 6 if up is not None else left
        name_tag(
            c, (x0 + 54, cy + 2), names, seat, MEDIUM, left - x0 - 54, key=f"player.{seat}.name"
        )


def _supply(c: Canvas, view: dict[str, Any]) -> None:
    slot = (WIDTH - 2 * MARGIN - 8) // 9
    for r, row in enumerate(SUPPLY_ROWS):
        y = supply_y(view["players_count"]) + r * SUPPLY_ROW + SUPPLY_ROW // 2
        for k, item in enumerate(row):
            x = MARGIN + 6 + k * slot
            n = view["supply"][item]
            ic = icon(item, 40)
            c.icon((x, y - 20), ic, key=f"supply.{item}", value=item)
            if n == 0:
                c.draw.line((x + 2, y + 18, x + 38, y - 18), fill=P.RED, width=4)
            c.text(
                (x + 42, y + 1),
                str(n),
                SMALL,
                P.RED if n == 0 else P.INK,
                key=f"supply.{item}",
                anchor="lm",
            )


Part = tuple[Box, str, Callable[[Canvas], None]]


def parts(view: dict[str, Any], names: Sequence[str] = ()) -> list[Part]:
    """The parts of the board that change independently, in drawing order: (box, key, draw).

    `draw(c)` draws the part on `_static`'s picture and only inside `box`; two views whose
    part has the same `key` draw it the same (with the same `names`). A replay
    (`render.nauticus.replay`) draws again only the parts whose key changed since its previous
    frame; `draw_board` draws them all.
    """
    count = view["players_count"]
    wheel_box = MARGIN + CELL + GAP, GRID_Y + CELL_H + GAP  # the middle cell, as `_wheel`
    out: list[Part] = [
        (
            (0, 0, WIDTH, TOP - 5),
            repr((shown_phase(view), view["rounds"], view["step"], view["start_player"])),
            lambda c: _top(c, view, names),
        )
    ]
    for space in view["spaces"]:
        i = space["index"]
        x0, y0, x1, y1 = cell_box(i)
        # The current space's frame reaches 2 px outside its cell (less than half the gap).
        key = repr((space, view["anchor_tile"] == i, view["wheel_anchor"] == i))
        out.append(((x0 - 3, y0 - 3, x1 + 3, y1 + 3), key, partial(_space, space=space, view=view)))
    blue = [s["blue"] for s in view["spaces"]]
    out.append(
        (
            (*wheel_box, wheel_box[0] + CELL, wheel_box[1] + CELL_H),
            repr((blue, view["wheel_anchor"])),
            lambda c: _wheel(c, view),
        )
    )
    first, last = _players_box(0, count), _players_box(count - 1, count)
    scores = [(p["score"], p["seat"]) for p in view["players"]]
    key = repr((scores, view["current"], view["start_player"], view["step"]))
    # Pillow's boxes include their right and bottom edges: one more pixel each.
    box = (first[0], first[1], WIDTH - MARGIN + 1, last[3] + 1)
    out.append((box, key, lambda c: _players(c, view, names, None)))
    sy = supply_y(count)
    out.append(
        (
            (MARGIN, sy, WIDTH - MARGIN + 1, sy + 2 * SUPPLY_ROW + 1),
            repr(sorted(view["supply"].items())),
            lambda c: _supply(c, view),
        )
    )
    return out


def draw_board(
    view: dict[str, Any], names: Sequence[str] = (), before: dict[str, Any] | None = None
) -> Canvas:
    base, marks = _static(view["players_count"])
    c = Canvas(base.copy(), list(marks))
    drawn = parts(view, names)
    for _, _, draw in drawn[:9]:  # the round bar and the 8 spaces
        draw(c)
    if before is not None:
        # The action played since the previous post: its tile turned face down since.
        was = {sp["index"]: sp["flipped"] for sp in before["spaces"]}
        for space in view["spaces"]:
            if space["flipped"] and not was.get(space["index"], False):
                outline_new(c, cell_box(space["index"]), key=f"space.{space['index']}")
    for _, _, draw in drawn[9:10]:  # the wheel
        draw(c)
    _players(c, view, names, before)
    for _, _, draw in drawn[11:]:  # the supply
        draw(c)
    return c


def board(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: dict[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """The board as `view` shows it: spaces, wheel, round, scores, supply.

    `names` are the seats' names (display names, any Unicode: the picture draws what its font
    can of each, else the seat number). `before` is the public view the previous post was drawn
    from: the VP that moved since are marked '+3'.

    Raises:
        KeyError: if `view` is not a Nauticus view.
    """
    c = draw_board(view, names, before)
    name = f"board-r{view['round']}p{view['phase']}"
    return c.picture(name, board_alt(view), fmt)


__all__ = ["board", "draw_board"]
