"""WAL housekeeping: the -wal file is checkpointed and truncated as the bot plays, and on a clean
stop, so it never grows without bound beside the database."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from bot.service import GameService
from bot.store import Store
from tests.bot.test_service import play_any, started

MOVES = 400


def wal_size(db: Path) -> int:
    wal = db.with_name(db.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def test_the_wal_stays_small_over_many_moves_and_is_emptied_on_close(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.db"
    store = await Store.open(db)
    svc = GameService(store)
    rec = await started(svc)
    rng = random.Random(12)
    sizes = []
    for i in range(MOVES):
        if rec.status != "active":
            rec = await started(svc)  # the game ended: the next one in the same channel
        rec = await play_any(svc, rec, rng)
        if i >= MOVES // 2:
            sizes.append(wal_size(db))
    assert len(sizes) == MOVES // 2
    # Without housekeeping the WAL only grows to SQLite's auto-checkpoint size (about 4 MB) and
    # keeps that size; with it, it is truncated whenever it passes 1 MB.
    assert max(sizes) <= Store.CHECKPOINT_WAL_BYTES, max(sizes)
    assert min(sizes) < 100_000, min(sizes)
    # Another connection keeps the file from being removed by SQLite itself on close.
    other = sqlite3.connect(db)
    try:
        other.execute("SELECT COUNT(*) FROM games").fetchone()
        await store.close()
        assert wal_size(db) == 0
    finally:
        other.close()
