"""The channel permissions the bot needs to run a game, named as Discord's settings name them."""

from __future__ import annotations

import discord

NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
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
    listed = ", ".join(f"**{n}**" for n in names)
    return (
        f"I can't run a game here: I'm missing the {listed} permission"
        f"{'s' if len(names) > 1 else ''} in this channel. Ask a server admin to grant "
        "them to the bot (channel settings → Permissions), then try again."
    )
