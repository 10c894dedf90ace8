"""Scenario 2: the bot is SIGKILLed at seeded moments of a game and the game goes on.

Each kill targets one window of a move, hit exactly with the fake's holds:

- before the move is saved: the bot's deferral of the click is parked before Discord sees it;
- between save and reply: the edit that shows the player the result is parked (the move is
  committed, the player saw only "thinking");
- after the reply: the edit is applied and its answer withheld, or an outbox post after the
  move is applied and its answer withheld (the bot dies not knowing it posted).

The window a kill landed in is read from the facts afterwards (was the move saved? was its
result shown?), and counted. `E2E_KILLS=100` runs the long version (default 12: four kills in
each of the three windows, one in three of the after-reply ones moved to an outbox post).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.nauticus import apply, to_json
from tests.e2e.client import Reply
from tests.e2e.conftest import World, assert_answered
from tests.e2e.fake_discord import FakeDiscord, Hold
from tests.e2e.game import (
    Driver,
    bot_process,
    open_game,
    read_game,
    read_moves,
    read_outbox,
    replay,
    start_bot,
)
from tests.e2e.harness import BotProcess
from tests.e2e.policy import Policy

# Channel buckets off: this scenario is about whole games and kills, not Discord's limits
# (see UNTHROTTLED in tests/e2e/conftest.py).
pytestmark = pytest.mark.unthrottled

KILLS = int(os.environ.get("E2E_KILLS", "12"))
SEED = int(os.environ.get("E2E_SEED", "6"))
WINDOWS = ("before_save", "between_save_and_reply", "after_reply")
# How each scheduled kill is staged: (route held, when).
STAGING = {
    "before_save": ("callback", "before"),
    "between_save_and_reply": ("webhook_edit", "before"),
    "after_reply": ("webhook_edit", "after"),
    "outbox_post": ("post", "after"),
}


@dataclass
class Killer:
    """Kills the bot at one hold during the next move's final click, then restarts it."""

    fake: FakeDiscord
    restart: Restarter
    staging: str
    hold: Hold | None = None
    killed: bool = False

    def arm(self) -> None:
        route, when = STAGING[self.staging]
        self.hold = self.fake.hold(route, when=when)

    async def fire(self, reply: Reply) -> None:
        hold = self.hold
        assert hold is not None
        await self.fake.wait_for(
            lambda: hold.parked, timeout=15, what=f"the bot to reach the {self.staging} hold"
        )
        await self.restart.kill()
        # "before": the parked request never reached Discord; "after": it did, unanswered.
        hold.release(process=False)
        self.killed = True
        await self.restart.start()


class Restarter:
    def __init__(self, world: World, db: Path, log: Path) -> None:
        self.world = world
        self.db = db
        self.log = log
        self.bot: BotProcess | None = None
        self.kills = 0
        self.driver: Driver | None = None

    async def start(self) -> None:
        self.bot = bot_process(self.world, self.db, self.log)
        await start_bot(self.bot)
        if self.driver is not None:
            self.driver.verify()  # nothing shown as done went missing across the restart

    async def kill(self) -> None:
        assert self.bot is not None
        code = await self.bot.kill()
        assert code == -9, f"the bot was not killed by SIGKILL ({code})"
        self.kills += 1
        await self.world.fake.wait_disconnected()


def moves_posting(state: object, move: dict[str, object]) -> bool:
    """Whether the move hands the decision on (so the outbox posts after it)."""
    from engine.nauticus import State

    assert isinstance(state, State) and state.current is not None
    after, _ = apply(state, state.current, move)
    key = (state.round, state.phase, state.current)
    return after.step == "over" or key != (after.round, after.phase, after.current)


