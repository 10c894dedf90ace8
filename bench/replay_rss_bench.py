"""The replay GIF as the bot draws it: time, the bot's memory, and how long it blocks the loop.

    python bench/replay_rss_bench.py [--replays 10] [--workers 1]

One random 4-player Nauticus game is played to the end through `GameService`, then its replay
is asked for `--replays` times, as the final post's Replay button does. `--workers 0` draws it
in a thread of the bot's own process (as before); `--workers N` in the AI worker processes, at
their lower priority. Prints, per replay, its time and the bot's RSS after it, and the longest
the event loop was kept from running (a 5 ms ticker) while the replays were drawn. Asserts
nothing; a figure, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai_seats import Thinker
from bot.service import GameService
from bot.store import Store

NAMES = ("Ana", "Ben", "Cleo", "Dev")
CH = 10


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as d:
        store = await Store.open(Path(d) / "bench.db")
        thinker = Thinker(workers=args.workers)
        svc = GameService(store, thinker=thinker)
        await svc.open_lobby(1, CH, 100, NAMES[0], kind="nauticus")
        for i in range(1, 4):
            await svc.join(CH, 100 + i, NAMES[i])
        rec = await svc.start(CH, 100, can_manage=True, seed=7, order=[100, 101, 102, 103])
        rng = random.Random(7)
        rules = rec.plugin.rules
        while rec.current is not None:
            seat = rec.current
            move = rng.choice(rules.legal_moves(rec.state, seat))
            rec = (await svc.play(CH, 100 + seat, move, confirm=True)).record
        print(f"game played: RSS {rss_mb():.0f} MB; workers={args.workers}")
        worst = 0.0
        stop = False

        async def ticker() -> None:
            nonlocal worst
            last = time.perf_counter()
            while not stop:
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                worst = max(worst, now - last - 0.005)
                last = now

        tick = asyncio.create_task(ticker())
        for i in range(args.replays):
            t0 = time.perf_counter()
            _, data = await svc.animation(CH)
            dt = time.perf_counter() - t0
            print(
                f"replay {i + 1}: {dt:.2f} s, {len(data) / 1e6:.2f} MB, bot RSS {rss_mb():.0f} MB"
            )
        stop = True
        await tick
        print(f"worst event-loop block while drawing: {worst * 1000:.0f} ms")
        thinker.close()
        await store.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replays", type=int, default=10)
    ap.add_argument("--workers", type=int, default=1)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
