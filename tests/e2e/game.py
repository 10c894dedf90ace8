"""Driving the real bot through whole games: start it, seat players, play moves via the panel.

Players act only through interactions (slash commands, the Play button on their ping, the
panel's selects and buttons, confirmations). To know *which* click plays the move the policy
wants, the test reads the bot's database (read-only, WAL) for the current state and maps the
move onto the panel with `bot.discord_app.panel.groups`, exactly as the panel was built.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.discord_app import panel as panel_model
from bot.games.nauticus.texts import confirmation_needed
from engine.nauticus import State, apply, final_scores, from_json, new_game
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.e2e.client import Reply, TestUser
from tests.e2e.conftest import World
from tests.e2e.fake_discord import Channel, FakeDiscord, Message
from tests.e2e.harness import BotProcess
from tests.e2e.policy import Policy

Move = dict[str, Any]


class Crash(Protocol):
    """Kills the bot during a move's final click (scenario 2): holds set by `arm`, then `fire`."""

    def arm(self) -> None: ...

    async def fire(self, reply: Reply) -> None: ...


def bot_process(world: World, db: Path, log: Path) -> BotProcess:
    return BotProcess(
        world.fake,
        ["-m", "bot", "run"],
        {
            "DISCORD_TOKEN": world.fake.token,
            "DEV_GUILD_ID": world.guild.id,
            "DATABASE_PATH": str(db),
            "LOG_LEVEL": "INFO",
        },
        log,
    )


async def start_bot(bot: BotProcess, *, timeout: float = 30.0) -> None:
    """Start and wait until commands are synced and the gateway is live."""
    fake = bot.fake
    synced = sum(c.route == "sync_guild" and c.status == 200 for c in fake.calls)
    await bot.start()
    await fake.wait_for(
        lambda: (
            sum(c.route == "sync_guild" and c.status == 200 for c in fake.calls) > synced
            and fake.session is not None
            and fake.session.ws is not None
            and not fake.session.ws.closed
        ),
        timeout=timeout,
        what="the bot to sync its commands and connect",
    )


# --- reading the database ----------------------------------------------------------------------


@dataclass
class GameRow:
    id: int
    status: str
    version: int
    seed: int
    state: State | None
    seats: list[int]  # user id per seat
    names: list[str]


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    return conn


def read_game(db: Path, channel_id: str | int) -> GameRow | None:
    """The latest game of a channel as stored."""
    conn = _connect(db)
    try:
        row = conn.execute(
            "SELECT id, status, version, seed, state_json FROM games WHERE channel_id = ? "
            "ORDER BY id DESC LIMIT 1",
            (int(channel_id),),
        ).fetchone()
        if row is None:
            return None
        seats = conn.execute(
            "SELECT user_id, name FROM seats WHERE game_id = ? ORDER BY seat", (row[0],)
        ).fetchall()
    finally:
        conn.close()
    state = from_json(row[4]) if row[4] else None
    return GameRow(
        row[0], row[1], row[2], row[3], state, [s[0] for s in seats], [s[1] for s in seats]
    )


def read_moves(db: Path, game_id: int) -> list[tuple[int, Move]]:
    """The move log: (seat, move) in order."""
    conn = _connect(db)
    try:
        rows = conn.execute(
            "SELECT seat, move_json FROM moves WHERE game_id = ? AND n NOT IN "
            "(SELECT n FROM undone WHERE game_id = ?) ORDER BY n",
            (game_id, game_id),
        ).fetchall()
    finally:
        conn.close()
    return [(seat, json.loads(move)) for seat, move in rows]


@dataclass(frozen=True)
class OutboxRow:
    id: int
    kind: str
    edits: int | None
    nonce: int
    sent: bool
    message_id: int | None
    error: str | None
    mentions: tuple[int, ...]


