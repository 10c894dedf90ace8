"""Write the sample pictures of docs/img/duel-*.png from one seeded game of random moves: the
board and the current seat's hand in round 5 with cards on the Nautilus, and the final scores.

python -m tests.render.duel.samples
"""

from __future__ import annotations

import random
from pathlib import Path

from engine import duel
from render.duel import board, hand, score_sheet

OUT = Path(__file__).parents[3] / "docs" / "img"
SEED = 504


def game(seed: int = SEED) -> tuple[duel.State, duel.State]:
    """(the first state of round 5 that waits for a placement with 3 cards placed, the end)."""
    rng = random.Random(seed)
    state = duel.new_game(2, seed)
    mid = None
    while not duel.is_over(state):
        placed = sum(sp["card"] is not None for s in duel.view(state)["slots"] for sp in s["sides"])
        if mid is None and state.round == 5 and state.step == "place" and placed >= 3:
            mid = state
        state, _ = duel.apply(state, state.turn, rng.choice(duel.legal_moves(state, state.turn)))
    assert mid is not None, "the seeded game never reached round 5 with 3 cards placed"
    return mid, state


def main() -> int:
    mid, end = game()
    seat = mid.turn
    pics = {
        "duel-board.png": board(duel.view(mid)),
        "duel-hand.png": hand(duel.view(mid, seat)),
        "duel-scores.png": score_sheet(duel.view(end)),
    }
    for name, pic in pics.items():
        (OUT / name).write_bytes(pic.data)
        print(f"{name}: {pic.width}x{pic.height}, {len(pic.data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
