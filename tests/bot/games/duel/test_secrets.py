"""A whole Nautilus duel through the real GameService, outbox and panel: after every move,
nothing the table or the other player can see names a secret.

Checked after every move, against `kit.secret_patterns` (what `view(state, None)` or the other
seat's view does not show, named the way our writers name cards and specials): every channel
post and edit (text and alt texts), the status line and the public log for the table; for each
seat the log as it reads it, its mygames line, its panel, autocomplete, hand text and hand
picture's alt text, against the *other* seat's secrets. The same check finds the leak of a
deliberately wrong build (the channel given a seat's view; the old describe that named the
special kept), so it is not vacuous.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import panel
from bot.games.duel import calls
from bot.games.duel import move_words as duel_move_words
from bot.outbox import Outbox, OutMessage
from bot.service import GameRecord, GameService
from bot.store import Store
from bot.visibility import event_dict
from engine import duel
from engine.duel import data
from tests.bot.games.digest import digest_moves, split_digest
from tests.bot.games.duel.kit import leaks, secret_patterns, secrets

GUILD, CH = 1, 88
ANA, BEN = 601, 602
USERS = (ANA, BEN)


class Channel:
    """A Sender that keeps every message and edit the channel shows (text and alt texts)."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.pictures = 0
        self.next_id = 1

    def _keep(self, msg: OutMessage) -> None:
        self.pictures += len(msg.files)
        self.seen.append("\n".join([msg.text, *(f.description for f in msg.files)]))

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self._keep(msg)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self._keep(msg)


PRIVATE = "   🔒 only you see: "


def this_round(lines: list[str], round_: int) -> str:
    """The public log lines of the current round: each line was checked in its own round (the
    divers are reshuffled into the hands between rounds, so an old "Place the 7" is no leak)."""
    return "\n".join(x for x in lines if f" R{round_}·" in x and not x.startswith(PRIVATE))


async def private_views(
    svc: GameService, rec: GameRecord, seat: int, own_lines: set[str]
) -> list[str]:
    """Everything the holder of `seat` can be shown in replies only they read. Its log's
    private lines must each be one of its own private events in words (`own_lines`)."""
    plugin = rec.plugin
    mine = rec.seen(seat)
    log = await svc.log(CH, 50, reader_id=USERS[seat])
    for line in log:
        if line.startswith(PRIVATE):
            assert line[len(PRIVATE) :] in own_lines, line
    out = [
        panel.build(plugin, mine).to_text(),
        plugin.hand_text(mine),
        this_round(log, rec.state.round),
        "\n".join(g.decide for g in await svc.my_games(GUILD, USERS[seat])),
    ]
    for command in plugin.move_commands:
        for option in command.options:
            out += [s.name for s in plugin.suggest(mine, command.name, option.name, "", {})]
    # The second menus too: every group of the panel opened.
    for key in panel.groups(plugin, mine):
        out.append(panel.build(plugin, mine, panel.Selection(group=key)).to_text())
    out += [p.description for p in plugin.draw(plugin.hand_pictures(), mine)]
    return out


async def log_texts(store: Store, game_id: int) -> set[str]:
    async with store.read() as tx:
        return {m.text for m in await tx.moves(game_id)}


def without_digest(text: str, logged: set[str]) -> str:
    """A turn ping's "since your last move" lines are the public log's own lines (checked here
    to be exactly that), which may name a card of an earlier round, reshuffled since: the log
    is checked round by round below, so the ping is checked without them."""
    rest, lines = split_digest(text)
    for line in lines:
        for part in digest_moves(line):
            assert part in logged or part.startswith("…"), part
    return rest


