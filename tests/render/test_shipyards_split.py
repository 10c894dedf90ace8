"""The all-shipyards picture is split into one picture a seat when its alt text would not fit
Discord's 1,024 characters uncut, so a screen reader never hears a shipyard cut short."""

from __future__ import annotations

from typing import Any

from bot import i18n
from render.nauticus.shipyard_pic import MAX_HEIGHT, block_height, shipyards
from render.nauticus.text import shipyard_alt, shipyards_alt_uncut
from render.text import ALT_LIMIT
from tests.render import alt_games

# Game 34 of the alt-text games (3 players, greedy seats) is the first of 40 whose French
# all-shipyards text does not fit, at its 178th snapshot (late in round 2).
GAME = 34


def _crowded() -> dict[str, Any]:
    with i18n.use("fr"):
        for view in alt_games.snapshots("nauticus", GAME):
            fits_height = sum(block_height(p) for p in view["players"]) <= MAX_HEIGHT
            if fits_height and shipyards_alt_uncut(view) is None:
                return view
    raise AssertionError(f"game {GAME} no longer has a French shipyards text over the limit")


def test_shipyards_whose_text_would_be_cut_become_one_picture_a_seat() -> None:
    view = _crowded()
    seats = range(len(view["players"]))
    with i18n.use("fr"):
        pictures = shipyards(view)
        assert [p.filename for p in pictures] == [f"shipyard-seat{s + 1}.png" for s in seats]
        for seat, picture in zip(seats, pictures, strict=True):
            assert picture.alt_text == shipyard_alt(view, seat)
            assert len(picture.alt_text) <= ALT_LIMIT and not picture.alt_text.endswith("…")
    # The same moment in English fits: one picture, its whole text.
    pictures = shipyards(view)
    assert [p.filename for p in pictures] == ["shipyards.png"]
    assert pictures[0].alt_text == shipyards_alt_uncut(view)
