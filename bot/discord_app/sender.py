"""The outbox's `Sender` for Discord: posts and edits channel messages.

Mentions are limited to the users the message lists (never everyone, here or roles), pictures
carry their alt text, and the bot's permissions are checked before every post so a missing one
is named in the log instead of failing obscurely.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot import texts
from bot.discord_app import perms, views
from bot.outbox import DeliveryDelayed, DeliveryRefused, OutMessage

log = logging.getLogger(__name__)

ATTACH_FILES = "Attach Files"
NO_PICTURES = (
    "*(Pictures not attached: I'm missing the **Attach Files** permission in this channel. "
    "Ask a server admin to grant it; `/nauticus board` shows the board privately meanwhile.)*"
)


def allowed_mentions(msg: OutMessage) -> discord.AllowedMentions:
    """Only the listed users may be pinged by this message."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(id=u) for u in msg.mention_user_ids],
        replied_user=False,
    )


def components(msg: OutMessage) -> discord.ui.View | None:
    if msg.components is None or msg.game_id is None:
        return None
    version = msg.version or 0
    if msg.components == "play":
        return views.play_view(msg.game_id, version)
    return views.lobby_view(msg.game_id, version)


def files(msg: OutMessage) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(f.data), filename=f.filename, description=f.description or None)
        for f in msg.files
    ]


class DiscordSender:
    """Implements `bot.outbox.Sender` over a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden) as exc:
                raise DeliveryRefused(f"channel {channel_id} is gone or hidden: {exc}") from exc
        return channel

    def _check(self, channel: Any, channel_id: int, msg: OutMessage) -> bool:
        """Refuse (with the permission's name) before Discord would; False = post no files.

        Without Attach Files alone, a post with pictures still goes out as text with a note,
        so a phase summary is never lost for want of its pictures.
        """
        guild = getattr(channel, "guild", None)
        me = getattr(guild, "me", None)
        if me is None:
            return True  # not cached (no member intent): Discord itself will say Forbidden
        lacking = perms.missing(
            channel.permissions_for(me), in_thread=isinstance(channel, discord.Thread)
        )
        no_files = ATTACH_FILES in lacking
        lacking = [n for n in lacking if n != ATTACH_FILES]  # only posts with pictures need it
        if no_files and msg.files and not lacking:
            log.warning(
                "posting without pictures in channel %s: missing permission %s",
                channel_id,
                ATTACH_FILES,
            )
            return False
        if lacking:
            log.warning(
                "cannot post in channel %s: missing permission(s) %s",
                channel_id,
                ", ".join(lacking),
            )
            raise DeliveryRefused(f"missing permission(s): {', '.join(lacking)}")
        return True

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        channel = await self._channel(channel_id)
        with_files = self._check(channel, channel_id, msg)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(msg)}
        view = components(msg)
        if view is not None:
            kwargs["view"] = view
        text = msg.text
        if msg.files and with_files:
            kwargs["files"] = files(msg)
        elif msg.files:
            text = texts.fit(f"{text}\n{NO_PICTURES}")
        if msg.nonce is not None:
            kwargs["nonce"] = msg.nonce
        try:
            message = await channel.send(text, **kwargs)
        except discord.Forbidden as exc:
            raise DeliveryRefused(f"Discord refused the post: {exc}") from exc
        except discord.DiscordServerError as exc:
            raise DeliveryDelayed(f"Discord answered {exc.status}") from exc
        return int(message.id)

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        channel = await self._channel(channel_id)
        with_files = self._check(channel, channel_id, msg)
        partial = channel.get_partial_message(message_id)
        text = msg.text if with_files or not msg.files else texts.fit(f"{msg.text}\n{NO_PICTURES}")
        try:
            await partial.edit(
                content=text,
                attachments=files(msg) if with_files else [],
                view=components(msg),
                allowed_mentions=allowed_mentions(msg),
            )
        except discord.NotFound as exc:
            raise DeliveryRefused(f"message {message_id} was deleted: {exc}") from exc
        except discord.Forbidden as exc:
            raise DeliveryRefused(f"Discord refused the edit: {exc}") from exc
        except discord.DiscordServerError as exc:
            raise DeliveryDelayed(f"Discord answered {exc.status}") from exc
