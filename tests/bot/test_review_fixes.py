"""Regression tests for bugs found in review of the service's load checks and lobby upkeep."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.service import GameService, GameUnavailable
from bot.store import Store
from engine.nauticus import legal_moves
from tests.bot.test_service import ANA, BEN, CH, GUILD, NAMES, counts, play_any, started


async def test_a_log_that_does_not_replay_flags_the_game(tmp_path: Path) -> None:
    """A log the engine can't replay is a mismatch: the game is flagged and reported as on
    hold, not answered with the engine's "illegal move" as if the player's move were wrong."""
    path = tmp_path / "l.db"
    s = await Store.open(path)
    rec = await started(GameService(s))
    rng = random.Random(3)
    svc = GameService(s)
    for _ in range(8):
        rec = await play_any(svc, rec, rng)
    await s.close()
    with sqlite3.connect(path) as raw:
        # A move the engine refuses, slipped into the (append-only) log by hand.
        raw.execute(
            "INSERT INTO moves (game_id, n, seat, user_id, round, phase, move_json, "
            'events_json, text, at) VALUES (?, 9, 0, ?, 1, 1, \'{"type":"nonsense"}\', '
            "'[]', 'forged', '2026-01-01T00:00:00.000+00:00')",
            (rec.id, ANA),
        )
    state = rec.state
    assert state is not None and state.current is not None
    move = legal_moves(state, state.current)[0]

    s2 = await Store.open(path)
    try:
        svc2 = GameService(s2)
        with pytest.raises(GameUnavailable) as refused:
            await svc2.play(CH, rec.user_at(state.current), move, confirm=True)
        assert refused.value.code == "flagged"
        async with s2.read() as tx:
            row = await tx.game(rec.id)
        assert row is not None and row.flagged and row.status == "active"
        version, moves, _ = await counts(s2, rec.id)
        assert (version, moves) == (rec.version, 9)
    finally:
        await s2.close()


async def test_a_manager_removing_the_only_player_closes_the_lobby(store: Store) -> None:
    """Removing the lobby's last seat (the host's, by a moderator) closes it like a last Leave
    instead of failing with an internal error."""
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, NAMES[ANA], kind="nauticus")
    rec = await svc.remove(CH, BEN, ANA, can_manage=True)
    assert rec.status == "aborted" and await svc.game_in(CH) is None
    # The channel is free for a new lobby.
    assert (await svc.open_lobby(GUILD, CH, BEN, NAMES[BEN], kind="nauticus")).status == "lobby"


async def test_check_reports_a_state_that_is_not_even_json(tmp_path: Path) -> None:
    """`python -m bot check` reports a mangled stored state by game instead of crashing, and
    the game is put on hold when it is next loaded."""
    path = tmp_path / "j.db"
    s = await Store.open(path)
    rec = await started(GameService(s))
    await s.close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE games SET state_json = '{\"round\": 1, ' WHERE id = ?", (rec.id,))
    s2 = await Store.open(path)
    try:
        svc = GameService(s2)
        problems = await svc.check_all()
        assert [(p[0], p[1]) for p in problems] == [(rec.id, CH)]
        state = rec.state
        assert state is not None and state.current is not None
        with pytest.raises(GameUnavailable):
            await svc.play(CH, rec.user_at(state.current), legal_moves(state, state.current)[0])
    finally:
        await s2.close()
