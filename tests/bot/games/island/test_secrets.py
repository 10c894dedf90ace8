"""Nautilus Island's secrets through the platform: whole 3-player games through the real
GameService, outbox and panel. After every move, nothing anyone but a card's holder can see —
channel posts, edits, pings, picture alt texts and bytes, status, the log, mygames, and the
other seats' panels, autocomplete and hand replies — names a card that audience may not know.

Two checks, both against what the engine's views and events let each audience know:

- identity: a card id ("food:ham:3") may appear only if it has appeared in that audience's view
  or readable events at some point of the game so far;
- object names: a text made after a move may name an object ("ham") only if the audience could
  see that object then — in its view before or after the last few moves (a turn is at most
  three), or in the events it may read of those moves. Logs, which look back over the game, are
  checked against everything the audience has been able to see so far.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import panel
from bot.games.island import words
from bot.games.island.plugin import PLUGIN
from bot.outbox import Outbox, OutMessage
from bot.service import GameRecord, GameService
from bot.store import Store
from engine import island
from engine.island import data
from tests.bot.games.digest import split_digest
from tests.sweep import sweep

GUILD, CH = 1, 88
USERS = (601, 602, 603)
NAMES = ("Ana", "Ben", "Cleo")
CARD = re.compile(r"[a-z]+:[a-z]+:[1-4]")
OBJECT = re.compile(r"\b(" + "|".join(data.OBJECT_CATEGORY) + r")\b")
WINDOW = 4  # moves whose views and events count as "just seen"


class Channel:
    """A Sender that keeps what the channel shows: texts and alt texts, and picture bytes."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.raw: list[str] = []
        self.next_id = 1

    def _keep(self, msg: OutMessage) -> None:
        self.texts.append("\n".join([msg.text, *(f.description for f in msg.files)]))
        self.raw += [f.data.decode("latin-1") for f in msg.files]

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self._keep(msg)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self._keep(msg)


def ids_in(obj: Any) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


def objects_in(obj: Any) -> set[str]:
    """Object names in a view or events (from their card ids and 'object' fields)."""
    text = json.dumps(obj)
    return {c.split(":")[1] for c in CARD.findall(text)} | set(
        re.findall(r'"object": "([a-z]+)"', text)
    )


class Knowledge:
    """What each audience (None = everyone, or a seat) has been able to see, ever and lately."""

    def __init__(self, players: int) -> None:
        self.audiences: list[int | None] = [None, *range(players)]
        self.ids: dict[int | None, set[str]] = {a: set() for a in self.audiences}
        self.objects: dict[int | None, set[str]] = {a: set() for a in self.audiences}
        self.recent: dict[int | None, list[set[str]]] = {a: [] for a in self.audiences}

    def saw(self, state: island.State, events: list[dict[str, Any]]) -> None:
        for a in self.audiences:
            view = island.view(state, a)
            readable = [e for e in events if e.get("private_to") in (None, a)]
            self.ids[a] |= ids_in(view) | ids_in(readable)
            now = objects_in(view) | objects_in(readable)
            self.objects[a] |= now
            self.recent[a] = [*self.recent[a][-WINDOW:], now]

    def lately(self, audience: int | None) -> set[str]:
        return set().union(*self.recent[audience])


def leaks(texts: list[str], known: Knowledge, audience: int | None, *, ever: bool) -> list[str]:
    allowed = known.objects[audience] if ever else known.lately(audience)
    found = []
    for t in texts:
        found += [f"card {c}" for c in CARD.findall(t) if c not in known.ids[audience]]
        found += [f"object {o}" for o in OBJECT.findall(t) if o not in allowed]
    return found


async def seat_views(svc: GameService, rec: GameRecord, seat: int) -> tuple[list[str], str]:
    """What the holder of `seat` alone is shown now (panel, hand, autocomplete, pictures), and
    their log."""
    mine = rec.seen(seat)
    out = [panel.build(PLUGIN, mine).to_text(), PLUGIN.hand_text(mine)]
    for cmd in PLUGIN.move_commands:
        for opt in cmd.options:
            for filled in ({}, *({"category": c} for c in data.STORABLE)):
                out += [
                    s.name + " " + str(s.value)
                    for s in PLUGIN.suggest(mine, cmd.name, opt.name, "", filled)
                ]
    # The panel's second menus too.
    for key, group in panel.groups(PLUGIN, mine).items():
        if len(group.moves) > 1:
            out.append(panel.build(PLUGIN, mine, panel.Selection(group=key)).to_text())
    out += [p.description for p in PLUGIN.draw(PLUGIN.hand_pictures(), mine)]
    out += [g.decide for g in await svc.my_games(GUILD, USERS[seat])]
    log = "\n".join(await svc.log(CH, 50, reader_id=USERS[seat]))
    return out, log