def read_outbox(db: Path, game_id: int) -> list[OutboxRow]:
    conn = _connect(db)
    try:
        rows = conn.execute(
            "SELECT id, kind, edits, nonce, sent_at, message_id, error, payload_json "
            "FROM outbox WHERE game_id = ? ORDER BY id",
            (game_id,),
        ).fetchall()
    finally:
        conn.close()
    return [
        OutboxRow(
            r[0],
            r[1],
            r[2],
            r[3],
            r[4] is not None,
            r[5],
            r[6],
            tuple(int(u) for u in json.loads(r[7]).get("mentions", ())),
        )
        for r in rows
    ]


def replay(seed: int, players: int, moves: Sequence[tuple[int, Move]]) -> State:
    state = new_game(players, seed)
    for seat, move in moves:
        state, _ = apply(state, seat, move)
    return state


def scores_of(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, vp) per player, ranked."""
    return sorted((s.rank, s.seat, s.vp) for s in final_scores(state))


# --- the lobby ---------------------------------------------------------------------------------


def lobby_message(fake: FakeDiscord, channel: Channel) -> Message | None:
    found = [m for m in fake.channel_messages(channel) if "Nauticus lobby" in m.content]
    return found[-1] if found else None


async def open_game(
    fake: FakeDiscord, db: Path, channel: Channel, host: TestUser, others: Sequence[TestUser]
) -> GameRow:
    """`/nauticus new` by the host, Join by the others, Start by the host."""
    reply = await host.slash("nauticus new", channel=channel)
    assert "Lobby open" in (await reply.message()).content
    lobby = await fake.wait_for(lambda: lobby_message(fake, channel), what="the lobby post")
    for user in others:
        joined = await user.click(lobby, "Join")
        assert "You joined" in (await joined.message()).content
    started = await host.click(lobby, "Start")
    assert "has started" in (await started.message()).content
    game = read_game(db, channel.id)
    assert game is not None and game.status == "active" and game.state is not None
    return game


# --- the panel ---------------------------------------------------------------------------------


def custom_version(custom_id: str) -> int:
    return int(custom_id.split(":")[3])


def panel_version(message: Message) -> int | None:
    comps = [c for c in message.iter_components() if str(c.get("custom_id", "")).startswith("nx:")]
    return custom_version(comps[0]["custom_id"]) if comps else None


def pings_for(fake: FakeDiscord, channel: Channel, user: TestUser) -> list[Message]:
    """Turn pings of `user` in the channel that still carry their Play button."""
    return [
        m
        for m in fake.channel_messages(channel)
        if user.id in m.pinged_user_ids
        and any(c.get("label") == "Play" for c in m.iter_components())
    ]


@dataclass
class Stats:
    """What the played game went through (asserted by scenario 1)."""

    moves: int = 0
    interactions: int = 0
    bought_in: set[str] = field(default_factory=set)  # paid actions with a buy
    kinds: set[str] = field(default_factory=set)  # move types played
    confirmations: int = 0
    panel_rewards: int = 0
    replies: list[Reply] = field(default_factory=list)


class Driver:
    """Plays moves for the players of one game through their panels."""

    def __init__(
        self,
        fake: FakeDiscord,
        db: Path,
        channel: Channel,
        users: dict[int, TestUser],
        *,
        timeout: float = 10.0,
    ) -> None:
        self.fake = fake
        self.db = db
        self.channel = channel
        self.users = users
        self.panels: dict[int, Message] = {}
        self.stats = Stats()
        self.timeout = timeout
        self.crash: Crash | None = None  # armed for the next move's final click
        self.refresh_old_panels = False
        self.stale_refused = 0
        self.acknowledged: list[tuple[int, Move]] = []  # (log index, move) shown to authors

    def game(self) -> GameRow:
        game = read_game(self.db, self.channel.id)
        assert game is not None
        return game

    def verify(self) -> None:
        """Every move shown to its player as done is in the log, at its place. Called after
        each restart and at the end: a bot that loses an acknowledged move (and lets it be
        played again, so the version counter lines up) fails here, naming the move."""
        log = read_moves(self.db, self.game().id)
        for index, move in self.acknowledged:
            stored = log[index][1] if index < len(log) else None
            assert stored == move, (
                f"move {index + 1} ({move}) was shown to its player as done but the log now "
                f"has {stored} there"
            )

    async def send(self, reply_coro: Any, *, final: bool = False) -> Reply:
        """Send one interaction and wait until its author is shown a result.

        The click that plays the move (`final`) goes through `self.crash` when one is armed:
        it sets its holds, the click is sent, and the crash kills the bot at the hold instead
        of waiting for the result.
        """
        crash = None
        if final:
            crash, self.crash = self.crash, None
        if crash is not None:
            crash.arm()
        reply: Reply = await reply_coro
        self.stats.interactions += 1
        self.stats.replies.append(reply)
        ix = reply.interaction
        if crash is not None:
            await crash.fire(reply)
            return reply
        await self.fake.wait_for(lambda: ix.shown, timeout=self.timeout, what=f"result of {ix.id}")
        return reply

    async def open_panel(self, user: TestUser, version: int) -> Message:
        """The user's current panel: the one they have, or a fresh one from their ping's Play.

        A panel left over from before a restart or a move of others is clicked as it is: the
        bot must answer it with the current panel (an old panel is refreshed, never played).
        """
        mine = self.panels.get(int(user.id))
        if mine is not None and panel_version(mine) == version:
            return mine
        comps = [c for c in mine.iter_components() if c.get("type") in (2, 3)] if mine else []
        if mine is not None and comps and self.refresh_old_panels:
            before = self.game().version
            comp = comps[0]
            if comp["type"] == 2:
                await self.send(user.click(mine, comp["custom_id"]))
            else:
                value = comp["options"][0]["value"]
                await self.send(user.select(mine, [value], key=comp["custom_id"]))
            assert self.game().version == before, "a click on an old panel changed the game"
            self.stale_refused += 1
            if panel_version(mine) == version:
                assert "out of date" in mine.content, mine.content
                return mine
        pings = await self.fake.wait_for(
            lambda: pings_for(self.fake, self.channel, user),
            timeout=self.timeout,
            what=f"a turn ping for {user.user.username}",
        )
        reply = await self.send(user.click(pings[-1], "Play"))
        panel = self.fake.messages[reply.interaction.original_message_id or ""]
        assert panel.visible_to == user.id, "the panel must be ephemeral"
        assert panel_version(panel) == version, panel.content
        self.panels[int(user.id)] = panel
        return panel

    async def play(self, game: GameRow, move: Move) -> tuple[GameRow, Reply | None]:
        """Play `move` for the current seat through the panel.

        Returns the game after it and the interaction that played it; with a crash armed the
        move may not have been played (the caller compares versions).
        """
        state = game.state
        assert state is not None and state.current is not None
        seat = state.current
        user = self.users[game.seats[seat]]
        panel = await self.open_panel(user, game.version)
        if "Please confirm" in panel.content:
            # Left asking by an attempt that never got through (a crash): back to the menu.
            await self.send(user.click(panel, "Back"))
        groups = panel_model.groups(PLUGIN, seen_of(state, seat))
        key = PLUGIN.group_key(move)
        kind = move["type"]
        group = groups[key]
        confirm = confirmation_needed(state, seat, move) is not None
        several = len(group.moves) > 1
        if kind in {b.key for b in PLUGIN.panel.buttons}:
            button = {"pass": "Pass", "end_extra": "End extra action", "end_turn": "End turn"}
            last = await self.send(
                user.click(panel, button.get(kind, "Extra action")),
                final=not several and not confirm,
            )
        else:
            last = await self._choose(user, panel, "nx:w:", key, final=not several and not confirm)
        if several:
            index = next(i for i, m in enumerate(group.moves) if m == move)
            last = await self._choose(user, panel, "nx:t:", f"m:{index}", final=not confirm)
        if confirm:
            assert "Please confirm" in panel.content, (move, panel.content)
            label = {"pass": "Yes, pass", "end_turn": "Yes, end turn"}.get(
                kind, "Yes, buy it anyway"
            )
            last = await self.send(user.click(panel, label), final=True)
            self.stats.confirmations += 1
        after = self.game()
        # What the player was shown, read from the fake Discord, not from the database: a move
        # answered with "✅" must be in the log after any restart (a bot that loses an
        # acknowledged move and lets it be played again must fail here).
        shown_done = last is not None and last.interaction.shown and panel.content.startswith("✅")
        if after.version == game.version:
            assert not shown_done, (
                f"{move} was shown to its player as done ({panel.content[:80]!r}) but is not in "
                "the move log"
            )
            return after, last  # a crash came before the move was saved
        assert after.version == game.version + 1, f"{move} played twice?"
        if last.interaction.shown:
            assert panel.content.startswith("✅"), panel.content
            self.acknowledged.append((self.stats.moves, move))
        self._note(state, move)
        return after, last

    async def _choose(
        self, user: TestUser, panel: Message, prefix: str, value: str, *, final: bool
    ) -> Reply:
        """Pick `value` in the panel's select whose custom id starts with `prefix`, paging."""
        for _ in range(10):
            select = next(
                c
                for c in panel.iter_components()
                if c.get("type") == 3 and str(c["custom_id"]).startswith(prefix)
            )
            values = [o["value"] for o in select["options"]]
            if value in values:
                return await self.send(
                    user.select(panel, [value], key=select["custom_id"]), final=final
                )
            forward = [v for v in values if v.startswith("page:")]
            await self.send(user.select(panel, [forward[-1]], key=select["custom_id"]))
        raise AssertionError(f"{value!r} never appeared in the panel's {prefix} select")

    def _note(self, state: State, move: Move) -> None:
        s = self.stats
        s.moves += 1
        s.kinds.add(move["type"])
        if move["type"] == "buy":
            turn = state.turn
            action = turn.extra if turn is not None and turn.extra else state.action
            s.bought_in.add(str(action))
        if move["type"] == "reward":
            s.panel_rewards += 1


