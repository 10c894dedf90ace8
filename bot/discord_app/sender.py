"""The outbox's `Sender` for Discord: posts and edits channel messages.

A message with pictures (a phase post) goes out as ONE Components V2 message: a container with
the text, a media gallery of the pictures (each with its alt text) and, for a "play" message,
the Play button. Messages without pictures (pings, lobbies, notices) stay classic messages, and
so does the fallback when the bot may not attach files (the text plus a note).

Mentions are limited to the users the message lists (never everyone, here or roles), pictures
carry their alt text, and the bot's permissions are checked before every post so a missing one
is named in the log instead of failing obscurely.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from typing import Any

import discord

from bot import i18n, texts
from bot.discord_app import ids, perms, views
from bot.i18n import N_, t, tr
from bot.outbox import DeliveryDelayed, DeliveryRefused, OutMessage

log = logging.getLogger(__name__)

ATTACH_FILES = "Attach Files"
NO_PICTURES = N_(
    "*(Pictures not attached: I'm missing the **Attach Files** permission in this channel. "
    "Ask a server admin to grant it; the game's `board` command shows the board privately "
    "meanwhile.)*"
)
V2_TEXT_MAX = 4000  # Discord: characters across all text displays of a V2 message
GALLERY_MAX = 10  # Discord: items in one media gallery
V2_REMEMBERED = 10_000  # message ids remembered as V2 (the oldest are forgotten first)
# Discord's refusal of `content`/`embeds` on a message carrying IS_COMPONENTS_V2 (the flag can
# never be removed): HTTP 400, JSON code 50035 "Invalid Form Body", with this code on the field,
# e.g. {"content": {"_errors": [{"code": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
# "message": "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"}]}}.
INVALID_FORM_BODY = 50035
V2_LEGACY_FIELDS = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def allowed_mentions(msg: OutMessage) -> discord.AllowedMentions:
    """Only the listed users may be pinged by this message."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(id=u) for u in msg.mention_user_ids],
        replied_user=False,
    )


def components(msg: OutMessage) -> discord.ui.View | None:
    with i18n.use(msg.locale):
        if msg.components is None or msg.game_id is None:
            return None
        version = msg.version or 0
        if msg.components == "play":
            return views.play_view(msg.game_id, version)
        if msg.components == "final":
            return views.final_view(msg.game_id, version)
        if msg.components == "reminder":
            return views.reminder_view(msg.game_id, version)
        return views.lobby_view(msg.game_id, version)


def button_rows(msg: OutMessage) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The message's buttons as action rows for a V2 layout (same custom ids as classic), at
    most 5 per row as Discord allows."""
    with i18n.use(msg.locale):
        if msg.components is None or msg.game_id is None:
            return []
        version = msg.version or 0
        if msg.components == "play":
            row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
            row.add_item(views.GameButton(ids.CustomId("play", msg.game_id, version), tr("Play")))
            return [row]
        classic = components(msg)
        assert classic is not None
        items = list(classic.children)
        rows = []
        for start in range(0, len(items), 5):
            row = discord.ui.ActionRow()
            for item in items[start : start + 5]:
                classic.remove_item(item)
                row.add_item(item)
            rows.append(row)
        return rows


def layout(msg: OutMessage, *, pictures: bool = True, note: str = "") -> discord.ui.LayoutView:
    """One Components V2 message: a container with the text, the pictures' gallery (alt text on
    each item) unless `pictures` is False, and the buttons (Play) inside the container."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container()
    text = msg.text + (f"\n{note}" if note else "")
    if text.strip():
        container.add_item(discord.ui.TextDisplay(texts.fit(text, V2_TEXT_MAX)))
    if pictures and msg.files:
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
        for f in msg.files[:GALLERY_MAX]:
            gallery.add_item(media=f"attachment://{f.filename}", description=f.description or None)
        container.add_item(gallery)
    for row in button_rows(msg):
        container.add_item(row)
    view.add_item(container)
    return view


def _error_codes(tree: Any) -> list[str]:
    """Every field error code in Discord's nested `errors` tree."""
    found: list[str] = []
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "_errors" and isinstance(value, list):
                found.extend(str(e.get("code")) for e in value if isinstance(e, dict))
            else:
                found.extend(_error_codes(value))
    return found


