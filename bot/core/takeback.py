"""Take-back: a player's own last move, while it is still their turn, when it revealed and drew
nothing (decided from what the mover can see: `bot.undo`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import ai_seats, i18n, texts, undo
from bot.core.errors import (
    NotInGame,
    NotYourTurn,
    ServiceError,
    StaleVersion,
    UndoRefused,
)
from bot.core.game import (
    GameRecord,
    PlayResult,
    checked,
    replay,
)
from bot.core.kernel import DUPLICATE_WINDOW, Kernel
from bot.i18n import N_, tr
from bot.store import (
    MoveRow,
    NewOutbox,
    Tx,
)

UNDO = "undo"  # what `Kernel.double_send` remembers of a slash `/<game> undo`


class Takeback:
    def __init__(self, k: Kernel) -> None:
        self.k = k

    async def check(self, tx: Tx, rec: GameRecord, user_id: int) -> tuple[MoveRow, Any]:
        """The caller's move that may be taken back now, and the game before it.

        Raises:
            NotInGame, NotYourTurn, UndoRefused: with the reason and what is allowed.
        """
        seat = rec.seat_of(user_id)
        if seat is None:
            raise NotInGame(
                tr("You are not playing in this game: there is no move of yours to undo.")
            )
        if rec.current != seat:
            raise NotYourTurn(
                tr(
                    "You can only take back a move while it is still your turn; the game has "
                    "moved on. Ask the host if something went badly wrong."
                )
            )
        moves = await tx.moves(rec.id)
        last = moves[-1] if moves else None
        if last is None or last.seat != seat or last.user_id != user_id:
            raise UndoRefused(
                tr(
                    "There is no move of yours to take back in this turn: you can undo only "
                    "your own last move, while it is still your turn."
                )
            )
        if ai_seats.ROBOT in last.text:
            raise UndoRefused(
                tr("That move was played by the AI; only your own moves can be undone.")
            )
        plugin = rec.plugin
        before = replay(plugin, rec.seed, len(rec.seats), moves[:-1])
        assert rec.state is not None
        reason = undo.undo_refusal(
            plugin.rules, before, seat, last.move, rec.state, last.events, len(rec.seats)
        )
        if reason is None and plugin.unit_of_state(before) != plugin.unit_of_state(rec.state):
            reason = N_("it closed the action phase and the channel has seen its result")
        if reason is not None:
            raise UndoRefused(
                tr(
                    "You can't take back {move}: {reason}.",
                    move=texts.quoted(last.text)[:120],
                    reason=tr(reason),
                )
            )
        return last, before

    async def can_undo(self, channel_id: int, user_id: int) -> bool:
        """Whether `undo` would take back the caller's last move now (for the panel button)."""
        rec = await self.k.game_in(channel_id)
        if rec is None or rec.status != "active" or rec.flagged or rec.state is None:
            return False
        async with self.k.store.read() as tx:
            try:
                await self.check(tx, rec, user_id)
            except ServiceError:
                return False
        return True

    async def undo(
        self, channel_id: int, user_id: int, *, version: int | None = None
    ) -> PlayResult:
        """Take back the caller's last move while it is still their turn and it revealed and
        drew nothing (`bot.undo`). The log stays append-only: the undo is a row of its own, and
        every replay leaves the move out. The channel is told in one line.

        Raises:
            NoGame, NotInGame, NotYourTurn, StaleVersion, UndoRefused, GameUnavailable.
        """
        checked(user_id, *([] if version is None else [version]))
        async with self.k.lock(channel_id):
            rec = await self.k.active(channel_id)
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "That panel is out of date: the game has moved on; here is the current one."
                    ),
                    current=rec.version,
                )
            key = (channel_id, user_id)
            # The slash command carries no version: a second copy of it, with nothing played
            # since, is the same intent and must not take back a second move.
            if version is None and self.k.double_send(key, UNDO, rec.version):
                raise UndoRefused(
                    tr(
                        "You took a move back a moment ago and nothing has happened since, so "
                        "this looks like a double send: nothing more was taken back. To take back "
                        "the move before, send undo again after {window} s, or use the panel's "
                        "Undo button.",
                        window=int(DUPLICATE_WINDOW.total_seconds()),
                    )
                )

            async def work(tx: Tx) -> tuple[MoveRow, GameRecord]:
                last, before = await self.check(tx, rec, user_id)
                plugin = rec.plugin
                await tx.undo_move(rec.id, last.n, last.seat, user_id)
                if not await tx.bump_game(
                    rec.id, rec.version, state_json=plugin.rules.to_json(before), status="active"
                ):
                    self.k.forget(channel_id)
                    raise StaleVersion(
                        tr("The game changed meanwhile; try again."), current=rec.version
                    )
                with i18n.use(rec.locale):
                    who = f"{texts.seat_tag(last.seat)} {texts.name(rec.names[last.seat])}"
                    text = tr(
                        "↩️ {who} took back the move: {name} {move}",
                        who=who,
                        name=texts.name(rec.names[last.seat]),
                        move=last.text,
                    )
                await tx.add_outbox(rec.id, [NewOutbox(channel_id, "notice", {"text": text})])
                return last, replace(rec, version=rec.version + 1, state=before, status="active")

            # The check, the take-back and its notice in one hop to the database's thread, as
            # a move is.
            last, after = await self.k.write_game(channel_id, work)
            self.k.remember(after)
            self.k.sent(key, UNDO if version is None else None, after.version)
        self.k.kick()
        return PlayResult(after, last.move, [], last.text, last.n)
