"""The Discord side of AI seats, autopilot, deadlines, stats and the leaderboard: fake
interactions through GameApp and the real GameService on a temporary database."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot import texts
from bot.discord_app import ids, views
from bot.discord_app.app import GameApp
from bot.service import GameService
from bot.store import Store
from tests.bot.test_discord_app import ANA, BEN, Clock, fake_draw, fake_private, lobby
from tests.bot.test_discord_support import CHANNEL, GUILD, fake_itx
from tests.bot.test_records import finish


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
    finally:
        await store.close()


async def test_only_the_host_opens_the_ai_menu_and_picking_a_level_seats_a_robot(
    app: GameApp,
) -> None:
    rec = await lobby(app)  # Ana hosts, Ben joined
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "ai"))
    assert "Only the host or a member with Manage Channels can add AI seats" in replies.text
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "ai"))
    view = replies.last[2]["view"]
    (select,) = view.children
    assert isinstance(select, views.GameSelect)
    assert [o.value for o in select.item.options] == ["easy", "normal", "hard", "remove"]
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.on_component(itx, select.cid, ["hard"])
    assert replies.text == "🤖 Nemo (hard) took a seat in the lobby."
    after = await app.service.game_in(CHANNEL)
    assert after is not None and [s.name for s in after.seats][-1] == "🤖 Nemo (hard)"
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.on_component(itx, select.cid, ["remove"])
    after = await app.service.game_in(CHANNEL)
    assert after is not None and len(after.seats) == 2


async def test_autopilot_and_deadline_commands_answer_plainly(app: GameApp) -> None:
    await lobby(app)
    await app.service.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=1)
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "autopilot", {"on": True, "level": "easy"})
    assert replies.text.startswith("🤖 Autopilot on (easy): the AI plays your seat")
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "deadline", {"span": "24h"})
    assert "Only the host or a member with Manage Channels" in replies.text
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "deadline", {"span": "24h"})
    assert replies.text.startswith(
        "Turn deadline set: 24 h. The turn waiting now goes to the AI <t:"
    )
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "status", {})
    assert "Turn deadline: 24 h; the AI plays this turn <t:" in replies.text
    assert "🤖 On autopilot: Ben." in replies.text


async def test_stats_and_leaderboard_before_and_after_a_game(app: GameApp) -> None:
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "stats", {})
    assert "No game was played in this channel: say which with `game:`" in replies.text
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "leaderboard", {"kind": "duel"})
    assert replies.text.startswith("No rated game of Nautilus duel on this server yet")
    # A whole duel between Ana and Ben, played by the service.
    svc = app.service
    await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", kind="duel")
    await svc.join(CHANNEL, BEN, "Ben")
    rec = await svc.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=2)
    rules = rec.plugin.rules
    while rec.status == "active":
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rules.legal_moves(rec.state, seat)[0])
        rec = (await svc.play(CHANNEL, rec.user_at(seat), move, confirm=True)).record
    assert rec.state is not None
    ana = next(s for s in rules.final_scores(rec.state) if s.seat == 0)
    itx, replies = fake_itx(app, BEN, name="Ben")
    member = discord.Object(id=ANA)
    member.display_name = "Ana"  # type: ignore[attr-defined]
    await app.run_command(itx, "stats", {"member": member})
    wins = "1 win" if ana.rank == 1 else "0 wins"
    assert replies.text.startswith(
        f"**Nautilus duel** on this server — Ana: 1 game, {wins}, average {ana.vp:.1f} VP, "
        f"best {ana.vp} VP.\nRating "
    )
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "leaderboard", {})
    lines = replies.text.splitlines()
    assert lines[0] == "**Nautilus duel leaderboard** (openskill rating = skill − 3σ)"
    assert len(lines) == 3 and lines[1].startswith("1. ") and "(1 game, " in lines[1]


def test_the_deadline_clock_is_a_discord_timestamp() -> None:
    # Times shown to players are Discord timestamps: each reader sees their own time zone.
    from bot.ai_runner import due_label

    assert due_label(datetime(2026, 1, 1, tzinfo=UTC)) == "<t:1767225600:R>"


async def test_the_final_posts_buttons_give_the_replay_the_record_and_a_rematch(
    app: GameApp,
) -> None:
    svc = app.service
    await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", kind="duel")
    await svc.join(CHANNEL, BEN, "Ben")
    rec = await finish(svc, await svc.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN]))
    # Anyone may take the record of a finished game: a JSON file, only to them.
    itx, replies = fake_itx(app, 999, name="Zoe")
    await app.on_component(itx, ids.CustomId("end", rec.id, rec.version, "record"))
    _, text, kwargs = replies.last
    assert kwargs["ephemeral"] is True
    assert text is not None and text.startswith(
        f"📄 The record of Nautilus duel game #{rec.id}: every move with its time"
    )
    (file,) = kwargs["files"]
    assert file.filename == f"duel-game-{rec.id}.json"
    record = json.loads(file.fp.read())
    async with svc.store.read() as tx:
        stored = await tx.moves(rec.id)
    assert record["complete"] is True and [m["move"] for m in record["moves"]] == [
        m.move for m in stored
    ]
    # The replay: deferred (it takes a moment), then an animated GIF only to the clicker.
    itx, replies = fake_itx(app, 999, name="Zoe")
    await app.on_component(itx, ids.CustomId("end", rec.id, rec.version, "replay"))
    assert replies.calls[0][0] == "defer"
    (gif,) = replies.last[2]["files"]
    assert gif.filename == f"duel-game-{rec.id}-replay.gif"
    assert Image.open(gif.fp).n_frames > 10
    # A rematch only for the players; Ben's opens the lobby and pings Ana.
    itx, replies = fake_itx(app, 999, name="Zoe")
    await app.on_component(itx, ids.CustomId("end", rec.id, rec.version, "rematch"))
    assert replies.text.startswith("Only the players of that game can open its rematch")
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.on_component(itx, ids.CustomId("end", rec.id, rec.version, "rematch"))
    assert replies.text == (
        "Rematch lobby open, with you in the first seat; Ana was pinged to press **Join**. "
        "Press **Start** once the table is seated."
    )
    lobby = await svc.game_in(CHANNEL)
    assert lobby is not None and lobby.status == "lobby" and lobby.host_id == BEN


async def test_status_tells_since_when_the_turn_waits_and_the_next_reminder(app: GameApp) -> None:
    await lobby(app)
    rec = await app.service.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=1)
    seat = rec.current
    assert seat is not None
    waiting = await app.service.waiting(CHANNEL)
    assert waiting is not None and waiting.seat == seat and waiting.reminders_sent == 0
    assert waiting.next_reminder is not None
    # The first reminder of the default schedule comes 12 hours after the turn ping.
    assert waiting.next_reminder - waiting.since == timedelta(hours=12)
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "status", {})
    who = f"{texts.seat_tag(seat)} {rec.names[seat]}"
    since, nxt = int(waiting.since.timestamp()), int(waiting.next_reminder.timestamp())
    assert f"⏳ The turn passed to {who} <t:{since}:R>; next reminder <t:{nxt}:R>." in replies.text
    # A seat the AI plays is not waited for: the line goes.
    await app.service.set_autopilot(CHANNEL, rec.user_at(seat), True, "easy")
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "status", {})
    assert "⏳" not in replies.text and "On autopilot" in replies.text
    # No game in progress: nothing waits.
    await app.service.abort(CHANNEL, ANA, can_manage=False)
    assert await app.service.waiting(CHANNEL) is None
