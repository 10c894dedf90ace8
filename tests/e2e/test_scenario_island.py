"""Nautilus Island end to end: the real bot process through the fake Discord, three players, a
whole game played with slash commands chosen from each player's `/island hand` and the bot's
autocomplete, a SIGKILL of the bot in
the middle of a turn, and after every turn the secret check: no channel message, edit or alt text
and no reply another player sees names a card that audience can't know."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from bot.games.island.plugin import PLUGIN
from bot.plugin import Seen
from engine import island
from tests.bot.games.digest import split_digest
from tests.bot.games.island.test_secrets import Knowledge, leaks
from tests.e2e.client import TestUser
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import Message, RateLimits
from tests.e2e.game import bot_process, start_bot

CRASH_AT_TURN = 8


def _db(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)


def read(db: Path) -> tuple[int, str, int, island.State, list[int]]:
    """(game id, status, seed, state, user id per seat) of the channel's game as stored."""
    conn = _db(db)
    try:
        gid, status, seed, state_json = conn.execute(
            "SELECT id, status, seed, state_json FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        seats = [
            u
            for (u,) in conn.execute(
                "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (gid,)
            )
        ]
    finally:
        conn.close()
    return gid, status, seed, island.from_json(state_json), seats


def read_moves(db: Path, gid: int) -> list[tuple[int, dict[str, Any]]]:
    conn = _db(db)
    try:
        rows = conn.execute(
            "SELECT seat, move_json FROM moves WHERE game_id = ? ORDER BY n", (gid,)
        )
        return [(seat, json.loads(m)) for seat, m in rows]
    finally:
        conn.close()


def shown(m: Message) -> str:
    return "\n".join([m.text(), *(a or "" for a in m.alt_texts())])


