"""The Discord side of `/settings`, `/games reminders` and a reminder's Snooze button: fake
interactions through GameApp and the real GameService on a temporary database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from bot.discord_app import ids
from bot.discord_app.app import GameApp
from bot.service import GameService
from bot.store import Store
from tests.bot.test_discord_app import ANA, BEN, Clock, fake_draw, fake_private, lobby
from tests.bot.test_discord_support import CHANNEL, GUILD, fake_itx

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(
            GameService(store, clock=lambda: NOW),
            draw=fake_draw,
            draw_private=fake_private,
            clock=Clock(),
        )
    finally:
        await store.close()


async def test_quiet_hours_and_reminders_are_set_and_shown_only_to_their_owner(
    app: GameApp,
) -> None:
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(
        itx, "settings quiet", {"start": "22:00", "end": "8:00", "timezone": "Europe/Paris"}
    )
    assert replies.text.startswith("🌙 Quiet hours set: 22:00–08:00 (Europe/Paris).")
    assert replies.last[2]["ephemeral"] is True
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(
        itx, "settings quiet", {"start": "22:00", "end": "08:00", "timezone": "Paris"}
    )
    assert "is not a time zone name: use an IANA name such as Europe/Paris" in replies.text
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "settings reminders", {"every": "6h"})
    assert replies.text == "Your reminders in every game on this server: every 6 h."
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "settings show", {})
    assert replies.text.splitlines() == [
        "**Your settings on this server**",
        "Reminders: every 6 h (yours)",
        "Quiet hours: 22:00–08:00 (Europe/Paris)",
        "Server default reminders: 12 h, then every 24 h (the default)",
    ]
    # Ben's settings are his own.
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "settings show", {})
    assert "Quiet hours: none (`/settings quiet`)" in replies.text
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "settings server-reminders", {"every": "48h"})
    assert replies.text.startswith("Only members with Manage Server can set the server's")
    itx, replies = fake_itx(
        app, BEN, name="Ben", member_perms=discord.Permissions(manage_guild=True)
    )
    await app.run_command(itx, "settings server-reminders", {"every": "48h"})
    assert replies.text == "Reminders on this server by default: every 48 h."
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "settings quiet-off", {})
    _, server = await app.service.settings(GUILD, ANA)
    mine, _ = await app.service.settings(GUILD, ANA)
    assert mine.quiet_from is None and mine.reminder_hours == 6 and server == 48


async def test_the_host_sets_the_games_reminders_and_the_waiting_player_snoozes(
    app: GameApp,
) -> None:
    rec = await lobby(app)  # Ana hosts, Ben joined
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.run_command(itx, "reminders", {"every": "12h"})
    assert "Only the host or a member with Manage Channels" in replies.text
    itx, replies = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "reminders", {"every": "12h"})
    assert replies.text.startswith("Reminders in this game: every 12 h, from the next turn")
    rec = await app.service.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=1)
    waiting = rec.user_at(rec.current or 0)
    other = BEN if waiting == ANA else ANA
    itx, replies = fake_itx(app, other, name="Other")
    await app.on_component(itx, ids.CustomId("snooze", rec.id, rec.version))
    assert replies.text == (
        "The game is not waiting for you, so there is no reminder of yours to snooze."
    )
    itx, replies = fake_itx(app, waiting, name="Waiting")
    await app.on_component(itx, ids.CustomId("snooze", rec.id, rec.version))
    # 12 h after the start is later than 8 h from now: the reminder stays at 21:00 UTC.
    due = int(datetime(2026, 11, 2, 21, 0, tzinfo=UTC).timestamp())
    assert replies.text == f"😴 Snoozed: no reminder before <t:{due}:t> (<t:{due}:R>)."
