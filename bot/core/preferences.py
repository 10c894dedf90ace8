"""Preferences: a member's quiet hours and reminders, the server's and a game's reminder
interval, and a game's language."""

from __future__ import annotations

from dataclasses import replace

from bot import i18n, reminders, texts
from bot.core.errors import (
    ServiceError,
)
from bot.core.game import (
    GameRecord,
    checked,
)
from bot.core.kernel import Kernel, check_may_manage
from bot.core.posts import Posts
from bot.i18n import tr
from bot.store import (
    UserSettings,
)


def _check_hours(hours: int | None) -> None:
    if hours is not None and hours not in reminders.INTERVALS.values():
        raise reminders.SettingError(
            tr(
                "Reminders can be {choices} (or the default).",
                choices=", ".join(reminders.INTERVALS),
            )
        )


class Preferences:
    def __init__(self, k: Kernel, posts: Posts) -> None:
        self.k, self.posts = k, posts

    async def settings(self, guild_id: int, user_id: int) -> tuple[UserSettings, int | None]:
        """A member's own settings on this server, and the server's reminder interval."""
        checked(guild_id, user_id)
        async with self.k.store.read() as tx:
            return await tx.user_settings(guild_id, user_id), await tx.guild_reminders(guild_id)

    async def set_quiet(
        self, guild_id: int, user_id: int, start: str | None, end: str | None, zone: str | None
    ) -> UserSettings:
        """Set (all three given) or clear (all None) a member's quiet hours on this server.

        Raises:
            SettingError: a time that is not HH:MM, an unknown time zone, start == end.
        """
        checked(guild_id, user_id)
        if start is None and end is None and zone is None:
            values: tuple[str | None, str | None, str | None] = (None, None, None)
        else:
            if start is None or end is None or zone is None:
                raise reminders.SettingError(tr("Give all three: from, to and timezone."))
            a, b = reminders.parse_clock(start), reminders.parse_clock(end)
            if a == b:
                raise reminders.SettingError(
                    tr("Quiet hours must start and end at different times (e.g. 22:00 to 08:00).")
                )
            values = (f"{a:%H:%M}", f"{b:%H:%M}", reminders.check_timezone(zone))
        async with self.k.store.write() as tx:
            old = await tx.user_settings(guild_id, user_id)
            new = replace(old, quiet_from=values[0], quiet_to=values[1], timezone=values[2])
            await tx.set_user_settings(guild_id, user_id, new)
        return new

    async def set_my_reminders(self, guild_id: int, user_id: int, hours: int | None) -> None:
        """A member's own reminder interval on this server (None: as the game or server says)."""
        checked(guild_id, user_id)
        _check_hours(hours)
        async with self.k.store.write() as tx:
            old = await tx.user_settings(guild_id, user_id)
            await tx.set_user_settings(guild_id, user_id, replace(old, reminder_hours=hours))

    async def set_server_reminders(self, guild_id: int, hours: int | None) -> None:
        """The server's default reminder interval (the caller checked Manage Server)."""
        checked(guild_id)
        _check_hours(hours)
        async with self.k.store.write() as tx:
            await tx.set_guild_reminders(guild_id, hours)

    async def set_game_reminders(
        self, channel_id: int, user_id: int, hours: int | None, *, can_manage: bool
    ) -> GameRecord:
        """The reminder interval of this channel's game (host or Manage Channels); players'
        own settings still come first. Applies from the next turn ping.

        Raises:
            NoGame, NotAllowed, SettingError.
        """
        checked(channel_id, user_id)
        _check_hours(hours)
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("set the game's reminders"))
            await tx.set_game_reminders(row.id, hours)
            rec = await self.k.reload(tx, row.id)
        self.k.forget(channel_id)
        return rec

    async def set_language(
        self, channel_id: int, user_id: int, locale: str, *, can_manage: bool
    ) -> GameRecord:
        """The language of this channel's lobby or game (host or Manage Channels): its posts
        and buttons from now on; what was posted stays as it was.

        Raises:
            NoGame, NotAllowed, ServiceError (a language the bot does not speak).
        """
        checked(channel_id, user_id)
        if locale not in i18n.LOCALES:
            raise ServiceError(
                tr(
                    "The bot speaks {languages}, not {asked}.",
                    languages=", ".join(i18n.LOCALES),
                    asked=texts.quoted(str(locale))[:20],
                ),
                code="bad_language",
            )
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("set the game's language"))
            await tx.set_game_locale(row.id, locale)
            rec = await self.k.reload(tx, row.id)
            if rec.status == "lobby":
                await self.posts.lobby_edit(tx, rec, "lobby")  # the lobby post, in its new language
        self.k.forget(channel_id)
        self.k.kick()
        return rec
