"""Determinization: a full state consistent with what one seat sees, secrets re-dealt.

What `seat` knows stays put: its own hand, every collection, the top card of every face-up stack,
and the cards others took from face-up stacks (`Player.known`, which every view shows as
`taken_face_up`). Every other card (other hands' unseen cards, face-down stacks, the cards under
a face-up top, the box) is shuffled and dealt back into the same places in the same numbers. The
face-down token reserve is shuffled too, and the seed is replaced, since the real one would deal
the real secrets again.

The result is a function of `view(state, seat)` and `rng` (the `Rules.determinize` contract):
every card this reads and keeps is one the view shows, and the cards it re-deals are read only
as a sorted pool, whose content the view fixes (all cards less those shown). Views show which
copy of an object lies where only in the seat's own hand (data.public_id), so the result must not
depend on it either: once dealt, the copies of each object are numbered anew in a fixed order of
places (`_relabel`), the seat's own hand keeping its own numbers. (Until `taken_face_up` was
added to the views, a hand's face-up-taken cards were kept though no view showed them: two
states a seat could not tell apart gave different determinized states.)
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.island import data
from engine.island.state import FACE_UP, State, rename_cards


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    if state.step == "over":
        # The final scores show every treasure in hand: nothing secret is left to re-deal.
        return state
    n = len(state.players)
    pool: list[int] = []
    for i, p in enumerate(state.players):
        if i != seat:
            known = set(p.known)
            pool += [c for c in p.hand if c not in known]
    for s, stack in enumerate(state.stacks):
        pool += stack[:-1] if FACE_UP[n][s] else stack
    pool += state.box
    # Sorted first: a shuffle of the real order would carry it into the sample, and the sample
    # must depend on the seat's view and `rng` only (the `Rules.determinize` contract).
    pool.sort()
    rng.shuffle(pool)
    it = iter(pool)

    players = list(state.players)
    for i, p in enumerate(state.players):
        if i != seat:
            unknown = len(p.hand) - len(p.known)
            hand = tuple(sorted((*p.known, *(next(it) for _ in range(unknown)))))
            players[i] = replace(p, hand=hand)
    stacks = []
    for s, stack in enumerate(state.stacks):
        if FACE_UP[n][s] and stack:
            stacks.append((*(next(it) for _ in range(len(stack) - 1)), stack[-1]))
        else:
            stacks.append(tuple(next(it) for _ in range(len(stack))))
    box = tuple(sorted(next(it) for _ in range(len(state.box))))
    reserve = sorted(state.reserve)
    rng.shuffle(reserve)
    dealt = replace(
        state,
        seed=rng.getrandbits(62),
        players=tuple(players),
        stacks=tuple(stacks),
        box=box,
        reserve=tuple(reserve),
    )
    return _relabel(dealt, seat)


def _relabel(state: State, seat: int | None) -> State:
    """The same deal with the copies of each object numbered in a fixed order of places.

    Copies play alike, so the game is unchanged; but two deals that differ only in copy numbers
    outside `seat`'s hand (which no view shows) become the same state. The places, in order:
    each other hand (its known cards first, since `known` marks particular copies), each
    collection, each stack bottom to top, the box. The seat's own hand keeps its numbers (its
    view shows them), and the other places share the copies left over, lowest first.
    """
    order: list[int] = []
    for i, p in enumerate(state.players):
        if i != seat:
            known = set(p.known)
            order += p.known
            order += [c for c in p.hand if c not in known]
        for col in p.collections:
            order += col.cards
    for stack in state.stacks:
        order += stack
    order += state.box
    own = set(state.players[seat].hand) if seat is not None else set()
    new = list(range(data.CARD_COUNT))  # own cards keep their numbers
    used = [0] * (data.CARD_COUNT // data.COPIES)  # per object: copies handed out so far
    for c in order:
        obj = c // data.COPIES
        copy = used[obj]
        while obj * data.COPIES + copy in own:
            copy += 1
        new[c] = obj * data.COPIES + copy
        used[obj] = copy + 1
    return rename_cards(state, new)
