"""The lobby: opening one (or a rematch), seats taken and given up, the seat order, the start,
and the closing of lobbies nobody uses."""

from __future__ import annotations

import random
import secrets
from dataclasses import replace
from typing import Any

from bot import i18n, texts
from bot.core.errors import (
    LobbyError,
    NotAllowed,
    NotInGame,
    StaleVersion,
)
from bot.core.game import (
    GameRecord,
    Seat,
    checked,
)
from bot.core.kernel import Kernel, check_may_manage
from bot.core.posts import Posts, post_payload
from bot.games import GAMES
from bot.i18n import t, tr
from bot.store import (
    GameRow,
    NewOutbox,
    SeatRow,
    Tx,
)


class Lobby:
    def __init__(self, k: Kernel, posts: Posts) -> None:
        self.k, self.posts = k, posts

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        kind: str,
        locale: str = i18n.ENGLISH,
    ) -> GameRecord:
        """Open a lobby for a game of `kind` in the channel with the user as host and first
        player; `locale` is the language of the game's channel posts.

        Raises:
            LobbyError: the channel already has a lobby or a game in progress.
            KeyError: no game of that kind is installed.
        """
        plugin = GAMES.get(kind)
        async with self.k.lock(channel_id), self.k.store.write() as tx:
            existing = await tx.open_game(channel_id)
            if existing is not None:
                raise LobbyError(
                    tr(
                        "This channel already has a lobby. Finish or abort it first, or open "
                        "the lobby in another channel or thread."
                    )
                    if existing.status == "lobby"
                    else tr(
                        "This channel already has a game in progress. Finish or abort it first, "
                        "or open the lobby in another channel or thread."
                    ),
                    code="channel_busy",
                )
            seed = secrets.randbits(52)
            game_id = await tx.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                engine_version=plugin.rules.engine_version,
                seed=seed,
                kind=plugin.kind,
                locale=i18n.normalize(locale),
            )
            await tx.set_seats(game_id, [SeatRow(0, user_id, name)])
            rec = await self.k.reload(tx, game_id)
            await tx.add_outbox(
                game_id,
                [NewOutbox(channel_id, "lobby", self.posts.lobby_payload(rec, "lobby"))],
            )
        self.k.kick()
        return rec

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        """Take a seat in the channel's lobby.

        Raises:
            NoGame: no lobby here. LobbyError: already seated, lobby full or game started.
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            if row.status != "lobby":
                raise LobbyError(
                    tr("The game here has already started; join the next lobby."),
                    code="started",
                )
            seats = await tx.seats(row.id)
            if any(s.user_id == user_id for s in seats):
                raise LobbyError(tr("You are already in this lobby."), code="already_joined")
            most = GAMES.get(row.kind).rules.max_players
            if len(seats) >= most:
                raise LobbyError(tr("The lobby is full ({most} players).", most=most), code="full")
            seats.append(SeatRow(len(seats), user_id, name))
            rec = await self.change(tx, row, seats, row.host_id)
        self.k.kick()
        return rec

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Give up a seat in the lobby; a leaving host hands over to the next player, and the
        lobby closes when nobody is left.

        Raises:
            NoGame: no lobby here. NotInGame: not in the lobby. LobbyError: game started.
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed. The host or a member with "
                        "Manage Channels can `/games abort` it."
                    ),
                    code="started",
                )
            seats = await tx.seats(row.id)
            if not any(s.user_id == user_id for s in seats):
                raise NotInGame(tr("You are not in this lobby."))
            rest = [
                replace(s, seat=i) for i, s in enumerate(s for s in seats if s.user_id != user_id)
            ]
            host = row.host_id if row.host_id != user_id else (rest[0].user_id if rest else 0)
            if not rest:
                rec = await self.close_lobby(tx, row, seats)
            else:
                rec = await self.change(tx, row, rest, host)
        self.k.kick()
        return rec

    async def change(self, tx: Tx, row: GameRow, seats: list[SeatRow], host_id: int) -> GameRecord:
        changes: dict[str, Any] = {}
        if host_id != row.host_id:
            changes["host_id"] = host_id
        if not await tx.bump_game(row.id, row.version, **changes):
            raise StaleVersion(tr("The lobby changed meanwhile; try again."), current=row.version)
        await tx.set_seats(row.id, seats)
        rec = await self.k.reload(tx, row.id)
        await self.posts.lobby_edit(tx, rec, "lobby")
        return rec

    async def close_lobby(self, tx: Tx, row: GameRow, seats: list[SeatRow]) -> GameRecord:
        if not await tx.bump_game(row.id, row.version, status="aborted"):
            raise StaleVersion(tr("The lobby changed meanwhile; try again."), current=row.version)
        rec = await self.k.reload(tx, row.id)
        await self.posts.lobby_edit(tx, rec, "aborted")
        return rec

    async def start(
        self,
        channel_id: int,
        user_id: int,
        *,
        can_manage: bool,
        order: list[int] | None = None,
        seed: int | None = None,
        seat_seed: int | None = None,
        allow_only_ai: bool = False,
    ) -> GameRecord:
        """Start the lobby's game: seats in `order` (user ids), else in join order or drawn at
        random, as the lobby's seating says. The random draw has its own randomness
        (`seat_seed`, fixed only by tests), never the game's seed: the seat order is public, and
        anything drawn from the seed would tell the table something about the deal.
        A table of robots only is refused unless `allow_only_ai` (the offline runner).

        Raises:
            NoGame, NotAllowed, LobbyError (wrong player count, bad order, already started).
        """
        async with self.k.lock(channel_id):
            async with self.k.store.write() as tx:
                row = await self.k.open_row(tx, channel_id)
                check_may_manage(row.host_id, user_id, can_manage, tr("start the game"))
                if row.status != "lobby":
                    raise LobbyError(tr("The game has already started."), code="started")
                seats = await tx.seats(row.id)
                n = len(seats)
                plugin = GAMES.get(row.kind)
                rules = plugin.rules
                if not rules.min_players <= n <= rules.max_players:
                    span = (
                        tr("exactly {n}", n=rules.min_players)
                        if rules.min_players == rules.max_players
                        else f"{rules.min_players}–{rules.max_players}"
                    )
                    raise LobbyError(
                        tr(
                            "{title} needs {span} players; the lobby has {n}. Wait for more "
                            "players to join.",
                            title=tr(plugin.title),
                            span=span,
                            n=n,
                        ),
                        code="player_count",
                    )
                if not allow_only_ai and all(s.user_id < 0 for s in seats):
                    raise LobbyError(
                        tr(
                            "A game needs at least one person at the table: join it, or wait for "
                            "a player, before starting."
                        ),
                        code="only_ai",
                    )
                game_seed = row.seed if seed is None else seed
                by_user = {s.user_id: s for s in seats}
                if order is None and row.seating == "join":
                    ordered = list(seats)
                    with i18n.use(row.locale):
                        note = tr("Seat order: join order, as the host chose.")
                elif order is not None:
                    if sorted(order) != sorted(by_user):
                        raise LobbyError(
                            tr("The seat order must list each player of the lobby exactly once."),
                            code="bad_order",
                        )
                    ordered = [by_user[u] for u in order]
                    with i18n.use(row.locale):
                        note = tr("Seat order fixed by the host.")
                else:
                    ordered = list(seats)
                    draw = secrets.randbits(64) if seat_seed is None else seat_seed
                    random.Random(f"seats/{draw}").shuffle(ordered)
                    with i18n.use(row.locale):
                        note = tr("Seat order drawn at random.")
                new_seats = [replace(s, seat=i) for i, s in enumerate(ordered)]
                state = rules.new_game(n, game_seed)
                if not await tx.bump_game(
                    row.id,
                    row.version,
                    status="active",
                    seed=game_seed,
                    state_json=rules.to_json(state),
                ):
                    raise StaleVersion(
                        tr("The lobby changed meanwhile; try again."), current=row.version
                    )
                await tx.set_seats(row.id, new_seats)
                rec = await self.k.reload(tx, row.id)
                await self.posts.lobby_edit(tx, rec, "active", note)
                public = rec.seen(None)
                with i18n.use(rec.locale):
                    start = post_payload(rec, plugin.start_post(public), public)
                await tx.add_outbox(
                    rec.id,
                    [
                        NewOutbox(channel_id, "phase_post", start),
                        await self.posts.ping_row(tx, rec),
                    ],
                )
            self.k.remember(rec)
        self.k.kick()
        self.k.ai_check(rec)
        return rec

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """Close the lobby without playing.

        Raises:
            NoGame, NotAllowed, LobbyError (the game has started: use abort).
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("cancel the lobby"))
            if row.status != "lobby":
                raise LobbyError(
                    tr("The game has started; use `/games abort` to end it."), code="started"
                )
            rec = await self.close_lobby(tx, row, await tx.seats(row.id))
        self.k.kick()
        return rec

    async def toggle_seating(
        self, channel_id: int, user_id: int, *, can_manage: bool
    ) -> GameRecord:
        """Switch the lobby between a random seat order (drawn apart from the game's seed) and the
        join order.

        Raises:
            NoGame, NotAllowed, LobbyError (game started).
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("change the seat order"))
            if row.status != "lobby":
                raise LobbyError(tr("The game has started; the seats are fixed."), code="started")
            seating = "join" if row.seating == "random" else "random"
            if not await tx.bump_game(row.id, row.version, seating=seating):
                raise StaleVersion(
                    tr("The lobby changed meanwhile; try again."), current=row.version
                )
            rec = await self.k.reload(tx, row.id)
            await self.posts.lobby_edit(tx, rec, "lobby")
        self.k.kick()
        return rec

    async def expire_lobbies(self) -> list[GameRecord]:
        """Close every lobby without activity for `lobby_idle`, with a message; return them."""
        if self.k.lobby_idle is None or self.k.closing:
            return []
        cutoff = (self.k.clock() - self.k.lobby_idle).isoformat(timespec="milliseconds")
        async with self.k.store.read() as tx:
            rows = await tx.idle_lobbies(cutoff)
        closed = []
        for candidate in rows:
            async with self.k.lock(candidate.channel_id), self.k.store.write() as tx:
                row = await tx.game(candidate.id)
                # Someone may have joined since the list was read.
                if row is None or row.status != "lobby" or row.updated_at >= cutoff:
                    continue
                if not await tx.bump_game(row.id, row.version, status="aborted"):
                    continue
                rec = await self.k.reload(tx, row.id)
                with i18n.use(rec.locale):
                    idle = texts.idle_span(self.k.lobby_idle)
                    admin_text = tr("lobby closed after {idle} idle", idle=idle)
                    note = tr(
                        "This {title} lobby was closed after {idle} without activity.",
                        title=tr(rec.plugin.title),
                        idle=idle,
                    )
                    notice = tr(
                        "The {title} lobby here was closed: nothing happened in it for {idle}. "
                        "Open a new one any time with `/{command} new`.",
                        title=tr(rec.plugin.title),
                        idle=idle,
                        command=rec.plugin.command,
                    )
                await tx.add_admin_log(row.id, kind="expire", by_user_id=0, text=admin_text)
                await self.posts.lobby_edit(tx, rec, "aborted", note)
                await tx.add_outbox(rec.id, [NewOutbox(rec.channel_id, "notice", {"text": notice})])
                closed.append(rec)
        if closed:
            self.k.kick()
        return closed

    async def rematch(
        self, guild_id: int, channel_id: int, game_id: int, user_id: int, name: str
    ) -> tuple[GameRecord, list[Seat]]:
        """Open a lobby here for another game of the same kind at the same table: the member
        asking hosts it and sits first, the robots sit again at their levels, the seat order
        setting and the turn deadline are kept; the other players are pinged to press Join.
        Returns the lobby and the players invited.

        Raises:
            NoGame: no such game here. NotAllowed: the member did not play in it.
            LobbyError: the game is not over, or the channel has a lobby or game already.
        """
        checked(guild_id, channel_id, game_id, user_id)
        async with self.k.lock(channel_id), self.k.store.write() as tx:
            old = await self.k.game_here(tx, channel_id, game_id)
            if old.status not in ("finished", "aborted"):
                raise LobbyError(
                    tr("That game is not over yet: a rematch opens once it ends."), code="not_over"
                )
            seats = await tx.seats(old.id)
            if not any(s.user_id == user_id for s in seats):
                raise NotAllowed(
                    tr(
                        "Only the players of that game can open its rematch; anyone can open a "
                        "new lobby with `/{command} new`.",
                        command=GAMES.get(old.kind).command,
                    ),
                    code="not_player",
                )
            existing = await tx.open_game(channel_id)
            if existing is not None:
                raise LobbyError(
                    tr("This channel already has a lobby: join it, or finish it first.")
                    if existing.status == "lobby"
                    else tr(
                        "This channel already has a game in progress: join it, or finish it first."
                    ),
                    code="channel_busy",
                )
            plugin = GAMES.get(old.kind)
            new_id = await tx.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                engine_version=plugin.rules.engine_version,
                seed=secrets.randbits(52),
                kind=plugin.kind,
                locale=old.locale,
            )
            sitting = [SeatRow(0, user_id, name)]
            for s in seats:
                if s.user_id < 0:  # a robot: it sits again at its level
                    robot_id = min([0, *(r.user_id for r in sitting)]) - 1
                    sitting.append(SeatRow(len(sitting), robot_id, s.name, s.ai))
            await tx.set_seats(new_id, sitting)
            if old.seating != "random":
                assert await tx.bump_game(new_id, 0, seating=old.seating)
            if old.deadline_hours is not None:
                await tx.set_deadline(new_id, old.deadline_hours)
            rec = await self.k.reload(tx, new_id)
            invited = [Seat(s.seat, s.user_id, s.name) for s in seats]
            invited = [s for s in invited if s.user_id >= 0 and s.user_id != user_id]
            rows = [NewOutbox(channel_id, "lobby", self.posts.lobby_payload(rec, "lobby"))]
            if invited:
                who = ", ".join(f"<@{s.user_id}>" for s in invited)
                text = t(
                    "🔁 **Rematch!** {name} opened a lobby for another game of {title} with the "
                    "same table. {who}: press **Join** on it to take your seat again.",
                    rec.locale,
                    name=texts.name(name),
                    title=t(plugin.title, rec.locale),
                    who=who,
                )
                rows.append(
                    NewOutbox(
                        channel_id,
                        "notice",
                        {
                            "text": text,
                            "mentions": [s.user_id for s in invited],
                        },
                    )
                )
            await tx.add_outbox(new_id, rows)
        self.k.kick()
        return rec, invited
