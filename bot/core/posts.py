"""What the channel reads after a change: the turn ping (with its digest of what the others did),
the edit of the last ping once its move is in, the phase and final posts, the lobby post. Every
word is built from the public view and public events (`bot.visibility`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot import ai_seats, i18n, reminders, texts
from bot.core.game import (
    GameRecord,
    iso,
    iso_or_none,
)
from bot.core.kernel import Kernel
from bot.i18n import tr, trn
from bot.plugin import EventLine, Post, Seen
from bot.store import (
    NewOutbox,
    Tx,
    UserSettings,
    WaitRow,
)
from bot.visibility import readable

log = logging.getLogger(__name__)

# A unit (round, phase) and its effective moves' (n, seat, text), oldest first.
UnitRows = tuple[tuple[int, int], list[tuple[int, int, str]]]

DIGEST_LINES = 4  # players' runs of moves shown in a turn ping; the rest is in `/games log`


class Posts:
    """The outbox rows a change queues for its channel."""

    def __init__(self, k: Kernel) -> None:
        self.k = k

    async def last_post_view(self, tx: Tx, rec: GameRecord) -> dict[str, Any] | None:
        """The public view the channel's last picture post of this game was drawn from (its
        start or last phase post): what the next post's pictures mark their changes against."""
        row = await tx.latest_outbox(rec.id, "phase_post")
        view = None if row is None else row.payload.get("view")
        return view if isinstance(view, dict) else None

    async def close_ping(self, tx: Tx, rec: GameRecord, text: str) -> list[NewOutbox]:
        """The edit of the game's last turn ping to `text` (it no longer waits), if any."""
        ping = await tx.latest_outbox_id(rec.id, "turn_ping")
        if ping is None:
            return []
        return [NewOutbox(rec.channel_id, "ping_done", {"text": text}, edits=ping)]

    async def rows_after_move(
        self,
        tx: Tx,
        rec: GameRecord,
        old: GameRecord,
        seat: int,
        unit: tuple[int, int],
        evs: list[dict[str, Any]],
    ) -> list[NewOutbox]:
        """The channel posts a move causes (`old`: the game before it, `unit` its unit), every
        word from the public view and events."""
        plugin = rec.plugin
        assert rec.state is not None
        if (
            rec.status == "active"
            and old.current == rec.current
            and plugin.unit_of_state(rec.state) == unit
        ):
            # Most moves: the same seat goes on in the same unit, so nothing is posted, and
            # neither public view needs building (the state says as much).
            return []
        with i18n.use(rec.locale):
            before = old.seen(None)
            after = rec.seen(None)
            rows: list[NewOutbox] = []
            unit_rows = await tx.unit_events(rec.id, unit)
            unit_moves = [
                EventLine(n, who, *unit, text, tuple(readable(events, None)))
                for n, who, text, events in unit_rows
            ]
            # The move itself was appended in this transaction, so it is in unit_moves already.
            mine = [e for m in unit_moves if m.seat == seat for e in m.events]
            # AI-played moves carry the robot mark in their log text (a note `play_ai` and `skip`
            # add; an engine's describe never writes it). Robots wear it in their names; the moves
            # the AI played for a person (autopilot, deadline, skip) are marked here.
            by_ai = {
                m.seat
                for m in unit_moves
                if ai_seats.ROBOT in m.text and not rec.seats[m.seat].robot
            }
            ping = await tx.latest_outbox_id(rec.id, "turn_ping")
            if ping is not None:
                done = plugin.done_line(before, seat, mine)
                if seat in by_ai and unit_moves and ai_seats.ROBOT in unit_moves[-1].text:
                    done = tr("{robot} (played by the AI) {done}", robot=ai_seats.ROBOT, done=done)
                rows.append(NewOutbox(rec.channel_id, "ping_done", {"text": done}, edits=ping))
            post = plugin.phase_post(before, after, unit_moves, readable(evs, None))
            if post is not None and by_ai:
                who = ", ".join(
                    f"{texts.seat_tag(s)} {texts.name(rec.names[s])}" for s in sorted(by_ai)
                )
                line = tr(
                    "{robot} Moves played by the AI for: {who}.", robot=ai_seats.ROBOT, who=who
                )
                post = replace(post, text=f"{post.text}\n{line}")
            if post is not None:
                before_post = await self.last_post_view(tx, rec)
                payload = post_payload(rec, post, after, before_post)
                rows.append(NewOutbox(rec.channel_id, "phase_post", payload))
            if rec.status == "finished":
                final = plugin.final_post(after)
                payload = post_payload(rec, final, after, await self.last_post_view(tx, rec))
                # Replay, Rematch and Record buttons under the final scores.
                payload.update(components="final", version=rec.version)
                rows.append(NewOutbox(rec.channel_id, "final_post", payload))
            else:
                # The turn ping's digest reads the moves of the unit now going on: most often
                # the one just read (the turn passed within a phase), so not read again.
                known = (unit, [(n, who, text) for n, who, text, _ in unit_rows])
                rows.append(await self.ping_row(tx, rec, known))
            return rows

    async def ping_row(self, tx: Tx, rec: GameRecord, known: UnitRows | None = None) -> NewOutbox:
        """The turn ping of the seat that must decide now, and the start of its wait: its
        reminder schedule is stored in the same transaction (bot/reminders.py). `known`: the
        effective moves of a unit already read in this transaction, after its last change
        (see `digest`)."""
        with i18n.use(rec.locale):
            current = rec.current
            assert current is not None
            holder = rec.seats[current]
            now = self.k.clock()
            if holder.ai is not None:
                # A robot has nobody to ping, and a member on autopilot asked not to be bothered:
                # the channel just sees who is thinking (this line is edited once the move is in).
                await tx.put_wait(
                    WaitRow(rec.id, current, holder.user_id, iso(now), 0, None, None, False)
                )
                must = rec.plugin.must_decide(rec.seen(None), you=False)
                how = "" if holder.robot else tr(" ({robot} autopilot)", robot=ai_seats.ROBOT)
                return NewOutbox(
                    rec.channel_id,
                    "turn_ping",
                    {
                        "text": tr(
                            "{seat} {name}{how} is thinking: must {must}…",
                            seat=texts.seat_tag(current),
                            name=texts.name(holder.name),
                            how=how,
                            must=must,
                        ),
                        "mentions": [],
                        "components": None,
                        "version": rec.version,
                    },
                )
            uid = rec.user_at(current)
            mine = await tx.user_settings(rec.guild_id, uid)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            # Inside the player's quiet hours the ping is posted without a notification, and a
            # reminder pings them when their quiet hours end.
            silent = quiet is not None and quiet.contains(now)
            plan = reminders.delays(await self.reminder_hours(tx, rec, mine))
            next_at = None if plan is None else reminders.due(now + plan[0], quiet)
            if silent:
                assert quiet is not None
                morning = quiet.morning(now)
                next_at = morning if next_at is None else min(next_at, morning)
            await tx.put_wait(
                WaitRow(rec.id, current, uid, iso(now), 0, iso_or_none(next_at), None, False)
            )
            text = rec.plugin.turn_ping(rec.seen(None), uid) + await self.digest(
                tx, rec, current, known
            )
            return NewOutbox(
                rec.channel_id,
                "turn_ping",
                {
                    "text": texts.fit(text),
                    "mentions": [uid],
                    "components": "play",
                    "version": rec.version,
                    "silent": silent,
                },
            )

    async def digest(
        self, tx: Tx, rec: GameRecord, seat: int, known: UnitRows | None = None
    ) -> str:
        """What the others did since `seat` last moved, in a few public lines, for its ping:
        only what no post has told yet. Each move is told once where a reader looks for it: a
        finished phase (a Nauticus action phase, an Island turn, a duel placement) is told by
        its phase post, with its pictures, right above the ping; the ping adds only the moves of
        the phase still going on, since the seat's own last move in it. `known`: a unit and its
        effective moves (n, seat, text) as read in this transaction: used instead of reading
        them again when it is the unit going on."""
        assert rec.state is not None
        unit = rec.plugin.unit_of_state(rec.state)
        if known is not None and known[0] == unit:
            moved, others = since_last_move(known[1], seat)
        else:
            moved, others = await tx.unit_since_last_move(rec.id, seat, unit)
        if not others:
            return ""
        # One line per player's run of moves (a Nauticus turn is several moves), newest last.
        runs: list[tuple[int, list[str]]] = []
        for who, text in others:
            if runs and runs[-1][0] == who:
                runs[-1][1].append(text)
            else:
                runs.append((who, [text]))
        shown = runs[-DIGEST_LINES:]
        lines = [
            tr(
                "• {emoji} {name} {moves}",
                emoji=texts.PLAYER_MARKS[s].emoji,
                name=texts.name(rec.names[s]),
                moves=_newest_first_fit(words, 300),
            )
            for s, words in shown
        ]
        if len(runs) > len(shown):
            earlier = sum(len(words) for _, words in runs[: len(runs) - len(shown)])
            more = trn("{n} earlier move", "{n} earlier moves", earlier)
            lines.insert(0, f"• … {more} (`/games log`)")
        head = tr("Since your last move:") if moved else tr("Since the last board picture:")
        return "\n" + head + "\n" + "\n".join(lines)

    async def reminder_hours(self, tx: Tx, rec: GameRecord, mine: UserSettings) -> int | None:
        """The interval that applies to this player in this game: theirs, else the game's (its
        host's), else the server's; None = the default (12 h, then every 24 h)."""
        for hours in (mine.reminder_hours, rec.reminder_hours):
            if hours is not None:
                return hours
        return await tx.guild_reminders(rec.guild_id)

    def lobby_payload(self, rec: GameRecord, status: str, note: str = "") -> dict[str, Any]:
        with i18n.use(rec.locale):
            host = next((s.name for s in rec.seats if s.user_id == rec.host_id), "?")
            rules = rec.plugin.rules
            return {
                "text": texts.lobby_text(
                    status,
                    host,
                    [(s.user_id, s.name) for s in rec.seats],
                    title=tr(rec.plugin.title),
                    min_players=rules.min_players,
                    max_players=rules.max_players,
                    order_note=note,
                    seating=rec.seating,
                ),
                "components": "lobby" if status == "lobby" else None,
                "version": rec.version,
            }

    async def lobby_edit(self, tx: Tx, rec: GameRecord, status: str, note: str = "") -> None:
        first = await tx.first_outbox(rec.id, "lobby")
        await tx.add_outbox(
            rec.id,
            [
                NewOutbox(
                    rec.channel_id,
                    "lobby",
                    self.lobby_payload(rec, status, note),
                    edits=None if first is None else first.id,
                )
            ],
        )


