"""The real `python -m bot run` against the local fake Discord (tests/e2e): the seating button,
`/games replace` with real member options and its confirmation, the run lock refusing a
restore and a second bot, and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.service import GameService
from bot.store import Store
from tests.e2e.conftest import HANG_GUARD, World, assert_answered, world
from tests.e2e.fake_discord import Message
from tests.e2e.harness import BotProcess

__all__ = ["world"]  # the fixture, imported for its name

REPO = Path(__file__).resolve().parents[2]


def seats(db: Path) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [
            int(r[0])
            for r in conn.execute(
                "SELECT s.user_id FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE g.status = 'active' ORDER BY s.seat"
            )
        ]


def cli(tmp_path: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_hosting_through_the_real_bot_and_a_clean_sigterm(
    world: World, tmp_path: Path
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _scenario(world, tmp_path)
    assert_answered(world.fake)


async def _scenario(world: World, tmp_path: Path) -> None:
    fake = world.fake
    db = tmp_path / "bot.db"
    bot = BotProcess(
        fake,
        ["-m", "bot", "run"],
        {"DISCORD_TOKEN": fake.token, "DEV_GUILD_ID": world.guild.id, "DATABASE_PATH": str(db)},
        tmp_path / "bot.log",
        fork=False,  # the real `python -m bot run`, as an admin starts it
    )
    await bot.start()
    try:
        await fake.wait_ready(timeout=30)
        alice, bob, carol = (world.user(n) for n in ("alice", "bob", "carol"))
        await (await alice.slash("nauticus new")).callback()

        def lobby() -> Message | None:
            return next(
                (m for m in fake.channel_messages(world.channel) if "lobby" in m.content), None
            )

        msg = await fake.wait_for(lobby, what="the lobby message")
        await (await bob.click(msg, "Join")).callback()
        await fake.wait_for(lambda: "2/4 players" in (lobby() or msg).content, what="Bob seated")
        await (await alice.click(msg, "Seating: random / join order")).callback()
        await fake.wait_for(
            lambda: "Seat order: join order" in (lobby() or msg).content, what="join order shown"
        )
        await (await alice.click(msg, "Start")).callback()
        await fake.wait_for(lambda: len(seats(db)) == 2, what="the game started")
        assert seats(db) == [int(alice.id), int(bob.id)]  # the join order, not a draw

        # Bob vanished: the host hands his seat to Carol, after confirming.
        ask = await alice.slash("games replace", old=bob, new=carol)
        question = await ask.message()
        assert "Hand seat 2" in question.content and question.ephemeral
        await (await alice.click(question, "Yes, hand the seat over")).callback()
        await fake.wait_for(lambda: int(carol.id) in seats(db), what="Carol seated")
        assert seats(db) == [int(alice.id), int(carol.id)]
        await fake.wait_for(
            lambda: any("handed seat 2" in m.content for m in fake.channel_messages(world.channel)),
            what="the hand-over logged in the channel",
        )

        # While the bot runs, its lock refuses a restore and a second bot on the same database.
        backup = cli(tmp_path, db, "backup", str(tmp_path / "copy.db"))
        assert backup.returncode == 0, backup.stderr
        restore = cli(tmp_path, db, "restore", str(tmp_path / "copy.db"))
        assert restore.returncode == 1 and "Stop the bot first" in restore.stderr
        second = subprocess.run(
            [sys.executable, "-m", "bot", "run"],
            cwd=tmp_path,
            env={
                **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
                "PYTHONPATH": str(REPO),
                "DATABASE_PATH": str(db),
                "DISCORD_TOKEN": fake.token,
                "DISCORD_API_BASE": fake.api_base,
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1 and "in use by bot (pid" in second.stderr

        code = await bot.kill(signal.SIGTERM)
        assert code == 0, bot.log()
        assert "stopped cleanly (SIGTERM)" in bot.log()
    finally:
        await bot.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = await Store.open(db)
    try:
        assert await GameService(store).check_all() == []
    finally:
        await store.close()
    done = cli(tmp_path, db, "restore", str(tmp_path / "copy.db"))
    assert done.returncode == 0, done.stderr
