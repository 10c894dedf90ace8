"""Operations: online backup during a stream of moves, restore refused while a bot runs, the
`check`, `backup` and `restore` commands, and a clean stop when a running bot gets SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import ops
from bot.outbox import Outbox, OutMessage
from bot.service import GameService
from bot.store import Store
from tests.bot.test_service import CH, GUILD, FakeDiscord, fake_draw, play_any, started
from tests.e2e.harness import run_module

REPO = Path(__file__).resolve().parents[2]


class SameChannel(FakeDiscord):
    """The channels the stopped process was posting to: its messages exist there already."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self.calls += 1
        return await super().send(channel_id, msg)

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self.calls += 1
        self.messages[message_id] = msg


def cli(
    tmp_path: Path, db: Path, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    return run_module(
        ["-m", "bot", *args],
        cwd=tmp_path,  # no .env there
        env=env,
        timeout=timeout,
    )


def table_counts(path: Path) -> tuple[int, int, int]:
    with sqlite3.connect(path) as conn:
        return (
            conn.execute("SELECT COUNT(*) FROM games").fetchone()[0],
            conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0],
            conn.execute("SELECT COALESCE(SUM(version), 0) FROM games").fetchone()[0],
        )


# --- backup ----------------------------------------------------------------------------------


async def test_a_backup_taken_during_a_stream_of_moves_replays_consistently(
    tmp_path: Path,
) -> None:
    db = tmp_path / "live.db"
    store = await Store.open(db)
    svc = GameService(store, outbox=Outbox(store, FakeDiscord(), draw=fake_draw))
    rec = await started(svc)
    rng = random.Random(5)
    played = 0

    async def stream() -> None:
        nonlocal rec, played
        for _ in range(150):
            rec = await play_any(svc, rec, rng)
            played += 1

    mover = asyncio.create_task(stream())
    copies = []
    for i in range(3):
        while played < 30 * (i + 1) and not mover.done():
            await asyncio.sleep(0)
        # A separate connection in a worker thread, while the moves keep being committed.
        copies.append(await asyncio.to_thread(ops.backup, db, tmp_path / f"copy{i}.db"))
    await mover
    await store.close()
    seen = []
    for copy in copies:
        assert copy.games == 1 and copy.active == 1
        assert not Path(f"{copy.path}-wal").exists()  # one self-contained file
        restored = await Store.open(copy.path)
        svc2 = GameService(restored)
        assert await svc2.check_all() == []
        game = await svc2.game_in(CH)
        assert game is not None and game.state is not None
        async with restored.read() as tx:
            moves = await tx.moves(game.id)
            pings = await tx.latest_outbox(game.id, "turn_ping")
        await restored.close()
        # Each copy holds whole moves only: the state is the replay of the moves it holds, and
        # the latest ping (written with the move that passed the turn) names the player to act.
        assert game.state.current is not None and pings is not None
        assert pings.payload["mentions"] == [game.user_at(game.state.current)]
        seen.append(len(moves))
    assert 0 < seen[0] <= seen[1] <= seen[2] <= 150


