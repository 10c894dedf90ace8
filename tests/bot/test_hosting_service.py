"""Hosting a table for weeks, at the service level on a real SQLite file: skip and replace
through the move log, lobby upkeep (host hand-over, removal, seating, idle expiry with a fake
clock), `mygames`, the N-BUY-5 warning, the replay check by channel, and closing."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import ai_seats
from bot.outbox import Outbox
from bot.service import (
    GameRecord,
    GameService,
    GameUnavailable,
    LobbyError,
    NeedsConfirmation,
    NoGame,
    NotAllowed,
    NotInGame,
    ServiceError,
    StaleVersion,
    replay,
)
from bot.store import Store
from engine import ai
from engine.nauticus import RULES, apply, legal_moves, new_game, to_json
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.bot.test_service import (
    ANA,
    BEN,
    CH,
    CLEO,
    DEV,
    GUILD,
    NAMES,
    FakeDiscord,
    counts,
    fake_draw,
    started,
)
from tests.engine import policy


class Clock:
    """A settable UTC clock for the service (idle lobbies)."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(store: Store, clock: Clock) -> GameService:
    return GameService(store, outbox=Outbox(store, FakeDiscord(), draw=fake_draw), clock=clock)


async def outbox_texts(store: Store, kind: str) -> list[str]:
    async with store.read() as tx:
        rows = await tx.all("SELECT payload_json FROM outbox WHERE kind = ? ORDER BY id", (kind,))
    import json

    return [json.loads(r[0]).get("text", "") for r in rows]


async def logged_moves(store: Store, game_id: int) -> list[tuple[int, int, str, str]]:
    """(seat, user id, move type, text) of every logged move."""
    async with store.read() as tx:
        moves = await tx.moves(game_id)
    return [(m.seat, m.user_id, m.move["type"], m.text) for m in moves]


# --- skip ------------------------------------------------------------------------------------


async def test_skip_plays_the_ai_move_for_the_current_player_through_the_move_log(
    svc: GameService, store: Store
) -> None:
    rec = await started(svc)  # Ana (seat 1) must choose the action
    assert rec.state is not None and rec.state.current == 0
    # Ana chooses; Ben (seat 2) is to act and vanishes: the host skips him.
    space = legal_moves(rec.state, 0)[0]
    rec = (await svc.play(CH, ANA, space)).record
    while rec.state is not None and rec.state.current == 0:
        rec = (await svc.play(CH, ANA, legal_moves(rec.state, 0)[0], confirm=True)).record
    assert rec.state is not None and rec.state.current == 1
    out = await svc.skip(CH, ANA, can_manage=False, version=rec.version, by_name="Ana")
    assert out.seat == 1
    after = out.record.state
    assert after is not None and after.current != 1
    log = await logged_moves(store, rec.id)
    skipped = [m for m in log if "skipped by Ana" in m[3]]
    # The engine moves were played for seat 2, by the host's user id, and are in the log.
    assert skipped and all(seat == 1 and user == ANA for seat, user, _, _ in skipped)
    # The AI (normal level, seeded from public facts) played the turn, not a blind pass.
    expected = ai.choose(
        RULES, rec.state, 1, level="normal", seed=ai_seats.decision_seed(rec.id, rec.version, 1)
    )
    assert skipped[0][2] == expected["type"]
    # The log replays to the stored state: skip is an ordinary move for the engine.
    async with store.read() as tx:
        moves = await tx.moves(rec.id)
    assert to_json(replay(PLUGIN, 7, 3, moves)) == to_json(after)
    assert any(
        "skipped the turn of" in t and "Ben" in t for t in await outbox_texts(store, "notice")
    )
    lines = await svc.log(CH, 20)
    assert any("skipped the turn of Ben" in line for line in lines)
    assert any("(🤖 AI, turn skipped by Ana)" in line for line in lines)


