"""What a player is told when the store refuses: a full disk is said plainly (not "something
went wrong"), and `/games log` of a game with a damaged log row says it is on hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GameApp
from bot.service import GameService, ServiceError
from bot.store import DiskFull, Store
from tests.bot.test_discord_app import ANA, Clock, fake_draw, fake_private, started
from tests.bot.test_discord_support import fake_itx
from tests.bot.test_hardening_unreadable import damage_move


async def test_a_full_disk_is_told_to_the_player_in_plain_words(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        app = GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
        await started(app)

        async def full(*args: Any, **kwargs: Any) -> Any:
            raise DiskFull()

        app.service.play = full  # type: ignore[method-assign]
        itx, replies = fake_itx(app, ANA, name="Ana")
        await app.run_command(itx, "choose", {"space": 0}, game="nauticus")
        assert "disk is full" in replies.text and "admin" in replies.text
        assert "Something went wrong" not in replies.text
    finally:
        await store.close()


async def test_the_log_of_a_game_with_a_damaged_row_says_it_is_on_hold(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"
    store = await Store.open(db)
    app = GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
    rec = await started(app)
    itx, _ = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "choose", {"space": 0}, game="nauticus")
    await store.close()
    damage_move(db, rec.id, 1, "events_json")
    store = await Store.open(db)
    try:
        svc = GameService(store)
        with pytest.raises(ServiceError) as refused:
            await svc.log(rec.channel_id, 10, reader_id=ANA)
        assert "move 1" in str(refused.value) and "abort" in str(refused.value)
    finally:
        await store.close()
