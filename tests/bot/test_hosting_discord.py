"""The hosting commands and buttons through the Discord layer (spec'd fake interactions, real
GameService on a temporary database): who may use them, confirmations, ephemeral replies."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import discord
import pytest

from bot.discord_app import ids
from bot.discord_app.app import GameApp
from bot.service import GameRecord
from engine.nauticus import legal_moves
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.bot.test_discord_app import ANA, BEN, CLEO, app, lobby, started
from tests.bot.test_discord_support import CHANNEL, GUILD, custom_ids, fake_itx
from tests.bot.test_hosting_service import at_full_storage

__all__ = ["app"]  # the fixture, imported for its name

MANAGER = discord.Permissions(manage_channels=True)


def member(user_id: int, name: str, *, bot: bool = False) -> Any:
    m = MagicMock(spec=discord.Member)
    m.id = user_id
    m.display_name = name
    m.bot = bot
    return m


async def current(app: GameApp) -> GameRecord:
    rec = await app.service.game_in(CHANNEL)
    assert rec is not None
    return rec


def decode_only(replies: Any) -> ids.CustomId:
    found = [ids.decode(c) for c in custom_ids(replies.last[2].get("view"))]
    assert len(found) == 1 and found[0] is not None
    return found[0]


# --- skip --------------------------------------------------------------------------------------


async def test_skip_asks_for_confirmation_then_passes_for_the_player(app: GameApp) -> None:
    rec = await started(app)  # Ana (seat 1) must choose an action
    itx, replies = fake_itx(app, BEN, name="Ben", member_perms=MANAGER)
    await app.run_command(itx, "skip", {})
    assert replies.last[2]["ephemeral"] is True
    assert "Skip the turn of" in replies.text and "Ana" in replies.text
    cid = decode_only(replies)
    assert cid.kind == "skip" and cid.version == rec.version
    assert (await current(app)).version == rec.version  # asking changed nothing
    itx, replies = fake_itx(app, BEN, name="Ben", member_perms=MANAGER)
    await app.on_component(itx, cid)
    assert replies.last[0] == "edit_original" and "Skipped the turn of Ana" in replies.text
    after = await current(app)
    assert after.state is not None and after.state.current == 1
    lines = await app.service.log(CHANNEL)
    assert any("skipped by Ben" in line for line in lines)
    # The same confirmation pressed again is stale: nothing is skipped twice.
    itx, replies = fake_itx(app, BEN, name="Ben", member_perms=MANAGER)
    await app.on_component(itx, cid)
    assert "moved on" in replies.text
    assert (await current(app)).version == after.version


async def test_skip_is_refused_to_players_without_the_right(app: GameApp) -> None:
    rec = await started(app)
    itx, replies = fake_itx(app, BEN)
    await app.run_command(itx, "skip", {})
    assert "Only the host or a member with Manage Channels" in replies.text
    assert replies.last[2]["ephemeral"] is True and "view" not in replies.last[2]
    # A confirmation button forwarded to someone without the right does nothing either.
    cid = ids.CustomId("skip", rec.id, rec.version, "0")
    itx, replies = fake_itx(app, CLEO)
    await app.on_component(itx, cid)
    assert "Only the host" in replies.text
    assert (await current(app)).version == rec.version


async def test_skip_in_a_lobby_says_there_is_nothing_to_skip(app: GameApp) -> None:
    await lobby(app)
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "skip", {})
    assert "Nothing to skip" in replies.text


# --- replace ---------------------------------------------------------------------------------


async def test_replace_with_confirmation_hands_the_seat_over(app: GameApp) -> None:
    await started(app)
    opts = {"old": member(BEN, "Ben"), "new": member(CLEO, "Cleo")}
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "replace", opts)
    assert "Hand seat 2 from Ben to Cleo?" in replies.text
    assert replies.last[2]["ephemeral"] is True
    cid = decode_only(replies)
    assert (await current(app)).seat_of(BEN) == 1  # not yet
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, cid)
    assert "Seat 2 now belongs to Cleo" in replies.text
    rec = await current(app)
    assert rec.seat_of(CLEO) == 1 and rec.seat_of(BEN) is None
    # Cleo now gets the panel of seat 2; Ben is told he is not playing.
    itx, replies = fake_itx(app, CLEO)
    await app.on_component(itx, ids.CustomId("play", rec.id, rec.version))
    assert "Round 1" in replies.text
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("play", rec.id, rec.version))
    assert "not playing" in replies.text


@pytest.mark.parametrize(
    ("user", "perms", "old", "new", "expected"),
    [
        (BEN, None, (ANA, "Ana"), (CLEO, "Cleo"), "Only the host"),
        (ANA, None, (CLEO, "Cleo"), (404, "Dee"), "has no seat"),
        (ANA, None, (BEN, "Ben"), (ANA, "Ana"), "already has a seat"),
        (CLEO, MANAGER, (BEN, "Ben"), (999, "Botty"), "A bot can't"),
    ],
)
async def test_replace_refusals(
    app: GameApp,
    user: int,
    perms: discord.Permissions | None,
    old: tuple[int, str],
    new: tuple[int, str],
    expected: str,
) -> None:
    rec = await started(app)
    opts = {"old": member(*old), "new": member(*new, bot=new[0] == 999)}
    itx, replies = fake_itx(app, user, member_perms=perms)
    await app.run_command(itx, "replace", opts)
    assert expected in replies.text and replies.last[2]["ephemeral"] is True
    assert "view" not in replies.last[2]
    after = await current(app)
    assert after.version == rec.version and after.seats == rec.seats


async def test_a_replace_confirmation_from_before_a_restart_is_refused(app: GameApp) -> None:
    rec = await started(app)
    cid = ids.CustomId("replace", rec.id, rec.version, f"{BEN}.{CLEO}")
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, cid)
    assert "expired" in replies.text
    assert (await current(app)).seat_of(BEN) == 1


# --- lobby: remove and seating ---------------------------------------------------------------


async def test_remove_and_the_seating_button_are_for_the_host(app: GameApp) -> None:
    rec = await lobby(app)
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "seating"))
    assert "Only the host" in replies.text
    assert (await current(app)).seating == "random"
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "seating"))
    assert "Seat order: the join order" in replies.text
    assert (await current(app)).seating == "join"
    itx, replies = fake_itx(app, BEN)
    await app.run_command(itx, "remove", {"member": member(ANA, "Ana")})
    assert "Only the host" in replies.text
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "remove", {"member": member(BEN, "Ben")})
    assert "Ben was removed from the lobby" in replies.text
    assert [s.user_id for s in (await current(app)).seats] == [ANA]


# --- mygames, about ----------------------------------------------------------------------------


async def test_mygames_links_each_channel_and_says_what_to_decide(app: GameApp) -> None:
    await started(app)  # Ana must choose
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "mygames", {})
    assert replies.last[2]["ephemeral"] is True
    assert f"<#{CHANNEL}> Nauticus — **your turn**: choose an action" in replies.text
    assert "<t:" in replies.text  # how long it has waited, in the reader's time zone
    itx, replies = fake_itx(app, BEN)
    await app.run_command(itx, "mygames", {})
    assert f"<#{CHANNEL}> Nauticus — seat 2: waiting for Ana" in replies.text
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "mygames", {})
    assert "no seat" in replies.text


async def test_about_gives_versions_uptime_and_games_here(app: GameApp) -> None:
    await started(app)
    app.clock.now += 7200  # type: ignore[attr-defined]
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "about", {})
    text = replies.text
    assert replies.last[2]["ephemeral"] is True
    assert "Nauticus (`/nauticus`, engine nauticus-1, 2–4 players)" in text
    assert "**Nautilus games bot** 0." in text
    assert "Up for 2 h 0 min" in text and "1 game in progress" in text
    itx, replies = fake_itx(app, CLEO, guild_id=GUILD + 1)
    await app.run_command(itx, "about", {})
    assert "0 games in progress" in replies.text


# --- N-BUY-5 through the slash command and the panel -------------------------------------------


async def test_a_lost_tile_needs_confirm_true_or_the_panel_asks_once(app: GameApp) -> None:
    user, move = await at_full_storage(app.service, CHANNEL, (ANA, BEN))
    rec = await current(app)
    itx, replies = fake_itx(app, user)
    await app.run_command(itx, "buy", {"item": "grain", "to": "storage"})
    assert "would be lost" in replies.text and "confirm:True" in replies.text
    assert (await current(app)).version == rec.version
    # The panel: choosing the grain asks once, the Yes button buys it.
    state = rec.state
    assert state is not None and state.current is not None
    seat = state.current
    from bot.discord_app import panel

    key = next(k for k, g in panel.groups(PLUGIN, seen_of(state, seat)).items() if move in g.moves)
    itx, replies = fake_itx(app, user)
    page = 0
    await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, str(page)), [key])
    assert "**Please confirm:**" in replies.text and "would be lost" in replies.text
    ok = [c for c in map(ids.decode, custom_ids(replies.last[2]["view"])) if c and c.kind == "ok"]
    assert len(ok) == 1
    assert (await current(app)).version == rec.version
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ok[0])
    after = await current(app)
    assert after.version == rec.version + 1
    assert "✅" in replies.text
    assert after.state is not None and move not in legal_moves(after.state, seat)


@pytest.mark.parametrize("kind", ["duel", "island"])
async def test_the_skip_prompt_names_nothing_the_moderator_cannot_see(
    app: GameApp, kind: str
) -> None:
    """The moderator is often the opponent (issue 21, item 2): the prompt must read the same
    whatever the skipped seat holds. Re-deal everything the table cannot see and ask again."""
    import random
    from dataclasses import replace

    await app.service.open_lobby(GUILD, CHANNEL, ANA, "Ana", kind=kind)
    await app.service.join(CHANNEL, BEN, "Ben")
    rec = await app.service.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=8)
    assert rec.state is not None
    rules = rec.plugin.rules
    said = []
    for k in range(4):
        state = rec.state if k == 0 else rules.determinize(rec.state, None, random.Random(k))
        app.service._remember(replace(rec, state=state))
        itx, replies = fake_itx(app, CLEO, name="Cleo", member_perms=MANAGER)
        await app.run_command(itx, "skip", {})
        assert "Skip the turn of" in replies.text and "the AI decides and plays" in replies.text
        said.append(replies.text)
    assert len(set(said)) == 1
    assert "starting with" not in said[0]
