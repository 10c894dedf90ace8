"""Reminders, snooze, quiet hours and undo against the real bot process through the fake
Discord.

Waiting 12 hours is not a test: the test moves the stored schedule instead (as if the clock had
jumped) by writing the reminder's due time into the bot's database from outside, which is what
the bot itself reads every `REMINDER_CHECK_SECONDS`. The reminder then comes through Discord,
naming only the waiting player, with Play and Snooze; the other player's Snooze is refused; the
waiting player's is confirmed and stored. A turn ping inside a player's quiet hours is posted as
a silent message. The bot is SIGKILLed with a reminder due: after the restart it is sent once.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.e2e import limits
from tests.e2e.client import TestUser
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import FakeDiscord, Message, RateLimits
from tests.e2e.game import bot_process, read_outbox, start_bot, start_table
from tests.e2e.policy import Policy


def _wait_row(db: Path, game_id: int) -> tuple[int, int, str | None, str | None]:
    """(user id, reminders sent, next due, snoozed until) of the game's wait."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute(
            "SELECT user_id, sent, next_at, snooze_until FROM waits WHERE game_id = ?", (game_id,)
        ).fetchone()
    finally:
        conn.close()
    assert row is not None
    return row[0], row[1], row[2], row[3]


def _make_due(db: Path, game_id: int) -> None:
    """The clock jumps: the next reminder is due now."""
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
    conn = sqlite3.connect(db, timeout=10)
    try:
        with conn:
            conn.execute("UPDATE waits SET next_at = ? WHERE game_id = ?", (past, game_id))
    finally:
        conn.close()


def _game_id(db: Path, channel_id: str) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        (gid,) = conn.execute(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (int(channel_id),),
        ).fetchone()
    finally:
        conn.close()
    return int(gid)


def _version(db: Path, game_id: int) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    finally:
        conn.close()


def _button_labels(message: Message | None) -> list[str | None]:
    """The labels of a message's buttons (none for no message)."""
    if message is None:
        return []
    return [c.get("label") for c in message.iter_components() if c.get("type") == 2]


def _reminders(fake: FakeDiscord, world: World) -> list[Message]:
    return [m for m in fake.channel_messages(world.channel) if m.text().startswith("⏰")]


