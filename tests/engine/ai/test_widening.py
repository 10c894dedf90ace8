"""Progressive widening at the root (engine/ai/search.py) and the duel's order of placements.

A duel placement offers 26 moves on average (up to 140 with the anchor) to a `normal` search of
about 150 iterations: the root lets in the moves its game orders best first, a few more as its
visits grow, so the visits go to the likely moves instead of five each to every move.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine import duel
from engine.ai import choose_with_stats, move_key
from engine.ai.canon import canonical
from engine.ai.evaluate import _duel_order, _duel_place_values, knowledge
from engine.ai.search import WIDEN_BASE, _widened
from engine.duel import data
from engine.duel.state import Hand


def _duel_placement(seed: int) -> tuple[Any, int]:
    """The first placement of a duel played at random up to it."""
    rules = duel.RULES
    rng = random.Random(f"widening/{seed}")
    state = rules.new_game(2, seed)
    while state.step != "place":
        seat = rules.current(state)
        assert seat is not None
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    seat = rules.current(state)
    assert seat is not None
    return state, seat


def _contested(seed: int) -> tuple[Any, int, int]:
    """A placement where the seat holds the 12 and the 2, and the opponent's 10 lies on the
    opponent's side of a two-star slot (slot 0) whose other space is empty: the 12 on the
    seat's side there wins the card. Returns (state, seat, the slot)."""
    state, seat = _duel_placement(seed)
    two_stars = next(c for c in range(len(data.DOMAIN_CARDS)) if data.points_of(c) == 2)
    ones = [c for c in range(len(data.DOMAIN_CARDS)) if data.points_of(c) == 1][:4]
    board: list[list[int | None]] = [[None] * data.SLOTS, [None] * data.SLOTS]
    board[1 - seat][0] = 10
    hands = [Hand((3, 4, 5), None), Hand((3, 4, 5), None)]
    hands[seat] = Hand((2, 12), None)
    state = replace(
        state,
        slots=(two_stars, *ones),
        board=(tuple(board[0]), tuple(board[1])),
        hands=(hands[0], hands[1]),
        anchored=None,
    )
    return state, seat, 0


def test_the_root_widens_with_the_square_root_of_its_visits() -> None:
    assert _widened(0) == WIDEN_BASE == 3
    assert [_widened(n) for n in (3, 4, 15, 16, 100, 150)] == [3, 4, 4, 5, 8, 9]


def test_duel_order_is_the_placements_best_first() -> None:
    for seed in range(4):
        state, seat = _duel_placement(seed)
        moves = duel.RULES.legal_moves(state, seat)
        ordered = _duel_order(state, seat, moves)
        assert sorted(map(move_key, ordered)) == sorted(map(move_key, moves))  # a permutation
        values = _duel_place_values(state, seat, ordered, None)
        adjusted = [
            v - (0.05 if "anchor" in m else 0.0) for v, m in zip(values, ordered, strict=True)
        ]
        assert adjusted == sorted(adjusted, reverse=True)


def test_duel_order_puts_the_winning_high_diver_before_any_gift_of_it() -> None:
    state, seat, slot = _contested(1)
    moves = duel.RULES.legal_moves(state, seat)
    ordered = [move_key(m) for m in _duel_order(state, seat, moves)]
    win = move_key({"type": "place", "card": 12, "side": seat, "slot": slot})
    gifts = [
        move_key(m) for m in moves if m["card"] == 12 and m["side"] != seat and m["slot"] != slot
    ]
    assert len(gifts) == data.SLOTS - 1
    assert all(ordered.index(win) < ordered.index(g) for g in gifts)
    assert ordered.index(win) < WIDEN_BASE  # searched from the first iteration


def test_the_duel_search_visits_exactly_a_widened_prefix_of_the_order() -> None:
    """The root's children are the first `_widened(visits before the last iteration)` moves of
    the order, no other: the rest were never let in."""
    rules = duel.RULES
    for seed in range(3):
        state, seat = _duel_placement(10 + seed)
        move, stats = choose_with_stats(rules, state, seat, level="normal", seed=seed)
        root = canonical(rules, state, seat, seed)
        know = knowledge(rules)
        assert know.order is not None
        moves = know.prune(root, seat, rules.legal_moves(root, seat))
        order = [move_key(m) for m in know.order(root, seat, moves)]
        visits = sum(v for v, _ in stats.values())
        width = min(len(order), _widened(visits - 1))
        assert len(order) > width  # the sample has moves the widening kept out
        assert set(stats) == set(order[:width])
        assert move_key(move) in stats


def test_a_game_without_an_order_searches_every_root_move() -> None:
    from engine import island

    rules = island.RULES
    assert knowledge(rules).order is None
    state = rules.new_game(2, 4)
    seat = rules.current(state)
    assert seat is not None
    moves = rules.legal_moves(state, seat)
    _, stats = choose_with_stats(rules, state, seat, level="easy", seed=1)
    assert set(stats) == {move_key(m) for m in moves}
