"""The Island engine's fast paths give exactly what the plain code gave.

`apply` builds a move's new player and state field by field instead of `dataclasses.replace`,
`store_options` takes its object multisets from a memo and counts the hand in one pass, and
`column_cards` sums a slice of stacks (the AI search applies thousands of moves a decision).
Stored games replay from the state JSON and the events, so those must stay byte-identical: the
digest below was computed with the engine before the fast paths (commit d8bf241) on the same
games.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random

from engine import island
from engine.island import data
from engine.island.rules import _store_choices
from engine.island.state import COLUMN_STACKS, column_cards

# sha256 over every legal-move list, state JSON and move's events of the 8 games of
# `_games_digest` (2, 3 and 4 players), computed with the engine of commit d8bf241.
GAMES_DIGEST = "54a35f6a9b79edb38d06f29e2510bcf592a14b57f848e9bcb7e9974835fee0c5"


def _games_digest(games: int) -> str:
    h = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(f"golden/{seed}")
        state = island.new_game(2 + seed % 3, seed)
        h.update(island.to_json(state).encode())
        while not island.is_over(state):
            seat = island.current(state)
            assert seat is not None
            moves = island.legal_moves(state, seat)
            h.update(json.dumps(moves).encode())
            # Half the time a store when there is one, so stores, tokens and closings run often.
            stores = [m for m in moves if m["type"] == "store"]
            move = rng.choice(stores if stores and rng.random() < 0.5 else moves)
            state, events = island.apply(state, seat, move)
            h.update(island.to_json(state).encode())
            h.update(json.dumps([e.to_dict() for e in events], sort_keys=True).encode())
    return h.hexdigest()


def test_moves_states_and_events_are_byte_identical_to_the_engine_before_the_fast_paths() -> None:
    assert _games_digest(8) == GAMES_DIGEST


def _plain_choices(
    held: dict[str, int], objs: list[str], limit: int
) -> list[list[tuple[str, int]]]:
    """The store multisets as the engine listed them before the memo."""
    out: list[list[tuple[str, int]]] = []
    for n in range(1, limit + 1):
        for combo in itertools.combinations_with_replacement(objs, n):
            chosen: dict[str, int] = {}
            for o in combo:
                chosen[o] = chosen.get(o, 0) + 1
            if all(chosen[o] <= held[o] for o in chosen):
                out.append(list(chosen.items()))
    return out


def test_store_choices_list_every_multiset_in_the_plain_order() -> None:
    names = data.OBJECTS["food"]
    checked = 0
    for counts in itertools.product(range(4), repeat=4):
        held = tuple((o, c) for o, c in zip(names, counts, strict=True) if c)
        if not held:
            continue
        objs = [o for o, _ in held]
        for limit in (1, 3, 5):
            got = [list(pairs) for pairs in _store_choices(held, limit)]
            assert got == _plain_choices(dict(held), objs, limit)
            checked += 1
    assert checked == (4**4 - 1) * 3  # every non-empty hand of up to 3 copies each
    # A bread and a ham pair, at a column of two stacks, spelled out (no second bread).
    assert _store_choices((("bread", 1), ("ham", 2)), 2) == (
        (("bread", 1),),
        (("ham", 1),),
        (("bread", 1), ("ham", 1)),
        (("ham", 2),),
    )


def test_column_cards_counts_every_stack_of_the_column() -> None:
    rng = random.Random(3)
    for players in (2, 3, 4):
        state = island.new_game(players, players)
        for _ in range(40):
            if island.is_over(state):
                break
            for c, stacks in enumerate(COLUMN_STACKS[players]):
                assert column_cards(state, c) == sum(len(state.stacks[s]) for s in stacks)
            seat = island.current(state)
            assert seat is not None
            state, _ = island.apply(state, seat, rng.choice(island.legal_moves(state, seat)))
