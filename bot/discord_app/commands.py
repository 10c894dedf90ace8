"""The slash-command tree: one `/<game>` group per installed game, and the shared `/games`.

Each game's group comes from one shared definition (new, board, the hand command, rules) plus
the game's move commands, built from its plugin's `MoveCommand` specs; options of move commands
autocomplete from the caller's legal moves. Host tools and everything that concerns the channel
rather than one game (status, log, abort, skip, replace, remove, mygames, about, autopilot,
deadline, stats, leaderboard, reminders, export, replay) live once in
`/games`, so a game's group stays far below Discord's 25 subcommands as the games grow; a
member's own settings are in `/settings`. Every
command only collects its options and hands them to `GameApp.run_command`; descriptions are
what players read in Discord's command picker.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from bot import ai_seats, reminders
from bot.discord_app.views import app_of
from bot.games import GAMES
from bot.plugin import GamePlugin, MoveCommand

Itx = discord.Interaction[Any]
Callback = Callable[..., Coroutine[Any, Any, None]]
MAX_GROUP = 20  # our own ceiling below Discord's 25, leaving room for what comes next

_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


def _autocomplete(command: str, option: str) -> Callable[..., Any]:
    async def complete(itx: Itx, current: str) -> list[app_commands.Choice[Any]]:
        found = await app_of(itx).autocomplete(itx, command, option, str(current or ""))
        return [app_commands.Choice(name=s.name, value=s.value) for s in found]

    return complete


async def _run(itx: Itx, name: str, game: str | None, **options: Any) -> None:
    opts = {k: v for k, v in options.items() if v is not None}
    await app_of(itx).run_command(itx, name, opts, game=game)


def _move_callback(game: str, spec: MoveCommand) -> Callback:
    """A callback whose signature declares the spec's options, so discord.py reads them."""

    async def callback(itx: Itx, **options: Any) -> None:
        await _run(itx, spec.name, game, **options)

    params = [inspect.Parameter("itx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Itx)]
    for o in spec.options:
        annotation: Any = _TYPES[o.kind] if o.required else _TYPES[o.kind] | None
        default = inspect.Parameter.empty if o.required else (False if o.kind == "bool" else None)
        params.append(
            inspect.Parameter(
                o.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=annotation,
                default=default,
            )
        )
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in params}
    described = app_commands.describe(**{o.name: o.description for o in spec.options})
    complete = {o.name: _autocomplete(spec.name, o.name) for o in spec.options if o.autocomplete}
    out: Callback = described(callback)
    if complete:
        out = app_commands.autocomplete(**complete)(out)
    return out


def build_game_group(plugin: GamePlugin) -> app_commands.Group:
    """`/<game>`: the shared lobby and looking commands, then the game's move commands."""
    game = plugin.kind
    group = app_commands.Group(name=plugin.command, description=plugin.description, guild_only=True)

    async def new(itx: Itx) -> None:
        await _run(itx, "new", game)

    group.command(name="new", description=f"Open a lobby for a game of {plugin.title} here")(new)

    @app_commands.describe(public="Post it to the channel for everyone (at most every 2 minutes)")
    async def board(itx: Itx, public: bool = False) -> None:
        await _run(itx, "board", game, public=public)

    group.command(name="board", description="Show the board (only to you unless public)")(board)

    async def hand(itx: Itx) -> None:
        await _run(itx, plugin.hand_command, game)

    group.command(name=plugin.hand_command, description=plugin.hand_description)(hand)

    @app_commands.describe(topic="A part of the rules; leave empty for an overview")
    @app_commands.choices(
        topic=[
            app_commands.Choice(name=title[:100], value=key)
            for key, title in plugin.rules_topics.items()
        ]
    )
    async def rules(itx: Itx, topic: str | None = None) -> None:
        await _run(itx, "rules", game, topic=topic)

    group.command(name="rules", description=f"The rules of {plugin.title} in short (only to you)")(
        rules
    )

    async def undo(itx: Itx) -> None:
        await _run(itx, "undo", game)

    group.command(
        name="undo",
        description="Take back your last move while it is still your turn (if it revealed nothing)",
    )(undo)

    async def complete_unit(itx: Itx, current: str) -> list[app_commands.Choice[str]]:
        found = await app_of(itx).units(itx, str(current or ""))
        return [app_commands.Choice(name=u, value=u) for u in found]

    @app_commands.describe(
        phase="round.phase, e.g. 3.2 (suggested as you type)",
        public="Post it to the channel for everyone (at most every 2 minutes)",
    )
    @app_commands.autocomplete(phase=complete_unit)
    async def history(itx: Itx, phase: str, public: bool = False) -> None:
        await _run(itx, "history", game, phase=phase, public=public)

    group.command(
        name="history", description="The board at the end of an earlier phase (only to you)"
    )(history)

    for spec in plugin.move_commands:
        callback: Any = _move_callback(game, spec)  # its signature is built at run time
        group.command(name=spec.name, description=spec.description)(callback)
    return group


def build_shared_group() -> app_commands.Group:
    """`/games`: the channel's game whatever it is, your games, hosting tools."""
    group = app_commands.Group(
        name="games",
        description="The game in this channel, your games, hosting tools",
        guild_only=True,
    )

    @group.command(name="status", description="Whose turn it is here and what they must decide")
    async def status(itx: Itx) -> None:
        await _run(itx, "status", None)

    @group.command(name="log", description="The game here move by move, in pages (only to you)")
    @app_commands.describe(
        page="Which page (1 = the latest moves; buttons turn the pages)",
        moves="Just the last moves, this many",
    )
    async def log(
        itx: Itx,
        page: app_commands.Range[int, 1, 10_000] = 1,
        moves: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        await _run(itx, "log", None, page=page, moves=moves)

    @group.command(name="abort", description="Abort the game here (host or Manage Channels)")
    async def abort(itx: Itx) -> None:
        await _run(itx, "abort", None)

    @group.command(
        name="skip",
        description="Play the current player's turn as a pass (host or Manage Channels)",
    )
    async def skip(itx: Itx) -> None:
        await _run(itx, "skip", None)

    @group.command(
        name="replace",
        description="Hand a player's seat to another member (host or Manage Channels)",
    )
    @app_commands.describe(old="The player giving up the seat", new="The member taking it over")
    async def replace(itx: Itx, old: discord.Member, new: discord.Member) -> None:
        await _run(itx, "replace", None, old=old, new=new)

    @group.command(
        name="remove", description="Remove a player from the lobby (host or Manage Channels)"
    )
    @app_commands.describe(member="The player to remove from the lobby")
    async def remove(itx: Itx, member: discord.Member) -> None:
        await _run(itx, "remove", None, member=member)

    @group.command(
        name="mygames", description="Your games on this server, the ones waiting for you first"
    )
    async def mygames(itx: Itx) -> None:
        await _run(itx, "mygames", None)

    @group.command(
        name="autopilot",
        description="Let the AI play your seat here while you are away, or take it back",
    )
    @app_commands.describe(
        on="True: the AI plays your turns (no pings); False: you play again",
        level="How well the AI plays (default normal)",
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=lv, value=lv) for lv in ai_seats.LEVELS],
    )
    async def autopilot(itx: Itx, on: bool, level: str | None = None) -> None:
        await _run(itx, "autopilot", None, on=on, level=level)

    @group.command(
        name="deadline",
        description="Turn deadline here: past it the AI plays the turn (host or Manage Channels)",
    )
    @app_commands.describe(span="How long a player may take for a turn")
    @app_commands.choices(
        span=[app_commands.Choice(name=k, value=k) for k in ai_seats.DEADLINES],
    )
    async def deadline(itx: Itx, span: str) -> None:
        await _run(itx, "deadline", None, span=span)

    game_choices = [app_commands.Choice(name=p.title[:100], value=p.kind) for p in GAMES]

    @group.command(name="stats", description="Games, wins, scores and rating of a member here")
    @app_commands.describe(
        member="Whose stats (default: yours)",
        game="Which game (default: the one in this channel)",
    )
    @app_commands.choices(game=game_choices)
    async def stats(
        itx: Itx, member: discord.Member | None = None, game: str | None = None
    ) -> None:
        await _run(itx, "stats", None, member=member, kind=game)

    @group.command(name="leaderboard", description="The best rated players of a game here")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=game_choices)
    async def leaderboard(itx: Itx, game: str | None = None) -> None:
        await _run(itx, "leaderboard", None, kind=game)

    @group.command(
        name="reminders",
        description="How often players of the game here are reminded (host or Manage Channels)",
    )
    @app_commands.describe(every="Reminder interval; players' own /settings come first")
    @app_commands.choices(every=_interval_choices())
    async def game_reminders(itx: Itx, every: str) -> None:
        await _run(itx, "reminders", None, every=every)

    @group.command(
        name="language",
        description="The language of the game here: its posts and buttons (host or "
        "Manage Channels)",
    )
    @app_commands.describe(lang="English or French; each member's replies follow their Discord")
    @app_commands.choices(
        lang=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Français", value="fr"),
        ]
    )
    async def language(itx: Itx, lang: str) -> None:
        await _run(itx, "language", None, lang=lang)

    @group.command(
        name="export", description="The record of the game here as a JSON file (only to you)"
    )
    async def export(itx: Itx) -> None:
        await _run(itx, "export", None)

    @group.command(
        name="replay",
        description="The board of the game here after every action phase, animated (only to you)",
    )
    async def replay(itx: Itx) -> None:
        await _run(itx, "replay", None)

    @group.command(name="about", description="Bot version, the games installed, uptime")
    async def about(itx: Itx) -> None:
        await _run(itx, "about", None)

    return group


