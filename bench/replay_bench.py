"""Benchmark of the animated replay (`bot.records.animation`) and of game records, on one core.

    python bench/replay_bench.py              # 5 games of each game, prints the figures
    python bench/replay_bench.py --games 20
    python bench/replay_bench.py --kinds nauticus

On a shared machine the wall time depends on the other work; the CPU time (this process's
`time.process_time`) much less: both are printed. The first game of each kind also pays for
what the process draws once and caches (icons, text masks, fonts: ~0.15-0.2 s for Nauticus), so
its CPU time is printed apart too.

Each game is played to the end by uniform random players (4 seats, 2 for the duel); the
animation replays its log and draws the public board after every action phase (Nauticus: the
board and every shipyard below it), as the final post's Replay button does. Also the size of
the game's complete record (JSON) and the time to read it back and replay it with every check.
Not a timed test: run it by hand.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot import records
from bot.games import GAMES
from engine.api import Move

SEATS = {"nauticus": 4, "island": 4, "duel": 2}
NAMES = ("Ana", "Ben", "Cleo", "Dev")


class Row:
    """Stand-in for a stored move row: what `records.build` reads."""

    def __init__(self, n: int, seat: int, move: Move, text: str) -> None:
        self.n, self.seat, self.move, self.text = n, seat, move, text
        self.round = self.phase = 0
        self.at = "2026-11-24T12:00:00+00:00"
        self.events: list[dict[str, object]] = []


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--kinds", default=",".join(SEATS), help="games to draw, comma-separated")
    args = ap.parse_args()
    for kind in args.kinds.split(","):
        seats = SEATS[kind]
        plugin = GAMES.get(kind)
        rules = plugin.rules
        seconds, cpu, sizes, frames, record_kb, replay_ms = [], [], [], [], [], []
        for seed in range(1, args.games + 1):
            rng = random.Random(seed)
            state = rules.new_game(seats, seed)
            script: list[tuple[int, Move]] = []
            rows = []
            while not rules.is_over(state):
                seat = rules.current(state)
                assert seat is not None
                move = rng.choice(rules.legal_moves(state, seat))
                rows.append(Row(len(rows) + 1, seat, move, rules.describe(move, state)))
                script.append((seat, move))
                state, _ = rules.apply(state, seat, move)
            names = NAMES[:seats]
            t0, c0 = time.perf_counter(), time.process_time()
            data = records.animation(plugin, seed, names, script)
            seconds.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            sizes.append(len(data) / 1e6)
            frames.append(Image.open(io.BytesIO(data)).n_frames)
            record = records.build(
                plugin=plugin,
                game_id=seed,
                status="finished",
                engine_version=rules.engine_version,
                seed=seed,
                seating="random",
                deadline_hours=None,
                seats=[(i, n, None, False) for i, n in enumerate(names)],
                moves=rows,
                state=state,
            )
            blob = records.dumps(record)
            record_kb.append(len(blob) / 1000)
            t0 = time.perf_counter()
            records.replay(records.parse(blob))
            replay_ms.append((time.perf_counter() - t0) * 1000)
        # The first game drawn in the process also draws every icon, text mask and font once
        # (cached for the next ones): shown apart, so that the max of the others is a game's.
        warm = cpu[1:] or cpu
        print(
            f"{plugin.title} ({seats} players, {args.games} games): animation median "
            f"{statistics.median(seconds):.2f} s (max {max(seconds):.2f} s), CPU median "
            f"{statistics.median(cpu):.2f} s (max {max(cpu):.2f} s; first game {cpu[0]:.2f} s, "
            f"the others max {max(warm):.2f} s), "
            f"{statistics.median(frames):.0f} frames, {statistics.median(sizes):.2f} MB "
            f"(max {max(sizes):.2f} MB); record {statistics.median(record_kb):.0f} kB, "
            f"read + replay + check {statistics.median(replay_ms):.0f} ms"
        )


if __name__ == "__main__":
    main()
