"""The pictures drawn in French obey the same layout rules as in English (tests/render/expect.py:
sizes, the 12-px rule, no text over another text or an icon, everything inside the picture).

French words run longer than English ones; a word too long for its box takes a short picture
word (context "picture" or "card" in the catalogue). These states are the ones the English
picture tests draw, so a new French word that overflows fails here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot import i18n
from bot.games import GAMES  # installs the catalogue into render.words
from engine import duel, island, nauticus
from render import Picture
from render.duel import board as duel_board
from render.duel import hand as duel_hand
from render.duel import score_sheet as duel_sheet
from render.island import areas, board, hand, score_sheet
from render.nauticus import board as n_board
from render.nauticus import score_sheet as n_sheet
from render.nauticus import shipyard, shipyards
from tests.engine.island.walk import playout
from tests.render.duel.test_pictures import states as duel_states
from tests.render.expect import check_rules
from tests.render.states import snapshots


def _island(players: int, seed: int) -> Iterator[Picture]:
    for i, (_, _, after, _) in enumerate(playout(players, seed)):
        if i % 5 and not island.is_over(after):
            continue
        public = island.view(after)
        yield board(public)
        yield from areas(public)
        for seat in range(players):
            yield hand(island.view(after, seat))
        if public["final"] is not None:
            yield score_sheet(public)


def _duel() -> Iterator[Picture]:
    for state in duel_states():
        public = duel.view(state)
        yield duel_board(public)
        for seat in (0, 1):
            yield duel_hand(duel.view(state, seat))
        if public["final"] is not None:
            yield duel_sheet(public)


def _nauticus(players: int) -> Iterator[Picture]:
    for state in snapshots(players, 1, 6):
        public = nauticus.view(state)
        yield n_board(public)
        yield from shipyards(public)
        for seat in range(players):
            yield shipyard(public, seat)
        if public["step"] == "over":
            yield n_sheet(public)


@pytest.mark.parametrize(
    ("name", "pictures"),
    [
        ("island-2", lambda: _island(2, 1)),
        ("island-4", lambda: _island(4, 2)),
        ("duel", _duel),
        ("nauticus-4", lambda: _nauticus(4)),
    ],
)
def test_french_pictures_follow_the_layout_rules(
    name: str, pictures: Callable[[], Iterator[Picture]]
) -> None:
    assert "island" in GAMES.games
    drawn = 0
    with i18n.use("fr"):
        for pic in pictures():
            check_rules(pic)
            drawn += 1
    assert drawn > 20, name


def test_the_short_picture_words_are_french_and_the_english_stays() -> None:
    from render.duel.hand_pic import wc as duel_wc
    from render.island.common import obj

    assert obj("chart") == "chart" and obj("spyglass") == "spyglass"
    assert duel_wc("card", "diving module") == "diving module"
    with i18n.use("fr"):
        assert (obj("chart"), obj("spyglass"), obj("ham")) == ("carte", "lunette", "jambon")
        assert duel_wc("card", "diving module") == "module"


# Names as a table meets them: a robot's level in French, a long display name, emoji. Every
# picture that writes a seat's name must shorten it where it has no room, in either language
# (the duel board's Nemo token holder ran under "Pioche Domaine" before).
LONG_NAMES = (
    "🤖 Aronnax (difficile)",
    "Capitaine Nemo de la Tour",
    "Ned Land, harponneur",
    "🐙 Conseil le très fidèle",
)


def _with_long_names() -> Iterator[Picture]:
    names2 = LONG_NAMES[:2]
    for state in [s for s in duel_states() if duel.is_over(s)][:2] + list(duel_states()[:60:12]):
        public = duel.view(state)
        yield duel_board(public, names=names2)
        yield duel_hand(duel.view(state, 0), names=names2)
        if public["final"] is not None:
            yield duel_sheet(public, names=names2)
    for i, (_, _, after, _) in enumerate(playout(4, 2)):
        if i % 70 and not island.is_over(after):
            continue
        public = island.view(after)
        yield board(public, names=LONG_NAMES)
        yield from areas(public, names=LONG_NAMES)
        yield hand(island.view(after, 1), names=LONG_NAMES)
        if public["final"] is not None:
            yield score_sheet(public, names=LONG_NAMES)
    for state in snapshots(4, 1, 150):  # the start, 2 states along, the end
        public = nauticus.view(state)
        yield n_board(public, names=LONG_NAMES)
        yield from shipyards(public, names=LONG_NAMES)
        if public["step"] == "over":
            yield n_sheet(public, names=LONG_NAMES)


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_long_names_are_shortened_where_they_have_no_room(locale: str) -> None:
    drawn = named = 0
    with i18n.use(locale):
        for pic in _with_long_names():
            check_rules(pic)
            drawn += 1
            named += any(m.is_text and ".name" in m.key for m in pic.drawn)
    assert drawn > 20 and named > 10, (drawn, named)
