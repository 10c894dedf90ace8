"""`legal_moves` is complete, not just sound: `apply` accepts a move if and only if it is listed.

On 2,000 states sampled from seeded playouts (every step, the rare ones weighted up), every move
of a candidate space far larger than the legal one is tried: every type x card values -1..16 x
sides -1..2 x slots -1..5, every special name and a few that are not, and anchors -1..16 on every
card of the hand and one that is not in it. A refusal must be an IllegalMove and leave the state
as it was; out of turn every listed move is refused with "not_your_turn".

Candidates of a type the step does not take are refused before their fields are read, so only a
rotating sixth of them is tried on each state (ROTATE); all of them are tried over the sample.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from engine import duel
from engine.duel import data, rules
from engine.duel.state import State
from tests.engine.duel.policy import choose, game_rng, taste
from tests.sweep import sweep

Move = dict[str, Any]
STATES = sweep(420, 2000)
ROTATE = 6
CARDS = range(-1, 17)
SIDES = range(-1, 3)
SLOTS = range(-1, 6)


def candidates(state: State, seat: int) -> list[Move]:
    """Every move of the candidate space for `seat` (a superset of the legal ones)."""
    out: list[Move] = [{"type": "eye"}]
    out += [{"type": "keep", "special": s} for s in (*data.SPECIALS, "crab", "Eye")]
    out += [{"type": "dive", "keep": v} for v in CARDS]
    out += [{"type": "harpoon", "give": v} for v in CARDS]
    out += [
        {"type": "arrow", "card": c, "side": s, "slot": k}
        for c in CARDS
        for s in SIDES
        for k in SLOTS
    ]
    out += [
        {"type": "place", "card": c, "side": s, "slot": k}
        for c in CARDS
        for s in SIDES
        for k in SLOTS
    ]
    hand = state.hands[seat]
    playable = set(hand.divers) | {data.CARD_SPECIALS.get(hand.special or "", -1)}
    outside = next(v for v in range(1, 15) if v not in playable)
    for c in sorted(playable | {outside}):
        for s in (0, 1):
            for k in range(data.SLOTS):
                out += [
                    {"type": "place", "card": c, "side": s, "slot": k, "anchor": a} for a in CARDS
                ]
    return out


def sample_states() -> list[State]:
    """States along seeded playouts: every specials-phase and arrow state, 1 in 5 placements."""
    found: list[State] = []
    seed = 0
    while len(found) < STATES:
        seed += 1
        rng = game_rng(70_000 + seed)
        pick = random.Random(f"duel-sample/{seed}")
        t = taste(rng)
        state = duel.new_game(2, 70_000 + seed)
        while not duel.is_over(state) and len(found) < STATES:
            if state.step != "place" or pick.random() < 0.2:
                found.append(state)
            seat = state.turn
            state, _ = duel.apply(state, seat, choose(rng, state, duel.legal_moves(state, seat), t))
        if duel.is_over(state) and len(found) < STATES:
            found.append(state)
    return found


def check_state(state: State, rotation: int) -> tuple[int, int]:
    """Compare `apply` and `legal_moves` on the candidate space; return (tried, legal)."""
    snapshot = duel.to_json(state)
    seat = state.current
    over = seat is None
    me = 0 if seat is None else seat
    legal = [] if over else duel.legal_moves(state, me)
    now = None if over else rules.STEP_MOVE[state.step]
    cands = [
        m
        for i, m in enumerate(candidates(state, me))
        if m["type"] == now or i % ROTATE == rotation % ROTATE
    ]
    for m in legal:
        assert sum(m == other for other in legal) == 1, f"{m} listed twice"
        assert m in cands, f"legal move outside the candidate space: {m}"
        assert not duel.describe(m, state).startswith("Unknown"), m
    listed = {repr(sorted(m.items())) for m in legal}
    for move in cands:
        try:
            duel.apply(state, me, move)
            accepted = True
        except duel.IllegalMove:
            accepted = False
        is_listed = repr(sorted(move.items())) in listed
        assert accepted == is_listed, (
            f"seat {seat}: {move} is {'accepted' if accepted else 'refused'} by apply but "
            f"{'listed' if is_listed else 'not listed'} by legal_moves; state {snapshot}"
        )
    if not over:
        other = 1 - me
        assert duel.legal_moves(state, other) == []
        for move in legal:
            with pytest.raises(duel.IllegalMove) as info:
                duel.apply(state, other, move)
            assert info.value.code == "not_your_turn"
    assert duel.to_json(state) == snapshot
    return len(cands), len(legal)


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states()


def test_sample_covers_every_step(states: list[State]) -> None:
    assert len(states) == STATES
    steps = {s.step for s in states}
    assert steps == {"keep", "eye", "dive", "harpoon", "place", "arrow", "over"}
    assert any(s.step == "place" and s.hands[s.turn].special == "anchor" for s in states)
    assert any(s.step == "place" and s.hands[s.turn].special == "kraken" for s in states)


def test_legal_moves_is_exactly_what_apply_accepts(states: list[State]) -> None:
    start = time.perf_counter()
    tried = legal = 0
    for i, state in enumerate(states):
        t, n = check_state(state, i)
        tried += t
        legal += n
    elapsed = time.perf_counter() - start
    print(f"\n{len(states)} states, {tried} candidate moves, {legal} legal, {elapsed:.1f} s")
    assert legal > 0
    assert tried > 20 * legal