def plan_seed(state: State, want: set[str], tries: int = 200) -> int:
    """A policy seed whose game from `state` includes everything in `want` (engine only)."""
    for seed in range(tries):
        policy = Policy(seed)
        seen: set[str] = set()
        s = state
        while s.step != "over":
            move = policy.pick(s)
            assert s.current is not None
            if confirmation_needed(s, s.current, move):
                seen.add("confirm")
            if move["type"] == "buy":
                turn = s.turn
                seen.add(f"buy.{turn.extra if turn is not None and turn.extra else s.action}")
            seen.add(move["type"])
            s, _ = apply(s, s.current, move)
        if want <= seen:
            return seed
    raise AssertionError(f"no policy seed in {tries} covers {want}")


@dataclass
class Table:
    """A running bot with a started three-player game in `channel`."""

    world: World
    bot: BotProcess
    db: Path
    channel: Channel
    users: list[TestUser]
    driver: Driver
    game: GameRow

    def user_at(self, seat: int) -> TestUser:
        return self.driver.users[self.game.seats[seat]]

    def current_user(self) -> TestUser:
        state = self.game.state
        assert state is not None and state.current is not None
        return self.user_at(state.current)

    def others(self) -> list[TestUser]:
        me = self.current_user()
        return [u for u in self.users if u.id != me.id]

    def refresh(self) -> GameRow:
        self.game = self.driver.game()
        return self.game

    def moves(self) -> list[tuple[int, Move]]:
        return read_moves(self.db, self.game.id)


async def start_table(
    world: World,
    tmp_path: Path,
    *,
    channel: Channel | None = None,
    names: Sequence[str] = (),
    display_names: Sequence[str] = (),
) -> Table:
    """Start the bot and a three-player game (the caller stops `table.bot`)."""
    where = channel or world.channel
    db = tmp_path / "game.db"
    bot = bot_process(world, db, tmp_path / "bot.log")
    await start_bot(bot)
    users = [world.user(n) for n in names or ("alice", "bob", "carol")]
    for u, display in zip(users, display_names, strict=False):
        u.user.global_name = display
    for u in users:
        u.channel = where
    game = await open_game(world.fake, db, where, users[0], users[1:])
    driver = Driver(world.fake, db, where, {int(u.id): u for u in users})
    return Table(world, bot, db, where, users, driver, game)
