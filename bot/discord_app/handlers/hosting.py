"""Hosting and moderation: abort, skip a turn, hand a seat over, remove a lobby player, the
turn deadline, and a player's own autopilot. A moderator's command only asks; the danger
button under the question carries it out."""

from __future__ import annotations

from bot import ai_seats, texts
from bot.discord_app import ids, views
from bot.discord_app.handlers.common import (
    Call,
    Click,
    Context,
    Refusal,
    can_manage,
    check_host_or_moderator,
    game,
    reply,
)
from bot.i18n import tr


async def abort(ctx: Context, call: Call) -> None:
    """`/games abort`: asks the host or a moderator to confirm."""
    itx = call.itx
    rec = await game(ctx, call.channel_id)
    check_host_or_moderator(
        itx, rec, tr("Only the host or a member with Manage Channels can abort the game.")
    )
    cid = ids.CustomId("abort", rec.id, rec.version, "yes")
    await reply(
        itx,
        tr("Abort the game here for everyone? This can't be undone."),
        view=views.abort_view(cid),
    )


async def abort_click(ctx: Context, click: Click) -> None:
    itx, channel_id = click.itx, click.channel_id
    await game(ctx, channel_id, game_id=click.cid.game_id)
    await itx.response.defer()
    await ctx.service.abort(channel_id, itx.user.id, can_manage=can_manage(itx))
    await itx.edit_original_response(content=tr("The game was aborted."), view=None)


async def skip(ctx: Context, call: Call) -> None:
    """`/games skip`: asks to confirm handing the waiting turn to the AI."""
    itx = call.itx
    rec = await game(ctx, call.channel_id)
    check_host_or_moderator(
        itx,
        rec,
        tr("Only the host or a member with Manage Channels can {what}.", what=tr("skip a turn")),
    )
    if rec.status != "active" or rec.state is None:
        raise Refusal(tr("Nothing to skip: the game here hasn't started yet."))
    seat = rec.current
    if seat is None:
        raise Refusal(tr("Nothing to skip: the game is over."))
    # The moderator is often the opponent: the prompt is built from the public view only
    # and names no move (the skipped seat's moves would show its hidden cards, and the AI
    # decides them only once the skip is confirmed).
    cid = ids.CustomId("skip", rec.id, rec.version, str(seat))
    await reply(
        itx,
        tr(
            "Skip the turn of {seat} {name}? They must {decide}; the AI decides and plays "
            "this turn for them. This is logged in the channel and in the game's log.",
            seat=texts.seat_tag(seat),
            name=texts.name(rec.names[seat]),
            decide=rec.plugin.must_decide(rec.seen(None), you=False),
        ),
        view=views.confirm_view(cid, tr("Yes, skip the turn")),
    )


async def skip_click(ctx: Context, click: Click) -> None:
    itx, channel_id = click.itx, click.channel_id
    await game(ctx, channel_id, game_id=click.cid.game_id)
    await itx.response.defer()
    skipped = await ctx.service.skip(
        channel_id,
        itx.user.id,
        can_manage=can_manage(itx),
        version=click.cid.version,
        by_name=itx.user.display_name,
    )
    name = texts.name(skipped.record.names[skipped.seat])
    await itx.edit_original_response(
        content=tr(
            "Skipped the turn of {name}: {moves}.",
            name=name,
            moves="; ".join(skipped.texts),
        ),
        view=None,
    )


async def replace(ctx: Context, call: Call) -> None:
    """`/games replace old new`: asks to confirm handing a seat to another member."""
    itx = call.itx
    rec = await game(ctx, call.channel_id)
    check_host_or_moderator(
        itx,
        rec,
        tr(
            "Only the host or a member with Manage Channels can {what}.",
            what=tr("hand a seat to someone else"),
        ),
    )
    old, new = call.options.get("old"), call.options.get("new")
    if old is None or new is None:
        raise Refusal(tr("Name both members: `/games replace old:@player new:@member`."))
    seat = rec.seat_of(old.id)
    if seat is None:
        raise Refusal(tr("{name} has no seat in this game.", name=texts.name(old.display_name)))
    if rec.seat_of(new.id) is not None:
        raise Refusal(
            tr(
                "{name} already has a seat in this game; a player can hold only one.",
                name=texts.name(new.display_name),
            )
        )
    if getattr(new, "bot", False) is True:
        raise Refusal(tr("A bot can't take a seat."))
    ctx.pending_names[new.id] = new.display_name
    cid = ids.CustomId("replace", rec.id, rec.version, f"{old.id}.{new.id}")
    await reply(
        itx,
        tr(
            "Hand seat {seat} from {old} to {new}? They get the pings and the panel from now "
            "on. This is logged in the channel.",
            seat=seat + 1,
            old=texts.name(old.display_name),
            new=texts.name(new.display_name),
        ),
        view=views.confirm_view(cid, tr("Yes, hand the seat over")),
    )


