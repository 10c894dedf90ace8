"""I-BONUS, I-PORT, I-TREASURE, I-END: tokens, refills, portholes, treasures, end and scores."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import island
from engine.island import data
from engine.island.state import State
from tests.engine.island.kit import (
    acting,
    camp,
    clear_hands,
    empty_column,
    game,
    kinds,
    names,
    pawns,
    play,
    relocate,
    set_collection,
    set_stack,
    store,
)

COLLECT = {"type": "collect"}
CLOSE = {"type": "close"}
KEEP = {"type": "keep_open"}


def _refused(state: State, seat: int, move: dict[str, Any], code: str) -> str:
    before = island.to_json(state)
    with pytest.raises(island.IllegalMove) as info:
        island.apply(state, seat, move)
    assert info.value.code == code, str(info.value)
    assert island.to_json(state) == before
    return str(info.value)


def _scored(*collections: tuple[str, tuple[str, ...], tuple[str, ...], int | None]) -> island.Score:
    """Seat 0's score with these (category, cards, tokens, porthole) collections."""
    state = clear_hands(game(2, 1))
    for category, cards, tokens, porthole in collections:
        state = set_collection(state, 0, category, *cards, tokens=tokens, porthole=porthole)
    return island.final_scores(state)[0]


def _token_vp(score: island.Score) -> list[tuple[str, str, int]]:
    return [(t.category, t.token, t.vp) for t in score.tokens]


# --- I-BONUS-1 -----------------------------------------------------------------------------------


def test_i_bonus_1_storing_takes_the_camp_token_of_that_category_for_good() -> None:
    state = acting(3, 0, 3, hand=("food:ham:1", "food:ham:2", "food:cheese:1", "food:fruit:1"))
    state = camp(state, clothing="vp2", navigation="vp3", repair="odd", fishing="pair", food="pair")
    state, events = island.apply(state, 0, store("food", ham=1))
    assert kinds(events) == ["cards_stored", "token_taken", "turn_ended"]
    assert events[1].to_dict() == {
        "kind": "token_taken",
        "seat": 0,
        "category": "food",
        "token": "pair",
        "private_to": None,
    }
    assert state.players[0].collections[4].tokens == ("pair",)
    assert state.camp == ("vp2", "vp3", "odd", "pair", None)
    # Later stores: none while the space is empty, then another token on the same collection.
    state = replace(acting(3, 0, 3), players=state.players, camp=state.camp)
    state, events = island.apply(state, 0, store("food", ham=1))
    assert kinds(events) == ["cards_stored", "turn_ended"]
    state = replace(acting(3, 0, 3), players=state.players, camp=camp(state, food="vp3").camp)
    state, events = island.apply(state, 0, store("food", cheese=1, fruit=1))
    assert names(state.players[0].collections[4].cards) == [
        "food:cheese:1",
        "food:fruit:1",
        "food:ham:1",
        "food:ham:2",
    ]
    assert state.players[0].collections[4].tokens == ("pair", "vp3")
    v = island.view(state)["players"][0]["collections"][4]
    assert [t["token"] for t in v["tokens"]] == ["pair", "vp3"]


# --- I-BONUS-2 -----------------------------------------------------------------------------------


def test_i_bonus_2_no_refill_while_two_or_more_tokens_are_left() -> None:
    state = acting(3, 0, 3, hand=("repair:saw:1",))
    state = camp(state, clothing=None, navigation=None, repair="vp2", fishing="odd", food="pair")
    state, events = island.apply(state, 0, store("repair", saw=1))
    assert "camp_refilled" not in kinds(events)
    assert state.camp == (None, None, None, "odd", "pair") and len(state.reserve) == 29


def test_i_bonus_2_one_token_left_refills_every_empty_space_at_once() -> None:
    state = acting(3, 0, 3, hand=("repair:saw:1",))
    state = camp(state, clothing=None, navigation=None, repair="vp2", fishing=None, food="pair")
    reserve = state.reserve
    state, events = island.apply(state, 0, store("repair", saw=1))
    refill = events[2].to_dict()
    assert refill["kind"] == "camp_refilled"
    # Spaces clothing, navigation, repair, fishing get the reserve's last four, last first.
    assert refill["tokens"] == tuple(
        zip(("clothing", "navigation", "repair", "fishing"), reversed(reserve[-4:]), strict=True)
    )
    assert refill["reserve_left"] == 25 and state.reserve == reserve[:-4]
    assert state.camp == (*reversed(reserve[-4:]), "pair")