async def test_reminders_snooze_and_quiet_hours_through_discord(
    world: World, tmp_path: Path
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _scenario(world, tmp_path)
    assert_answered(world.fake)


async def _scenario(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(global_limit=None, routes={})
    db = tmp_path / "bot.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    bot.env.update(REMINDER_CHECK_SECONDS="1", AI_MOVE_DELAY="0", AI_WORKERS="1")
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
        await (await ben.click(lobby, "Join")).message()
        await (await ana.click(lobby, "Seating: random / join order")).message()
        assert "has started" in (await (await ana.click(lobby, "Start")).message()).text()
        gid = _game_id(db, world.channel.id)
        users = {ana.id: ana, ben.id: ben}
        waiting_id, sent, due, _ = _wait_row(db, gid)
        waiting: TestUser = users[str(waiting_id)]
        other = ben if waiting is ana else ana
        assert sent == 0 and due is not None
        # The clock jumps to the reminder.
        _make_due(db, gid)
        (reminder,) = await fake.wait_for(
            lambda: _reminders(fake, world) or None, what="the reminder", timeout=10
        )
        assert reminder.text().startswith(f"⏰ <@{waiting.id}>, it's still your turn in ")
        assert "(reminder 1)" in reminder.text()
        assert reminder.pinged_user_ids == [waiting.id]
        labels = [c.get("label") for c in reminder.iter_components() if c.get("type") == 2]
        assert labels == ["Play", "Snooze 8 h"]
        refused = await (await other.click(reminder, "Snooze 8 h")).message()
        assert "not waiting for you" in refused.text() and refused.visible_to == other.id
        snoozed = await (await waiting.click(reminder, "Snooze 8 h")).message()
        assert snoozed.text().startswith("😴 Snoozed: no reminder before <t:")
        _, sent, due, until = _wait_row(db, gid)
        assert sent == 1 and until is not None and due is not None and due >= until
        # Play on the reminder opens the waiting player's panel.
        panel = await (await waiting.click(reminder, "Play")).message()
        assert panel.visible_to == waiting.id
        # Quiet hours around now (UTC) for both: the next turn ping, whoever's, is silent.
        now = datetime.now(UTC)
        quiet = {
            "from": (now - timedelta(hours=1)).strftime("%H:%M"),
            "to": (now + timedelta(hours=1)).strftime("%H:%M"),
            "timezone": "UTC",
        }
        for user in (ana, ben):
            said = await (await user.slash("settings quiet", **quiet)).message()
            assert said.text().startswith("🌙 Quiet hours set:")
        # The host skips the waiting player's turn (the AI plays it) until a new turn ping
        # comes (a duel seat may have several decisions in a row, under one ping).
        before = len(fake.channel_messages(world.channel))

        def new_ping() -> Message | None:
            return next(
                (
                    m
                    for m in fake.channel_messages(world.channel)[before:]
                    if re.match(r"<@\d+> — your turn", m.text())
                ),
                None,
            )

        for _ in range(4):
            version = _version(db, gid)
            ask = await (await ana.slash("games skip")).message()
            await (await ana.click(ask, ask_label(ask))).message()
            # Wait for the skip to be played and everything it queued to be posted: then a new
            # turn ping is there, or the same seat still decides (no ping to wait for).
            await fake.wait_for(
                lambda version=version: (
                    _version(db, gid) > version  # type: ignore[misc]
                    and all(r.sent for r in read_outbox(db, gid))
                ),
                what="the skip played and posted",
            )
            if new_ping() is not None:
                break
        ping = new_ping()
        assert ping is not None, "four skips and no new turn ping"
        assert ping.flags & limits.FLAG_SUPPRESS_NOTIFICATIONS, "a quiet-hours ping is silent"
        assert ping.pinged_user_ids == [] and len(ping.mentioned_user_ids) == 1
        uid, sent, due, _ = _wait_row(db, gid)
        assert str(uid) == ping.mentioned_user_ids[0] and sent == 0 and due is not None
        # Its first reminder waits for the end of the quiet hours.
        assert due == (now + timedelta(hours=1)).replace(second=0, microsecond=0).isoformat(
            timespec="seconds"
        )
        # Killed with a reminder due: after the restart it goes out once.
        assert await bot.kill() == -9
        _make_due(db, gid)
        await start_bot(bot)
        await fake.wait_for(
            lambda: len(_reminders(fake, world)) == 2 or None, what="the 2nd reminder", timeout=15
        )
        await asyncio.sleep(2.5)  # two more checks of the bot: nothing is sent again
        assert len(_reminders(fake, world)) == 2
        assert _wait_row(db, gid)[1] == 1
    finally:
        await bot.stop()


def ask_label(message: Message) -> str:
    """The confirmation button of a moderator's question (its only button)."""
    (label,) = [c.get("label") for c in message.iter_components() if c.get("type") == 2]
    return str(label)


async def test_undo_through_discord(world: World, tmp_path: Path) -> None:
    """A player takes back a move with the panel's Undo button; the channel is told; a move
    that may not be taken back is refused with the reason."""
    async with asyncio.timeout(HANG_GUARD):
        table = await start_table(world, tmp_path)
        fake, driver = world.fake, table.driver
        try:
            policy = Policy(3)
            game = table.game
            undone = False
            for _ in range(60):
                assert game.state is not None and game.state.current is not None
                seat = game.state.current
                user = table.user_at(seat)
                game, _ = await driver.play(game, policy.pick(game.state))
                panel = driver.panels.get(int(user.id))
                labels = _button_labels(panel)
                if "↩️ Undo" not in labels:
                    continue
                assert panel is not None and panel.text().startswith("✅ ")
                before = game.version
                moves = len(table.moves())
                await (await user.click(panel, "↩️ Undo")).message()
                await fake.wait_for(
                    lambda panel=panel: panel.text().startswith("↩️ Taken back: ") or None,  # type: ignore[misc]
                    what="the panel after the undo",
                )
                game = driver.game()
                assert game.version == before + 1 and len(table.moves()) == moves - 1
                await fake.wait_for(
                    lambda: (
                        any(
                            "took back the move:" in m.text()
                            for m in fake.channel_messages(world.channel)
                        )
                        or None
                    ),
                    what="the channel told of the undo",
                )
                undone = True
                break
            assert undone, "no move could be taken back in 60 moves"
            # Someone whose turn it is not is refused, with the reason.
            other = next(u for u in table.users if u.id != table.current_user().id)
            reply = await (await other.slash("nauticus undo")).message()
            assert "only take back a move while it is still your turn" in reply.text()
        finally:
            await table.bot.stop()


async def test_undo_sent_twice_through_discord_takes_back_one_move(
    world: World, tmp_path: Path
) -> None:
    """Issue 21, item 7: the slash `/nauticus undo` carries no version, so two copies of it sent
    at once took back two moves. Through the real bot: one move goes back, the other copy is
    refused as a double send, and the channel is told once."""
    async with asyncio.timeout(HANG_GUARD):
        table = await start_table(world, tmp_path)
        fake, driver = world.fake, table.driver
        try:
            policy = Policy(3)
            game = table.game
            streak, last_seat = 0, None
            for _ in range(120):
                assert game.state is not None and game.state.current is not None
                seat = game.state.current
                user = table.user_at(seat)
                game, _ = await driver.play(game, policy.pick(game.state))
                panel = driver.panels.get(int(user.id))
                labels = _button_labels(panel)
                kept = "↩️ Undo" in labels and game.state is not None and game.state.current == seat
                streak = streak + 1 if kept and seat == last_seat else (1 if kept else 0)
                last_seat = seat
                if streak >= 2:
                    break
            assert streak >= 2, "no player had two moves that could be taken back"
            before, moves = game.version, len(table.moves())
            first, second = await asyncio.gather(
                user.slash("nauticus undo"), user.slash("nauticus undo")
            )
            said = [(await r.message()).text() for r in (first, second)]
            assert sum("double send" in s for s in said) == 1, said
            assert driver.game().version == before + 1
            assert len(table.moves()) == moves - 1
            told = await fake.wait_for(
                lambda: (
                    [
                        m
                        for m in fake.channel_messages(world.channel)
                        if "took back the move:" in m.text()
                    ]
                    or None
                ),
                what="the channel told of the undo",
            )
            assert len(told) == 1
        finally:
            await table.bot.stop()
