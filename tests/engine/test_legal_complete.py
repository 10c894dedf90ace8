"""`legal_moves` is complete, not just sound: `apply` accepts a move if and only if it is listed.

On thousands of states sampled from seeded playouts (2, 3 and 4 players), every move of a
candidate space far larger than the legal one (every type x every item x every destination, also
on ships that do not exist, x worker counts x reward kinds and goods lists x spaces x actions) is
tried. A refusal must be an IllegalMove and leave the state as it was.

Every candidate is tried on every state (about 45 s on a quiet 2-core machine); ROTATE > 1 would
try the types refused at once with "not_now" for only a rotating share of the items per state.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from engine import nauticus
from engine.nauticus import data, rules
from engine.nauticus.state import State
from tests.engine.policy import choose, game_rng, taste
from tests.sweep import sweep

Move = dict[str, Any]

STATES_PER_PLAYER_COUNT = sweep(300, 700)  # 900 states in all (2,100 with FULL_SWEEP=1)
ROTATE = 1  # every candidate on every state (set higher to trade coverage for speed)
GOODS_LISTS = [
    list(g) for n in range(4) for g in itertools.product(data.GOODS, repeat=n)
]  # [], [coffee], ..., [salt, salt, salt]: 85 lists, duplicates and every order included


def candidates(state: State, seat: int) -> list[Move]:
    """Every move of the candidate space for `seat` in `state` (a superset of the legal ones)."""
    me = state.players[seat]
    ships = range(-1, len(me.ships) + 2)  # one index before and two past the existing ships
    dests: list[Any] = ["storage", {"ship": "new"}]
    dests += [{"ship": n, "end": e} for n in ships for e in ("front", "back")]
    dests += [{"ship": n, "tile": i} for n in ships for i in range(-1, 5)]
    blue = state.turn.blue if state.turn is not None else 0
    counts = range(-1, me.workers + blue + 2)
    out: list[Move] = [{"type": "choose_action", "space": s} for s in range(-1, data.SPACES + 1)]
    for item in data.ITEMS:
        out.append({"type": "take_bonus", "item": item})
        out.append({"type": "take_free_tile", "item": item})
        out += [{"type": t, "item": item, "to": d} for t in ("buy", "transport") for d in dests]
    out += [{"type": t, "workers": n} for t in ("money", "crowns") for n in counts]
    out += [{"type": "deliver", "ship": n} for n in ships]
    for kind in data.REWARD_KINDS:
        out.append({"type": "reward", "kind": kind})
        if kind != "goods":
            out.append({"type": "reward", "kind": kind, "goods": ["coffee", "grain"]})
    out += [{"type": "reward", "kind": "goods", "goods": g} for g in GOODS_LISTS]
    out += [{"type": "extra", "action": a} for a in (*data.ACTIONS, "extra")]
    out += [{"type": t} for t in ("end_extra", "pass", "end_turn")]
    return out


def sample_states() -> list[State]:
    """States along seeded playouts, weighted toward the rarer steps (bonus, rewards, extra)."""
    out: list[State] = []
    for players in (2, 3, 4):
        found: list[State] = []
        seed = 0
        while len(found) < STATES_PER_PLAYER_COUNT:
            seed += 1
            rng = game_rng(players, 50_000 + seed)
            pick = random.Random(f"sample/{players}/{seed}")
            t = taste(rng)
            state = nauticus.new_game(players, 50_000 + seed)
            while state.step != "over" and len(found) < STATES_PER_PLAYER_COUNT:
                turn = state.turn
                rare = state.step != "turn" or (
                    turn is not None and (bool(turn.pending) or turn.extra is not None)
                )
                if pick.random() < (0.4 if rare else 0.08):
                    found.append(state)
                seat = state.current
                assert seat is not None
                move = choose(rng, state, nauticus.legal_moves(state, seat), t)
                state, _ = nauticus.apply(state, seat, move)
            if state.step == "over" and len(found) < STATES_PER_PLAYER_COUNT:
                found.append(state)
        out += found
    return out


def check_state(state: State, rotation: int = 0) -> tuple[int, int]:
    """Compare `apply` and `legal_moves` on the candidate space; return (tried, legal).

    Every candidate of a move type the engine reads at this step is tried. Candidates of the
    other types (refused before their fields are read) are tried for one item in ROTATE per
    state, turning with `rotation`; ROTATE is 1, so all of them.
    """
    snapshot = nauticus.to_json(state)
    seat = state.current
    if seat is None:  # game over: nothing is legal for anyone
        legal: list[Move] = []
        now: list[str] = []
        cands = candidates(state, 0)
    else:
        legal = nauticus.legal_moves(state, seat)
        now = rules._allowed_types(state, seat)
        cands = candidates(state, seat)
    cands = [
        m
        for m in cands
        if m["type"] in now
        or "item" not in m
        or data.ITEM_INDEX[m["item"]] % ROTATE == rotation % ROTATE
    ]
    by_type: dict[str, list[Move]] = {}
    for m in legal:
        by_type.setdefault(m["type"], []).append(m)
    for m in legal:
        assert sum(m == other for other in legal) == 1, f"{m} listed twice"
        assert m in cands, f"legal move outside the candidate space: {m}"
        # Menus show describe(); every legal move needs a real line, not the fallback.
        assert not nauticus.describe(m, state).startswith("Unknown"), m
    for move in cands:
        listed = move in by_type.get(move["type"], ())
        try:
            nauticus.apply(state, 0 if seat is None else seat, move)
            accepted = True
        except nauticus.IllegalMove:
            accepted = False
        assert accepted == listed, (
            f"seat {seat}: {move} is {'accepted' if accepted else 'refused'} by apply but "
            f"{'listed' if listed else 'not listed'} by legal_moves; state {snapshot}"
        )
    # Out of turn nothing is legal: every other seat gets [] and a refusal of the current
    # seat's own moves (the rest of their space is refused before the move is even read).
    for other in range(len(state.players)):
        if other == seat:
            continue
        assert nauticus.legal_moves(state, other) == []
        for move in legal:
            with pytest.raises(nauticus.IllegalMove) as info:
                nauticus.apply(state, other, move)
            assert info.value.code == "not_your_turn"
    # apply never mutates (frozen data); one comparison after all candidates catches any leak.
    assert nauticus.to_json(state) == snapshot
    return len(cands), len(legal)


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states()


def test_sample_covers_every_step_and_decision(states: list[State]) -> None:
    assert len(states) == 3 * STATES_PER_PLAYER_COUNT
    assert {len(s.players) for s in states} == {2, 3, 4}
    steps = {s.step for s in states}
    assert steps == {"choose", "bonus", "turn", "over"}
    pending = {s.turn.pending[0].kind for s in states if s.turn is not None and s.turn.pending}
    assert pending == {"reward", "free_tile"}
    extras = {s.turn.extra for s in states if s.turn is not None and s.turn.extra}
    assert len(extras) >= 6
    # A full storage decides which good of a reward pair is kept: make sure that case is in.
    assert any(
        s.turn is not None
        and s.turn.pending
        and s.turn.pending[0].kind == "reward"
        and s.players[s.turn.seat].storage_used == data.STORAGE_UNITS - 1
        for s in states
    )


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
