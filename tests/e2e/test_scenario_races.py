"""Scenario 3: clicks that race each other have exactly one effect."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord_app import panel as panel_model
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.e2e.client import Reply
from tests.e2e.conftest import HANG_GUARD, World, assert_answered
from tests.e2e.fake_discord import Message
from tests.e2e.game import Table, lobby_message, panel_version, pings_for, read_game, start_table
from tests.e2e.policy import Policy


def single_choice(table: Table) -> str | None:
    """A "What do you do?" value that plays a move at once (a group of one move)."""
    state = table.game.state
    assert state is not None and state.current is not None
    groups = panel_model.groups(PLUGIN, seen_of(state, state.current))
    return next(
        (
            k
            for k, g in groups.items()
            if len(g.moves) == 1 and k not in {b.key for b in PLUGIN.panel.buttons}
        ),
        None,
    )


async def until_single(table: Table) -> str:
    """Play on (through the panel) until the current player has a one-click move."""
    policy = Policy(1)
    for _ in range(50):
        value = single_choice(table)
        if value is not None:
            return value
        assert table.game.state is not None
        table.game, _ = await table.driver.play(table.game, policy.pick(table.game.state))
    raise AssertionError("no one-click move in 50 moves")


async def fresh_panel(table: Table) -> Message:
    user = table.current_user()
    pings = await table.world.fake.wait_for(
        lambda: pings_for(table.world.fake, table.channel, user)
    )
    reply = await user.click(pings[-1], "Play")
    return await reply.message()


async def shown(table: Table, *replies: Reply) -> None:
    for reply in replies:
        ix = reply.interaction
        await table.world.fake.wait_for(lambda ix=ix: ix.shown, what=f"result of {ix.id}")  # type: ignore[misc]


def texts_of(reply: Reply) -> list[str]:
    """Every text the bot showed for this interaction, edits of a shared panel included."""
    ix = reply.interaction
    said = [str(c.data.get("content")) for c in ix.callbacks if c.data.get("content")]
    for call in reply.fake.calls:
        body = call.body if isinstance(call.body, dict) else {}
        if ix.token in call.path and call.status < 300 and body.get("content"):
            said.append(str(body["content"]))
    return said


async def test_races_have_exactly_one_effect(world: World, tmp_path: Path) -> None:
    async with asyncio.timeout(HANG_GUARD):
        await _races(world, tmp_path)
    assert_answered(world.fake)


async def _races(world: World, tmp_path: Path) -> None:
    fake = world.fake
    table = await start_table(world, tmp_path)
    try:
        # 1. A double click: the same select choice sent twice at once.
        value = await until_single(table)
        before, moves = table.game.version, len(table.moves())
        panel = await fresh_panel(table)
        user = table.current_user()
        key = next(c["custom_id"] for c in panel.iter_components() if c.get("type") == 3)
        first, second = await asyncio.gather(
            user.select(panel, [value], key=key), user.select(panel, [value], key=key)
        )
        await shown(table, first, second)
        assert table.refresh().version == before + 1
        assert len(table.moves()) == moves + 1
        said = texts_of(first) + texts_of(second)
        assert any(t.startswith("✅") for t in said), said
        assert any("second click" in t or "out of date" in t for t in said), said

        # 2. The same interaction delivered twice by the gateway: one response, one effect.
        value = await until_single(table)
        before, moves = table.game.version, len(table.moves())
        panel = await fresh_panel(table)
        user = table.current_user()
        key = next(c["custom_id"] for c in panel.iter_components() if c.get("type") == 3)
        reply = await user.select(panel, [value], key=key)
        await fake.dispatch("INTERACTION_CREATE", reply.interaction.payload)
        await shown(table, reply)
        await fake.wait_for(
            lambda: len(reply.interaction.callbacks) >= 2, what="the second delivery's answer"
        )
        assert [c.status for c in reply.interaction.callbacks].count(200) == 1
        assert table.refresh().version == before + 1
        assert len(table.moves()) == moves + 1

        # 3. Two players clicking at once: the current player plays, another clicks his
        # (not-your-turn) panel and the first player's ping; only the move takes effect.
        value = await until_single(table)
        before, moves = table.game.version, len(table.moves())
        panel = await fresh_panel(table)
        user = table.current_user()
        other = table.others()[0]
        ping = pings_for(fake, table.channel, user)[-1]
        key = next(c["custom_id"] for c in panel.iter_components() if c.get("type") == 3)
        third = table.others()[1]
        mine, theirs, move_cmd = await asyncio.gather(
            user.select(panel, [value], key=key),
            other.click(ping, "Play"),
            third.slash("nauticus pass"),
        )
        await shown(table, mine, theirs, move_cmd)
        assert "not your turn" in " ".join(texts_of(move_cmd)), texts_of(move_cmd)
        assert table.refresh().version == before + 1
        assert len(table.moves()) == moves + 1
        assert texts_of(mine)[0].startswith("✅")
        their_panel = await theirs.message()
        assert their_panel.visible_to == other.id and not their_panel.iter_components()

        # 4. A click on an old panel: two panels from two Play clicks, a move through one;
        # the other is refreshed as out of date and plays nothing.
        value = await until_single(table)
        old = await fresh_panel(table)
        new = await fresh_panel(table)
        assert old.id != new.id and panel_version(old) == panel_version(new)
        user = table.current_user()
        key = next(c["custom_id"] for c in new.iter_components() if c.get("type") == 3)
        await shown(table, await user.select(new, [value], key=key))
        before, moves = table.refresh().version, len(table.moves())
        old_key = next(c["custom_id"] for c in old.iter_components() if c.get("type") == 3)
        stale = await user.select(old, [value], key=old_key, strict=False)
        await shown(table, stale)
        assert table.refresh().version == before and len(table.moves()) == moves
        stale_text = " ".join(texts_of(stale))
        assert "out of date" in stale_text or "not your turn" in stale_text, stale_text

        # 5. The lobby: one user's double Join seats them once.
        host, guest = world.user("dora"), world.user("eve")
        for u in (host, guest):
            u.channel = world.thread
        opened = await host.slash("nauticus new", channel=world.thread)
        await opened.message()
        lobby = await fake.wait_for(lambda: lobby_message(fake, world.thread))
        a, b = await asyncio.gather(guest.click(lobby, "Join"), guest.click(lobby, "Join"))
        said = [(await a.message()).content, (await b.message()).content]
        assert sorted(said) == ["You are already in this lobby.", "You joined the lobby."], said
        lobby_game = read_game(table.db, world.thread.id)
        assert lobby_game is not None
        await fake.wait_for(
            lambda: "2/4 players" in (lobby_message(fake, world.thread) or lobby).content,
            what="the lobby to show two players",
        )
        final_lobby = lobby_message(fake, world.thread)
        assert final_lobby is not None and final_lobby.content.count("Eve") == 1
        assert not [c for c in fake.errors() if c.route != "callback"]
    finally:
        await table.bot.stop()
        print(f"--- bot log (tail) ---\n{table.bot.log()}")