async def replace_click(ctx: Context, click: Click) -> None:
    itx, channel_id = click.itx, click.channel_id
    await game(ctx, channel_id, game_id=click.cid.game_id)
    old_raw, _, new_raw = click.cid.arg.partition(".")
    if not (old_raw.isdigit() and new_raw.isdigit()):
        raise Refusal(tr("That button is not known; run `/games replace` again."))
    old_id, new_id = int(old_raw), int(new_raw)
    name = ctx.pending_names.get(new_id)
    if name is None:
        raise Refusal(
            tr("That confirmation has expired (the bot restarted); run `/games replace` again.")
        )
    await itx.response.defer()
    rec = await ctx.service.replace_player(
        channel_id,
        itx.user.id,
        old_id,
        new_id,
        name,
        can_manage=can_manage(itx),
        by_name=itx.user.display_name,
    )
    ctx.pending_names.pop(new_id, None)
    seat = rec.seat_of(new_id)
    assert seat is not None
    await itx.edit_original_response(
        content=tr("Seat {seat} now belongs to {name}.", seat=seat + 1, name=texts.name(name)),
        view=None,
    )


async def remove(ctx: Context, call: Call) -> None:
    """`/games remove member`: a player out of the lobby."""
    itx = call.itx
    member = call.options.get("member")
    if member is None:
        raise Refusal(tr("Name the player: `/games remove member:@player`."))
    await itx.response.defer(ephemeral=True, thinking=True)
    await ctx.service.remove(call.channel_id, itx.user.id, member.id, can_manage=can_manage(itx))
    await reply(itx, tr("{name} was removed from the lobby.", name=texts.name(member.display_name)))


async def autopilot(ctx: Context, call: Call) -> None:
    """`/games autopilot`: the AI plays the caller's own seat, or stops."""
    itx = call.itx
    on = bool(call.options.get("on"))
    level = str(call.options.get("level") or ai_seats.DEFAULT_LEVEL)
    await itx.response.defer(ephemeral=True, thinking=True)
    await ctx.service.set_autopilot(call.channel_id, itx.user.id, on, level)
    if on:
        text = tr(
            "{robot} Autopilot on ({level}): the AI plays your seat, without "
            "pinging you, until you run `/games autopilot on:False`. Its moves are marked "
            "in the log and the posts.",
            robot=ai_seats.ROBOT,
            level=level,
        )
    else:
        text = tr("Autopilot off: you play your own seat again and get your pings.")
    await reply(itx, text)


async def deadline(ctx: Context, call: Call) -> None:
    """`/games deadline`: past it, the AI plays the waiting turn."""
    itx = call.itx
    span = str(call.options.get("span") or "none")
    if span not in ai_seats.DEADLINES:
        raise Refusal(
            tr("The deadline must be one of {spans}.", spans=", ".join(ai_seats.DEADLINES))
        )
    hours = ai_seats.DEADLINES[span]
    await itx.response.defer(ephemeral=True, thinking=True)
    rec = await ctx.service.set_deadline(
        call.channel_id, itx.user.id, hours, can_manage=can_manage(itx)
    )
    due = ctx.service.deadline_at(rec)
    when = (
        " " + tr("The turn waiting now goes to the AI <t:{ts}:R>.", ts=int(due.timestamp()))
        if due
        else ""
    )
    await reply(itx, tr("Turn deadline set: {span}.", span=ai_seats.deadline_label(hours)) + when)