async def test_skip_of_the_start_player_chooses_and_passes(svc: GameService, store: Store) -> None:
    rec = await started(svc)
    state = rec.state
    assert state is not None and state.step == "choose"
    out = await svc.skip(CH, CLEO, can_manage=True, by_name="Mod")
    after = out.record.state
    assert after is not None and after.current == 1  # seat 2 acts next in the same phase
    types = [t for _, _, t, _ in await logged_moves(store, rec.id)]
    async with store.read() as tx:
        first = (await tx.moves(rec.id))[0].move
    seed = ai_seats.decision_seed(rec.id, rec.version, 0)
    assert first == ai.choose(RULES, state, 0, level="normal", seed=seed)
    assert types[0] == "choose_action"
    assert out.texts and len(out.texts) == len(types)


async def test_skip_refusals_change_nothing(svc: GameService, store: Store) -> None:
    with pytest.raises(NoGame):
        await svc.skip(CH, ANA, can_manage=True)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    with pytest.raises(NoGame):  # a lobby: nothing to skip
        await svc.skip(CH, ANA, can_manage=False)
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)
    before = await counts(store, rec.id)
    with pytest.raises(NotAllowed):  # Ben is neither host nor a channel manager
        await svc.skip(CH, BEN, can_manage=False)
    with pytest.raises(StaleVersion):  # the confirmation was shown for an older state
        await svc.skip(CH, ANA, can_manage=False, version=rec.version - 1)
    assert await counts(store, rec.id) == before


async def test_skip_move_never_picks_a_costly_action_when_a_pass_exists() -> None:
    for players, seed in ((2, 5), (3, 6)):
        _, log = policy.play(players, seed)
        state = new_game(players, seed)
        for seat, move in log[:60]:
            types = {m["type"] for m in legal_moves(state, seat)}
            chosen = PLUGIN.skip_move(seen_of(state, seat))["type"]
            if "pass" in types:
                assert chosen in ("pass", "end_extra")
            elif "end_turn" in types and "end_extra" not in types:
                assert chosen == "end_turn"
            state, _ = apply(state, seat, move)


# --- replace ---------------------------------------------------------------------------------


async def test_replace_hands_the_acting_seat_and_its_ping_to_the_new_member(
    svc: GameService, store: Store
) -> None:
    rec = await started(svc)  # Ana must act
    out = await svc.replace_player(CH, ANA, ANA, DEV, "Dev", can_manage=False, by_name="Ana")
    assert out.seat_of(DEV) == 0 and out.seat_of(ANA) is None
    assert out.host_id == DEV  # the host's seat carries the host role
    async with store.read() as tx:
        ping = await tx.latest_outbox(rec.id, "turn_ping")
        done = await tx.latest_outbox(rec.id, "ping_done")
    assert ping is not None and ping.payload["mentions"] == [DEV]
    assert done is not None and "handed over" in done.payload["text"]
    # Dev plays the seat now; Ana can't.
    state = out.state
    assert state is not None
    with pytest.raises(NotInGame):
        await svc.play(CH, ANA, legal_moves(state, 0)[0])
    played = await svc.play(CH, DEV, legal_moves(state, 0)[0])
    assert played.n == 1
    lines = await svc.log(CH)
    assert lines[0].startswith("— Ana handed seat 1 from Ana to Dev")
    assert any("handed seat 1" in t for t in await outbox_texts(store, "notice"))


async def test_replace_refusals_change_nothing(svc: GameService, store: Store) -> None:
    rec = await started(svc)
    before = await counts(store, rec.id)
    with pytest.raises(NotAllowed):
        await svc.replace_player(CH, BEN, CLEO, DEV, "Dev", can_manage=False)
    with pytest.raises(NotInGame, match="no seat"):
        await svc.replace_player(CH, ANA, DEV, 99, "Zed", can_manage=False)
    with pytest.raises(LobbyError, match="already has a seat"):
        await svc.replace_player(CH, ANA, BEN, CLEO, "Cleo", can_manage=False)
    assert await counts(store, rec.id) == before
    seats = (await svc.game_in(CH)).seats  # type: ignore[union-attr]
    assert [s.user_id for s in seats] == [ANA, BEN, CLEO]


# --- lobby upkeep ----------------------------------------------------------------------------