async def play(
    tmp_path: Path, seed: int, until: Callable[[list[str]], bool] | None = None
) -> tuple[list[str], dict[str, int]]:
    """Play a duel to the end; return every leak found and a few counts. With `until`, stop as
    soon as the leaks found satisfy it: a test of a planted leak needs only to see the check
    catch it, not the rest of the game."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = await Store.open(tmp_path / f"duel-{seed}.db")
    channel = Channel()
    found: list[str] = []
    counts = {"moves": 0, "secret_divers": 0, "secret_specials": 0, "own_divers_shown": 0}
    try:
        outbox = Outbox(store, channel)
        svc = GameService(store, outbox=outbox)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, seed=seed, order=[ANA, BEN])
        await outbox.deliver_pending()
        rng = random.Random(seed)
        checked = 0
        # Each seat's private events in words, as its own log may show them.
        own_lines: tuple[set[str], set[str]] = (set(), set())
        published: set[int] = set()
        while True:
            state = rec.state
            assert isinstance(state, duel.State)
            public = [
                without_digest(t, await log_texts(store, rec.id)) for t in channel.seen[checked:]
            ]
            checked = len(channel.seen)
            public.append(rec.plugin.status_line(rec.seen(None)))
            public.append(this_round(await svc.log(CH, 50), state.round))
            found += [
                f"public: {x}" for x in leaks(public, secret_patterns(state, None, published))
            ]
            for seat in (0, 1):
                mine = await private_views(svc, rec, seat, own_lines[seat])
                found += [
                    f"seat {seat + 1}: {x}" for x in leaks(mine, secret_patterns(state, seat))
                ]
                # The holder does see its own divers: the check reads the right texts.
                divers = state.hands[seat].divers
                if divers:
                    assert f"Your divers: **{', '.join(map(str, divers))}**" in mine[0]
                    counts["own_divers_shown"] += 1
            hidden_divers, hidden_specials = secrets(state, None)
            counts["secret_divers"] += len(hidden_divers)
            counts["secret_specials"] += len(hidden_specials)
            if until is not None and until(found):
                return found, counts
            if rec.status != "active":
                break
            seat = rec.current
            assert seat is not None
            move = dict(rng.choice(rec.seen(seat).legal))
            if counts["moves"] % 3 == 0:
                # Some moves as typed slash commands: through call_text and move_from_call.
                command, options = move["type"], calls.options_of(move)
                move = rec.plugin.move_from_call(command, options)
            result = await svc.play(CH, USERS[seat], move)
            rec = result.record
            published = {
                v
                for e in result.events
                if e.private_to is None
                for v in ([e.card] if e.kind in ("placed", "anchored", "arrow_moved") else [])
                + (list(e.values) if e.kind == "slot_awarded" else [])
            }
            for e in result.events:
                if e.private_to is not None:
                    own_lines[e.private_to].add(rec.plugin.private_line(event_dict(e)))
            counts["moves"] += 1
            await outbox.deliver_pending()
        assert rec.status == "finished"
        assert channel.pictures > 60  # a board after every placement, and the score sheet
        assert "The Nautilus duel is over." in channel.seen[-1] or any(
            "The Nautilus duel is over." in t for t in channel.seen[-3:]
        )
    finally:
        await store.close()
    return found, counts


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_secret_reaches_anyone_but_its_holder(tmp_path: Path, seed: int) -> None:
    found, counts = await play(tmp_path, seed)
    assert found == []
    assert counts["moves"] > 60
    # There was something to leak all along: hidden divers and specials at most moves.
    assert counts["secret_divers"] > counts["moves"] * 3
    assert counts["secret_specials"] > 10
    assert counts["own_divers_shown"] > counts["moves"]


async def test_the_check_finds_a_channel_given_a_seats_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plugin whose status line shows the reader's hand whenever its view has one (as the
    # panel's header does) is safe on a sound platform: the channel's view has no hand ...
    import bot.core.game
    import bot.visibility
    from bot.games.duel import plugin as duel_plugin

    real_status = duel_plugin.DuelPlugin.status_line

    def status_with_hand(self: Any, seen: Any) -> str:
        line = real_status(self, seen)
        if seen.view.get("me") is not None:
            line += " · " + duel_plugin._resources(replace(seen, audience=seen.view["me"]["seat"]))
        return line

    monkeypatch.setattr(duel_plugin.DuelPlugin, "status_line", status_with_hand)
    found, _ = await play(tmp_path / "sound", 1)
    assert found == []

    # ... and leaks at once on a platform that builds the channel's words from seat 1's view.
    real = bot.visibility.seen

    def leaky(plugin: Any, state: Any, names: Any, audience: int | None) -> Any:
        wrong = real(plugin, state, names, 0 if audience is None else audience)
        return replace(wrong, audience=audience, legal=() if audience is None else wrong.legal)

    def caught(found: list[str]) -> bool:
        return any(f.startswith("public: ") and "Your divers" in f for f in found)

    monkeypatch.setattr(bot.core.game, "seen", leaky)
    found, _ = await play(tmp_path / "leaky", 1, until=caught)
    assert caught(found)


async def test_the_check_finds_the_old_describe_naming_the_special_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The log line is the bot's `describe` of the move (bot/games/duel/move_words.py).
    real = duel_move_words.describe

    def old(move: Any, state: Any = None) -> str:
        if move.get("type") == "keep":
            return f"Keep the {data.SPECIAL_NAMES[move['special']]}"
        if move.get("type") == "dive":
            return f"Keep the {move['keep']} from the diving module"
        return real(move, state)

    monkeypatch.setattr(duel_move_words, "describe", old)

    def caught(found: list[str]) -> bool:
        return any("public: " in f and ("Keep the" in f) for f in found) and any(
            f.startswith("seat ")
            for f in found  # the other player's log too
        )

    found, _ = await play(tmp_path, 2, until=caught)
    assert caught(found)


async def test_log_lines_of_secret_moves_are_private_to_their_owner(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "log.db")
    try:
        svc = GameService(store)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, seed=4, order=[ANA, BEN])
        seat = rec.current
        assert seat is not None
        move = rec.seen(seat).legal[0]
        kept = data.SPECIAL_NAMES[move["special"]]
        await svc.play(CH, USERS[seat], dict(move))
        own = "\n".join(await svc.log(CH, reader_id=USERS[seat]))
        other = "\n".join(await svc.log(CH, reader_id=USERS[1 - seat]))
        table = "\n".join(await svc.log(CH))
        assert f"only you see: you kept the {kept}" in own
        assert "kept one of the two specials drawn" in table
        assert f"kept the {kept}" not in other and f"kept the {kept}" not in table
    finally:
        await store.close()


def test_offline_runner_plays_a_duel_to_the_end(tmp_path: Path) -> None:
    import asyncio

    from bot.offline import run_offline

    result = asyncio.run(run_offline(None, 1, tmp_path, game="duel"))
    assert result.moves > 60 and len(result.pictures) > 60
    assert {p.name for p in (tmp_path / "private").iterdir() if p.suffix == ".md"} == {
        "ana.md",
        "ben.md",
    }
    assert result.private_pictures
    text = result.transcript.read_text()
    assert "The Nautilus duel is over." in text and "Round 6/6 · placement 10/10" in text
