"""Issue 21, items 1, 3, 7 and 12 through the real GameService: no seed while a game runs, a
card shown in public is never taken back (and whether Undo is offered never depends on another
seat's hidden cards), one take-back per intent, and a move nested thousands deep is refused as
malformed."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import offline
from bot.service import DUPLICATE_WINDOW, GameRecord, GameService, ServiceError, UndoRefused
from bot.store import Store
from bot.undo import undo_refusal
from bot.visibility import event_dict
from engine.duel import RULES as DUEL
from engine.island import RULES as ISLAND

CH = 961
GUILD = 9
ANA, BEN, CLEO = 61, 62, 63
SEED = 1926903552062320  # long enough that no other number of a post can contain it


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def outbox_payloads(store: Store) -> list[str]:
    async with store.read() as tx:
        rows = await tx.all("SELECT payload_json FROM outbox ORDER BY id")
    return [str(r[0]) for r in rows]


async def lobby(svc: GameService, kind: str, users: tuple[int, ...]) -> None:
    await svc.open_lobby(GUILD, CH, users[0], "Ana", kind=kind)
    for uid, name in zip(users[1:], ("Ben", "Cleo"), strict=False):
        await svc.join(CH, uid, name)


# --- 1. the seed -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["island", "duel"])
async def test_no_post_export_or_log_line_names_the_seed_while_the_game_runs(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO")
    store = await Store.open(tmp_path / "bot.db")
    try:
        svc = GameService(store)
        users = (ANA, BEN) if kind == "duel" else (ANA, BEN, CLEO)
        await lobby(svc, kind, users)
        rec = await svc.start(CH, ANA, can_manage=False, seed=SEED)  # random seating
        assert rec.seed == SEED
        rng = random.Random(1)
        rules = rec.plugin.rules
        for _ in range(12):
            seat = rec.current
            assert seat is not None and rec.state is not None
            move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
            rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
        posts = await outbox_payloads(store)
        assert any("Seat order drawn at random." in p for p in posts)
        assert not [p for p in posts if str(SEED) in p]
        for asker in (ANA, 999):  # a player and a member with no seat
            record = await svc.export(CH, asker)
            assert record["seed"] is None
            assert str(SEED) not in repr(record)
        assert str(SEED) not in caplog.text
        assert not [line for line in await svc.log(CH) if str(SEED) in line]
    finally:
        await store.close()


async def test_the_offline_transcript_gives_the_seed_only_after_the_game(tmp_path: Path) -> None:
    result = await offline.run_offline(
        2, SEED % 10**6, tmp_path / "demo", game="duel", pictures=False, panels=False
    )
    text = result.transcript.read_text(encoding="utf-8")
    seed = str(SEED % 10**6)
    over = text.index("Game over: its seed was")
    assert seed not in text[:over]
    assert re.search(rf"its seed was {seed}\b", text[over:])


# --- 3. undo of a card shown in public ---------------------------------------------------------


def _kept_decisions(rules: Any, players: int, games: int) -> list[tuple[Any, int, Any, Any, Any]]:
    """(before, seat, move, after, events) of every move after which its player still decides,
    over seeded random games."""
    out = []
    for g in range(games):
        state = rules.new_game(players, 500 + g)
        rng = random.Random(g)
        while not rules.is_over(state):
            seat = rules.current(state)
            move = rng.choice(rules.legal_moves(state, seat))
            after, events = rules.apply(state, seat, move)
            if rules.current(after) == seat:
                out.append((state, seat, move, after, [event_dict(e) for e in events]))
            state = after
    return out


@pytest.mark.parametrize(("rules", "players", "games"), [(DUEL, 2, 40), (ISLAND, 3, 2)])
def test_whether_a_move_may_be_taken_back_never_depends_on_what_the_mover_cannot_see(
    rules: Any, players: int, games: int
) -> None:
    """Re-deal everything the mover cannot see (the other hands, the decks): the answer the Undo
    button gives must stay the same, or the button tells the mover about the others' cards."""
    cases = _kept_decisions(rules, players, games)
    assert len(cases) > 50
    for i, (before, seat, move, after, events) in enumerate(cases):
        said = undo_refusal(rules, before, seat, move, after, events, players)
        for k in range(2):
            other = rules.determinize(before, seat, random.Random(f"probe/{i}/{k}"))
            again, evs = rules.apply(other, seat, dict(move))
            redone = undo_refusal(
                rules, other, seat, move, again, [event_dict(e) for e in evs], players
            )
            assert redone == said, (rules.describe(move, before), said, redone)