async def test_a_leaving_host_hands_the_lobby_to_the_next_seat(svc: GameService) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    rec = await svc.leave(CH, ANA)
    assert rec.host_id == BEN and [s.user_id for s in rec.seats] == [BEN, CLEO]
    with pytest.raises(NotAllowed):  # Ana has no say any more
        await svc.start(CH, ANA, can_manage=False)
    assert (await svc.start(CH, BEN, can_manage=False)).status == "active"


async def test_the_host_removes_someone_from_the_lobby(svc: GameService, store: Store) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    with pytest.raises(NotAllowed):
        await svc.remove(CH, BEN, CLEO, can_manage=False)
    with pytest.raises(NotInGame):
        await svc.remove(CH, ANA, DEV, can_manage=False)
    with pytest.raises(LobbyError, match="Leave"):
        await svc.remove(CH, ANA, ANA, can_manage=False)
    rec = await svc.remove(CH, ANA, BEN, can_manage=False)
    assert [(s.seat, s.user_id) for s in rec.seats] == [(0, ANA), (1, CLEO)]
    lobby_posts = await outbox_texts(store, "lobby")
    assert "Ben" not in lobby_posts[-1].split("\n", 2)[-1]
    # A member with Manage Channels may remove the host, who hands over to the next seat.
    rec = await svc.remove(CH, DEV, ANA, can_manage=True)
    assert rec.host_id == CLEO
    await svc.join(CH, BEN, "Ben")
    await svc.start(CH, CLEO, can_manage=False)
    with pytest.raises(LobbyError, match="replace"):
        await svc.remove(CH, CLEO, BEN, can_manage=False)


async def test_the_host_fixes_the_seat_order_to_the_join_order(
    svc: GameService, store: Store
) -> None:
    users = [ANA, BEN, CLEO, DEV]
    # Find a seed whose random draw is not the join order, so the switch visibly matters.
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    for u in users[1:]:
        await svc.join(CH, u, NAMES[u])
    with pytest.raises(NotAllowed):
        await svc.toggle_seating(CH, BEN, can_manage=False)
    rec = await svc.toggle_seating(CH, ANA, can_manage=False)
    assert rec.seating == "join"
    assert "Seat order: join order" in (await outbox_texts(store, "lobby"))[-1]
    for seed in range(50):
        order = list(users)
        random.Random(f"seats/{seed}").shuffle(order)
        if order != users:
            break
    rec = await svc.start(CH, ANA, can_manage=False, seat_seed=seed)
    assert [s.user_id for s in rec.seats] == users
    assert "join order" in (await outbox_texts(store, "lobby"))[-1]


async def test_toggling_back_draws_at_random_again(svc: GameService) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.toggle_seating(CH, ANA, can_manage=False)
    rec = await svc.toggle_seating(CH, DEV, can_manage=True)
    assert rec.seating == "random"
    seed = next(s for s in range(100) if _drawn(s, [ANA, BEN]) != [ANA, BEN])
    rec = await svc.start(CH, ANA, can_manage=False, seat_seed=seed)
    assert [s.user_id for s in rec.seats] == [BEN, ANA]


def _drawn(seed: int, users: list[int]) -> list[int]:
    order = list(users)
    random.Random(f"seats/{seed}").shuffle(order)
    return order


async def test_an_idle_lobby_is_closed_with_a_message(
    svc: GameService, store: Store, clock: Clock
) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.open_lobby(GUILD, CH + 1, BEN, "Ben", kind="nauticus")
    clock.now += timedelta(days=6, hours=23)
    assert await svc.expire_lobbies() == []
    clock.now += timedelta(hours=2)
    closed = await svc.expire_lobbies()
    assert sorted(r.channel_id for r in closed) == [CH, CH + 1]
    assert await svc.game_in(CH) is None and await svc.game_in(CH + 1) is None
    notices = await outbox_texts(store, "notice")
    assert sum("nothing happened in it for 7 days" in t for t in notices) == 2
    assert "closed after 7 days without activity" in (await outbox_texts(store, "lobby"))[-1]
    # The channel is free for a new lobby.
    await svc.open_lobby(GUILD, CH, CLEO, "Cleo", kind="nauticus")


