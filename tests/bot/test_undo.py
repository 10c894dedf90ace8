"""Undo within your own turn, through the real GameService: allowed while nothing hidden was
revealed and nothing drawn, refused otherwise with the reason; the log stays append-only and
every replay (the lazy check after a restart, `check`, a record) honours the undo."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot import records
from bot.service import GameRecord, GameService, NotYourTurn, UndoRefused
from bot.store import Store
from bot.undo import DREW, REVEALED, undo_refusal

CH = 950
GUILD = 9
ANA, BEN, CLEO = 51, 52, 53


async def table(svc: GameService, kind: str, players: int, seed: int) -> GameRecord:
    users = (ANA, BEN, CLEO)[:players]
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind=kind)
    for uid, name in zip(users[1:], ("Ben", "Cleo"), strict=False):
        await svc.join(CH, uid, name)
    return await svc.start(CH, ANA, can_manage=False, order=list(users), seed=seed)


async def stored_moves(store: Store, game_id: int, *, with_undone: bool = False) -> list[Any]:
    async with store.read() as tx:
        return await tx.moves(game_id, with_undone=with_undone)


async def test_a_nauticus_move_in_the_middle_of_a_turn_is_taken_back(
    store: Store, tmp_path: Path
) -> None:
    svc = GameService(store)
    rec = await table(svc, "nauticus", 3, seed=4)
    rules = rec.plugin.rules
    rng = random.Random(2)
    # Play until a player's move leaves them still to decide (a Nauticus turn is several moves).
    while True:
        seat = rec.current
        assert seat is not None and rec.state is not None
        before_state, before_version = rec.state, rec.version
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
        if rec.current == seat and await svc.can_undo(CH, rec.user_at(seat)):
            break
    user = rec.user_at(seat)
    other = next(u for u in (ANA, BEN, CLEO) if u != user)
    assert not await svc.can_undo(CH, other)
    with pytest.raises(NotYourTurn, match="only take back a move while it is still your turn"):
        await svc.undo(CH, other)
    count = len(await stored_moves(store, rec.id))
    undone = await svc.undo(CH, user, version=rec.version)
    after = undone.record
    # The game is exactly as before the move, one version further (old panels are stale).
    assert rules.to_json(after.state) == rules.to_json(before_state)
    assert after.version == before_version + 2 and after.current == seat
    # The log is append-only: the move is still there, marked, and left out of every replay.
    assert len(await stored_moves(store, rec.id)) == count - 1
    assert len(await stored_moves(store, rec.id, with_undone=True)) == count
    lines = await svc.log(CH, 3)
    assert lines[-1].endswith(f"{undone.text} ↩️ (taken back)")
    async with store.read() as tx:
        notice = (await tx.pending_outbox(limit=10_000))[-1]
    mover = after.names[seat]
    assert notice.kind == "notice"
    assert notice.payload["text"].endswith(f"took back the move: {mover} {undone.text}")
    assert await svc.check_all() == []
    # After a restart the replay check agrees, and the game goes on from there.
    again = GameService(store)
    reloaded = await again.game_in(CH)
    assert reloaded is not None and rules.to_json(reloaded.state) == rules.to_json(before_state)
    move = dict(rules.legal_moves(reloaded.state, seat)[0])
    played = await again.play(CH, user, move, confirm=True)
    assert played.n == count + 1  # a new number: an undone move's number is never reused
    # A game record carries the effective log: it replays to the same game.
    rec2 = await again.game_in(CH)
    assert rec2 is not None
    while rec2.status == "active":
        s = rec2.current
        assert s is not None and rec2.state is not None
        rec2 = (
            await again.play(
                CH, rec2.user_at(s), dict(rules.legal_moves(rec2.state, s)[0]), confirm=True
            )
        ).record
    record = await again.export(CH, ANA)
    assert records.replay(records.parse(records.dumps(record))) is not None


async def test_a_move_that_ended_the_turn_or_was_not_yours_cannot_be_undone(
    store: Store,
) -> None:
    svc = GameService(store)
    rec = await table(svc, "nauticus", 3, seed=5)
    seat = rec.current
    assert seat is not None
    with pytest.raises(UndoRefused, match="There is no move of yours to take back"):
        await svc.undo(CH, rec.user_at(seat))
    rules = rec.plugin.rules
    # Play moves until the decision passes to another seat: that move stands.
    while rec.current == seat:
        assert rec.state is not None
        move = dict(rules.legal_moves(rec.state, seat)[0])
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
    with pytest.raises(NotYourTurn, match="the game has moved on"):
        await svc.undo(CH, rec.user_at(seat))


@pytest.mark.parametrize(("kind", "players"), [("island", 3), ("duel", 2)])
async def test_a_move_that_revealed_or_drew_a_card_stands(
    store: Store, kind: str, players: int
) -> None:
    """Played until each outcome has been met: some moves may be undone, some may not, and
    the refused ones say why."""
    svc = GameService(store)
    rec = await table(svc, kind, players, seed=6)
    rules = rec.plugin.rules
    rng = random.Random(3)
    allowed = refused = 0
    for _ in range(120):
        if rec.status != "active":
            break
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        result = await svc.play(CH, rec.user_at(seat), move, confirm=True)
        rec = result.record
        if rec.current != seat:
            continue
        private = any(e.private_to is not None for e in result.events)
        if await svc.can_undo(CH, rec.user_at(seat)):
            assert not private  # a card shown to its player never comes back
            allowed += 1
        else:
            with pytest.raises(UndoRefused, match=r"so it stands|closed the action phase"):
                await svc.undo(CH, rec.user_at(seat))
            refused += 1
            if private:
                with pytest.raises(UndoRefused, match="showed you a card"):
                    await svc.undo(CH, rec.user_at(seat))
    assert refused > 0
    if kind == "island":
        assert allowed > 0  # placing a pawn reveals nothing


def test_the_generic_check_catches_a_draw_and_a_reveal() -> None:
    """With a rules object whose move draws at random, and one whose move shows a card."""
    from engine.island import RULES as island

    state = island.new_game(2, 1)
    seat = island.current(state)
    assert seat is not None
    moves = island.legal_moves(state, seat)
    place = next(m for m in moves if m["type"] == "place")
    after, events = island.apply(state, seat, place)
    dicts = [
        e.to_dict() | ({"private_to": e.private_to} if e.private_to is not None else {})
        for e in events
    ]
    assert undo_refusal(island, state, seat, place, after, dicts, 2) is None
    # A move whose events include a private one (as a face-down card taken) stands.
    assert (
        undo_refusal(
            island, state, seat, place, after, [*dicts, {"kind": "x", "private_to": seat}], 2
        )
        == REVEALED
    )
    # A "move" whose result depends on the hidden deal (we claim the real state came out of
    # it; any re-deal gives another view) is a draw for the mover.
    other, _ = island.apply(state, seat, next(m for m in moves if m != place))
    assert undo_refusal(island, state, seat, place, other, dicts, 2) in (DREW, REVEALED)
