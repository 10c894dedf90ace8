"""Looking at a game: status, board, log, history, the seat's own hand, a member's games, the
rules, and what the bot is (`about`)."""

from __future__ import annotations

import asyncio
import importlib.metadata
from datetime import datetime
from typing import Any

import discord

from bot import ai_seats, texts
from bot.discord_app import views
from bot.discord_app.handlers.common import (
    Call,
    Click,
    Context,
    Refusal,
    check_bot_permissions,
    game,
    new_hint,
    playing,
    plugin_here,
    reply,
    to_int,
)
from bot.games import GAMES
from bot.i18n import tr, trn
from bot.service import GameRecord, ServiceError

PUBLIC_BOARD_EVERY = 120.0  # seconds between public `board` posts in one channel


async def status(ctx: Context, call: Call) -> None:
    """`/games status`: the game or lobby here, its players, deadline and autopilots."""
    rec = await game(ctx, call.channel_id)
    names = ", ".join(
        tr("{name} (seat {seat})", name=texts.name(s.name), seat=s.seat + 1) for s in rec.seats
    )
    title = tr(rec.plugin.title)
    if rec.state is None:
        await reply(
            call.itx,
            tr(
                "A {title} lobby is open here. Players so far: {names}.",
                title=title,
                names=names or tr("none"),
            ),
        )
        return
    extra = ""
    due = ctx.service.deadline_at(rec)
    if rec.deadline_hours is not None:
        span = ai_seats.deadline_label(rec.deadline_hours)
        extra = "\n" + (
            tr(
                "Turn deadline: {span}; the AI plays this turn <t:{ts}:R>.",
                span=span,
                ts=int(due.timestamp()),
            )
            if due
            else tr("Turn deadline: {span}.", span=span)
        )
    auto = [texts.name(s.name) for s in rec.seats if s.ai is not None and not s.robot]
    if auto:
        extra += "\n" + tr(
            "{robot} On autopilot: {names}.", robot=ai_seats.ROBOT, names=", ".join(auto)
        )
    extra += await _waiting_line(ctx, rec)
    line = rec.plugin.status_line(rec.seen(None))
    await reply(call.itx, f"**{title}** · {line}\n" + tr("Players: {names}.", names=names) + extra)


async def _waiting_line(ctx: Context, rec: GameRecord) -> str:
    """How long the game has waited for the person to move, and when they are reminded next
    (nothing for a robot or an autopilot, which play at once)."""
    waiting = await ctx.service.waiting(rec.channel_id)
    seat = rec.current
    if waiting is None or seat is None or waiting.seat != seat or rec.seats[seat].ai is not None:
        return ""
    who = f"{texts.seat_tag(seat)} {texts.name(rec.names[seat])}"
    since = f"<t:{int(waiting.since.timestamp())}:R>"
    if waiting.next_reminder is None:
        return "\n" + tr(
            "⏳ The turn passed to {who} {since}; no reminder is planned.", who=who, since=since
        )
    return "\n" + tr(
        "⏳ The turn passed to {who} {since}; next reminder {next}.",
        who=who,
        since=since,
        next=f"<t:{int(waiting.next_reminder.timestamp())}:R>",
    )


def _check_public_post(ctx: Context, itx: discord.Interaction[Any], channel_id: int) -> None:
    """At most one public board or history picture per channel every PUBLIC_BOARD_EVERY."""
    check_bot_permissions(itx)
    last = ctx.public_board.get(channel_id)
    now = ctx.clock()
    if last is not None and now - last < PUBLIC_BOARD_EVERY:
        wait = int(PUBLIC_BOARD_EVERY - (now - last)) + 1
        raise Refusal(
            tr(
                "A board was posted here moments ago; another can be posted in {wait} s. "
                "Without public it is shown to you alone right now.",
                wait=wait,
            )
        )
    ctx.public_board[channel_id] = now


async def board(ctx: Context, call: Call) -> None:
    """`/<game> board`: the public board, to the caller alone unless `public`."""
    itx, channel_id = call.itx, call.channel_id
    public = bool(call.options.get("public"))
    rec = await game(ctx, channel_id)
    if rec.state is None:
        raise Refusal(tr("The game here hasn't started yet: the lobby is still open."))
    if public:
        _check_public_post(ctx, itx, channel_id)
    await itx.response.defer(ephemeral=not public, thinking=True)
    # Even a private `board` shows the public view: the seat's secrets go only to `hand`.
    public_seen = rec.seen(None)
    files = await asyncio.to_thread(
        ctx.draw, rec.kind, rec.plugin.board_pictures(), public_seen.view, rec.names, None
    )
    await reply(itx, rec.plugin.status_line(public_seen), files=files, ephemeral=not public)


async def _log_page(
    ctx: Context, itx: discord.Interaction[Any], channel_id: int, page: int
) -> tuple[str, discord.ui.View | None]:
    """One page of the whole log (newest first) with buttons to the older and newer ones."""
    lines, page, pages = await ctx.service.log_page(channel_id, page, reader_id=itx.user.id)
    head = tr(
        "**Game log** — page {page} of {pages} (page 1 is the latest)", page=page, pages=pages
    )
    text = texts.fit("\n".join([head, *lines]) if lines else tr("No moves yet."))
    return text, views.log_view(page, pages)


async def log(ctx: Context, call: Call) -> None:
    """`/games log`: the last `moves`, or a page of the whole log."""
    itx, channel_id, options = call.itx, call.channel_id, call.options
    if options.get("moves"):
        lines = await ctx.service.log(channel_id, int(options["moves"]), reader_id=itx.user.id)
        await reply(itx, "\n".join(lines) or tr("No moves yet."))
    else:
        text, view = await _log_page(ctx, itx, channel_id, int(options.get("page") or 1))
        await reply(itx, text, view=view)


