"""A move through the service against the same writes done with bare `sqlite3`.

    python bench/service_bench.py [--games 3] [--players 4] [--dir /dev/shm]

Each game is played through `GameService.play` (the engine's apply, the words, the posts, the
hops to aiosqlite's thread), each move timed on its own, on a file with the bot's PRAGMAs (WAL,
synchronous=FULL) in a directory on tmpfs, so the disk's fsync does not hide the service's own
cost. SQLite's trace records every statement each move ran; "bare" runs those same statements
(reads, writes, BEGIN IMMEDIATE and COMMIT) again with Python's `sqlite3` on one thread, on a
copy of the database taken before the first move: what the database itself costs.
Prints the median and p95 per move of both and their ratio, for all moves and for the moves
that changed whose turn it is (those write a ping, a digest and a wait), and where the
service's time goes: on the database's thread (`Store.write_at_once` runs a whole move there:
the engine, the words, the posts and the SQL) and around it (the hop to that thread and back,
the event loop, the checks before the move). Also the CPU time of each (`process_time`: every
thread of the process), which the machine's load hardly moves, unlike the wall time: on a
shared machine the wall time of a move includes waiting for a core, twice per hop. Also the
mean CPU per move (the whole game's work) and the median of the plain moves (those that change
neither the unit nor the seat to move) alone, and the service's CPU split between its
transaction (CPU of the database's thread) and the rest. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from bot.service import GameService
from bot.store import Store
from engine.nauticus import legal_moves

NAMES = ("Ana", "Ben", "Cleo", "Dev")
GUILD, CH = 1, 10


class Move(NamedTuple):
    wall: float  # the whole `play` call
    turned: bool  # whose turn it is changed
    statements: list[str]
    on_thread: float  # wall time of the transaction on the database's thread
    thread_cpu: float  # CPU time of the transaction, on the database's thread alone
    cpu: float  # CPU time of the whole call, every thread of the process


async def service_game(path: Path, copy: Path, players: int, seed: int) -> list[Move]:
    """Play one random game through the service; per move: its time, whether it changed whose
    turn it is, every SQL statement it ran (SQLite's trace, parameters inlined) and the time it
    spent on the database's thread. `copy` gets the database as it was before the first move."""
    store = await Store.open(path)
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, 100, NAMES[0], kind="nauticus")
    for i in range(1, players):
        await svc.join(CH, 100 + i, NAMES[i])
    order = [100 + i for i in range(players)]
    rec = await svc.start(CH, 100, can_manage=True, seed=seed, order=order)
    with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    trace: list[str] = []
    # The store's own connection (a private attribute: a bench may look inside).
    await store._conn.set_trace_callback(trace.append)
    # The time of each transaction run whole on the database's thread (a private method too).
    on_thread = [0.0]
    thread_cpu = [0.0]
    whole = store._whole

    def timed_whole(*args: Any) -> Any:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return whole(*args)
        finally:
            on_thread[0] += time.perf_counter() - t0
            thread_cpu[0] += time.thread_time() - c0

    store._whole = timed_whole  # type: ignore[method-assign]
    rng = random.Random(seed)
    out = []
    while rec.current is not None:
        seat = rec.current
        move = rng.choice(legal_moves(rec.state, seat))
        mark = len(trace)
        on_thread[0] = thread_cpu[0] = 0.0
        c0, t0 = time.process_time(), time.perf_counter()
        result = await svc.play(CH, 100 + seat, move, confirm=True)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        out.append(
            Move(dt, result.record.current != seat, trace[mark:], on_thread[0], thread_cpu[0], cpu)
        )
        rec = result.record
    await store.close()
    return out


