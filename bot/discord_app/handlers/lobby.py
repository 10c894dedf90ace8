"""Opening and seating: `/<game> new`, the lobby's buttons, its AI seat menu, and a rematch."""

from __future__ import annotations

from bot import ai_seats, texts
from bot.discord_app import views
from bot.discord_app.handlers.common import (
    Call,
    Click,
    ClickHandler,
    Context,
    Refusal,
    can_manage,
    check_bot_permissions,
    check_host_or_moderator,
    game,
    new_hint,
    reply,
)
from bot.discord_app.translator import channel_locale_of
from bot.i18n import tr, trn


async def new(ctx: Context, call: Call) -> None:
    """`/<game> new`: a lobby in this channel, with the caller in the first seat."""
    itx = call.itx
    if call.game is None:
        raise Refusal(tr("Say which game: {new}.", new=new_hint()))
    check_bot_permissions(itx)
    assert itx.guild_id is not None
    await itx.response.defer(ephemeral=True, thinking=True)
    await ctx.service.open_lobby(
        itx.guild_id,
        call.channel_id,
        itx.user.id,
        itx.user.display_name,
        kind=call.game,
        locale=channel_locale_of(itx),
    )
    await reply(itx, tr("Lobby open: players press **Join**, then the host presses **Start**."))


async def _join(ctx: Context, click: Click) -> None:
    user = click.itx.user
    await ctx.service.join(click.channel_id, user.id, user.display_name)
    await reply(click.itx, tr("You joined the lobby."))


async def _leave(ctx: Context, click: Click) -> None:
    await ctx.service.leave(click.channel_id, click.itx.user.id)
    await reply(click.itx, tr("You left the lobby."))


async def _start(ctx: Context, click: Click) -> None:
    itx = click.itx
    await ctx.service.start(click.channel_id, itx.user.id, can_manage=can_manage(itx))
    await reply(itx, tr("The game has started: watch for your ping and press Play."))


async def _cancel(ctx: Context, click: Click) -> None:
    itx = click.itx
    await ctx.service.cancel(click.channel_id, itx.user.id, can_manage=can_manage(itx))
    await reply(itx, tr("The lobby was cancelled."))


async def _ai_menu(ctx: Context, click: Click) -> None:
    """The host's menu to seat or remove robots."""
    itx = click.itx
    rec = await game(ctx, click.channel_id, game_id=click.cid.game_id)
    check_host_or_moderator(
        itx, rec, tr("Only the host or a member with Manage Channels can add AI seats.")
    )
    await reply(
        itx,
        tr(
            "{robot} Choose a level to seat a robot (easy, normal or hard), or "
            "remove one. AI seats play their turns themselves, a few seconds after their "
            "turn comes; every AI move is marked with the robot sign.",
            robot=ai_seats.ROBOT,
        ),
        view=views.ai_seat_view(rec.id, rec.version),
    )


async def _seating(ctx: Context, click: Click) -> None:
    itx = click.itx
    rec = await ctx.service.toggle_seating(
        click.channel_id, itx.user.id, can_manage=can_manage(itx)
    )
    await reply(
        itx,
        tr("Seat order: the join order. Press the button again to switch back.")
        if rec.seating == "join"
        else tr("Seat order: drawn at random at the start. Press the button again to switch back."),
    )


# The lobby buttons' argument (bot/discord_app/views.py `lobby_view`) -> what it does.
LOBBY_BUTTONS: dict[str, ClickHandler] = {
    "join": _join,
    "leave": _leave,
    "start": _start,
    "cancel": _cancel,
    "ai": _ai_menu,
    "seating": _seating,
}


async def click(ctx: Context, click: Click) -> None:
    """A lobby button (Join, Leave, Start, Cancel, Seating, AI seats)."""
    await game(ctx, click.channel_id, game_id=click.cid.game_id)
    await click.itx.response.defer(ephemeral=True, thinking=True)
    handler = LOBBY_BUTTONS.get(click.cid.arg)
    if handler is None:
        raise Refusal(tr("That button is not known; open a fresh lobby."))
    await handler(ctx, click)


async def ai_choice(ctx: Context, click: Click) -> None:
    """A level chosen in the AI seat menu (a robot takes a seat), or the last robot removed."""
    itx, channel_id = click.itx, click.channel_id
    await game(ctx, channel_id, game_id=click.cid.game_id)
    await itx.response.defer(ephemeral=True, thinking=True)
    if click.value == views.AI_REMOVE:
        await ctx.service.remove_ai(channel_id, itx.user.id, can_manage=can_manage(itx))
        await reply(itx, tr("The last AI seat was removed from the lobby."))
        return
    rec = await ctx.service.add_ai(channel_id, itx.user.id, click.value, can_manage=can_manage(itx))
    await reply(itx, tr("{name} took a seat in the lobby.", name=texts.name(rec.seats[-1].name)))


async def rematch(ctx: Context, click: Click) -> None:
    """Rematch under a game's final scores: a new lobby here, its players pinged to join."""
    itx = click.itx
    check_bot_permissions(itx)
    assert itx.guild_id is not None
    await itx.response.defer(ephemeral=True, thinking=True)
    _, invited = await ctx.service.rematch(
        itx.guild_id, click.channel_id, click.cid.game_id, itx.user.id, itx.user.display_name
    )
    who = ", ".join(texts.name(s.name) for s in invited)
    await reply(
        itx,
        trn(
            "Rematch lobby open, with you in the first seat; {who} was pinged to press "
            "**Join**. Press **Start** once the table is seated.",
            "Rematch lobby open, with you in the first seat; {who} were pinged to press "
            "**Join**. Press **Start** once the table is seated.",
            len(invited),
            who=who,
        )
        if who
        else tr(
            "Rematch lobby open, with you in the first seat. Press **Start** once the "
            "table is seated."
        ),
    )
