"""determinize: a full state that `seat` cannot tell from the real one, secrets re-dealt."""

from __future__ import annotations

import random
from collections import Counter

from engine import island
from engine.island import data
from engine.island.state import FACE_UP, State
from tests.engine.island import invariants as inv
from tests.engine.island.kit import acting, names, set_stack
from tests.engine.island.walk import sample


def _states() -> list[State]:
    pick = random.Random("determinize")
    out: list[State] = []
    for players in (2, 3, 4):
        for seed in range(6):
            out += sample(players, 60_000 + seed, 0.08, pick)
    return out


def _pub(cards: tuple[int, ...]) -> list[str]:
    return [data.PUBLIC_IDS[c] for c in cards]


def _fixed(state: State, seat: int) -> dict[str, object]:
    """Everything `seat` knows for sure, card by card: its own hand with copy numbers, the
    public cards by object (which copy they are, no view shows)."""
    n = len(state.players)
    tops = [_pub(s[-1:]) if FACE_UP[n][i] and s else None for i, s in enumerate(state.stacks)]
    return {
        "own": state.players[seat].hand,
        "known": [_pub(p.known) for p in state.players],
        "sizes": [len(p.hand) for p in state.players],
        "collections": [
            [(_pub(c.cards), c.tokens, c.porthole) for c in p.collections] for p in state.players
        ],
        "tops": tops,
        "stack_sizes": [len(s) for s in state.stacks],
        "box": len(state.box),
        "camp": state.camp,
        "reserve": Counter(state.reserve),
    }


def test_determinized_states_look_the_same_to_the_seat_and_conserve_everything() -> None:
    states = _states()
    assert len(states) > 100
    changed = 0
    rng = random.Random(5)
    for state in states:
        for seat in range(len(state.players)):
            d = island.determinize(state, seat, rng)
            assert island.view(d, seat) == island.view(state, seat)
            assert island.view(d) == island.view(state)
            inv.check_conservation(d)
            assert _fixed(d, seat) == _fixed(state, seat)
            assert island.legal_moves(d, seat) == island.legal_moves(state, seat)
            changed += d.stacks != state.stacks or d.players != state.players
    assert changed > len(states)  # the unseen cards really move


def test_a_finished_game_has_no_secret_left() -> None:
    over = sample(4, 61_000, 0.0, random.Random(1))[-1]
    assert island.is_over(over)
    assert island.determinize(over, 0, random.Random(1)) is over


def test_the_unseen_cards_are_dealt_at_random_and_play_goes_on() -> None:
    state = island.new_game(3, 4)
    seat = state.current
    assert seat is not None
    state, _ = island.apply(state, seat, {"type": "place", "column": 4})
    state, _ = island.apply(state, seat, {"type": "collect"})
    deals = {island.determinize(state, (seat + 1) % 3, random.Random(k)) for k in range(20)}
    # Seat `seat` took 1 face-up + 2 face-down cards: others see the face-up one only.
    hands = {d.players[seat].hand for d in deals}
    assert len(hands) > 10
    up = _pub(state.players[seat].known)
    assert len(up) == 1 and all(set(up) <= set(_pub(h)) for h in hands)
    # The seed is replaced: the real one would deal the real secrets again.
    assert all(d.seed != state.seed for d in deals)
    for d in deals:
        while not island.is_over(d):
            s = d.current
            assert s is not None
            d, _ = island.apply(d, s, island.legal_moves(d, s)[0])
        inv.check_conservation(d)


def test_what_the_seat_saw_stays_and_only_unseen_cards_move() -> None:
    state = acting(3, 0, 4, hand=("food:ham:1", "treasure:crown:1"))
    state = set_stack(state, 8, "repair:saw:1", "repair:saw:2")  # face up: top saw:2 is seen
    d = island.determinize(state, 0, random.Random(3))
    assert names(d.players[0].hand) == ["food:ham:1", "treasure:crown:1"]
    # The saw on top stays a saw; which copy it is, no view shows, so it is numbered anew.
    assert data.PUBLIC_IDS[d.stacks[8][-1]] == "repair:saw"
    # Seat 1 does not see seat 0's hand: it is re-dealt from the cards seat 1 has not seen.
    pool = inv.hidden_from(state, 1)
    for k in range(10):
        d = island.determinize(state, 1, random.Random(k))
        assert len(d.players[0].hand) == 2
        assert Counter(data.PUBLIC_IDS[c] for c in d.players[0].hand) <= pool
