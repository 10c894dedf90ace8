"""A game's record (JSON) and its animated replay, from `/games export|replay` or the buttons
under the final scores (which work for weeks, across restarts)."""

from __future__ import annotations

from typing import Any

import discord

from bot import records
from bot.discord_app.handlers.common import Call, Click, Context, reply
from bot.i18n import tr
from bot.outbox import OutFile


async def _export(
    ctx: Context, itx: discord.Interaction[Any], channel_id: int, game_id: int | None
) -> None:
    """The game's record as a JSON file, only to the member asking."""
    record = await ctx.service.export(channel_id, itx.user.id, game_id=game_id)
    if record["complete"]:
        text = tr(
            "📄 The record of {title} game #{id}: every move with its time, the seed and the "
            "final scores. Replay it with `python -m bot replay FILE --out DIR`.",
            title=record["title"],
            id=record["game_id"],
        )
    elif "private" in record:
        text = tr(
            "📄 The record of {title} game #{id} so far, as the table sees it (the seed and "
            "the moves themselves come once the game is over); your own hand's lines are in "
            "it too, so keep it to yourself.",
            title=record["title"],
            id=record["game_id"],
        )
    else:
        text = tr(
            "📄 The record of {title} game #{id} so far, as the table sees it (the seed and "
            "the moves themselves come once the game is over).",
            title=record["title"],
            id=record["game_id"],
        )
    data = records.dumps(record)
    await reply(
        itx,
        text,
        files=[OutFile(records.filename(record), data, tr("the game record (JSON)"))],
    )


async def _replay(
    ctx: Context, itx: discord.Interaction[Any], channel_id: int, game_id: int | None
) -> None:
    """The animated board of a game, only to the member asking (about a second to draw)."""
    await itx.response.defer(ephemeral=True, thinking=True)
    name, data = await ctx.service.animation(channel_id, game_id)
    await reply(
        itx,
        tr("🎞️ The board after every action phase of this game, as the table saw it."),
        files=[OutFile(name, data, tr("The board after every action phase, animated"))],
    )


async def export(ctx: Context, call: Call) -> None:
    """`/games export`: the channel's game."""
    await _export(ctx, call.itx, call.channel_id, None)


async def replay(ctx: Context, call: Call) -> None:
    """`/games replay`: the channel's game."""
    await _replay(ctx, call.itx, call.channel_id, None)


async def export_click(ctx: Context, click: Click) -> None:
    """Record, under the final scores: the game the button belongs to."""
    await _export(ctx, click.itx, click.channel_id, click.cid.game_id)


async def replay_click(ctx: Context, click: Click) -> None:
    """Replay, under the final scores: the game the button belongs to."""
    await _replay(ctx, click.itx, click.channel_id, click.cid.game_id)