def bare_game(copy: Path, moves: list[Move]) -> list[tuple[float, float]]:
    """The very statements of each move (reads, writes, BEGIN and COMMIT) run again with bare
    sqlite3 on the copy, on one thread, with the bot's PRAGMAs: per move, its wall and CPU
    time."""
    conn = sqlite3.connect(copy, isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
        conn.execute(f"PRAGMA {pragma}")
    times = []
    for m in moves:
        c0, t0 = time.process_time(), time.perf_counter()
        for sql in m.statements:
            conn.execute(sql).fetchall()
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    conn.close()
    return times


async def floor_game(copy: Path, moves: list[Move]) -> list[tuple[float, float]]:
    """The floor of any aiosqlite design: each move's very statements run again on aiosqlite's
    thread in ONE hop (no engine, no words, no posts: only the SQL and the trip to the database's
    thread and back), on a fresh copy with the bot's PRAGMAs. Per move, its wall and CPU time
    (every thread of the process). The service cannot be cheaper than this; its distance from
    bare sqlite3 is what the hop alone costs."""
    conn = await aiosqlite.connect(copy, isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
        await conn.execute(f"PRAGMA {pragma}")

    def run(statements: list[str]) -> None:
        raw = conn._conn  # aiosqlite's own sqlite3 connection (a bench may look inside)
        for sql in statements:
            raw.execute(sql).fetchall()

    times = []
    for m in moves:
        c0, t0 = time.process_time(), time.perf_counter()
        await conn._execute(run, m.statements)
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    await conn.close()
    return times


def _fig(xs: Sequence[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(len(xs) * 0.95))]
    return f"median {statistics.median(xs) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"


async def main_async(args: argparse.Namespace) -> None:
    base = Path(args.dir) if args.dir else None
    svc_all: list[float] = []
    svc_turn: list[float] = []
    bare_all: list[float] = []
    bare_turn: list[float] = []
    thread_all: list[float] = []
    around_all: list[float] = []
    cpu: dict[str, list[float]] = {"svc": [], "bare": [], "svc_turn": [], "bare_turn": []}
    turned: list[bool] = []  # per move of cpu["svc"] and cpu["bare"]
    tx_cpu: list[float] = []  # per move: the CPU of its transaction on the database's thread
    floor_cpu: list[float] = []  # per move: the same SQL in one aiosqlite hop, CPU
    for g in range(args.games):
        with tempfile.TemporaryDirectory(dir=base) as d:
            copy = Path(d) / "bare.db"
            moves = await service_game(Path(d) / "svc.db", copy, args.players, 1000 + g)
            floor_copy = Path(d) / "floor.db"
            shutil.copyfile(copy, floor_copy)
            bare = bare_game(copy, moves)
            floor = await floor_game(floor_copy, moves)
        floor_cpu += [c for _, c in floor]
        for m, (bt, bcpu) in zip(moves, bare, strict=True):
            svc_all.append(m.wall)
            bare_all.append(bt)
            thread_all.append(m.on_thread)
            around_all.append(m.wall - m.on_thread)
            cpu["svc"].append(m.cpu)
            cpu["bare"].append(bcpu)
            turned.append(m.turned)
            tx_cpu.append(m.thread_cpu)
            if m.turned:
                svc_turn.append(m.wall)
                bare_turn.append(bt)
                cpu["svc_turn"].append(m.cpu)
                cpu["bare_turn"].append(bcpu)
    where = args.dir or tempfile.gettempdir()
    print(f"{len(svc_all)} moves ({len(svc_turn)} turn-changing), {args.players} players, {where}")
    print(f"service, every move:        {_fig(svc_all)}")
    print(f"bare sqlite3, every move:   {_fig(bare_all)}")
    print(f"service, turn-changing:     {_fig(svc_turn)}")
    print(f"bare sqlite3, turn-changing:{_fig(bare_turn)}")
    print(f"service on the db thread:   {_fig(thread_all)}  (engine, words, posts, SQL)")
    print(f"service around it:          {_fig(around_all)}  (hop there and back, event loop)")
    ratio = statistics.median(svc_all) / statistics.median(bare_all)
    ratio_turn = statistics.median(svc_turn) / statistics.median(bare_turn)
    print(
        f"ratio of medians: every move {ratio:.1f}x, turn-changing {ratio_turn:.1f}x  [goal <= 2x]"
    )
    med = {k: statistics.median(v) for k, v in cpu.items()}
    print(
        f"CPU per move, median: every move service {med['svc'] * 1000:.2f} ms, bare "
        f"{med['bare'] * 1000:.2f} ms ({med['svc'] / med['bare']:.1f}x); turn-changing "
        f"{med['svc_turn'] * 1000:.2f} ms, bare {med['bare_turn'] * 1000:.2f} ms "
        f"({med['svc_turn'] / med['bare_turn']:.1f}x)"
    )
    floor_med = statistics.median(floor_cpu)
    print(
        f"floor, the same SQL in one aiosqlite hop, CPU median {floor_med * 1000:.2f} ms "
        f"({floor_med / med['bare']:.1f}x bare): what is left under the goal for the engine, "
        f"the words and the posts is {max(0.0, 2 * med['bare'] - floor_med) * 1000:.2f} ms "
        f"a move; the service spends {(med['svc'] - floor_med) * 1000:.2f} ms on them"
    )
    # Medians hide where work moved between kinds of moves (a view a plain move no longer
    # builds may be built by the turn-changing move after it): the mean is the whole game's
    # CPU per move, and the plain moves' median is shown on its own.
    mean = {k: statistics.fmean(v) for k, v in cpu.items()}
    plain = {k: [c for c, t in zip(cpu[k], turned, strict=True) if not t] for k in ("svc", "bare")}
    print(
        f"CPU per move, mean: every move service {mean['svc'] * 1000:.2f} ms, bare "
        f"{mean['bare'] * 1000:.2f} ms ({mean['svc'] / mean['bare']:.1f}x); plain moves' median "
        f"service {statistics.median(plain['svc']) * 1000:.2f} ms, bare "
        f"{statistics.median(plain['bare']) * 1000:.2f} ms "
        f"({statistics.median(plain['svc']) / statistics.median(plain['bare']):.1f}x)"
    )

    # The service's CPU split: its transaction on the database's thread (the engine, the
    # words, the posts, the SQL) and the rest (the hop there and back, the event loop, the
    # checks before the move), per kind of move.
    split = {
        kind: (
            statistics.median(x for x, t in zip(tx_cpu, turned, strict=True) if t == want),
            statistics.median(
                c - x for c, x, t in zip(cpu["svc"], tx_cpu, turned, strict=True) if t == want
            ),
        )
        for kind, want in (("plain", False), ("turn-changing", True))
    }
    print(
        "CPU per move, median, service split: "
        + "; ".join(
            f"{kind} transaction {tx * 1000:.2f} ms + rest {rest * 1000:.2f} ms"
            for kind, (tx, rest) in split.items()
        )
    )


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, default=4)
    shm = Path("/dev/shm")
    p.add_argument("--dir", default=str(shm) if shm.is_dir() else None)
    asyncio.run(main_async(p.parse_args(argv)))


if __name__ == "__main__":
    main()
