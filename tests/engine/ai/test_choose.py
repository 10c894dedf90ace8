"""The search player: deterministic per seed, always legal, within its apply budget, levels."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai import LEVELS, Level, choose, choose_with_stats, greedy, level, move_key, rewards
from engine.ai.evaluate import knowledge
from engine.ai.search import search
from tests.engine.ai.kit import ALL, Wrapped, positions


@pytest.mark.parametrize("game", list(ALL))
def test_same_state_and_seed_give_the_same_move(game: str) -> None:
    rules = ALL[game]
    for state, seat in positions(rules, seed=1, count=4):
        first, stats = choose_with_stats(rules, state, seat, level="easy", seed=5)
        again, stats_again = choose_with_stats(rules, state, seat, level="easy", seed=5)
        assert again == first
        assert stats_again == stats  # the whole search replays, not just its answer
        assert greedy(rules, state, seat, seed=5) == greedy(rules, state, seat, seed=5)
        # A loaded copy of the game is the same game to the player.
        loaded = rules.from_json(rules.to_json(state))
        assert choose(rules, loaded, seat, level="easy", seed=5) == first


@pytest.mark.parametrize("game", list(ALL))
def test_the_chosen_move_is_legal(game: str) -> None:
    rules = ALL[game]
    sample = list(positions(rules, seed=2, count=5))
    if rules.max_players >= 3:
        sample += positions(rules, seed=2, count=3, players=3)
    for i, (state, seat) in enumerate(sample):
        legal = rules.legal_moves(state, seat)
        assert choose(rules, state, seat, level="easy", seed=i) in legal
        assert greedy(rules, state, seat, seed=i) in legal


def _searched_position(game: str) -> tuple[Any, int]:
    """A position the search really searches: two or more moves left after the game's pruning."""
    prune = knowledge(ALL[game]).prune
    return next(
        (s, p)
        for s, p in positions(ALL[game], seed=3, count=50)
        if len(prune(s, p, ALL[game].legal_moves(s, p))) > 1
    )


@pytest.mark.parametrize("game", list(ALL))
def test_the_budget_counts_apply_calls(game: str) -> None:
    rules = Wrapped(ALL[game])
    state, seat = _searched_position(game)
    for name in ("easy", "normal"):
        lv = LEVELS[name]
        rules.applies = 0
        choose(rules, state, seat, level=name, seed=1)
        # The search stops at the first iteration that starts with the budget spent; one
        # iteration is a short tree walk plus at most `rollout_depth` random moves.
        assert lv.budget <= rules.applies <= lv.budget + lv.rollout_depth + 60


@pytest.mark.parametrize("game", list(ALL))
def test_a_game_budget_of_a_level_replaces_its_budget_for_that_game_only(game: str) -> None:
    rules = Wrapped(ALL[game])
    state, seat = _searched_position(game)
    other = next(g for g in ALL if g != game)
    for games, spend in (((game, 1_500),), 1_500), (((other, 1_500),), 500):
        lv = Level("test", budget=500, rollout_depth=8, exploration=0.7, game_budgets=games)
        rules.applies = 0
        search(rules, state, seat, lv, random.Random(1))
        assert spend <= rules.applies <= spend + lv.rollout_depth + 60


def test_a_forced_move_costs_no_search() -> None:
    rules = Wrapped(ALL["nauticus"])
    state = rules.new_game(2, 1)
    while True:
        seat = rules.current(state)
        assert seat is not None
        moves = rules.legal_moves(state, seat)
        if len(moves) == 1:
            break
        state, _ = rules.apply(state, seat, moves[0])
    rules.applies = 0
    assert choose(rules, state, seat, level="hard", seed=1) == moves[0]
    assert rules.applies == 0


def test_levels_grow_and_unknown_levels_are_refused() -> None:
    budgets = [LEVELS[n].budget for n in ("easy", "normal", "hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    for game in ALL:  # a game's own budgets keep the order
        per_game = [LEVELS[n].budget_for(game) for n in ("easy", "normal", "hard")]
        assert per_game == sorted(per_game) and len(set(per_game)) == 3
    assert level("normal") is LEVELS["normal"]
    with pytest.raises(ValueError, match="easy, normal, hard"):
        choose(ALL["duel"], ALL["duel"].new_game(2, 1), 0, level="expert", seed=1)


def test_a_seat_that_is_not_to_move_is_refused() -> None:
    rules = ALL["island"]
    state = rules.new_game(2, 1)
    seat = rules.current(state)
    assert seat is not None
    with pytest.raises(ValueError, match="no move"):
        choose(rules, state, 1 - seat, level="easy", seed=1)
    with pytest.raises(ValueError, match="no move"):
        greedy(rules, state, 1 - seat, seed=1)


def test_move_keys_ignore_key_order() -> None:
    assert move_key({"type": "place", "column": 2}) == move_key({"column": 2, "type": "place"})
    assert move_key({"type": "place", "column": 2}) != move_key({"type": "place", "column": 3})


def test_rewards_rank_first_then_margin() -> None:
    class S:
        def __init__(self, seat: int, vp: int, rank: int) -> None:
            self.seat, self.vp, self.rank = seat, vp, rank

        def to_dict(self) -> dict[str, object]:
            return {}

    tied = rewards([S(0, 10, 1), S(1, 10, 1)])
    assert tied == [0.5, 0.5]
    win, close, far = rewards([S(0, 30, 1), S(1, 29, 2), S(2, 5, 3)])
    assert win > close > far
    assert 0.0 <= far < 0.5 < win <= 1.0
    narrow = rewards([S(0, 30, 1), S(1, 29, 2)])[0]
    wide = rewards([S(0, 60, 1), S(1, 10, 2)])[0]
    assert wide > narrow > 0.5


def test_the_move_played_is_the_most_visited_of_a_real_search() -> None:
    rules = ALL["duel"]
    state, seat = next(positions(rules, seed=4, count=1))
    lv = Level("test", budget=3_000, rollout_depth=16, exploration=0.7)
    move, stats = search(rules, state, seat, lv, random.Random(1))
    visits = {k: v for k, (v, _) in stats.items()}
    assert visits[move_key(move)] == max(visits.values())
    assert set(visits) <= {move_key(m) for m in rules.legal_moves(state, seat)}
    assert sum(visits.values()) > len(visits) + 1  # some moves were searched more than once
