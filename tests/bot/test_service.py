"""GameService against a real SQLite file: refusals, version checks, restarts, the outbox."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.outbox import DeliveryRefused, Outbox, OutFile, OutMessage
from bot.service import (
    GameRecord,
    GameService,
    GameUnavailable,
    LobbyError,
    NeedsConfirmation,
    NoGame,
    NotAllowed,
    NotInGame,
    NotYourTurn,
    StaleVersion,
    replay,
)
from bot.store import Store
from engine.nauticus import IllegalMove, legal_moves, to_json
from tests.bot.nauticus_kit import PLUGIN

CH = 500
GUILD = 9
ANA, BEN, CLEO, DEV = 11, 12, 13, 14
NAMES = {ANA: "Ana", BEN: "Ben", CLEO: "Cleo", DEV: "Dev"}


class FakeDiscord:
    """A Sender that keeps messages like a channel would, dropping a repeated nonce as Discord
    does (enforce_nonce)."""

    def __init__(self) -> None:
        self.messages: dict[int, OutMessage] = {}
        self.log: list[tuple[str, int, OutMessage]] = []
        self.by_nonce: dict[int, int] = {}
        self.next_id = 1000

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        if msg.nonce is not None and msg.nonce in self.by_nonce:
            return self.by_nonce[msg.nonce]
        mid = self.next_id
        self.next_id += 1
        self.messages[mid] = msg
        self.log.append(("send", channel_id, msg))
        if msg.nonce is not None:
            self.by_nonce[msg.nonce] = mid
        return mid

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        assert message_id in self.messages, "edit of a message never sent"
        self.messages[message_id] = msg
        self.log.append(("edit", channel_id, msg))

    def sent(self, kind: str) -> list[OutMessage]:
        return [m for op, _, m in self.log if op == "send" and m.kind == kind]


drawn: list[tuple[str, ...]] = []


def fake_draw(
    game: str, kinds: Sequence[str], game_view: dict[str, Any], *_: Any
) -> tuple[OutFile, ...]:
    drawn.append(tuple(kinds))
    return tuple(OutFile(f"{k}.png", b"\x89PNG", f"alt {k}") for k in kinds)


@pytest.fixture
def discord() -> FakeDiscord:
    return FakeDiscord()


@pytest.fixture
def svc(store: Store, discord: FakeDiscord) -> GameService:
    return GameService(store, outbox=Outbox(store, discord, draw=fake_draw))


async def started(svc: GameService, users: Sequence[int] = (ANA, BEN, CLEO)) -> GameRecord:
    await svc.open_lobby(GUILD, CH, users[0], NAMES[users[0]], kind="nauticus")
    for u in users[1:]:
        await svc.join(CH, u, NAMES[u])
    return await svc.start(CH, users[0], can_manage=False, order=list(users), seed=7)


async def counts(store: Store, game_id: int) -> tuple[int, int, int]:
    """(version, moves, outbox rows): what a refused request must leave unchanged."""
    async with store.read() as tx:
        version = await tx.one("SELECT version FROM games WHERE id = ?", (game_id,))
        moves = await tx.one("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
        out = await tx.one("SELECT COUNT(*) FROM outbox")
    assert version and moves and out
    return int(version[0]), int(moves[0]), int(out[0])


async def play_any(svc: GameService, rec: GameRecord, rng: random.Random) -> GameRecord:
    state = rec.state
    assert state is not None and state.current is not None
    move = rng.choice(legal_moves(state, state.current))
    result = await svc.play(CH, rec.user_at(state.current), move, confirm=True)
    return result.record


async def until(
    svc: GameService, rec: GameRecord, rng: random.Random, done: Any, limit: int = 3000
) -> GameRecord:
    for _ in range(limit):
        if done(rec):
            return rec
        rec = await play_any(svc, rec, rng)
    raise AssertionError("condition never reached")


# --- lobby -----------------------------------------------------------------------------------


async def test_lobby_start_fixes_seats_and_pings_the_first_player(
    svc: GameService, discord: FakeDiscord
) -> None:
    rec = await started(svc)
    assert rec.status == "active"
    assert [(s.seat, s.user_id, s.name) for s in rec.seats] == [
        (0, ANA, "Ana"),
        (1, BEN, "Ben"),
        (2, CLEO, "Cleo"),
    ]
    assert rec.state is not None and rec.state.current == 0
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    pings = discord.sent("turn_ping")
    assert len(pings) == 1
    assert pings[0].mention_user_ids == (ANA,)
    assert f"<@{ANA}>" in pings[0].text
    assert pings[0].components == "play" and pings[0].version == rec.version
    # The lobby message was posted once and then edited, never posted again.
    assert len(discord.sent("lobby")) == 1
    lobby = [m for op, _, m in discord.log if m.kind == "lobby"]
    assert lobby[-1].components is None and "started" in lobby[-1].text


async def test_random_seat_order_is_drawn_apart_from_the_game_seed(tmp_path: Path) -> None:
    """The seat order is public; drawn from the game's seed it would tell the table something
    about the deal (issue 21). With the same game seed the order follows only the seat draw,
    and with the same seat draw it stays the same whatever the game seed."""

    async def order(i: int, seed: int, seat_seed: int | None) -> list[int]:
        s = await Store.open(tmp_path / f"{i}.db")
        svc = GameService(s)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
        for u in (BEN, CLEO, DEV):
            await svc.join(CH, u, NAMES[u])
        rec = await svc.start(CH, ANA, can_manage=False, seed=seed, seat_seed=seat_seed)
        assert rec.seed == seed
        await s.close()
        return [seat.user_id for seat in rec.seats]

    same_draw = [await order(i, seed, seat_seed=7) for i, seed in enumerate((1, 2, 12345))]
    assert same_draw[0] == same_draw[1] == same_draw[2]
    assert sorted(same_draw[0]) == [ANA, BEN, CLEO, DEV]
    same_seed = {tuple(await order(10 + i, 12345, seat_seed=i)) for i in range(12)}
    assert len(same_seed) > 1
    # Left to the service, the draw is its own: 12 starts with one game seed vary too.
    unseeded = {tuple(await order(30 + i, 12345, seat_seed=None)) for i in range(12)}
    assert len(unseeded) > 1


async def test_lobby_refusals(svc: GameService, store: Store) -> None:
    with pytest.raises(NoGame):
        await svc.join(CH, BEN, "Ben")
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    with pytest.raises(LobbyError) as busy:
        await svc.open_lobby(GUILD, CH, BEN, "Ben", kind="nauticus")
    assert busy.value.code == "channel_busy"
    with pytest.raises(LobbyError) as twice:
        await svc.join(CH, ANA, "Ana")
    assert twice.value.code == "already_joined"
    with pytest.raises(LobbyError) as alone:
        await svc.start(CH, ANA, can_manage=False)
    assert alone.value.code == "player_count"
    for u in (BEN, CLEO, DEV):
        await svc.join(CH, u, NAMES[u])
    with pytest.raises(LobbyError) as full:
        await svc.join(CH, 99, "Eve")
    assert full.value.code == "full"
    with pytest.raises(NotAllowed):
        await svc.start(CH, BEN, can_manage=False)
    with pytest.raises(NotAllowed):
        await svc.cancel(CH, BEN, can_manage=False)
    with pytest.raises(LobbyError) as order:
        await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO])
    assert order.value.code == "bad_order"
    with pytest.raises(NotInGame):
        await svc.leave(CH, 99)
    # A member with Manage Channels may start someone else's lobby.
    rec = await svc.start(CH, BEN, can_manage=True)
    assert rec.status == "active"
    with pytest.raises(LobbyError):
        await svc.join(CH, 99, "Eve")
    with pytest.raises(LobbyError):
        await svc.leave(CH, BEN)


async def test_host_leaving_hands_over_and_last_leaver_closes(svc: GameService) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    rec = await svc.leave(CH, ANA)
    assert rec.host_id == BEN and [s.user_id for s in rec.seats] == [BEN]
    rec = await svc.leave(CH, BEN)
    assert rec.status == "aborted"
    assert await svc.game_in(CH) is None
    # The channel is free again.
    rec = await svc.open_lobby(GUILD, CH, CLEO, "Cleo", kind="nauticus")
    assert rec.status == "lobby" and rec.host_id == CLEO


async def test_cancel_and_abort(svc: GameService, discord: FakeDiscord) -> None:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    rec = await svc.cancel(CH, ANA, can_manage=False)
    assert rec.status == "aborted"
    rec = await started(svc)
    with pytest.raises(LobbyError):
        await svc.cancel(CH, ANA, can_manage=False)
    with pytest.raises(NotAllowed):
        await svc.abort(CH, BEN, can_manage=False)
    rec = await svc.abort(CH, 777, can_manage=True)
    assert rec.status == "aborted"
    with pytest.raises(NoGame):
        await svc.play(CH, ANA, {"type": "choose_action", "space": 0})
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    assert any("aborted" in m.text for m in discord.sent("notice"))
    # The open ping was turned into a line saying the game is over.
    ping_id = next(mid for mid, m in discord.messages.items() if m.kind in ("ping_done",))
    assert "aborted" in discord.messages[ping_id].text


# --- refusals of moves ----------------------------------------------------------------------


async def test_every_refusal_changes_nothing(svc: GameService, store: Store) -> None:
    with pytest.raises(NoGame):
        await svc.play(CH, ANA, {"type": "choose_action", "space": 0})
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    with pytest.raises(NoGame) as lobby_only:
        await svc.play(CH, ANA, {"type": "choose_action", "space": 0})
    assert "hasn't started" in str(lobby_only.value)
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN])
    before = await counts(store, rec.id)
    move = {"type": "choose_action", "space": 0}
    with pytest.raises(NotInGame):
        await svc.play(CH, 99, move)
    with pytest.raises(NotYourTurn) as turn:
        await svc.play(CH, BEN, move)
    assert "Ana" in str(turn.value)
    with pytest.raises(StaleVersion) as stale:
        await svc.play(CH, ANA, move, version=rec.version - 1)
    assert stale.value.current == rec.version
    with pytest.raises(IllegalMove) as illegal:
        await svc.play(CH, ANA, {"type": "choose_action", "space": 42})
    assert illegal.value.code == "bad_space"
    assert await counts(store, rec.id) == before


async def _to_own_turn_step(svc: GameService, rec: GameRecord) -> GameRecord:
    """Let the start player choose a space without a tile bonus and reach their turn."""
    state = rec.state
    assert state is not None
    space = next(
        m["space"]
        for m in legal_moves(state, 0)
        if m["space"] in (0, 3, 4, 6, 7)  # bonuses without a tile of choice
    )
    result = await svc.play(CH, rec.user_at(0), {"type": "choose_action", "space": space})
    assert result.record.state is not None and result.record.state.step == "turn"
    return result.record


async def test_confirmations(svc: GameService, store: Store) -> None:
    rec = await started(svc, (ANA, BEN))
    rec = await _to_own_turn_step(svc, rec)
    state = rec.state
    assert state is not None and state.turn is not None
    before = await counts(store, rec.id)
    # Passing as start player after taking the bonus.
    with pytest.raises(NeedsConfirmation) as start_pass:
        await svc.play(CH, ANA, {"type": "pass"})
    assert "bonus" in start_pass.value.reason
    # Ending the turn with no use at all is a pass.
    with pytest.raises(NeedsConfirmation) as no_use:
        await svc.play(CH, ANA, {"type": "end_turn"})
    assert "pass" in no_use.value.reason
    assert no_use.value.code == "needs_confirmation"
    assert await counts(store, rec.id) == before
    result = await svc.play(CH, ANA, {"type": "end_turn"}, confirm=True)
    rec = result.record
    assert rec.state is not None and rec.state.current == 1


async def test_unused_blue_workers_need_confirmation(tmp_path: Path) -> None:
    # Search seeds for a start where the start player can use Money with blue workers to spare.
    s = await Store.open(tmp_path / "b.db")
    svc = GameService(s)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)
    state = rec.state
    assert state is not None
    space = next(sp for sp in range(8) if state.tiles[sp] == "money" and state.blue_on(sp) >= 2)
    rec = (await svc.play(CH, ANA, {"type": "choose_action", "space": space})).record
    if rec.state is not None and rec.state.step == "bonus":
        bonus = legal_moves(rec.state, 0)[0]
        rec = (await svc.play(CH, ANA, bonus)).record
    rec = (await svc.play(CH, ANA, {"type": "money", "workers": 1})).record
    with pytest.raises(NeedsConfirmation) as blue:
        await svc.play(CH, ANA, {"type": "end_turn"})
    assert "blue worker" in blue.value.reason and "lost" in blue.value.reason
    result = await svc.play(CH, ANA, {"type": "end_turn"}, confirm=True)
    assert result.record.state is not None and result.record.state.current == 1
    await s.close()


# --- version checks ----------------------------------------------------------------------


async def test_double_click_is_applied_once(svc: GameService, store: Store) -> None:
    rec = await started(svc)
    move = {"type": "choose_action", "space": legal_moves(rec.state, 0)[0]["space"]}  # type: ignore[arg-type]
    first = await svc.play(CH, ANA, move, version=rec.version)
    with pytest.raises(StaleVersion):
        await svc.play(CH, ANA, move, version=rec.version)
    _, moves, _ = await counts(store, rec.id)
    assert moves == 1
    assert first.record.version == rec.version + 1


async def test_concurrent_clicks_same_version_one_wins(svc: GameService, store: Store) -> None:
    rec = await started(svc)
    state = rec.state
    assert state is not None
    a, b = legal_moves(state, 0)[:2]
    results = await asyncio.gather(
        svc.play(CH, ANA, a, version=rec.version),
        svc.play(CH, ANA, b, version=rec.version),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StaleVersion)]
    assert len(ok) == 1 and len(stale) == 1
    _, moves, _ = await counts(store, rec.id)
    assert moves == 1


# --- restarts and the replay check ----------------------------------------------------------


async def test_restart_reloads_and_replay_equals_stored_state(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    s = await Store.open(path)
    svc = GameService(s)
    rec = await started(svc)
    rng = random.Random(5)
    for _ in range(60):
        rec = await play_any(svc, rec, rng)
    stored = rec.state
    assert stored is not None
    await s.close()

    s2 = await Store.open(path)
    svc2 = GameService(s2)
    again = await svc2.game_in(CH)
    assert again is not None and again.state is not None
    assert to_json(again.state) == to_json(stored)
    async with s2.read() as tx:
        moves = await tx.moves(rec.id)
    assert to_json(replay(PLUGIN, 7, 3, moves)) == to_json(stored)
    # And the game goes on where it was.
    assert again.version == rec.version
    nxt = await play_any(svc2, again, rng)
    assert nxt.version == rec.version + 1
    await s2.close()


async def test_tampered_state_is_flagged_not_used(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    s = await Store.open(path)
    svc = GameService(s)
    rec = await started(svc)
    rng = random.Random(2)
    for _ in range(10):
        rec = await play_any(svc, rec, rng)
    await s.close()
    state = rec.state
    assert state is not None
    # Someone edits the stored state by hand: Ana suddenly has 999 taler.
    forged = to_json(state).replace(f'"taler":{state.players[0].taler}', '"taler":999', 1)
    assert forged != to_json(state)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE games SET state_json = ? WHERE id = ?", (forged, rec.id))

    s2 = await Store.open(path)
    svc2 = GameService(s2)
    current = state.current
    assert current is not None
    move = legal_moves(state, current)[0]
    with pytest.raises(GameUnavailable) as flagged:
        await svc2.play(CH, rec.user_at(current), move)
    assert flagged.value.code == "flagged" and flagged.value.error_id in str(flagged.value)
    async with s2.read() as tx:
        row = await tx.game(rec.id)
    assert row is not None and row.flagged and row.status == "active"
    _, moves, _ = await counts(s2, rec.id)
    assert moves == 10
    await s2.close()
    # Still refused after another restart, without replaying again.
    s3 = await Store.open(path)
    with pytest.raises(GameUnavailable):
        await GameService(s3).play(CH, rec.user_at(current), move)
    await s3.close()


async def test_check_all_reports_only_mismatches(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    s = await Store.open(path)
    svc = GameService(s)
    rec = await started(svc)
    rec = await play_any(svc, rec, random.Random(1))
    assert await svc.check_all() == []
    await s.close()
    with sqlite3.connect(path) as raw:
        raw.execute(
            "UPDATE games SET state_json = replace(state_json, '\"round\":1', '\"round\":2')"
        )
    s2 = await Store.open(path)
    problems = await GameService(s2).check_all()
    await s2.close()
    assert [p[0] for p in problems] == [rec.id]


# --- the outbox ----------------------------------------------------------------------------


async def test_outbox_delivered_once_across_crash_after_commit(tmp_path: Path) -> None:
    path = tmp_path / "o.db"
    s = await Store.open(path)
    svc = GameService(s)  # no sender: the process "dies" right after each commit
    rec = await started(svc)
    rec = await play_any(svc, rec, random.Random(0))
    await s.close()

    channel = FakeDiscord()
    s2 = await Store.open(path)
    outbox = Outbox(s2, channel, draw=fake_draw)
    assert await outbox.deliver_pending() == 0
    first = list(channel.log)
    assert [m.kind for op, _, m in first if op == "send"][:3] == [
        "lobby",
        "phase_post",
        "turn_ping",
    ]
    assert await outbox.deliver_pending() == 0
    assert channel.log == first  # nothing delivered twice
    await s2.close()

    s3 = await Store.open(path)
    await Outbox(s3, channel, draw=fake_draw).deliver_pending()
    assert channel.log == first
    async with s3.read() as tx:
        assert await tx.pending_outbox() == []
    await s3.close()


class Crash(BaseException):
    """The process dying between a delivery and its bookkeeping."""


class CrashAfterSend(FakeDiscord):
    def __init__(self, inner: FakeDiscord, crash_on: int) -> None:
        self.inner = inner
        self.crash_on = crash_on
        self.calls = 0

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        mid = await self.inner.send(channel_id, msg)
        self.calls += 1
        if self.calls == self.crash_on:
            raise Crash
        return mid

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        await self.inner.edit(channel_id, message_id, msg)


async def test_crash_between_delivery_and_marking_shows_once(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    s = await Store.open(path)
    svc = GameService(s)
    await started(svc)
    channel = FakeDiscord()
    with pytest.raises(Crash):
        await Outbox(s, CrashAfterSend(channel, crash_on=2), draw=fake_draw).deliver_pending()
    await s.close()
    assert len(channel.messages) == 2

    s2 = await Store.open(path)
    await Outbox(s2, channel, draw=fake_draw).deliver_pending()
    # The row delivered just before the crash was sent again with the same nonce: the channel
    # shows it once.
    kinds = sorted(m.kind for m in channel.messages.values())
    assert kinds == ["lobby", "phase_post", "turn_ping"]
    async with s2.read() as tx:
        assert await tx.pending_outbox() == []
    await s2.close()


async def test_turn_passing_edits_the_ping_into_a_done_line(
    svc: GameService, discord: FakeDiscord
) -> None:
    rec = await started(svc, (ANA, BEN))
    outbox = svc.outbox
    assert outbox is not None
    rng = random.Random(4)
    rec = await until(svc, rec, rng, lambda r: r.state.current == 1)
    await outbox.deliver_pending()
    pings = [m for m in discord.messages.values() if m.kind in ("turn_ping", "ping_done")]
    assert len(pings) == 2
    first, second = pings
    assert first.kind == "ping_done" and first.text.startswith("✓")
    assert "Ana" in first.text and first.components is None and first.mention_user_ids == ()
    assert second.kind == "turn_ping" and second.mention_user_ids == (BEN,)
    assert len([op for op, _, m in discord.log if m.kind == "turn_ping"]) == 2


async def test_phase_post_and_final_post(svc: GameService, discord: FakeDiscord) -> None:
    drawn.clear()
    rec = await started(svc, (ANA, BEN))
    outbox = svc.outbox
    assert outbox is not None
    rng = random.Random(11)
    rec = await until(svc, rec, rng, lambda r: r.state.phase == 2)
    await outbox.deliver_pending()
    posts = discord.sent("phase_post")
    assert len(posts) == 2  # the opening board, then phase 1's summary
    summary = posts[1]
    assert "Phase 1" in summary.text and "Ana" in summary.text and "Ben" in summary.text
    assert [f.filename for f in summary.files] == ["board.png", "shipyards.png"]
    assert all(f.description for f in summary.files)
    assert summary.mention_user_ids == ()
    rec = await until(svc, rec, rng, lambda r: r.status == "finished", limit=5000)
    await outbox.deliver_pending()
    final = discord.sent("final_post")
    assert len(final) == 1 and "Game over" in final[0].text
    assert [f.filename for f in final[0].files] == ["score_sheet.png"]
    assert len(discord.sent("phase_post")) == 1 + 4 * 7
    assert ("score_sheet",) in drawn
    assert await svc.game_in(CH) is None
    last = await svc.last_game(CH)
    assert last is not None and last.status == "finished"
    lines = await svc.log(CH, 5)
    async with svc.store.read() as tx:
        total = len(await tx.moves(rec.id))
    assert [int(line.split(".")[0]) for line in lines] == list(range(total - 4, total + 1))
    # The game ends with the last player's end of turn, told after their name.
    assert lines[-1].endswith(" ended their turn")


async def test_failing_channel_holds_back_only_itself(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, 1, ANA, "Ana", kind="nauticus")
    await svc.open_lobby(GUILD, 2, BEN, "Ben", kind="nauticus")
    await svc.join(1, CLEO, "Cleo")

    class Flaky(FakeDiscord):
        async def send(self, channel_id: int, msg: OutMessage) -> int:
            if channel_id == 1:
                raise RuntimeError("a bug posting to channel 1")
            return await super().send(channel_id, msg)

        async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
            raise AssertionError("nothing to edit yet")

    flaky = Flaky()
    outbox = Outbox(store, flaky, draw=fake_draw, max_attempts=2)
    assert await outbox.deliver_pending() == 1
    assert [c for _, c, _ in flaky.log] == [2]
    # Second attempt: the lobby post is given up; the lobby edit behind it now gets its turn.
    assert await outbox.deliver_pending() == 1
    assert await outbox.deliver_pending() == 0
    async with store.read() as tx:
        gave_up = await tx.one("SELECT COUNT(*) FROM outbox WHERE error LIKE 'gave up%'")
        assert await tx.pending_outbox() == []
    assert gave_up == (2,)
    assert [c for _, c, _ in flaky.log] == [2]


async def test_refused_delivery_is_given_up_at_once(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, 1, ANA, "Ana", kind="nauticus")

    class NoPermission(FakeDiscord):
        async def send(self, channel_id: int, msg: OutMessage) -> int:
            raise DeliveryRefused("missing Send Messages")

    assert await Outbox(store, NoPermission(), draw=fake_draw).deliver_pending() == 0
    async with store.read() as tx:
        assert await tx.pending_outbox() == []


async def test_background_sender_delivers_after_commit(store: Store) -> None:
    channel = FakeDiscord()
    outbox = Outbox(store, channel, draw=fake_draw)
    svc = GameService(store, outbox=outbox)
    delivered = asyncio.Event()
    original = channel.send

    async def send(channel_id: int, msg: OutMessage) -> int:
        mid = await original(channel_id, msg)
        delivered.set()
        return mid

    channel.send = send  # type: ignore[method-assign]
    outbox.start()
    try:
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
        await asyncio.wait_for(delivered.wait(), timeout=5)
    finally:
        await outbox.stop()
    assert [m.kind for m in channel.messages.values()] == ["lobby"]


async def test_outbox_pages_through_many_pending_rows(store: Store) -> None:
    svc = GameService(store)
    for ch in range(1, 8):
        await svc.open_lobby(GUILD, ch, ANA, "Ana", kind="nauticus")
        await svc.join(ch, BEN, "Ben")
    channel = FakeDiscord()
    assert await Outbox(store, channel, draw=fake_draw, page_size=3).deliver_pending() == 0
    # 7 lobbies, each posted once and edited once, in commit order per channel.
    assert [op for op, _, _ in channel.log].count("send") == 7
    assert [op for op, _, _ in channel.log].count("edit") == 7
    for ch in range(1, 8):
        ops = [op for op, c, _ in channel.log if c == ch]
        assert ops == ["send", "edit"]


async def test_network_outage_never_gives_a_message_up(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, 1, ANA, "Ana", kind="nauticus")

    class Offline(FakeDiscord):
        down = True

        async def send(self, channel_id: int, msg: OutMessage) -> int:
            if self.down:
                raise ConnectionError("network unreachable")
            return await super().send(channel_id, msg)

    net = Offline()
    outbox = Outbox(store, net, draw=fake_draw, max_attempts=2)
    for _ in range(5):  # far more failures than max_attempts
        assert await outbox.deliver_pending() == 1
    async with store.read() as tx:
        assert len(await tx.pending_outbox()) == 1
    net.down = False
    assert await outbox.deliver_pending() == 0
    assert [c for _, c, _ in net.log] == [1]  # delivered once, when the network came back
    async with store.read() as tx:
        assert await tx.pending_outbox() == []