async def test_activity_keeps_a_lobby_open_and_games_never_expire(
    store: Store, clock: Clock
) -> None:
    svc = GameService(store, clock=clock, lobby_idle=timedelta(hours=12))
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await started_elsewhere(svc)
    # The lobby's last change is "now" in real time; the fake clock is 11 hours later.
    clock.now += timedelta(hours=11)
    await svc.join(CH, BEN, "Ben")
    assert await svc.expire_lobbies() == []
    clock.now += timedelta(hours=13)
    closed = await svc.expire_lobbies()
    assert [r.channel_id for r in closed] == [CH]
    assert (await svc.game_in(CH + 5)).status == "active"  # type: ignore[union-attr]
    assert await GameService(store, lobby_idle=None).expire_lobbies() == []


async def started_elsewhere(svc: GameService) -> None:
    await svc.open_lobby(GUILD, CH + 5, CLEO, "Cleo", kind="nauticus")
    await svc.join(CH + 5, DEV, "Dev")
    await svc.start(CH + 5, CLEO, can_manage=False)


# --- mygames and about ---------------------------------------------------------------------


async def test_my_games_lists_waiting_games_first_oldest_first(svc: GameService) -> None:
    # Channel CH: Ana must act. Channel CH+1: Ben must act, Ana waits. CH+2: a lobby.
    # Channel CH+3: Ana must act, but since later than CH. Another server: not listed.
    await started(svc)
    await svc.open_lobby(GUILD, CH + 1, BEN, "Ben", kind="nauticus")
    await svc.join(CH + 1, ANA, "Ana")
    await svc.start(CH + 1, BEN, can_manage=False, order=[BEN, ANA], seed=2)
    await svc.open_lobby(GUILD, CH + 2, ANA, "Ana", kind="nauticus")
    await svc.open_lobby(GUILD, CH + 3, ANA, "Ana", kind="nauticus")
    await svc.join(CH + 3, CLEO, "Cleo")
    await svc.start(CH + 3, ANA, can_manage=False, order=[ANA, CLEO], seed=2)
    await svc.open_lobby(GUILD + 1, CH + 4, ANA, "Ana", kind="nauticus")
    games = await svc.my_games(GUILD, ANA)
    assert [g.channel_id for g in games] == [CH, CH + 3, CH + 1, CH + 2]
    assert [g.your_turn for g in games] == [True, True, False, False]
    assert "choose an action" in games[0].decide
    assert games[2].decide.startswith("waiting for Ben to choose")
    assert "lobby" in games[3].decide
    assert await svc.my_games(GUILD, DEV) == []
    assert await svc.count_active(GUILD) == 3 and await svc.count_active(GUILD + 1) == 0


# --- N-BUY-5: a free tile with no room in storage is lost -------------------------------------


async def at_full_storage(
    svc: GameService, channel: int = CH, users: tuple[int, int] = (ANA, BEN)
) -> tuple[int, dict[str, object]]:
    """A 2-player game (seed 1000, users in seat order) played to the first state where a
    0-taler purchase can only go to a full storage; returns (user to act, that move)."""
    await svc.open_lobby(GUILD, channel, users[0], "Ana", kind="nauticus")
    await svc.join(channel, users[1], "Ben")
    rec = await svc.start(channel, users[0], can_manage=False, order=list(users), seed=1000)
    _, log = policy.play(2, 1000)
    for seat, move in log[:27]:
        rec = (await svc.play(channel, rec.user_at(seat), move, confirm=True)).record
    state = rec.state
    assert state is not None and state.current is not None
    move = {"type": "buy", "item": "grain", "to": "storage"}
    assert move in legal_moves(state, state.current)
    return rec.user_at(state.current), move


