"""One damaged stored value costs only its own game or setting (issue 21, item 9).

Each value is written straight into the SQLite file, as a hand edit or a damaged disk would
leave it: a game's turn deadline (10**9 hours overflows a date, 'x' is no number), a seat's AI
level ('godlike'), a member's reminder interval (10**9, 'x', -5). The other games go on, the
damaged game is held and `check` lists it, a damaged setting falls back to its default, and
each damaged value gives exactly one ERROR line however often it is read.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.ai_runner import AiRunner
from bot.reminder_runner import ReminderRunner
from bot.service import GameRecord, GameService, GameUnavailable
from bot.store import Store
from tests.bot.test_hardening_database import cli

GUILD = 9
ANA, BEN, CLEO, DAN = 51, 52, 53, 54
ROBOT_CH, HUMAN_CH, BIG_CH, TEXT_CH, GODLIKE_CH = 801, 802, 803, 804, 805


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def svc(db: Path) -> AsyncIterator[GameService]:
    store = await Store.open(db)
    yield GameService(store, clock=Clock())
    await store.close()


def damage(db: Path, sql: str, *params: Any) -> None:
    """Write as another program would: straight into the file, past every check of the bot."""
    with sqlite3.connect(db) as conn:
        assert conn.execute(sql, params).rowcount == 1


def errors(caplog: pytest.LogCaptureFixture, word: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and word in r.getMessage()
    ]


async def robot_duel(svc: GameService, channel: int, user: int) -> GameRecord:
    """A duel of a robot (first to move) and its host on autopilot: the AI plays every turn."""
    await svc.open_lobby(GUILD, channel, user, "Host", kind="duel")
    await svc.add_ai(channel, user, "easy", can_manage=False)
    await svc.start(channel, user, can_manage=False, order=[-1, user], seed=5)
    return await svc.set_autopilot(channel, user, True, "easy")


async def human_duel(svc: GameService, channel: int, a: int, b: int) -> GameRecord:
    await svc.open_lobby(GUILD, channel, a, "Ana", kind="duel")
    await svc.join(channel, b, "Ben")
    return await svc.start(channel, a, can_manage=False, order=[a, b], seed=3)


async def play_first(svc: GameService, rec: GameRecord) -> GameRecord:
    seat = rec.current
    assert seat is not None and rec.state is not None
    move = dict(rec.plugin.rules.legal_moves(rec.state, seat)[0])
    return (await svc.play(rec.channel_id, rec.user_at(seat), move, confirm=True)).record


async def ai_moves(svc: GameService, scans: int) -> int:
    """AI moves the runner commits in `scans` scans (no delay between a scan and its move)."""
    runner = AiRunner(svc, delay=timedelta(0))
    svc.on_ai_turn = runner.notify
    try:
        for _ in range(scans):
            await runner.scan()
            for _ in range(200):  # let the moves this scan asked for be committed
                if not any(not t.done() for t in runner._tasks.values()):
                    break
                await asyncio.sleep(0.01)
    finally:
        svc.on_ai_turn = None
    return runner.played


# --- a game's turn deadline --------------------------------------------------------------------


@pytest.mark.usefixtures("cheap_robots")
async def test_a_damaged_deadline_holds_its_game_and_the_robots_elsewhere_still_play(
    svc: GameService, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    robot = await robot_duel(svc, ROBOT_CH, ANA)
    healthy = await human_duel(svc, HUMAN_CH, BEN, CLEO)
    big = await human_duel(svc, BIG_CH, CLEO, DAN)
    text = await human_duel(svc, TEXT_CH, DAN, BEN)
    damage(db, "UPDATE games SET deadline_hours = ? WHERE id = ?", 10**9, big.id)
    damage(db, "UPDATE games SET deadline_hours = 'x' WHERE id = ?", text.id)
    svc._cache.clear()  # as after a restart: every game is read from the file again

    # Three scans, as three ticks of the running bot: the robot moves at each one.
    assert await ai_moves(svc, 3) >= 3
    fresh = await svc.last_game(ROBOT_CH)
    assert fresh is not None and fresh.version > robot.version

    # Only the damaged games are held, with their error ids; a person still plays elsewhere.
    for channel, user in ((BIG_CH, CLEO), (TEXT_CH, DAN)):
        with pytest.raises(GameUnavailable, match="on hold") as held:
            await svc.play(channel, user, {"type": "pass"}, confirm=True)
        assert held.value.code == "flagged"
    assert (await play_first(svc, healthy)).version == healthy.version + 1

    # Exactly one ERROR line per damaged value, however many scans read it.
    lines = errors(caplog, "deadline_hours")
    assert len(lines) == 2, lines
    assert any(f"game {big.id}: stored deadline_hours 1000000000" in x for x in lines)
    assert any(f"game {text.id}: stored deadline_hours 'x'" in x for x in lines)
    assert all("the game is on hold" in x for x in lines)


# --- a seat's AI level ---------------------------------------------------------------------------


@pytest.mark.usefixtures("cheap_robots")
async def test_a_seat_with_a_damaged_ai_level_holds_only_its_game(
    svc: GameService, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    robot = await robot_duel(svc, ROBOT_CH, ANA)
    godlike = await robot_duel(svc, GODLIKE_CH, BEN)
    damage(db, "UPDATE seats SET ai = 'godlike' WHERE game_id = ? AND seat = 0", godlike.id)
    svc._cache.clear()

    assert [ch for ch, _, _ in await svc.ai_due()] == [ROBOT_CH]
    assert await ai_moves(svc, 3) >= 3
    after = await svc.game_in(GODLIKE_CH)
    assert after is not None and after.version == godlike.version and after.flagged
    with pytest.raises(GameUnavailable, match="on hold"):
        await svc.play_ai(GODLIKE_CH, godlike.version)
    fresh = await svc.last_game(ROBOT_CH)
    assert fresh is not None and fresh.version > robot.version

    lines = errors(caplog, "AI level")
    assert lines == [
        f"game {godlike.id}, seat 0: stored AI level 'godlike' is damaged; the game is on hold "
        f"[error {after.flagged.split(']')[0].lstrip('[')}]"
    ]


# --- a member's reminder interval --------------------------------------------------------------


@pytest.mark.parametrize("hours", [10**9, "x", -5])
async def test_a_damaged_reminder_interval_never_stops_the_move_that_passes_the_turn(
    svc: GameService, db: Path, caplog: pytest.LogCaptureFixture, hours: object
) -> None:
    rec = await human_duel(svc, HUMAN_CH, ANA, BEN)
    assert rec.user_at(rec.current or 0) == ANA
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO user_settings (guild_id, user_id, reminder_hours) VALUES (?, ?, ?)",
            (GUILD, BEN, hours),
        )
    # Ana's moves until the turn passes to Ben: each one writes Ben's reminder schedule.
    for _ in range(10):
        rec = await play_first(svc, rec)
        if rec.user_at(rec.current or 0) == BEN:
            break
    assert rec.user_at(rec.current or 0) == BEN
    async with svc.store.read() as tx:
        wait = await tx.wait(rec.id)
    now = svc.clock()
    # The default: the first reminder 12 h after the ping.
    assert wait is not None and wait.next_at == (now + timedelta(hours=12)).isoformat(
        timespec="seconds"
    )
    # ... and it is sent then, once, by the runner.
    assert isinstance(svc.clock, Clock)
    svc.clock.now += timedelta(hours=12)
    assert await ReminderRunner(svc).tick() == 1
    assert await ReminderRunner(svc).tick() == 0

    lines = errors(caplog, "reminder_hours")
    assert lines == [
        f"member {BEN} on server {GUILD}: stored reminder_hours {hours!r} is damaged; the "
        f"default is used [error {lines[0].rsplit('[error ', 1)[-1]}"
    ]


# --- `python -m bot check` -----------------------------------------------------------------------


async def test_check_lists_every_damaged_value_and_the_games_it_holds(
    db: Path, tmp_path: Path
) -> None:
    store = await Store.open(db)
    svc = GameService(store, clock=Clock())
    big = await human_duel(svc, BIG_CH, CLEO, DAN)
    godlike = await robot_duel(svc, GODLIKE_CH, BEN)
    await human_duel(svc, HUMAN_CH, ANA, BEN)
    await store.close()
    damage(db, "UPDATE games SET deadline_hours = ? WHERE id = ?", 10**9, big.id)
    damage(db, "UPDATE seats SET ai = 'godlike' WHERE game_id = ? AND seat = 0", godlike.id)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO user_settings (guild_id, user_id, reminder_hours) VALUES (?, ?, 'x')",
            (GUILD, ANA),
        )
    done = cli(tmp_path, db, "check")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stdout
    out = done.stdout.splitlines()
    assert (
        f"channel {BIG_CH}, game {big.id}: stored deadline_hours 1000000000 is damaged (the "
        "game is on hold)" in out
    )
    assert (
        f"channel {GODLIKE_CH}, game {godlike.id}: stored AI level of seat 0 'godlike' is "
        "damaged (the game is on hold)" in out
    )
    assert (
        f"member {ANA} on server {GUILD}: stored reminder_hours 'x' is damaged (the default "
        "is used)" in out
    )
    assert out[-1] == f"3 problem(s) in {db}"


# --- the other settings a move or the reminder runner reads ------------------------------------


async def test_damaged_quiet_hours_server_interval_language_and_wait_fall_back_once(
    svc: GameService, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rec = await human_duel(svc, HUMAN_CH, ANA, BEN)
    other = await human_duel(svc, BIG_CH, CLEO, DAN)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO user_settings (guild_id, user_id, quiet_from, quiet_to, timezone) "
            "VALUES (?, ?, '25:99', 7, 'Mars/Olympus')",
            (GUILD, BEN),
        )
        conn.execute(
            "INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (?, 'x')", (GUILD,)
        )
        # A blob: the column's TEXT affinity would turn a number into text.
        conn.execute("UPDATE games SET locale = x'ff' WHERE id = ?", (rec.id,))
        conn.execute("UPDATE waits SET since = 'x', sent = 'y' WHERE game_id = ?", (other.id,))
    svc._cache.clear()
    # The moves go on (in English, the default language) until it is Ben's turn.
    for _ in range(10):
        rec = await play_first(svc, rec)
        if rec.user_at(rec.current or 0) == BEN:
            break
    assert rec.user_at(rec.current or 0) == BEN and rec.locale == "en"
    # Both games' reminders come (the default 12 h), again and again: the damaged wait of the
    # other game is read as starting now, the damaged settings as not set.
    assert isinstance(svc.clock, Clock)
    runner = ReminderRunner(svc)
    for _ in range(2):
        svc.clock.now += timedelta(hours=24)
        assert await runner.tick() == 2
    lines = errors(caplog, "damaged")
    assert sorted(x.split(" is damaged")[0] for x in lines) == sorted(
        [
            f"member {BEN} on server {GUILD}: stored quiet hours ('25:99', '7', 'Mars/Olympus')",
            f"server {GUILD}: stored reminder_hours 'x'",
            f"game {rec.id}: stored locale b'\\xff'",
            f"wait of game {other.id}: stored since 'x'",
            f"wait of game {other.id}: stored sent 'y'",
        ]
    ), lines
