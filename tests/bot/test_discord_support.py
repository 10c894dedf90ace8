"""Shared helpers of the Discord-layer tests (no tests here): playouts, fake interactions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from engine.nauticus import State, apply, new_game
from tests.engine import policy


def playout_states(players: int, seed: int) -> list[tuple[State, int]]:
    """Every (state, seat to act) of one game played by the engine tests' biased random policy,
    which, unlike uniform play, finishes big ships, takes rewards and fills storage."""
    _, log = policy.play(players, seed)
    state = new_game(players, seed)
    out: list[tuple[State, int]] = []
    for seat, move in log:
        out.append((state, seat))
        state, _ = apply(state, seat, move)
    return out


@cache
def sample_states(games: int = 6) -> tuple[tuple[State, int], ...]:
    """States from `games` games of 2, 3 and 4 players."""
    out: list[tuple[State, int]] = []
    for g in range(games):
        out += playout_states(2 + g % 3, 1000 + g)
    return tuple(out)


# --- fake Discord interactions -----------------------------------------------------------------

GUILD = 7001
CHANNEL = 7002


class Replies:
    """Everything the bot answered to one fake interaction, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, dict[str, Any]]] = []

    def record(self, how: str) -> Callable[..., Awaitable[None]]:
        async def call(content: str | None = None, **kwargs: Any) -> None:
            self.calls.append((how, kwargs.pop("content", content), kwargs))

        return call

    @property
    def last(self) -> tuple[str, str | None, dict[str, Any]]:
        assert self.calls, "the bot did not answer"
        return self.calls[-1]

    @property
    def text(self) -> str:
        return self.last[1] or ""


def fake_itx(
    app: Any,
    user_id: int,
    *,
    name: str = "Player",
    guild_id: int | None = GUILD,
    channel_id: int | None = CHANNEL,
    bot_perms: discord.Permissions | None = None,
    member_perms: discord.Permissions | None = None,
    namespace: dict[str, Any] | None = None,
    locale: discord.Locale = discord.Locale.american_english,
) -> tuple[Any, Replies]:
    """A discord.Interaction stand-in (spec'd, so a misspelt attribute fails) and its replies.

    `locale` is the member's Discord client language (the bot answers in French for French)."""
    itx = MagicMock(spec=discord.Interaction)
    itx.locale = locale
    itx.guild_locale = None
    itx.guild_id = guild_id
    itx.channel_id = channel_id
    itx.channel = MagicMock(spec=discord.TextChannel)
    user = MagicMock(spec=discord.Member)
    user.id = user_id
    user.display_name = name
    itx.user = user
    itx.app_permissions = bot_perms if bot_perms is not None else discord.Permissions.all()
    itx.permissions = member_perms if member_perms is not None else discord.Permissions.none()
    itx.namespace = SimpleNamespace(**(namespace or {}))
    itx.client = SimpleNamespace(game_app=app)
    replies = Replies()
    done = [False]

    def answered(how: str) -> Callable[..., Awaitable[None]]:
        inner = replies.record(how)

        async def call(*args: Any, **kwargs: Any) -> None:
            assert not done[0], "an interaction can be answered only once"
            done[0] = True
            if how != "defer":
                await inner(*args, **kwargs)
            else:
                replies.calls.append(("defer", None, kwargs))

        return call

    response = MagicMock(spec=discord.InteractionResponse)
    response.is_done.side_effect = lambda: done[0]
    response.send_message = AsyncMock(side_effect=answered("send"))
    response.edit_message = AsyncMock(side_effect=answered("edit"))
    response.defer = AsyncMock(side_effect=answered("defer"))
    itx.response = response
    followup = MagicMock(spec=discord.Webhook)
    followup.send = AsyncMock(side_effect=replies.record("followup"))
    itx.followup = followup
    itx.edit_original_response = AsyncMock(side_effect=replies.record("edit_original"))
    return itx, replies


def custom_ids(view: discord.ui.View | None) -> list[str]:
    if view is None:
        return []
    return [str(getattr(child, "custom_id", "")) for child in view.children]