async def test_a_lost_free_tile_needs_confirmation(svc: GameService, store: Store) -> None:
    user, move = await at_full_storage(svc)
    rec = await svc.game_in(CH)
    assert rec is not None
    before = await counts(store, rec.id)
    with pytest.raises(NeedsConfirmation, match="no room for the grain"):
        await svc.play(CH, user, dict(move))
    assert await counts(store, rec.id) == before
    played = await svc.play(CH, user, dict(move), confirm=True)
    assert played.n == before[1] + 1
    assert any(e.kind == "tile_lost" for e in played.events)


# --- check, close ----------------------------------------------------------------------------


async def test_check_names_the_channel_and_game_of_a_corrupted_state(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    s = await Store.open(path)
    svc = GameService(s)
    first = await started(svc)
    await svc.open_lobby(GUILD, CH + 1, BEN, "Ben", kind="nauticus")
    await svc.join(CH + 1, CLEO, "Cleo")
    second = await svc.start(CH + 1, BEN, can_manage=False, seed=4)
    await s.close()
    with sqlite3.connect(path) as raw:
        raw.execute(
            "UPDATE games SET state_json = replace(state_json, '\"taler\":15', '\"taler\":99') "
            "WHERE id = ?",
            (second.id,),
        )
    s2 = await Store.open(path)
    problems = await GameService(s2).check_all()
    await s2.close()
    assert problems == [(second.id, CH + 1, "state differs from a replay of 0 moves")]
    assert first.id != second.id


async def test_a_closing_service_refuses_new_requests(svc: GameService, store: Store) -> None:
    rec = await started(svc)
    before = await counts(store, rec.id)
    await svc.close()
    state = rec.state
    assert state is not None
    with pytest.raises(ServiceError, match="restarting"):
        await svc.play(CH, ANA, legal_moves(state, 0)[0])
    with pytest.raises(ServiceError, match="restarting"):
        await svc.open_lobby(GUILD, CH + 1, BEN, "Ben", kind="nauticus")
    assert await counts(store, rec.id) == before


# --- upgrades: games stored by another engine version ---------------------------------------


async def test_a_game_of_an_older_engine_goes_on_from_its_stored_state(tmp_path: Path) -> None:
    path = tmp_path / "u.db"
    s = await Store.open(path)
    svc = GameService(s)
    rec = await started(svc)
    rec = await play_any_move(svc, rec)
    await s.close()
    with sqlite3.connect(path) as raw:
        # As if an older engine had written it, with a log this engine would replay differently.
        raw.execute("UPDATE games SET engine_version = 'nauticus-0'")
        raw.execute("DROP TRIGGER moves_no_delete")
        raw.execute("DELETE FROM moves")
    s2 = await Store.open(path)
    try:
        svc2 = GameService(s2)
        assert await svc2.check_all() == []  # not replayed: nothing to compare under new rules
        state = rec.state
        assert state is not None and state.current is not None
        user = rec.user_at(state.current)
        played = await svc2.play(CH, user, legal_moves(state, state.current)[0], confirm=True)
        assert played.record.version == rec.version + 1
        again = await svc2.game_in(CH)
        assert again is not None and again.engine_version == "nauticus-0"
    finally:
        await s2.close()


async def test_an_unreadable_state_of_an_older_engine_is_refused_with_an_error_id(
    tmp_path: Path,
) -> None:
    path = tmp_path / "u.db"
    s = await Store.open(path)
    await started(GameService(s))
    await s.close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE games SET engine_version = 'nauticus-0', state_json = '{\"old\": 1}'")
    s2 = await Store.open(path)
    try:
        svc2 = GameService(s2)
        with pytest.raises(GameUnavailable, match="another engine version") as info:
            await svc2.play(CH, ANA, {"type": "choose_action", "space": 0})
        assert len(info.value.error_id) == 6
        problems = await svc2.check_all()
        assert [(p[1], p[2]) for p in problems] == [(CH, "state of engine nauticus-0 unreadable")]
    finally:
        await s2.close()


async def play_any_move(svc: GameService, rec: GameRecord) -> GameRecord:
    state = rec.state
    assert state is not None and state.current is not None
    move = legal_moves(state, state.current)[0]
    return (await svc.play(CH, rec.user_at(state.current), move, confirm=True)).record
