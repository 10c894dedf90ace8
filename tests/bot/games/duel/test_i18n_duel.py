"""The Nautilus duel in French: the duel rulebook's words (scaphandriers, cartes spéciales, Arête,
Œil…) in every text the plugin writes, over many sampled states, with the English unchanged."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.games.duel import words
from bot.plugin import BadOption
from engine import duel
from tests.bot.games.duel.kit import PLUGIN, sample_states, seen_of

# English words that must never show in a French text (the names are Ana and Ben).
ENGLISH = ("diver", "special", "slot ", "Round ", "your turn", " must ", "Keep ", "side")


def _texts(state: duel.State) -> list[str]:
    seat = state.turn
    mine, public = seen_of(state, seat), seen_of(state, None)
    out = [
        PLUGIN.panel_header(mine),
        PLUGIN.hand_text(mine),
        PLUGIN.status_line(public),
        PLUGIN.must_decide(public, you=False),
    ]
    groups: dict[str, list[dict[str, object]]] = {}
    for move in mine.legal:
        groups.setdefault(PLUGIN.group_key(dict(move)), []).append(dict(move))
    for key, moves in groups.items():
        out.append(PLUGIN.group_label(mine, key, moves))  # type: ignore[arg-type]
    return out


def test_every_text_of_sampled_states_is_french() -> None:
    checked = 0
    for state in sample_states(games=3)[::5]:
        with i18n.use("fr"):
            texts = _texts(state)
        for text in texts:
            assert not [w for w in ENGLISH if w in text], text
        checked += len(texts)
    assert checked > 100


def test_cards_and_specials_take_their_french_articles() -> None:
    with i18n.use("fr"):
        assert words.card(7) == "le 7"
        assert words.card(15) == "le kraken (15)"
        assert words.card(0) == "l'arête (0)"
        assert words.the_special("eye") == "l'œil"
        assert words.card_label(8) == "8 (flèche horizontale)"
        assert words.domain_card({"domain": "engineering", "kind": "ink"}) == (
            "ingénierie tache d'encre"
        )
        assert words.private_line({"kind": "specials_drawn", "specials": ["eye", "harpoon"]}) == (
            "vous avez pioché l'œil et le harpon"
        )
    assert words.card(0) == "the fishbone (0)"
    assert words.private_line({"kind": "specials_drawn", "specials": ["eye", "harpoon"]}) == (
        "you drew the eye and the harpoon"
    )


def test_the_first_ping_in_french() -> None:
    state = duel.new_game(2, 9)
    public = seen_of(state, None)
    with i18n.use("fr"):
        ping = PLUGIN.turn_ping(public, 5)
    assert ping == (
        "<@5> — à vous dans le duel Nautilus (Manche 1/6 · cartes spéciales)\u202f: garder une des "
        "deux cartes spéciales et donner l'autre. Appuyez sur **Jouer** pour votre panneau "
        "privé."
    )


def test_a_bad_option_is_refused_in_french() -> None:
    with i18n.use("fr"), pytest.raises(BadOption) as refused:
        PLUGIN.move_from_call("place", {"card": "99", "side": 1, "slot": 1})
    assert str(refused.value) == (
        "carte\u202f: 99 n'est pas une carte (0–15\u202f: l'arête 0, les scaphandriers "
        "1–14, le kraken 15)."
    )


def test_french_names_of_the_specials_are_understood_and_listed_in_french() -> None:
    # As the French hand names them, with or without accents and ligature.
    for typed, special in (
        ("Module de plongée", "diving_module"),
        ("arête", "fishbone"),
        ("oeil", "eye"),
        ("Œil", "eye"),
        ("harpon", "harpoon"),
        ("ANCRE", "anchor"),
    ):
        assert PLUGIN.move_from_call("keep", {"special": typed}) == {
            "type": "keep",
            "special": special,
        }, typed
    # The fishbone is placed as a card by its French name too.
    assert PLUGIN.move_from_call("place", {"card": "Arete", "side": 1, "slot": 2}) == {
        "type": "place",
        "card": 0,
        "side": 0,
        "slot": 1,
    }
    with i18n.use("fr"), pytest.raises(BadOption) as refused:
        PLUGIN.move_from_call("keep", {"special": "licorne"})
    assert str(refused.value) == (
        "speciale\u202f: 'licorne' n'est pas une carte spéciale\u202f; les cartes "
        "spéciales sont kraken, "
        "arête, ancre, œil, module de plongée, harpon."
    )