def test_i_bonus_2_too_few_tokens_go_to_empty_spaces_chosen_by_the_seeded_rng() -> None:
    patterns = set()
    for seed in range(12):
        state = acting(3, 0, 3, seed=seed, hand=("repair:saw:1",))
        state = camp(state, clothing=None, navigation=None, repair="vp2", fishing=None, food="odd")
        state = replace(state, reserve=("vp3", "per_card"))
        after, events = island.apply(state, 0, store("repair", saw=1))
        again, _ = island.apply(state, 0, store("repair", saw=1))
        assert after == again  # seeded: the same game always refills the same way
        assert after.reserve == () and after.draws == state.draws + 1
        filled = [i for i in (0, 1, 2, 3) if after.camp[i] is not None]
        assert len(filled) == 2 and after.camp[4] == "odd"
        assert sorted(t for t in after.camp[:4] if t is not None) == ["per_card", "vp3"]
        assert events[2].to_dict()["reserve_left"] == 0
        patterns.add(tuple(filled))
    assert len(patterns) >= 3  # the spaces really are chosen at random


# --- I-BONUS-3 (one worked example per token type) -------------------------------------------


def test_i_bonus_3_two_and_three_vp_as_printed() -> None:
    score = _scored(("clothing", ("clothing:hat:1",), ("vp2", "vp3"), None))
    assert _token_vp(score) == [("clothing", "vp2", 2), ("clothing", "vp3", 3)]
    assert score.bonus_vp == 5 and score.vp == 5


def test_i_bonus_3_plus_one_vp_per_card_in_that_collection() -> None:
    cards = ("repair:saw:1", "repair:saw:2", "repair:rope:1", "repair:hammer:4", "repair:wrench:2")
    score = _scored(("repair", cards, ("per_card",), 11), ("food", ("food:ham:1",), (), None))
    assert _token_vp(score) == [("repair", "per_card", 5)]
    assert score.porthole_vp == 11 and score.vp == 16


def test_i_bonus_3_double_porthole_counts_the_porthole_again() -> None:
    four = ("fishing:rod:1", "fishing:net:1", "fishing:hook:1", "fishing:harpoon:1")
    one = _scored(("fishing", four, ("double_porthole",), 8))
    assert _token_vp(one) == [("fishing", "double_porthole", 8)] and one.vp == 16
    # [fixed here] two such tokens count the porthole three times in all.
    two = _scored(("fishing", four, ("double_porthole", "double_porthole"), 8))
    assert [t.vp for t in two.tokens] == [8, 8] and two.vp == 24
    # Without a porthole: 0.
    none = _scored(("fishing", four, ("double_porthole",), None))
    assert [t.vp for t in none.tokens] == [0] and none.vp == 0


def test_i_bonus_3_odd_four_vp_for_an_odd_number_of_cards() -> None:
    three = ("navigation:chart:1", "navigation:chart:2", "navigation:compass:1")
    assert [t.vp for t in _scored(("navigation", three, ("odd",), 5)).tokens] == [4]
    assert _scored(("navigation", three, ("odd",), 5)).vp == 9
    four = (*three, "navigation:sextant:3")
    assert [t.vp for t in _scored(("navigation", four, ("odd",), None)).tokens] == [0]
    one = ("navigation:chart:4",)
    assert [t.vp for t in _scored(("navigation", one, ("odd",), None)).tokens] == [4]


def test_i_bonus_3_pair_five_vp_and_several_pair_tokens_need_disjoint_pairs() -> None:
    def pair_vps(*cards: str, tokens: int = 1) -> list[int]:
        return [t.vp for t in _scored(("food", cards, ("pair",) * tokens, None)).tokens]

    assert pair_vps("food:ham:1", "food:ham:3", "food:bread:1") == [5]
    assert pair_vps("food:ham:1", "food:bread:1", "food:cheese:1") == [0]
    assert pair_vps("food:ham:1", "food:ham:3", "food:bread:1", tokens=2) == [5, 0]
    assert pair_vps("food:ham:1", "food:ham:2", "food:ham:3", tokens=2) == [5, 0]
    assert pair_vps("food:ham:1", "food:ham:2", "food:ham:3", "food:ham:4", tokens=2) == [5, 5]
    assert pair_vps("food:ham:1", "food:ham:2", "food:bread:3", "food:bread:4", tokens=3) == [
        5,
        5,
        0,
    ]


