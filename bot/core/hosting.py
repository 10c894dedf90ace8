"""Hosting: what a host or moderator does to a game beyond the lobby — abort it, hand a seat
to someone else, remove a player from the lobby, set the turn deadline."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import ai_seats, i18n, texts
from bot.core.errors import (
    LobbyError,
    NotInGame,
    ServiceError,
    StaleVersion,
)
from bot.core.game import (
    GameRecord,
)
from bot.core.kernel import Kernel, check_may_manage
from bot.core.lobby import Lobby
from bot.core.posts import Posts
from bot.i18n import t, tr
from bot.store import (
    NewOutbox,
    SeatRow,
)


class Hosting:
    def __init__(self, k: Kernel, posts: Posts, lobby: Lobby) -> None:
        self.k, self.posts, self.lobby = k, posts, lobby

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """End the channel's lobby or game in progress without a result.

        Raises:
            NoGame, NotAllowed.
        """
        async with self.k.lock(channel_id):
            async with self.k.store.write() as tx:
                row = await self.k.open_row(tx, channel_id)
                check_may_manage(row.host_id, user_id, can_manage, tr("abort the game"))
                if row.status == "lobby":
                    rec = await self.lobby.close_lobby(tx, row, await tx.seats(row.id))
                else:
                    if not await tx.bump_game(row.id, row.version, status="aborted"):
                        raise StaleVersion(
                            tr("The game changed meanwhile; try again."), current=row.version
                        )
                    rec = await self.k.reload(tx, row.id)
                    seats = {s.user_id: s.name for s in rec.seats}
                    with i18n.use(rec.locale):
                        who = texts.name(seats.get(user_id) or tr("a moderator"))
                        aborted = tr("✗ Game aborted.")
                        notice = tr(
                            "This game of {title} was aborted by {who}; no result.",
                            title=tr(rec.plugin.title),
                            who=who,
                        )
                    rows = await self.posts.close_ping(tx, rec, aborted)
                    rows.append(NewOutbox(channel_id, "notice", {"text": notice}))
                    await tx.add_outbox(rec.id, rows)
            self.k.forget(channel_id)
        self.k.kick()
        return rec

    async def replace_player(
        self,
        channel_id: int,
        user_id: int,
        old_id: int,
        new_id: int,
        new_name: str,
        *,
        can_manage: bool,
        by_name: str = "a moderator",
    ) -> GameRecord:
        """Hand `old_id`'s seat (lobby or game in progress) to `new_id`, who then gets the pings
        and the panel; a host's seat carries the host role with it.

        Raises:
            NoGame, NotAllowed, NotInGame (old not seated), LobbyError (new already seated).
        """
        async with self.k.lock(channel_id):
            async with self.k.store.write() as tx:
                row = await self.k.open_row(tx, channel_id)
                check_may_manage(
                    row.host_id, user_id, can_manage, tr("hand a seat to someone else")
                )
                seats = await tx.seats(row.id)
                old = next((s for s in seats if s.user_id == old_id), None)
                if old is None:
                    raise NotInGame(
                        tr(
                            "<@{user}> has no seat in this game, so there is nothing to hand over.",
                            user=old_id,
                        ),
                        code="target_not_seated",
                    )
                if any(s.user_id == new_id for s in seats):
                    raise LobbyError(
                        tr(
                            "<@{user}> already has a seat in this game; a player can hold only "
                            "one.",
                            user=new_id,
                        ),
                        code="target_seated",
                    )
                host = new_id if row.host_id == old_id else row.host_id
                changes: dict[str, Any] = {"host_id": host} if host != row.host_id else {}
                if not await tx.bump_game(row.id, row.version, **changes):
                    raise StaleVersion(
                        tr("The game changed meanwhile; try again."), current=row.version
                    )
                await tx.set_seats(
                    row.id,
                    [SeatRow(s.seat, new_id, new_name) if s is old else s for s in seats],
                )
                rec = await self.k.reload(tx, row.id)
                who = texts.name(by_name)
                with i18n.use(rec.locale):
                    line = tr(
                        "{who} handed seat {n} from {old} to {new}",
                        who=who,
                        n=old.seat + 1,
                        old=texts.name(old.name),
                        new=texts.name(new_name),
                    )
                    handed = tr("↪ Seat {n} was handed over.", n=old.seat + 1)
                await tx.add_admin_log(row.id, kind="replace", by_user_id=user_id, text=line)
                rows = [NewOutbox(channel_id, "notice", {"text": f"🔁 {line}."})]
                if rec.status == "active" and rec.current == old.seat:
                    # The seat must act now: the old ping is closed and the new holder pinged.
                    rows += await self.posts.close_ping(tx, rec, handed)
                    rows.append(await self.posts.ping_row(tx, rec))
                await tx.add_outbox(rec.id, rows)
                if rec.status == "lobby":
                    await self.posts.lobby_edit(tx, rec, "lobby")
            # Reloaded (and replay-checked) on next use with the new seats.
            self.k.forget(channel_id)
        self.k.kick()
        return rec

    async def remove(
        self, channel_id: int, user_id: int, target_id: int, *, can_manage: bool
    ) -> GameRecord:
        """Take someone's seat away in the lobby (the host's own seat: use Leave).

        Raises:
            NoGame, NotAllowed, NotInGame (target not in the lobby), LobbyError (game started,
            or removing yourself).
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("remove a player from the lobby"))
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed: hand the seat to someone "
                        "else with `/games replace`, or skip turns with `/games skip`."
                    ),
                    code="started",
                )
            if target_id == user_id:
                raise LobbyError(
                    tr("To give up your own seat, press Leave on the lobby."), code="remove_self"
                )
            seats = await tx.seats(row.id)
            target = next((s for s in seats if s.user_id == target_id), None)
            if target is None:
                raise NotInGame(
                    tr("<@{user}> is not in this lobby.", user=target_id), code="target_not_seated"
                )
            rest = [
                replace(s, seat=i) for i, s in enumerate(s for s in seats if s.user_id != target_id)
            ]
            await tx.add_admin_log(
                row.id,
                kind="remove",
                by_user_id=user_id,
                text=t(
                    "{name} was removed from the lobby", row.locale, name=texts.name(target.name)
                ),
            )
            if not rest:
                # A moderator removed the last seat: the lobby closes, as after a last Leave.
                rec = await self.lobby.close_lobby(tx, row, seats)
            else:
                host = row.host_id if row.host_id != target_id else rest[0].user_id
                rec = await self.lobby.change(tx, row, rest, host)
        self.k.kick()
        return rec

    async def set_deadline(
        self, channel_id: int, user_id: int, hours: int | None, *, can_manage: bool
    ) -> GameRecord:
        """Set the game's turn deadline (host or Manage Channels): past it, the AI plays the
        waiting seat's turn, marked as such.

        Raises:
            NoGame, NotAllowed, ServiceError (a span not offered).
        """
        if hours not in ai_seats.DEADLINES.values():
            spans = ", ".join(ai_seats.DEADLINES)
            raise ServiceError(
                tr("The deadline must be one of {spans}.", spans=spans), code="bad_deadline"
            )
        async with self.k.lock(channel_id):
            async with self.k.store.write() as tx:
                row = await self.k.open_row(tx, channel_id)
                check_may_manage(row.host_id, user_id, can_manage, tr("set the turn deadline"))
                await tx.set_deadline(row.id, hours)
                rec = await self.k.reload(tx, row.id)
                with i18n.use(rec.locale):
                    text = (
                        tr("⏰ Turn deadline: none.")
                        if hours is None
                        else tr(
                            "⏰ Turn deadline: {span}; past it, the AI ({level}) plays the "
                            "waiting turn.",
                            span=ai_seats.deadline_label(hours),
                            level=ai_seats.DEFAULT_LEVEL,
                        )
                    )
                await tx.add_outbox(rec.id, [NewOutbox(channel_id, "notice", {"text": text})])
            self.k.forget(channel_id)
        self.k.kick()
        return rec
