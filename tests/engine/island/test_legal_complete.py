"""`legal_moves` is complete, not just sound: `apply` accepts a move if and only if it is listed.

On 1,500 states (3,000 with FULL_SWEEP=1) sampled from seeded playouts (2, 3 and 4 players,
every step), every move of a candidate space far larger than the legal one is tried: place and
move on every column and beyond, every store of 1 to 4 cards of every object mix of every
storable category, stores of treasures and of an unknown category, zero counts, foreign
objects, and the four bare moves. A refusal must be an IllegalMove and leave the state as it was.

Every candidate is tried on every state (ROTATE = 1; a higher value would try only a rotating
share of the store candidates where the step refuses stores by their type).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from engine import island
from engine.island import data
from engine.island.state import State
from tests.engine.island.walk import sample
from tests.sweep import sweep

Move = dict[str, Any]
STATES_PER_PLAYER_COUNT = sweep(300, 1000)
ROTATE = 1


def _stores() -> list[Move]:
    out: list[Move] = []
    for category in (*data.CATEGORIES, "rum"):
        objs = data.OBJECTS.get(category, ("barrel", "bottle"))
        storable = category in data.STORABLE
        for n in range(1, 5 if storable else 3):
            for combo in itertools.combinations_with_replacement(objs, n):
                counts: dict[str, int] = {}
                for o in combo:
                    counts[o] = counts.get(o, 0) + 1
                out.append({"type": "store", "category": category, "objects": counts})
        out.append({"type": "store", "category": category, "objects": {objs[0]: 0}})
        out.append({"type": "store", "category": category, "objects": {}})
        out.append({"type": "store", "category": category, "objects": {"ham": 1, "hat": 1}})
    return out


STORES = _stores()


def candidates(state: State, rotation: int = 0) -> list[Move]:
    cols = range(-1, len(state.layout) + 2)
    out: list[Move] = [{"type": t, "column": c} for t in ("place", "move") for c in cols]
    out += [{"type": t} for t in ("collect", "close", "keep_open", "idle")]
    if state.step == "act":
        return out + STORES
    return out + STORES[rotation % ROTATE :: ROTATE]


def sample_states() -> list[State]:
    out: list[State] = []
    for players in (2, 3, 4):
        found: list[State] = []
        seed = 0
        pick = random.Random(f"complete/{players}")
        while len(found) < STATES_PER_PLAYER_COUNT:
            found += sample(players, 70_000 + seed, 0.25, pick)
            seed += 1
        out += found[:STATES_PER_PLAYER_COUNT]
    return out


def check_state(state: State, rotation: int = 0) -> tuple[int, int]:
    snapshot = island.to_json(state)
    seat = state.current
    legal = island.legal_moves(state, seat) if seat is not None else []
    for m in legal:
        assert sum(m == other for other in legal) == 1, f"{m} listed twice"
        assert not island.describe(m, state).startswith("Unknown"), m
    cands = candidates(state, rotation)
    for m in legal:
        assert m in cands, f"legal move outside the candidate space: {m}"
    tried = 0
    for s in range(len(state.players)):
        for m in cands if s == (seat or 0) else cands[:3]:
            tried += 1
            try:
                island.apply(state, s, m)
            except island.IllegalMove:
                assert s != seat or m not in legal, f"refused a listed move {m}"
                continue
            assert s == seat and m in legal, f"accepted an unlisted move {m} for seat {s}"
    # A change made by any refusal (or acceptance) would still be there: compare once.
    assert island.to_json(state) == snapshot
    for s in range(len(state.players)):
        if s != seat:
            assert island.legal_moves(state, s) == []
    return tried, len(legal)


def test_legal_moves_are_exactly_what_apply_accepts() -> None:
    states = sample_states()
    assert len(states) == 3 * STATES_PER_PLAYER_COUNT
    steps = {s.step for s in states}
    assert steps == {"place", "move", "act", "close", "over"}
    tried = legal = 0
    for i, state in enumerate(states):
        t, n = check_state(state, i)
        tried += t
        legal += n
    # Not vacuous: about 400 candidates and 3 legal moves a state were tried.
    assert tried > 400 * len(states) and legal > 3 * len(states)