# --- I-PORT-1 ------------------------------------------------------------------------------------


def test_i_port_1_close_right_after_storing_with_the_top_token_of_the_exact_size() -> None:
    hand = ("clothing:hat:1", "clothing:hat:2", "clothing:coat:1", "clothing:boots:1")
    state = acting(3, 0, 4, hand=hand)
    state = set_collection(state, 0, "clothing", "clothing:gloves:1")
    state, events = island.apply(state, 0, store("clothing", hat=2, coat=1))
    assert state.step == "close" and island.legal_moves(state, 0) == [CLOSE, KEEP]
    state, events = island.apply(state, 0, CLOSE)
    assert events[0].to_dict() == {
        "kind": "collection_closed",
        "seat": 0,
        "category": "clothing",
        "size": 4,
        "porthole": 8,
        "private_to": None,
    }
    assert state.players[0].collections[0].porthole == 8
    assert state.portholes == (0, 1, 0, 0)
    assert island.view(state)["portholes"][1] == {
        "size": 4,
        "values": [8, 6, 5],
        "left": 2,
        "next": 6,
    }
    assert island.view(state)["players"][0]["collections"][0]["closed"] is True
    # A closed category takes no more cards, and is no longer offered.
    state = replace(acting(3, 0, 2), players=state.players, portholes=state.portholes)
    assert island.legal_moves(state, 0) == [COLLECT]
    msg = _refused(state, 0, store("clothing", boots=1), "collection_closed")
    assert "closed" in msg
    # The next player to close a 4-card collection gets the next token down: 6.
    state = acting(3, 1, 1, hand=("food:ham:1", "food:ham:2"))
    state = replace(state, portholes=(0, 1, 0, 0))
    state = set_collection(state, 1, "food", "food:bread:1", "food:bread:2")
    state, _ = play(state, 1, store("food", ham=2), CLOSE)
    assert state.players[1].collections[4].porthole == 6 and state.portholes == (0, 2, 0, 0)


def test_i_port_1_not_closed_that_turn_closes_later_only_at_a_new_exact_size() -> None:
    state = acting(3, 0, 4, hand=("repair:saw:1", "repair:saw:2", "repair:saw:3", "repair:rope:1"))
    state, _ = play(state, 0, store("repair", saw=3), KEEP)
    assert state.players[0].collections[2].porthole is None and state.step != "close"
    # "close" is never a move of its own outside that moment.
    state = replace(acting(3, 0, 0), players=state.players)
    _refused(state, 0, CLOSE, "not_now")
    state, _ = island.apply(state, 0, store("repair", rope=1))
    assert state.step == "close"
    assert island.view(state)["pending"] == {"category": "repair", "size": 4, "porthole": 8}
    state, _ = island.apply(state, 0, CLOSE)
    assert state.players[0].collections[2].porthole == 8


# --- I-PORT-2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [0, 1, 6])
def test_i_port_2_a_size_without_a_pile_cannot_close(before: int) -> None:
    food = [f"food:{o}:{i}" for o in ("bread", "cheese") for i in (1, 2, 3, 4)]
    state = acting(3, 0, 0, hand=("food:ham:1",))
    state = set_collection(state, 0, "food", *food[:before])
    state, events = island.apply(state, 0, store("food", ham=1))  # sizes 1, 2, 7: no pile
    assert state.step != "close" and kinds(events)[-1] == "turn_ended"
    assert state.players[0].collections[4].porthole is None


def test_i_port_2_an_empty_pile_cannot_close() -> None:
    state = acting(3, 0, 0, hand=("food:ham:1",))
    state = set_collection(state, 0, "food", "food:bread:1", "food:bread:2")
    state = replace(state, portholes=(3, 0, 0, 0))
    state, events = island.apply(state, 0, store("food", ham=1))
    assert state.step != "close" and kinds(events)[-1] == "turn_ended"
    assert island.view(state)["portholes"][0]["next"] is None


