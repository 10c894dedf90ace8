"""AI seats against the real bot process through the fake Discord.

The host seats a robot from the lobby's AI menu (a member who is not the host is refused), the
game starts, the host hands her own seat to the AI with `/games autopilot`, and the AI plays
both seats on its own, in its process pool, to the final post. The bot is SIGKILLed in the
middle and started again: the AI turn it was in resumes. Every move in the log is marked as
played by the AI, and nobody is pinged for a seat the AI plays.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import RateLimits
from tests.e2e.game import bot_process, start_bot


def _game(db: Path, channel_id: str) -> tuple[int, str, int]:
    """(game id, status, moves logged) of the channel's latest game."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        gid, status = conn.execute(
            "SELECT id, status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (int(channel_id),),
        ).fetchone()
        (moves,) = conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()
    finally:
        conn.close()
    return gid, status, moves


def _texts(db: Path, game_id: int) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return [t for (t,) in conn.execute("SELECT text FROM moves WHERE game_id = ?", (game_id,))]
    finally:
        conn.close()


def _index_of_autopilot(rows: list[tuple[str, str]]) -> int:
    return next(i for i, (k, p) in enumerate(rows) if k == "notice" and "handed their seat" in p)


async def _until(check: object, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_a_robot_and_an_autopilot_play_a_whole_duel_across_a_sigkill(
    world: World, tmp_path: Path
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _scenario(world, tmp_path)
    assert_answered(world.fake)


async def _scenario(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(global_limit=None, routes={})  # no 429 waits: a quick game
    db = tmp_path / "bot.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    bot.env.update(AI_MOVE_DELAY="0", AI_WORKERS="1")
    await start_bot(bot)
    try:
        ana, ben = world.user("ana"), world.user("ben")
        await (await ana.slash("duel new")).message()
        lobby = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(world.channel) if "duel lobby" in m.text()),
                None,
            ),
            what="the duel lobby",
        )
        refused = await (await ben.click(lobby, "🤖 AI seats")).message()
        assert "Only the host or a member with Manage Channels can add AI seats" in refused.text()
        menu = await (await ana.click(lobby, "🤖 AI seats")).message()
        assert menu.visible_to == ana.user.id
        seated = await (await ana.select(menu, ["easy"])).message()
        assert "🤖 Nemo (easy) took a seat" in seated.text()
        await fake.wait_for(
            lambda: "2. 🤖 Nemo (easy)" in lobby.text() or None, what="the robot in the lobby"
        )
        await (await ana.click(lobby, "Seating: random / join order")).message()
        assert "has started" in (await (await ana.click(lobby, "Start")).message()).text()
        auto = await (await ana.slash("games autopilot", on=True, level="easy")).message()
        assert "Autopilot on (easy)" in auto.text()
        gid, _, _ = _game(db, world.channel.id)
        # The AI plays both seats now; kill the bot once it is well into the game.
        await _until(lambda: _game(db, world.channel.id)[2] >= 20, "20 AI moves", 60)
        assert await bot.kill() == -9
        stopped_at = _game(db, world.channel.id)[2]
        await start_bot(bot)
        await _until(lambda: _game(db, world.channel.id)[1] == "finished", "the game's end", 90)
        _, _, total = _game(db, world.channel.id)
        assert total > stopped_at
        texts = _texts(db, gid)
        assert len(texts) == total and all("🤖" in t for t in texts)
        assert any(t.endswith("(🤖 autopilot)") for t in texts)
        assert any(t.endswith(" 🤖") for t in texts)
        await fake.wait_for(
            lambda: any("wins" in m.text() for m in fake.channel_messages(world.channel)) or None,
            what="the final post",
            timeout=30,
        )
        # After the autopilot went on, the bot asked Discord to ping nobody: every turn ping
        # since names who is thinking and mentions no one.
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            rows = conn.execute(
                "SELECT kind, payload_json FROM outbox WHERE game_id = ? ORDER BY id", (gid,)
            ).fetchall()
        finally:
            conn.close()
        after = [json.loads(p) for k, p in rows[_index_of_autopilot(rows) :] if k == "turn_ping"]
        assert len(after) > 20
        assert all(p["mentions"] == [] and "is thinking" in p["text"] for p in after)
    finally:
        await bot.stop()
