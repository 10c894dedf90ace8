"""A whole Nautilus duel against the real bot process through the fake Discord.

Two players play every move as a typed slash command (autocomplete checked on the way), the
bot is SIGKILLed mid-round and started again, and the game goes on to the final post with no
acknowledged move lost. After every move, once the outbox is drained, every new or edited
channel message (its text and its pictures' alt texts) is checked against the table's secrets,
and every reply the other player got against the mover's secrets (`tests.bot.games.duel.kit`).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.games.duel import calls
from engine import duel
from tests.bot.games.digest import digest_moves, split_digest
from tests.bot.games.duel.kit import leaks, secret_patterns
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import RateLimits
from tests.e2e.game import bot_process, read_outbox, start_bot

KILL_AT = 31  # a placement in the middle of round 3


def _read(db: Path, channel_id: str) -> tuple[int, int, str, duel.State | None, list[int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        gid, _version, status, state_json = conn.execute(
            "SELECT id, version, status, state_json FROM games WHERE channel_id = ? "
            "ORDER BY id DESC LIMIT 1",
            (int(channel_id),),
        ).fetchone()
        seats = [
            u
            for (u,) in conn.execute(
                "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (gid,)
            )
        ]
        (moves,) = conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()
    finally:
        conn.close()
    state = duel.from_json(state_json) if state_json else None
    return gid, moves, status, state, seats


def _log_texts(db: Path, game_id: int) -> list[tuple[int, str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(
            "SELECT n, text FROM moves WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
    finally:
        conn.close()


def _published(before: duel.State, after: duel.State, move: dict[str, Any]) -> set[int]:
    """Card values the move showed the table (its placed card, the anchor, the arrow's move,
    and the awards of a round it ended)."""
    seat = before.turn
    _, events = duel.apply(before, seat, move)
    out: set[int] = set()
    for e in events:
        if e.private_to is None:
            d = e.to_dict()
            if d["kind"] in ("placed", "anchored", "arrow_moved"):
                out.add(d["card"])
            if d["kind"] == "slot_awarded":
                out |= set(d["values"])
    return out


async def _drained(db: Path, game_id: int, timeout: float = 20.0) -> None:
    """Until every outbox row of the game is delivered (the bot marks it in the database after
    the fake saw the post, so this polls instead of waiting for the fake's next change)."""
    deadline = time.monotonic() + timeout
    while not all(r.sent for r in read_outbox(db, game_id)):
        assert time.monotonic() < deadline, "the outbox did not drain"
        await asyncio.sleep(0.05)


async def test_a_whole_duel_keeps_its_secrets_and_survives_a_sigkill(
    world: World, tmp_path: Path
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _duel(world, tmp_path)
    assert_answered(world.fake)


async def _duel(world: World, tmp_path: Path) -> None:
    fake = world.fake
    fake.rate_limits = RateLimits(global_limit=None, routes={})  # a quick game: no 429 waits
    db = tmp_path / "bot.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    await start_bot(bot)
    try:
        ana, ben = world.user("ana"), world.user("ben")
        assert "Lobby open" in (await (await ana.slash("duel new")).message()).content
        lobby = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.channel_messages(world.channel)
                    if "Nautilus duel lobby" in m.text()
                ),
                None,
            ),
            what="the duel lobby",
        )
        await (await ben.click(lobby, "Join")).message()
        await (await ana.click(lobby, "Seating: random / join order")).message()
        assert "has started" in (await (await ana.click(lobby, "Start")).message()).text()
        by_id = {int(ana.user.id): ana, int(ben.user.id): ben}
        rng = random.Random(11)
        checked: dict[str, str] = {}  # channel message id -> text last checked
        seen_ephemeral: set[str] = set()
        acknowledged = 0
        autocompleted = killed = False
        while True:
            gid, n_moves, status, state, seats = _read(db, world.channel.id)
            assert n_moves == acknowledged  # every acknowledged move is stored, none twice
            assert state is not None
            if status != "active":
                break
            seat = state.turn
            user = by_id[seats[seat]]
            move = rng.choice(duel.legal_moves(state, seat))
            options = calls.options_of(move)
            if not autocompleted and move["type"] == "place":
                offered = await user.autocomplete("duel place", focused="card", value="")
                assert {c["value"] for c in offered} == {
                    m["card"] for m in duel.legal_moves(state, seat) if m["type"] == "place"
                }
                other = by_id[seats[1 - seat]]
                assert await other.autocomplete("duel place", focused="card", value="") == []
                autocompleted = True
            text = ""
            for _ in range(2):
                reply = await (await user.slash(f"duel {move['type']}", **options)).message()
                text = reply.text()
                if "double send" not in text:
                    break
                await asyncio.sleep(10.5)  # the same command again within 10 s: wait it out
            assert "✅" in text, text
            acknowledged += 1
            if acknowledged == 5:
                # The hand command: only to its player, with its own divers (the other player's
                # replies are leak-checked below like every ephemeral).
                hand = await (await user.slash("duel hand")).message()
                assert hand.visible_to == user.user.id and "Your hand" in hand.text()
                divers = duel.view(_read(db, world.channel.id)[3], seat)["me"]["divers"]
                assert "Divers: " + ", ".join(map(str, divers)) in " ".join(
                    a or "" for a in hand.alt_texts()
                )
            after = _read(db, world.channel.id)[3]
            assert after is not None
            if acknowledged == KILL_AT:
                assert await bot.kill() == -9
                killed = True
                await start_bot(bot)
            # Everything this move queued is delivered before the texts are checked.
            await _drained(db, gid)
            published = _published(state, after, move)
            table = secret_patterns(after, None, published)
            for m in fake.channel_messages(world.channel):
                text = "\n".join([m.text(), *(a or "" for a in m.alt_texts())])
                if checked.get(m.id) != text:
                    checked[m.id] = text
                    # A turn ping's "since your last move" lines are lines of the public log
                    # (checked so), which may name a card of an earlier round, reshuffled since.
                    text, digest = split_digest(text)
                    logged = {t for _, t in _log_texts(db, gid)}
                    for line in digest:
                        for part in digest_moves(line):
                            assert part in logged or part.startswith("…"), part
                    assert not leaks([text], table), leaks([text], table)
            for s in (0, 1):
                reader = by_id[seats[s]]
                mine = secret_patterns(after, s, published)
                for m in fake.ephemerals_for(reader.user):
                    key = f"{m.id}:{m.text()}"
                    if key in seen_ephemeral:
                        continue
                    seen_ephemeral.add(key)
                    assert not leaks([m.text()], mine), leaks([m.text()], mine)
        assert killed and acknowledged > 60
        final = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.channel_messages(world.channel)
                    if "The Nautilus duel is over." in m.text()
                ),
                None,
            ),
            timeout=20,
            what="the final post",
        )
        assert any("Final scores" in (a or "") for a in final.alt_texts())
        posts = [m.text() for m in fake.channel_messages(world.channel)]
        assert sum("placement 10/10" in p for p in posts) == 6  # every round's last post
    finally:
        await bot.stop()
        print(f"--- bot log (tail) ---\n{bot.log()}")