def test_a_duel_card_placed_from_the_hand_is_never_taken_back() -> None:
    """The placed card is in the public log line ("placed the 7 on ... slot 1"), even while its
    arrow still waits for a choice: it stands."""
    cases = [c for c in _kept_decisions(DUEL, 2, 60) if c[2].get("type") == "place"]
    waiting = [c for c in cases if c[3].step == "arrow"]
    assert len(waiting) > 20  # the arrow case of the issue is met, many times
    for before, seat, move, after, events in cases:
        assert re.search(r"placed the \w+", DUEL.describe(move, before))
        assert undo_refusal(DUEL, before, seat, move, after, events, 2) is not None


# --- 7. one take-back per intent ---------------------------------------------------------------


async def _two_undoable_moves(svc: GameService) -> tuple[GameRecord, int]:
    """A Nauticus game played until one player has two moves of this turn that may be taken
    back (Nauticus hides nothing, so a mid-turn move may be undone)."""
    await lobby(svc, "nauticus", (ANA, BEN, CLEO))
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=4)
    rules = rec.plugin.rules
    rng = random.Random(2)
    streak = 0
    while True:
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
        kept = rec.current == seat and await svc.can_undo(CH, rec.user_at(seat))
        streak = streak + 1 if kept else 0
        if streak == 2:
            return rec, seat


async def test_undo_sent_twice_takes_back_one_move(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        clock = Clock()
        svc = GameService(store, clock=clock)
        rec, seat = await _two_undoable_moves(svc)
        user = rec.user_at(seat)
        both = await asyncio.gather(svc.undo(CH, user), svc.undo(CH, user), return_exceptions=True)
        refused = [r for r in both if isinstance(r, UndoRefused)]
        assert len(refused) == 1 and "double send" in str(refused[0])
        after = await svc.game_in(CH)
        assert after is not None and after.version == rec.version + 1
        async with store.read() as tx:
            undone = await tx.all("SELECT n FROM undone WHERE game_id = ?", (rec.id,))
        assert len(undone) == 1
        # Sent again after the window, it is a new intent: the move before goes back too.
        clock.now += DUPLICATE_WINDOW + timedelta(seconds=1)
        again = await svc.undo(CH, user)
        assert again.record.version == rec.version + 2
    finally:
        await store.close()


async def test_the_undo_button_with_its_version_is_not_taken_for_a_double_send(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        svc = GameService(store, clock=Clock())
        rec, seat = await _two_undoable_moves(svc)
        user = rec.user_at(seat)
        first = await svc.undo(CH, user)
        second = await svc.undo(CH, user, version=first.record.version)
        assert second.record.version == rec.version + 2
    finally:
        await store.close()


async def test_the_same_command_in_a_later_turn_is_not_a_double_send(tmp_path: Path) -> None:
    """The clock stands still, so every command is "within the window": a repeat is refused only
    while the game is where the first one left it."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        svc = GameService(store, clock=Clock())
        await lobby(svc, "nauticus", (ANA, BEN))
        rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=9)
        rules = rec.plugin.rules
        rng = random.Random(5)
        last: dict[int, tuple[dict[str, Any], int]] = {}
        repeats = 0
        while rec.status == "active" and repeats < 3:
            seat = rec.current
            assert seat is not None and rec.state is not None
            user = rec.user_at(seat)
            legal = rules.legal_moves(rec.state, seat)
            mine = last.get(user)
            # Repeat the user's last command whenever the game moved on and it is legal again.
            if mine is not None and mine[1] != rec.version and mine[0] in legal:
                move, repeats = dict(mine[0]), repeats + 1
            else:
                move = dict(rng.choice(legal))
            result = await svc.play(CH, user, move, confirm=True, command=True)
            rec = result.record
            last[user] = (move, rec.version)
        assert repeats == 3
    finally:
        await store.close()


# --- 12. a move nested thousands deep ------------------------------------------------------------


@pytest.mark.parametrize("shape", ["dict", "list"])
async def test_a_deeply_nested_value_is_refused_as_malformed(tmp_path: Path, shape: str) -> None:
    """In Island a column given as a value 5,000 levels deep made the engine's refusal recurse
    while quoting it (RecursionError); the service refuses it first and changes nothing."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        svc = GameService(store)
        await lobby(svc, "island", (ANA, BEN))
        rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)
        assert rec.state is not None and rec.current is not None
        move = dict(rec.plugin.rules.legal_moves(rec.state, rec.current)[0])
        value: Any = move["column"]
        for _ in range(5000):
            value = {"x": value} if shape == "dict" else [value]
        move["column"] = value
        with pytest.raises(ServiceError, match=r"That move is malformed; nothing was changed\."):
            await svc.play(CH, rec.user_at(rec.current), move)
        after = await svc.game_in(CH)
        assert after is not None and after.version == rec.version
    finally:
        await store.close()
