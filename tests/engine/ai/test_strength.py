"""Strength: the easy level beats a uniformly random player clearly in every game.

Every AI move is applied with `rules.apply`, so these full games also check that the player
never makes an illegal move from the first decision to the last.
"""

from __future__ import annotations

import random

import pytest

from engine.ai import choose
from tests.engine.ai.kit import ALL

GAMES_PER_RULES = 6
MIN_WINS = 4  # of 6 (shared wins count half); at the time of writing easy scored 6, 5, 6


@pytest.mark.parametrize("game", list(ALL))
def test_easy_beats_uniform_random(game: str) -> None:
    rules = ALL[game]
    score = 0.0
    for g in range(GAMES_PER_RULES):
        ai_seat = g % 2
        rng = random.Random(f"random-player/{g}")
        state = rules.new_game(2, 100 + g)
        ply = 0
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            if seat == ai_seat:
                move = choose(rules, state, seat, level="easy", seed=ply)
            else:
                move = rng.choice(rules.legal_moves(state, seat))
            state, _ = rules.apply(state, seat, move)
            ply += 1
        mine, theirs = rules.final_scores(state)[ai_seat], rules.final_scores(state)[1 - ai_seat]
        score += 1.0 if mine.rank < theirs.rank else 0.5 if mine.rank == theirs.rank else 0.0
    assert score >= MIN_WINS