def is_v2_refusal(exc: discord.HTTPException) -> bool:
    """Whether Discord refused an edit only because the message is a Components V2 one."""
    if exc.status != 400 or exc.code != INVALID_FORM_BODY:
        return False
    # discord.py keeps the raw error tree only in this attribute; its `text` flattens the
    # messages (without the codes), which is the fallback.
    errors = getattr(exc, "_errors", None)
    if isinstance(errors, dict):
        return V2_LEGACY_FIELDS in _error_codes(errors)
    return "MessageFlags.IS_COMPONENTS_V2" in exc.text


def files(msg: OutMessage) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(f.data), filename=f.filename, description=f.description or None)
        for f in msg.files
    ]


class DiscordSender:
    """Implements `bot.outbox.Sender` over a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        # Messages this process posted or edited as V2: an edit keeps them V2 without first
        # trying (and failing) a classic edit. Lost on restart; `edit` copes with that.
        self._v2: OrderedDict[int, None] = OrderedDict()

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
        if msg.nonce is not None:
            kwargs["nonce"] = msg.nonce
        if msg.silent:
            kwargs["silent"] = True  # Discord's @silent: the mention shows, no notification
        args: tuple[str, ...] = ()
        v2 = bool(msg.files and with_files)
        if v2:
            # One Components V2 message: no content, the text lives in the layout.
            kwargs["view"] = layout(msg)
            kwargs["files"] = files(msg)
        else:
            view = components(msg)
            if view is not None:
                kwargs["view"] = view
            args = (
                texts.fit(f"{msg.text}\n{t(NO_PICTURES, msg.locale)}") if msg.files else msg.text,
            )
        try:
            message = await channel.send(*args, **kwargs)
        except discord.Forbidden as exc:
            raise DeliveryRefused(f"Discord refused the post: {exc}") from exc
        except discord.DiscordServerError as exc:
            raise DeliveryDelayed(f"Discord answered {exc.status}") from exc
        if v2:
            self._remember_v2(int(message.id))
        return int(message.id)

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        """Replace a message. With pictures it becomes (or stays) a V2 message. Without, a
        message known to be V2 (posted or edited as one by this process, or cached as one) is
        edited as a V2 layout, since Discord never lets the flag go; any other is edited as a
        classic one, and only if Discord refuses that because the message is V2 after all (a
        post from before a restart) is the same text written into a V2 layout instead."""
        channel = await self._channel(channel_id)
        with_files = self._check(channel, channel_id, msg)
        partial = channel.get_partial_message(message_id)
        note = t(NO_PICTURES, msg.locale) if msg.files and not with_files else ""
        mentions = allowed_mentions(msg)

        async def as_v2() -> None:
            await partial.edit(
                content=None,
                attachments=[],
                view=layout(msg, pictures=False, note=note),
                allowed_mentions=mentions,
            )

        try:
            if msg.files and with_files:
                await partial.edit(
                    content=None,
                    attachments=files(msg),
                    view=layout(msg),
                    allowed_mentions=mentions,
                )
                self._remember_v2(message_id)
            elif self._is_v2(message_id):
                await as_v2()
            else:
                text = texts.fit(f"{msg.text}\n{note}") if note else msg.text
                try:
                    await partial.edit(
                        content=text,
                        attachments=[],
                        view=components(msg),
                        allowed_mentions=mentions,
                    )
                except discord.HTTPException as exc:
                    if not is_v2_refusal(exc):
                        raise  # e.g. text over 2,000 characters: a real fault, not a V2 post
                    log.info("message %s is a V2 message: edited as one (%s)", message_id, exc)
                    await as_v2()
                    self._remember_v2(message_id)
        except discord.NotFound as exc:
            raise DeliveryRefused(f"message {message_id} was deleted: {exc}") from exc
        except discord.Forbidden as exc:
            raise DeliveryRefused(f"Discord refused the edit: {exc}") from exc
        except discord.DiscordServerError as exc:
            raise DeliveryDelayed(f"Discord answered {exc.status}") from exc

    def _remember_v2(self, message_id: int) -> None:
        self._v2[message_id] = None
        self._v2.move_to_end(message_id)
        while len(self._v2) > V2_REMEMBERED:
            self._v2.popitem(last=False)

    def _is_v2(self, message_id: int) -> bool:
        """Whether the message is known to carry IS_COMPONENTS_V2: this process posted or edited
        it as one, or discord.py's message cache holds it with the flag."""
        if message_id in self._v2:
            return True
        return any(
            m.id == message_id and m.flags.components_v2 for m in self.client.cached_messages
        )
