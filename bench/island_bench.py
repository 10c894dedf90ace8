"""Nautilus Island figures: engine speed and picture speed.

    python bench/island_bench.py [--games 200] [--pictures 60]

Prints, for random games (moves uniform over legal_moves): the median time of a whole game
(goal for 4 players: 20 ms or less), moves per game, and legal_moves + apply per move; then, on
4-player states right after a turn, the median time of the board + areas pictures drawn and
encoded (goal: 150 ms or less) next to the encode-only time of the same images (goal: the
whole at most twice the encoding).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import island
from render.canvas import encode
from render.island import areas, board
from render.island.areas_pic import chunks, draw_areas
from render.island.board_pic import draw_board


def play(players: int, seed: int) -> tuple[float, list[float], list[island.State]]:
    """One random game: its time, the time of each legal_moves + apply, the states after turns."""
    rng = random.Random(seed)
    state = island.new_game(players, seed)
    per_move: list[float] = []
    after_turns: list[island.State] = []
    start = time.perf_counter()
    while not island.is_over(state):
        t0 = time.perf_counter()
        seat = state.current
        assert seat is not None
        state, _ = island.apply(state, seat, rng.choice(island.legal_moves(state, seat)))
        per_move.append(time.perf_counter() - t0)
        if state.step in ("move", "place", "over"):
            after_turns.append(state)
    return time.perf_counter() - start, per_move, after_turns


def games(players: int, n: int) -> list[island.State]:
    times, moves, per = [], [], []
    turns: list[island.State] = []
    for seed in range(n):
        t, pm, ts = play(players, seed)
        times.append(t)
        moves.append(len(pm))
        per += pm
        turns += ts
    print(f"{players} players, {n} random games")
    print(f"  whole game (median)              {statistics.median(times) * 1000:8.2f} ms")
    print(f"  moves per game (median)          {statistics.median(moves):8.0f}")
    print(f"  legal_moves + apply (median)     {statistics.median(per) * 1e6:8.1f} µs")
    return turns


def pictures(states: list[island.State]) -> None:
    board(island.view(states[0]))  # warm: font, icons
    whole, enc = [], []
    for state in states:
        view = island.view(state)
        t0 = time.perf_counter()
        pics = [board(view), *areas(view)]
        whole.append(time.perf_counter() - t0)
        images = [draw_board(view).im, *(draw_areas(view, part).im for part in chunks(view))]
        assert len(images) == len(pics)
        t1 = time.perf_counter()
        for im in images:
            encode(im)
        enc.append(time.perf_counter() - t1)
    w, e = statistics.median(whole) * 1000, statistics.median(enc) * 1000
    print(f"board + areas after a turn, {len(states)} 4-player states")
    print(f"  drawn and encoded (median)       {w:8.1f} ms")
    print(f"  encode only (median)             {e:8.1f} ms")
    print(f"  ratio                            {w / e:8.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pictures", type=int, default=60)
    args = parser.parse_args(argv)
    turns = games(4, args.games)
    games(2, args.games)
    pictures(random.Random(1).sample(turns, min(args.pictures, len(turns))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
