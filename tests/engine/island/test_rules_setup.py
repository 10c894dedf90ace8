"""I-SETUP: the cards, the Nautilus, the camp, the portholes and the first player."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import island
from engine.island import data
from tests.engine.island.kit import game


def test_i_setup_1_ninety_six_cards_six_categories_four_objects_four_copies() -> None:
    assert data.CARD_COUNT == 96
    assert data.CATEGORIES == ("clothing", "navigation", "repair", "fishing", "food", "treasure")
    assert len(set(data.CARD_IDS)) == 96
    per_object = Counter((data.card_category(c), data.card_object(c)) for c in range(96))
    assert len(per_object) == 24 and set(per_object.values()) == {4}
    assert Counter(data.card_category(c) for c in range(96)) == dict.fromkeys(data.CATEGORIES, 16)
    # Ids name category, object and copy, so a test can look for one card in any JSON.
    assert data.CARD_IDS[0] == "clothing:hat:1" and data.CARD_IDS[95] == "treasure:crown:4"
    assert data.CARD_IDS[77] == "food:ham:2"


def test_i_setup_1_colours_fixed_here() -> None:
    assert data.CATEGORY_COLOR_NAME == {
        "clothing": "green",
        "navigation": "red",
        "repair": "blue",
        "fishing": "purple",
        "food": "orange",
        "treasure": "yellow",
    }
    assert data.CATEGORIES[:5] == data.STORABLE and data.TREASURE == "treasure"


@pytest.mark.parametrize("players", [0, 1, 5, True, "3", 2.0])
def test_i_setup_1_two_to_four_players(players: object) -> None:
    with pytest.raises(island.IllegalMove) as info:
        island.new_game(players, 1)  # type: ignore[arg-type]
    assert info.value.code == "bad_players"
    for n in (2, 3, 4):
        assert len(island.new_game(n, 1).players) == n


@pytest.mark.parametrize(
    ("players", "layout", "box"),
    [(2, (1, 2, 2, 3), 32), (3, (1, 2, 2, 3, 3), 8), (4, (1, 1, 2, 2, 3, 3), 0)],
)
def test_i_setup_2_columns_stacks_of_eight_and_the_box(
    players: int, layout: tuple[int, ...], box: int
) -> None:
    state = island.new_game(players, 7)
    assert state.layout == layout
    assert len(state.stacks) == sum(layout)
    assert all(len(s) == 8 for s in state.stacks)
    assert len(state.box) == box
    every = sorted([c for s in state.stacks for c in s] + list(state.box))
    assert every == list(range(96))
    v = island.view(state)
    assert [c["size"] for c in v["columns"]] == list(layout)
    assert v["box"] == box


def test_i_setup_2_first_stack_of_each_column_face_up_the_others_face_down() -> None:
    state = island.new_game(4, 3)
    v = island.view(state)
    faces = [[s["face"] for s in c["stacks"]] for c in v["columns"]]
    two, three = ["up", "down"], ["up", "down", "down"]
    assert faces == [["up"], ["up"], two, two, three, three]
    for c in v["columns"]:
        for s in c["stacks"]:
            top = state.stacks[s["index"]][-1]
            if s["face"] == "up":
                # The public id: the object on top, not which of its four copies.
                assert s["top"]["id"] == data.PUBLIC_IDS[top] and s["count"] == 8
                assert s["top"]["object"] == data.CARD_OBJECT[top]
            else:
                assert s["top"] is None and s["count"] == 8
    # Stacks are numbered bow to stern, column by column.
    assert [[s["index"] for s in c["stacks"]] for c in v["columns"]] == [
        [0],
        [1],
        [2, 3],
        [4, 5],
        [6, 7, 8],
        [9, 10, 11],
    ]


def test_i_setup_2_the_deal_depends_on_the_seed_only() -> None:
    assert island.new_game(3, 5) == island.new_game(3, 5)
    assert island.new_game(3, 5).stacks != island.new_game(3, 6).stacks


def test_i_setup_3_camp_of_five_revealed_tokens_and_twenty_nine_face_down() -> None:
    assert data.TOKEN_MIX == {
        "vp2": 8,
        "vp3": 6,
        "per_card": 5,
        "double_porthole": 5,
        "odd": 5,
        "pair": 5,
    }
    for seed in range(5):
        state = island.new_game(2, seed)
        assert len(state.camp) == 5 and None not in state.camp
        assert len(state.reserve) == 29
        assert Counter(state.camp) + Counter(state.reserve) == Counter(data.TOKEN_MIX)
        v = island.view(state)
        assert [s["category"] for s in v["camp"]] == list(data.STORABLE)
        assert [s["token"] for s in v["camp"]] == list(state.camp)
        assert v["reserve"] == 29


def test_i_setup_4_porthole_piles_by_card_count_highest_on_top() -> None:
    assert data.PORTHOLES == {3: (5, 4, 3), 4: (8, 6, 5), 5: (11, 9, 7), 6: (15, 12, 10)}
    v = island.view(island.new_game(3, 1))
    assert v["portholes"] == [
        {"size": 3, "values": [5, 4, 3], "left": 3, "next": 5},
        {"size": 4, "values": [8, 6, 5], "left": 3, "next": 8},
        {"size": 5, "values": [11, 9, 7], "left": 3, "next": 11},
        {"size": 6, "values": [15, 12, 10], "left": 3, "next": 15},
    ]


def test_i_setup_5_first_player_at_random_or_set_by_the_host() -> None:
    firsts = {island.new_game(4, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = island.new_game(4, 11)
    assert state.current == state.first and state.step == "place"
    assert island.new_game(4, 11, first=2).current == 2
    # Setting the first player changes nothing else of the deal.
    assert island.new_game(4, 11, first=2).stacks == state.stacks
    with pytest.raises(island.IllegalMove) as info:
        island.new_game(4, 11, first=4)
    assert info.value.code == "bad_first"
    assert game(3, 1, first=1).current == 1
