"""The replay GIF as the bot draws it: time, the bot's memory, and how long it blocks the loop.

    python bench/replay_rss_bench.py [--replays 10] [--workers 1]

One random 4-player Nauticus game is played to the end through `GameService`, then its replay
is asked for `--replays` times, as the final post's Replay button does. `--workers 0` draws it
in a thread of the bot's own process (as before); `--workers N` in the AI worker processes, at
their lower priority. Prints, per replay, its time and the bot's RSS after it, and how late
a 5 ms timer of the event loop woke while the replays were drawn (worst, p99, median; with
loop_bench's split of that lateness: the loop thread's own longest run, the share spent
waiting for a core) and the machine's load. Asserts nothing; a figure, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loop_bench import Ticks, measure, p99
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

        load = os.getloadavg()[0]
        ticks, sizes = Ticks(), []

        async def replay() -> None:
            _, data = await svc.animation(CH)
            sizes.append(len(data))

        for i in range(args.replays):
            got, dt = await measure(replay())
            ticks.extend(got)
            print(
                f"replay {i + 1}: {dt:.2f} s, {sizes[-1] / 1e6:.2f} MB, bot RSS "
                f"{rss_mb():.0f} MB, the loop's worst wait {max(got.late) * 1000:.0f} ms"
            )
        late = ticks.late
        lateness = sum(v for v in late if v > 0)
        queued = sum(q for v, q in zip(late, ticks.queued, strict=True) if v > 0)
        print(
            f"event loop while drawing (5 ms timer, {len(late)} ticks): worst "
            f"{max(late) * 1000:.0f} ms, p99 {p99(late) * 1000:.1f} ms, median "
            f"{statistics.median(late) * 1000:.2f} ms; longest run of the loop's thread "
            f"{max(ticks.cpu) * 1000:.1f} ms, {queued / max(lateness, 1e-9):.0%} of the lateness "
            f"waiting for a core; load {load:.1f} -> {os.getloadavg()[0]:.1f}"
        )
        thinker.close()
        await store.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replays", type=int, default=10)
    ap.add_argument("--workers", type=int, default=1)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
