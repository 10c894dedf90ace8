"""The database's JSON read through orjson (issue 22, item 7): `bot.rows.loads` reads back
exactly what `json.loads` read (the rows of whole games of every kind, every kind of value a row
could hold), its errors included; `bot.rows.dumps` still writes the stdlib encoder's text."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.rows import UnreadableMove, _move_json, _outbox, dumps, loads
from bot.service import GameService
from bot.store import Store

# What `dumps` wrote before orjson: the stdlib's encoder with the same options.
STDLIB = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False)


async def play_random_game(path: Path, kind: str, players: int, seed: int) -> None:
    """A whole random game through the service (its moves, posts, pings and result stored)."""
    store = await Store.open(path)
    try:
        svc = GameService(store)
        await svc.open_lobby(1, 10, 100, "Ana", kind=kind)
        for i in range(1, players):
            await svc.join(10, 100 + i, ["Ben", "Cléo", "Dév 🚢"][i - 1])
        order = [100 + i for i in range(players)]
        rec = await svc.start(10, 100, can_manage=True, seed=seed, order=order)
        rng = random.Random(seed)
        while rec.current is not None:
            seat = rec.current
            move = rng.choice(rec.plugin.rules.legal_moves(rec.state, seat))
            rec = (await svc.play(10, 100 + seat, move, confirm=True)).record
    finally:
        await store.close()


@pytest.mark.parametrize(("kind", "players"), [("nauticus", 4), ("island", 3), ("duel", 2)])
async def test_every_stored_json_text_of_a_game_is_read_as_the_stdlib_reads_it(
    tmp_path: Path, kind: str, players: int
) -> None:
    path = tmp_path / "g.db"
    await play_random_game(path, kind, players, seed=7)
    with sqlite3.connect(path) as conn:
        texts = [
            text for row in conn.execute("SELECT move_json, events_json FROM moves") for text in row
        ]
        payloads = [r[0] for r in conn.execute("SELECT payload_json FROM outbox")]
        kinds = {r[0] for r in conn.execute("SELECT kind FROM outbox")}
    # The game stored its moves and the posts of a whole game (pictures' views included).
    assert len(texts) > 20
    assert {"turn_ping", "ping_done", "final_post"} <= kinds
    for text in texts + payloads:
        value = json.loads(text)
        assert text == STDLIB.encode(value)
        assert loads(text) == value
        # The same types too (an int is not read as a float, nor a list as a tuple).
        assert STDLIB.encode(loads(text)) == text


STRINGS = [
    "",
    "plain",
    'quote " backslash \\ slash /',
    "\x00\x01\x07\x08\t\n\x0b\x0c\r\x1b\x1f\x7f",
    "é à ç ü ß — … « » ’ \u202f \u00a0",
    "🚢 ⚓ 🔴🟡 \U0001f600 \u2028 \u2029 \ufeff \uffff",
    "<@123> **bold** `code`",
]


VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2**63 - 1,
    -(2**63),
    [],
    {},
    (1, "two", None),
    {"b": 1, "a": {"d": [3, {"z": 0, "y": 1}], "c": None}, "A": True, "é": 1, "_": 2},
    [{"kind": "phase_ended", "seat": 0}, {"kind": "bought", "item": "hull", "to": {"ship": 1}}],
    *STRINGS,
    {s: s for s in STRINGS},
    1.5,
    0.1,
    -2.0,
    1e16,
    123456789.125,
    1e-07,
    2.5e-300,
    1.7976931348623157e308,
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_loads_reads_what_the_stdlib_reads(value: Any) -> None:
    text = dumps(value)
    assert text == STDLIB.encode(value)
    assert loads(text) == json.loads(text)
    assert STDLIB.encode(loads(text)) == STDLIB.encode(json.loads(text))


def test_dumps_still_writes_nan_and_infinity_as_the_stdlib_does() -> None:
    # orjson would write null: `dumps` is the stdlib's.
    assert dumps([float("nan"), float("inf")]) == "[NaN,Infinity]"
    assert json.dumps(loads("[NaN,Infinity]")) == "[NaN, Infinity]"


def test_integers_up_to_64_bits_are_read_exactly_and_larger_ones_as_floats() -> None:
    # The one difference (bot/rows.py): the bot never stores an integer beyond 64 bits
    # (Discord's ids are below 2**63, its integer options within 2**53).
    edge = [2**63 - 1, -(2**63), 2**64 - 1, 123456789012345678]
    assert loads(dumps(edge)) == edge
    assert all(type(v) is int for v in loads(dumps(edge)))
    assert loads(str(2**64)) == float(2**64)
    assert loads(str(-(2**63) - 1)) == float(-(2**63) - 1)


@pytest.mark.parametrize(
    "text",
    ["NaN", "[Infinity, -Infinity]", '"\\ud800"', "[1e400]", '{"a":1,"a":2}'],
)
def test_text_orjson_refuses_but_the_stdlib_reads_is_read_by_the_stdlib(text: str) -> None:
    value = loads(text)
    expected = json.loads(text)
    # NaN is not equal to itself: compare the texts the stdlib writes back.
    assert json.dumps(value) == json.dumps(expected)


def test_nesting_too_deep_for_the_stdlib_fails_as_it_did() -> None:
    with pytest.raises(RecursionError):
        loads("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize("text", ["", "{", "[1,]", "{'a': 1}", "nul", "[1] x", b"\xff"])
def test_text_that_is_not_json_raises_the_stdlibs_error(text: str | bytes) -> None:
    with pytest.raises(ValueError) as stdlib_error:
        json.loads(text)
    with pytest.raises(ValueError) as ours:
        loads(text)
    assert type(ours.value) is type(stdlib_error.value)
    assert str(ours.value) == str(stdlib_error.value)


def test_damaged_rows_are_still_named_with_the_stdlibs_words() -> None:
    with pytest.raises(UnreadableMove, match=r"move 3 of the log is unreadable \(events: "):
        _move_json(1, 3, "events", "[{")
    try:
        json.loads("[{")
    except ValueError as exc:
        words = str(exc)[:80]
    with pytest.raises(UnreadableMove) as damaged:
        _move_json(1, 3, "events", "[{")
    assert str(damaged.value) == f"move 3 of the log is unreadable (events: {words})"
    with pytest.raises(UnreadableMove, match=r"\(move: a list\)"):
        _move_json(1, 4, "move", "[]")
    row = _outbox((1, 2, 10, "notice", "not json", None, 5, "t", None, None, 0, None))
    assert row.payload == {} and row.unreadable == "Expecting value: line 1 column 1 (char 0)"
