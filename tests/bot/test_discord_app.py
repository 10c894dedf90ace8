"""Slash commands and component clicks, through the real GameService on a temporary database,
with spec'd fake interactions: who may press what, ephemeral replies, stale panels, errors."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_app import ids, panel
from bot.discord_app.app import GameApp
from bot.outbox import OutFile
from bot.plugin import Seen
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.bot.test_discord_support import CHANNEL, custom_ids, fake_itx

ANA, BEN, CLEO = 101, 202, 303  # Cleo never joins


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fake_draw(game: str, kinds: Any, game_view: dict[str, Any], *_: Any) -> tuple[OutFile, ...]:
    return tuple(OutFile(f"{k}.png", b"\x89PNG", f"alt text of {k}") for k in kinds)


def fake_private(game: str, kinds: Any, seen: Seen) -> tuple[OutFile, ...]:
    seat = seen.audience
    assert seat is not None
    return (OutFile(f"shipyard-seat{seat + 1}.png", b"\x89PNG", f"seat {seat + 1}'s shipyard"),)


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[GameApp]:
    store = await Store.open(tmp_path / "bot.sqlite")
    try:
        yield GameApp(GameService(store), draw=fake_draw, draw_private=fake_private, clock=Clock())
    finally:
        await store.close()


async def lobby(app: GameApp) -> GameRecord:
    itx, _ = fake_itx(app, ANA, name="Ana")
    await app.run_command(itx, "new", {}, game="nauticus")
    rec = await app.service.game_in(CHANNEL)
    assert rec is not None
    itx, replies = fake_itx(app, BEN, name="Ben")
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "join"))
    assert "joined" in replies.text
    rec = await app.service.game_in(CHANNEL)
    assert rec is not None and len(rec.seats) == 2
    return rec


async def started(app: GameApp) -> GameRecord:
    """A 2-player game with a fixed seed and order: Ana seat 1, Ben seat 2. Seed 1 deals
    Masts, Money, Transport, Sails, Crowns, Hulls, Goods, Deliver on spaces 0..7."""
    await lobby(app)
    rec = await app.service.start(CHANNEL, ANA, can_manage=False, order=[ANA, BEN], seed=1)
    assert rec.status == "active"
    return rec


async def test_the_host_starts_the_lobby_with_its_button(app: GameApp) -> None:
    rec = await lobby(app)
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "start"))
    assert "started" in replies.text and replies.last[2]["ephemeral"] is True
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.status == "active" and after.state is not None


def acting(rec: GameRecord) -> tuple[int, int]:
    """(user id, seat) of the player who must decide now."""
    assert rec.state is not None and rec.state.current is not None
    seat = rec.state.current
    return rec.user_at(seat), seat


# --- refusals before anything happens ------------------------------------------------------------


async def test_commands_used_in_a_dm_are_refused(app: GameApp) -> None:
    itx, replies = fake_itx(app, ANA, guild_id=None, channel_id=None)
    await app.run_command(itx, "new", {}, game="nauticus")
    how, text, kwargs = replies.last
    assert how == "send" and kwargs["ephemeral"] is True
    assert "not in direct messages" in (text or "")


async def test_new_names_the_missing_permission_and_opens_nothing(app: GameApp) -> None:
    perms = discord.Permissions.all()
    perms.attach_files = False
    itx, replies = fake_itx(app, ANA, bot_perms=perms)
    await app.run_command(itx, "new", {}, game="nauticus")
    assert "**Attach Files**" in replies.text and replies.last[2]["ephemeral"] is True
    assert await app.service.game_in(CHANNEL) is None


async def test_a_second_lobby_in_the_same_channel_is_refused(app: GameApp) -> None:
    await lobby(app)
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "new", {}, game="nauticus")
    assert "already has a lobby" in replies.text
    assert replies.last[2]["ephemeral"] is True


async def test_only_the_host_or_manage_channels_may_start(app: GameApp) -> None:
    rec = await lobby(app)
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "start"))
    assert "Only the host or a member with Manage Channels" in replies.text
    assert (await app.service.game_in(CHANNEL)).status == "lobby"  # type: ignore[union-attr]
    itx, replies = fake_itx(app, BEN, member_perms=discord.Permissions(manage_channels=True))
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "start"))
    assert (await app.service.game_in(CHANNEL)).status == "active"  # type: ignore[union-attr]


async def test_a_button_of_an_old_game_is_refused(app: GameApp) -> None:
    rec = await lobby(app)
    itx, replies = fake_itx(app, CLEO)
    await app.on_component(itx, ids.CustomId("lobby", rec.id + 1, rec.version, "join"))
    assert "no longer running" in replies.text
    assert len((await app.service.game_in(CHANNEL)).seats) == 2  # type: ignore[union-attr]


# --- the panel -----------------------------------------------------------------------------------


async def test_play_opens_an_ephemeral_panel_only_for_the_seated_player(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    other = BEN if user == ANA else ANA
    play = ids.CustomId("play", rec.id, rec.version)

    itx, replies = fake_itx(app, CLEO)
    await app.on_component(itx, play)
    assert "not playing in this game" in replies.text and replies.last[2]["ephemeral"]

    itx, replies = fake_itx(app, other)
    await app.on_component(itx, play)
    assert "not your turn" in replies.text and "view" not in replies.last[2]

    itx, replies = fake_itx(app, user)
    await app.on_component(itx, play)
    how, text, kwargs = replies.last
    assert how == "send" and kwargs["ephemeral"] is True
    assert "you are start player" in (text or "")
    cids = [ids.decode(c) for c in custom_ids(kwargs["view"])]
    assert cids == [ids.CustomId("w", rec.id, rec.version, "0")]


async def test_a_select_choice_plays_the_move_and_edits_the_panel_in_place(
    app: GameApp,
) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), ["choose.0"])
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    assert after.state is not None and after.state.chosen == (0,)
    assert [c[0] for c in replies.calls] == ["defer", "edit_original"]
    text, view = replies.last[1] or "", replies.last[2]["view"]
    assert re.match(r"✅ \w+ chose ", text)
    assert all(ids.decode(c).version == after.version for c in custom_ids(view))  # type: ignore[union-attr]


async def test_a_stale_panel_is_refused_with_a_fresh_one(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    old = ids.CustomId("w", rec.id, rec.version, "0")
    itx, _ = fake_itx(app, user)
    await app.on_component(itx, old, ["choose.0"])
    # The same click again (a double click, or an old panel): refused, nothing applied twice.
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, old, ["choose.1"])
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    assert after.state is not None and after.state.chosen == (0,)
    how, text, kwargs = replies.last
    assert how == "edit" and "out of date" in (text or "")
    assert {ids.decode(c).version for c in custom_ids(kwargs["view"])} == {after.version}  # type: ignore[union-attr]


async def test_a_second_select_picks_the_destination(app: GameApp) -> None:
    rec = await started(app)
    user = ANA
    itx, _ = fake_itx(app, user)
    await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), ["choose.5"])
    rec = await app.service.game_in(CHANNEL)  # type: ignore[assignment]
    itx, _ = fake_itx(app, user)  # Hulls on space 5 comes with a good of one's choice
    await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), ["bonus.fish"])
    rec = await app.service.game_in(CHANNEL)  # type: ignore[assignment]
    assert rec.state is not None
    key = "buy.middle"  # costs 1 on space 5: storage or a new ship
    assert len(panel.groups(PLUGIN, seen_of(rec.state, 0))[key].moves) == 2
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), [key])
    how, text, kwargs = replies.last
    assert how == "edit" and "where does it go?" in (text or "")
    then = [c for c in custom_ids(kwargs["view"]) if c.startswith("nx:t:")]
    assert then == [f"nx:t:{rec.id}:{rec.version}:{key}/0"]
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ids.decode(then[0]), ["m:1"])  # type: ignore[arg-type]
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    assert after.state is not None and after.state.players[0].ships[0].hulls == ("middle",)
    assert re.match(r"✅ \w+ bought a middle for 1 taler → a new ship", replies.text)


async def test_end_turn_with_unused_blue_workers_asks_to_confirm(app: GameApp) -> None:
    rec = await started(app)
    # Goods on space 6 (3 blue workers, bonus 1 worker + 1 VP); grain costs 0 there, so its one
    # destination is storage and choosing it buys at once, with one of the blue workers.
    user = ANA
    for value in ("choose.6", "buy.grain"):
        itx, _ = fake_itx(app, user)
        await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), [value])
        rec = await app.service.game_in(CHANNEL)  # type: ignore[assignment]
    assert rec.state is not None and rec.state.turn is not None and rec.state.turn.blue == 2
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ids.CustomId("b", rec.id, rec.version, "end_turn"))
    assert (await app.service.game_in(CHANNEL)).version == rec.version  # type: ignore[union-attr]
    text, view = replies.text, replies.last[2]["view"]
    assert "Please confirm" in text and "2 blue workers" in text
    assert custom_ids(view) == [
        f"nx:ok:{rec.id}:{rec.version}:end_turn",
        f"nx:b:{rec.id}:{rec.version}:back",
    ]
    itx, replies = fake_itx(app, user)
    await app.on_component(itx, ids.decode(custom_ids(view)[0]))  # type: ignore[arg-type]
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    assert re.match(r"✅ \w+ ended their turn", replies.text)


async def test_panel_clicks_by_a_player_whose_turn_it_is_not_are_refused(
    app: GameApp,
) -> None:
    rec = await started(app)  # Ana must choose
    for cid, values in [
        (ids.CustomId("w", rec.id, rec.version, "0"), ["choose.0"]),
        (ids.CustomId("b", rec.id, rec.version, "end_turn"), []),
        (ids.CustomId("ok", rec.id, rec.version, "pass"), []),
    ]:
        itx, replies = fake_itx(app, BEN)
        await app.on_component(itx, cid, values)
        assert replies.text.startswith("It's not your turn: Ana (seat 1) must choose")
        assert replies.last[0] == "send" and replies.last[2]["ephemeral"] is True
    assert (await app.service.game_in(CHANNEL)).version == rec.version  # type: ignore[union-attr]


async def test_leave_and_cancel_the_lobby(app: GameApp) -> None:
    rec = await lobby(app)
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "leave"))
    assert "left" in replies.text
    assert [s.user_id for s in (await app.service.game_in(CHANNEL)).seats] == [ANA]  # type: ignore[union-attr]
    itx, replies = fake_itx(app, BEN)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "cancel"))
    assert "Only the host" in replies.text
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, ids.CustomId("lobby", rec.id, rec.version, "cancel"))
    assert "cancelled" in replies.text and await app.service.game_in(CHANNEL) is None


# --- move commands ---------------------------------------------------------------------------


async def test_move_commands_refuse_the_wrong_player_and_illegal_moves(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    other = BEN if user == ANA else ANA
    itx, replies = fake_itx(app, other)
    await app.run_command(itx, "choose", {"space": 0})
    assert replies.text.startswith("It's not your turn") and replies.last[2]["ephemeral"]
    itx, replies = fake_itx(app, user)
    await app.run_command(itx, "money", {"workers": 1})
    assert "money" in replies.text.lower() and replies.last[2]["ephemeral"]
    itx, replies = fake_itx(app, user)
    await app.run_command(itx, "buy", {"item": "rowboat", "to": "storage"})
    assert "not an item" in replies.text
    assert (await app.service.game_in(CHANNEL)).version == rec.version  # type: ignore[union-attr]


async def test_a_move_command_plays_and_answers_with_the_panel(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    itx, replies = fake_itx(app, user)
    await app.run_command(itx, "choose", {"space": 7})  # space 7: 4 taler, no tile to pick
    after = await app.service.game_in(CHANNEL)
    assert after is not None and after.version == rec.version + 1
    how, text, kwargs = replies.last
    assert how == "followup" and kwargs["ephemeral"] is True
    assert re.match(r"✅ \w+ chose ", text or "")
    itx, replies = fake_itx(app, user)
    await app.run_command(itx, "pass", {})
    assert "confirm:True" in replies.text  # the start player passing after the bonus
    assert (await app.service.game_in(CHANNEL)).version == after.version  # type: ignore[union-attr]
    perms = discord.Permissions.all()
    perms.embed_links = False
    itx, replies = fake_itx(app, user, bot_perms=perms)
    await app.run_command(itx, "pass", {"confirm": True})
    assert (await app.service.game_in(CHANNEL)).version == after.version + 1  # type: ignore[union-attr]
    # The move stands, and the player learns why the channel may not show it.
    assert re.match(r"✅ \w+ passed", replies.text) and "missing Embed Links" in replies.text


async def test_autocomplete_offers_only_legal_values_for_the_caller(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    other = BEN if user == ANA else ANA
    itx, _ = fake_itx(app, user)
    found = await app.autocomplete(itx, "choose", "space", "")
    assert [s.value for s in found] == list(range(8))
    itx, _ = fake_itx(app, other)
    assert await app.autocomplete(itx, "choose", "space", "") == []
    itx, _ = fake_itx(app, user, namespace={"item": "bow"})
    assert await app.autocomplete(itx, "buy", "to", "") == []  # no buying before choosing


# --- looking, errors, abort ------------------------------------------------------------------


async def test_public_board_is_limited_to_once_per_two_minutes(app: GameApp) -> None:
    await started(app)
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "board", {"public": True})
    how, _, kwargs = replies.last
    assert how == "followup" and kwargs["ephemeral"] is False
    assert kwargs["files"][0].description == "alt text of board"
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "board", {"public": True})
    assert "another can be posted in" in replies.text and replies.last[2]["ephemeral"] is True
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "board", {})
    assert replies.last[2]["ephemeral"] is True and replies.last[2]["files"]
    app.clock.now += 121  # type: ignore[attr-defined]
    itx, replies = fake_itx(app, CLEO)
    await app.run_command(itx, "board", {"public": True})
    assert replies.last[2]["ephemeral"] is False


async def test_rules_status_and_log_answer_ephemerally(app: GameApp) -> None:
    rec = await started(app)
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("rules", {"topic": "ships"}, "N-YARD-5"),
        ("status", {}, "must choose an action"),
        ("log", {"moves": 5}, "No moves yet"),
        ("me", {}, "Your shipyard"),
    ]
    for name, options, needle in cases:
        user = rec.user_at(0)
        itx, replies = fake_itx(app, user)
        await app.run_command(itx, name, options)
        assert needle in replies.text, name
        assert replies.last[2]["ephemeral"] is True
        assert replies.last[2]["allowed_mentions"].to_dict()["parse"] == []
        if name == "me":
            (picture,) = replies.last[2]["files"]
            assert picture.filename == "shipyard-seat1.png"
            assert picture.description == "seat 1's shipyard"


async def test_internal_errors_show_an_error_id_and_log_the_game(
    app: GameApp, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = await started(app)
    user, _ = acting(rec)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(app.service, "play", broken)
    itx, replies = fake_itx(app, user)
    with caplog.at_level(logging.ERROR):
        await app.on_component(itx, ids.CustomId("w", rec.id, rec.version, "0"), ["choose.0"])
    m = re.search(r"error `([0-9a-f]{6})`", replies.text)
    assert m is not None and replies.last[2]["ephemeral"] is True
    assert "disk on fire" not in replies.text
    record = next(r for r in caplog.records if m.group(1) in r.getMessage())
    assert f"game {rec.id}" in record.getMessage() and record.exc_info is not None


async def test_abort_needs_the_host_or_manage_channels_and_a_confirmation(
    app: GameApp,
) -> None:
    rec = await started(app)
    itx, replies = fake_itx(app, BEN)
    await app.run_command(itx, "abort", {})
    assert "Only the host" in replies.text and "view" not in replies.last[2]
    itx, replies = fake_itx(app, ANA)
    await app.run_command(itx, "abort", {})
    assert (await app.service.game_in(CHANNEL)).status == "active"  # type: ignore[union-attr]
    (button,) = custom_ids(replies.last[2]["view"])
    assert button == f"nx:abort:{rec.id}:{rec.version}:yes"
    itx, replies = fake_itx(app, ANA)
    await app.on_component(itx, ids.decode(button))  # type: ignore[arg-type]
    assert await app.service.game_in(CHANNEL) is None
    assert "aborted" in replies.text


async def test_a_flagged_game_offers_no_panel_and_says_it_is_on_hold(app: GameApp) -> None:
    rec = await started(app)
    user, _ = acting(rec)
    async with app.service.store.write() as tx:
        await tx.flag_game(rec.id, "[e1f2] test")
    # A restarted bot reads the flag from the database.
    restarted = GameApp(
        GameService(app.service.store), draw=fake_draw, draw_private=fake_private, clock=Clock()
    )
    itx, replies = fake_itx(restarted, user)
    await restarted.on_component(itx, ids.CustomId("play", rec.id, rec.version))
    assert "on hold" in replies.text and "[e1f2] test" in replies.text
    assert "view" not in replies.last[2] and replies.last[2]["ephemeral"]
