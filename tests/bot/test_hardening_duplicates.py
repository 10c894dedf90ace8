"""Slash-command moves carry no version, so the same command sent twice at once could play twice
while the move stays legal. The second identical command of a player within the window is
refused (nothing played twice); after the window, or with a version, it plays."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.service import DUPLICATE_WINDOW, GameRecord, GameService, ServiceError
from bot.store import Store
from tests.bot.nauticus_kit import PLUGIN
from tests.bot.test_service import CH, started


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def repeatable(svc: GameService, rec: GameRecord) -> tuple[GameRecord, dict[str, object]]:
    """Play at random until the acting seat has a move that is still legal after playing it."""
    rng = random.Random(3)
    rules = PLUGIN.rules
    while True:
        seat = rec.current
        assert seat is not None
        for move in rules.legal_moves(rec.state, seat):
            after, _ = rules.apply(rec.state, seat, move)
            again = rules.current(after) == seat and move in rules.legal_moves(after, seat)
            if again and PLUGIN.confirmation(rec.seen(seat), move) is None:
                return rec, move
        move = rng.choice(rules.legal_moves(rec.state, seat))
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record


async def test_a_double_sent_command_plays_once(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        clock = Clock()
        svc = GameService(store, clock=clock)
        rec, move = await repeatable(svc, await started(svc))
        user = rec.user_at(rec.current or 0)
        both = await asyncio.gather(
            svc.play(CH, user, dict(move), command=True),
            svc.play(CH, user, dict(move), command=True),
            return_exceptions=True,
        )
        refused = [r for r in both if isinstance(r, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "duplicate"
        assert "nothing was played twice" in str(refused[0])
        after = await svc.game_in(CH)
        assert after is not None and after.version == rec.version + 1
        # After the window the same command is a new decision and plays.
        clock.now += DUPLICATE_WINDOW + timedelta(seconds=1)
        again = await svc.play(CH, user, dict(move), command=True)
        assert again.record.version == rec.version + 2
    finally:
        await store.close()


async def test_a_button_with_its_version_is_not_taken_for_a_duplicate(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        svc = GameService(store, clock=Clock())
        rec, move = await repeatable(svc, await started(svc))
        user = rec.user_at(rec.current or 0)
        first = await svc.play(CH, user, dict(move), command=True)
        second = await svc.play(CH, user, dict(move), version=first.record.version)
        assert second.record.version == rec.version + 2
    finally:
        await store.close()
