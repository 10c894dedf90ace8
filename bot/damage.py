"""What `python -m bot check` reads for damage: every stored value a runner or a move would
refuse or replace, said in words. Its own module because only the check needs it; the
transaction (bot/tx.py) keeps the statements a move and the runners use."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.rows import (
    _GAME_COLS,
    GameRow,
    UserSettings,
    _wait,
    game_damage,
    hours_ok,
    settings_damage,
    wait_damage,
)
from bot.tx import Tx


async def damaged_values(tx: Tx, levels: Collection[str]) -> list[str]:
    """Every damaged stored value a runner or a move would read, in words, for `python -m
    bot check`: of the games in play, their seats (`levels`: the AI levels there are) and
    waits, and of the members' and servers' settings. Logs nothing (check prints them)."""
    out: list[str] = []

    def said(value: Any, holds: bool) -> str:
        then = "the game is on hold" if holds else "the default is used"
        return f"{value!r:.60} is damaged ({then})"

    games = await tx.all(
        f"SELECT {_GAME_COLS} FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
    )
    for g in (GameRow(*r) for r in games):
        where = f"channel {g.channel_id}, game {g.id}"
        for column, value, holds in game_damage(g):
            out.append(f"{where}: stored {column} {said(value, holds)}")
        for seat, ai in await tx.all(
            "SELECT seat, ai FROM seats WHERE game_id = ? AND ai IS NOT NULL ORDER BY seat",
            (g.id,),
        ):
            if ai not in levels:
                out.append(f"{where}: stored AI level of seat {seat} {said(ai, True)}")
        wait = await tx.one(
            "SELECT game_id, seat, user_id, since, sent, next_at, snooze_until, stalled "
            "FROM waits WHERE game_id = ?",
            (g.id,),
        )
        for column, value in wait_damage(_wait(wait)) if wait else []:
            out.append(f"{where}: stored {column} of its wait {said(value, False)}")
    for guild_id, user_id, *values in await tx.all(
        "SELECT guild_id, user_id, reminder_hours, quiet_from, quiet_to, timezone "
        "FROM user_settings ORDER BY guild_id, user_id"
    ):
        for column, value in settings_damage(UserSettings(*values)):
            out.append(
                f"member {user_id} on server {guild_id}: stored {column} {said(value, False)}"
            )
    for guild_id, hours in await tx.all(
        "SELECT guild_id, reminder_hours FROM guild_settings ORDER BY guild_id"
    ):
        if hours is not None and not hours_ok(hours):
            out.append(f"server {guild_id}: stored reminder_hours {said(hours, False)}")
    return out
