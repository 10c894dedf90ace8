"""Service inputs Discord never sends (ids of 2^63 and more, a float or huge count, a move nested
thousands deep, a move that is not a dict) are refused with the usual refusal types and change
nothing; fuzzed with hypothesis (derandomized, bounded) through the service."""

from __future__ import annotations

import asyncio
import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import GameService, ServiceError
from bot.store import Store
from engine.nauticus import IllegalMove
from tests.bot.test_service import ANA, CH, started

REFUSALS = (ServiceError, IllegalMove)
BIG = 1 << 63


def deep(levels: int) -> dict[str, Any]:
    move: dict[str, Any] = {"kind": "pass"}
    for _ in range(levels):
        move = {"kind": "pass", "x": move}
    return move


def snapshot(db: Path) -> tuple[Any, ...]:
    with sqlite3.connect(db) as conn:
        return tuple(
            conn.execute(f"SELECT COUNT(*), COALESCE(SUM({col}), 0) FROM {table}").fetchone()
            for table, col in (("games", "version"), ("moves", "n"), ("outbox", "id"))
        )


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inputs") / "bot.db"

    async def make() -> None:
        store = await Store.open(path)
        await started(GameService(store))
        await store.close()

    asyncio.run(make())
    return path


async def attempt(db: Path, call: str, args: tuple[Any, ...], kw: dict[str, Any]) -> str:
    """The service's refusal of the call, in words (anything else fails the test)."""
    store = await Store.open(db)
    try:
        with pytest.raises(REFUSALS) as info:
            await getattr(GameService(store), call)(*args, **kw)
    finally:
        await store.close()
    return str(info.value)


def refusal_and_change(db: Path, call: str, *args: Any, **kw: Any) -> tuple[str, bool]:
    """The refusal's words, and whether the database changed across the attempt."""
    before = snapshot(db)
    said = asyncio.run(attempt(db, call, args, kw))
    return said, snapshot(db) != before


@pytest.mark.parametrize(
    ("call", "args", "kw"),
    [
        ("play", (BIG, ANA, {"kind": "pass"}), {}),
        ("play", (CH, BIG, {"kind": "pass"}), {}),
        ("play", (CH, ANA, {"kind": "pass"}), {"version": BIG}),
        ("play", (CH, ANA, {"kind": "pass"}), {"version": 1.5}),
        ("play", (CH, ANA, deep(5000)), {}),
        ("play", (CH, ANA, ["pass"]), {}),
        ("play", (CH, ANA, "pass"), {}),
        ("play", (CH, ANA, None), {}),
        ("play", (CH, ANA, {"kind": "pass", "n": BIG}), {}),
        ("play", (CH, ANA, {"kind": "pass", "n": math.nan}), {}),
        ("log", (BIG,), {}),
        ("log", (CH, 1e300), {}),
        ("log", (CH, BIG), {}),
        ("join", (CH, BIG, "Zed"), {}),
        ("join", (-BIG - 1, 5, "Zed"), {}),
        ("skip", (BIG, ANA), {"can_manage": True}),
    ],
)
def test_inputs_discord_never_sends_are_refused_and_change_nothing(
    db: Path, call: str, args: tuple[Any, ...], kw: dict[str, Any]
) -> None:
    said, changed = refusal_and_change(db, call, *args, **kw)
    assert said and not changed, (said, changed)


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 70), max_value=1 << 70)
    | st.floats()
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
ids = st.one_of(st.integers(min_value=BIG, max_value=1 << 80), st.integers(max_value=-1))


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(channel=ids, user=ids, move=json_like)
def test_fuzzed_ids_and_moves_through_play_are_refused(
    db: Path, channel: int, user: int, move: Any
) -> None:
    for said, changed in (
        refusal_and_change(db, "play", channel, ANA, move),
        refusal_and_change(db, "play", CH, user, move),
    ):
        assert said and not changed, (said, changed)


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(move=json_like, version=st.none() | st.floats() | ids)
def test_fuzzed_moves_of_the_seat_to_play_never_crash(db: Path, move: Any, version: Any) -> None:
    """A random value as the current player's move: refused (the engine or the service), and
    the game unchanged, whatever its shape."""
    said, changed = refusal_and_change(
        db, "play", CH, ANA, {"kind": move} if version is None else move, version=version
    )
    assert said and not changed, (said, changed)
