"""Benchmark of the Nauticus engine: complete random 4-player games on one core.

    python bench/engine_bench.py              # 200 games, prints the figures
    python bench/engine_bench.py --games 1000 --players 3 --repeat 5
    python bench/engine_bench.py --soak 5000  # 5,000 games checking the invariants after every move

Moves are drawn uniformly from legal_moves. Times are CPU time of this process (the machine is
shared: wall time counts the other processes too): each game is played `--repeat` times (the
same moves, seeded) and its best time kept, then the median over the games is printed. Those
plays read the clock only at the start and the end of the game: reading the CPU clock costs
about 1.5 µs, and two reads around every move added about 1 ms to a 322-move game. The
per-move figure comes from one more play of each game that reads it around every move.
The soak checks, after every move, the invariants of
tests/engine/invariants.py (the same module the playout test uses), a JSON round trip one move
in ten and at the end, and a replay of the whole log. Not a timed test: run it by hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# The invariant checker lives with the tests so that the test and the soak share one copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import nauticus
from tests.engine.invariants import check, check_move


def play(
    players: int, seed: int, soak: bool, per_move_clock: bool = True
) -> tuple[int, float, list[float]]:
    """One game; returns (moves, CPU seconds, per-move CPU seconds of legal_moves + apply).

    Without `per_move_clock`, the per-move list is empty and the clock is read only twice: the
    CPU seconds are then the game's alone, not the game's plus the clock's.
    """
    rng = random.Random(seed)
    per_move: list[float] = []
    log: list[tuple[int, dict[str, Any]]] = []
    clock = time.process_time
    start = clock()
    state = nauticus.new_game(players, seed)
    if soak:
        check(state)
    if not (soak or per_move_clock):
        n = 0
        while state.step != "over":
            seat = state.current
            assert seat is not None
            state, _ = nauticus.apply(state, seat, rng.choice(nauticus.legal_moves(state, seat)))
            n += 1
        return n, clock() - start, []
    while state.step != "over":
        seat = state.current
        assert seat is not None
        t0 = clock()
        moves = nauticus.legal_moves(state, seat)
        move = rng.choice(moves)
        new, events = nauticus.apply(state, seat, move)
        per_move.append(clock() - t0)
        if soak:
            check_move(state, new, events)
            log.append((seat, move))
            if len(log) % 10 == 0:
                assert nauticus.from_json(nauticus.to_json(new)) == new
        state = new
    elapsed = clock() - start
    if soak:
        assert nauticus.from_json(nauticus.to_json(state)) == state
        replay = nauticus.new_game(players, seed)
        for seat, move in log:
            replay, _ = nauticus.apply(replay, seat, move)
        assert replay == state, f"replay of game {seed} differs"
    return len(per_move), elapsed, per_move


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Nauticus engine benchmark")
    parser.add_argument("--games", type=int, default=200, help="games to time (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument(
        "--soak", type=int, metavar="N", help="play N games checking invariants (slower)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="plays of each game, the best kept (default 3)"
    )
    args = parser.parse_args(argv)
    games = args.soak or args.games
    soak = args.soak is not None
    moves: list[int] = []
    seconds: list[float] = []
    per_move: list[float] = []
    total_start = time.perf_counter()
    for i in range(games):
        if soak:
            n, s, pm = play(args.players, args.seed + i, soak)
        else:
            runs = [play(args.players, args.seed + i, soak, False) for _ in range(args.repeat)]
            n, s, _ = min(runs, key=lambda run: run[1])
            pm = play(args.players, args.seed + i, soak)[2]
        moves.append(n)
        seconds.append(s)
        per_move.extend(pm)
        if soak and (i + 1) % 500 == 0:
            print(f"  {i + 1} games checked", flush=True)
    total = time.perf_counter() - total_start
    label = "soak (invariants checked after every move)" if soak else "timing, CPU time"
    print(f"Nauticus engine {nauticus.ENGINE_VERSION}, {args.players} players, {label}")
    print(f"games                         {games}" + ("" if soak else f", best of {args.repeat}"))
    plays = games * (1 if soak else args.repeat + 1)
    print(f"games per second (wall)       {plays / total:.1f}")
    print(f"moves per game (median)       {statistics.median(moves):.0f}")
    print(f"legal_moves + apply per move  {statistics.median(per_move) * 1e6:.1f} µs (median)")
    print(f"whole game / moves            {sum(seconds) / sum(moves) * 1e6:.1f} µs a move")
    print(f"whole game (median)           {statistics.median(seconds) * 1e3:.2f} ms")
    if not soak:
        target = "met" if statistics.median(seconds) < 0.1 else "MISSED"
        print(f"target < 100 ms per game      {target}")
    else:
        print(f"invariants held in all {games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
