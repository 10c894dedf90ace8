"""Determinization: a full state consistent with everything one seat knows.

Rather than dealing a new game, the cards a seat cannot identify are relabelled by a random
permutation, applied everywhere at once (the other hand, the decks, the harpoon or module cards
in flight, the other seat's memory of specials). Cards the seat can identify are fixed points, so
its view is unchanged, and every card still sits in exactly one place, so conservation holds by
construction. The seed is replaced too: the real seed would let a searcher replay the real
shuffles.

The result is a function of the seat's view and `rng` only (the `Rules.determinize` contract):
the permutation is built by place, not by card - the i-th hidden place (the other hand, then the
decks and the cards in flight, in a fixed order) gets the i-th card of a shuffle of the unseen
cards in their fixed data order - so two states the seat cannot tell apart give the same sample
for the same `rng`, and an AI seeded the same way decides the same in both.
"""

from __future__ import annotations

import random
from typing import TypeVar

from engine.duel import data
from engine.duel.state import Eye, Hand, State, evolve

T = TypeVar("T", int, str)


def _unknown_divers(state: State, seat: int | None) -> list[int]:
    known: set[int] = {v for row in state.board for v in row if v is not None}
    if seat is None:
        return [v for v in data.DIVERS if v not in known]  # the table sees the board only
    known |= set(state.hands[seat].divers)
    known |= set(state.known[seat])
    if state.eye is not None and state.eye.seat == seat:
        known |= set(state.eye.divers)
    if state.deck_top is not None and state.deck_top[0] == seat:
        known.add(state.deck_top[1])
    if state.harpooned is not None:
        known.add(state.harpooned)  # the harpoon's player and its victim both know it
    if state.step == "dive" and state.turn == seat:
        known |= set(state.module)
    return [v for v in data.DIVERS if v not in known]


def _unknown_specials(state: State, seat: int | None) -> list[str]:
    known: set[str] = {sp for _, sp in state.played}
    if seat is None:
        return [s for s in data.SPECIALS if s not in known]
    known |= set(state.seen[seat])
    own = state.hands[seat].special
    if own is not None:
        known.add(own)
    if state.step == "keep" and seat == state.first:
        known |= set(state.drawn)
    return [s for s in data.SPECIALS if s not in known]


def _by_place(unknown: list[T], places: list[T]) -> list[T]:
    """The unseen cards in the order of the places they sit in (those met nowhere last, in
    `unknown`'s order): the i-th hidden place, whatever card it really holds."""
    pool = set(unknown)
    met: list[T] = []
    for card in places:
        if card in pool and card not in met:
            met.append(card)
    return met + [c for c in unknown if c not in met]


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    """A state `seat` cannot tell from `state`: unseen divers, specials and decks re-dealt
    (seat None: what the table sees, both hands re-dealt)."""
    if state.step == "over":
        return state
    # The hands whose cards `seat` cannot identify, in a fixed order.
    hidden = [state.hands[s] for s in ((0, 1) if seat is None else (1 - seat,))]
    divers = _unknown_divers(state, seat)
    diver_places: list[int] = [
        *(v for h in hidden for v in h.divers),
        *state.diver_deck,
        *state.module,
    ]
    if state.deck_top is not None:
        diver_places.append(state.deck_top[1])
    if state.harpooned is not None:
        diver_places.append(state.harpooned)
    dealt_divers = divers[:]
    rng.shuffle(dealt_divers)
    dmap = dict(zip(_by_place(divers, diver_places), dealt_divers, strict=True))
    specials = _unknown_specials(state, seat)
    special_places: list[str] = [
        *(h.special for h in hidden if h.special is not None),
        *state.special_deck,
        *state.aside,
        *state.drawn,
    ]
    dealt_specials = specials[:]
    rng.shuffle(dealt_specials)
    smap = dict(zip(_by_place(specials, special_places), dealt_specials, strict=True))

    def dv(v: int) -> int:
        return dmap.get(v, v)

    def ds(tup: tuple[int, ...], sort: bool = False) -> tuple[int, ...]:
        out = tuple(dv(v) for v in tup)
        return tuple(sorted(out)) if sort else out

    def sp(s: str | None) -> str | None:
        return None if s is None else smap.get(s, s)

    def sps(tup: tuple[str, ...], sort: bool = False) -> tuple[str, ...]:
        out = tuple(smap.get(s, s) for s in tup)
        return tuple(sorted(out)) if sort else out

    hands = tuple(Hand(ds(h.divers, sort=True), sp(h.special)) for h in state.hands)
    domain_deck = sorted(state.domain_deck)  # nobody knows its order: start from none
    rng.shuffle(domain_deck)
    eye = state.eye
    if eye is not None:
        eye = Eye(eye.seat, eye.round, ds(eye.divers))
    return evolve(
        state,
        seed=rng.getrandbits(63),
        draws=0,
        domain_deck=tuple(domain_deck),
        hands=(hands[0], hands[1]),
        diver_deck=ds(state.diver_deck),
        special_deck=sps(state.special_deck),
        aside=sps(state.aside),
        drawn=sps(state.drawn),
        module=ds(state.module),
        harpooned=None if state.harpooned is None else dv(state.harpooned),
        eye=eye,
        known=(ds(state.known[0], sort=True), ds(state.known[1], sort=True)),
        deck_top=None if state.deck_top is None else (state.deck_top[0], dv(state.deck_top[1])),
        seen=(sps(state.seen[0], sort=True), sps(state.seen[1], sort=True)),
    )
