"""Standings: a member's results and rating in a game on this server, and the leaderboard."""

from __future__ import annotations

from bot import ai_seats, i18n, texts
from bot.discord_app.handlers.common import Call, Context, Refusal, reply
from bot.games import GAMES
from bot.i18n import tr, trn
from bot.plugin import GamePlugin


async def _game_for_records(ctx: Context, channel_id: int, game: object) -> GamePlugin:
    """The game a stats command is about: the one named, else the channel's (latest)."""
    if game:
        if str(game) not in GAMES.games:
            names = ", ".join(p.kind for p in GAMES)
            raise Refusal(
                tr(
                    "There is no game {game}; installed: {names}.",
                    game=texts.quoted(str(game)),
                    names=names,
                )
            )
        return GAMES.get(str(game))
    rec = await ctx.service.game_in(channel_id) or await ctx.service.last_game(channel_id)
    if rec is None:
        kinds = ", ".join(f"`{p.kind}`" for p in GAMES)
        raise Refusal(
            tr(
                "No game was played in this channel: say which with `game:` ({kinds}).",
                kinds=kinds,
            )
        )
    return rec.plugin


async def stats(ctx: Context, call: Call) -> None:
    """`/games stats`: a member's (default: the caller's) games, wins, points and rating."""
    itx = call.itx
    assert itx.guild_id is not None
    plugin = await _game_for_records(ctx, call.channel_id, call.options.get("kind"))
    member = call.options.get("member") or itx.user
    who = texts.name(member.display_name)
    got = await ctx.service.standing(itx.guild_id, plugin.kind, member.id)
    if got is None:
        await reply(
            itx,
            tr(
                "{who} has not finished a game of {title} on this server yet.",
                who=who,
                title=tr(plugin.title),
            ),
        )
        return
    line = tr(
        "**{title}** on this server — {who}: {games}, {wins}, average {average} VP, "
        "best {best} VP.",
        title=tr(plugin.title),
        who=who,
        games=_games(got.games),
        wins=_wins(got.wins),
        average=i18n.number(got.average_vp),
        best=got.best_vp,
    )
    if got.rating is not None and got.mu is not None and got.sigma is not None:
        line += "\n" + tr(
            "Rating {rating} (skill {mu} ± {spread}; openskill, rating = skill − 3σ).",
            rating=i18n.number(got.rating),
            mu=i18n.number(got.mu),
            spread=i18n.number(3 * got.sigma),
        )
    else:
        line += "\n" + tr("Not rated yet: a rated game needs two people at the table.")
    if got.assisted:
        line += "\n" + tr(
            "{robot} {games} mostly played by the AI (autopilot, deadlines, skips): counted "
            "here, not rated.",
            robot=ai_seats.ROBOT,
            games=_games(got.assisted),
        )
    await reply(itx, line)


async def leaderboard(ctx: Context, call: Call) -> None:
    """`/games leaderboard`: the best rated players of a game on this server."""
    itx = call.itx
    assert itx.guild_id is not None
    plugin = await _game_for_records(ctx, call.channel_id, call.options.get("kind"))
    board = await ctx.service.leaderboard(itx.guild_id, plugin.kind)
    if not board:
        await reply(
            itx,
            tr(
                "No rated game of {title} on this server yet: a game counts once it "
                "ends with two or more people at the table.",
                title=tr(plugin.title),
            ),
        )
        return
    lines = [tr("**{title} leaderboard** (openskill rating = skill − 3σ)", title=tr(plugin.title))]
    for i, s in enumerate(board, 1):
        rating = s.rating if s.rating is not None else 0.0
        lines.append(
            f"{i}. {texts.name(s.name)} — {i18n.number(rating)} "
            f"({_games(s.games)}, {_wins(s.wins)})"
        )
    await reply(itx, "\n".join(lines))


def _games(n: int) -> str:
    return trn("{n} game", "{n} games", n)


def _wins(n: int) -> str:
    return trn("{n} win", "{n} wins", n)