def _interval_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name="default (12 h, then every 24 h)", value="default")] + [
        app_commands.Choice(name=k if k == "off" else f"every {k}", value=k)
        for k in reminders.INTERVALS
    ]


async def _complete_timezone(itx: Itx, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=z, value=z) for z in reminders.suggest_timezones(current)]


def build_settings_group() -> app_commands.Group:
    """`/settings`: a member's own settings on this server (and the server's, for admins)."""
    group = app_commands.Group(
        name="settings",
        description="Your reminders and quiet hours on this server",
        guild_only=True,
    )

    @group.command(name="show", description="Your settings on this server (only to you)")
    async def show(itx: Itx) -> None:
        await _run(itx, "settings show", None)

    @group.command(
        name="quiet", description="Hours when the bot never pings or reminds you (your time zone)"
    )
    @app_commands.describe(
        start="From (24-hour HH:MM, e.g. 22:00)",
        end="To (HH:MM, e.g. 08:00)",
        timezone="Your time zone, e.g. Europe/Paris (start typing to search)",
    )
    @app_commands.rename(start="from", end="to")
    @app_commands.autocomplete(timezone=_complete_timezone)
    async def quiet(itx: Itx, start: str, end: str, timezone: str) -> None:
        await _run(itx, "settings quiet", None, start=start, end=end, timezone=timezone)

    @group.command(name="quiet-off", description="No quiet hours: pings come at any time")
    async def quiet_off(itx: Itx) -> None:
        await _run(itx, "settings quiet-off", None)

    @group.command(name="reminders", description="How often you are reminded when a game waits")
    @app_commands.describe(every="Your reminder interval in every game on this server")
    @app_commands.choices(every=_interval_choices())
    async def my_reminders(itx: Itx, every: str) -> None:
        await _run(itx, "settings reminders", None, every=every)

    @group.command(
        name="server-reminders",
        description="The server's default reminder interval (Manage Server)",
    )
    @app_commands.describe(every="Used when neither the player nor the game's host set one")
    @app_commands.choices(every=_interval_choices())
    async def server_reminders(itx: Itx, every: str) -> None:
        await _run(itx, "settings server-reminders", None, every=every)

    return group


