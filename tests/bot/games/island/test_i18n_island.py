"""Nautilus Island in French: the rulebook's words in every text the plugin writes, over many
sampled states, with the English unchanged and French category names understood when typed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import i18n, refusals
from bot.games.island import words
from bot.plugin import BadOption
from engine import island
from tests.bot.games.island.kit import PLUGIN, sample_states, seen_of
from tests.engine.island.kit import clear_hands, empty_column, pawns

# English words that must never show in a French text (names are Ana, Ben, Cleo, Dev).
ENGLISH = (" cards", "column ", "hand", "stack", "Round ", " VP", "your turn", "must ", "Store ")


def _texts(state: island.State, seat: int) -> list[str]:
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
        out += [PLUGIN.then_label(mine, m) for m in moves]  # type: ignore[arg-type]
    return out


def test_every_text_of_sampled_states_is_french() -> None:
    checked = 0
    for state, seat in sample_states()[::7]:
        with i18n.use("fr"):
            texts = _texts(state, seat)
        for text in texts:
            assert not [w for w in ENGLISH if w in text], text
        checked += len(texts)
    assert checked > 200


def test_words_and_a_hand_in_french() -> None:
    with i18n.use("fr"):
        assert words.category_name("food") == "vivres"
        assert words.category_name("treasure") == "trésors du Nautilus"
        assert words.counted(["ham", "ham", "bread"]) == "pain, jambon ×2"
        assert words.token_name("per_card") == "+1 PV par carte"
        hand = [
            {"category": "food", "object": "ham"},
            {"category": "treasure", "object": "goblet"},
        ]
        assert words.hand_lines(hand) == [
            "🟧 vivres\u202f: jambon",
            "🟨 trésors\u202f: coupe = 3 PV en fin de partie",
        ]
    assert words.counted(["ham", "ham", "bread"]) == "bread, ham ×2"


def test_the_first_ping_and_the_start_post_in_french() -> None:
    state = island.new_game(3, 2)
    public = seen_of(state, None)
    with i18n.use("fr"):
        ping = PLUGIN.turn_ping(public, 77)
        start = PLUGIN.start_post(public).text
    assert ping == (
        "<@77> — à vous. Manche 1\u202f: placer votre pion au-dessus d'une colonne, puis récolter "
        "ou stocker. `/island hand` montre vos cartes."
    )
    assert start.startswith("**Nautilus Island commence** — 3 joueurs, ")
    assert "de la proue (colonne 0) à la poupe" in start
    assert PLUGIN.turn_ping(public, 77).startswith("<@77> — your turn. Round 1: place your pawn")


def test_a_french_category_typed_is_understood_and_a_bad_one_refused_in_french() -> None:
    move = PLUGIN.move_from_call("store", {"category": "vivres", "objects": "ham+bread"})
    assert move == {"type": "store", "category": "food", "objects": {"ham": 1, "bread": 1}}
    with i18n.use("fr"), pytest.raises(BadOption) as refused:
        PLUGIN.move_from_call("store", {"category": "licornes", "objects": "ham"})
    assert str(refused.value) == (
        "« licornes » n'est pas une catégorie\u202f: vêtements, navigation, réparation, "
        "pêche ou vivres."
    )


def test_french_object_names_typed_are_understood_and_a_bad_one_refused_in_french() -> None:
    # The objects are typed as the hand shows them, in either language, accents optional.
    move = PLUGIN.move_from_call("store", {"category": "vivres", "objects": "jambon x2+Pain"})
    assert move == {"type": "store", "category": "food", "objects": {"ham": 2, "bread": 1}}
    move = PLUGIN.move_from_call(
        "store", {"category": "navigation", "objects": "carte marine+longue-vue"}
    )
    assert move["objects"] == {"chart": 1, "spyglass": 1}
    # The board picture's short words are understood too.
    move = PLUGIN.move_from_call("store", {"category": "navigation", "objects": "carte+lunette"})
    assert move["objects"] == {"chart": 1, "spyglass": 1}
    move = PLUGIN.move_from_call("store", {"category": "peche", "objects": "hamecon+hameçon"})
    assert move == {"type": "store", "category": "fishing", "objects": {"hook": 2}}
    move = PLUGIN.move_from_call("store", {"category": "Navigation", "objects": "Longue vue"})
    assert move == {"type": "store", "category": "navigation", "objects": {"spyglass": 1}}
    move = PLUGIN.move_from_call("store", {"category": "vetements", "objects": "2 gants"})
    assert move == {"type": "store", "category": "clothing", "objects": {"gloves": 2}}
    with i18n.use("fr"), pytest.raises(BadOption) as refused:
        PLUGIN.move_from_call("store", {"category": "vivres", "objects": "jambon+chapeau"})
    assert str(refused.value) == (
        "« chapeau » n'est pas un objet de la catégorie vivres (pain, fromage, fruits, jambon)."
    )


def test_the_last_round_empty_column_refusal_is_said_in_french() -> None:
    # I-TURN-4: in the last round a player with nothing to store may not face an empty column.
    state = pawns(
        clear_hands(island.new_game(3, 1, first=0)),
        ("below", 1, 0),
        ("below", 3, 2),
        ("below", 4, 1),
    )
    state = replace(state, round=3, last_round=True, end_triggered=True, step="move", current=2)
    state = empty_column(state, 0)
    with pytest.raises(island.IllegalMove) as info:
        island.apply(state, 2, {"type": "move", "column": 0})
    assert info.value.code == "empty_column_no_store"
    assert refusals.text(info.value, "fr") == (
        "La colonne 0 n'a plus de cartes, et à la dernière manche un pion ne peut faire face à "
        "une colonne vide que pour stocker, mais vous n'avez aucune carte à stocker\u202f; "
        "choisissez "
        "une colonne avec des cartes\u202f: 1, 2, 3."
    )
