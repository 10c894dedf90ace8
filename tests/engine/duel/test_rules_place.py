"""Placing cards (D-ROUND-3), the kraken, fishbone and anchor (D-ROUND-4), arrows (D-ROUND-5)."""

from __future__ import annotations

import pytest

from engine import duel
from tests.engine.duel.kit import EMPTY, arrow, kinds, make, place, play, row

HANDS = ((1, 2, 3, 4, 5), (10, 11, 12, 13, 14))


def test_d_round_3_players_alternate_on_either_side_until_all_ten_spaces_are_filled() -> None:
    state = make(hands=HANDS, first=1)
    assert state.current == 1
    # Any empty space on either side: 5 cards x 10 spaces.
    assert len(duel.legal_moves(state, 1)) == 50
    state, _ = play(state, 1, place(10, 0, 2))  # on the opponent's side
    assert state.board[0][2] == 10 and state.current == 0
    state, _ = play(state, 0, place(1, 1, 2))
    assert state.current == 1
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(state, 1, place(11, 0, 2))
    assert info.value.code == "space_taken"
    seq = [(1, 11, 0, 0), (0, 2, 0, 1), (1, 12, 1, 0), (0, 3, 1, 1), (1, 13, 0, 3)]
    seq += [(0, 4, 1, 3), (1, 14, 0, 4), (0, 5, 1, 4)]
    placed = {0: 1, 1: 1}
    for seat, card, side, slot in seq:
        assert state.current == seat and state.round == 1
        state, events = play(state, seat, place(card, side, slot))
        placed[seat] += 1
    # All 10 spaces filled, each player placed 5: the round was scored and round 2 dealt.
    assert placed == {0: 5, 1: 5}
    assert len(kinds(events, "slot_awarded")) == 5 and state.round == 2


def test_d_round_4_kraken_is_15_fishbone_is_0_placed_like_divers() -> None:
    state = make(hands=HANDS, specials=("fishbone", "kraken"))
    moves = duel.legal_moves(state, 0)
    assert {m["card"] for m in moves} == {0, 1, 2, 3, 4, 5}
    state, events = play(state, 0, place(0, 0, 0))
    assert state.board[0][0] == 0 and state.hands[0].special is None
    assert [e.to_dict()["special"] for e in kinds(events, "special_played")] == ["fishbone"]
    state, _ = play(state, 1, place(15, 1, 0))
    assert state.board[1][0] == 15 and duel.view(state)["slots"][0]["sides"][1]["name"] == "kraken"
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(state, 0, place(0, 0, 1))
    assert info.value.code == "not_in_hand"


def test_d_round_4_anchor_goes_on_the_placed_card_or_any_card_in_play() -> None:
    board = (row(3, None, None, None, None), row(None, 15, None, None, None))
    state = make(hands=((1, 2, 4, 5), (10, 11, 12, 13)), specials=("anchor", None), board=board)
    moves = [m for m in duel.legal_moves(state, 0) if m["card"] == 1 and m["side"] == 0]
    slot2 = [m for m in moves if m["slot"] == 2]
    assert [m.get("anchor") for m in slot2] == [None, 1, 3, 15]
    after, events = play(state, 0, place(1, 0, 2, anchor=15))
    assert after.anchored == 15 and after.hands[0].special is None
    assert duel.view(after)["slots"][1]["sides"][1]["anchored"] is True
    assert kinds(events, "anchored")[0].to_dict()["card"] == 15
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(state, 0, place(1, 0, 2, anchor=12))
    assert info.value.code == "bad_anchor_target"
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(after, 1, place(10, 1, 2, anchor=10))
    assert info.value.code == "no_anchor"


def test_d_round_4_unplayed_kraken_fishbone_anchor_are_discarded_at_round_end() -> None:
    board = (row(1, 2, 3, 4, None), row(10, 11, 12, 13, 14))
    state = make(hands=((5,), ()), specials=("kraken", "anchor"), board=board, turn=0)
    state, events = play(state, 0, place(5, 0, 4))
    discarded = kinds(events, "special_discarded")
    assert [(e.to_dict()["special"], e.private_to) for e in discarded] == [
        ("kraken", 0),
        ("anchor", 1),
    ]
    assert state.round == 2 and {"kraken", "anchor"} <= set(state.aside)


def test_d_round_5_vertical_arrow_moves_a_card_across_to_the_empty_space() -> None:
    board = (row(3, 4, None, None, None), row(None, 12, None, None, 11))
    state = make(hands=((1, 2, 6), (10,)), board=board, turn=0)
    # The 6 placed on side 0: the 3 can go across (slot 0 empty there), the 4 cannot.
    state, events = play(state, 0, place(6, 0, 2))
    assert state.board == (
        (None, 4, 6, None, None),
        (3, 12, None, None, 11),
    )
    moved = kinds(events, "arrow_moved")[0].to_dict()
    assert (moved["card"], moved["side"], moved["slot"], moved["forced"]) == (3, 1, 0, True)
    assert state.current == 1


def test_d_round_5_the_placer_chooses_among_several_moves_as_a_follow_up() -> None:
    board = (row(3, 4, None, None, None), row(None, None, None, None, None))
    state = make(hands=((1, 2, 9), (10, 11)), board=board, turn=0)
    state, events = play(state, 0, place(9, 0, 4))
    assert state.step == "arrow" and state.current == 0
    assert kinds(events, "arrow_pending")[0].to_dict()["options"] == 2
    assert duel.legal_moves(state, 0) == [arrow(3, 1, 0), arrow(4, 1, 1)]
    assert duel.legal_moves(state, 1) == []
    state, _ = play(state, 0, arrow(4, 1, 1))
    assert state.board[1][1] == 4 and state.board[0][1] is None
    assert state.step == "place" and state.current == 1


