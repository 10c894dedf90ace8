"""Settings and reminders: `/settings …` (a member's own, and the server's), a game's reminders
and language (`/games reminders|language`), and a reminder's Snooze button."""

from __future__ import annotations

from bot import i18n, reminders, texts
from bot.discord_app.handlers.common import Call, Click, Context, Refusal, can_manage, reply
from bot.i18n import tr


def _interval(choice: str) -> int | None:
    """A reminder interval choice ("default", "off", "12h", …) as stored hours."""
    if choice == "default":
        return None
    if choice not in reminders.INTERVALS:
        raise Refusal(
            tr(
                "Reminders can be default, {choices}; not {value}.",
                choices=", ".join(reminders.INTERVALS),
                value=texts.quoted(choice)[:20],
            )
        )
    return reminders.INTERVALS[choice]


async def quiet(ctx: Context, call: Call) -> None:
    """`/settings quiet`: hours without notifications or reminders, in the member's time."""
    itx, options = call.itx, call.options
    assert itx.guild_id is not None
    s = await ctx.service.set_quiet(
        itx.guild_id,
        itx.user.id,
        options.get("start"),
        options.get("end"),
        options.get("timezone"),
    )
    hours = reminders.quiet_of(s.quiet_from, s.quiet_to, s.timezone)
    assert hours is not None
    await reply(
        itx,
        tr(
            "🌙 Quiet hours set: {hours}. Inside them your turn pings come without "
            "a notification and reminders wait for the end of them.",
            hours=hours.label(),
        ),
    )


async def quiet_off(ctx: Context, call: Call) -> None:
    """`/settings quiet-off`."""
    itx = call.itx
    assert itx.guild_id is not None
    await ctx.service.set_quiet(itx.guild_id, itx.user.id, None, None, None)
    await reply(itx, tr("Quiet hours off: pings and reminders come at any time."))


async def my_reminders(ctx: Context, call: Call) -> None:
    """`/settings reminders`: the member's own interval in every game on this server."""
    itx = call.itx
    assert itx.guild_id is not None
    hours = _interval(str(call.options.get("every", "")))
    await ctx.service.set_my_reminders(itx.guild_id, itx.user.id, hours)
    if hours is None:
        await reply(itx, tr("Your reminders follow the game's (or the server's) setting again."))
        return
    await reply(
        itx,
        tr(
            "Your reminders in every game on this server: {every}.",
            every=reminders.interval_label(hours),
        ),
    )


async def server_reminders(ctx: Context, call: Call) -> None:
    """`/settings server-reminders`: the server's default (Manage Server)."""
    itx = call.itx
    assert itx.guild_id is not None
    if not itx.permissions.manage_guild:
        raise Refusal(
            tr(
                "Only members with Manage Server can set the server's reminders; your own "
                "are `/settings reminders`."
            )
        )
    hours = _interval(str(call.options.get("every", "")))
    await ctx.service.set_server_reminders(itx.guild_id, hours)
    await reply(
        itx,
        tr(
            "Reminders on this server by default: {every}.",
            every=reminders.interval_label(hours),
        ),
    )


async def show(ctx: Context, call: Call) -> None:
    """`/settings show`: the member's settings, the server's, and the game's here."""
    itx = call.itx
    assert itx.guild_id is not None
    mine, server = await ctx.service.settings(itx.guild_id, itx.user.id)
    quiet_hours = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
    lines = [
        tr("**Your settings on this server**"),
        tr("Reminders: {every} (yours)", every=reminders.interval_label(mine.reminder_hours))
        if mine.reminder_hours is not None
        else tr("Reminders: as the game's host or the server set them"),
        tr("Quiet hours: {hours}", hours=quiet_hours.label())
        if quiet_hours
        else tr("Quiet hours: none (`/settings quiet`)"),
        tr("Server default reminders: {every}", every=reminders.interval_label(server)),
    ]
    rec = await ctx.service.game_in(call.channel_id)
    if rec is not None and rec.reminder_hours is not None:
        lines.append(
            tr(
                "The game here: reminders {every} (set by its host)",
                every=reminders.interval_label(rec.reminder_hours),
            )
        )
    await reply(itx, "\n".join(lines))


async def game_reminders(ctx: Context, call: Call) -> None:
    """`/games reminders`: the interval of the game here (host or Manage Channels)."""
    itx = call.itx
    hours = _interval(str(call.options.get("every", "")))
    await ctx.service.set_game_reminders(
        call.channel_id, itx.user.id, hours, can_manage=can_manage(itx)
    )
    await reply(
        itx,
        tr(
            "Reminders in this game: {every}, from the next turn "
            "(players' own `/settings reminders` come first).",
            every=reminders.interval_label(hours),
        ),
    )


async def language(ctx: Context, call: Call) -> None:
    """`/games language`: the language the game here posts in (host or Manage Channels)."""
    itx = call.itx
    lang = str(call.options.get("lang", ""))
    await ctx.service.set_language(call.channel_id, itx.user.id, lang, can_manage=can_manage(itx))
    await reply(
        itx,
        tr("The game here now posts in English.")
        if lang == i18n.ENGLISH
        else tr("The game here now posts in French."),
    )


async def snooze(ctx: Context, click: Click) -> None:
    """A reminder's Snooze button: no reminder for the next hours."""
    when = await ctx.service.snooze(click.channel_id, click.itx.user.id)
    await reply(
        click.itx,
        tr(
            "😴 Snoozed: no reminder before <t:{ts}:t> (<t:{ts}:R>).",
            ts=int(when.timestamp()),
        ),
    )
