"""History: what a game was — its log in words (`/games log`), the board at any past phase,
exports and replays, the check of every stored game against its log, and the lists of games
across a server."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot import records, texts
from bot.core.errors import (
    GameUnavailable,
    NoGame,
    ServiceError,
)
from bot.core.game import (
    GameRecord,
    MyGame,
    checked,
    new_commands,
    replay,
    same_state,
    seat_list,
)
from bot.core.kernel import Kernel
from bot.games import GAMES
from bot.i18n import tr
from bot.plugin import Seen
from bot.store import (
    MoveRow,
    UnreadableMove,
)
from bot.visibility import seen

log = logging.getLogger(__name__)

LOG_PAGE = 15  # moves on one page of `/games log` (a reply holds 2,000 characters)


class History:
    def __init__(self, k: Kernel) -> None:
        self.k = k

    async def log(self, channel_id: int, n: int = 10, *, reader_id: int | None = None) -> list[str]:
        """The last `n` moves of the channel's current (or last) game, in words, as the member
        `reader_id` may read them: every move's public line, and the private lines of their own
        seat's events (the caller shows them only to that member).

        Raises:
            NoGame: no game was ever played here.
        """
        checked(channel_id, n)
        lines, _, _ = await self._log(channel_id, reader_id, last=max(0, n))
        return lines

    async def log_page(
        self, channel_id: int, page: int, *, reader_id: int | None = None
    ) -> tuple[list[str], int, int]:
        """Page `page` of the whole log (`LOG_PAGE` moves a page; 1 = the newest), the page
        shown (clamped) and the number of pages.

        Raises:
            NoGame, GameUnavailable.
        """
        checked(channel_id, page)
        return await self._log(channel_id, reader_id, page=page)

    async def _log(
        self,
        channel_id: int,
        reader_id: int | None,
        *,
        last: int | None = None,
        page: int | None = None,
    ) -> tuple[list[str], int, int]:
        async with self.k.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.last_game(channel_id)
            if row is None:
                raise NoGame(
                    tr(
                        "No game was played here yet. Start one with {commands}.",
                        commands=new_commands(),
                    )
                )
            plugin = GAMES.get(row.kind)
            seats = seat_list(await tx.seats(row.id))
            try:
                if last is not None:
                    moves = await tx.last_moves(row.id, last, with_undone=True)
                    pages, newest = 1, True
                else:
                    everything = await tx.moves(row.id, with_undone=True)
                    pages = max(1, -(-len(everything) // LOG_PAGE))
                    page = min(max(1, page or 1), pages)
                    end = len(everything) - (page - 1) * LOG_PAGE
                    moves = everything[max(0, end - LOG_PAGE) : end]
                    newest = page == 1
                undone = await tx.undone(row.id)
            except UnreadableMove as exc:
                raise GameUnavailable(
                    tr(
                        "This game's log is damaged ({problem}), so it can't be shown and the "
                        "game is on hold. An admin can `/games abort` it; `python -m bot check` "
                        "lists it.",
                        problem=exc,
                    ),
                    code="unreadable_log",
                    error_id=f"move-{exc.n}",
                ) from None
            admin = await tx.admin_log(row.id, after_move=(moves[0].n - 2) if moves else -1)
        if not newest and moves:
            admin = [a for a in admin if a[0] < moves[-1].n]
        reader = next((s.seat for s in seats if s.user_id == reader_id), None)
        lines = []
        for m in moves:
            while admin and admin[0][0] < m.n:
                lines.append(f"— {admin.pop(0)[2]}")
            who = (
                texts.name(seats[m.seat].name)
                if m.seat < len(seats)
                else tr("seat {n}", n=m.seat + 1)
            )
            back = tr(" ↩️ (taken back)") if m.n in undone else ""
            lines.append(
                f"{m.n}. R{m.round}·P{m.phase} {texts.PLAYER_MARKS[m.seat].emoji} {who} "
                f"{m.text}{back}"
            )
            if reader is not None:
                for e in m.events:
                    if e.get("private_to") == reader:
                        line = plugin.private_line(e)
                        lines.append("   " + tr("🔒 only you see: {line}", line=line))
        if newest:
            lines += [f"— {a[2]}" for a in admin]
        return lines, page or 1, pages

    async def check_all(self) -> list[tuple[int, int, str]]:
        """Replay every stored game against its log; return (game id, channel id, problem) for
        each mismatch. Games stored by another engine version are not replayed (their logs were
        played under other rules); only an unreadable state of theirs is a problem."""
        async with self.k.store.read() as tx:
            rows = await tx.games_with_status("active", "finished")
            problems = []
            loaded = []
            for r in rows:
                try:
                    loaded.append((await self.k.record(tx, r), await tx.moves(r.id)))
                except UnreadableMove as exc:  # that game only; the others are still checked
                    problems.append((r.id, r.channel_id, str(exc)))
        for rec, moves in loaded:
            if rec.state is None:
                problems.append(
                    (rec.id, rec.channel_id, f"state of engine {rec.engine_version} unreadable")
                )
                continue
            if rec.engine_version != rec.plugin.rules.engine_version:
                continue
            try:
                replayed = replay(rec.plugin, rec.seed, len(rec.seats), moves)
            except Exception as exc:
                problems.append((rec.id, rec.channel_id, f"replay fails: {exc}"))
                continue
            if not same_state(rec.plugin, replayed, rec.state):
                problems.append(
                    (rec.id, rec.channel_id, f"state differs from a replay of {len(moves)} moves")
                )
        return problems

    async def with_log(
        self, channel_id: int, game_id: int | None
    ) -> tuple[GameRecord, list[MoveRow]]:
        """A game of this channel (see `_game_here`) and its whole move log, in one snapshot."""
        checked(channel_id, *([] if game_id is None else [game_id]))
        async with self.k.store.read() as tx:
            rec = await self.k.record(tx, await self.k.game_here(tx, channel_id, game_id))
            try:
                return rec, await tx.moves(rec.id)
            except UnreadableMove as exc:
                raise GameUnavailable(
                    tr(
                        "This game's log is damaged ({problem}), so it can't be replayed or "
                        "exported.",
                        problem=exc,
                    ),
                    code="unreadable_log",
                    error_id=f"move-{exc.n}",
                ) from None

    async def export(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> dict[str, Any]:
        """The record (`bot.records`) of the channel's game (`game_id`, or the open or latest
        one) for the member `user_id`: complete once the game is finished; otherwise only what
        the table may see plus that member's own seat's private lines.

        Raises:
            NoGame: no such game in this channel. GameUnavailable: a damaged log.
        """
        checked(user_id)
        rec, moves = await self.with_log(channel_id, game_id)
        return records.build(
            plugin=rec.plugin,
            game_id=rec.id,
            status=rec.status,
            engine_version=rec.engine_version,
            seed=rec.seed,
            seating=rec.seating,
            deadline_hours=rec.deadline_hours,
            seats=[(s.seat, s.name, s.ai, s.robot) for s in rec.seats],
            moves=moves,
            state=rec.state,
            reader_seat=rec.seat_of(user_id),
            exported_at=self.k.clock(),
        )

    async def units_played(self, channel_id: int) -> list[tuple[int, int]]:
        """The (round, phase) units of the channel's game in which moves were made, in order."""
        _, moves = await self.with_log(channel_id, None)
        return list(dict.fromkeys((m.round, m.phase) for m in moves))

    async def history(self, channel_id: int, unit: str) -> tuple[GameRecord, tuple[int, int], Any]:
        """The channel's game (current, else last) as the table saw it at the end of a unit
        ("3.2": round 3, phase 2, or the game's own unit): the record, the unit, and the
        public view to draw. Built by replaying the effective log up to that unit's last move.

        Raises:
            NoGame; ServiceError (bad_unit: malformed, or a unit not played yet, listing those
            that were).
        """
        rec, moves = await self.with_log(channel_id, None)
        played = list(dict.fromkeys((m.round, m.phase) for m in moves))
        names = ", ".join(f"{r}.{p}" for r, p in played[-12:]) or tr("none yet")
        try:
            r_text, p_text = str(unit).strip().split(".")
            wanted = (int(r_text), int(p_text))
        except ValueError:
            raise ServiceError(
                tr(
                    "Write the moment as round.phase, e.g. 3.2 (not {unit}). Played so far "
                    "(latest): {names}.",
                    unit=texts.quoted(str(unit))[:20],
                    names=names,
                ),
                code="bad_unit",
            ) from None
        if wanted not in played:
            raise ServiceError(
                tr(
                    "Nothing was played in {unit} yet. Played so far (latest): {names}.",
                    unit=f"{wanted[0]}.{wanted[1]}",
                    names=names,
                ),
                code="bad_unit",
            )
        last = max(i for i, m in enumerate(moves) if (m.round, m.phase) == wanted)
        state = replay(rec.plugin, rec.seed, len(rec.seats), moves[: last + 1])
        return rec, wanted, seen(rec.plugin, state, rec.names, None).view

    async def mine_since_my_move(self, channel_id: int, seat: int) -> Seen:
        """What `seat` sees of the channel's game now, with `before` set to its own view right
        after its last move (None before its first): its hand or shipyard picture then marks
        what came to it since, e.g. the cards drawn and the divers dealt while the others played.
        Only the seat's own views are read (the reply is its holder's alone); the earlier one is
        rebuilt by replaying the effective log up to that move."""
        rec, moves = await self.with_log(channel_id, None)
        now = rec.seen(seat)
        last = max((i for i, m in enumerate(moves) if m.seat == seat), default=None)
        if last is None or rec.state is None:
            return now
        then = replay(rec.plugin, rec.seed, len(rec.seats), moves[: last + 1])
        return replace(now, before=seen(rec.plugin, then, rec.names, seat).view)

    async def animation(self, channel_id: int, game_id: int | None = None) -> tuple[str, bytes]:
        """An animated GIF of the board after every action phase of a game of this channel,
        and its file name. Drawn from public views only, so anyone may see it. CPU-bound
        (about a second for a whole game): call it off the event loop.

        Raises:
            NoGame; GameUnavailable (no move yet, a damaged log, another engine version).
        """
        rec, moves = await self.with_log(channel_id, game_id)
        plugin = rec.plugin
        if rec.state is None or not moves:
            raise GameUnavailable(
                tr("There is nothing to replay yet: the game has no move."),
                code="no_moves",
                error_id=f"game-{rec.id}",
            )
        if rec.engine_version != plugin.rules.engine_version:
            raise GameUnavailable(
                tr(
                    "This game was played by another version of the rules, so it can't be replayed."
                ),
                code="old_engine",
                error_id=f"game-{rec.id}",
            )
        # Drawn in an AI worker process (at its lower priority): a whole game's frames take a
        # second of CPU and tens of MB that would otherwise stay in the bot.
        data = await self.k.thinker.offload(
            records.replay_gif,
            plugin.kind,
            rec.seed,
            list(rec.names),
            [(m.seat, m.move) for m in moves],
            rec.locale,
        )
        return f"{plugin.kind}-game-{rec.id}-replay.gif", data

    async def my_games(self, guild_id: int, user_id: int) -> list[MyGame]:
        """The user's lobbies and games in progress on one server: the ones waiting for them
        first, each group oldest waiting first."""
        async with self.k.store.read() as tx:
            rows = await tx.open_games_of(guild_id, user_id)
            recs = [await self.k.record(tx, r) for r in rows]
        out = []
        for rec in recs:
            seat = rec.seat_of(user_id)
            assert seat is not None
            current = rec.current
            if rec.status == "lobby":
                decide, mine = tr("lobby: waiting for the host to start"), False
            elif rec.flagged or rec.state is None:
                decide, mine = tr("on hold (an admin should look at it)"), False
            elif current == seat:
                decide, mine = rec.plugin.must_decide(rec.seen(None), you=True), True
            elif current is not None:
                who = texts.name(rec.names[current])
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                decide, mine = tr("waiting for {who} to {must}", who=who, must=must), False
            else:
                decide, mine = tr("finished"), False
            out.append(
                MyGame(
                    rec.id,
                    rec.channel_id,
                    rec.status,
                    seat,
                    mine,
                    decide,
                    rec.updated_at,
                    rec.plugin.title,
                )
            )
        out.sort(key=lambda g: (not g.your_turn, g.since, g.game_id))
        return out

    async def count_active(self, guild_id: int) -> int:
        async with self.k.store.read() as tx:
            return await tx.count_active(guild_id)
