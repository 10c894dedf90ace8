"""LOBBY_IDLE_DAYS: parsed, refused when malformed, and handed to the service the bot runs."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.discord_app.client import create_client
from bot.store import Store


def test_lobby_idle_days_defaults_to_a_week_and_accepts_fractions() -> None:
    assert load_config({}).lobby_idle_days == 7.0
    assert load_config({"LOBBY_IDLE_DAYS": " 0.5 "}).lobby_idle_days == 0.5
    assert load_config({"LOBBY_IDLE_DAYS": "0"}).lobby_idle_days == 0.0


@pytest.mark.parametrize("raw", ["seven", "-1", "1e9", "nan"])
def test_a_malformed_lobby_idle_days_is_refused_with_the_fix(raw: str) -> None:
    with pytest.raises(ConfigError, match="LOBBY_IDLE_DAYS must be a number of days"):
        load_config({"LOBBY_IDLE_DAYS": raw})


@pytest.mark.parametrize(
    ("days", "idle"), [(7.0, timedelta(days=7)), (0.5, timedelta(hours=12)), (0.0, None)]
)
async def test_the_running_bot_closes_lobbies_after_the_configured_time(
    tmp_path: Path, days: float, idle: timedelta | None
) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        config = load_config({"LOBBY_IDLE_DAYS": str(days)})
        client = create_client(config=config, store=store)
        assert client.service.lobby_idle == idle
        await client.close()
    finally:
        await store.close()


async def test_reminder_check_seconds_is_parsed_checked_and_used(tmp_path: Path) -> None:
    assert load_config({}).reminder_check == 60.0
    for raw in ("0", "soon", "7200", "nan"):
        with pytest.raises(ConfigError, match="REMINDER_CHECK_SECONDS must be a number of sec"):
            load_config({"REMINDER_CHECK_SECONDS": raw})
    store = await Store.open(tmp_path / "bot.db")
    try:
        client = create_client(config=load_config({"REMINDER_CHECK_SECONDS": "5"}), store=store)
        assert client.reminder_runner.tick_every == timedelta(seconds=5)
        await client.close()
    finally:
        await store.close()
