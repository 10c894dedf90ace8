"""The SQLite store: migrations, pragmas, constraints, transactions under one lock."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, SCHEMA_VERSION, NewOutbox, SeatRow, Store, StoreError


async def test_migrates_an_empty_database(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        async with store.read() as tx:
            tables = {r[0] for r in await tx.all("SELECT name FROM sqlite_master")}
            journal = await tx.one("PRAGMA journal_mode")
            sync = await tx.one("PRAGMA synchronous")
            fks = await tx.one("PRAGMA foreign_keys")
        assert {"games", "seats", "moves", "outbox", "games_open_per_channel"} <= tables
        assert journal == ("wal",)
        assert sync == (2,)  # FULL
        assert fks == (1,)
    finally:
        await store.close()
    # Opening again migrates nothing and keeps the version.
    again = await Store.open(path)
    assert await again.schema_version() == SCHEMA_VERSION
    await again.close()


async def test_a_games_newest_post_of_a_kind_is_found_through_its_index(tmp_path: Path) -> None:
    # The lookup every move makes (the turn ping it edits) seeks the index; a scan would walk
    # back through every other game's posts.
    store = await Store.open(tmp_path / "plan.db")
    try:
        async with store.read() as tx:
            plan = await tx.all(
                "EXPLAIN QUERY PLAN SELECT id FROM outbox WHERE game_id = ? AND kind = ? "
                "ORDER BY id DESC LIMIT 1",
                (1, "turn_ping"),
            )
        details = " ".join(str(r[-1]) for r in plan)
        assert "USING COVERING INDEX outbox_game_kind (game_id=? AND kind=?)" in details, details
        assert "TEMP B-TREE" not in details  # no sort: the index gives the order
    finally:
        await store.close()


async def test_migrates_forward_keeping_data(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as raw:
        for statement in MIGRATIONS[0]:
            raw.execute(statement)
        raw.execute("PRAGMA user_version = 1")
        raw.execute(
            "INSERT INTO games (guild_id, channel_id, status, host_id, engine_version, seed, "
            "created_at, updated_at) VALUES (1, 2, 'lobby', 3, 'nauticus-1', 4, 'x', 'x')"
        )
    raw.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store.read() as tx:
            game = await tx.open_game(2)
        assert game is not None and game.host_id == 3 and game.flagged is None
    finally:
        await store.close()


async def test_refuses_a_newer_schema_and_a_non_database(tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(newer)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite"):
        await Store.open(junk)


async def _game(store: Store, channel: int) -> int:
    async with store.write() as tx:
        return await tx.insert_game(
            guild_id=1, channel_id=channel, host_id=5, engine_version="nauticus-1", seed=1
        )


async def test_one_open_game_per_channel(store: Store) -> None:
    first = await _game(store, 10)
    with pytest.raises(sqlite3.IntegrityError):
        await _game(store, 10)
    async with store.write() as tx:
        assert await tx.bump_game(first, 0, status="finished")
    # A finished game stays as history and the channel takes a new one.
    second = await _game(store, 10)
    async with store.read() as tx:
        open_game = await tx.open_game(10)
        last = await tx.last_game(10)
    assert open_game is not None and open_game.id == second
    assert last is not None and last.id == second


async def test_version_check_refuses_a_stale_write(store: Store) -> None:
    game = await _game(store, 10)
    async with store.write() as tx:
        assert await tx.bump_game(game, 0, state_json="{}")
        assert not await tx.bump_game(game, 0, state_json="stale")
    async with store.read() as tx:
        row = await tx.game(game)
    assert row is not None and row.version == 1 and row.state_json == "{}"


async def test_move_log_is_append_only(store: Store) -> None:
    game = await _game(store, 10)
    async with store.write() as tx:
        for i in range(3):
            n = await tx.append_move(
                game,
                seat=0,
                user_id=5,
                round=1,
                phase=1,
                move={"type": "pass"},
                events=[{"kind": "passed", "seat": 0}],
                text=f"move {i}",
            )
            assert n == i + 1
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.write() as tx:
            await tx.run("UPDATE moves SET text = 'rewritten' WHERE game_id = ?", (game,))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.write() as tx:
            await tx.run("DELETE FROM moves WHERE game_id = ?", (game,))
    async with store.read() as tx:
        moves = await tx.moves(game)
        last_two = await tx.last_moves(game, 2)
    assert [m.text for m in moves] == ["move 0", "move 1", "move 2"]
    assert [m.n for m in last_two] == [2, 3]
    assert moves[0].events == [{"kind": "passed", "seat": 0}]


async def test_failed_transaction_leaves_nothing(store: Store) -> None:
    game = await _game(store, 10)
    with pytest.raises(RuntimeError):
        async with store.write() as tx:
            await tx.set_seats(game, [SeatRow(0, 5, "Ana")])
            await tx.add_outbox(game, [NewOutbox(10, "lobby", {"text": "x"})])
            raise RuntimeError("something failed half-way")
    async with store.read() as tx:
        assert await tx.seats(game) == []
        assert await tx.pending_outbox() == []


async def test_concurrent_writers_do_not_share_a_transaction(store: Store) -> None:
    """Two coroutines on one aiosqlite connection would share its transaction; the store's lock
    must make each read-modify-write whole."""
    game = await _game(store, 10)

    async def bump() -> None:
        async with store.write() as tx:
            row = await tx.game(game)
            assert row is not None
            # Another coroutine runs between these statements if the lock is missing.
            assert await tx.bump_game(game, row.version)

    await asyncio.gather(*(bump() for _ in range(25)))
    async with store.read() as tx:
        row = await tx.game(game)
    assert row is not None and row.version == 25


async def test_outbox_rows_keep_order_edits_and_are_marked_once(store: Store) -> None:
    game = await _game(store, 10)
    async with store.write() as tx:
        ids = await tx.add_outbox(
            game,
            [
                NewOutbox(10, "turn_ping", {"text": "ping"}),
                NewOutbox(10, "ping_done", {"text": "done"}, edits_ref=0),
            ],
        )
    async with store.read() as tx:
        rows = await tx.pending_outbox()
    assert [r.id for r in rows] == ids
    assert rows[1].edits == ids[0]
    assert rows[0].nonce != rows[1].nonce
    async with store.write() as tx:
        assert await tx.mark_sent(ids[0], 77)
        assert not await tx.mark_sent(ids[0], 78)
    async with store.read() as tx:
        row = await tx.outbox_row(ids[0])
        pending = await tx.pending_outbox()
    assert row is not None and row.message_id == 77 and row.sent_at is not None
    assert [r.id for r in pending] == [ids[1]]
