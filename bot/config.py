"""Settings from the environment (and `.env`), logging, and keeping the token out of every output.

The token must never be printed: not in a log line, not in a traceback, not in an error message.
`install_redaction` puts a filter on every logging handler and wraps `sys.excepthook`,
`threading.excepthook`, stdout and stderr, so even an exception whose text carries the token
(an HTTP error echoing a request, say) comes out with `[redacted]` in its place.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import sys
import threading
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

REDACTED = "[redacted]"
DEFAULT_DATABASE = "nauticus.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_LOBBY_IDLE_DAYS = 7.0


DEFAULT_AI_MOVE_DELAY = 3.0  # seconds: long enough for the channel to follow a robot's turn
DEFAULT_REMINDER_CHECK = 60.0  # seconds: a reminder a minute late is still on time


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    api_base: str | None = None  # tests only: a local fake Discord (loopback addresses only)
    lobby_idle_days: float = DEFAULT_LOBBY_IDLE_DAYS  # 0: lobbies are never closed for idling
    ai_move_delay: float = DEFAULT_AI_MOVE_DELAY  # seconds before each AI move is played
    ai_workers: int | None = None  # AI processes; None: one per core (at most 4)
    reminder_check: float = DEFAULT_REMINDER_CHECK  # seconds between looks for due reminders

    def __repr__(self) -> str:
        # A config in a traceback or a debug print must not carry the token.
        token = None if self.token is None else REDACTED
        return (
            f"Config(token={token!r}, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"api_base={self.api_base!r}, lobby_idle_days={self.lobby_idle_days!r}, "
            f"ai_move_delay={self.ai_move_delay!r}, ai_workers={self.ai_workers!r}, "
            f"reminder_check={self.reminder_check!r})"
        )

    __str__ = __repr__

    def require_token(self) -> str:
        """The Discord bot token.

        Raises:
            ConfigError: DISCORD_TOKEN is not set.
        """
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put it in a .env file in this folder (copy "
                ".env.example) or in the environment; get it from the Discord developer portal, "
                "Applications -> your app -> Bot -> Reset Token. To try the bot without a token, "
                "run `python -m bot offline --players 3 --seed 1 --out demo`."
            )
        return self.token


def load_dotenv_file(path: str | Path | None = None) -> None:
    """Load `.env` (from the working directory by default) without overriding the environment."""
    from dotenv import load_dotenv

    load_dotenv(dotenv_path=Path(path) if path is not None else Path.cwd() / ".env", override=False)


def load_config(env: Mapping[str, str] | None = None) -> Config:
    """Read the settings from `env` (default: os.environ).

    Raises:
        ConfigError: DEV_GUILD_ID is not a number or LOG_LEVEL is not a level name.
    """
    env = os.environ if env is None else env
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    db = (env.get("DATABASE_PATH") or "").strip() or DEFAULT_DATABASE
    guild_raw = (env.get("DEV_GUILD_ID") or "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(
                f"DEV_GUILD_ID must be a server id (digits only), not {quote(guild_raw, token)}; "
                "leave it empty to sync commands globally."
            )
        dev_guild = int(guild_raw)
    level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {quote(level, token)}."
        )
    api_base = (env.get("DISCORD_API_BASE") or "").strip() or None
    if api_base is not None:
        check_api_base(api_base, token)
    idle_raw = (env.get("LOBBY_IDLE_DAYS") or "").strip()
    lobby_idle = DEFAULT_LOBBY_IDLE_DAYS
    if idle_raw:
        try:
            lobby_idle = float(idle_raw)
        except ValueError:
            lobby_idle = -1.0
        if not 0 <= lobby_idle <= 3650:
            raise ConfigError(
                "LOBBY_IDLE_DAYS must be a number of days (e.g. 7 or 0.5), not "
                f"{quote(idle_raw, token)}; "
                "0 keeps idle lobbies open for ever."
            )
    delay_raw = (env.get("AI_MOVE_DELAY") or "").strip()
    delay = DEFAULT_AI_MOVE_DELAY
    if delay_raw:
        try:
            delay = float(delay_raw)
        except ValueError:
            delay = -1.0
        if not 0 <= delay <= 600:
            raise ConfigError(
                f"AI_MOVE_DELAY must be a number of seconds from 0 to 600 (e.g. 3), not "
                f"{quote(delay_raw, token)}."
            )
    workers_raw = (env.get("AI_WORKERS") or "").strip()
    workers: int | None = None
    if workers_raw:
        if not workers_raw.isdigit() or not 1 <= int(workers_raw) <= 32:
            raise ConfigError(
                f"AI_WORKERS must be a number of processes from 1 to 32, not "
                f"{quote(workers_raw, token)}; leave it empty for one per core."
            )
        workers = int(workers_raw)
    check_raw = (env.get("REMINDER_CHECK_SECONDS") or "").strip()
    check = DEFAULT_REMINDER_CHECK
    if check_raw:
        try:
            check = float(check_raw)
        except ValueError:
            check = -1.0
        if not 1 <= check <= 3600:
            raise ConfigError(
                "REMINDER_CHECK_SECONDS must be a number of seconds from 1 to 3600 (e.g. 60), "
                f"not {quote(check_raw, token)}."
            )
    return Config(
        token=token,
        database_path=Path(db),
        dev_guild_id=dev_guild,
        log_level=level,
        api_base=api_base,
        lobby_idle_days=lobby_idle,
        ai_move_delay=delay,
        ai_workers=workers,
        reminder_check=check,
    )


# A run this long of token characters is no setting's plain value (a server id has about 19
# digits); it may be a token or one of its parts, pasted into the wrong line of `.env`.
_SECRETISH = re.compile(r"[A-Za-z0-9_\-]{24,}")


def quote(value: str, token: str | None = None) -> str:
    """A setting's value as an error message quotes it: the token (in any letter case, even
    pasted into another setting) and anything shaped like one replaced by `[redacted]`.

    Config errors are printed before `install_redaction` runs, so they redact themselves.
    """
    for secret in [*Redactor([token] if token else []).secrets, *_redactor.secrets]:
        value = re.sub(re.escape(secret), REDACTED, value, flags=re.IGNORECASE)
    return repr(_SECRETISH.sub(REDACTED, value))


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_api_base(url: str, token: str | None = None) -> str:
    """Validate DISCORD_API_BASE: `http(s)://host:port` on a loopback address, nothing else.

    It exists so tests can run the real bot against a local fake Discord; refusing any other
    host means a mistyped setting can never send the token to another machine.

    Raises:
        ConfigError: the URL is not a bare loopback http(s) origin.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"DISCORD_API_BASE must be an http(s) URL, not {quote(url, token)}.")
    if not _is_loopback(parts.hostname):
        raise ConfigError(
            f"DISCORD_API_BASE must point at a loopback address (it is for tests against a "
            f"local fake Discord), not {quote(parts.hostname, token)}. Leave it unset to use "
            "Discord."
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ConfigError(
            f"DISCORD_API_BASE must be scheme://host:port only, not {quote(url, token)}."
        )
    return f"{parts.scheme}://{parts.netloc}"


# --- redaction -------------------------------------------------------------------------------


class Redactor:
    """Replaces each secret (and nothing else) in text."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        self.secrets: list[str] = []
        for s in secrets or []:
            self.add(s)

    def add(self, secret: str | None) -> None:
        # Very short values would redact ordinary words; real tokens are ~70 characters.
        if secret and len(secret) >= 8 and secret not in self.secrets:
            self.secrets.append(secret)
            # A token's parts (id.timestamp.hmac) can show up alone, e.g. the base64 user id.
            for part in secret.split("."):
                if len(part) >= 16 and part not in self.secrets:
                    self.secrets.append(part)
            self.secrets.sort(key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, REDACTED)
        return text


class RedactingFilter(logging.Filter):
    """Formats a record's message and traceback now, with the secrets replaced."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self.redact = redact

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what we have, still redacted
            message = str(record.msg)
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info and record.exc_info[0] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self.redact(text)
            # The formatter prints exc_text when set; dropping exc_info stops it re-rendering
            # the raw traceback in handlers that format it themselves.
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class RedactingStream:
    """A text stream wrapper that redacts every write (print, warnings, stray tracebacks)."""

    def __init__(self, stream: TextIO, redact: Redactor) -> None:
        self._stream = stream
        self._redact = redact

    def write(self, text: str) -> int:
        self._stream.write(self._redact(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


_redactor = Redactor()
_filter = RedactingFilter(_redactor)


def redactor() -> Redactor:
    return _redactor


def install_redaction(*secrets: str | None) -> Redactor:
    """Keep `secrets` out of logs, tracebacks, stdout and stderr from now on."""
    for s in secrets:
        _redactor.add(s)
    if not isinstance(sys.stdout, RedactingStream):
        sys.stdout = RedactingStream(sys.stdout, _redactor)
    if not isinstance(sys.stderr, RedactingStream):
        sys.stderr = RedactingStream(sys.stderr, _redactor)

    def excepthook(
        etype: type[BaseException], value: BaseException, tb: types.TracebackType | None
    ) -> None:
        import traceback

        text = "".join(traceback.format_exception(etype, value, tb))
        sys.stderr.write(_redactor(text))

    sys.excepthook = excepthook

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is not None:
            excepthook(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback)

    threading.excepthook = thread_hook
    for handler in logging.getLogger().handlers:
        if _filter not in handler.filters:
            handler.addFilter(_filter)
    return _redactor


def _no_voice_warning(record: logging.LogRecord) -> bool:
    # The bot never joins voice; "PyNaCl is not installed" would only worry an admin.
    return "voice will NOT be supported" not in record.getMessage()


def setup_logging(level: str) -> None:
    """Log to stderr at `level`, every handler behind the redacting filter."""
    root = logging.getLogger()
    root.setLevel(level)
    if not root.handlers:
        handler: logging.Handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    for handler in root.handlers:
        if _filter not in handler.filters:
            handler.addFilter(_filter)
    logging.getLogger("discord.client").addFilter(_no_voice_warning)
    # aiosqlite logs every statement at DEBUG: noise, and slow at our rate of statements.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, root.level))


def apply_api_base(api_base: str) -> str:
    """Send discord.py's REST and gateway traffic to a local fake Discord (tests only).

    discord.py has no base-URL option: REST routes come from `Route.BASE` and the first gateway
    connection from `DiscordWebSocket.DEFAULT_GATEWAY`, both class attributes (so process-wide).
    Returns the checked origin.

    Raises:
        ConfigError: the URL is not a bare loopback http(s) origin (nothing is changed then).
    """
    import discord.gateway
    import discord.http
    import yarl

    root = check_api_base(api_base)
    ws = "wss" if root.startswith("https:") else "ws"
    discord.http.Route.BASE = f"{root}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}://{root.split('://')[1]}/")
    return root
