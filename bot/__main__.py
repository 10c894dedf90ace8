"""`python -m bot [run]`: the Discord bot; `offline`: a whole game into a folder; `check`: replay.

Exit status: 0 fine, 1 a check found problems or the bot stopped on an error, 2 a setting is
missing or wrong (DISCORD_TOKEN unset, say), 3 Discord rejected the token.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import (
    Config,
    ConfigError,
    check_api_base,
    install_redaction,
    load_config,
    load_dotenv_file,
    setup_logging,
)

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_CONFIG = 2
EXIT_TOKEN_REJECTED = 3


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="The Nauticus Discord bot.")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord and serve games (the default)")
    off = sub.add_parser(
        "offline", help="play a whole game with random players into a folder (no token needed)"
    )
    off.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    off.add_argument("--seed", type=int, default=1)
    off.add_argument("--out", type=Path, default=Path("demo"))
    off.add_argument(
        "--no-pictures", action="store_true", help="write the transcript without drawing"
    )
    sub.add_parser("check", help="replay every stored game against its move log")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "run"
    if command == "offline":
        return _offline(args)
    load_dotenv_file()
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    # Before anything can log or fail: from here on the token is replaced in every output.
    install_redaction(config.token)
    setup_logging(config.log_level)
    if command == "check":
        return asyncio.run(_check(config))
    try:
        config.require_token()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    return _run(config)


def _run(config: Config) -> int:
    import aiohttp
    import discord

    try:
        asyncio.run(_serve(config))
    except discord.LoginFailure:
        log.debug("login failed", exc_info=True)
        print(
            "error: Discord rejected DISCORD_TOKEN (login failed). Copy the token again from "
            "the developer portal (Applications -> your app -> Bot -> Reset Token) into .env.",
            file=sys.stderr,
        )
        return EXIT_TOKEN_REJECTED
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused an intent this bot should not ask for", exc_info=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_OK
    except (OSError, aiohttp.ClientError) as exc:
        log.debug("connection failed", exc_info=True)
        print(
            f"error: could not reach Discord ({type(exc).__name__}: {exc}). Check the network "
            "connection; set LOG_LEVEL=DEBUG for details.",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except Exception:
        log.critical("the bot stopped on an error", exc_info=True)
        return EXIT_ERROR
    return EXIT_OK


def _point_at(api_base: str) -> None:
    """Send discord.py's REST and gateway traffic to a local fake Discord (tests only).

    discord.py has no base-URL option: REST routes come from `Route.BASE` and the first gateway
    connection from `DiscordWebSocket.DEFAULT_GATEWAY`, both class attributes.
    """
    import discord.gateway
    import discord.http
    import yarl

    root = check_api_base(api_base)
    ws = "wss" if root.startswith("https:") else "ws"
    discord.http.Route.BASE = f"{root}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}://{root.split('://')[1]}/")
    log.warning("DISCORD_API_BASE is set: talking to %s, not to Discord", root)


async def _serve(config: Config) -> None:
    from bot.discord_app.client import create_client
    from bot.store import Store

    token = config.require_token()
    if config.api_base:
        _point_at(config.api_base)
    store = await Store.open(config.database_path)
    try:
        client = create_client(config=config, store=store)
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            # SIGTERM (systemd stop, docker stop) closes the connection and the database cleanly.
            loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(client.close()))
        async with client:
            await client.start(token)
    finally:
        await store.close()


async def _check(config: Config) -> int:
    from bot.service import GameService
    from bot.store import Store

    store = await Store.open(config.database_path)
    try:
        problems = await GameService(store).check_all()
    finally:
        await store.close()
    for game_id, problem in problems:
        print(f"game {game_id}: {problem}")
    print(f"{len(problems)} problem(s) in {config.database_path}")
    return EXIT_ERROR if problems else EXIT_OK


def _offline(args: argparse.Namespace) -> int:
    from bot.offline import run_offline, summary

    result = asyncio.run(
        run_offline(args.players, args.seed, args.out, pictures=not args.no_pictures)
    )
    print(summary(result))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
