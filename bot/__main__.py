"""`python -m bot [run]`: the Discord bot; `offline`: a whole game into a folder; `replay FILE`:
a game record played again into a folder; `export`: a stored game's record into a file (reads
only); `check`: replay; `backup PATH` / `restore PATH`: copy the database out (live) / back in
(bot stopped).

Exit status: 0 fine, 1 a check found problems, an admin command was refused or the bot stopped
on an error, 2 a setting is missing or wrong (DISCORD_TOKEN unset, say), 3 Discord rejected the
token.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import (
    Config,
    ConfigError,
    apply_api_base,
    install_redaction,
    load_config,
    load_dotenv_file,
    setup_logging,
)
from bot.ops import OpsError, RunLock, StopSignal, backup, restore

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_CONFIG = 2
EXIT_TOKEN_REJECTED = 3
# `offline` without --ai or --random: every seat this AI level, so the demo is a game worth
# reading; easy, because normal takes minutes for a whole 3-player game.
DEMO_AI = "easy"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot", description="The Discord bot for Nauticus and the Nautilus games."
    )
    sub = p.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord and serve games (the default)")
    off = sub.add_parser(
        "offline",
        help="play a whole game into a folder, every seat an AI by default (no token needed)",
    )
    off.add_argument(
        "--game", default="nauticus", help="which installed game (nauticus, island, duel, …)"
    )
    off.add_argument(
        "--players", type=int, default=None, help="seats (default: 3, or the game's only count)"
    )
    off.add_argument("--seed", type=int, default=1)
    off.add_argument("--out", type=Path, default=Path("demo"))
    off.add_argument(
        "--no-pictures", action="store_true", help="write the transcript without drawing"
    )
    off.add_argument(
        "--lang",
        choices=("en", "fr"),
        default="en",
        help="the game's language: its posts, panels and hands (en, fr)",
    )
    seats = off.add_mutually_exclusive_group()
    seats.add_argument(
        "--ai",
        default=None,
        help="AI levels seat by seat, e.g. normal,normal,easy (easy, normal, hard; 'random' for "
        f"a random player); the seats played by the AI are robots. Default: {DEMO_AI} on every "
        "seat",
    )
    seats.add_argument(
        "--random",
        action="store_true",
        help="seeded random legal moves on every seat instead of the AI (fastest)",
    )
    rp = sub.add_parser(
        "replay",
        help="play a game record (from /games export) again: its transcript and every picture",
    )
    rp.add_argument("file", type=Path, help="the record (a .json file)")
    rp.add_argument("--out", type=Path, default=Path("replay"), help="the folder to write into")
    ex = sub.add_parser(
        "export",
        help="write a stored game's record (as /games export gives it) to a file, for `replay`",
        description="Write the record of a game stored in DATABASE_PATH to a file, reading the "
        "database only (safe while the bot is running). A finished game's record is complete "
        "(seed and moves: `python -m bot replay FILE` plays it again); a game in progress gives "
        "only what the table sees.",
    )
    # Ids are read as text and checked here, so a bad one is refused in one `error:` line.
    ex.add_argument(
        "--channel", metavar="ID", help="the channel's id: its game in progress, else its latest"
    )
    ex.add_argument("--game", metavar="ID", help="the game's id (with --channel: of that channel)")
    ex.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help="the file to write (never overwritten; default: GAME-game-ID.json here)",
    )
    sub.add_parser("check", help="replay every stored game against its move log")
    rt = sub.add_parser("ratings", help="recompute every result and rating from the finished games")
    rt.add_argument(
        "--rebuild",
        action="store_true",
        required=True,
        help="forget the stored results and ratings and compute them again from the games",
    )
    bk = sub.add_parser(
        "backup", help="copy the database to a new file (safe while the bot is running)"
    )
    bk.add_argument("path", type=Path, help="the backup file to create (never overwritten)")
    rs = sub.add_parser(
        "restore", help="replace the database with a backup (refused while the bot is running)"
    )
    rs.add_argument("path", type=Path, help="the backup file to restore from")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "run"
    from bot.games import load_extra

    try:
        load_extra()  # BOT_EXTRA_GAMES: plugins installed beside the built-in games
    except (ImportError, ValueError) as exc:
        print(f"error: BOT_EXTRA_GAMES: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if command == "offline":
        return _offline(args)
    if command == "replay":
        return _replay(args.file, args.out)
    load_dotenv_file()
    # Before a setting can be quoted in an error: the token as set, whatever else is wrong.
    install_redaction(os.environ.get("DISCORD_TOKEN", "").strip() or None)
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    # Before anything can log or fail: from here on the token is replaced in every output.
    install_redaction(config.token)
    setup_logging(config.log_level)
    if command == "export":
        return asyncio.run(_export(config, args.channel, args.game, args.out))
    if command in ("run", "check", "backup", "ratings", "restore") and not _folder_ok(
        config.database_path
    ):
        return EXIT_CONFIG
    if command in ("run", "check", "backup", "ratings") and not _database_ok(config.database_path):
        return EXIT_CONFIG
    if command == "check":
        return asyncio.run(_check(config))
    if command == "ratings":
        return asyncio.run(_rebuild_ratings(config))
    if command in ("backup", "restore"):
        return _backup_or_restore(command, config, args.path)
    try:
        config.require_token()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    return _run(config)


def _folder_ok(path: Path) -> bool:
    """False (after one plain `error:` line) when DATABASE_PATH's folder does not exist.

    Creating it would hide a mistyped path behind a new, empty database in a new folder; a new
    database in an existing folder is still created (with a WARNING, see `_serve`)."""
    folder = path.absolute().parent  # absolute, not resolved: the folder as the admin wrote it
    if folder.is_dir():
        return True
    what = "is not a folder" if folder.exists() else "does not exist"
    print(
        f"error: the folder {folder} of DATABASE_PATH ({path}) {what}; nothing was created. "
        f"Create the folder (`mkdir -p {folder}`) or, if the path is mistyped, fix "
        "DATABASE_PATH.",
        file=sys.stderr,
    )
    return False


def _database_ok(path: Path) -> bool:
    """False (after one plain `error:` line) when DATABASE_PATH is not a healthy bot database."""
    from bot.store import StoreError, verify_file

    try:
        verify_file(path)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return False
    return True


def _run(config: Config) -> int:
    # Held until the process ends: `restore` and a second bot refuse while it is held. Taken
    # before discord.py is imported, so a second bot started by mistake is told so at once.
    lock = RunLock(config.database_path)
    try:
        lock.acquire()
    except OpsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        return _run_locked(config, lock)
    finally:
        lock.release()


def _run_locked(config: Config, lock: RunLock) -> int:
    import aiohttp
    import discord

    from bot import i18n
    from bot.store import StoreError

    # Every catalogue is read now: a broken one is logged (ERROR) at start rather than at the
    # first move in its language, and the bot runs on (those texts are shown in English).
    for locale in i18n.TRANSLATED:
        i18n.catalogue(locale)
    try:
        asyncio.run(_serve(config, lock))
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
    except OpsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
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


async def _serve(config: Config, lock: RunLock) -> None:
    from bot.discord_app.client import create_client
    from bot.store import Store

    token = config.require_token()
    if config.api_base:
        root = apply_api_base(config.api_base)
        log.warning("DISCORD_API_BASE is set: talking to %s, not to Discord", root)
    existed = config.database_path.exists()
    store = await Store.open(config.database_path)
    if not existed:
        # A mistyped DATABASE_PATH would otherwise start quietly with no games at all.
        log.warning(
            "created a new empty database at %s (DATABASE_PATH); if your games are "
            "elsewhere, stop the bot and fix DATABASE_PATH",
            config.database_path.resolve(),
        )
    try:
        # A new database has just been created: now the file itself can be locked too.
        lock.hold_database()
        client = create_client(config=config, store=store)
        stop = StopSignal()
        stop.install()
        async with client:
            running = asyncio.create_task(client.start(token), name="discord")
            stopping = asyncio.create_task(stop.wait(), name="stop-signal")
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stopping.done():
                # Moves in progress commit, new ones are refused, then Discord is left.
                await client.service.close()
                await client.close()
                with contextlib.suppress(asyncio.CancelledError):
                    await running
                log.info("stopped cleanly (%s)", stop.received)
            else:
                stopping.cancel()
                running.result()  # a login failure or connection error surfaces here
    finally:
        await store.close()


async def _rebuild_ratings(config: Config) -> int:
    from bot.service import GameService
    from bot.store import Store

    if not config.database_path.is_file():
        print(f"error: there is no database at {config.database_path}", file=sys.stderr)
        return EXIT_ERROR
    try:
        # It rewrites every result and rating: not while a bot (or a restore) uses the file.
        with RunLock(config.database_path, "ratings --rebuild"):
            store = await Store.open(config.database_path)
            try:
                counted = await GameService(store).rebuild_ratings()
            finally:
                await store.close()
    except OpsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(f"rebuilt results and ratings from {counted} finished game(s)")
    return EXIT_OK


async def _check(config: Config) -> int:
    from bot import ai_seats, i18n
    from bot.damage import damaged_values
    from bot.games import GAMES
    from bot.service import GameService
    from bot.store import Store

    if not config.database_path.is_file():
        print(f"error: there is no database at {config.database_path}", file=sys.stderr)
        return EXIT_ERROR
    store = await Store.open(config.database_path)
    try:
        problems = await GameService(store).check_all()
        older = 0
        async with store.read() as tx:
            aside = await tx.set_aside_outbox()
            # Stored values a runner or a move would refuse (the game is held) or replace.
            damaged = await damaged_values(tx, ai_seats.LEVELS)
            for plugin in GAMES:
                row = await tx.one(
                    "SELECT COUNT(*) FROM games WHERE status IN ('active', 'finished') "
                    "AND kind = ? AND engine_version != ?",
                    (plugin.kind, plugin.rules.engine_version),
                )
                older += int(row[0]) if row else 0
    finally:
        await store.close()
    if older:
        print(
            f"{older} game(s) stored by another engine version: not replayed (they go on from "
            "the state they stored)"
        )
    for game_id, channel_id, problem in problems:
        print(f"channel {channel_id}, game {game_id}: {problem}")
    for out in aside:
        print(
            f"outbox row {out.id} (channel {out.channel_id}, game {out.game_id}, {out.kind}): "
            f"{out.error}; that message was never posted"
        )
    for line in damaged:
        print(line)
    texts = i18n.check_catalogues()
    for line in texts:
        print(f"{line}; it is shown in English")
    count = len(problems) + len(aside) + len(damaged) + len(texts)
    print(f"{count} problem(s) in {config.database_path}")
    return EXIT_ERROR if count else EXIT_OK


def _snowflake(option: str, raw: str | None) -> int | None:
    """The id given to `option` (None if not given).

    Raises:
        ValueError: not a positive whole number SQLite can hold (the message names the option).
    """
    if raw is None:
        return None
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or not 0 < int(text) < 1 << 63:
        shown = text[:30] + ("…" if len(text) > 30 else "")
        raise ValueError(f"{option} must be an id (a positive whole number), not {shown!r}")
    return int(text)


async def _export(
    config: Config, channel_raw: str | None, game_raw: str | None, out: Path | None
) -> int:
    """Write one stored game's record (`bot.records`) to a file, as `/games export` gives it to
    a member without a seat: complete (seed and moves) once the game is finished, otherwise
    only what the table sees. The database is opened read-only: no run lock is needed, and the
    bot may be running."""
    import aiosqlite

    from bot import records
    from bot.service import GameService, NoGame, ServiceError
    from bot.store import SCHEMA_VERSION, Store, StoreError, verify_file

    def refuse(message: str) -> int:
        print(f"error: {message}", file=sys.stderr)
        return EXIT_CONFIG

    try:
        channel_id = _snowflake("--channel", channel_raw)
        game_id = _snowflake("--game", game_raw)
    except ValueError as exc:
        return refuse(str(exc))
    if channel_id is None and game_id is None:
        return refuse("say which game to export: --channel ID or --game ID")
    db = config.database_path
    if not db.is_file():
        return refuse(f"there is no database at {db.absolute()} (DATABASE_PATH)")
    try:
        verify_file(db)  # reads only
    except StoreError as exc:
        return refuse(str(exc))
    try:
        conn = await aiosqlite.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return refuse(f"{db.absolute()} (DATABASE_PATH) can't be opened: {exc}")
    try:
        async with conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        version = int(row[0]) if row else 0
        if version != SCHEMA_VERSION:
            # Older: the bot migrates it when it starts; export reads the current schema only.
            return refuse(
                f"{db.absolute()} (DATABASE_PATH) has schema version {version}, not this "
                f"bot's {SCHEMA_VERSION}: start the bot once (it updates the database), then "
                "export again"
            )
        store = Store(conn, db)
        if channel_id is None:
            async with store.read() as tx:
                found = await tx.game(game_id) if game_id is not None else None
            if found is None:
                return refuse(f"there is no game {game_id} in {db}")
            channel_id = found.channel_id
        # User 0 is no Discord member: the record a member without a seat gets.
        record = await GameService(store).export(channel_id, 0, game_id=game_id)
    except NoGame:
        if game_id is not None:
            return refuse(f"there is no game {game_id} in channel {channel_id} in {db}")
        return refuse(f"no game was played in channel {channel_id} (in {db})")
    except ServiceError as exc:  # not installed here, a damaged log
        which = f"game {game_id}" if game_id is not None else f"the game of channel {channel_id}"
        return refuse(f"{which}: {exc}")
    except (sqlite3.Error, StoreError) as exc:
        return refuse(f"{db.absolute()} (DATABASE_PATH) can't be read: {exc}")
    finally:
        await conn.close()
    path = out if out is not None else Path(records.filename(record))
    try:
        with open(path, "xb") as fh:  # never overwrites (the database, a backup, a record)
            fh.write(records.dumps(record))
    except FileExistsError:
        return refuse(f"{path} already exists; nothing was written. Choose another --out")
    except OSError as exc:
        print(f"error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    what = (
        "complete: `python -m bot replay` plays it again"
        if record["complete"]
        else f"{record['status']}: only what the table sees, no seed or moves"
    )
    print(f"Exported {record['title']} game {record['game_id']} to {path} ({what}).")
    return EXIT_OK


def _backup_or_restore(command: str, config: Config, path: Path) -> int:
    db = config.database_path
    try:
        if command == "backup":
            copy = backup(db, path)
            print(
                f"Backed up {db} to {copy.path}: {copy.games} games ({copy.active} in progress), "
                f"schema {copy.schema}, {copy.size:,} bytes."
            )
        else:
            restored, saved = restore(db, path)
            if saved is not None:
                print(f"The database it replaces was saved as {saved}.")
            print(
                f"Restored {path} into {db}: {restored.games} games ({restored.active} in "
                "progress). Start the bot; `python -m bot check` replays every game first if "
                "you want to be sure."
            )
    except OpsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def offline_seats(game: str, players: int | None, ai: str | None, random: bool) -> list[str | None]:
    """`offline`'s AI levels seat by seat (None: a random player): `--ai` as given, none with
    `--random`, else DEMO_AI on every seat (of `--players`, or the game's default count)."""
    if random:
        return []
    if ai is not None:
        return [None if a == "random" else a for a in ai.split(",") if a]
    from bot.games import GAMES

    if players is None and game in GAMES.games:  # an unknown game: run_offline says so
        rules = GAMES.get(game).rules
        players = rules.min_players if rules.min_players == rules.max_players else 3
    return [DEMO_AI] * (players or 0)


def _offline(args: argparse.Namespace) -> int:
    from bot.offline import run_offline, summary

    try:
        result = asyncio.run(
            run_offline(
                args.players,
                args.seed,
                args.out,
                game=args.game,
                pictures=not args.no_pictures,
                ai=offline_seats(args.game, args.players, args.ai, args.random),
                locale=args.lang,
            )
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(summary(result))
    return EXIT_OK


def _replay(path: Path, out: Path) -> int:
    """Check a record by replaying it with the engine, then play it through the service into
    `out` (transcript, pictures, private notes) and add the animated board."""
    from bot import records
    from bot.offline import run_offline, summary

    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        record = records.parse(data)
        plugin = records.playable(record)
        records.replay(record)  # every move legal, the final scores as recorded
        assert record.seed is not None
        names = [s.name for s in record.seats]
        result = asyncio.run(
            run_offline(
                len(names), record.seed, out, game=record.game, names=names, script=record.script
            )
        )
        records.check_scores(
            record, [(i, vp, rank) for i, (_, vp, rank) in enumerate(result.scores)]
        )
    except ValueError as exc:  # RecordError, ScriptError
        print(f"error: {path}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    gif = out / "replay.gif"
    gif.write_bytes(records.animation(plugin, record.seed, names, record.script))
    print(summary(result))
    print(f"Animated board: {gif}")
    print("The replay gives the record's final scores.")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
