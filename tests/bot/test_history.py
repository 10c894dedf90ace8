"""History (the public board at the end of an earlier phase, redrawn from the log) and the
paged game log, through the real GameService and, for the buttons, GameApp."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import ids, views
from bot.discord_app.app import GameApp
from bot.service import LOG_PAGE, GameRecord, GameService, ServiceError, replay
from bot.store import Store
from bot.visibility import seen
from tests.bot.test_discord_app import ANA, BEN, Clock, fake_draw, fake_private, lobby
from tests.bot.test_discord_support import CHANNEL, fake_itx


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
    finally:
        await store.close()


async def played(app: GameApp, moves: int) -> GameRecord:
    await lobby(app)
    svc = app.service
    rec = await svc.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=7)
    rules = rec.plugin.rules
    rng = random.Random(1)
    for _ in range(moves):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(CHANNEL, rec.user_at(seat), move, confirm=True)).record
    return rec


async def test_history_redraws_the_public_board_at_the_end_of_a_phase(app: GameApp) -> None:
    rec = await played(app, 60)
    svc = app.service
    units = await svc.units_played(CHANNEL)
    assert len(units) >= 3 and units[0] == (1, 1)
    r, p = units[1]
    got, unit, view = await svc.history(CHANNEL, f"{r}.{p}")
    assert unit == (r, p) and got.id == rec.id
    # The view is the public one after the unit's last move, replayed from the log.
    async with svc.store.read() as tx:
        moves = await tx.moves(rec.id)
    last = max(i for i, m in enumerate(moves) if (m.round, m.phase) == (r, p))
    state = replay(rec.plugin, rec.seed, 2, moves[: last + 1])
    assert view == seen(rec.plugin, state, rec.names, None).view
    assert view != rec.seen(None).view  # an earlier moment, not now
    for bad, says in (
        ("x", "Write the moment as round.phase"),
        ("9.9", "Nothing was played in 9.9"),
    ):
        with pytest.raises(ServiceError, match=says):
            await svc.history(CHANNEL, bad)
    # Through Discord: privately by default, the pictures drawn from that view.
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "history", {"phase": f"{r}.{p}"}, game="nauticus")
    _, text, kwargs = replies.last
    assert text == (
        f"🕰️ Nauticus: the board at the end of round {r}, phase {p}, as the table saw it."
    )
    assert kwargs["ephemeral"] is True and [f.filename for f in kwargs["files"]] == ["board.png"]
    # Posted publicly at most every 2 minutes per channel.
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "history", {"phase": f"{r}.{p}", "public": True}, game="nauticus")
    assert replies.last[2]["ephemeral"] is False
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "history", {"phase": f"{r}.{p}", "public": True}, game="nauticus")
    assert replies.text.startswith("A board was posted here moments ago; another can be posted")
    itx, _ = fake_itx(app, BEN, name="Ben", namespace={})
    assert (await app.units(itx, ""))[0] == f"{units[-1][0]}.{units[-1][1]}"


async def test_the_log_pages_through_the_whole_game(app: GameApp) -> None:
    await played(app, 2 * LOG_PAGE + 5)
    svc = app.service
    first, page, pages = await svc.log_page(CHANNEL, 1)
    assert (page, pages) == (1, 3)
    numbers = [int(line.split(".")[0]) for line in first if line[0].isdigit()]
    assert numbers == list(range(LOG_PAGE + 6, 2 * LOG_PAGE + 6))
    oldest, page, _ = await svc.log_page(CHANNEL, 99)  # clamped to the last page
    assert page == 3 and oldest[0].startswith("1. R1·P1 ")
    assert len([x for x in oldest if x[0].isdigit()]) == 5
    # Through Discord: the reply's buttons turn the pages.
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "log", {}, game=None)
    assert replies.text.startswith("**Game log** — page 1 of 3 (page 1 is the latest)")
    view: Any = replies.last[2]["view"]
    older, newer = view.children
    assert isinstance(older, views.GameButton) and older.cid == ids.CustomId("log", 0, 0, "2")
    assert newer.item.disabled
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.on_component(itx, older.cid)
    how, text, _ = replies.last
    assert how == "edit" and text is not None and "page 2 of 3" in text


async def test_a_seats_own_pictures_mark_what_came_to_it_since_its_last_move(
    tmp_path: Path,
) -> None:
    """Issue 23: `/duel me` (and every game's private pictures) marks what is new in the seat's
    hand since its own last move: `before` is the seat's own view right after that move,
    rebuilt from the log; before its first move there is nothing to compare with."""
    import render.duel as duel_pictures

    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        svc = GameService(store)
        await svc.open_lobby(1, CHANNEL, ANA, "Ana", kind="duel")
        await svc.join(CHANNEL, BEN, "Ben")
        rec = await svc.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=66)
        rules = rec.plugin.rules
        assert rec.current is not None
        first = rec.current
        assert (await svc.mine_since_my_move(CHANNEL, first)).before is None
        rng = random.Random(3)
        framed_total, checked = 0, 0
        while rec.status == "active" and checked < 40:
            seat = rec.current
            assert seat is not None and rec.state is not None
            move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
            rec = (await svc.play(CHANNEL, rec.user_at(seat), move, confirm=True)).record
            if rec.status != "active":
                break
            for s in (0, 1):
                got = await svc.mine_since_my_move(CHANNEL, s)
                assert got.view == rec.seen(s).view and got.audience == s
                async with store.read() as tx:
                    moves = await tx.moves(rec.id)
                mine = [i for i, m in enumerate(moves) if m.seat == s]
                if not mine:
                    assert got.before is None
                    continue
                then = replay(rec.plugin, rec.seed, 2, moves[: mine[-1] + 1])
                # The seat's own view then: nothing of the other seat's hand.
                assert got.before == seen(rec.plugin, then, rec.names, s).view
                pic = duel_pictures.hand(got.view, names=got.names, before=got.before)
                framed = {m.key for m in pic.drawn if m.value == "new"}
                new = set(got.view["me"]["divers"]) - set(got.before["me"]["divers"])
                assert framed == {f"diver.{v}.new" for v in new}
                framed_total += len(framed)
                checked += 1
        assert checked >= 20 and framed_total >= 3
    finally:
        await store.close()
