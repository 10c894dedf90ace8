"""The Discord side of undo: the panel after your move offers Undo while it is possible, the
button and `/<game> undo` take the move back and show the panel as it is again, and a refusal
says why. Fake interactions through GameApp and the real GameService."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_app import ids, views
from bot.discord_app.app import GameApp
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.bot.test_discord_app import ANA, BEN, Clock, fake_draw, fake_private, lobby
from tests.bot.test_discord_support import CHANNEL, fake_itx


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
    finally:
        await store.close()


async def mid_turn(app: GameApp, rec: GameRecord | None = None) -> tuple[GameRecord, int]:
    """A Nauticus game where the current player has a move they may take back."""
    svc = app.service
    if rec is None:
        await lobby(app)
        rec = await svc.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=4)
    rules = rec.plugin.rules
    rng = random.Random(rec.version)
    while True:
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(CHANNEL, rec.user_at(seat), move, confirm=True)).record
        if rec.current == seat and await svc.can_undo(CHANNEL, rec.user_at(seat)):
            return rec, rec.user_at(seat)


def undo_buttons(view: object) -> list[views.GameButton]:
    children = getattr(view, "children", [])
    return [c for c in children if isinstance(c, views.GameButton) and c.cid.kind == "undo"]


async def test_undo_from_the_slash_command_and_from_the_panel_button(app: GameApp) -> None:
    rec, user = await mid_turn(app)
    other = BEN if user == ANA else ANA
    itx, replies = fake_itx(app, other, name="Other")
    await app.run_command(itx, "undo", {}, game="nauticus")
    assert "only take back a move while it is still your turn" in replies.text
    itx, replies = fake_itx(app, user, name="Me")
    await app.run_command(itx, "undo", {}, game="nauticus")
    assert replies.text.startswith("↩️ Taken back: ")
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    # Once more with a move to take back: the panel offers Undo, and the button takes it back.
    after, user = await mid_turn(app, after)
    seat = after.current
    assert seat is not None and after.state is not None
    _, view = app.panel_message(after, seat, undo=await app.service.can_undo(CHANNEL, user))
    (button,) = undo_buttons(view)
    assert button.cid == ids.CustomId("undo", after.id, after.version)
    itx, replies = fake_itx(app, user, name="Me")
    await app.on_component(itx, button.cid)
    assert replies.calls[0][0] == "defer"
    edited = await app.service.game_in(CHANNEL)
    assert edited is not None and edited.version == after.version + 1
    # An old panel's Undo (its version is gone) is answered with the current panel.
    itx, replies = fake_itx(app, user, name="Me")
    await app.on_component(itx, button.cid)
    again = await app.service.game_in(CHANNEL)
    assert again is not None and again.version == edited.version
