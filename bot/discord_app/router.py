"""Which handler answers a slash command or a component click: two tables, no if-chains.

A command is found by its name (a subgroup's as "settings quiet"); a click by its custom id's
kind (bot/discord_app/ids.py, unchanged so buttons posted long ago keep working), and the final
post's buttons by their argument. Errors from any handler become one ephemeral reply
(`common.refuse`), in the member's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_app import ids
from bot.discord_app.handlers import (
    hosting,
    lobby,
    looking,
    play,
    records,
    settings,
    standings,
)
from bot.discord_app.handlers.common import (
    Call,
    Click,
    ClickHandler,
    CommandHandler,
    Context,
    Refusal,
    plugin_here,
    refuse,
    where,
)
from bot.discord_app.translator import locale_of
from bot.i18n import tr, use


@dataclass(frozen=True)
class Route:
    """A command's handler; `in_game`: it is about the channel's game, which must be the one of
    the command's `/<game>` group (checked before the handler runs)."""

    handler: CommandHandler
    in_game: bool = False


COMMANDS: Mapping[str, Route] = {
    # `/<game> …`, every game's group
    "new": Route(lobby.new),
    "rules": Route(looking.rules),
    "board": Route(looking.board, in_game=True),
    "history": Route(looking.history, in_game=True),
    "undo": Route(play.undo_command, in_game=True),
    # `/games …`: whatever game the channel holds
    "status": Route(looking.status),
    "log": Route(looking.log),
    "mygames": Route(looking.mygames),
    "about": Route(looking.about),
    "abort": Route(hosting.abort),
    "skip": Route(hosting.skip),
    "replace": Route(hosting.replace),
    "remove": Route(hosting.remove),
    "autopilot": Route(hosting.autopilot),
    "deadline": Route(hosting.deadline),
    "stats": Route(standings.stats),
    "leaderboard": Route(standings.leaderboard),
    "export": Route(records.export),
    "replay": Route(records.replay),
    "reminders": Route(settings.game_reminders),
    "language": Route(settings.language),
    # `/settings …`
    "settings show": Route(settings.show),
    "settings quiet": Route(settings.quiet),
    "settings quiet-off": Route(settings.quiet_off),
    "settings reminders": Route(settings.my_reminders),
    "settings server-reminders": Route(settings.server_reminders),
}
# Each game's own commands (its moves, its hand command) come from its plugin: `command`.

# The buttons under a game's final scores (bot/discord_app/views.py FINAL_BUTTONS), by argument.
FINAL_BUTTONS: Mapping[str, ClickHandler] = {
    "replay": records.replay_click,
    "record": records.export_click,
    "rematch": lobby.rematch,
}


async def _final_button(ctx: Context, click: Click) -> None:
    handler = FINAL_BUTTONS.get(click.cid.arg)
    if handler is None:
        raise Refusal(tr("That button is not one of this bot's; nothing was done."))
    await handler(ctx, click)


COMPONENTS: Mapping[str, ClickHandler] = {
    "play": play.open_panel,
    **dict.fromkeys(play.PANEL_KINDS, play.panel_click),  # w, t, b, ok
    "undo": play.undo_click,
    "lobby": lobby.click,
    "ai": lobby.ai_choice,
    "abort": hosting.abort_click,
    "skip": hosting.skip_click,
    "replace": hosting.replace_click,
    "end": _final_button,
    "log": looking.log_click,
    "snooze": settings.snooze,
}


async def command(
    ctx: Context,
    itx: discord.Interaction[Any],
    name: str,
    options: Mapping[str, Any],
    game: str | None,
) -> None:
    """Every command: `game` is the kind of the `/<game>` group it came from, None for the
    shared groups. Errors become ephemeral replies."""
    with use(locale_of(itx)):
        try:
            await _command(ctx, Call(itx, where(itx), name, options, game))
        except Exception as exc:
            await refuse(itx, exc)


async def _command(ctx: Context, call: Call) -> None:
    route = COMMANDS.get(call.name)
    if route is not None and not route.in_game:
        await route.handler(ctx, call)
        return
    plugin = await plugin_here(ctx, call.channel_id, call.game)
    # A game's move commands come before the shared names it might reuse.
    if any(c.name == call.name for c in plugin.move_commands):
        await play.move_command(ctx, call, plugin)
    elif route is not None:
        await route.handler(ctx, call)
    elif call.name == plugin.hand_command:
        await looking.me(ctx, call)
    else:
        raise Refusal(
            tr("/{command} {name} is not a command.", command=plugin.command, name=call.name)
        )


async def component(
    ctx: Context, itx: discord.Interaction[Any], cid: ids.CustomId, values: Sequence[str]
) -> None:
    """Every click on one of our buttons or select menus."""
    with use(locale_of(itx)):
        try:
            await COMPONENTS[cid.kind](ctx, Click(itx, where(itx), cid, values))
        except Exception as exc:
            await refuse(itx, exc, cid.game_id)
