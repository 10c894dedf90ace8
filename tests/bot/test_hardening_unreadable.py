"""One unreadable row (invalid JSON written by hand or by a damaged disk) stops only its own
game (move log) or its own message (outbox); everything else goes on."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.outbox import Outbox
from bot.service import GameService, GameUnavailable
from bot.store import Store
from tests.bot.test_hardening_database import cli
from tests.bot.test_hardening_live import start_in
from tests.bot.test_service import FakeDiscord, fake_draw, play_any

GOOD_CH, BAD_CH = 801, 802


def damage_move(db: Path, game_id: int, n: int, column: str) -> None:
    """Overwrite one move-log cell with invalid JSON (the log's triggers set aside for it)."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER moves_no_update")
        conn.execute(
            f"UPDATE moves SET {column} = '{{\"kind\": broken' WHERE game_id = ? AND n = ?",
            (game_id, n),
        )
        conn.execute(
            "CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves "
            "BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END"
        )


async def two_games(db: Path) -> tuple[int, int]:
    store = await Store.open(db)
    svc = GameService(store)
    rng = random.Random(8)
    good = await start_in(svc, GOOD_CH, 1)
    bad = await start_in(svc, BAD_CH, 2)
    for _ in range(4):
        good = await play_any_in(svc, GOOD_CH, good, rng)
        bad = await play_any_in(svc, BAD_CH, bad, rng)
    await store.close()
    return good.id, bad.id


async def play_any_in(svc: GameService, ch: int, rec: object, rng: random.Random) -> object:
    import tests.bot.test_service as ts

    saved = ts.CH
    ts.CH = ch
    try:
        return await play_any(svc, rec, rng)  # type: ignore[arg-type]
    finally:
        ts.CH = saved


@pytest.mark.parametrize("column", ["move_json", "events_json"])
async def test_an_unreadable_move_puts_only_its_game_on_hold(tmp_path: Path, column: str) -> None:
    db = tmp_path / "bot.db"
    good_id, bad_id = await two_games(db)
    damage_move(db, bad_id, 2, column)
    store = await Store.open(db)
    try:
        svc = GameService(store)
        with pytest.raises(GameUnavailable) as exc:
            await svc.play(BAD_CH, 11, {"kind": "pass"})
        assert exc.value.code == "flagged" and exc.value.error_id
        assert exc.value.error_id in str(exc.value)
        async with store.read() as tx:
            bad = await tx.game(bad_id)
            good = await tx.game(good_id)
        assert bad is not None and bad.flagged and exc.value.error_id in bad.flagged
        assert "unreadable" in bad.flagged
        assert good is not None and good.flagged is None
        # The healthy game in the other channel still plays.
        rec = await svc._active(GOOD_CH)
        await play_any_in(svc, GOOD_CH, rec, random.Random(1))
    finally:
        await store.close()


async def test_check_reports_an_unreadable_move_by_channel_and_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    good_id, bad_id = await two_games(db)
    damage_move(db, bad_id, 3, "move_json")
    with sqlite3.connect(db) as conn:  # and a real mismatch in the other game, after it
        conn.execute("UPDATE games SET seed = seed + 1 WHERE id = ?", (good_id,))
    done = cli(tmp_path, db, "check")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert f"channel {BAD_CH}, game {bad_id}: move 3 of the log is unreadable" in done.stdout
    assert f"channel {GOOD_CH}, game {good_id}:" in done.stdout  # checked after the bad one
    assert "2 problem(s)" in done.stdout


# --- the outbox ------------------------------------------------------------------------------


async def test_an_unreadable_outbox_row_is_set_aside_and_the_rest_delivered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "bot.db"
    store = await Store.open(db)
    try:
        discord = FakeDiscord()
        outbox = Outbox(store, discord, draw=fake_draw)
        svc = GameService(store, outbox=outbox)
        await start_in(svc, BAD_CH, 1)
        await start_in(svc, GOOD_CH, 2)
        async with store.read() as tx:
            first = await tx.one("SELECT MIN(id) FROM outbox WHERE channel_id = ?", (BAD_CH,))
            total = await tx.one("SELECT COUNT(*) FROM outbox")
        assert first is not None and total is not None
        bad_id, rows = int(first[0]), int(total[0])
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE outbox SET payload_json = '{\"text\": ' WHERE id = ?", (bad_id,))
        with caplog.at_level(logging.ERROR, logger="bot.outbox"):
            failed = await outbox.deliver_pending()
        assert failed == 0
        # Every other row went out, in both channels (the bad row's channel included).
        delivered = [m for op, _, m in discord.log if op == "send"]
        assert {ch for op, ch, _ in discord.log} == {BAD_CH, GOOD_CH}
        async with store.read() as tx:
            pending = await tx.pending_outbox()
            aside = await tx.one(
                "SELECT sent_at, message_id, error FROM outbox WHERE id = ?", (bad_id,)
            )
        assert pending == []
        assert aside is not None and aside[0] is not None and aside[1] is None
        assert str(aside[2]).startswith("set aside")
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert any(f"outbox row {bad_id}" in r.getMessage() for r in errors)
        # Never retried.
        calls = len(discord.log)
        assert await outbox.deliver_pending() == 0 and len(discord.log) == calls
        assert len(delivered) + len([m for op, _, m in discord.log if op == "edit"]) == rows - 1
    finally:
        await store.close()
    done = cli(tmp_path, db, "check")
    assert f"outbox row {bad_id} (channel {BAD_CH}" in done.stdout, done.stdout + done.stderr
    assert "set aside" in done.stdout and done.returncode == 1
