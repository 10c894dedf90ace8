"""The service's move path without work it does not need (issue 22, item 7): a move that
changes neither the unit nor the seat to move builds no public view; the shortcuts it takes
instead give exactly what the long way gave."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, ClassVar, NamedTuple

import pytest

from bot.games import GAMES
from bot.plugin import GamePlugin
from bot.service import GameService
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
