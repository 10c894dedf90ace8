"""Reminders, snooze, stall notices, quiet hours, settings and the "since your last move"
digest, through the real GameService on a temporary database with a controllable clock (no
test sleeps), across restarts and daylight saving time changes."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest

from bot import reminders, texts
from bot.reminder_runner import ReminderRunner
from bot.reminders import Quiet, SettingError
from bot.service import GameRecord, GameService, NotAllowed, NotYourTurn
from bot.store import Store, WaitRow

CH = 900
GUILD = 9
ANA, BEN, CLEO = 41, 42, 43
PARIS = "Europe/Paris"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def go(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


async def notices(store: Store) -> list[dict[str, Any]]:
    async with store.read() as tx:
        rows = await tx.pending_outbox(limit=10_000)
    return [r.payload for r in rows if r.kind == "notice"]


async def pings(store: Store) -> list[dict[str, Any]]:
    async with store.read() as tx:
        rows = await tx.pending_outbox(limit=10_000)
    return [r.payload for r in rows if r.kind == "turn_ping"]


async def wait_of(store: Store, game_id: int) -> WaitRow | None:
    async with store.read() as tx:
        return await tx.wait(game_id)


async def duel(svc: GameService) -> GameRecord:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.join(CH, BEN, "Ben")
    return await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)


async def first_move(svc: GameService, rec: GameRecord) -> GameRecord:
    seat = rec.current
    assert seat is not None and rec.state is not None
    move = dict(rec.plugin.rules.legal_moves(rec.state, seat)[0])
    return (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record


# --- the pure schedule -------------------------------------------------------------------------


def test_quiet_hours_across_midnight_end_in_the_morning_of_the_right_day() -> None:
    q = Quiet(time(22), time(8), PARIS)
    # 21:30 UTC on 10 January is 22:30 in Paris (UTC+1): quiet until 08:00 Paris = 07:00 UTC.
    assert q.contains(utc(2026, 1, 10, 21, 30))
    assert q.morning(utc(2026, 1, 10, 21, 30)) == utc(2026, 1, 11, 7, 0)
    # 05:00 UTC is 06:00 in Paris: quiet until 07:00 UTC the same day.
    assert q.morning(utc(2026, 1, 11, 5, 0)) == utc(2026, 1, 11, 7, 0)
    # 07:00 UTC is 08:00 in Paris: the quiet hours are over.
    assert not q.contains(utc(2026, 1, 11, 7, 0))
    assert q.morning(utc(2026, 1, 11, 12, 0)) == utc(2026, 1, 11, 12, 0)
    # Daytime quiet hours (13:00-14:00) do not wrap.
    lunch = Quiet(time(13), time(14), "UTC")
    assert lunch.contains(utc(2026, 1, 11, 13, 30)) and not lunch.contains(utc(2026, 1, 11, 14))
    assert lunch.morning(utc(2026, 1, 11, 13, 30)) == utc(2026, 1, 11, 14, 0)


def test_quiet_hours_follow_daylight_saving_time() -> None:
    q = Quiet(time(22), time(8), PARIS)
    # Paris springs forward on 29 March 2026 (02:00 -> 03:00): the night before starts in
    # winter time (22:30 = 21:30 UTC) and ends at 08:00 summer time = 06:00 UTC, not 07:00.
    assert q.morning(utc(2026, 3, 28, 21, 30)) == utc(2026, 3, 29, 6, 0)
    # It falls back on 25 October 2026: 22:30 summer time (20:30 UTC) ends at 08:00 winter
    # time = 07:00 UTC.
    assert q.morning(utc(2026, 10, 24, 20, 30)) == utc(2026, 10, 25, 7, 0)
    # A summer evening: 21:30 UTC is 23:30 in Paris.
    assert q.contains(utc(2026, 7, 1, 21, 30)) and not q.contains(utc(2026, 7, 1, 19, 30))


def test_settings_values_are_checked_with_a_plain_message() -> None:
    assert reminders.parse_clock("7:05") == time(7, 5)
    for bad in ("25:00", "22h", "", "12:60"):
        with pytest.raises(SettingError, match="HH:MM on a 24-hour clock"):
            reminders.parse_clock(bad)
    assert reminders.check_timezone("Asia/Tokyo") == "Asia/Tokyo"
    with pytest.raises(SettingError, match="not a time zone name: use an IANA name"):
        reminders.check_timezone("Paris")
    assert reminders.suggest_timezones("paris")[0] == "Europe/Paris"
    assert reminders.suggest_timezones("new_y") == ["America/New_York"]
    assert reminders.waited(timedelta(hours=36)) == "1 day 12 h"
    assert reminders.waited(timedelta(hours=1, minutes=20)) == "1 h 20 min"
    assert reminders.waited(timedelta(minutes=5)) == "5 min"


# --- through the service -------------------------------------------------------------------------


async def test_reminders_come_at_12_h_then_every_24_h_and_then_the_host_is_told(
    store: Store,
) -> None:
    clock = Clock(utc(2026, 11, 2, 9, 0))
    svc = GameService(store, clock=clock)
    rec = await duel(svc)
    waiting = rec.user_at(rec.current or 0)
    clock.go(hours=11, minutes=59)
    assert await svc.due_reminders() == []
    clock.go(minutes=1)
    assert await svc.due_reminders() == [rec.id]
    text = await svc.remind(rec.id)
    assert text is not None and text.startswith(
        f"⏰ <@{waiting}>, it's still your turn in Nautilus duel here (reminder 1): you must "
    )
    assert text.endswith("The game has waited for you 12 h.")
    # Not twice for the same wait, however often it is asked.
    assert await svc.remind(rec.id) is None and await svc.due_reminders() == []
    (sent,) = await notices(store)
    assert sent["mentions"] == [waiting] and sent["components"] == "reminder"
    for n in range(2, 6):
        clock.go(hours=23, minutes=59)
        assert await svc.remind(rec.id) is None
        clock.go(minutes=1)
        text = await svc.remind(rec.id)
        assert text is not None and f"(reminder {n})" in text
    assert "The game has waited for you 4 days 12 h." in (text or "")
    # After 5 unanswered reminders the host (Ana) is told, once, with the choices they have.
    clock.go(hours=24)
    stall = await svc.remind(rec.id)
    assert stall is not None and stall.startswith(
        "⚠️ This Nautilus duel game has waited 5 days 12 h for "
    )
    for choice in ("/games skip", "/games replace", "/games deadline", "/games autopilot"):
        assert choice in stall
    assert (await notices(store))[-1]["mentions"] == [ANA]
    clock.go(days=3)
    assert await svc.due_reminders() == [] and await svc.remind(rec.id) is None
    assert len(await notices(store)) == 6


async def test_a_move_starts_a_new_wait_for_the_next_player(store: Store) -> None:
    clock = Clock(utc(2026, 11, 2, 9, 0))
    svc = GameService(store, clock=clock)
    rec = await duel(svc)
    clock.go(hours=12)
    assert await svc.remind(rec.id) is not None
    clock.go(hours=3)
    before = rec.current
    while rec.current == before:
        rec = await first_move(svc, rec)
    wait = await wait_of(store, rec.id)
    assert wait is not None and wait.seat == rec.current and wait.sent == 0
    assert wait.since == "2026-11-03T00:00:00+00:00"
    assert wait.next_at == "2026-11-03T12:00:00+00:00"


async def test_reminders_survive_a_restart_and_are_sent_once(tmp_path: Any) -> None:
    path = tmp_path / "bot.sqlite"
    clock = Clock(utc(2026, 11, 2, 9, 0))
    store = await Store.open(path)
    rec = await duel(GameService(store, clock=clock))
    await store.close()
    # The bot was down while the reminder came due; a new process finds it.
    clock.go(hours=30)
    store = await Store.open(path)
    try:
        first, second = GameService(store, clock=clock), GameService(store, clock=clock)
        runner = ReminderRunner(first)
        assert await runner.tick() == 1
        assert await ReminderRunner(second).tick() == 0
        assert len(await notices(store)) == 1
        # The next one counts from when this one went out, not from when it was due.
        wait = await wait_of(store, rec.id)
        assert wait is not None and wait.next_at == "2026-11-04T15:00:00+00:00"
    finally:
        await store.close()


async def test_quiet_hours_silence_the_ping_and_move_reminders_to_the_morning(
    store: Store,
) -> None:
    # 22:30 in Paris on 28 March, the night Paris moves to summer time.
    clock = Clock(utc(2026, 3, 28, 21, 30))
    svc = GameService(store, clock=clock)
    for user in (ANA, BEN):
        await svc.set_quiet(GUILD, user, "22:00", "08:00", PARIS)
    rec = await duel(svc)
    (ping,) = await pings(store)
    assert ping["silent"] is True and ping["mentions"] == [rec.user_at(rec.current or 0)]
    wait = await wait_of(store, rec.id)
    # The morning is 08:00 summer time: 06:00 UTC.
    assert wait is not None and wait.next_at == "2026-03-29T06:00:00+00:00"
    clock.now = utc(2026, 3, 29, 6, 0)
    text = await svc.remind(rec.id)
    assert text is not None and "(reminder 1)" in text and text.endswith("waited for you 8 h.")
    # The next reminder (24 h later, 08:00 Paris) is outside the quiet hours.
    wait = await wait_of(store, rec.id)
    assert wait is not None and wait.next_at == "2026-03-30T06:00:00+00:00"


async def test_a_daytime_ping_is_not_silent_and_a_reminder_due_at_night_waits(
    store: Store,
) -> None:
    clock = Clock(utc(2026, 1, 10, 14, 0))  # 15:00 in Paris
    svc = GameService(store, clock=clock)
    for user in (ANA, BEN):
        await svc.set_quiet(GUILD, user, "22:00", "08:00", PARIS)
    rec = await duel(svc)
    (ping,) = await pings(store)
    assert ping["silent"] is False
    wait = await wait_of(store, rec.id)
    # 12 h later is 03:00 in Paris: the reminder waits for 08:00 (07:00 UTC).
    assert wait is not None and wait.next_at == "2026-01-11T07:00:00+00:00"


async def test_snooze_puts_reminders_off_for_8_hours_for_the_waiting_player_only(
    store: Store,
) -> None:
    clock = Clock(utc(2026, 11, 2, 9, 0))
    svc = GameService(store, clock=clock)
    rec = await duel(svc)
    waiting = rec.user_at(rec.current or 0)
    other = BEN if waiting == ANA else ANA
    clock.go(hours=12)
    assert await svc.remind(rec.id) is not None
    clock.go(hours=20)  # the next reminder is due in 4 h; snoozing now puts it off to 8 h
    with pytest.raises(NotYourTurn, match="not waiting for you"):
        await svc.snooze(CH, other)
    when = await svc.snooze(CH, waiting)
    assert when == utc(2026, 11, 4, 1, 0)
    clock.go(hours=4)
    assert await svc.remind(rec.id) is None
    clock.go(hours=4)
    assert await svc.remind(rec.id) is not None


async def test_the_players_setting_comes_before_the_games_and_the_servers(store: Store) -> None:
    clock = Clock(utc(2026, 11, 2, 9, 0))
    svc = GameService(store, clock=clock)
    await svc.set_server_reminders(GUILD, 48)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    with pytest.raises(NotAllowed):
        await svc.set_game_reminders(CH, BEN, 6, can_manage=False)
    with pytest.raises(SettingError, match="Reminders can be off, 6h, 12h, 24h, 48h"):
        await svc.set_game_reminders(CH, ANA, 5, can_manage=False)
    await svc.set_game_reminders(CH, ANA, 12, can_manage=False)
    await svc.set_my_reminders(GUILD, BEN, 6)
    await svc.set_my_reminders(GUILD, CLEO, 0)  # off
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=4)
    nexts: dict[int, str | None] = {}
    # Play until each seat has waited once, noting when its first reminder was set for.
    while len(nexts) < 3:
        wait = await wait_of(store, rec.id)
        assert wait is not None
        nexts.setdefault(wait.user_id, wait.next_at)
        rec = await first_move(svc, rec)
    start = "2026-11-02T"
    assert nexts[ANA] == f"{start}21:00:00+00:00"  # the game's 12 h (over the server's 48 h)
    assert nexts[BEN] == f"{start}15:00:00+00:00"  # Ben's own 6 h
    assert nexts[CLEO] is None  # Cleo turned reminders off
    mine, server = await svc.settings(GUILD, BEN)
    assert (mine.reminder_hours, server) == (6, 48)


async def test_each_ping_tells_what_the_others_did_since_your_last_move(store: Store) -> None:
    """Issue 23: each move is told once. A ping's digest tells only the moves of the phase still
    going on (a finished phase is told by its phase post, right above the ping), those since the
    seat's own last move in it; with none, the ping has no digest."""
    svc = GameService(store, clock=Clock(utc(2026, 11, 2, 9, 0)))
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=4)
    first = await pings(store)
    heads = ("Since your last move:", "Since the last board picture:")
    assert not any(h in first[0]["text"] for h in heads)
    seen_digest = {"moved": 0, "not_moved": 0, "none_after_a_post": 0}
    for _ in range(80):
        rec = await first_move(svc, rec)
        seat = rec.current
        assert seat is not None
        async with store.read() as tx:
            moves = await tx.moves(rec.id)
            ping = await tx.latest_outbox(rec.id, "turn_ping")
        assert ping is not None
        if ping.payload["version"] != rec.version:
            continue  # the seat to move went on moving: its ping is from before those moves
        unit = rec.plugin.unit(rec.seen(None))
        here = [m for m in moves if (m.round, m.phase) == unit]
        last_own = max((m.n for m in here if m.seat == seat), default=0)
        others = [m for m in here if m.n > last_own and m.seat != seat]
        text = ping.payload["text"]
        if not others:
            # Nothing new since the phase post (or the seat's own move): no digest at all,
            # though other players did move since this seat's last move.
            assert not any(h in text for h in heads), text
            earlier = max((m.n for m in moves if m.seat == seat), default=0)
            if any(m.n > earlier and m.seat != seat for m in moves):
                seen_digest["none_after_a_post"] += 1
            continue
        head = heads[0] if last_own else heads[1]
        assert head in text and heads[1 - heads.index(head)] not in text
        seen_digest["moved" if last_own else "not_moved"] += 1
        # Moves of finished phases are not repeated: they are in their phase posts.
        told_before = [m for m in moves if (m.round, m.phase) != unit and m.seat != seat]
        for m in told_before:
            if m.text not in {o.text for o in others}:
                assert m.text not in text.split(head, 1)[1], m.text
        # One line per player's run of moves, the newest last, in the public words of the log.
        runs = [m.seat for i, m in enumerate(others) if i == 0 or others[i - 1].seat != m.seat]
        assert text.count("\n• ") == min(len(runs), 4) + (len(runs) > 4)
        last_line = text.rsplit("\n• ", 1)[1]
        newest = others[-1]
        assert last_line.startswith(f"{texts.PLAYER_MARKS[newest.seat].emoji} ")
        assert rec.names[newest.seat] in last_line and newest.text in last_line
    # (In Nauticus a seat acts once per action phase, so its digest never needs "Since your last
    # move:" within one; the head is checked above whenever it comes.)
    assert seen_digest["not_moved"] >= 3 and seen_digest["none_after_a_post"] >= 3, seen_digest