def test_d_round_5_horizontal_arrow_moves_along_the_same_side_on_either_side() -> None:
    # Seat 0 places the 7 on seat 1's side: a card on that side moves along it.
    board = (row(1, None, None, None, None), row(12, None, None, None, None))
    state = make(hands=((2, 7), (10, 11)), board=board, turn=0)
    state, _ = play(state, 0, place(7, 1, 1))
    assert state.step == "arrow"
    assert duel.legal_moves(state, 0) == [arrow(12, 1, k) for k in (2, 3, 4)]
    state, _ = play(state, 0, arrow(12, 1, 4))
    assert state.board[1] == (None, 7, None, None, 12)
    assert state.board[0] == (1, None, None, None, None)


def test_d_round_5_arrows_never_chain_a_moved_arrow_card_does_nothing() -> None:
    # The 8 is moved across by the 9; it must not trigger its own horizontal arrow.
    board = (row(8, 5, None, None, None), row(None, 12, 13, None, None))
    state = make(hands=((1, 9), (10, 11)), board=board, turn=0)
    state, events = play(state, 0, place(9, 0, 2))
    assert duel.legal_moves(state, 0) == [arrow(8, 1, 0)] or state.step == "place"
    moved = kinds(events, "arrow_moved")
    assert len(moved) == 1 and moved[0].to_dict()["card"] == 8  # forced: the only move
    assert state.board == ((None, 5, 9, None, None), (8, 12, 13, None, None))
    assert state.step == "place" and state.current == 1


def test_d_round_5_the_move_is_mandatory_when_one_exists() -> None:
    board = (row(3, None, None, None, None), row(None, None, None, None, None))
    state = make(hands=((1, 7), (10, 11)), board=board, turn=0)
    state, _ = play(state, 0, place(7, 0, 1))
    assert state.step == "arrow"
    moves = duel.legal_moves(state, 0)
    assert moves == [arrow(3, 0, k) for k in (2, 3, 4)]
    # No way to skip it: placing is refused until the arrow is resolved.
    with pytest.raises(duel.IllegalMove) as info:
        duel.apply(state, 0, place(1, 0, 2))
    assert info.value.code == "not_now"


def test_d_round_5_without_a_legal_move_nothing_moves() -> None:
    # Vertical: the only other card's opposite space is taken.
    board = (row(3, None, None, None, None), row(12, None, None, None, None))
    state = make(hands=((1, 6), (10, 11)), board=board, turn=0)
    state, events = play(state, 0, place(6, 0, 1))
    assert kinds(events, "arrow_blocked") and not kinds(events, "arrow_moved")
    assert state.board == ((3, 6, None, None, None), (12, None, None, None, None))
    assert state.step == "place" and state.current == 1
    # The arrow card alone on its side: nothing to move either.
    state = make(hands=((1, 8), (10,)), board=(EMPTY, row(12, None, None, None, 11)))
    state, events = play(state, 0, place(8, 0, 1))
    assert kinds(events, "arrow_blocked") and state.board[1][0] == 12


def test_d_round_5_an_anchored_card_cannot_be_moved() -> None:
    board = (row(3, 4, None, None, None), row(None, None, None, None, None))
    state = make(hands=((1, 9), (10, 11)), board=board, anchored=3, turn=0)
    state, events = play(state, 0, place(9, 0, 4))
    # Only the 4 may move: the 3 is anchored.
    moved = kinds(events, "arrow_moved")[0].to_dict()
    assert moved["card"] == 4 and moved["forced"] is True
    assert state.board[0][0] == 3


def test_d_round_5_anchor_is_attached_before_the_arrow_resolves() -> None:
    board = (row(3, None, None, None, None), row(None, None, None, None, None))
    state = make(hands=((1, 6), (10, 11)), specials=("anchor", None), board=board, turn=0)
    # Without the anchor the 6 must send the 3 across; with the anchor on the 3, nothing moves.
    plain, _ = play(state, 0, place(6, 0, 1))
    assert plain.board[1][0] == 3
    anchored, events = play(state, 0, place(6, 0, 1, anchor=3))
    assert anchored.board[0][0] == 3 and anchored.anchored == 3
    assert [e.kind for e in events if e.kind in ("anchored", "arrow_blocked")] == [
        "anchored",
        "arrow_blocked",
    ]


def test_d_round_5_arrow_refusals_name_the_allowed_moves() -> None:
    board = (row(3, 4, None, None, None), row(None, None, 13, None, None))
    state = make(hands=((1, 2, 9), (10, 11)), board=board, anchored=None, turn=0)
    state, _ = play(state, 0, place(9, 0, 4))
    for move, code in (
        (arrow(9, 1, 4), "not_movable"),
        (arrow(13, 0, 2), "not_movable"),
        (arrow(3, 1, 1), "bad_destination"),
        (arrow(3, 0, 2), "bad_destination"),
    ):
        with pytest.raises(duel.IllegalMove) as info:
            duel.apply(state, 0, move)
        assert info.value.code == code
        assert "3 to side 1 slot 0; 4 to side 1 slot 1" in str(info.value)
