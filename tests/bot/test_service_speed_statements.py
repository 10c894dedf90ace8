"""Fewer statements per move (issue 22, item 7): a plain move runs only the statements it needs,
a move's rows share one time (the clock read once), and a turn ping's digest reuses the unit's
moves already read in the transaction instead of reading them again (the same lines as the
query)."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.core.posts import since_last_move
from bot.service import GameService
from bot.store import Store

NAMES = ("Ana", "Ben", "Cleo", "Dev")


async def play_game(path: Path, kind: str, players: int, seed: int) -> list[tuple[bool, list[str]]]:
    """A whole random game through the service; per move, whether it changed the seat to move
    and every statement it ran (SQLite's trace)."""
    store = await Store.open(path)
    try:
        svc = GameService(store)
        await svc.open_lobby(1, 10, 100, NAMES[0], kind=kind)
        for i in range(1, players):
            await svc.join(10, 100 + i, NAMES[i])
        order = [100 + i for i in range(players)]
        rec = await svc.start(10, 100, can_manage=True, seed=seed, order=order)
        trace: list[str] = []
        await store._conn.set_trace_callback(trace.append)
        rng = random.Random(seed)
        out = []
        while rec.current is not None:
            seat = rec.current
            move = rng.choice(rec.plugin.rules.legal_moves(rec.state, seat))
            mark = len(trace)
            rec = (await svc.play(10, 100 + seat, move, confirm=True)).record
            out.append((rec.current != seat, trace[mark:]))
        await store._conn.set_trace_callback(None)
        return out
    finally:
        await store.close()


Moves = list[tuple[bool, list[str]]]


@pytest.fixture(scope="module")
def nauticus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moves]:
    """One whole four-player game, its database and its moves' statements, for the tests of
    this file that only read them (a game takes seconds)."""
    path = tmp_path_factory.mktemp("speed") / "g.db"
    return path, asyncio.run(play_game(path, "nauticus", 4, seed=3))


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def kinds_of(statement: str) -> str:
    return " ".join(statement.split()[:3])


def test_a_plain_move_runs_five_statements(nauticus: tuple[Path, Moves]) -> None:
    path, moves = nauticus
    plain = [statements for turned, statements in moves if not turned]
    assert len(plain) > 50
    for statements in plain:
        # A checkpoint may follow the commit (every 100 commits): not part of the move.
        end = statements.index("COMMIT") + 1
        assert [kinds_of(s) for s in statements[:end]] == [
            "BEGIN IMMEDIATE",
            "SELECT COALESCE(MAX(n), 0)",
            "INSERT INTO moves",
            "UPDATE games SET",
            "COMMIT",
        ]
    numbers = [r[0] for r in rows(path, "SELECT n FROM moves ORDER BY n")]
    assert numbers == list(range(1, len(moves) + 1))


def test_a_moves_rows_share_one_time(nauticus: tuple[Path, Moves]) -> None:
    path, moves = nauticus
    # Every time with milliseconds a move's statements write (the move's `at`, the game's
    # `updated_at`, its posts' `created_at`) is one and the same.
    stamp = re.compile(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00'")
    for turned, statements in moves:
        times = {t for s in statements for t in stamp.findall(s)}
        written = [s for s in statements if s.startswith(("INSERT", "UPDATE"))]
        assert len(written) >= (4 if turned else 2)
        assert len(times) == 1, times
    last_at = rows(path, "SELECT at FROM moves ORDER BY n DESC LIMIT 1")[0][0]
    assert rows(path, "SELECT updated_at FROM games") == [(last_at,)]


def test_a_turn_passed_within_its_phase_reads_the_units_moves_once(
    nauticus: tuple[Path, Moves],
) -> None:
    moves = nauticus[1]
    turned = [statements for t, statements in moves if t]
    within = [
        ss for ss in turned if not any("INSERT INTO outbox" in s and "phase_post" in s for s in ss)
    ]
    assert len(within) > 50
    # The digest's own query runs only where the unit changed (a phase post, the game's end).
    assert not any(s.startswith("WITH live AS") for ss in within for s in ss)
    assert sum(1 for ss in turned for s in ss if s.startswith("WITH live AS")) < len(turned) / 2


@pytest.mark.parametrize(("kind", "players"), [("nauticus", 4), ("island", 3), ("duel", 2)])
async def test_the_digest_from_the_units_moves_is_the_querys(
    tmp_path: Path, nauticus: tuple[Path, Moves], kind: str, players: int
) -> None:
    if kind == "nauticus":
        path = tmp_path / "copy.db"
        with sqlite3.connect(nauticus[0]) as src, sqlite3.connect(path) as dst:
            src.backup(dst)
    else:
        path = tmp_path / "g.db"
        await play_game(path, kind, players, seed=2)
    store = await Store.open(path)
    try:
        async with store.read() as tx:
            # A move taken back is left out by both.
            await tx.run(
                "INSERT INTO undone (game_id, n, seat, user_id, at) VALUES (1, 2, 0, 1, 't')"
            )
            units = await tx.all("SELECT DISTINCT round, phase FROM moves WHERE game_id = 1")
            compared = 0
            for unit in [(int(r), int(p)) for r, p in units]:
                read = [(n, seat, text) for n, seat, text, _ in await tx.unit_events(1, unit)]
                for seat in range(players):
                    moved, others = await tx.unit_since_last_move(1, seat, unit)
                    mine, their = since_last_move(read, seat)
                    assert their == others
                    if others:
                        compared += 1
                        assert mine == moved
            assert compared > 5
            await tx.run("ROLLBACK")
    finally:
        await store.close()
