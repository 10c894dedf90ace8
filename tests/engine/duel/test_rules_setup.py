"""D-SETUP and the start of a round (D-ROUND-1, D-ROUND-2): dealing, the specials phase."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import duel
from engine.duel import data
from tests.engine.duel.kit import kinds, make


def test_d_setup_1_two_players_14_divers_30_domain_cards_6_specials() -> None:
    state = duel.new_game(2, 4)
    divers = [*state.hands[0].divers, *state.hands[1].divers, *state.diver_deck]
    assert sorted(divers) == list(range(1, 15))
    assert sorted([*state.domain_deck, *state.slots]) == list(range(30))
    assert sorted([*state.special_deck, *state.drawn]) == sorted(
        ["kraken", "fishbone", "anchor", "eye", "diving_module", "harpoon"]
    )
    assert data.DOMAINS == ("science", "exploration", "navigation", "engineering", "war")
    for players in (1, 3, 4, 0):
        with pytest.raises(duel.IllegalMove) as info:
            duel.new_game(players, 1)
        assert info.value.code == "bad_players"


def test_d_setup_2_each_domain_has_two_two_stars_three_one_star_one_ink_blot() -> None:
    for domain in data.DOMAINS:
        kinds_ = Counter(data.kind_of(c) for c in data.DOMAIN_CARDS if data.domain_of(c) == domain)
        assert kinds_ == {"two_stars": 2, "one_star": 3, "ink": 1}
    assert data.POINTS == {"two_stars": 2, "one_star": 1, "ink": -1}


def test_d_setup_3_five_domain_cards_face_up_and_a_random_first_player() -> None:
    state = duel.new_game(2, 9)
    assert len(state.slots) == 5 and len(state.domain_deck) == 25
    public = duel.view(state)
    assert [s["domain"]["id"] for s in public["slots"]] == list(state.slots)
    assert public["domain_deck"] == 25 and public["diver_deck"] == 4
    firsts = {duel.new_game(2, seed).first for seed in range(20)}
    assert firsts == {0, 1}
    # The host may set it.
    assert duel.new_game(2, 9, first=1).first == 1
    assert duel.new_game(2, 9, first=0).current == 0


def test_d_round_1_five_secret_divers_each_and_the_first_player_keeps_one_special() -> None:
    state = duel.new_game(2, 5, first=1)
    assert [len(h.divers) for h in state.hands] == [5, 5]
    assert state.step == "keep" and state.current == 1 and len(state.drawn) == 2
    a, b = state.drawn
    assert duel.view(state, 1)["me"]["drawn"] == [a, b]
    assert duel.view(state, 0)["me"]["drawn"] == []
    assert duel.legal_moves(state, 1) == [
        {"type": "keep", "special": a},
        {"type": "keep", "special": b},
    ]
    after, events = duel.apply(state, 1, {"type": "keep", "special": b})
    # A kept or given eye, module or harpoon may already have been played.
    assert after.hands[1].special in (b, None) and after.hands[0].special in (a, None)
    assert (b in after.seen[1], a in after.seen[0]) == (True, True)
    chosen = kinds(events, "special_chosen")[0]
    received = kinds(events, "special_received")[0]
    assert chosen.to_dict() == {
        "kind": "special_chosen",
        "seat": 1,
        "kept": b,
        "given": a,
        "private_to": 1,
    }
    assert received.to_dict() == {
        "kind": "special_received",
        "seat": 0,
        "special": a,
        "private_to": 0,
    }
    public = kinds(events, "special_kept")[0]
    assert public.private_to is None and public.to_dict() == {
        "kind": "special_kept",
        "seat": 1,
        "to": 0,
        "private_to": None,
    }


def test_d_round_1_the_first_player_knows_the_special_given_the_other_does_not() -> None:
    state = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), specials=("kraken", "anchor"))
    assert duel.view(state, 0)["me"]["opponent_special"] == "anchor"
    assert duel.view(state, 1)["me"]["opponent_special"] is None
    assert "kraken" not in str(duel.view(state, 1)) and "kraken" not in str(duel.view(state))


def test_d_round_2_eye_shows_the_opponent_divers_only_to_its_player() -> None:
    state = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=("kraken", "eye"))
    state, events = duel.apply(state, 0, {"type": "keep", "special": "kraken"})
    # The eye is played face up as its turn comes; its player then looks.
    played = kinds(events, "special_played")[0]
    assert played.private_to is None and played.to_dict()["special"] == "eye"
    assert state.step == "eye" and state.turn == 1 and duel.view(state)["players"][1]["played"]
    assert duel.legal_moves(state, 1) == [{"type": "eye"}]
    after, events = duel.apply(state, 1, {"type": "eye"})
    assert after.step == "place" and after.current == 0
    assert duel.view(after, 1)["me"]["eye"] == {"round": 1, "divers": [1, 2, 3, 4, 5]}
    assert duel.view(after, 0)["me"]["eye"] is None
    assert duel.view(after)["me"] is None
    seen = kinds(events, "eye_seen")[0]
    assert seen.private_to == 1 and seen.to_dict()["divers"] == (1, 2, 3, 4, 5)


def test_d_round_2_eye_snapshot_stays_as_it_was_when_the_hand_changes() -> None:
    # The first player holds the eye, the second the harpoon: the eye looks first, then the
    # harpoon changes the hand it looked at; the eye's player still sees the old snapshot.
    state = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=("eye", "harpoon"))
    state, _ = duel.apply(state, 0, {"type": "keep", "special": "eye"})
    state, _ = duel.apply(state, 0, {"type": "eye"})
    assert state.step == "harpoon" and state.turn == 1
    took = state.harpooned
    assert took in (1, 2, 3, 4, 5)
    state, _events = duel.apply(state, 1, {"type": "harpoon", "give": 6})
    assert 6 in state.hands[0].divers and took in state.hands[1].divers
    me = duel.view(state, 0)["me"]
    assert me["eye"]["divers"] == [6, 7, 8, 9, 10]
    # What the eye's player knows now: the opponent holds the harpooned card and 7..10.
    assert me["known"] == sorted({took, 7, 8, 9, 10})


def test_d_round_2_diving_module_draws_two_keeps_one_puts_one_back_on_top() -> None:
    base = make(
        hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=("diving_module", "kraken")
    )
    deck = base.diver_deck
    state, events = duel.apply(base, 0, {"type": "keep", "special": "diving_module"})
    assert state.step == "dive" and state.turn == 0
    assert state.module == deck[:2]
    assert kinds(events, "module_drew")[0].private_to == 0
    assert duel.view(state, 0)["me"]["module"] == list(deck[:2])
    assert duel.view(state, 1)["me"]["module"] == []
    assert duel.legal_moves(state, 0) == [
        {"type": "dive", "keep": deck[0]},
        {"type": "dive", "keep": deck[1]},
    ]
    state, events = duel.apply(state, 0, {"type": "dive", "keep": deck[1]})
    assert state.hands[0].divers == tuple(sorted((1, 2, 3, 4, 5, deck[1])))
    assert state.diver_deck == (deck[0], *deck[2:])
    assert duel.view(state, 0)["me"]["deck_top"] == deck[0]
    assert duel.view(state, 1)["me"]["deck_top"] is None
    assert state.step == "place"


def test_d_round_2_harpoon_keep_and_give_back_or_return() -> None:
    base = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=("harpoon", "anchor"))
    state, events = duel.apply(base, 0, {"type": "keep", "special": "harpoon"})
    took = state.harpooned
    assert state.step == "harpoon" and took in (6, 7, 8, 9, 10)
    assert took not in state.hands[1].divers
    assert [e.private_to for e in kinds(events, "harpoon_card")] == [0, 1]
    public = kinds(events, "harpoon_took")[0].to_dict()
    assert public == {"kind": "harpoon_took", "seat": 0, "victim": 1, "private_to": None}
    # One move per outcome: give one of 5 own divers (keeping the card) or give it back.
    assert duel.legal_moves(state, 0) == [
        {"type": "harpoon", "give": v} for v in sorted({1, 2, 3, 4, 5, took})
    ]
    kept, events = duel.apply(state, 0, {"type": "harpoon", "give": 3})
    assert kept.hands[0].divers == tuple(sorted({1, 2, 4, 5, took}))
    assert kept.hands[1].divers == tuple(sorted({6, 7, 8, 9, 10} - {took} | {3}))
    assert kinds(events, "harpoon_resolved")[0].to_dict()["kept"] is True
    back, events = duel.apply(state, 0, {"type": "harpoon", "give": took})
    assert [h.divers for h in back.hands] == [h.divers for h in base.hands]
    assert back.hands[1].special == "anchor"
    assert kinds(events, "harpoon_resolved")[0].to_dict()["kept"] is False
    assert duel.view(back, 0)["me"]["known"] == [took]


def test_d_round_2_first_player_plays_first_and_only_start_specials_are_played() -> None:
    # Second player holds the eye, first the harpoon: the harpoon resolves, then the eye looks
    # at the hand as it is after the harpoon.
    base = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=("harpoon", "eye"))
    state, _ = duel.apply(base, 0, {"type": "keep", "special": "harpoon"})
    assert state.step == "harpoon" and state.turn == 0
    took = state.harpooned
    assert took is not None
    state, _ = duel.apply(state, 0, {"type": "harpoon", "give": 1})
    assert state.step == "eye" and state.turn == 1
    state, _ = duel.apply(state, 1, {"type": "eye"})
    assert state.eye is not None and state.eye.divers == tuple(sorted({2, 3, 4, 5, took}))
    # The kraken, fishbone and anchor start no step: placing starts at once.
    for kept, given in (("kraken", "anchor"), ("fishbone", "kraken")):
        other = make(hands=((1, 2, 3, 4, 5), (6, 7, 8, 9, 10)), step="keep", drawn=(kept, given))
        after, events = duel.apply(other, 0, {"type": "keep", "special": kept})
        assert after.step == "place" and after.turn == 0
        assert not kinds(events, "special_played")