def choose(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    stores = [m for m in legal if m["type"] == "store"]
    if stores and rng.random() < 0.4:
        return rng.choice(stores)
    return rng.choice(legal)


async def play(
    tmp_path: Path, seed: int, until: Callable[[list[str]], bool] | None = None
) -> tuple[list[str], dict[str, int]]:
    """Play a 3-player game to the end; return every leak found and a few counts. With `until`,
    stop as soon as the leaks found satisfy it: a test of a planted leak needs only to see the
    check catch it, not the rest of the game."""
    store = await Store.open(tmp_path / f"island-{seed}.db")
    channel = Channel()
    found: list[str] = []
    counts = {"moves": 0, "hidden_in_hands": 0, "own_hand_seen": 0, "posts": 0}
    try:
        outbox = Outbox(store, channel)
        svc = GameService(store, outbox=outbox)
        await svc.open_lobby(GUILD, CH, USERS[0], NAMES[0], kind="island")
        for uid, name in zip(USERS[1:], NAMES[1:], strict=True):
            await svc.join(CH, uid, name)
        rec = await svc.start(CH, USERS[0], can_manage=False, seed=seed, order=list(USERS))
        known = Knowledge(3)
        known.saw(rec.state, [])
        await outbox.deliver_pending()
        rng = random.Random(seed)
        checked = raw_checked = 0
        while True:
            state = rec.state
            posted = [split_digest(t) for t in channel.texts[checked:]]
            public = [rest for rest, _ in posted]
            checked = len(channel.texts)
            counts["posts"] += len(public)
            # A turn ping's "since your last move" lines are lines of the public log, which
            # may name what was public back then: checked like the log (ever seen by all).
            digests = ["\n".join(lines) for _, lines in posted if lines]
            found += [f"ping digest: {x}" for x in leaks(digests, known, None, ever=True)]
            public.append(PLUGIN.status_line(rec.seen(None)))
            public.append(PLUGIN.must_decide(rec.seen(None), you=False))
            found += [f"public: {x}" for x in leaks(public, known, None, ever=False)]
            for raw in channel.raw[raw_checked:]:
                found += [f"picture: {c}" for c in CARD.findall(raw) if c not in known.ids[None]]
            raw_checked = len(channel.raw)
            found += [
                f"public log: {x}"
                for x in leaks(["\n".join(await svc.log(CH, 50))], known, None, ever=True)
            ]
            for seat in range(3):
                mine, log = await seat_views(svc, rec, seat)
                found += [f"seat {seat + 1}: {x}" for x in leaks(mine, known, seat, ever=False)]
                found += [f"seat {seat + 1} log: {x}" for x in leaks([log], known, seat, ever=True)]
                # Not vacuous: the holder sees their own hand, others hold cards hidden from them.
                hand = island.view(state, seat)["players"][seat]["hand"] or []
                assert all(c["object"] in mine[1] for c in hand)
                counts["own_hand_seen"] += len(hand)
                counts["hidden_in_hands"] += sum(
                    1
                    for s in range(3)
                    if s != seat
                    for c in (island.view(state, s)["players"][s]["hand"] or [])
                    if c["id"] not in known.ids[seat]
                )
            if until is not None and until(found):
                return found, counts
            if rec.status != "active":
                break
            seat = rec.current
            assert seat is not None
            move = choose(rng, list(rec.seen(seat).legal))
            result = await svc.play(CH, USERS[seat], dict(move), confirm=True)
            rec = result.record
            known.saw(rec.state, [e.to_dict() for e in result.events])
            counts["moves"] += 1
            await outbox.deliver_pending()
        assert rec.status == "finished"
        assert "Nautilus Island is over" in channel.texts[-1]
    finally:
        await store.close()
    return found, counts


@pytest.mark.parametrize("seed", [1, 2, 3][: sweep(1, 3)])
async def test_no_card_reaches_anyone_who_may_not_know_it(tmp_path: Path, seed: int) -> None:
    found, counts = await play(tmp_path, seed)
    assert found == []
    assert counts["moves"] > 60 and counts["posts"] > 2 * counts["moves"] / 3
    assert counts["hidden_in_hands"] > 100 and counts["own_hand_seen"] > 100


@pytest.fixture
def face_down_told_in_public(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A wrong build: the platform hands every event to the channel's words, and the done line
    tells the face-down cards as their taker would read them."""
    import bot.core.posts

    monkeypatch.setattr(bot.core.posts, "readable", lambda events, audience: list(events))

    def done_line(before: Any, seat: int, events: Any) -> str:
        told = [PLUGIN.private_line(e) for e in events if e.get("kind") == "card_drawn"]
        return words.turn_story(before.names, seat, events) + " " + "; ".join(told)

    monkeypatch.setattr(PLUGIN, "done_line", done_line)
    yield


@pytest.mark.usefixtures("face_down_told_in_public")
async def test_the_check_finds_a_face_down_card_told_in_public(tmp_path: Path) -> None:
    def caught(found: list[str]) -> bool:
        return any(f.startswith("public: object ") for f in found)

    found, _ = await play(tmp_path, 1, until=caught)
    assert caught(found)
