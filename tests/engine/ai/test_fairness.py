"""Fairness: a decision depends only on what the deciding seat may see.

Two states a seat cannot tell apart are built with the engine's own `determinize` for that seat
(same `view(·, seat)`, other secrets re-dealt). The player must give the same move for both with
the same seed. A player that reads the true state (`Peeking`: its determinize hands the search
the real state) fails this same check, so the check has teeth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.ai import ContractError, canonical, choose, greedy
from engine.api import Move, Rules
from tests.engine.ai.kit import HIDDEN, Peeking, Wrapped, positions

Player = Callable[[Rules, Any, int], Move]


def twins(rules: Rules, seed: int, count: int) -> list[tuple[Any, Any, int]]:
    """(state, twin, seat): the twin re-deals every secret `seat` has not seen."""
    out = []
    rng = random.Random(seed)
    for state, seat in positions(rules, seed, count):
        twin = rules.determinize(state, seat, rng)
        assert rules.view(twin, seat) == rules.view(state, seat)
        out.append((state, twin, seat))
    return out


def differing(player: Player, rules: Rules, cases: list[tuple[Any, Any, int]]) -> int:
    return sum(player(rules, s, seat) != player(rules, t, seat) for s, t, seat in cases)


def fair(rules: Rules, state: Any, seat: int) -> Move:
    return choose(rules, state, seat, level="easy", seed=3)


def cheat(rules: Rules, state: Any, seat: int) -> Move:
    return choose(Peeking(rules), state, seat, level="easy", seed=3)


@pytest.mark.parametrize("game", list(HIDDEN))
def test_the_twins_really_differ_in_secrets(game: str) -> None:
    rules = HIDDEN[game]
    cases = twins(rules, seed=11, count=10)
    assert sum(rules.to_json(s) != rules.to_json(t) for s, t, _ in cases) >= 8


@pytest.mark.parametrize("game", list(HIDDEN))
def test_determinize_is_a_function_of_the_view_and_the_rng(game: str) -> None:
    # The engine contract the AI relies on (engine/api.py): same view + same rng = same sample.
    rules = HIDDEN[game]
    rng = random.Random(4)
    for state, seat in positions(rules, seed=12, count=15):
        sample = rules.determinize(state, seat, random.Random(99))
        assert rules.view(sample, seat) == rules.view(state, seat)
        for _ in range(3):
            twin = rules.determinize(state, seat, rng)
            again = rules.determinize(twin, seat, random.Random(99))
            assert rules.to_json(again) == rules.to_json(sample)


@pytest.mark.parametrize("game", list(HIDDEN))
def test_the_canonical_state_is_the_same_for_every_state_of_an_information_set(game: str) -> None:
    rules = HIDDEN[game]
    rng = random.Random(4)
    for state, seat in positions(rules, seed=12, count=15):
        c = {seed: canonical(rules, state, seat, seed=seed) for seed in (1, 2)}
        assert rules.view(c[1], seat) == rules.view(state, seat)
        assert rules.to_json(c[1]) != rules.to_json(c[2]) or rules.view(state, None) == (
            rules.view(state, seat)
        )
        for _ in range(3):
            twin = rules.determinize(state, seat, rng)
            for seed, expected in c.items():
                assert rules.to_json(canonical(rules, twin, seat, seed=seed)) == rules.to_json(
                    expected
                )


@pytest.mark.parametrize("game", list(HIDDEN))
def test_the_search_player_decides_the_same_for_states_its_seat_cannot_tell_apart(
    game: str,
) -> None:
    rules = HIDDEN[game]
    cases = twins(rules, seed=13, count=12)
    assert differing(fair, rules, cases) == 0
    assert differing(lambda r, s, seat: greedy(r, s, seat, seed=3), rules, cases) == 0


@pytest.mark.parametrize("game", list(HIDDEN))
def test_a_player_reading_the_true_state_fails_the_same_check(game: str) -> None:
    rules = HIDDEN[game]
    cases = twins(rules, seed=13, count=12)
    assert differing(cheat, rules, cases) >= 1


def test_a_determinize_that_changes_the_view_is_refused() -> None:
    class Broken(Wrapped):
        def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
            return self.inner.new_game(2, 99)  # another game entirely

    rules = HIDDEN["duel"]
    state, seat = next(positions(rules, seed=1, count=1))
    with pytest.raises(ContractError, match="view"):
        choose(Broken(rules), state, seat, level="easy", seed=1)
