"""The viewer's own hand: the private picture, sent to that seat only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture
from render.island.common import (
    CATEGORIES,
    MARGIN,
    MEDIUM,
    MIN_HEIGHT,
    SMALL,
    WIDTH,
    cat_word,
    grouped,
)
from render.island.common import obj as word
from render.island.icons import CATEGORY_COLOR, CATEGORY_TINT, icon
from render.island.text import hand_alt
from render.seats import short_name, tick_new
from render.words import w, wn

HEAD_H = 96
LINE = 32
PER_LINE = 3
SLOT = 190
CARDS_X = 200


def hand_entries(cards: list[dict[str, Any]]) -> list[str]:
    """'ham ×2'; treasures carry their VP: 'crown(4) ×2'."""
    vp = {c["object"]: c.get("vp") for c in cards}
    out = []
    for obj, n in grouped(cards):
        name = word(obj) if vp[obj] is None else f"{word(obj)}({vp[obj]})"
        out.append(name if n == 1 else f"{name} ×{n}")
    return out


def _rows(hand: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for card in hand:
        by_cat.setdefault(card["category"], []).append(card)
    return [(cat, by_cat[cat]) for cat in CATEGORIES if cat in by_cat]


def _row_h(cards: list[dict[str, Any]]) -> int:
    lines = -(-len(hand_entries(cards)) // PER_LINE)
    return max(2, lines) * LINE + 12


def hand(
    view: dict[str, Any],
    *,
    names: Sequence[str] = (),
    before: Mapping[str, Any] | None = None,
    fmt: Format = "png",
) -> Picture:
    """The hand of `view['viewer']`, from that seat's own view; `names` are the seats' names
    (the picture draws what its font can of the viewer's); `before` is the same seat's view at
    its previous picture: the card lines that grew since are ticked.

    Raises:
        ValueError: if the view is public (no viewer) and so holds no hand.
    """
    seat = view.get("viewer")
    if seat is None or view["players"][seat]["hand"] is None:
        raise ValueError("the hand picture needs a seat's own view (view(state, seat))")
    p = view["players"][seat]
    cards = p["hand"]
    old = before["players"][seat]["hand"] if before is not None else None
    had = dict(grouped(old)) if old is not None else None
    rows = _rows(cards)
    need = HEAD_H + sum(_row_h(cs) for _, cs in rows) + (LINE + 20 if not rows else 0) + MARGIN
    c = Canvas.blank((WIDTH, max(need, MIN_HEIGHT)), P.BG)
    d = c.draw
    d.rectangle((0, 0, WIDTH, 48), fill=P.PLAYER_COLOR[seat])
    d.rounded_rectangle((MARGIN, 6, MARGIN + 330, 42), radius=8, fill=P.PANEL)
    c.icon((MARGIN + 6, 8), icon(f"player_{seat}", 32), key="hand", value=f"player_{seat}")
    title = short_name(names, seat, MEDIUM, 270) if names else w("Your hand: seat {n}", n=seat + 1)
    c.text((MARGIN + 46, 25), title, MEDIUM, P.INK, key="hand.title", anchor="lm")
    n = len(cards)
    c.text(
        (MARGIN + 6, 72),
        wn("{n} card", "{n} cards", n),
        SMALL,
        P.INK,
        key="hand.count",
        anchor="lm",
    )
    c.text(
        (WIDTH - MARGIN - 6, 72),
        w("treasures {n} VP", n=p["treasure_vp"]),
        SMALL,
        P.INK,
        key="hand.treasure",
        anchor="rm",
    )
    c.text(
        (WIDTH - MARGIN - 6, 25),
        w("your hand, secret") if names else w("secret"),
        SMALL,
        P.INK if seat == 3 else P.PAPER,
        anchor="rm",
    )
    y = HEAD_H
    if not rows:
        c.text(
            (WIDTH // 2, y + 26),
            w("No cards in hand"),
            SMALL,
            P.MUTED,
            key="hand.empty",
            anchor="mm",
        )
    for cat, cs in rows:
        h = _row_h(cs)
        d.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + h - 6),
            radius=8,
            fill=CATEGORY_TINT[cat],
            outline=CATEGORY_COLOR[cat],
            width=3,
        )
        first = y + 6 + LINE // 2
        c.icon(
            (MARGIN + 8, first - 16), icon(f"cat_{cat}", 32), key=f"hand.{cat}", value=f"cat_{cat}"
        )
        c.text((MARGIN + 46, first + 1), cat_word(cat), SMALL, P.INK, anchor="lm")
        c.text(
            (MARGIN + 46, first + LINE + 1),
            wn("{n} card", "{n} cards", len(cs)),
            SMALL,
            P.MUTED,
            key=f"hand.{cat}.count",
            anchor="lm",
        )
        for i, (text, (obj, n)) in enumerate(zip(hand_entries(cs), grouped(cs), strict=True)):
            row, slot = divmod(i, PER_LINE)
            if had is not None and n > had.get(obj, 0):
                # More of this object than at the seat's previous picture.
                tick_new(
                    c,
                    MARGIN + CARDS_X + slot * SLOT - 3,
                    first + row * LINE,
                    key=f"hand.{cat}.cards.{i}",
                )
            c.text(
                (MARGIN + CARDS_X + slot * SLOT, first + row * LINE + 1),
                text,
                SMALL,
                P.INK,
                key=f"hand.{cat}.cards",
                anchor="lm",
            )
        y += h
    return c.picture(f"hand-seat{seat + 1}", hand_alt(view), fmt)
