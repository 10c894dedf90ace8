"""Awarding domain cards (D-ROUND-6, D-ROUND-7), the next round (D-ROUND-8), the end (D-END)."""

from __future__ import annotations

from dataclasses import replace

from engine import duel
from engine.duel import data
from engine.duel.scoring import domain_totals, final_scores
from tests.engine.duel.kit import (
    card,
    cards,
    finish_round,
    kinds,
    make,
    place,
    play,
    row,
    to_placing,
)


def last_card(
    side0: tuple[int | None, ...], side1: tuple[int | None, ...], hand0: int
) -> duel.State:
    """Seat 0 to place its last card `hand0` on the one empty space; seat 1's hand is empty."""
    return make(hands=((hand0,), ()), board=(side0, side1), turn=0)


def test_d_round_6_each_slot_goes_to_the_higher_value() -> None:
    state = last_card(row(13, 2, 15, 9, None), row(12, 3, 10, 4, 11), hand0=5)
    slots = state.slots
    after, events = play(state, 0, place(5, 0, 4))
    awarded = [e.to_dict() for e in kinds(events, "slot_awarded")]
    assert [(a["slot"], a["values"], a["winner"]) for a in awarded] == [
        (0, (13, 12), 0),
        (1, (2, 3), 1),
        (2, (15, 10), 0),
        (3, (9, 4), 0),
        (4, (5, 11), 1),
    ]
    assert sorted(after.won[0]) == sorted([slots[0], slots[2], slots[3]])
    assert sorted(after.won[1]) == sorted([slots[1], slots[4]])


def test_d_round_6_the_crab_beats_the_14_and_only_the_14() -> None:
    # Slot 0: the crab (1) against the 14: the crab wins. Slot 1: 5 against the fishbone (0).
    # Slot 2: 13 against the kraken (15). Slot 3: 6 against 2. Slot 4: 4 against 3.
    state = make(hands=((4,), ()), board=(row(1, 5, 13, 6, None), row(14, 0, 15, 2, 3)), turn=0)
    _, events = play(state, 0, place(4, 0, 4))
    winners = [e.to_dict()["winner"] for e in kinds(events, "slot_awarded")]
    assert winners == [0, 0, 1, 0, 0]
    # The crab against the kraken and against the 13 loses: it beats only the 14.
    state = make(hands=((4,), ()), board=(row(1, 5, 13, 6, None), row(15, 0, 14, 2, 3)), turn=0)
    _, events = play(state, 0, place(4, 0, 4))
    awarded = [e.to_dict() for e in kinds(events, "slot_awarded")]
    assert [(a["values"], a["winner"]) for a in awarded[:3]] == [
        ((1, 15), 1),
        ((5, 0), 0),
        ((13, 14), 1),
    ]
    assert not data.beats(1, 13) and data.beats(13, 1)
    assert data.beats(1, 0) and data.beats(14, 13) and data.beats(15, 14)
    # Seat 1 holding the crab against seat 0's 14.
    state = make(hands=((4,), ()), board=(row(14, 5, 13, 6, None), row(1, 0, 15, 2, 3)), turn=0)
    _, events = play(state, 0, place(4, 0, 4))
    assert kinds(events, "slot_awarded")[0].to_dict()["winner"] == 1


def test_d_round_7_awards_are_public_won_piles_are_private() -> None:
    state = last_card(row(13, 2, 15, 9, None), row(12, 3, 10, 4, 11), hand0=5)
    after, events = play(state, 0, place(5, 0, 4))
    assert all(e.private_to is None for e in kinds(events, "slot_awarded"))
    piles = kinds(events, "won_pile")
    assert [e.private_to for e in piles] == [0, 1]
    public = duel.view(after)
    assert [a["winner"] for a in public["awards"]] == [0, 1, 0, 0, 1]
    assert [a["domain"]["id"] for a in public["awards"]] == list(state.slots)
    assert public["me"] is None
    assert [c["id"] for c in duel.view(after, 0)["me"]["won"]] == list(after.won[0])
    assert [c["id"] for c in duel.view(after, 1)["me"]["won"]] == list(after.won[1])


def test_d_round_8_nemo_passes_new_domains_divers_reshuffled_specials_aside() -> None:
    state = to_placing(duel.new_game(2, 17, first=0))
    deck = state.domain_deck
    round_specials = sorted(
        [sp for _, sp in state.played] + [h.special for h in state.hands if h.special]
    )
    after, events = finish_round(state)
    assert after.round == 2 and after.first == 1 and after.current == 1
    assert after.slots == deck[:5] and after.domain_deck == deck[5:]
    assert after.board == ((None,) * 5, (None,) * 5) and after.anchored is None
    assert [len(h.divers) for h in after.hands] == [5, 5] and len(after.diver_deck) == 4
    divers = sorted([*after.hands[0].divers, *after.hands[1].divers, *after.diver_deck])
    assert divers == list(range(1, 15))
    assert sorted(after.aside) == round_specials
    assert len(after.special_deck) == 2 and after.step == "keep"
    assert kinds(events, "round_started")[0].to_dict()["first"] == 1


