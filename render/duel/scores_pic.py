"""The final score sheet: per-domain totals for both seats, domains won, winner and tie-break."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from render import palette as P
from render.canvas import Canvas, Format, Picture, min_font_px, num, text_width
from render.duel.icons import DOMAIN_COLOR, icon
from render.duel.text import domain as domain_word
from render.duel.text import result_words, scores_alt
from render.seats import score_header
from render.words import w, w_

WIDTH = 800
SMALL = min_font_px(WIDTH)
HEAD_H = 120
ROW_H = 60
LABEL_W = 330
COL_W = (WIDTH - 20 - LABEL_W) // 2
HALF = COL_W // 2
TIEBREAK_WORDS = {
    "domains": w_("by domains"),
    "points": w_("tie-break: points"),
    "shared": w_("shared win"),
}


def _tiebreak(how: str) -> str:
    word = TIEBREAK_WORDS[how]
    return w(word)


def draw_scores(view: dict[str, Any], names: Sequence[str] = ()) -> Canvas:
    final = view["final"]
    domains = list(final[0]["totals"])
    rows = len(domains) + 3
    h = HEAD_H + rows * ROW_H + 16
    c = Canvas.blank((WIDTH, h), P.BG)
    d = c.draw
    d.rounded_rectangle((10, 4, WIDTH - 10, h - 6), radius=10, fill=P.PANEL)
    c.text((24, 34), w("Final scores"), SMALL + 4, P.INK, key="label", anchor="lm")
    for r in range(len(domains)):
        if r % 2 == 0:
            y = HEAD_H + r * ROW_H
            d.rectangle((14, y, WIDTH - 14, y + ROW_H), fill=(240, 234, 220))
    winners = {s["seat"] for s in final if s["rank"] == 1}
    for s in final:
        seat = s["seat"]
        x0 = 10 + LABEL_W + seat * COL_W
        if seat in winners:
            d.rectangle((x0 + 4, 64, x0 + COL_W - 4, h - 12), fill=(250, 226, 140))
            c.area((x0 + 4, 64, x0 + COL_W - 4, h - 12), key=f"p{seat}.winner", value="winner")
        score_header(c, (x0 + 4, 14, x0 + COL_W - 4, HEAD_H - 8), seat, names, SMALL + 4)
    y = HEAD_H
    for domain in domains:
        c.icon((24, y + 8), icon(f"domain_{domain}", 44), key=f"row.{domain}", value=domain)
        c.text(
            (80, y + ROW_H / 2),
            domain_word(domain).capitalize(),
            SMALL,
            DOMAIN_COLOR[domain],
            key=f"row.{domain}.name",
            anchor="lm",
        )
        for s in final:
            x0 = 10 + LABEL_W + s["seat"] * COL_W
            mine, theirs = s["totals"][domain], s["opponent_totals"][domain]
            c.text(
                (x0 + COL_W / 2 - 10, y + ROW_H / 2),
                num(mine),
                SMALL + 4,
                P.INK,
                key=f"p{s['seat']}.{domain}",
                anchor="rm",
            )
            if domain in s["domains"]:
                c.text(
                    (x0 + HALF + 8, y + ROW_H / 2),
                    w("won"),
                    SMALL,
                    P.GREEN,
                    key=f"p{s['seat']}.{domain}.won",
                    anchor="lm",
                )
            elif mine == theirs:
                c.text(
                    (x0 + COL_W / 2 + 8, y + ROW_H / 2),
                    w("tie"),
                    SMALL,
                    P.MUTED,
                    key=f"p{s['seat']}.{domain}.tie",
                    anchor="lm",
                )
        y += ROW_H
    d.line((14, y, WIDTH - 14, y), fill=P.INK, width=2)
    for label, field in ((w("Domains won"), "vp"), (w("Points"), "points")):
        c.text((24, y + ROW_H / 2), label, SMALL, P.INK, key="label", anchor="lm")
        for s in final:
            x0 = 10 + LABEL_W + s["seat"] * COL_W
            c.text(
                (x0 + COL_W / 2, y + ROW_H / 2),
                num(s[field]),
                SMALL + 4,
                P.INK,
                key=f"p{s['seat']}.{field}",
                anchor="mm",
            )
        y += ROW_H
    # The winner's line takes what the tiebreak's label leaves of the row.
    tiebreak = _tiebreak(final[0]["tiebreak"])
    room = WIDTH - 48 - text_width(tiebreak, SMALL) - 16
    result = result_words(final, names, room)
    c.text((24, y + ROW_H / 2), result, SMALL, P.INK, key="result", anchor="lm")
    c.text(
        (WIDTH - 24, y + ROW_H / 2),
        tiebreak,
        SMALL,
        P.MUTED,
        key="tiebreak",
        anchor="rm",
    )
    return c


def score_sheet(view: dict[str, Any], *, names: Sequence[str] = (), fmt: Format = "png") -> Picture:
    """The final score sheet of a finished game's view (ValueError before the end); `names`
    are the seats' names (the picture draws what its font can of each)."""
    if view.get("final") is None:
        raise ValueError("score_sheet() needs the view of a finished game")
    return draw_scores(view, names).picture("duel-scores", scores_alt(view), fmt)
