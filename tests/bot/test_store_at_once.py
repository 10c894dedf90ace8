"""`Store.write_at_once`: a whole transaction in one hop to the connection's thread is stored
whole or not at all, sees the caller's context, refuses work that really waits, and keeps the
connection to itself until it has ended even when its caller is cancelled."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest

from bot import i18n
from bot.store import DiskFull, Store, Tx


async def flags(store: Store) -> list[tuple[int, str | None]]:
    async with store.read() as tx:
        return [(int(r[0]), r[1]) for r in await tx.all("SELECT id, flagged FROM games")]


async def new_game(tx: Tx) -> int:
    return await tx.insert_game(guild_id=1, channel_id=10, host_id=100, engine_version="x", seed=1)


async def test_the_whole_transaction_runs_in_one_hop_on_the_connection_thread(
    store: Store,
) -> None:
    threads: list[str] = []

    async def work(tx: Tx) -> int:
        game = await new_game(tx)
        await tx.flag_game(game, "one")
        threads.append(threading.current_thread().name)
        row = await tx.game(game)  # reads see the transaction's own writes
        assert row is not None and row.flagged == "one"
        return game

    game = await store.write_at_once(work)
    assert threads and threads[0] != threading.current_thread().name
    assert await flags(store) == [(game, "one")]


async def test_a_failing_transaction_stores_nothing(store: Store) -> None:
    async def work(tx: Tx) -> None:
        game = await new_game(tx)
        await tx.flag_game(game, "half")
        raise ValueError("refused after two writes")

    with pytest.raises(ValueError, match="refused after two writes"):
        await store.write_at_once(work)
    assert await flags(store) == []
    # The connection is free and out of any transaction afterwards.
    game = await store.write_at_once(new_game)
    assert await flags(store) == [(game, None)]


async def test_work_that_really_waits_is_refused_and_rolled_back(store: Store) -> None:
    async def work(tx: Tx) -> None:
        await new_game(tx)
        await asyncio.sleep(0)  # would wait for ever on the connection's thread

    with pytest.raises(RuntimeError, match="awaited something else"):
        await store.write_at_once(work)
    assert await flags(store) == []


async def test_the_work_sees_the_callers_language(store: Store) -> None:
    async def work(tx: Tx) -> str:
        return i18n.current()

    with i18n.use("fr"):
        assert await store.write_at_once(work) == "fr"
    assert await store.write_at_once(work) == i18n.ENGLISH


async def test_a_full_disk_is_told_plainly_and_stores_nothing(store: Store) -> None:
    async def work(tx: Tx) -> None:
        await new_game(tx)
        raise sqlite3.OperationalError("database or disk is full")

    with pytest.raises(DiskFull):
        await store.write_at_once(work)
    assert store.disk_full
    assert await flags(store) == []
    await store.write_at_once(new_game)
    assert not store.disk_full  # the next commit ends the outage


async def test_a_cancelled_caller_keeps_the_connection_until_the_transaction_ends(
    store: Store,
) -> None:
    started = threading.Event()
    ended: list[int] = []

    async def slow(tx: Tx) -> None:
        await new_game(tx)
        started.set()
        time.sleep(0.3)  # on the connection's thread: the event loop goes on meanwhile
        ended.append(1)

    task = asyncio.create_task(store.write_at_once(slow))
    while not started.is_set():
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The cancellation reached the caller only once the transaction had ended (committed:
    # the work finished), and the store is usable at once.
    assert len(ended) == 1
    assert await flags(store) == [(1, None)]
    await store.write_at_once(lambda tx: tx.flag_game(1, "after"))
    assert await flags(store) == [(1, "after")]
