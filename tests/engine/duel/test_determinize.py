"""determinize: a full state the seat cannot tell from the real one, with every card in one place.

On states of every step along seeded playouts, for both seats: the seat's view is unchanged, the
cards add up, the other hand and the decks really are re-dealt (over the sample), what the seat
knows (the eye, the harpoon, the module's returned diver, the given special) stays put, and the
determinized game can be played on to the end.
"""

from __future__ import annotations

import random
from functools import cache

from engine import duel
from engine.duel.state import State, _check
from tests.engine.duel.invariants import check
from tests.engine.duel.policy import choose, game_rng, taste


@cache
def sample() -> tuple[State, ...]:
    out: list[State] = []
    for seed in range(40):
        rng = game_rng(60_000 + seed)
        t = taste(rng)
        state = duel.new_game(2, 60_000 + seed)
        i = 0
        while not duel.is_over(state):
            if state.step != "place" or i % 4 == 0:
                out.append(state)
            seat = state.turn
            state, _ = duel.apply(state, seat, choose(rng, state, duel.legal_moves(state, seat), t))
            i += 1
        out.append(state)
    return tuple(out)


def test_view_is_unchanged_and_cards_add_up() -> None:
    changed_hands = changed_decks = 0
    rng = random.Random(5)
    for state in sample():
        for seat in (0, 1):
            d = duel.determinize(state, seat, rng)
            _check(d)
            assert duel.view(d, seat) == duel.view(state, seat)
            assert duel.legal_moves(d, seat) == duel.legal_moves(state, seat)
            other = 1 - seat
            changed_hands += d.hands[other] != state.hands[other]
            changed_decks += d.diver_deck != state.diver_deck
            if not duel.is_over(state):
                assert d.seed != state.seed
    assert changed_hands > 1000 and changed_decks > 1000


def test_what_the_seat_knows_stays_put() -> None:
    rng = random.Random(6)
    kinds = set()
    for state in sample():
        for seat in (0, 1):
            d = duel.determinize(state, seat, rng)
            other = 1 - seat
            assert set(state.known[seat]) <= set(d.hands[other].divers)
            if state.eye is not None and state.eye.seat == seat:
                kinds.add("eye")
                assert d.eye == state.eye
            if state.deck_top is not None and state.deck_top[0] == seat:
                kinds.add("deck_top")
                assert d.diver_deck[0] == state.diver_deck[0]
            if state.harpooned is not None:
                kinds.add("harpoon")
                assert d.harpooned == state.harpooned
            if seat == state.first and state.step != "keep":
                kinds.add("given")
                assert d.hands[other].special == state.hands[other].special
            if state.step == "keep" and seat == state.first:
                assert d.drawn == state.drawn
    assert kinds == {"eye", "deck_top", "harpoon", "given"}


def test_unknown_specials_are_redealt() -> None:
    # Round 1, second seat, before any special is played: the first player's special is unknown.
    rng = random.Random(7)
    state = duel.new_game(2, 11, first=0)
    seen = {duel.determinize(state, 1, rng).drawn for _ in range(60)}
    assert len(seen) > 5
    assert {duel.determinize(state, 0, rng).drawn for _ in range(10)} == {state.drawn}


def test_a_determinized_game_plays_on_to_the_end() -> None:
    rng = random.Random(8)
    for state in sample()[::25]:
        for seat in (0, 1):
            d = duel.determinize(state, seat, rng)
            while not duel.is_over(d):
                if rng.random() < 0.05:
                    check(d)
                s = d.turn
                d, _ = duel.apply(d, s, rng.choice(duel.legal_moves(d, s)))
            assert d.round == 6