# --- I-TREASURE-1 --------------------------------------------------------------------------------


def test_i_treasure_1_treasures_are_never_stored_and_score_one_to_four_from_hand() -> None:
    assert data.TREASURE_VP == {"pearl": 1, "coin": 2, "goblet": 3, "crown": 4}
    hand = ("treasure:pearl:1", "treasure:coin:2", "treasure:goblet:3", "treasure:crown:4")
    state = acting(3, 0, 4, hand=(*hand, "treasure:crown:1", "food:ham:1"))
    assert all(m.get("category") != "treasure" for m in island.legal_moves(state, 0))
    msg = _refused(state, 0, store("treasure", pearl=1), "treasure_not_storable")
    assert "never stored" in msg
    score = island.final_scores(state)[0]
    assert score.treasures == (4, 4, 3, 2, 1) and score.treasure_vp == 14 and score.vp == 14


# --- I-END-1 -------------------------------------------------------------------------------------


def test_i_end_1_an_empty_column_finishes_the_round_then_one_last_round() -> None:
    state = acting(3, 0, 0, hand=())
    state = set_stack(state, 0, "food:ham:4")
    state, events = island.apply(state, 0, COLLECT)
    assert kinds(events) == ["card_taken", "column_emptied", "turn_ended"]
    assert events[1].to_dict() == {
        "kind": "column_emptied",
        "column": 0,
        "first": True,
        "private_to": None,
    }
    assert state.end_triggered and not state.last_round and state.round == 2
    # The round goes on; column 0 is out of bounds before the last round.
    assert state.current == 2
    assert island.legal_moves(state, 2) == [{"type": "move", "column": c} for c in (1, 3, 4)]
    state, _ = play(state, 2, {"type": "move", "column": 3}, COLLECT)
    assert island.legal_moves(state, 1) == [{"type": "move", "column": c} for c in (2, 4)]
    state, events = play(state, 1, {"type": "move", "column": 4}, COLLECT)
    assert events[-1].to_dict()["next_is_last"] is True
    assert state.round == 3 and state.last_round and island.view(state)["last_round"] is True
    # The last round: an empty column may be faced, only to store up to its stack count.
    assert state.current == 1
    assert {"type": "move", "column": 0} in island.legal_moves(state, 1)
    state = relocate(state, ("box",), *names(state.players[1].hand))
    state = relocate(state, ("hand", 1), "food:ham:1", "food:ham:2")
    state, _ = island.apply(state, 1, {"type": "move", "column": 0})
    assert island.legal_moves(state, 1) == [store("food", ham=1)]
    _refused(state, 1, COLLECT, "collect_empty")
    _refused(state, 1, store("food", ham=2), "too_many_cards")
    state, _ = island.apply(state, 1, store("food", ham=1))
    while state.step != "over":
        seat = state.current
        assert seat is not None
        state, events = island.apply(state, seat, island.legal_moves(state, seat)[0])
    assert state.round == 3 and state.current is None
    assert kinds(events)[-2:] == ["round_ended", "game_ended"]
    assert island.legal_moves(state, 0) == []
    _refused(state, 0, COLLECT, "game_over")


def test_i_end_1_a_second_empty_column_is_reported_but_triggers_nothing_more() -> None:
    state = replace(empty_column(acting(3, 0, 1), 0), end_triggered=True)
    state = set_stack(set_stack(state, 1, "food:ham:1"), 2, "food:ham:2")
    state, events = island.apply(state, 0, COLLECT)
    assert [e.to_dict()["first"] for e in events if e.kind == "column_emptied"] == [False]
    assert state.end_triggered and not state.last_round


