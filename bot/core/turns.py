"""Turns: a move from any source (a player's panel or command, the AI, a skip) is checked,
applied by the game's engine and committed in one transaction with its posts and, when it ends
the game, its result."""

from __future__ import annotations

from typing import Any

from bot import i18n, move_words, texts
from bot.core.errors import (
    NeedsConfirmation,
    NotInGame,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from bot.core.game import (
    GameRecord,
    PlayResult,
    checked,
    move_shaped,
)
from bot.core.kernel import DUPLICATE_WINDOW, Kernel
from bot.core.posts import Posts
from bot.core.standings import Standings
from bot.i18n import tr
from bot.store import (
    Tx,
    now,
)
from bot.visibility import event_dict

# A move is a small JSON object; see `bot.core.game.move_shaped`.


class Turns:
    def __init__(self, k: Kernel, posts: Posts, standings: Standings) -> None:
        self.k, self.posts, self.standings = k, posts, standings

    async def play(
        self,
        channel_id: int,
        user_id: int,
        move: dict[str, Any],
        *,
        version: int | None = None,
        confirm: bool = False,
        command: bool = False,
    ) -> PlayResult:
        """Play `move` for the user in the channel's game.

        `command`: the move comes from a slash command, which carries no version; the same
        command of the same player again within `DUPLICATE_WINDOW` is taken for a double send
        and refused (a component's version already refuses a second click).

        Raises:
            NoGame, NotInGame, NotYourTurn, StaleVersion, NeedsConfirmation, GameUnavailable:
                the move is refused and nothing changes.
            IllegalMove: the engine refuses the move (its message says why).
        """
        checked(user_id, *([] if version is None else [version]))
        if not move_shaped(move):
            raise ServiceError(tr("That move is malformed; nothing was changed."), code="bad_input")
        async with self.k.lock(channel_id):
            rec = await self.k.active(channel_id)
            state = rec.state
            assert state is not None
            seat = rec.seat_of(user_id)
            if seat is None:
                raise NotInGame(
                    tr(
                        "You are not playing in this game. You can follow it with "
                        "`/{command} board` and join the next one when its lobby opens.",
                        command=rec.plugin.command,
                    )
                )
            if version is not None and version != rec.version:
                raise StaleVersion(
                    tr(
                        "That was an old panel or a second click: the game has moved on since. "
                        "Here is the current state; choose again."
                    ),
                    current=rec.version,
                )
            current = rec.current
            if current != seat:
                if current is None:
                    raise NotYourTurn(tr("The game is over: there is nothing left to play."))
                who = f"{texts.seat_tag(current)} {texts.name(rec.names[current])}"
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                raise NotYourTurn(
                    tr(
                        "It's not your turn: {who} must {must}. You'll be pinged when it's yours.",
                        who=who,
                        must=must,
                    ),
                    current=current,
                )
            if not confirm:
                reason = rec.plugin.confirmation(rec.seen(seat), move)
                if reason is not None:
                    raise NeedsConfirmation(reason)
            key = (channel_id, user_id)
            if command and self.k.double_send(key, move, rec.version):
                raise ServiceError(
                    tr(
                        "You sent exactly this move a moment ago and nothing has happened since, "
                        "so this looks like a double send: nothing was played twice. To play it "
                        "again, send it once more after {window} s, or use the panel.",
                        window=int(DUPLICATE_WINDOW.total_seconds()),
                    ),
                    code="duplicate",
                )
            # An illegal move raises inside the transaction, which then writes nothing. The
            # whole move (engine, words, posts, statements) runs in one hop to the database's
            # thread.
            result = await self.k.write_game(
                channel_id, lambda tx: self.commit(tx, rec, seat, user_id, move)
            )
            self.k.remember(result.record)
            self.k.sent(key, move if command else None, result.record.version)
        self.k.kick()
        self.k.ai_check(result.record)
        return result

    async def commit(
        self, tx: Tx, rec: GameRecord, seat: int, user_id: int, move: dict[str, Any], note: str = ""
    ) -> PlayResult:
        """Append one move, store the new state under the version check, queue its messages."""
        state = rec.state
        assert state is not None
        plugin = rec.plugin
        rules = plugin.rules
        new_state, events = rules.apply(state, seat, move)
        # The log line is public: an engine's describe never names a secret (engine/api.py).
        # The log line is written once, in the game's language (it is shown as stored).
        with i18n.use(rec.locale):
            text = move_words.describe(rec.kind, move, state) + note
        evs = [event_dict(e) for e in events]
        status = "finished" if rules.is_over(new_state) else "active"
        # Read from the state: the public view of `state` is built only if a post needs it.
        round_, phase = plugin.unit_of_state(state)
        at = now()  # the one time of the move's rows (the clock is read once)
        n = await tx.append_move(
            rec.id,
            seat=seat,
            user_id=user_id,
            round=round_,
            phase=phase,
            move=move,
            events=evs,
            text=text,
            at=at,
        )
        ok = await tx.bump_game(
            rec.id, rec.version, at=at, state_json=rules.to_json(new_state), status=status
        )
        if not ok:
            # Only this service writes games, under this lock: a miss means another
            # process shares the database. Refuse rather than overwrite.
            self.k.forget(rec.channel_id)
            raise StaleVersion(
                tr("The game changed while your move was being saved; choose again."),
                current=rec.version,
            )
        after = rec.changed(version=rec.version + 1, state=new_state, status=status)
        if status == "finished":
            # The result and the rating change are stored with the last move, or not at all.
            await self.standings.record_result(tx, after)
        rows = await self.posts.rows_after_move(tx, after, rec, seat, (round_, phase), evs)
        await tx.add_outbox(rec.id, rows, at=at)
        return PlayResult(after, move, list(events), text, n)