async def log_click(ctx: Context, click: Click) -> None:
    """The log's Older / Newer buttons: the page is edited in place."""
    text, view = await _log_page(ctx, click.itx, click.channel_id, to_int(click.cid.arg))
    await click.itx.response.edit_message(content=text, view=view)


async def history(ctx: Context, call: Call) -> None:
    """The public board at the end of an earlier action phase, redrawn from the log."""
    itx, channel_id = call.itx, call.channel_id
    public = bool(call.options.get("public"))
    rec, (r, p), view = await ctx.service.history(channel_id, str(call.options.get("phase", "")))
    if public:
        _check_public_post(ctx, itx, channel_id)
    await itx.response.defer(ephemeral=not public, thinking=True)
    files = await asyncio.to_thread(
        ctx.draw, rec.kind, rec.plugin.board_pictures(), view, rec.names, None
    )
    await reply(
        itx,
        tr(
            "🕰️ {title}: the board at the end of round {round}, phase {phase}, as the table saw it.",
            title=tr(rec.plugin.title),
            round=r,
            phase=p,
        ),
        files=files,
        ephemeral=not public,
    )


async def units(ctx: Context, itx: discord.Interaction[Any], current: str) -> list[str]:
    """The phases played in the channel's game, latest first, for `history`."""
    if itx.channel_id is None or itx.guild_id is None:
        return []
    try:
        played = await ctx.service.units_played(itx.channel_id)
    except ServiceError:
        return []
    labels = [f"{r}.{p}" for r, p in reversed(played)]
    return [u for u in labels if u.startswith(current.strip())][:25]


async def me(ctx: Context, call: Call) -> None:
    """The seat's private view (hand, shipyard), only ever as an ephemeral reply."""
    itx = call.itx
    rec, _, seat = await playing(ctx, call.channel_id, itx.user.id)
    await itx.response.defer(ephemeral=True, thinking=True)
    # Its own view now, and as it left it after its last move: the pictures mark what is new.
    mine = await ctx.service.mine_since_my_move(call.channel_id, seat)
    files = await asyncio.to_thread(ctx.draw_private, rec.kind, rec.plugin.hand_pictures(), mine)
    await reply(itx, rec.plugin.hand_text(mine), files=files, ephemeral=True)


async def rules(ctx: Context, call: Call) -> None:
    """`/<game> rules`: the digest of the group's game (the channel's, for a shared group)."""
    if call.game is not None:
        plugin = GAMES.get(call.game)
    else:
        plugin = await plugin_here(ctx, call.channel_id, None)
    await reply(call.itx, plugin.rules_digest(call.options.get("topic")))


async def mygames(ctx: Context, call: Call) -> None:
    """`/games mygames`: the member's lobbies and games on this server, their turns first."""
    itx = call.itx
    assert itx.guild_id is not None
    games = await ctx.service.my_games(itx.guild_id, itx.user.id)
    if not games:
        await reply(
            itx,
            tr(
                "You have no seat in a lobby or game on this server. Open one with {new}.",
                new=new_hint(),
            ),
        )
        return
    lines = [tr("**Your games here** ({n})", n=len(games))]
    for g in games:
        since = _unix(g.since)
        when = " · " + tr("waiting since <t:{ts}:R>", ts=since) if since is not None else ""
        at = f"<#{g.channel_id}> {tr(g.title)}"
        if g.your_turn:
            lines.append(
                "▶ " + tr("{game} — **your turn**: {decide}", game=at, decide=g.decide) + when
            )
        else:
            lines.append(
                "• "
                + tr("{game} — seat {seat}: {decide}", game=at, seat=g.seat + 1, decide=g.decide)
            )
    await reply(itx, "\n".join(lines))


async def about(ctx: Context, call: Call) -> None:
    """`/games about`: the version, the games installed, the uptime, for problem reports."""
    itx = call.itx
    assert itx.guild_id is not None
    try:
        version = importlib.metadata.version("nauticus-bot")
    except importlib.metadata.PackageNotFoundError:
        version = tr("unknown (not installed)")
    active = await ctx.service.count_active(itx.guild_id)
    up = int(ctx.clock() - ctx.started)
    games = " · ".join(
        tr(
            "{title} (`/{command}`, engine {engine}, {least}–{most} players)",
            title=tr(g.title),
            command=g.command,
            engine=g.rules.engine_version,
            least=g.rules.min_players,
            most=g.rules.max_players,
        )
        for g in GAMES
    )
    ai_moves = tr(", {n} AI moves since start", n=ctx.ai_runner.played) if ctx.ai_runner else ""
    await reply(
        itx,
        tr(
            "**Nautilus games bot** {version} · discord.py {discord}\nGames installed: {games}\n"
            "Up for {up} · {active} in progress on this server · AI: {workers} process(es)"
            "{ai_moves}.\nWhen reporting a problem, quote these lines and the error id you were "
            "shown.",
            version=version,
            discord=discord.__version__,
            games=games,
            up=_duration(up),
            active=trn("{n} game", "{n} games", active),
            workers=ctx.service.thinker.workers,
            ai_moves=ai_moves,
        ),
    )


def _unix(iso: str) -> int | None:
    try:
        return int(datetime.fromisoformat(iso).timestamp())
    except ValueError:
        return None


def _duration(seconds: int) -> str:
    days, rest = divmod(max(0, seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return tr("{days} d {hours} h", days=days, hours=hours)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
