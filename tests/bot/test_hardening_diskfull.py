"""A full disk: a delivered post is never posted again while its row can't be marked sent; the
player is told plainly; one ERROR per outage; no acknowledged move is lost.

The full disk is simulated on the store's own connection: while `full` is set, every INSERT or
UPDATE raises the sqlite3 error SQLite gives then ("database or disk is full")."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections import Counter
from typing import Any

import pytest

from bot.outbox import Outbox, OutMessage
from bot.service import GameService
from bot.store import Store, StoreError
from tests.bot.test_service import CH, FakeDiscord, counts, fake_draw, play_any, started


class FullDisk:
    """Wraps the sqlite3 connection under aiosqlite's (its private `_connection`: every
    statement, whether one hop each or a whole transaction on aiosqlite's thread, runs
    there): writes fail while `full` is set."""

    def __init__(self, store: Store) -> None:
        self.full = False
        conn = store._conn
        conn._connection = _Failing(conn._conn, self)


class _Failing:
    """A sqlite3 connection whose INSERTs and UPDATEs fail while the disk is `full`."""

    def __init__(self, real: sqlite3.Connection, disk: FullDisk) -> None:
        self.real, self.disk = real, disk

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.disk.full and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class CountingDiscord(FakeDiscord):
    """Counts every call per nonce, including the resends Discord would drop."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[tuple[str, int | None]] = Counter()

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self.calls["send", msg.nonce] += 1
        return await super().send(channel_id, msg)

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self.calls["edit", msg.nonce] += 1
        await super().edit(channel_id, message_id, msg)


async def test_a_post_delivered_while_marking_fails_is_never_posted_again(store: Store) -> None:
    discord = CountingDiscord()
    outbox = Outbox(store, discord, draw=fake_draw)
    svc = GameService(store, outbox=outbox)
    disk = FullDisk(store)
    rec = await started(svc)
    rng = random.Random(6)
    for _ in range(6):
        rec = await play_any(svc, rec, rng)
    disk.full = True
    for _ in range(7):  # the retries of an outage
        assert await outbox.deliver_pending() > 0
    disk.full = False
    assert await outbox.deliver_pending() == 0
    assert discord.calls and max(discord.calls.values()) == 1, discord.calls
    async with store.read() as tx:
        assert await tx.pending_outbox() == []
        marked = await tx.all("SELECT COUNT(*) FROM outbox WHERE message_id IS NULL")
    assert marked == [(0,)]  # each row marked with the id of its one delivery


async def test_moves_on_a_full_disk_are_refused_plainly_and_nothing_is_lost(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    discord = CountingDiscord()
    outbox = Outbox(store, discord, draw=fake_draw)
    svc = GameService(store, outbox=outbox)
    disk = FullDisk(store)
    rec = await started(svc)
    rng = random.Random(9)
    acknowledged = []
    for _ in range(3):
        rec = await play_any(svc, rec, rng)
        acknowledged.append(rec.version)
    before = await counts(store, rec.id)
    disk.full = True
    with caplog.at_level(logging.INFO):
        for _ in range(4):
            with pytest.raises(StoreError) as exc:
                await play_any(svc, rec, random.Random(9))
            text = str(exc.value)
            assert "disk is full" in text and "admin" in text and "nothing" in text, text
            await outbox.deliver_pending()
        full_errors = [
            r for r in caplog.records if r.levelno >= logging.ERROR and "full" in r.getMessage()
        ]
        assert len(full_errors) == 1, [r.getMessage() for r in full_errors]
        assert await counts(store, rec.id) == before  # nothing changed
        disk.full = False
        rec = await play_any(svc, await svc._active(CH), rng)
    assert rec.version == before[0] + 1
    async with store.read() as tx:
        moves = await tx.moves(rec.id)
    assert len(moves) == before[1] + 1  # the three acknowledged moves and the new one
    assert any("free" in r.getMessage() or "again" in r.getMessage() for r in caplog.records)
