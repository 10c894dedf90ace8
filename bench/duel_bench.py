"""Benchmark of the Nautilus duel engine and pictures, on one core.

    python bench/duel_bench.py               # 300 games and 60 picture sets, prints the figures
    python bench/duel_bench.py --games 2000 --pictures 200

Moves are drawn uniformly from legal_moves. The pictures are drawn from the view right after a
placement (the moment the bot posts a new board): the public board, the placer's hand, and the
score sheet of a finished game; "encode only" is the PNG encoding of the already drawn board.
Not a timed test: run it by hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import duel
from render.canvas import encode
from render.duel import board, hand, score_sheet
from render.duel.board_pic import draw_board


def play(seed: int) -> tuple[int, float, list[float], list[duel.State]]:
    """One game: (moves, seconds, per-move seconds of legal_moves + apply, states after placing)."""
    rng = random.Random(seed)
    clock = time.perf_counter
    per_move: list[float] = []
    after_place: list[duel.State] = []
    start = clock()
    state = duel.new_game(2, seed)
    while not duel.is_over(state):
        t0 = clock()
        seat = state.turn
        move = rng.choice(duel.legal_moves(state, seat))
        state, _ = duel.apply(state, seat, move)
        per_move.append(clock() - t0)
        if move["type"] == "place":
            after_place.append(state)
    return len(per_move), clock() - start, per_move, [*after_place, state]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--pictures", type=int, default=60)
    args = parser.parse_args(argv)
    moves, times, per_move = [], [], []
    samples: list[duel.State] = []
    finals: list[duel.State] = []
    for seed in range(args.games):
        n, secs, pm, states = play(seed)
        moves.append(n)
        times.append(secs)
        per_move += pm
        samples.append(states[len(states) // 2])
        finals.append(states[-1])
    print(f"games: {args.games}")
    print(f"full random game (median): {ms(statistics.median(times))}")
    print(f"moves per game (median): {statistics.median(moves):.0f}")
    print(f"legal_moves + apply per move (median): {statistics.median(per_move) * 1e6:.0f} µs")
    pics: dict[str, list[float]] = {"board": [], "hand": [], "score sheet": [], "encode": []}
    clock = time.perf_counter
    for i in range(args.pictures):
        state = samples[i % len(samples)]
        t0 = clock()
        board(duel.view(state))
        pics["board"].append(clock() - t0)
        t0 = clock()
        hand(duel.view(state, 1 - state.turn))
        pics["hand"].append(clock() - t0)
        t0 = clock()
        score_sheet(duel.view(finals[i % len(finals)]))
        pics["score sheet"].append(clock() - t0)
        canvas = draw_board(duel.view(state))
        t0 = clock()
        encode(canvas.im)
        pics["encode"].append(clock() - t0)
    for name, values in pics.items():
        whole = f"{name} picture (view + draw + encode)"
        label = "board encode only" if name == "encode" else whole
        print(f"{label} (median): {ms(statistics.median(values))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
