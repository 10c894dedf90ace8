"""The duel engine's fast paths give exactly what the plain code gave.

`evolve` stands in for `dataclasses.replace` in `apply` (the AI search applies tens of thousands
of moves a decision), the lookup tables for `points_of`, `beats` and the domain of a card. Stored
games replay from the state JSON and the events, so those must stay byte-identical: the digest
below was computed with the engine before the fast paths (commit 372d973) on the same games.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace

import pytest

from engine import duel
from engine.duel import data
from engine.duel.state import State, evolve

# sha256 over every state JSON and every move's events of the 40 games of `_games_digest`,
# computed with the engine of commit 372d973 (before `evolve` and the merged placement).
GAMES_DIGEST = "631a63f89d9c969c2fed77aa7f73ce71d803c0b94a4e64e50a7898dd783041b3"


def _games_digest(games: int) -> str:
    h = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(f"golden/{seed}")
        state = duel.new_game(2, seed)
        h.update(duel.to_json(state).encode())
        while not duel.is_over(state):
            seat = duel.current(state)
            assert seat is not None
            moves = duel.legal_moves(state, seat)
            # Half the time an anchored placement when there is one, so the anchor's paths run.
            anchored = [m for m in moves if "anchor" in m]
            move = rng.choice(anchored if anchored and rng.random() < 0.5 else moves)
            state, events = duel.apply(state, seat, move)
            h.update(duel.to_json(state).encode())
            h.update(json.dumps([e.to_dict() for e in events], sort_keys=True).encode())
    return h.hexdigest()


def test_states_and_events_are_byte_identical_to_the_engine_before_the_fast_paths() -> None:
    assert _games_digest(40) == GAMES_DIGEST


def _states(games: int) -> list[State]:
    out: list[State] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = duel.new_game(2, seed)
        while not duel.is_over(state):
            out.append(state)
            seat = duel.current(state)
            assert seat is not None
            state, _ = duel.apply(state, seat, rng.choice(duel.legal_moves(state, seat)))
        out.append(state)
    return out


def test_evolve_equals_dataclasses_replace() -> None:
    states = _states(3)
    for i, state in enumerate(states):
        other = states[(i * 7 + 3) % len(states)]
        for changes in (
            {},
            {"step": "arrow", "turn": 1 - state.turn, "arrow": 7},
            {"hands": other.hands, "board": other.board, "known": other.known},
            {"won": other.won, "awards": other.awards, "aside": other.aside, "step": "over"},
        ):
            new = evolve(state, **changes)
            assert new == replace(state, **changes)
            assert duel.to_json(new) == duel.to_json(replace(state, **changes))
        assert evolve(state) is not state  # a new object, like replace


def test_evolve_refuses_a_name_that_is_not_a_field() -> None:
    with pytest.raises(AttributeError):
        evolve(duel.new_game(2, 1), stage="place")


def test_the_lookup_tables_equal_the_functions() -> None:
    domains = tuple(data.DOMAINS.index(data.domain_of(c)) for c in data.DOMAIN_CARDS)
    points = tuple(data.points_of(c) for c in data.DOMAIN_CARDS)
    assert (domains, points) == (data.CARD_DOMAIN, data.CARD_POINTS)
    assert data.CARD_POINTS[:6] == (2, 2, 1, 1, 1, -1)
    for a in data.CARD_VALUES:
        for b in data.CARD_VALUES:
            assert data.BEATS[a][b] is data.beats(a, b)
    assert data.BEATS[1][14] and not data.BEATS[14][1] and data.BEATS[15][14]
