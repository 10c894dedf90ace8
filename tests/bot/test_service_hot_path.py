"""The service's move path without work it does not need (issue 22, item 7): a move that
changes neither the unit nor the seat to move builds no public view; the shortcuts it takes
instead give exactly what the long way gave."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, ClassVar, NamedTuple

import pytest

from bot.games import GAMES
from bot.plugin import GamePlugin
from bot.rows import UnreadableMove, dumps
from bot.service import GameRecord, GameService
from bot.store import Store
from bot.visibility import seen
from engine.common import Event


def random_states(plugin: GamePlugin, players: int, seed: int) -> Iterator[Any]:
    """Every state of one random game of `plugin`, from the first to the last."""
    rules = plugin.rules
    rng = random.Random(seed)
    state = rules.new_game(players, seed)
    yield state
    while (seat := rules.current(state)) is not None:
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
        yield state


def all_player_counts() -> list[tuple[str, int]]:
    return [
        (p.kind, n)
        for p in GAMES
        for n in range(p.rules.min_players, p.rules.max_players + 1)
        if p.kind in ("nauticus", "island", "duel")
    ]


@pytest.mark.parametrize(("kind", "players"), all_player_counts())
def test_unit_of_state_is_the_unit_of_the_public_view(kind: str, players: int) -> None:
    plugin = GAMES.get(kind)
    names = [f"P{i}" for i in range(players)]
    units = set()
    for seed in range(3):
        for state in random_states(plugin, players, seed):
            expected = plugin.unit(seen(plugin, state, names, None))
            assert plugin.unit_of_state(state) == expected
            units.add(expected)
    # The games went through many units, so the comparison covered their changes.
    assert len(units) > 5


async def test_a_move_that_changes_no_unit_and_no_seat_builds_no_public_view(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    await svc.open_lobby(1, 10, 100, "Ana", kind="nauticus")
    for i in range(1, 4):
        await svc.join(10, 100 + i, f"P{i}")
    rec = await svc.start(10, 100, can_manage=True, seed=7, order=[100, 101, 102, 103])
    plugin = rec.plugin
    rules = plugin.rules
    views: list[int | None] = []
    real_view = rules.view

    def counted(state: Any, seat: int | None = None) -> dict[str, Any]:
        views.append(seat)
        return real_view(state, seat)

    monkeypatch.setattr(rules, "view", counted)
    rng = random.Random(7)
    quiet = loud = 0
    while rec.current is not None and min(quiet, loud) < 5:
        seat = rec.current
        assert rec.state is not None
        move = rng.choice(rules.legal_moves(rec.state, seat))
        views.clear()
        result = await svc.play(10, 100 + seat, move, confirm=True)
        after = result.record
        assert after.state is not None
        same = after.current == seat and plugin.unit_of_state(after.state) == plugin.unit_of_state(
            rec.state
        )
        if same:
            quiet += 1
            assert views == []
        else:
            loud += 1
            # The ping (or the posts) of the new state is built from its public view.
            assert None in views
        rec = after
    assert quiet >= 5 and loud >= 5


async def test_latest_outbox_id_is_the_id_of_the_latest_row_of_that_kind(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(1, 10, 100, "Ana", kind="nauticus")
    await svc.join(10, 101, "Ben")
    rec = await svc.start(10, 100, can_manage=True, seed=3, order=[100, 101])
    rng = random.Random(3)
    pings: list[int] = []
    for _ in range(12):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = rng.choice(rec.plugin.rules.legal_moves(rec.state, seat))
        rec = (await svc.play(10, 100 + seat, move, confirm=True)).record
        async with store.read() as tx:
            row = await tx.latest_outbox(rec.id, "turn_ping")
            assert row is not None
            assert await tx.latest_outbox_id(rec.id, "turn_ping") == row.id
            pings.append(row.id)
            # No row of that kind (in this game, or no such game): None.
            assert await tx.latest_outbox_id(rec.id, "no_such_kind") is None
            assert await tx.latest_outbox_id(rec.id + 1, "turn_ping") is None
    # The pings changed along the game, so the id followed the newest row.
    assert len(set(pings)) > 1


@pytest.mark.parametrize(("kind", "players"), all_player_counts())
def test_event_to_dict_is_asdict(kind: str, players: int) -> None:
    """engine.common's `to_dict` walks the fields itself: the very dict `dataclasses.asdict`
    made, key order and container types (a tuple stays a tuple) included."""
    rules = GAMES.get(kind).rules
    kinds: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        state = rules.new_game(players, seed)
        while (seat := rules.current(state)) is not None:
            state, events = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
            for e in events:
                assert is_dataclass(e)
                fast, slow = e.to_dict(), {"kind": e.kind, **asdict(e)}
                assert fast == slow
                assert repr(fast) == repr(slow)
                kinds.add(e.kind)
    assert len(kinds) > 5


def test_to_dict_converts_nested_values_as_asdict_does() -> None:
    """Values no engine event holds today, converted the same way all the same."""

    class Pair(NamedTuple):
        a: int
        b: list[int]

    @dataclass(frozen=True)
    class Inner:
        xs: tuple[int, ...]
        m: dict[str, list[int]]

    @dataclass(frozen=True, slots=True)
    class Odd(Event):
        kind: ClassVar[str] = "odd"
        inner: Inner
        pair: Pair
        items: list[Inner]
        extra: frozenset[int]

    e = Odd(
        Inner((1, 2), {"k": [3]}),
        Pair(4, [5]),
        [Inner((), {})],
        frozenset({6}),
        private_to=1,
    )
    fast, slow = e.to_dict(), {"kind": "odd", **asdict(e)}
    assert fast == slow and repr(fast) == repr(slow)
    assert fast["inner"] == {"xs": (1, 2), "m": {"k": [3]}}
    # Copies, not the event's own containers.
    assert fast["inner"]["m"]["k"] is not e.inner.m["k"]
    assert fast["pair"] == Pair(4, [5]) and fast["pair"].b is not e.pair.b


# --- AI moves, skips and take-backs: one hop, like a player's move ----------------------------


async def three_at_table(svc: GameService, seed: int) -> GameRecord:
    await svc.open_lobby(1, 10, 100, "Ana", kind="nauticus")
    await svc.join(10, 101, "Ben")
    await svc.join(10, 102, "Cleo")
    return await svc.start(10, 100, can_manage=True, seed=seed, order=[100, 101, 102])


def count_hops(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each transaction a change opens: `write_at_once` (one hop) or `write` (one per
    statement), in order."""
    opened: list[str] = []
    at_once, write = store.write_at_once, store.write

    def counted_at_once(work: Any) -> Any:
        opened.append("at_once")
        return at_once(work)

    def counted_write() -> Any:
        opened.append("write")
        return write()

    monkeypatch.setattr(store, "write_at_once", counted_at_once)
    monkeypatch.setattr(store, "write", counted_write)
    return opened


