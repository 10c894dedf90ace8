"""Hidden information through the platform: a test-only game with secret hands (Gems), played to
the end through the real GameService, outbox and panel. After every move, nothing anyone but a
seat's holder can see — channel posts, edits, pings, picture alt texts and bytes, status, log,
mygames, the other seat's panel, autocomplete and hand — names a gem that is still secret."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import panel
from bot.outbox import Outbox, OutMessage
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.platform import secret_game
from tests.platform.secret_game import GEMS

GUILD, CH = 1, 77
ANA, BEN = 501, 502


pytestmark = pytest.mark.usefixtures("gems_installed")


class Channel:
    """A Sender that keeps every message and edit the channel would show."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.next_id = 1

    def _keep(self, msg: OutMessage) -> None:
        parts = [msg.text, *(f.description for f in msg.files)]
        parts += [f.data.decode("latin-1") for f in msg.files]
        self.seen.append("\n".join(parts))

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        self._keep(msg)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self._keep(msg)


def secrets_of(state: secret_game.State, seat: int) -> set[str]:
    """What only `seat` may know now: its hand (the bag is nobody's)."""
    return set(state.hands[seat])


def hidden_from(state: secret_game.State, seat: int | None) -> set[str]:
    """Gems `seat` (None: everyone) must not see now: the bag, and every other hand."""
    out = set(state.bag)
    for s in (0, 1):
        if s != seat:
            out |= secrets_of(state, s)
    return out


def leaks(texts: list[str], hidden: set[str]) -> list[str]:
    return sorted({g for g in hidden for t in texts if g in t})


async def private_views(svc: GameService, rec: GameRecord, seat: int, user: int) -> list[str]:
    """Everything the holder of `seat` can be shown in replies only they read."""
    plugin = rec.plugin
    mine = rec.seen(seat)
    out = [
        panel.build(plugin, mine).to_text(),
        plugin.hand_text(mine),
        "\n".join(s.name for s in plugin.suggest(mine, "reveal", "gem", "", {})),
        "\n".join(await svc.log(CH, 50, reader_id=user)),
        "\n".join(f"{g.decide}" for g in await svc.my_games(GUILD, user)),
    ]
    out += [p.description for p in plugin.draw(plugin.hand_pictures(), mine)]
    return out


async def play(tmp_path: Path, seed: int) -> list[str]:
    """Play Gems to the end; return every leak found (empty when nothing leaked)."""
    store = await Store.open(tmp_path / f"gems-{seed}.db")
    channel = Channel()
    found: list[str] = []
    try:
        outbox = Outbox(store, channel)
        svc = GameService(store, outbox=outbox)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="gems")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, seed=seed, order=[ANA, BEN])
        await outbox.deliver_pending()
        rng = random.Random(seed)
        checked = 0
        while True:
            state = rec.state
            assert isinstance(state, secret_game.State)
            public = channel.seen[checked:]
            checked = len(channel.seen)
            public.append(rec.plugin.status_line(rec.seen(None)))
            if rec.status == "active":
                # A game record taken mid-game by a member with no seat (once the game is over
                # it is complete by design: seed and moves, for anyone to replay).
                public.append(json.dumps(await svc.export(CH, 999)))
            found += [f"public: {g}" for g in leaks(public, hidden_from(state, None))]
            for seat, user in ((0, ANA), (1, BEN)):
                mine = await private_views(svc, rec, seat, user)
                if rec.status == "active":
                    mine.append(json.dumps(await svc.export(CH, user)))
                found += [f"seat {seat + 1}: {g}" for g in leaks(mine, hidden_from(state, seat))]
                # The holder does see their own hand: the check is not vacuous.
                assert secrets_of(state, seat) <= {g for g in GEMS if g in mine[1]}
            if rec.status != "active":
                break
            seat = rec.current
            assert seat is not None
            legal = rec.seen(seat).legal
            # Random, but never revealing a last gem: each seat keeps a secret to the end.
            keep = [m for m in legal if m["type"] == "draw" or len(state.hands[seat]) > 1]
            move = rng.choice(keep)
            rec = (await svc.play(CH, (ANA, BEN)[seat], dict(move))).record
            await outbox.deliver_pending()
        assert rec.status == "finished"
        # Each seat still holds a secret at the end, so there was something to leak.
        assert all(secrets_of(rec.state, s) for s in (0, 1))
    finally:
        await store.close()
    return found


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
async def test_no_secret_reaches_anyone_but_its_holder(tmp_path: Path, seed: int) -> None:
    assert await play(tmp_path, seed) == []


async def test_the_check_finds_a_leak_in_a_deliberately_wrong_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A platform that builds the channel's words from seat 1's view instead of the public one.
    import bot.core.game
    import bot.visibility

    real = bot.visibility.seen

    def leaky(plugin: Any, state: Any, names: Any, audience: int | None) -> Any:
        wrong = real(plugin, state, names, 0 if audience is None else audience)
        return replace(wrong, audience=audience, legal=() if audience is None else wrong.legal)

    monkeypatch.setattr(bot.core.game, "seen", leaky)
    found = await play(tmp_path, 1)
    assert any(f.startswith("public: ") for f in found)


async def test_a_draw_is_private_to_the_drawer_in_the_log(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "log.db")
    try:
        svc = GameService(store)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="gems")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, seed=9, order=[ANA, BEN])
        result = await svc.play(CH, ANA, {"type": "draw"})
        drawn = result.record.state.hands[0][-1]
        ana_log = "\n".join(await svc.log(CH, reader_id=ANA))
        ben_log = "\n".join(await svc.log(CH, reader_id=BEN))
        nobody = "\n".join(await svc.log(CH))
        assert f"only you see: you drew {drawn}" in ana_log
        assert drawn not in ben_log and drawn not in nobody
        assert "draw a gem from the bag" in ben_log
        assert rec.kind == "gems"
    finally:
        await store.close()
