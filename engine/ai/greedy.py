"""One-ply greedy: the move after which the seat's score is highest, as `final_scores` counts it.

Fair like the search: it plays every legal move on one determinization of the canonical
position (engine/ai/canon.py), never on the true state, so a move that draws a hidden card is
valued by a card drawn at random from the ones the seat has not seen.
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai.canon import canonical
from engine.api import Move, Rules


def greedy(rules: Rules, state: Any, seat: int, *, seed: int) -> Move:
    """The legal move maximising `seat`'s VP right after it (then its rank; ties by `seed`).

    Raises:
        ValueError: `seat` has no decision to make now.
        ContractError: the engine's determinize changed the seat's view.
    """
    root = canonical(rules, state, seat, seed)
    moves = rules.legal_moves(root, seat) if rules.current(root) == seat else []
    if not moves:
        raise ValueError(f"seat {seat + 1} has no move to make now")
    rng = random.Random(f"ai-greedy/{seed}")
    det = rules.determinize(root, seat, rng)
    best: tuple[int, int, float] | None = None
    choice = moves[0]
    for move in moves:
        after, _ = rules.apply(det, seat, move)
        score = rules.final_scores(after)[seat]
        key = (score.vp, -score.rank, rng.random())
        if best is None or key > best:
            best, choice = key, move
    return choice
