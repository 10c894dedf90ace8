"""Point discord.py at a local fake Discord — the mechanism the bot's DISCORD_API_BASE setting uses.

discord.py has no base-URL option: every REST route is built from the class attribute
`discord.http.Route.BASE`, and a plain `Client` opens its first gateway connection at the class
attribute `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` (reconnects then go to READY's
`resume_gateway_url`). Both are process-wide, hence one bot process per fake.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import discord.gateway
import discord.http
import yarl

LOOPBACK_NAMES = {"localhost"}


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def apply_api_base(url: str) -> None:
    """Send all of discord.py's REST and gateway traffic to `url` (e.g. http://127.0.0.1:PORT).

    Refuses any host that is not loopback, so a mistyped setting can never hand the bot token to
    another machine. Must run before `Client.login`/`Client.start`.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"DISCORD_API_BASE must be an http(s) URL, got {url!r}")
    if not is_loopback(parts.hostname):
        raise ValueError(
            f"DISCORD_API_BASE must point at a loopback address, got {parts.hostname!r}"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"DISCORD_API_BASE must be scheme://host:port only, got {url!r}")
    root = f"{parts.scheme}://{parts.netloc}"
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    discord.http.Route.BASE = f"{root}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws_scheme}://{parts.netloc}/")
