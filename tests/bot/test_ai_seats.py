"""AI seats through the service: robots in the lobby, autopilot, turn deadlines, the runner,
restarts, the process pool, and an AI-only offline game of every installed game."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import ai_seats
from bot.ai_runner import AiRunner
from bot.games import GAMES
from bot.offline import run_offline
from bot.service import GameRecord, GameService, LobbyError, NotAllowed, NotInGame, ServiceError
from bot.store import Store
from engine import ai

CH = 700
GUILD = 9
ANA, BEN, CLEO = 21, 22, 23


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(store: Store, clock: Clock) -> GameService:
    return GameService(store, clock=clock)


async def outbox(store: Store, kind: str) -> list[dict[str, Any]]:
    async with store.read() as tx:
        rows = await tx.pending_outbox(limit=10_000)
    return [r.payload for r in rows if r.kind == kind]


async def log_texts(store: Store, game_id: int) -> list[tuple[int, str]]:
    async with store.read() as tx:
        return [(m.seat, m.text) for m in await tx.moves(game_id)]


async def duel_with_robot(svc: GameService, level: str = "easy") -> GameRecord:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.add_ai(CH, ANA, level, can_manage=False)
    return await svc.start(CH, ANA, can_manage=False, order=[ANA, -1], seed=5)


# --- the lobby -------------------------------------------------------------------------------


async def test_host_seats_a_robot_named_with_its_mark_and_level(
    svc: GameService, store: Store
) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="island")
    rec = await svc.add_ai(CH, ANA, "hard", can_manage=False)
    rec = await svc.add_ai(CH, ANA, "easy", can_manage=False)
    assert [(s.user_id, s.name, s.ai) for s in rec.seats] == [
        (ANA, "Ana", None),
        (-1, "🤖 Nemo (hard)", "hard"),
        (-2, "🤖 Aronnax (easy)", "easy"),
    ]
    lobby = (await outbox(store, "lobby"))[-1]["text"]
    assert "2. 🤖 Nemo (hard)" in lobby and "3. 🤖 Aronnax (easy)" in lobby
    rec = await svc.remove_ai(CH, ANA, can_manage=False)
    assert [s.name for s in rec.seats] == ["Ana", "🤖 Nemo (hard)"]


async def test_ai_seat_refusals_change_nothing(svc: GameService, store: Store) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.join(CH, BEN, "Ben")
    with pytest.raises(NotAllowed):
        await svc.add_ai(CH, BEN, "easy", can_manage=False)
    with pytest.raises(ServiceError, match="no AI level genius; choose easy, normal, hard"):
        await svc.add_ai(CH, ANA, "genius", can_manage=False)
    with pytest.raises(LobbyError, match=r"full \(2 players\)"):
        await svc.add_ai(CH, ANA, "easy", can_manage=False)
    with pytest.raises(LobbyError, match="no AI seat"):
        await svc.remove_ai(CH, ANA, can_manage=False)
    rec = await svc.game_in(CH)
    assert rec is not None and [s.name for s in rec.seats] == ["Ana", "Ben"]


async def test_a_table_of_robots_only_is_refused(svc: GameService) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.add_ai(CH, ANA, "easy", can_manage=False)
    await svc.leave(CH, ANA)  # the host leaves: one robot is left, and a second joins
    await svc.add_ai(CH, ANA, "normal", can_manage=True)
    with pytest.raises(LobbyError, match="at least one person") as err:
        await svc.start(CH, ANA, can_manage=True)
    assert err.value.code == "only_ai"
    rec = await svc.game_in(CH)
    assert rec is not None and rec.status == "lobby" and all(s.robot for s in rec.seats)


# --- robots play -----------------------------------------------------------------------------


async def test_robot_turn_is_announced_without_a_ping_and_played_by_the_search(
    svc: GameService, store: Store
) -> None:
    told: list[tuple[int, int]] = []
    svc.on_ai_turn = lambda ch, v: told.append((ch, v))
    rec = await duel_with_robot(svc)
    # Play Ana's moves until the robot is to move.
    while rec.current == 0:
        assert rec.state is not None
        move = GAMES.get("duel").rules.legal_moves(rec.state, 0)[0]
        rec = (await svc.play(CH, ANA, dict(move), confirm=True)).record
    assert rec.current == 1 and told[-1] == (CH, rec.version)
    ping = (await outbox(store, "turn_ping"))[-1]
    assert ping["mentions"] == [] and ping["components"] is None
    assert ping["text"].startswith("🔵 seat 2 🤖 Nemo (easy) is thinking: must ")
    assert rec.state is not None
    expected = ai.choose(
        GAMES.get("duel").rules,
        rec.state,
        1,
        level="easy",
        seed=ai_seats.decision_seed(rec.id, rec.version, 1),
    )
    result = await svc.play_ai(CH, rec.version)
    assert result is not None and result.move == expected
    seat, text = (await log_texts(store, rec.id))[-1]
    assert seat == 1 and text.endswith(" 🤖")
    # The same version again, or a person's seat, gets no AI move and changes nothing.
    assert await svc.play_ai(CH, rec.version) is None
    after = await svc.game_in(CH)
    assert after is not None and after.version == result.record.version


# --- autopilot -------------------------------------------------------------------------------


async def nauticus_three(svc: GameService) -> GameRecord:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    return await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=7)


async def test_autopilot_plays_the_seat_marks_its_moves_and_hands_it_back(
    svc: GameService, store: Store
) -> None:
    rec = await nauticus_three(svc)
    assert rec.current == 0 and svc.ai_reason(rec) is None
    rec = await svc.set_autopilot(CH, ANA, True, "easy")
    assert rec.seats[0].ai == "easy" and svc.ai_reason(rec) == "autopilot"
    notices = [p["text"] for p in await outbox(store, "notice")]
    assert notices[-1] == (
        "🤖 🔴 seat 1 Ana handed their seat to the AI (easy) until they take it back."
    )
    ping = (await outbox(store, "turn_ping"))[-1]
    assert ping["mentions"] == [] and "Ana (🤖 autopilot) is thinking" in ping["text"]
    played = 0
    while rec.current == 0:
        result = await svc.play_ai(CH, rec.version)
        assert result is not None
        rec = result.record
        played += 1
    texts = await log_texts(store, rec.id)
    assert len(texts) == played and all(t.endswith("(🤖 autopilot)") for _, t in texts)
    # The others play on (first legal choice) until the action phase closes with its post.
    rules = GAMES.get("nauticus").rules
    before = len(await outbox(store, "phase_post"))
    while len(await outbox(store, "phase_post")) == before:
        seat = rec.current
        assert seat is not None and seat != 0 and rec.state is not None
        move = dict(rules.legal_moves(rec.state, seat)[0])
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
    posts = [p["text"] for p in await outbox(store, "phase_post")]
    assert any("🤖 Moves played by the AI for: 🔴 seat 1 Ana." in p for p in posts)
    # Back from holiday: the seat is Ana's again and the AI no longer plays it.
    rec = await svc.set_autopilot(CH, ANA, False)
    assert rec.seats[0].ai is None
    with pytest.raises(LobbyError, match="not on autopilot"):
        await svc.set_autopilot(CH, ANA, False)
    with pytest.raises(NotInGame):
        await svc.set_autopilot(CH, 99, True)


# --- turn deadlines --------------------------------------------------------------------------


async def test_deadline_lets_the_ai_play_a_turn_that_waited_past_it(
    svc: GameService, store: Store, clock: Clock
) -> None:
    rec = await nauticus_three(svc)
    clock.now = datetime.fromisoformat(rec.updated_at)
    with pytest.raises(NotAllowed):
        await svc.set_deadline(CH, BEN, 12, can_manage=False)
    with pytest.raises(ServiceError, match="one of none, 12h, 24h, 48h, 72h, 7d"):
        await svc.set_deadline(CH, ANA, 5, can_manage=False)
    rec = await svc.set_deadline(CH, ANA, 12, can_manage=False)
    due = svc.deadline_at(rec)
    assert due == datetime.fromisoformat(rec.updated_at) + timedelta(hours=12)
    clock.now = due - timedelta(seconds=1)
    assert svc.ai_reason(rec) is None and await svc.play_ai(CH, rec.version) is None
    assert [(ch, v, when) for ch, v, when in await svc.ai_due()] == [(CH, rec.version, due)]
    clock.now = due
    result = await svc.play_ai(CH, rec.version)
    assert result is not None
    assert (await log_texts(store, rec.id))[-1][1].endswith("(🤖 AI: turn deadline passed)")
    rec = await svc.set_deadline(CH, ANA, None, can_manage=False)
    assert svc.deadline_at(rec) is None


# --- the runner and restarts -----------------------------------------------------------------


async def test_runner_resumes_an_ai_turn_after_a_restart(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    svc = GameService(store, clock=clock)
    rec = await nauticus_three(svc)
    await svc.set_autopilot(CH, ANA, True, "easy")
    version = rec.version
    await store.close()  # the bot stops before the AI played
    store = await Store.open(path)
    try:
        svc = GameService(store, clock=clock)
        runner = AiRunner(svc, delay=timedelta(0))
        runner.start()
        try:
            for _ in range(3000):  # the AI plays Ana's whole turn, then waits for Ben
                await asyncio.sleep(0.01)
                now = await svc.game_in(CH)
                assert now is not None
                if now.current != 0:
                    break
            assert now.current == 1 and now.version > version
            # The runner counts a move once `play_ai` has returned to it, a moment after the
            # game shows it: give its task that moment.
            for _ in range(100):
                if runner.played == now.version - version:
                    break
                await asyncio.sleep(0.01)
            assert runner.played == now.version - version
        finally:
            await runner.close()
    finally:
        await store.close()


async def test_the_process_pool_decides_exactly_as_inline() -> None:
    rules = GAMES.get("island").rules
    state = rules.new_game(3, 4)
    seat = rules.current(state)
    assert seat is not None
    pool = ai_seats.Thinker(workers=1)
    try:
        far = await pool.decide(rules, state, seat, "easy", 77)
    finally:
        pool.close()
    near = await ai_seats.Thinker(workers=0).decide(rules, state, seat, "easy", 77)
    assert far == near and far in rules.legal_moves(state, seat)


# --- offline ---------------------------------------------------------------------------------


@pytest.mark.usefixtures("cheap_robots")
@pytest.mark.parametrize("game", ["nauticus", "island", "duel"])
async def test_a_whole_ai_only_offline_game(game: str, tmp_path: Path) -> None:
    rules = GAMES.get(game).rules
    # The smallest table: a whole game at any size goes through the same robot path.
    seats = rules.min_players
    result = await run_offline(None, 3, tmp_path, game=game, pictures=False, ai=["easy"] * seats)
    assert len(result.names) == seats and all(n.startswith("🤖 ") for n in result.names)
    assert sorted(rank for _, _, rank in result.scores)[0] == 1
    store = await Store.open(tmp_path / "offline.db")
    try:
        async with store.read() as tx:
            (row,) = await tx.games_with_status("finished")
            moves = await tx.moves(row.id)
        assert len(moves) == result.moves and all(m.text.endswith(" 🤖") for m in moves)
        # Robots are seats with negative ids: nothing is ever mentioned for them.
        async with store.read() as tx:
            sent = await tx.all("SELECT payload_json FROM outbox WHERE kind = 'turn_ping'")
        assert sent and all(json.loads(p)["mentions"] == [] for (p,) in sent)
    finally:
        await store.close()
