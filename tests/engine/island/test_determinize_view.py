"""determinize is a function of the seat's view and the rng, nothing else (Rules.determinize).

Differential test: for sampled positions of seeded games and every audience (each seat and the
public), `redeal` builds a second state that the audience cannot tell from the first: every card
its view does not show is dealt anew into the same places, the copies of the objects the view
shows only by name may change, the face-down tokens are reordered and the seed replaced. The
two views must be equal (checked), and so must the determinized states for the same rng.

`redeal` decides what to keep from the VIEW, not from the state: a card in another hand stays
only if the view shows it (`taken_face_up`). Before the views showed the cards taken face up,
determinize kept them (Player.known) though no view showed them, and this test failed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from engine import island
from engine.island import data
from engine.island.state import FACE_UP, State
from tests.engine.island.kit import acting, relocate
from tests.engine.island.walk import sample


def redeal(state: State, seat: int | None, rng: random.Random) -> State:
    """A state `seat` cannot tell from `state`, its unseen cards dealt anew (see the module)."""
    v = island.view(state, seat)
    n = len(state.players)
    pool: list[int] = list(state.box)
    for s, stack in enumerate(state.stacks):
        pool += stack[:-1] if FACE_UP[n][s] else stack
    for i, p in enumerate(state.players):
        if i != seat:
            pool += p.hand
    rng.shuffle(pool)
    # First the cards of other hands the view names (by object): one copy of each, drawn at
    # random; then every hand is filled up to its size from what is left.
    known: dict[int, list[int]] = {}
    for i in range(n):
        if i != seat:
            known[i] = []
            for card in v["players"][i].get("taken_face_up", []):
                c = next(c for c in pool if data.PUBLIC_IDS[c] == card["id"])
                pool.remove(c)
                known[i].append(c)
    players = list(state.players)
    for i, mine in known.items():
        p = state.players[i]
        hand = mine + [pool.pop() for _ in range(len(p.hand) - len(mine))]
        players[i] = replace(p, hand=tuple(sorted(hand)), known=tuple(sorted(mine)))
    stacks = []
    for s, stack in enumerate(state.stacks):
        if FACE_UP[n][s] and stack:
            stacks.append((*(pool.pop() for _ in range(len(stack) - 1)), stack[-1]))
        else:
            stacks.append(tuple(pool.pop() for _ in range(len(stack))))
    box = tuple(sorted(pool.pop() for _ in range(len(state.box))))
    assert not pool
    reserve = list(state.reserve)
    rng.shuffle(reserve)
    return replace(
        state,
        seed=rng.getrandbits(62),
        players=tuple(players),
        stacks=tuple(stacks),
        box=box,
        reserve=tuple(reserve),
    )


def audiences(state: State) -> list[int | None]:
    return [None, *range(len(state.players))]


def assert_same_determinize(a: State, b: State, seat: int | None) -> None:
    assert island.view(a, seat) == island.view(b, seat), seat
    for k in range(2):
        assert island.determinize(a, seat, random.Random(k)) == island.determinize(
            b, seat, random.Random(k)
        ), (seat, k)


def test_a_card_taken_face_up_is_in_every_view_and_determinize_keeps_only_what_views_show() -> None:
    # Seat 1 took a saw face up (everyone saw it) and still holds it beside a hidden ham.
    state = acting(3, 0, 4)
    state = relocate(state, ("known", 1), "repair:saw:2")
    state = relocate(state, ("hand", 1), "food:ham:1")
    for seat in audiences(state):
        shown = island.view(state, seat)["players"][1]["taken_face_up"]
        assert shown == [{"id": "repair:saw", "category": "repair", "object": "saw"}], seat
        assert island.view(state, seat)["players"][0]["taken_face_up"] == []
    # Seat 0 and the public do not know the ham; they do know the saw, and the re-deal keeps
    # a saw in seat 1's hand (maybe another copy: which one, no view shows).
    for seat in (None, 0):
        for k in range(8):
            other = redeal(state, seat, random.Random(k))
            assert [data.PUBLIC_IDS[c] for c in other.players[1].known] == ["repair:saw"]
            assert_same_determinize(state, other, seat)
            d = island.determinize(state, seat, random.Random(k))
            assert "repair:saw" in [data.PUBLIC_IDS[c] for c in d.players[1].hand]


def test_states_a_seat_cannot_tell_apart_give_the_same_determinized_state() -> None:
    pick = random.Random("determinize-view")
    pairs = 0
    with_known = 0  # pairs where another hand holds a card taken face up: the case at stake
    for players in (2, 3, 4):
        for seed in range(3):
            for state in sample(players, 80_000 + seed, 0.06, pick):
                if island.is_over(state):
                    # A finished game is returned as it is: nothing is left to re-deal.
                    continue
                for seat in audiences(state):
                    other = redeal(state, seat, pick)
                    assert_same_determinize(state, other, seat)
                    pairs += 1
                    with_known += any(p.known for i, p in enumerate(state.players) if i != seat)
    assert pairs > 200 and with_known > 100, (pairs, with_known)


def test_the_redeal_moves_unseen_cards_and_keeps_everything_a_view_shows() -> None:
    """The differential test is not vacuous: the re-dealt states do differ from the real ones,
    and in nothing but what the audience cannot see."""
    pick = random.Random("determinize-view-redeal")
    moved = 0
    for state in sample(3, 80_100, 0.1, pick):
        if island.is_over(state):
            continue
        for seat in audiences(state):
            other = redeal(state, seat, pick)
            assert island.view(other, seat) == island.view(state, seat)
            # Same cards in all, other hands keep their sizes and their face-up-taken objects.
            for i, (p, q) in enumerate(zip(state.players, other.players, strict=True)):
                assert len(p.hand) == len(q.hand)
                named = Counter(data.PUBLIC_IDS[c] for c in p.known)
                assert named == Counter(data.PUBLIC_IDS[c] for c in q.known), i
                if i == seat:
                    assert p == q
            moved += other.players != state.players or other.stacks != state.stacks
    assert moved > 20
