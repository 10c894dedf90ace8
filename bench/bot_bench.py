"""Bot benchmark: moves through GameService with 1,000 stored games, a phase post with its
pictures, and the process's memory. Prints figures; asserts nothing.

    python bench/bot_bench.py [--games 1000] [--active 50] [--moves 2000] [--db PATH]

Targets (issue 4): one move <= 20 ms median excluding drawing; RSS < 200 MB with 1,000 stored
games of which 50 are being played. The database is a real file with WAL and synchronous=FULL,
so a move's time includes the fsync of its commit.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.outbox import Outbox, OutFile, OutMessage, draw_with_render
from bot.service import GameRecord, GameService
from bot.store import Store, dumps, now
from engine.nauticus import ENGINE_VERSION, State, apply, describe, legal_moves, new_game, to_json

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size in MB."""
    cur = peak = 0.0
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    cur = int(line.split()[1]) / 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        cur = peak
    return cur, peak


def random_log(players: int, seed: int) -> list[tuple[int, dict[str, Any], State]]:
    """A whole random game: (seat, move, state before the move) for each move."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    out = []
    while state.step != "over":
        seat = state.current
        assert seat is not None
        move = rng.choice(legal_moves(state, seat))
        out.append((seat, move, state))
        state, _ = apply(state, seat, move)
    return out


async def populate(store: Store, games: int, active: int) -> list[int]:
    """Store `games` games with full logs; the last `active` ones are stopped part-way.

    Rows are written directly (one big transaction) so that setting up 1,000 games takes
    seconds; the games are real engine playouts, so the replay check on load passes.
    """
    logs = {p: random_log(p, 100 + p) for p in (2, 3, 4)}
    # Each player count's log as stored rows, plus the state after it, computed once.
    rows_for: dict[int, list[tuple[Any, ...]]] = {}
    end_state: dict[int, State] = {}
    for players, log in logs.items():
        rows_for[players] = []
        for n, (seat, move, before) in enumerate(log, start=1):
            after, events = apply(before, seat, move)
            rows_for[players].append(
                (
                    n,
                    seat,
                    1000 + seat,
                    before.round,
                    before.phase,
                    dumps(move),
                    dumps([e.to_dict() for e in events]),
                    describe(move, before),
                )
            )
        end_state[players] = after
    channels = []
    async with store.write() as tx:
        for i in range(games):
            players = 2 + i % 3
            log = logs[players]
            playing = i >= games - active
            cut = len(log) * (i % 7 + 2) // 10 if playing else len(log)
            state = log[cut][2] if cut < len(log) else None
            rows = rows_for[players][:cut]
            final = state if state is not None else end_state[players]
            channel = 10_000 + i
            t = now()
            game_id = await tx.insert(
                "INSERT INTO games (guild_id, channel_id, status, host_id, engine_version, seed, "
                "version, state_json, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    1,
                    channel,
                    "active" if playing else "finished",
                    1000,
                    ENGINE_VERSION,
                    100 + players,
                    cut + 3,
                    to_json(final),
                    t,
                    t,
                ),
            )
            await tx.conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(game_id, k, 1000 + k, NAMES[k]) for k in range(players)],
            )
            await tx.conn.executemany(
                "INSERT INTO moves (game_id, n, seat, user_id, round, phase, move_json, "
                "events_json, text, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, *r, t) for r in rows],
            )
            # Delivered outbox history, as a long-running bot accumulates it.
            await tx.conn.executemany(
                "INSERT INTO outbox (game_id, channel_id, kind, payload_json, nonce, created_at, "
                "sent_at, message_id) VALUES (?, ?, 'turn_ping', ?, ?, ?, ?, ?)",
                [(game_id, channel, '{"text":"ping"}', k, t, t, k) for k in range(cut // 3)],
            )
            if playing:
                channels.append(channel)
    return channels


class NullChannel:
    """A Sender that accepts everything at once (Discord's latency is not ours to measure)."""

    def __init__(self) -> None:
        self.next_id = 1
        self.bytes = 0

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self.bytes += sum(len(f.data) for f in msg.files)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self.bytes += sum(len(f.data) for f in msg.files)


def no_draw(
    game: str, kinds: Sequence[str], game_view: dict[str, Any], *_: Any
) -> tuple[OutFile, ...]:
    return ()


async def bench(args: argparse.Namespace) -> None:
    scratch = None if args.db else tempfile.TemporaryDirectory()
    path = Path(args.db) if args.db else Path(scratch.name) / "bench.db"  # type: ignore[union-attr]
    if path.exists():
        raise SystemExit(f"{path} exists; give a new path")
    print(f"database: {path}")
    store = await Store.open(path)
    t0 = time.perf_counter()
    channels = await populate(store, args.games, args.active)
    async with store.read() as tx:
        counts = await tx.one(
            "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM moves), "
            "(SELECT COUNT(*) FROM outbox)"
        )
    assert counts is not None
    print(
        f"stored {counts[0]} games ({len(channels)} being played), {counts[1]} moves, "
        f"{counts[2]} outbox rows in {time.perf_counter() - t0:.1f} s; "
        f"file {path.stat().st_size / 1e6:.1f} MB"
    )
    await store.close()

    # A fresh process's view of it: reopen, as after a restart.
    store = await Store.open(path)
    channel = NullChannel()
    outbox = Outbox(store, channel, draw=no_draw)
    svc = GameService(store, outbox=outbox)
    rng = random.Random(1)
    recs: dict[int, GameRecord] = {}

    async def one_move(ch: int) -> float:
        rec = recs.get(ch) or await svc.game_in(ch)
        assert rec is not None and rec.state is not None
        seat = rec.state.current
        assert seat is not None
        move = rng.choice(legal_moves(rec.state, seat))
        t = time.perf_counter()
        result = await svc.play(ch, rec.user_at(seat), move, version=rec.version, confirm=True)
        dt = time.perf_counter() - t
        recs[ch] = result.record
        if result.record.status != "active":
            channels.remove(ch)
        return dt

    first = [await one_move(ch) for ch in list(channels)]
    print(
        f"first move per game after a restart (load + replay check + move): median "
        f"{statistics.median(first) * 1000:.1f} ms, max {max(first) * 1000:.1f} ms "
        f"({len(first)} games)"
    )
    times: list[float] = []
    while len(times) < args.moves and channels:
        times.append(await one_move(rng.choice(channels)))
        if len(times) % 200 == 0:
            await outbox.deliver_pending()  # keep the outbox as a running bot would
    times.sort()
    print(
        f"one move through GameService (commit with fsync, outbox rows, no drawing): median "
        f"{statistics.median(times) * 1000:.2f} ms, p95 {times[int(len(times) * 0.95)] * 1000:.2f}"
        f" ms over {len(times)} moves  [target <= 20 ms]"
    )
    await outbox.deliver_pending()

    # Whole action-phase posts, pictures included: the move that ends a phase, then the
    # delivery of its rows with board + shipyards drawn in a worker thread.
    outbox.draw = draw_with_render
    phase_times: list[float] = []
    draw_only: list[float] = []
    while len(phase_times) < args.phases and channels:
        ch = rng.choice(channels)
        rec = recs[ch]
        assert rec.state is not None
        phase_before = (rec.state.round, rec.state.phase)
        t = time.perf_counter()
        await one_move(ch)
        after = recs[ch].state
        assert after is not None
        if (after.round, after.phase) != phase_before:
            await outbox.deliver_pending()
            phase_times.append(time.perf_counter() - t)
            from engine.nauticus import view

            t = time.perf_counter()
            draw_with_render("nauticus", ["board", "shipyards"], view(after))
            draw_only.append(time.perf_counter() - t)
        else:
            await outbox.deliver_pending()
    if phase_times:
        print(
            f"whole action-phase post (last move + summary + board and shipyards drawn + sent): "
            f"median {statistics.median(phase_times) * 1000:.0f} ms over {len(phase_times)} "
            f"phases; drawing alone median {statistics.median(draw_only) * 1000:.0f} ms"
        )
    cur, peak = rss_mb()
    print(
        f"process memory: RSS {cur:.0f} MB now, peak {peak:.0f} MB "
        f"({args.games} stored games, {len(svc._cache)} loaded in the service)  [target < 200 MB]"
    )
    await store.close()
    if scratch is not None:
        scratch.cleanup()


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--active", type=int, default=50)
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--phases", type=int, default=20)
    p.add_argument("--db", default="")
    asyncio.run(bench(p.parse_args(argv)))


if __name__ == "__main__":
    main()
