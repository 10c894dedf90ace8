"""Robots: robot seats in a lobby, a member's autopilot, the turn deadline and a moderator's
skip. All of them play through ONE decision path (`Robots.decide`): the AI of the seat's level
decides from what that seat sees, with a seed fixed by the game, seat and version."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import ai_seats, i18n, move_words, texts
from bot.core.errors import (
    LobbyError,
    NoGame,
    NotInGame,
    ServiceError,
    StaleVersion,
)
from bot.core.game import (
    GameRecord,
    PlayResult,
    SkipResult,
    checked,
)
from bot.core.kernel import Kernel, check_may_manage
from bot.core.lobby import Lobby
from bot.core.posts import Posts
from bot.core.turns import Turns
from bot.games import GAMES
from bot.i18n import tr
from bot.store import (
    NewOutbox,
    SeatRow,
    Tx,
)

log = logging.getLogger(__name__)

SKIP_LIMIT = 12  # moves one skip may play: choose, bonus, rewards, pass, end turn


def _check_level(level: str) -> None:
    if level not in ai_seats.LEVELS:
        raise ServiceError(
            tr(
                "There is no AI level {level}; choose {levels}.",
                level=texts.quoted(str(level))[:40],
                levels=", ".join(ai_seats.LEVELS),
            ),
            code="bad_level",
        )


class Robots:
    def __init__(self, k: Kernel, posts: Posts, turns: Turns, lobby: Lobby) -> None:
        self.k, self.posts, self.turns, self.lobby = k, posts, turns, lobby

    async def decide(
        self, rec: GameRecord, seat: int, level: str, *, safe: bool = False
    ) -> dict[str, Any]:
        """The one decision path of every robot: the AI's move for `seat` at `level`, decided
        (in the thinker's process pool) from what that seat sees, with a seed fixed by the
        game, its version and the seat, so that a retry decides the same.

        `safe`: should the AI fail (a broken worker pool, an engine breaking determinize's
        contract), the game's own safe choice (a pass, the first option) is played instead;
        a moderator's skip must always work.
        """
        assert rec.state is not None
        try:
            move = await self.k.thinker.decide(
                rec.plugin.rules,
                rec.state,
                seat,
                level,
                ai_seats.decision_seed(rec.id, rec.version, seat),
            )
        except Exception:
            if not safe:
                raise
            log.exception("game %s: the AI could not play the skipped turn", rec.id)
            return dict(rec.plugin.skip_move(rec.seen(seat)))
        return dict(move)

    async def ai_due(self) -> list[tuple[int, int, datetime]]:
        """(channel, version, when) of every game in progress whose seat to move the AI will
        play: robots and autopilots now, deadlines when they pass (a start-up and periodic scan,
        so a restart in the middle of an AI turn resumes it)."""
        out = []
        now = self.k.clock()
        for rec in await self.k.active_games():
            why = self.k.ai_reason(rec, now)
            if why is not None:
                out.append((rec.channel_id, rec.version, now))
            else:
                due = self.k.deadline_at(rec)
                if due is not None:
                    out.append((rec.channel_id, rec.version, due))
        return out

    async def play_ai(self, channel_id: int, version: int) -> PlayResult | None:
        """Play the AI's move for the seat to move, if the AI should (a robot or autopilot seat,
        or a passed deadline) and the game is still at `version`; else None and nothing changes.

        The decision is computed outside the channel's lock (in the thinker's process pool),
        then committed under it with the version check, like any player's move.
        """
        rec = await self.k.active(channel_id)
        why = self.k.ai_reason(rec)
        if rec.version != version or why is None:
            return None
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = await self.decide(rec, seat, rec.seats[seat].ai or ai_seats.DEFAULT_LEVEL)
        with i18n.use(rec.locale):
            note = {
                "robot": f" {ai_seats.ROBOT}",
                "autopilot": tr(" ({robot} autopilot)", robot=ai_seats.ROBOT),
                "deadline": tr(" ({robot} AI: turn deadline passed)", robot=ai_seats.ROBOT),
            }[why]
        async with self.k.lock(channel_id):
            fresh = await self.k.active(channel_id)
            if fresh.version != version:
                return None
            user_id = fresh.user_at(seat)
            # The whole move in one hop to the database's thread, as `Turns.play` does.
            result = await self.k.write_game(
                channel_id, lambda tx: self.turns.commit(tx, fresh, seat, user_id, move, note)
            )
            self.k.remember(result.record)
        self.k.kick()
        self.k.ai_check(result.record)
        return result

    async def skip(
        self,
        channel_id: int,
        user_id: int,
        *,
        can_manage: bool,
        version: int | None = None,
        by_name: str = "a moderator",
    ) -> SkipResult:
        """End the current player's turn as a pass, through the engine and the move log.

        Raises:
            NoGame (nothing to skip), NotAllowed, StaleVersion (the game moved on since the
            confirmation was shown), GameUnavailable.
        """
        async with self.k.lock(channel_id):
            rec = await self.k.active(channel_id)
            check_may_manage(rec.host_id, user_id, can_manage, tr("skip a turn"))
            seat = rec.current
            if rec.state is None or seat is None:
                raise NoGame(tr("Nothing to skip: the game is over."), code="nothing_to_skip")
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "The game has moved on since you asked; nothing was skipped. Run "
                        "`/games skip` again if the turn should still be skipped."
                    ),
                    current=rec.version,
                )
            plugin = rec.plugin
            who = texts.name(by_name)
            skipped = texts.name(rec.names[seat])
            with i18n.use(rec.locale):
                note = tr(" ({robot} AI, turn skipped by {who})", robot=ai_seats.ROBOT, who=who)
            # The AI plays the skipped turn (not a blind pass): its moves are decided first,
            # outside the write transaction (a search takes up to a second or two, and the
            # database serves every channel), then stored together.
            moves: list[dict[str, Any]] = []
            probe = rec
            # The AI plays the turn; should it still be at it after SKIP_LIMIT moves, the game's
            # own safe choices (pass, end the turn) finish it, so a skip always hands the turn on.
            for n in range(2 * SKIP_LIMIT):
                assert probe.state is not None
                before = probe.seen(seat)
                if n < SKIP_LIMIT:
                    move = await self.decide(probe, seat, ai_seats.DEFAULT_LEVEL, safe=True)
                else:
                    move = dict(plugin.skip_move(before))
                new_state, _ = plugin.rules.apply(probe.state, seat, move)
                status = "finished" if plugin.rules.is_over(new_state) else "active"
                probe = replace(probe, state=new_state, version=probe.version + 1, status=status)
                moves.append(move)
                if probe.current != seat or plugin.skip_ends(before, probe.seen(seat), move):
                    break

            async def work(tx: Tx) -> tuple[GameRecord, list[str]]:
                done: list[str] = []
                cur = rec
                for move in moves:
                    result = await self.turns.commit(tx, cur, seat, user_id, move, note)
                    with i18n.use(rec.locale):
                        done.append(move_words.describe(rec.kind, move, cur.state))
                    cur = result.record
                with i18n.use(rec.locale):
                    # The moves are told as the log tells them, after the player's name.
                    moves_told = tr(", then ").join(done)
                    admin_text = tr(
                        "{who} skipped the turn of {skipped}; the AI played for them: "
                        "{skipped} {moves}",
                        who=who,
                        skipped=skipped,
                        moves=moves_told,
                    )
                    notice = tr(
                        "⏭️ {who} skipped the turn of {seat} {skipped}; the AI played for them. "
                        "{skipped} {moves}.",
                        who=who,
                        seat=texts.seat_tag(seat),
                        skipped=skipped,
                        moves=moves_told,
                    )
                await tx.add_admin_log(rec.id, kind="skip", by_user_id=user_id, text=admin_text)
                await tx.add_outbox(
                    rec.id, [NewOutbox(channel_id, "notice", {"text": texts.fit(notice)})]
                )
                return cur, done

            # Every move of the skip, its log and notice in one transaction and one hop to the
            # database's thread.
            cur, done = await self.k.write_game(channel_id, work)
            self.k.remember(cur)
        self.k.kick()
        self.k.ai_check(cur)
        return SkipResult(cur, seat, done)

    async def add_ai(
        self, channel_id: int, user_id: int, level: str, *, can_manage: bool
    ) -> GameRecord:
        """Seat a robot of `level` in the lobby (host or Manage Channels).

        Raises:
            NoGame, NotAllowed, LobbyError (started or full), ServiceError (no such level).
        """
        _check_level(level)
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("add an AI seat"))
            if row.status != "lobby":
                raise LobbyError(
                    tr(
                        "The game has started, so seats are fixed. A player can hand their seat "
                        "to the AI with `/games autopilot`."
                    ),
                    code="started",
                )
            seats = await tx.seats(row.id)
            most = GAMES.get(row.kind).rules.max_players
            if len(seats) >= most:
                raise LobbyError(tr("The lobby is full ({most} players).", most=most), code="full")
            robot_id = min([0, *(s.user_id for s in seats)]) - 1
            with i18n.use(row.locale):
                name = ai_seats.robot_name([s.name for s in seats], level)
            seats.append(SeatRow(len(seats), robot_id, name, level))
            rec = await self.lobby.change(tx, row, seats, row.host_id)
        self.k.kick()
        return rec

    async def remove_ai(self, channel_id: int, user_id: int, *, can_manage: bool) -> GameRecord:
        """Take the last robot seat out of the lobby (host or Manage Channels).

        Raises:
            NoGame, NotAllowed, LobbyError (started, or no AI seat to remove).
        """
        async with self.k.open_for_write(channel_id) as (tx, row):
            check_may_manage(row.host_id, user_id, can_manage, tr("remove an AI seat"))
            if row.status != "lobby":
                raise LobbyError(tr("The game has started, so seats are fixed."), code="started")
            seats = await tx.seats(row.id)
            robots = [s for s in seats if s.user_id < 0]
            if not robots:
                raise LobbyError(tr("There is no AI seat in this lobby to remove."), code="no_ai")
            gone = robots[-1]
            rest = [replace(s, seat=i) for i, s in enumerate(s for s in seats if s is not gone)]
            rec = await self.lobby.change(tx, row, rest, row.host_id)
        self.k.kick()
        return rec

    async def set_autopilot(
        self, channel_id: int, user_id: int, on: bool, level: str = ai_seats.DEFAULT_LEVEL
    ) -> GameRecord:
        """Hand the caller's seat to the AI (`on`) or take it back. The channel is told; the AI
        plays at once if it is the seat's turn.

        Raises:
            NoGame, NotInGame, LobbyError (already so), ServiceError (bad level).
        """
        checked(user_id)
        _check_level(level)
        async with self.k.lock(channel_id):
            rec = await self.k.active(channel_id)
            seat = rec.seat_of(user_id)
            if seat is None:
                raise NotInGame(
                    tr("You have no seat in this game, so there is no autopilot to set.")
                )
            holder = rec.seats[seat]
            if on and holder.ai is not None:
                raise LobbyError(
                    tr(
                        "Your seat is already on autopilot ({level}). Turn it off with "
                        "`/games autopilot on:False`.",
                        level=holder.ai,
                    ),
                    code="autopilot_on",
                )
            if not on and holder.ai is None:
                raise LobbyError(
                    tr("Your seat is not on autopilot: you are playing it yourself."),
                    code="autopilot_off",
                )
            with i18n.use(rec.locale):
                who = f"{texts.seat_tag(seat)} {texts.name(holder.name)}"
                text = (
                    tr(
                        "{robot} {who} handed their seat to the AI ({level}) until they take it "
                        "back.",
                        robot=ai_seats.ROBOT,
                        who=who,
                        level=level,
                    )
                    if on
                    else tr("👋 {who} is back and plays their own seat again.", who=who)
                )
                handed = "↪ " + (tr("handed to the AI.") if on else tr("taken back."))
            fresh = replace(
                rec,
                seats=[
                    s._replace(ai=level if on else None) if s.seat == seat else s for s in rec.seats
                ],
            )

            async def hand_over(tx: Tx) -> None:
                await tx.set_seat_ai(rec.id, seat, level if on else None)
                rows = [NewOutbox(channel_id, "notice", {"text": text})]
                if rec.current == seat:
                    # The waiting ping changes hands: the AI's "thinking" line, or the player's.
                    rows += await self.posts.close_ping(tx, rec, handed)
                    rows.append(await self.posts.ping_row(tx, fresh))
                await tx.add_outbox(rec.id, rows)

            # The whole change in one hop to the database's thread, as a move.
            await self.k.write_game(channel_id, hand_over)
            self.k.remember(fresh)
        self.k.kick()
        self.k.ai_check(fresh)
        return fresh
