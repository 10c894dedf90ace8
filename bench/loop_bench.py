"""Benchmark: how long the bot's event loop waits while two robots think (issue 22).

    python bench/loop_bench.py                 # 6 rounds per setting, both settings
    python bench/loop_bench.py --rounds 10 --level hard

The bot thinks in a process pool (bot/ai_seats.py `Thinker`, one worker per core). Each round
runs two AI decisions at once in that pool (two Nauticus positions of a random 4-player game)
while an asyncio task on this process's loop sleeps 5 ms again and again and records how late
each wake-up is: that lateness is what a button press would wait on top of its own work.
Settings: the workers at the bot's priority (`nice 0`, as before issue 22) and at the lower
priority the bot now gives them (`nice +WORKER_NICE`), alternated round by round so that both
see the same load of the (shared) machine. Figures: worst and p99 lateness per setting, and
the same with no decision running (the machine's own noise). Goal: worst <= 50 ms.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai_seats import WORKER_NICE, Thinker
from engine import nauticus

TICK = 0.005  # the timer's period (s)


def positions(count: int, seed: int) -> list[tuple[Any, int]]:
    """`count` positions with a seat to move, spread over one random 4-player game."""
    rng = random.Random(seed)
    state = nauticus.new_game(4, seed)
    seen: list[tuple[Any, int]] = []
    while state.step != "over":
        seat = state.current
        assert seat is not None
        moves = nauticus.legal_moves(state, seat)
        if len(moves) > 3:
            seen.append((state, seat))
        state, _ = nauticus.apply(state, seat, rng.choice(moves))
    step = max(1, len(seen) // count)
    return seen[::step][:count]


async def measure(work: Any) -> tuple[list[float], float]:
    """Run the coroutine `work` while a task records each 5 ms sleep's lateness (s)."""
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        clock = time.perf_counter
        while not done.is_set():
            t0 = clock()
            await asyncio.sleep(TICK)
            late.append(clock() - t0 - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    start = time.perf_counter()
    try:
        await work
    finally:
        done.set()
        await task
    return late, time.perf_counter() - start


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


async def main_async(args: argparse.Namespace) -> None:
    rules = nauticus.RULES
    spots = positions(2 * args.rounds, args.seed)
    thinkers = {"nice 0 (before)": Thinker(workers=2, nice=0)}
    thinkers[f"nice +{WORKER_NICE} (after)"] = Thinker(workers=2, nice=WORKER_NICE)
    late: dict[str, list[float]] = {name: [] for name in ["idle", *thinkers]}
    think: dict[str, list[float]] = {name: [] for name in thinkers}
    worst: dict[str, list[float]] = {name: [] for name in late}  # per round
    try:
        # Start every worker first: a spawn start-up is not what is measured.
        for thinker in thinkers.values():
            state, seat = spots[0]
            await asyncio.gather(*(thinker.decide(rules, state, seat, "easy", k) for k in range(2)))
        for r in range(args.rounds):
            idle, _ = await measure(asyncio.sleep(0.5))
            late["idle"].extend(idle)
            worst["idle"].append(max(idle))
            (a, sa), (b, sb) = spots[2 * r], spots[2 * r + 1]
            names = list(thinkers) if r % 2 == 0 else list(reversed(thinkers))
            for name in names:
                thinker = thinkers[name]
                work = asyncio.gather(
                    thinker.decide(rules, a, sa, args.level, 1000 + r),
                    thinker.decide(rules, b, sb, args.level, 2000 + r),
                )
                lates, seconds = await measure(work)
                late[name].extend(lates)
                worst[name].append(max(lates))
                think[name].append(seconds)
    finally:
        for thinker in thinkers.values():
            thinker.close()
    print(
        f"Event-loop lateness of a {TICK * 1e3:.0f} ms timer, two {args.level} Nauticus "
        f"decisions at once in the bot's 2-worker pool, {args.rounds} rounds"
    )
    print(f"{'setting':22} {'worst':>9} {'p99':>9} {'median':>9} {'ticks':>6}  both decisions")
    for name, values in late.items():
        secs = think.get(name)
        took = f"{statistics.median(secs):.2f} s (median)" if secs else "-"
        print(
            f"{name:22} {max(values) * 1e3:7.1f}ms {p99(values) * 1e3:7.1f}ms "
            f"{statistics.median(values) * 1e3:7.2f}ms {len(values):6}  {took}"
        )
    print("worst of each round (ms):")
    for name, values in worst.items():
        print(f"  {name:20} " + " ".join(f"{v * 1e3:6.1f}" for v in values))
    print("goal: worst <= 50 ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="event-loop lateness while robots think")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per setting (default 6)")
    parser.add_argument("--level", default="hard", help="AI level of both decisions")
    parser.add_argument(
        "--seed", type=int, default=5, help="seed of the game the positions are from"
    )
    asyncio.run(main_async(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