async def test_sigkill_at_seeded_moments_loses_and_repeats_nothing(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No budget for the whole game: on a busy machine it takes what it takes. Every wait inside
    # waits for a state or an event (with its own generous timeout, a hang detector only).
    report = await _crash_game(world, tmp_path)
    with capsys.disabled():  # the counts belong in every CI log, not only a failing one
        print(f"\n{report}")
    assert_answered(world.fake)


async def _crash_game(world: World, tmp_path: Path) -> str:
    fake = world.fake
    db = tmp_path / "game.db"
    rng = random.Random(SEED)
    restart = Restarter(world, db, tmp_path / "bot.log")
    await restart.start()
    landed: Counter[str] = Counter()
    staged: Counter[str] = Counter()
    try:
        # Two players: every window of a move is the same at any table size, and a shorter game
        # leaves the kills as many (the whole-game scenario plays a table of three).
        alice, bob = (world.user(n) for n in ("alice", "bob"))
        game = await open_game(fake, db, world.channel, alice, [bob])
        assert game.state is not None
        policy = Policy(SEED)
        driver = Driver(fake, db, world.channel, {int(u.id): u for u in (alice, bob)})
        driver.refresh_old_panels = True
        restart.driver = driver
        # Each window as often as the others, in a seeded order, at seeded moves.
        plan = [WINDOWS[i % 3] for i in range(KILLS)]
        rng.shuffle(plan)
        played: list[dict[str, object]] = []
        move = None
        while game.state is not None and game.state.step != "over":
            if move is None:
                move = policy.pick(game.state)
            killer = None
            # About one move in three is a kill while the plan lasts, so the plan is done well
            # before the game ends and the rest of the game shows the bot settled again.
            if plan and rng.random() < min(0.9, max(0.35, KILLS / 100)):
                staging = plan[-1]
                if (
                    staging == "after_reply"
                    and rng.random() < 0.4
                    and moves_posting(game.state, move)
                ):
                    staging = "outbox_post"
                killer = Killer(fake, restart, staging)
                driver.crash = killer
            before = game.version
            game, last = await driver.play(game, move)
            driver.crash = None
            saved = game.version == before + 1
            if killer is not None and killer.killed:
                assert last is not None
                shown = last.interaction.shown
                window = (
                    "before_save"
                    if not saved
                    else "after_reply"
                    if shown
                    else "between_save_and_reply"
                )
                landed[window] += 1
                staged[killer.staging] += 1
                if window in plan:
                    plan.remove(window)
                else:
                    plan.pop()
            if saved:
                played.append(move)
                move = None
        final = await fake.wait_for(
            lambda: [m for m in fake.channel_messages(world.channel) if "Game over" in m.content],
            timeout=30,
            what="the final score post",
        )
        stored = read_game(db, world.channel.id)
        assert stored is not None

        def delivered() -> bool:
            return all(r.sent for r in read_outbox(db, stored.id))

        await fake.wait_for(delivered, timeout=30, what="the outbox to drain")
    finally:
        if restart.bot is not None:
            await restart.bot.stop()
            print(f"--- bot log (tail) ---\n{restart.bot.log()}")
    report = (
        f"crash scenario: {restart.kills} SIGKILLs; landed in: {dict(landed)}; staged at: "
        f"{dict(staged)}; old panels refreshed: {driver.stale_refused}; resent posts dropped "
        f"by nonce: {fake.deduplicated}"
    )
    print(report)
    assert restart.kills >= KILLS
    for window in WINDOWS:
        assert landed[window] >= 3, (window, landed)

    # No acknowledged move lost, none applied twice: the log is exactly the moves played.
    log = read_moves(db, stored.id)
    assert [m for _, m in log] == played
    assert len(driver.acknowledged) >= len(played) - landed["between_save_and_reply"]
    driver.verify()
    # The stored final state is the replay of the log.
    assert stored.state is not None and stored.status == "finished"
    assert to_json(replay(stored.seed, 2, log)) == to_json(stored.state)
    # Every post and ping is in the channel exactly once.
    rows = read_outbox(db, stored.id)
    posts = [r for r in rows if r.edits is None]
    assert all(r.message_id is not None and r.error is None for r in posts), [
        r for r in posts if r.message_id is None or r.error
    ]
    channel_posts = [
        m
        for m in fake.channel_messages(world.channel)
        if m.author.id == fake.bot_user.id and m.interaction_id is None
    ]
    assert sorted(int(m.id) for m in channel_posts) == sorted(
        r.message_id for r in posts if r.message_id is not None
    )
    for row in posts:
        message = fake.messages[str(row.message_id)]
        assert message.pinged_user_ids == [str(u) for u in row.mentions]
    assert len(final) == 1
    assert not fake.unimplemented
    return report
