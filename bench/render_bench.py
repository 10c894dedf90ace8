"""Time and size of the pictures of a late-game 4-player state.

    python bench/render_bench.py [--runs 30]

Prints the median wall time (and process CPU time, steadier on a shared machine) of: the board,
one shipyard, all shipyards, and board + all shipyards (the post after an action phase), each
drawn and encoded; then the encode-only time of the same images, the floor that drawing sits on.
Runs pinned to one core where the OS allows it. Target: board + all shipyards < 150 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import nauticus
from render.canvas import encode
from render.nauticus import board, shipyard, shipyards
from render.nauticus.board_pic import draw_board
from render.nauticus.shipyard_pic import draw_shipyard
from tests.render.states import late_game


def measure(fn: Callable[[], int], runs: int) -> tuple[float, float, int]:
    """Median wall ms, median CPU ms, and the bytes `fn` reports."""
    fn()  # warm: font, icons and static layers are built once per process
    wall, cpu = [], []
    size = 0
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        size = fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return statistics.median(wall), statistics.median(cpu), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    view = nauticus.view(late_game())
    board_im = draw_board(view).im
    yard_ims = [draw_shipyard(view, s).im for s in range(view["players_count"])]

    def all_yards() -> int:
        return sum(len(p.data) for p in shipyards(view))

    cases: list[tuple[str, Callable[[], int]]] = [
        ("board", lambda: len(board(view).data)),
        ("one shipyard (seat 1)", lambda: len(shipyard(view, 0).data)),
        (f"all shipyards ({len(shipyards(view))} pictures)", all_yards),
        ("board + all shipyards", lambda: len(board(view).data) + all_yards()),
        ("encode only: board", lambda: len(encode(board_im))),
        ("encode only: one shipyard", lambda: len(encode(yard_ims[0]))),
        ("encode only: all shipyards", lambda: sum(len(encode(im)) for im in yard_ims)),
        ("board, WebP", lambda: len(board(view, fmt="webp").data)),
    ]
    print(f"{'picture':34} {'wall ms':>8} {'cpu ms':>8} {'bytes':>9}   (median of {args.runs})")
    for name, fn in cases:
        wall, cpu, size = measure(fn, args.runs)
        print(f"{name:34} {wall:8.1f} {cpu:8.1f} {size:9d}")


if __name__ == "__main__":
    main()
