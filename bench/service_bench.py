"""A move through the service against the same writes done with bare `sqlite3`.

    python bench/service_bench.py [--games 3] [--players 4] [--dir /dev/shm]

Each game is played twice on the same kind of file (WAL, synchronous=FULL, foreign keys on,
the bot's PRAGMAs) in a directory on tmpfs, so the disk's fsync does not hide the service's
own cost:
- through `GameService.play` (the engine's apply, the words, the posts, the thread hops of
  aiosqlite), each move timed on its own;
- bare: the very rows that move wrote (the move, the game's new state and version, its outbox
  rows, its wait row), written again with Python's `sqlite3` in one BEGIN IMMEDIATE … COMMIT.
Prints the median and p95 per move of both and their ratio, for all moves and for the moves
that changed whose turn it is (those write a ping, a digest and a wait). Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.service import GameService
from bot.store import Store
from engine.nauticus import legal_moves

NAMES = ("Ana", "Ben", "Cleo", "Dev")
GUILD, CH = 1, 10


def _rows(path: Path, table: str, where: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        return list(conn.execute(f"SELECT * FROM {table} WHERE {where}", params))


async def service_game(
    path: Path, players: int, seed: int
) -> list[tuple[float, bool, dict[str, Any]]]:
    """Play one random game through the service; per move: seconds, whether the turn changed,
    and what it wrote (read back after the game, outside the timing)."""
    store = await Store.open(path)
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, 100, NAMES[0], kind="nauticus")
    for i in range(1, players):
        await svc.join(CH, 100 + i, NAMES[i])
    rec = await svc.start(
        CH, 100, can_manage=True, seed=seed, order=[100 + i for i in range(players)]
    )
    rng = random.Random(seed)
    timed: list[tuple[float, bool, int, int]] = []
    outbox_seen = 0
    async with store.read() as tx:
        outbox_seen = max((r.id for r in await tx.pending_outbox(10_000)), default=0)
    while rec.current is not None:
        seat = rec.current
        move = rng.choice(legal_moves(rec.state, seat))
        t0 = time.perf_counter()
        result = await svc.play(CH, 100 + seat, move, confirm=True)
        dt = time.perf_counter() - t0
        timed.append((dt, result.record.current != seat, result.n, result.record.version))
        rec = result.record
    await store.close()
    out = []
    game_id = rec.id
    for dt, turned, n, version in timed:
        wrote = {
            "move": _rows(path, "moves", "game_id = ? AND n = ?", (game_id, n)),
            "outbox": [],
            "version": version,
        }
        out.append((dt, turned, wrote))
    # Outbox rows in the order written, given to the moves that wrote them (a move that
    # changes the turn writes a ping; every move may edit the last one).
    rows = _rows(path, "outbox", "game_id = ? AND id > ? ORDER BY id", (game_id, outbox_seen))
    per_move = max(1, len(rows) // max(1, len(out)))
    for i, (_, _, wrote) in enumerate(out):
        wrote["outbox"] = rows[i * per_move : (i + 1) * per_move]
    state = _rows(path, "games", "id = ?", (game_id,))[0]["state_json"]
    for _, _, wrote in out:
        wrote["state"] = state
    return out


def bare_game(path: Path, moves: list[tuple[float, bool, dict[str, Any]]]) -> list[float]:
    """The same rows written again with bare sqlite3, one transaction a move."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("CREATE TABLE IF NOT EXISTS g (id INTEGER PRIMARY KEY, version INT, state TEXT)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS m (n INT, seat INT, move TEXT, events TEXT, text TEXT)"
    )
    conn.execute("CREATE TABLE IF NOT EXISTS o (id INTEGER PRIMARY KEY, kind TEXT, payload TEXT)")
    conn.execute("CREATE TABLE IF NOT EXISTS w (game INT PRIMARY KEY, seat INT, since TEXT)")
    conn.execute("INSERT OR REPLACE INTO g VALUES (1, 0, '')")
    times = []
    for _, _, wrote in moves:
        mv = wrote["move"][0]
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO m VALUES (?, ?, ?, ?, ?)",
            (mv["n"], mv["seat"], mv["move_json"], mv["events_json"], mv["text"]),
        )
        conn.execute(
            "UPDATE g SET version = version + 1, state = ? WHERE id = 1", (wrote["state"],)
        )
        for o in wrote["outbox"]:
            conn.execute(
                "INSERT INTO o (kind, payload) VALUES (?, ?)", (o["kind"], o["payload_json"])
            )
        conn.execute("INSERT OR REPLACE INTO w VALUES (1, ?, 'now')", (mv["seat"],))
        conn.execute("COMMIT")
        times.append(time.perf_counter() - t0)
    conn.close()
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
    for g in range(args.games):
        with tempfile.TemporaryDirectory(dir=base) as d:
            moves = await service_game(Path(d) / "svc.db", args.players, 1000 + g)
            bare = bare_game(Path(d) / "bare.db", moves)
        for (dt, turned, _), bt in zip(moves, bare, strict=True):
            svc_all.append(dt)
            bare_all.append(bt)
            if turned:
                svc_turn.append(dt)
                bare_turn.append(bt)
    where = args.dir or tempfile.gettempdir()
    print(f"{len(svc_all)} moves ({len(svc_turn)} turn-changing), {args.players} players, {where}")
    print(f"service, every move:        {_fig(svc_all)}")
    print(f"bare sqlite3, every move:   {_fig(bare_all)}")
    print(f"service, turn-changing:     {_fig(svc_turn)}")
    print(f"bare sqlite3, turn-changing:{_fig(bare_turn)}")
    ratio = statistics.median(svc_all) / statistics.median(bare_all)
    ratio_turn = statistics.median(svc_turn) / statistics.median(bare_turn)
    print(
        f"ratio of medians: every move {ratio:.1f}x, turn-changing {ratio_turn:.1f}x  [goal <= 2x]"
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