def test_d_round_8_special_deck_is_rebuilt_after_round_3() -> None:
    state = duel.new_game(2, 23)
    drawn_by_round = []
    while state.round <= 3:
        drawn_by_round.append(state.drawn)
        state, events = finish_round(to_placing(state))
    # Rounds 1-3 drew all 6 specials once; round 4 draws from all 6 again.
    assert sorted(s for pair in drawn_by_round for s in pair) == sorted(data.SPECIALS)
    assert state.round == 4 and state.aside == ()
    assert kinds(events, "special_deck_rebuilt")[0].to_dict()["round"] == 4
    assert len(state.special_deck) == 4
    assert sorted([*state.special_deck, *state.drawn]) == sorted(data.SPECIALS)


def test_d_end_1_game_ends_after_round_6_with_domain_totals_and_ink_blots() -> None:
    state = duel.new_game(2, 31)
    rounds = 0
    while state.step != "over":
        state, events = finish_round(to_placing(state))
        rounds += 1
    assert rounds == 6 and state.round == 6 and state.domain_deck == ()
    assert len(state.awards) == 30 and sorted(state.won[0] + state.won[1]) == list(range(30))
    assert kinds(events, "game_ended")
    # Totals: two stars 2, one star 1, ink blot -1, none 0.
    pile = (*cards("war", "two_stars"), card("war", "ink"), card("science", "one_star"))
    assert domain_totals(pile) == (1, 0, 0, 0, 3)
    assert domain_totals((card("navigation", "ink"),)) == (0, 0, -1, 0, 0)


def test_d_end_1_equal_domain_totals_win_it_for_nobody() -> None:
    won0 = (card("science", "two_stars"), card("war", "one_star"))
    won1 = (*cards("science", "one_star")[:2], card("war", "ink"))
    state = make(won=(won0, won1))
    s0, s1 = final_scores(state)
    assert s0.totals[0] == s1.totals[0] == 2
    assert s0.domains == ("war",) and s1.domains == ()
    assert (s0.vp, s1.vp, s0.rank, s1.rank) == (1, 0, 1, 2)


def test_d_end_2_more_domains_wins_then_more_points_then_shared() -> None:
    # Seat 1 wins 2 domains by 1 point each, seat 0 one domain by 6: domains decide.
    won0: tuple[int, ...] = (*cards("war", "two_stars"), *cards("war", "one_star")[:2])
    won1: tuple[int, ...] = (card("science", "one_star"), card("navigation", "one_star"))
    s0, s1 = final_scores(make(won=(won0, won1)))
    assert (s0.vp, s1.vp, s0.rank, s1.rank, s0.tiebreak) == (1, 2, 2, 1, "domains")
    # One domain each: the higher sum of points wins.
    won0 = tuple(cards("war", "two_stars"))
    won1 = tuple(cards("science", "one_star")[:1])
    s0, s1 = final_scores(make(won=(won0, won1)))
    assert (s0.points, s1.points, s0.rank, s1.rank, s1.tiebreak) == (4, 1, 1, 2, "points")
    # Same domains won, same points: a shared win.
    won0 = tuple(cards("war", "two_stars")[:1])
    won1 = tuple(cards("science", "two_stars")[:1])
    scores = final_scores(make(won=(won0, won1)))
    assert [(s.rank, s.tiebreak) for s in scores] == [(1, "shared"), (1, "shared")]
    assert scores[0].to_dict()["totals"] == {
        "science": 0,
        "exploration": 0,
        "navigation": 0,
        "engineering": 0,
        "war": 2,
    }


def test_d_end_2_game_ended_event_and_final_view() -> None:
    state = duel.new_game(2, 41)
    while state.step != "over":
        state, events = finish_round(to_placing(state))
    ended = kinds(events, "game_ended")[0].to_dict()
    scores = final_scores(state)
    assert list(ended["winners"]) == [s.seat for s in scores if s.rank == 1]
    assert ended["tiebreak"] == scores[0].tiebreak
    final = duel.view(state)["final"]
    assert final == [s.to_dict() for s in scores]
    assert duel.view(state)["current"] is None and duel.is_over(state)
    # The last round's board stays, each slot marked with its winner.
    assert all(s["winner"] in (0, 1) for s in duel.view(state)["slots"])
    assert replace(state) == state