def test_backup_refusals_write_nothing(tmp_path: Path) -> None:
    with pytest.raises(ops.OpsError, match="no database"):
        ops.backup(tmp_path / "none.db", tmp_path / "b.db")
    db = tmp_path / "live.db"
    sqlite3.connect(db).close()
    (tmp_path / "taken.db").write_bytes(b"keep me")
    with pytest.raises(ops.OpsError, match="already exists"):
        ops.backup(db, tmp_path / "taken.db")
    assert (tmp_path / "taken.db").read_bytes() == b"keep me"
    with pytest.raises(ops.OpsError, match="does not exist"):
        ops.backup(db, tmp_path / "no" / "such" / "b.db")
    # /proc refuses new files even to root, whose permission bits would let anything through.
    with pytest.raises(ops.OpsError, match=r"failed|permission"):
        ops.backup(db, Path("/proc/nauticus-backup.db"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.db", "taken.db"]


# --- restore ---------------------------------------------------------------------------------


async def make_db(path: Path, games: int) -> None:
    store = await Store.open(path)
    svc = GameService(store)
    for i in range(games):
        await svc.open_lobby(GUILD, CH + i, 1, "Ana", kind="nauticus")
    await store.close()


async def test_restore_refuses_while_the_bot_holds_the_lock(tmp_path: Path) -> None:
    db, backup = tmp_path / "live.db", tmp_path / "backup.db"
    await make_db(backup, 1)
    await make_db(db, 3)
    with ops.RunLock(db):  # what `python -m bot run` holds while it runs
        with pytest.raises(ops.AlreadyRunning, match="Stop the bot first"):
            ops.restore(db, backup)
        assert table_counts(db)[0] == 3
        assert not list(tmp_path.glob("*.before-restore-*"))
    restored, saved = ops.restore(db, backup)
    assert restored.games == 1 and table_counts(db)[0] == 1
    assert saved is not None and table_counts(saved)[0] == 3  # the replaced data is kept
    store = await Store.open(db)  # and the bot opens the restored file
    assert await GameService(store).game_in(CH) is not None
    await store.close()


async def test_restore_refuses_what_is_not_a_bot_database(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    await make_db(db, 2)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ops.OpsError, match="not a usable SQLite database"):
        ops.restore(db, junk)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ops.OpsError, match="not a Nauticus bot database"):
        ops.restore(db, other)
    with pytest.raises(ops.OpsError, match="no file"):
        ops.restore(db, tmp_path / "missing.db")
    assert table_counts(db)[0] == 2


def test_a_second_lock_holder_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    first = ops.RunLock(db)
    first.acquire()
    with pytest.raises(ops.AlreadyRunning, match=f"pid {os.getpid()}"):
        ops.RunLock(db).acquire()
    first.release()
    with ops.RunLock(db):
        pass


# --- the commands ----------------------------------------------------------------------------


async def test_check_command_reports_a_corrupted_game_by_channel_and_id(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    store = await Store.open(db)
    svc = GameService(store)
    rec = await started(svc)
    rec = await play_any(svc, rec, random.Random(2))
    await store.close()
    ok = cli(tmp_path, db, "check")
    assert ok.returncode == 0 and "0 problem(s)" in ok.stdout, ok.stderr
    with sqlite3.connect(db) as raw:
        state = json.loads(raw.execute("SELECT state_json FROM games").fetchone()[0])
        state["players"][0]["taler"] += 5  # a deliberately corrupted stored state
        raw.execute("UPDATE games SET state_json = ?", (json.dumps(state),))
    bad = cli(tmp_path, db, "check")
    assert bad.returncode == 1
    assert f"channel {CH}, game {rec.id}: state differs from a replay of 1 moves" in bad.stdout
    assert "1 problem(s)" in bad.stdout


async def test_backup_and_restore_commands(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    await make_db(db, 2)
    made = cli(tmp_path, db, "backup", str(tmp_path / "b1.db"))
    assert made.returncode == 0, made.stderr
    assert "2 games (0 in progress)" in made.stdout
    again = cli(tmp_path, db, "backup", str(tmp_path / "b1.db"))
    assert again.returncode == 1 and "already exists" in again.stderr
    with ops.RunLock(db):
        refused = cli(tmp_path, db, "restore", str(tmp_path / "b1.db"))
    assert refused.returncode == 1 and "Stop the bot first" in refused.stderr
    assert not list(tmp_path.glob("*.before-restore-*"))
    done = cli(tmp_path, db, "restore", str(tmp_path / "b1.db"))
    assert done.returncode == 0, done.stderr
    assert "Restored" in done.stdout and "before-restore" in done.stdout


# --- SIGTERM ---------------------------------------------------------------------------------


async def test_sigterm_stops_a_running_bot_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.sigterm_child", str(db)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline().strip()
        if first != "ready":  # it died before playing: show why
            child.kill()
            raise AssertionError(f"child said {first!r}: {child.communicate()[1]}")
        # Moves are being committed now, in three channels at once.
        # While it runs: a backup works, a restore is refused.
        copy = ops.backup(db, tmp_path / "during.db")
        assert copy.games >= 3
        with pytest.raises(ops.AlreadyRunning):
            ops.restore(db, copy.path)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    assert "stopped cleanly after" in out and "(SIGTERM)" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = await Store.open(db)
    try:
        svc = GameService(store)
        # No half-written move: every stored state is the replay of its log.
        assert await svc.check_all() == []
        games = await svc.active_games()
        async with store.read() as tx:
            for game in games:
                # The ping written with the move that passed the turn is there, for the player
                # who must act now: no move was committed without its messages.
                ping = await tx.latest_outbox(game.id, "turn_ping")
                assert game.state is not None and game.state.current is not None
                assert ping is not None
                assert ping.payload["mentions"] == [game.user_at(game.state.current)]
            edits = await tx.all(
                "SELECT COUNT(*) FROM outbox o WHERE edits IS NOT NULL AND NOT EXISTS "
                "(SELECT 1 FROM outbox t WHERE t.id = o.edits)"
            )
            unsent = await tx.all("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
            wrong = await tx.all(
                "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL AND message_id IS NULL "
                "AND edits IS NULL"
            )
        assert games and edits[0][0] == 0 and wrong[0][0] == 0
        # Whatever was left undelivered goes out at the next start, every row once.
        fake = SameChannel()
        outbox = Outbox(store, fake, draw=fake_draw)
        assert await outbox.deliver_pending() == 0
        async with store.read() as tx:
            assert await tx.pending_outbox() == []
        assert fake.calls == unsent[0][0]
    finally:
        await store.close()
    # The lock went with the process: a restore may run now.
    restored, _ = ops.restore(db, copy.path)
    assert restored.games == copy.games