def build_groups() -> list[app_commands.Group]:
    """Every group of the tree (new ones per call, so tests can build several trees).

    Raises:
        ValueError: a game's group would exceed `MAX_GROUP` subcommands.
    """
    groups = [build_game_group(p) for p in GAMES]
    groups.append(build_shared_group())
    groups.append(build_settings_group())
    for g in groups:
        if len(g.commands) > MAX_GROUP:
            raise ValueError(f"/{g.name} has {len(g.commands)} subcommands (at most {MAX_GROUP})")
    return groups


def schema(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The tree as Discord receives it, reduced to what a player relies on: names, option names,
    types, required flags, autocomplete and fixed choices."""
    out = []
    for cmd in sorted(tree.get_commands(), key=lambda c: c.name):
        assert isinstance(cmd, app_commands.Group)
        for sub in sorted(cmd.commands, key=lambda c: c.name):
            assert isinstance(sub, app_commands.Command)
            payload = sub.to_dict(tree)
            out.append(
                {
                    "command": f"{cmd.name} {sub.name}",
                    "options": [
                        {
                            "name": o["name"],
                            "type": discord.AppCommandOptionType(o["type"]).name,
                            "required": o.get("required", False),
                            "autocomplete": o.get("autocomplete", False),
                            "choices": [c["value"] for c in o.get("choices", [])],
                        }
                        for o in payload.get("options", [])
                    ],
                }
            )
    return out
