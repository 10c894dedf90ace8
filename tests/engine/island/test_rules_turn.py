"""I-TURN: placing and moving pawns, turn order, collecting and storing, secrecy, store order."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest

from engine import island
from engine.island import data
from engine.island.state import Pawn
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


def _refused(state: island.State, seat: int, move: dict[str, Any], code: str) -> str:
    before = island.to_json(state)
    with pytest.raises(island.IllegalMove) as info:
        island.apply(state, seat, move)
    assert info.value.code == code, str(info.value)
    assert island.to_json(state) == before
    return str(info.value)


def _round_one(first: int = 0) -> island.State:
    """3 players, first seat 0: pawns placed above columns 1 (seat 0), 3 (seat 1), 4 (seat 2)."""
    state = game(3, 1, first=first)
    for seat, column in ((0, 1), (1, 3), (2, 4)):
        state, _ = play(state, seat, {"type": "place", "column": column}, COLLECT)
    return state


# --- I-TURN-1 ------------------------------------------------------------------------------------


def test_i_turn_1_first_round_places_above_clockwise_then_acts_in_the_same_turn() -> None:
    state = game(3, 1, first=1)
    assert state.current == 1 and state.step == "place"
    assert island.legal_moves(state, 1) == [{"type": "place", "column": c} for c in range(5)]
    state, events = island.apply(state, 1, {"type": "place", "column": 4})
    assert kinds(events) == ["pawn_placed"]
    assert state.players[1].pawn.side == "above" and state.players[1].pawn.column == 4
    # The placement is the move; the same seat now collects or stores.
    assert state.current == 1 and state.step == "act"
    assert island.legal_moves(state, 1) == [COLLECT]
    state, _ = island.apply(state, 1, COLLECT)
    assert state.current == 2 and state.step == "place"  # clockwise: seat 2, then seat 0
    assert {"type": "place", "column": 4} not in island.legal_moves(state, 2)
    msg = _refused(state, 2, {"type": "place", "column": 4}, "column_taken")
    assert "Seat 2's pawn already faces column 4 above" in msg
    state, _ = play(state, 2, {"type": "place", "column": 0}, COLLECT)
    assert state.current == 0
    assert island.legal_moves(state, 0) == [{"type": "place", "column": c} for c in (1, 2, 3)]


# --- I-TURN-2 ------------------------------------------------------------------------------------


def test_i_turn_2_later_rounds_cross_to_the_other_side_not_last_column_nor_taken() -> None:
    state = _round_one()
    assert state.round == 2 and state.step == "move" and state.current == 2
    # Seat 2 faced column 4: any other column below, even column 1 that seat 0 faces above.
    assert island.legal_moves(state, 2) == [{"type": "move", "column": c} for c in (0, 1, 2, 3)]
    _refused(state, 2, {"type": "move", "column": 4}, "same_column")
    state, events = island.apply(state, 2, {"type": "move", "column": 1})
    assert kinds(events) == ["pawn_moved"]
    assert events[0].to_dict() == {
        "kind": "pawn_moved",
        "seat": 2,
        "column": 1,
        "side": "below",
        "from_column": 4,
        "private_to": None,
    }
    pawn = state.players[2].pawn
    assert (pawn.side, pawn.column, pawn.last) == ("below", 1, 4)
    state, _ = island.apply(state, 2, COLLECT)
    # Seat 1 (column 3): not 3 (its own), not 1 (seat 2 below); 4 is free below now.
    assert state.current == 1
    assert island.legal_moves(state, 1) == [{"type": "move", "column": c} for c in (0, 2, 4)]
    _refused(state, 1, {"type": "move", "column": 1}, "column_taken")
    v = island.view(state)
    assert v["players"][2]["pawn"] == {
        "side": "below",
        "column": 1,
        "last_column": 4,
        "moved": True,
    }
    assert v["players"][1]["pawn"] == {
        "side": "above",
        "column": 3,
        "last_column": 3,
        "moved": False,
    }
    assert v["columns"][1]["above"] == 0 and v["columns"][1]["below"] == 2


def test_i_turn_2_before_the_last_round_no_empty_column() -> None:
    state = empty_column(_round_one(), 0)
    assert {"type": "move", "column": 0} not in island.legal_moves(state, 2)
    msg = _refused(state, 2, {"type": "move", "column": 0}, "empty_column")
    assert "Column 0 has no cards left" in msg and "1, 2, 3" in msg
    state = replace(state, last_round=True)
    assert {"type": "move", "column": 0} in island.legal_moves(state, 2)


# --- I-TURN-3 ------------------------------------------------------------------------------------


def test_i_turn_3_pawn_nearest_the_stern_plays_next_and_the_round_ends_on_one_side() -> None:
    state = _round_one()
    order = []
    moves = {2: 0, 1: 2, 0: 4}
    while state.round == 2:
        seat = state.current
        assert seat is not None
        order.append(seat)
        state, events = play(state, seat, {"type": "move", "column": moves[seat]}, COLLECT)
    assert order == [2, 1, 0]  # columns 4, 3, 1 above
    assert events[-1].to_dict() == {
        "kind": "round_ended",
        "round": 2,
        "side": "below",
        "next_is_last": False,
        "private_to": None,
    }
    assert all(p.pawn.side == "below" for p in state.players)
    # Round 3 starts with the pawn nearest the stern: seat 0 in column 4.
    assert state.round == 3 and state.current == 0 and state.step == "move"
    assert island.view(state)["side"] == "above"


# --- I-TURN-4 ------------------------------------------------------------------------------------


def test_i_turn_4_collect_takes_the_top_card_of_every_stack_of_the_column() -> None:
    # 3 players: column 4 holds stacks 8 (face up), 9 and 10 (face down).
    state = acting(3, 0, 4, hand=tuple(f"clothing:hat:{i}" for i in (1, 2, 3)))
    state = set_stack(state, 8, "food:ham:1", "repair:saw:2")
    state = set_stack(state, 9, "fishing:net:1")
    state = set_stack(state, 10, "food:bread:1", "food:bread:2", "treasure:coin:3")
    state, events = island.apply(state, 0, COLLECT)
    hand = names(state.players[0].hand)
    assert hand == [
        "clothing:hat:1",
        "clothing:hat:2",
        "clothing:hat:3",
        "repair:saw:2",
        "fishing:net:1",
        "treasure:coin:3",
    ]
    assert names(state.stacks[8]) == ["food:ham:1"]
    assert state.stacks[9] == () and names(state.stacks[10]) == ["food:bread:1", "food:bread:2"]
    assert kinds(events) == [
        "card_taken",
        "card_taken",
        "card_drawn",
        "card_taken",
        "card_drawn",
        "turn_ended",
    ]


def test_i_turn_4_hand_size_is_unlimited() -> None:
    many = tuple(data.CARD_IDS[c] for c in range(40))
    state = acting(3, 0, 3, hand=many)
    assert COLLECT in island.legal_moves(state, 0)
    state, _ = island.apply(state, 0, COLLECT)
    assert len(state.players[0].hand) == 43


def test_i_turn_4_store_one_to_n_cards_of_one_category_n_the_stacks_of_the_column() -> None:
    hand = ("food:ham:1", "food:ham:2", "food:ham:3", "food:bread:4", "clothing:hat:1")
    state = acting(3, 0, 1, hand=hand)  # column 1: 2 stacks
    assert island.legal_moves(state, 0) == [
        COLLECT,
        store("clothing", hat=1),
        store("food", bread=1),
        store("food", ham=1),
        store("food", bread=1, ham=1),
        store("food", ham=2),
    ]
    msg = _refused(state, 0, store("food", ham=3), "too_many_cards")
    assert "1 to 2 cards, not 3" in msg
    _refused(state, 0, store("food", bread=2), "not_in_hand")
    state, events = island.apply(state, 0, store("food", bread=1, ham=1))
    assert names(state.players[0].hand) == ["clothing:hat:1", "food:ham:2", "food:ham:3"]
    assert names(state.players[0].collections[4].cards) == ["food:bread:4", "food:ham:1"]
    # The public event names the objects stored, not which copies (the state keeps those).
    assert events[0].to_dict()["cards"] == ("food:bread", "food:ham")
    # Column 4 has 3 stacks: three cards at once.
    state = acting(3, 0, 4, hand=hand)
    assert store("food", ham=3) in island.legal_moves(state, 0)
    # Column 0 has one stack: one card only.
    state = acting(3, 0, 0, hand=hand)
    assert [m for m in island.legal_moves(state, 0) if m["type"] == "store"] == [
        store("clothing", hat=1),
        store("food", bread=1),
        store("food", ham=1),
    ]


def test_i_turn_4_with_nothing_to_store_the_player_must_collect() -> None:
    state = acting(3, 0, 2, hand=("treasure:pearl:1", "treasure:crown:2"))
    assert island.legal_moves(state, 0) == [COLLECT]
    state = set_collection(state, 0, "food", "food:ham:1", "food:ham:2", "food:ham:3", porthole=5)
    state = relocate(state, ("hand", 0), "food:ham:4")  # food is closed: nothing to store
    assert island.legal_moves(state, 0) == [COLLECT]
    _refused(state, 0, store("food", ham=1), "collection_closed")
    _refused(state, 0, {"type": "idle"}, "cannot_idle")


def test_i_turn_4_last_round_empty_column_and_nothing_to_store_does_nothing() -> None:
    state = empty_column(acting(3, 0, 2, hand=("treasure:pearl:1",)), 2)
    state = replace(state, last_round=True, end_triggered=True)
    assert island.legal_moves(state, 0) == [{"type": "idle"}]
    _refused(state, 0, COLLECT, "collect_empty")
    hand = state.players[0].hand
    state, events = island.apply(state, 0, {"type": "idle"})
    assert kinds(events) == ["idled", "turn_ended"]
    assert state.players[0].hand == hand and state.current != 0


def _last_round(hand: tuple[str, ...], *empty: int) -> island.State:
    """3 players, round 3 (the last), every pawn below from round 2: seat 0 at column 1, seat 1
    at column 3, seat 2 at column 4 (so seat 2 moves first); the `empty` columns hold no card and
    seat 2 holds exactly `hand`."""
    state = pawns(clear_hands(game(3, 1)), ("below", 1, 0), ("below", 3, 2), ("below", 4, 1))
    state = replace(
        state, round=3, last_round=True, end_triggered=True, step="move", current=2, moved=()
    )
    for column in empty:
        state = empty_column(state, column)
    return relocate(state, ("hand", 2), *hand) if hand else state


def _moves(*columns: int) -> list[dict[str, Any]]:
    return [{"type": "move", "column": c} for c in columns]


def test_i_turn_4_last_round_empty_column_only_to_store() -> None:
    # Columns 0 and 2 are empty. Seat 2 holds a food card and food is open: it may face them.
    state = _last_round(("food:ham:1", "treasure:pearl:1"), 0, 2)
    assert island.legal_moves(state, 2) == _moves(0, 1, 2, 3)
    state, events = island.apply(state, 2, {"type": "move", "column": 0})
    assert kinds(events) == ["pawn_moved"]
    assert state.players[2].pawn == Pawn("above", 0, 4)
    # There it may only store, up to the column's one stack; never collect nor idle.
    assert island.legal_moves(state, 2) == [store("food", ham=1)]
    _refused(state, 2, COLLECT, "collect_empty")
    _refused(state, 2, {"type": "idle"}, "cannot_idle")
    token = state.camp[data.STORABLE.index("food")]
    state, events = island.apply(state, 2, store("food", ham=1))
    assert names(state.players[2].hand) == ["treasure:pearl:1"]
    assert names(state.players[2].collections[4].cards) == ["food:ham:1"]
    assert state.players[2].collections[4].tokens == (token,)
    assert kinds(events)[-1] == "turn_ended"
    # Seat 1 (column 3, nearest the stern of those left) moves next.
    assert (state.current, state.step) == (1, "move")


@pytest.mark.parametrize(
    "closed", [False, True], ids=["only treasures", "food card of a closed collection"]
)
def test_i_turn_4_nothing_storable_cannot_face_an_empty_column_when_one_with_cards_is_allowed(
    closed: bool,
) -> None:
    if closed:
        state = _last_round(("food:ham:4",), 0, 2)
        three = ("food:ham:1", "food:ham:2", "food:ham:3")
        state = set_collection(state, 2, "food", *three, porthole=5)
    else:
        state = _last_round(("treasure:pearl:1",), 0, 2)
    before = island.to_json(state)
    assert island.legal_moves(state, 2) == _moves(1, 3)
    for column in (0, 2):
        msg = _refused(state, 2, {"type": "move", "column": column}, "empty_column_no_store")
        assert msg == (
            f"Column {column} has no cards left, and in the last round a pawn may face an empty "
            "column only to store, but you hold no card you may store; choose a column with "
            "cards: 1, 3."
        )
    assert island.to_json(state) == before
    hand = state.players[2].hand
    state, _ = play(state, 2, {"type": "move", "column": 3})
    assert state.players[2].pawn == Pawn("above", 3, 4)
    assert island.legal_moves(state, 2) == [COLLECT]
    _refused(state, 2, {"type": "idle"}, "cannot_idle")
    state, _ = island.apply(state, 2, COLLECT)
    assert len(state.players[2].hand) == len(hand) + 3  # column 3: three stacks of cards


def test_i_turn_4_idle_only_when_every_allowed_column_is_empty_and_nothing_to_store() -> None:
    # Only column 4, which seat 2 faced last round, still has cards.
    state = _last_round(("treasure:pearl:1",), 0, 1, 2, 3)
    assert island.legal_moves(state, 2) == _moves(0, 1, 2, 3)
    state, _ = island.apply(state, 2, {"type": "move", "column": 3})
    assert island.legal_moves(state, 2) == [{"type": "idle"}]
    _refused(state, 2, COLLECT, "collect_empty")
    state, events = island.apply(state, 2, {"type": "idle"})
    assert [e.to_dict() for e in events] == [
        {"kind": "idled", "seat": 2, "column": 3, "private_to": None},
        {"kind": "turn_ended", "seat": 2, "hand_size": 1, "private_to": None},
    ]
    assert names(state.players[2].hand) == ["treasure:pearl:1"]
    assert state.players[2].pawn == Pawn("above", 3, 4)
    # Seat 1 (below column 3) may not face column 3 again; column 4 is the one with cards.
    assert (state.current, state.step) == (1, "move")
    assert island.legal_moves(state, 1) == _moves(4)
    # With a card it may store, the same seat faces an empty column to store, never to idle.
    state = _last_round(("food:ham:1",), 0, 1, 2, 3)
    assert island.legal_moves(state, 2) == _moves(0, 1, 2, 3)
    state, _ = island.apply(state, 2, {"type": "move", "column": 3})
    assert island.legal_moves(state, 2) == [store("food", ham=1)]


# --- I-TURN-5 ------------------------------------------------------------------------------------


def test_i_turn_5_face_down_cards_only_to_the_taker_face_up_ones_to_all() -> None:
    state = acting(3, 1, 4)
    state = set_stack(state, 8, "food:ham:1", "repair:saw:2")
    state = set_stack(state, 9, "fishing:net:1")
    state = set_stack(state, 10, "treasure:coin:3")
    state, events = island.apply(state, 1, COLLECT)
    public = [e.to_dict() for e in events if e.private_to is None]
    private = [e.to_dict() for e in events if e.private_to is not None]
    assert public[:3] == [
        {
            "kind": "card_taken",
            "seat": 1,
            "column": 4,
            "stack": 8,
            "face": "up",
            "card": "repair:saw",  # everyone saw a saw; which copy, nobody is told
            "private_to": None,
        },
        {
            "kind": "card_taken",
            "seat": 1,
            "column": 4,
            "stack": 9,
            "face": "down",
            "card": None,
            "private_to": None,
        },
        {
            "kind": "card_taken",
            "seat": 1,
            "column": 4,
            "stack": 10,
            "face": "down",
            "card": None,
            "private_to": None,
        },
    ]
    assert private == [
        {
            "kind": "card_drawn",
            "seat": 1,
            "column": 4,
            "stack": 9,
            "card": "fishing:net:1",
            "private_to": 1,
        },
        {
            "kind": "card_drawn",
            "seat": 1,
            "column": 4,
            "stack": 10,
            "card": "treasure:coin:3",
            "private_to": 1,
        },
    ]
    assert "fishing:net:1" not in json.dumps(public)
    # The hand size is public, the cards are not; the face-up card is remembered as public.
    assert names(state.players[1].known) == ["repair:saw:2"]
    for seat in (None, 0, 2):
        v = island.view(state, seat)
        assert v["players"][1]["hand_size"] == 3 and v["players"][1]["hand"] is None
        text = json.dumps(v)
        for cid in ("fishing:net:1", "treasure:coin:3", "repair:saw:2"):
            assert f'"{cid}"' not in text
        # No copy number at all outside the holder's own hand.
        assert not re.search(r'"[a-z]+:[a-z]+:[1-4]"', text)
    own = island.view(state, 1)["players"][1]
    assert [c["id"] for c in own["hand"]] == ["repair:saw:2", "fishing:net:1", "treasure:coin:3"]
    assert own["treasure_vp"] == 2
    # Collections are public.
    state2 = set_collection(state, 1, "food", "food:bread:1")
    cards = island.view(state2, 0)["players"][1]["collections"][4]["cards"]
    assert cards == [{"id": "food:bread", "category": "food", "object": "bread"}]


# --- I-TURN-6 ------------------------------------------------------------------------------------


def test_i_turn_6_after_storing_token_then_refill_then_optional_closing() -> None:
    state = acting(3, 0, 4, hand=("food:ham:1", "food:ham:2", "food:bread:1"))
    state = camp(state, clothing=None, navigation=None, repair=None, fishing="odd", food="vp3")
    state = replace(state, reserve=("pair", "vp2", "per_card", "double_porthole"))
    state, events = island.apply(state, 0, store("food", ham=2, bread=1))
    assert kinds(events) == ["cards_stored", "token_taken", "camp_refilled"]
    assert events[1].to_dict()["token"] == "vp3"
    # Four empty spaces, four tokens: drawn from the end of the reserve, in space order.
    assert state.camp == ("double_porthole", "per_card", "vp2", "odd", "pair")
    assert state.reserve == ()
    # Then the closing decision, with the refill already visible.
    assert state.step == "close" and state.current == 0
    assert island.legal_moves(state, 0) == [{"type": "close"}, {"type": "keep_open"}]
    assert island.view(state)["pending"] == {"category": "food", "size": 3, "porthole": 5}
    state, events = island.apply(state, 0, {"type": "close"})
    assert kinds(events) == ["collection_closed", "turn_ended"]
    col = state.players[0].collections[4]
    assert col.tokens == ("vp3",) and col.porthole == 5 and len(col.cards) == 3
    assert names(col.cards) == ["food:bread:1", "food:ham:1", "food:ham:2"]