async def test_ai_moves_skips_and_take_backs_commit_in_one_hop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    rec = await three_at_table(svc, seed=4)
    rules = rec.plugin.rules
    opened = count_hops(store, monkeypatch)
    # A member's autopilot: the AI plays the seat's move.
    rec = await svc.set_autopilot(10, 100 + rec.current, True, "easy")  # type: ignore[operator]
    opened.clear()
    before = rec.version
    played = await svc.play_ai(10, rec.version)
    assert played is not None and played.record.version == before + 1
    assert opened == ["at_once"]
    async with store.read() as tx:
        assert (await tx.moves(rec.id))[-1].n == played.n
    # A moderator's skip of the next person's turn: every move of it in the one transaction.
    rec = played.record
    while svc.ai_reason(rec) is not None:
        nxt = await svc.play_ai(10, rec.version)
        assert nxt is not None
        rec = nxt.record
    opened.clear()
    skipped = await svc.skip(10, 100, can_manage=True, version=rec.version)
    assert opened == ["at_once"]
    assert skipped.record.version == rec.version + len(skipped.texts) and skipped.texts
    # A take-back: play until a move leaves its player still to decide, then undo it.
    rec = skipped.record
    rng = random.Random(1)
    while True:
        seat = rec.current
        assert seat is not None and rec.state is not None
        if svc.ai_reason(rec) is not None:
            nxt = await svc.play_ai(10, rec.version)
            assert nxt is not None
            rec = nxt.record
            continue
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(10, rec.user_at(seat), move, confirm=True)).record
        if rec.current == seat and await svc.can_undo(10, rec.user_at(seat)):
            break
    opened.clear()
    undone = await svc.undo(10, rec.user_at(seat), version=rec.version)
    assert opened == ["at_once"]
    assert undone.record.version == rec.version + 1


