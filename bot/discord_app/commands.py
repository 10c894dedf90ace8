"""The `/nauticus` command group (later games get groups of their own).

Each command only collects its options and hands them to `NauticusApp.run_command`; the move
commands' options autocomplete from `engine.nauticus.legal_moves` for the caller's seat. The
docstrings-as-descriptions are what players read in Discord's command picker.
"""

from typing import Any

import discord
from discord import app_commands

from bot.discord_app import moves_map, rules_digest
from bot.discord_app.views import app_of

Itx = discord.Interaction[Any]
AcCallback = Any


def _autocomplete(command: str, option: str) -> AcCallback:
    async def complete(itx: Itx, current: str) -> list[app_commands.Choice[Any]]:
        found = await app_of(itx).autocomplete(itx, command, option, str(current or ""))
        return [app_commands.Choice(name=s.name, value=s.value) for s in found]

    return complete


async def _run(itx: Itx, name: str, **options: Any) -> None:
    await app_of(itx).run_command(itx, name, {k: v for k, v in options.items() if v is not None})


def build_group() -> app_commands.Group:
    """A fresh `/nauticus` group (a new one per tree, so tests can build several)."""
    group = app_commands.Group(
        name="nauticus",
        description="Play Nauticus, the ship-building board game, in this channel",
        guild_only=True,
    )

    # --- lobby and looking -------------------------------------------------------------------

    @group.command(name="new", description="Open a lobby for a game of Nauticus in this channel")
    async def new(itx: Itx) -> None:
        await _run(itx, "new")

    @group.command(name="board", description="Show the board (only to you unless public)")
    @app_commands.describe(public="Post it to the channel for everyone (at most every 2 minutes)")
    async def board(itx: Itx, public: bool = False) -> None:
        await _run(itx, "board", public=public)

    @group.command(name="me", description="Your shipyard, storage and resources (only to you)")
    async def me(itx: Itx) -> None:
        await _run(itx, "me")

    @group.command(name="log", description="The last moves of the game in words (only to you)")
    @app_commands.describe(moves="How many moves (default 10)")
    async def log(itx: Itx, moves: app_commands.Range[int, 1, 50] = 10) -> None:
        await _run(itx, "log", moves=moves)

    @group.command(name="rules", description="The rules of Nauticus in short (only to you)")
    @app_commands.describe(topic="A part of the rules; leave empty for an overview")
    @app_commands.choices(
        topic=[
            app_commands.Choice(name=title[:100], value=key)
            for key, (title, _) in rules_digest.TOPICS.items()
        ]
    )
    async def rules(itx: Itx, topic: str | None = None) -> None:
        await _run(itx, "rules", topic=topic)

    @group.command(name="status", description="Whose turn it is and what they must decide")
    async def status(itx: Itx) -> None:
        await _run(itx, "status")

    @group.command(name="abort", description="Abort the game here (host or Manage Channels)")
    async def abort(itx: Itx) -> None:
        await _run(itx, "abort")

    # --- hosting a table for weeks ----------------------------------------------------------

    @group.command(
        name="skip", description="End the current player's turn as a pass (host or Manage Channels)"
    )
    async def skip(itx: Itx) -> None:
        await _run(itx, "skip")

    @group.command(
        name="replace",
        description="Hand a player's seat to another member (host or Manage Channels)",
    )
    @app_commands.describe(old="The player giving up the seat", new="The member taking it over")
    async def replace(itx: Itx, old: discord.Member, new: discord.Member) -> None:
        await _run(itx, "replace", old=old, new=new)

    @group.command(
        name="remove", description="Remove a player from the lobby (host or Manage Channels)"
    )
    @app_commands.describe(member="The player to remove from the lobby")
    async def remove(itx: Itx, member: discord.Member) -> None:
        await _run(itx, "remove", member=member)

    @group.command(
        name="mygames", description="Your games on this server, the ones waiting for you first"
    )
    async def mygames(itx: Itx) -> None:
        await _run(itx, "mygames")

    @group.command(name="about", description="Bot and engine versions, uptime, games here")
    async def about(itx: Itx) -> None:
        await _run(itx, "about")

    # --- moves (names, options and descriptions from moves_map.MOVE_COMMANDS) -----------------

    spec = moves_map.BY_NAME

    def d(command: str) -> str:
        return spec[command].description

    def od(command: str, option: str) -> str:
        return next(o.description for o in spec[command].options if o.name == option)

    @group.command(name="choose", description=d("choose"))
    @app_commands.describe(space=od("choose", "space"))
    @app_commands.autocomplete(space=_autocomplete("choose", "space"))
    async def choose(itx: Itx, space: int) -> None:
        await _run(itx, "choose", space=space)

    @group.command(name="bonus", description=d("bonus"))
    @app_commands.describe(item=od("bonus", "item"))
    @app_commands.autocomplete(item=_autocomplete("bonus", "item"))
    async def bonus(itx: Itx, item: str) -> None:
        await _run(itx, "bonus", item=item)

    @group.command(name="buy", description=d("buy"))
    @app_commands.describe(item=od("buy", "item"), to=od("buy", "to"))
    @app_commands.describe(confirm=od("buy", "confirm"))
    @app_commands.autocomplete(item=_autocomplete("buy", "item"), to=_autocomplete("buy", "to"))
    async def buy(itx: Itx, item: str, to: str, confirm: bool = False) -> None:
        await _run(itx, "buy", item=item, to=to, confirm=confirm)

    @group.command(name="free", description=d("free"))
    @app_commands.describe(item=od("free", "item"))
    @app_commands.autocomplete(item=_autocomplete("free", "item"))
    async def free(itx: Itx, item: str) -> None:
        await _run(itx, "free", item=item)

    @group.command(name="transport", description=d("transport"))
    @app_commands.describe(item=od("transport", "item"), to=od("transport", "to"))
    @app_commands.autocomplete(
        item=_autocomplete("transport", "item"), to=_autocomplete("transport", "to")
    )
    async def transport(itx: Itx, item: str, to: str) -> None:
        await _run(itx, "transport", item=item, to=to)

    @group.command(name="money", description=d("money"))
    @app_commands.describe(workers=od("money", "workers"))
    @app_commands.autocomplete(workers=_autocomplete("money", "workers"))
    async def money(itx: Itx, workers: int) -> None:
        await _run(itx, "money", workers=workers)

    @group.command(name="crowns", description=d("crowns"))
    @app_commands.describe(workers=od("crowns", "workers"))
    @app_commands.autocomplete(workers=_autocomplete("crowns", "workers"))
    async def crowns(itx: Itx, workers: int) -> None:
        await _run(itx, "crowns", workers=workers)

    @group.command(name="deliver", description=d("deliver"))
    @app_commands.describe(ship=od("deliver", "ship"))
    @app_commands.autocomplete(ship=_autocomplete("deliver", "ship"))
    async def deliver(itx: Itx, ship: int) -> None:
        await _run(itx, "deliver", ship=ship)

    @group.command(name="reward", description=d("reward"))
    @app_commands.describe(kind=od("reward", "kind"), goods=od("reward", "goods"))
    @app_commands.autocomplete(
        kind=_autocomplete("reward", "kind"), goods=_autocomplete("reward", "goods")
    )
    async def reward(itx: Itx, kind: str, goods: str | None = None) -> None:
        await _run(itx, "reward", kind=kind, goods=goods)

    @group.command(name="extra", description=d("extra"))
    @app_commands.describe(action=od("extra", "action"))
    @app_commands.autocomplete(action=_autocomplete("extra", "action"))
    async def extra(itx: Itx, action: str) -> None:
        await _run(itx, "extra", action=action)

    @group.command(name="end-extra", description=d("end-extra"))
    async def end_extra(itx: Itx) -> None:
        await _run(itx, "end-extra")

    @group.command(name="pass", description=d("pass"))
    @app_commands.describe(confirm=od("pass", "confirm"))
    async def pass_(itx: Itx, confirm: bool = False) -> None:
        await _run(itx, "pass", confirm=confirm)

    @group.command(name="end-turn", description=d("end-turn"))
    @app_commands.describe(confirm=od("end-turn", "confirm"))
    async def end_turn(itx: Itx, confirm: bool = False) -> None:
        await _run(itx, "end-turn", confirm=confirm)

    return group


def schema(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The tree as Discord receives it, reduced to what a player relies on: names, option names,
    types, required flags, autocomplete and fixed choices."""
    out = []
    for cmd in tree.get_commands():
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
