"""Point discord.py at a local fake Discord, through the bot's own DISCORD_API_BASE code.

discord.py has no base-URL option: every REST route is built from the class attribute
`discord.http.Route.BASE`, and a plain `Client` opens its first gateway connection at the class
attribute `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` (reconnects then go to READY's
`resume_gateway_url`). Both are process-wide, hence one bot process per fake. The probe bot and
these tests use the very function the bot runs, so what is tested is the product's code.
"""

from __future__ import annotations

from bot.config import ConfigError
from bot.config import apply_api_base as _apply


def apply_api_base(url: str) -> None:
    """Send all of discord.py's REST and gateway traffic to `url` (e.g. http://127.0.0.1:PORT).

    Raises:
        ValueError: `url` is not a bare loopback http(s) origin; nothing was changed.
    """
    try:
        _apply(url)
    except ConfigError as exc:
        raise ValueError(str(exc)) from exc