async def test_a_cancelled_ai_move_skip_or_undo_leaves_no_cached_game(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelled while its transaction runs on the database's thread, the change may still be
    committed: the service forgets its cached game and reads it again (as `Turns.play`)."""
    svc = GameService(store)
    rec = await three_at_table(svc, seed=4)
    at_once = store.write_at_once
    slow = [False]
    started = threading.Event()

    async def slow_at_once(work: Any) -> Any:
        async def work_then_wait(tx: Any) -> Any:
            out = await work(tx)
            if slow[0]:
                started.set()
                time.sleep(0.2)  # on the database's thread, after the work: it commits
            return out

        return await at_once(work_then_wait)

    monkeypatch.setattr(store, "write_at_once", slow_at_once)

    async def cancelled(change: Any) -> None:
        cached = await svc.game_in(10)
        assert cached is not None and svc.kernel.cache.get(10) is cached
        slow[0] = True
        started.clear()
        task = asyncio.create_task(change)
        # Cancelled while its transaction is on the database's thread (not while the AI thinks).
        while not started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        slow[0] = False
        assert 10 not in svc.kernel.cache
        fresh = await svc.game_in(10)
        # Committed all the same: read again from the database, one version further at least.
        assert fresh is not None and fresh.version > cached.version

    rec = await svc.set_autopilot(10, 100 + rec.current, True, "easy")  # type: ignore[operator]
    await cancelled(svc.play_ai(10, rec.version))
    rec = await svc.set_autopilot(10, 100, False)
    current = await svc.game_in(10)
    assert current is not None
    await cancelled(svc.skip(10, 100, can_manage=True, version=current.version))
    rng = random.Random(1)
    rec = await svc.game_in(10)  # type: ignore[assignment]
    while True:
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rec.plugin.rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(10, rec.user_at(seat), move, confirm=True)).record
        if rec.current == seat and await svc.can_undo(10, rec.user_at(seat)):
            break
    await cancelled(svc.undo(10, rec.user_at(seat), version=rec.version))


# --- what a move's posts read and write -------------------------------------------------------


async def test_unit_events_are_the_units_moves_without_their_move_column(store: Store) -> None:
    svc = GameService(store)
    rec = await three_at_table(svc, seed=4)
    rules = rec.plugin.rules
    rng = random.Random(2)
    undone_one = False
    for _ in range(60):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(10, rec.user_at(seat), move, confirm=True)).record
        if not undone_one and rec.current == seat and await svc.can_undo(10, rec.user_at(seat)):
            rec = (await svc.undo(10, rec.user_at(seat))).record
            undone_one = True
    assert undone_one
    async with store.read() as tx:
        everything = await tx.moves(rec.id, with_undone=True)
        units = {(m.round, m.phase) for m in everything}
        assert len(units) > 3
        for unit in units:
            expected = [
                (m.n, m.seat, m.text, m.events)
                for m in await tx.moves(rec.id, round=unit[0], phase=unit[1])
            ]
            assert await tx.unit_events(rec.id, unit) == expected
        # The undone move is left out, as by `moves`.
        assert len(everything) == sum([len(await tx.unit_events(rec.id, u)) for u in units], 1)


async def test_unit_events_refuse_unreadable_events(store: Store) -> None:
    svc = GameService(store)
    rec = await three_at_table(svc, seed=4)
    seat = rec.current
    assert seat is not None and rec.state is not None
    move = dict(rec.plugin.rules.legal_moves(rec.state, seat)[0])
    n = (await svc.play(10, rec.user_at(seat), move, confirm=True)).n
    async with store.read() as tx:
        unit = next((m.round, m.phase) for m in await tx.moves(rec.id) if m.n == n)
    for damaged, detail in (("{not json", "events: Expecting"), ('{"a": 1}', "events: a dict")):
        async with store.write() as tx:
            await tx.run("DROP TRIGGER IF EXISTS moves_no_update")
            await tx.run(
                "UPDATE moves SET events_json = ? WHERE game_id = ? AND n = ?",
                (damaged, rec.id, n),
            )
        async with store.read() as tx:
            with pytest.raises(UnreadableMove, match=f"move {n} of the log is unreadable") as exc:
                await tx.unit_events(rec.id, unit)
            assert detail in str(exc.value) and exc.value.n == n


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [1, 2.5, None, True], "é": "naïve — ✓", "z": {"y": (1, 2), "x": ""}},
        [{"kind": "x", "private_to": None}, {"n": -3, "s": 'quote " and \\ and \n'}],
        "plain",
        {"nan": float("nan"), "inf": float("inf")},
    ],
)
def test_dumps_is_json_dumps_with_the_stores_options(value: Any) -> None:
    expected = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    assert dumps(value) == expected
