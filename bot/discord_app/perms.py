"""The channel permissions the bot needs to run a game, named as Discord's settings name them."""

from __future__ import annotations

import discord

from bot.i18n import N_, tr, trn

# English as Discord's settings show them; `refusal` says them as the member's Discord does.
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
)


def missing(perms: discord.Permissions, *, in_thread: bool) -> list[str]:
    """Names of the permissions the bot lacks in a channel (or thread) with these permissions."""
    out = []
    for attr, label in NEEDED:
        if attr == ("send_messages" if in_thread else "send_messages_in_threads"):
            continue  # a thread needs only the thread permission, a channel only the other
        if not getattr(perms, attr):
            out.append(label)
    return out


def refusal(names: list[str]) -> str:
    """The reply when the bot lacks permissions here."""
    listed = ", ".join(f"**{tr(n)}**" for n in names)
    return trn(
        "I can't run a game here: I'm missing the {listed} permission in this channel. Ask a "
        "server admin to grant it to the bot (channel settings → Permissions), then try again.",
        "I can't run a game here: I'm missing the {listed} permissions in this channel. Ask a "
        "server admin to grant them to the bot (channel settings → Permissions), then try again.",
        len(names),
        listed=listed,
    )
