"""Handing a seat to the AI and taking it back runs in one hop to the database's thread, as a move
does (issue 22, item 7), and stores what it stored before: the seat's level, the notice, and
when it is that seat's turn, the old ping closed and a new one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import GameService
from bot.store import Store


async def test_autopilot_on_and_off_take_one_hop_each(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    await svc.open_lobby(1, 10, 100, "Ana", kind="nauticus")
    await svc.join(10, 101, "Ben")
    await svc.join(10, 102, "Cleo")
    rec = await svc.start(10, 100, can_manage=True, seed=4, order=[100, 101, 102])
    waiting = rec.current
    assert waiting is not None
    other = (waiting + 1) % 3
    async with store.read() as tx:
        first = await tx.all("SELECT MAX(id) FROM outbox")
    hops: list[str] = []
    real = store._conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(store._conn, "_execute", counted)
    for seat, on in ((waiting, True), (other, True), (other, False), (waiting, False)):
        hops.clear()
        rec = await svc.set_autopilot(10, 100 + seat, on, "easy")
        # One transaction run whole on the connection's thread, nothing else.
        assert hops == ["_whole"]
        assert rec.seats[seat].ai == ("easy" if on else None)
        async with store.read() as tx:
            stored = {s.seat: s.ai for s in await tx.seats(rec.id)}
        assert stored[seat] == ("easy" if on else None)
    async with store.read() as tx:
        rows = await tx.all(
            "SELECT kind, edits, payload_json FROM outbox WHERE id > ? ORDER BY id", first[0]
        )
    kinds = [r[0] for r in rows]
    # The waiting seat's ping changes hands both ways; the other seat's change is a notice.
    assert kinds == [
        "notice",
        "ping_done",
        "turn_ping",
        "notice",
        "notice",
        "notice",
        "ping_done",
        "turn_ping",
    ]
    assert "handed their seat to the AI (easy)" in rows[0][2]
    assert "handed to the AI." in rows[1][2]
    assert "is thinking" in rows[2][2] and '"mentions":[]' in rows[2][2]
    assert "is back and plays their own seat again." in rows[5][2]
    assert "taken back." in rows[6][2]
    # The last ping edited is the AI's "thinking" line; the new one pings the player.
    async with store.read() as tx:
        thinking = await tx.all(
            "SELECT id FROM outbox WHERE kind = 'turn_ping' ORDER BY id DESC LIMIT 1 OFFSET 1"
        )
    assert rows[6][1] == thinking[0][0]
    assert f'"mentions":[{100 + waiting}]' in rows[7][2]