def post_payload(
    rec: GameRecord, post: Post, public: Seen, before: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An outbox payload of a public post: its pictures are drawn from the public view only,
    with the seats' names and, given `before` (the public view of the previous post), what
    changed since marked."""
    assert public.audience is None
    return {
        "text": post.text,
        "pictures": list(post.pictures),
        "view": public.view,
        "game": rec.kind,
        "names": list(public.names),
        "before": before,
    }


def since_last_move(
    unit_moves: Sequence[tuple[int, int, str]], seat: int
) -> tuple[bool, list[tuple[int, str]]]:
    """`Tx.unit_since_last_move` on a unit's effective moves (n, seat, text) already read,
    oldest first: whether `seat` has a move among them, and the (seat, text) of the others'
    moves since its last one (since the first if none)."""
    last = max((n for n, who, _ in unit_moves if who == seat), default=0)
    return last > 0, [(who, text) for n, who, text in unit_moves if n > last and who != seat]


def _newest_first_fit(words: Sequence[str], limit: int) -> str:
    """`words` joined with " · ", dropping the oldest (not the newest) when too long."""
    kept: list[str] = []
    size = 0
    for w in reversed(words):
        if kept and size + len(w) + 3 > limit:
            return "… · " + " · ".join(reversed(kept))
        kept.append(texts.fit(w, limit))
        size += len(w) + 3
    return " · ".join(reversed(kept))