def test_i_end_1_last_round_the_empty_stern_column_only_to_a_player_who_can_store() -> None:
    # Round 3 is the last; column 4 (the stern, 3 stacks) is empty. Seat 0 (below column 3)
    # moves first and holds only a treasure; seat 1 (below column 1) holds three hams.
    state = pawns(clear_hands(game(3, 1)), ("below", 3, 2), ("below", 1, 0), ("below", 0, 4))
    state = replace(
        state, round=3, last_round=True, end_triggered=True, step="move", current=0, moved=()
    )
    state = empty_column(state, 4)
    state = relocate(state, ("hand", 0), "treasure:crown:1")
    state = relocate(state, ("hand", 1), "food:ham:1", "food:ham:2", "food:ham:3")
    state = set_stack(state, 3, "clothing:hat:2", "clothing:hat:1")
    state = set_stack(state, 4, "repair:saw:2", "repair:saw:1")
    # Seat 0 can store nothing: the empty stern column (and its tie-break place) is not for it.
    assert island.legal_moves(state, 0) == [{"type": "move", "column": c} for c in (0, 1, 2)]
    msg = _refused(state, 0, {"type": "move", "column": 4}, "empty_column_no_store")
    assert "only to store" in msg and msg.endswith("choose a column with cards: 0, 1, 2.")
    state, _ = play(state, 0, {"type": "move", "column": 2}, COLLECT)
    assert names(state.players[0].hand) == ["clothing:hat:1", "repair:saw:1", "treasure:crown:1"]
    # Seat 1 can store: it faces the empty stern column and stores up to its 3 stacks.
    assert state.current == 1
    assert island.legal_moves(state, 1) == [{"type": "move", "column": c} for c in (0, 3, 4)]
    state, _ = play(state, 1, {"type": "move", "column": 4}, store("food", ham=3), CLOSE)
    assert state.players[1].hand == ()
    assert names(state.players[1].collections[4].cards) == [
        "food:ham:1",
        "food:ham:2",
        "food:ham:3",
    ]
    assert state.players[1].collections[4].porthole == 5
    # Seat 2 (empty hand) may face only the free columns with cards.
    assert state.current == 2
    assert island.legal_moves(state, 2) == [{"type": "move", "column": c} for c in (1, 3)]
    state, events = play(state, 2, {"type": "move", "column": 3}, COLLECT)
    assert kinds(events)[-2:] == ["round_ended", "game_ended"]
    assert [(p.pawn.side, p.pawn.column) for p in state.players] == [
        ("above", 2),
        ("above", 4),
        ("above", 3),
    ]
    assert state.step == "over"


# --- I-END-2 -------------------------------------------------------------------------------------


def test_i_end_2_tokens_plus_portholes_plus_treasures_other_cards_worth_nothing() -> None:
    state = clear_hands(game(2, 1))
    three = ("navigation:chart:1", "navigation:chart:2", "navigation:compass:1")
    state = set_collection(
        state, 0, "navigation", *three, tokens=("odd", "pair", "vp2"), porthole=5
    )
    state = set_collection(state, 0, "food", "food:ham:1", tokens=("per_card",))
    state = relocate(state, ("hand", 0), "treasure:goblet:1", "food:ham:2", "clothing:hat:1")
    score = island.final_scores(state)[0]
    assert _token_vp(score) == [
        ("navigation", "odd", 4),
        ("navigation", "pair", 5),
        ("navigation", "vp2", 2),
        ("food", "per_card", 1),
    ]
    assert score.bonus_vp == 12 and score.portholes == (("navigation", 5),)
    assert score.porthole_vp == 5 and score.treasure_vp == 3 and score.vp == 20
    d = score.to_dict()
    assert (
        d["vp"] == 20
        and d["treasures"] == [3]
        and d["portholes"] == [{"category": "navigation", "vp": 5}]
    )


def test_i_end_2_highest_wins_a_tie_goes_to_the_pawn_nearest_the_stern() -> None:
    state = clear_hands(game(2, 1))
    state = set_collection(state, 0, "food", "food:ham:1", tokens=("vp3",))
    state = set_collection(state, 1, "food", "food:ham:2", tokens=("vp2",))
    state = relocate(state, ("hand", 1), "treasure:pearl:1")
    state = pawns(state, ("below", 1, 0), ("below", 3, 2))
    scores = island.final_scores(state)
    assert [(s.vp, s.tiebreak, s.rank) for s in scores] == [(3, 1, 2), (3, 3, 1)]
    state = pawns(state, ("below", 3, 0), ("below", 1, 2))
    assert [s.rank for s in island.final_scores(state)] == [1, 2]
    # Without a tie the pawn does not matter.
    state = relocate(state, ("hand", 1), "treasure:coin:1")
    assert [s.rank for s in island.final_scores(state)] == [2, 1]