async def test_island_three_players_secrets_and_a_crash(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _island(world, tmp_path)
    assert_answered(world.fake)


async def _island(world: World, tmp_path: Path) -> None:
    fake = world.fake
    # Rate limits are another scenario's subject: here they would only make the game slow.
    fake.rate_limits = RateLimits(global_limit=None, routes={})
    db = tmp_path / "bot.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    await start_bot(bot)
    try:
        users = [world.user(n) for n in ("ana", "ben", "cleo")]
        ana = users[0]
        assert "Lobby open" in (await (await ana.slash("island new")).message()).content
        lobby = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.channel_messages(world.channel)
                    if "Nautilus Island lobby" in m.text()
                ),
                None,
            ),
            what="the Island lobby",
        )
        for u in users[1:]:
            await (await u.click(lobby, "Join")).message()
        assert "has started" in (await (await ana.click(lobby, "Start")).message()).text()
        gid, _, seed, state, seat_users = read(db)
        by_id = {int(u.id): u for u in users}
        seat_of = {int(u.id): seat_users.index(int(u.id)) for u in users}
        rng = random.Random(seed)

        # The engine's own replay of the stored log, to know what each audience may know.
        mirror = island.new_game(3, seed)
        known = Knowledge(3)
        known.saw(mirror, [])
        acknowledged: list[tuple[int, dict[str, Any]]] = []
        last_slash: dict[int, dict[str, Any]] = {}
        checked_channel = 0
        turn = 0
        crashed = False
        hand_replies = 0

        async def play(user: TestUser, seat: int, move: dict[str, Any], view_seen: Seen) -> None:
            uid = int(user.id)
            # A player's consecutive moves always differ (pawn, action, close), so a slash
            # command is never refused as a double send here.
            assert last_slash.get(uid) != move
            cmd = PLUGIN.call_text(move).split()
            options: dict[str, Any] = {}
            for part in cmd[2:]:
                k, _, v = part.partition(":")
                options[k] = int(v) if k == "column" else v
            if PLUGIN.confirmation(view_seen, move) is not None:
                options["confirm"] = True
            reply = await (await user.slash(f"island {cmd[1]}", **options)).message()
            assert reply.text().startswith("✅"), reply.text()
            last_slash[uid] = move
            acknowledged.append((seat, move))

        while True:
            gid, status, _, state, _ = read(db)
            if status != "active":
                break
            seat = state.current
            assert seat is not None
            user = by_id[seat_users[seat]]
            legal = island.legal_moves(state, seat)
            mine = Seen(
                seat,
                island.view(state, seat),
                tuple(u.user.global_name or "" for u in users),
                tuple(legal),
            )
            if state.step in ("place", "move"):
                turn += 1
                # The player reads their hand first: it shows every card they hold, only to them.
                reply = await (await user.slash("island hand")).message()
                assert reply.visible_to == user.id
                hand_replies += 1
                for card in island.view(state, seat)["players"][seat]["hand"] or []:
                    assert card["object"] in reply.text()
                choices = await user.autocomplete(f"island {state.step}", focused="column")
                assert sorted(c["value"] for c in choices) == sorted(m["column"] for m in legal)
                move = {"type": state.step, "column": rng.choice(choices)["value"]}
            elif state.step == "act":
                cats = await user.autocomplete("island store", focused="category")
                stores = [m for m in legal if m["type"] == "store"]
                assert sorted(c["value"] for c in cats) == sorted({m["category"] for m in stores})
                if cats and (rng.random() < 0.5 or not any(m["type"] != "store" for m in legal)):
                    cat = rng.choice(cats)["value"]
                    objs = await user.autocomplete("island store", focused="objects", category=cat)
                    assert objs
                    value = rng.choice(objs)["value"]
                    move = PLUGIN.move_from_call("store", {"category": cat, "objects": value})
                else:
                    move = next(m for m in legal if m["type"] in ("collect", "idle"))
            else:
                move = rng.choice(legal)
            assert move in legal, move
            await play(user, seat, move, mine)
            mirror, events = island.apply(mirror, seat, move)
            known.saw(mirror, [e.to_dict() for e in events])

            if turn == CRASH_AT_TURN and state.step in ("place", "move") and not crashed:
                # SIGKILL in the middle of the turn: the pawn has moved, the action is to come.
                assert await bot.kill() != 0
                crashed = True
                assert read_moves(db, gid) == acknowledged, "an acknowledged move was lost"
                await start_bot(bot)
                last_slash.clear()  # a new process remembers no earlier command

            if any(e.kind == "turn_ended" for e in events):
                # Wait for this turn's post, then check everything shown since the last check.
                want = "Nautilus Island is over" if island.is_over(mirror) else f"turn {turn}**"
                await fake.wait_for(
                    lambda want=want: any(  # type: ignore[misc]
                        want in m.text() for m in fake.channel_messages(world.channel)
                    ),
                    timeout=15,
                    what=f"the post of turn {turn}",
                )
                public = fake.channel_messages(world.channel, include_deleted=True)
                posted = [split_digest(shown(m)) for m in public[checked_channel:]]
                texts = [text for text, _ in posted]
                assert leaks(texts, known, None, ever=False) == [], texts
                # A turn ping's "since your last move" lines are lines of the public log:
                # checked like the log (what everyone has ever seen).
                digests = ["\n".join(lines) for _, lines in posted]
                assert leaks(digests, known, None, ever=True) == [], digests
                # Earlier messages may have been edited since (pings turned into done lines).
                texts = [shown(m) for m in public[:checked_channel]]
                assert leaks(texts, known, None, ever=True) == []
                checked_channel = len(public)
                for other in users:
                    s = seat_of[int(other.id)]
                    theirs = [shown(m) for m in fake.ephemerals_for(other.user)]
                    assert leaks(theirs, known, s, ever=True) == [], other.user.username

        assert status == "finished" and crashed
        assert read_moves(db, gid) == acknowledged
        assert island.to_json(mirror) == island.to_json(state)
        final = fake.channel_messages(world.channel)[-1]
        assert "Nautilus Island is over" in final.text() and any(final.alt_texts())
        assert hand_replies == turn and turn >= 30
        print(f"island e2e: {len(acknowledged)} moves, {turn} turns")
    finally:
        await bot.stop()
        print(f"--- bot log (tail) ---\n{bot.log()}")
