"""Reminding: the reminders a waiting player gets (and the host's stall notice), and snooze.
The schedule arithmetic is `bot.reminders`; the first reminder is planned with the ping."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from bot import i18n, reminders, texts
from bot.core.errors import (
    NoGame,
    NotYourTurn,
)
from bot.core.game import (
    checked,
    iso,
    iso_or_none,
    parse_when,
)
from bot.core.kernel import Kernel
from bot.core.posts import Posts
from bot.games import GAMES
from bot.i18n import tr
from bot.store import (
    NewOutbox,
)


@dataclass(frozen=True)
class Waiting:
    """What a game in progress waits for (`/games status`)."""

    seat: int
    since: datetime  # when the turn passed to the seat (its turn ping)
    reminders_sent: int
    next_reminder: datetime | None  # None: none planned (reminders off, a robot's turn)


class Reminding:
    def __init__(self, k: Kernel, posts: Posts) -> None:
        self.k, self.posts = k, posts

    async def waiting(self, channel_id: int) -> Waiting | None:
        """The seat the channel's game in progress waits for, since when, and where its
        reminders stand; None when nothing waits (no game in progress here)."""
        checked(channel_id)
        async with self.k.store.read() as tx:
            row = await tx.open_game(channel_id)
            w = None if row is None or row.status != "active" else await tx.wait(row.id)
        if w is None:
            return None
        nxt = None if w.next_at is None else parse_when(w.next_at)
        return Waiting(w.seat, parse_when(w.since), w.sent, nxt)

    async def due_reminders(self) -> list[int]:
        """Games whose waiting player is due a reminder (or whose host a stall notice) now."""
        async with self.k.store.read() as tx:
            return [w.game_id for w in await tx.due_waits(iso(self.k.clock()))]

    async def remind(self, game_id: int) -> str | None:
        """Send the reminder due in a game, if it is still due: one write transaction posts it
        and advances the schedule, so a restart or a second call never sends it twice. After
        `STALL_AFTER` unanswered reminders the host gets a stall notice instead, once. Returns
        the text posted (None: nothing was due)."""
        checked(game_id)
        now = self.k.clock()
        async with self.k.store.write() as tx:
            w = await tx.wait(game_id)
            row = await tx.game(game_id)
            if w is None or w.next_at is None or parse_when(w.next_at) > now or row is None:
                return None
            if row.status != "active" or row.flagged or row.kind not in GAMES.games:
                await tx.put_wait(replace(w, next_at=None))
                return None
            rec = await self.k.record(tx, row)
            current = rec.current
            if (
                current != w.seat
                or rec.seats[current].user_id != w.user_id
                or rec.seats[current].ai is not None
            ):
                # The seat changed hands or went to the AI without a new ping: nobody to remind.
                await tx.put_wait(replace(w, next_at=None))
                return None
            plugin = rec.plugin
            mine = await tx.user_settings(rec.guild_id, w.user_id)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            plan = reminders.delays(await self.posts.reminder_hours(tx, rec, mine))
            with i18n.use(rec.locale):
                waited = reminders.waited(now - parse_when(w.since))
                who = f"{texts.seat_tag(current)} {texts.name(rec.names[current])}"
                if w.sent >= reminders.STALL_AFTER:
                    text = tr(
                        "⚠️ This {title} game has waited {waited} for {who}, after {n} "
                        "reminders. <@{host}>, as host (or any member with Manage Channels) you "
                        "can `/games skip` this turn (the AI plays it), `/games replace` the "
                        "player with someone else, set `/games deadline` so the AI plays late "
                        "turns, or `/games abort` the game. The player can hand their seat to the "
                        "AI with `/games autopilot on:True`.",
                        title=tr(plugin.title),
                        waited=waited,
                        who=who,
                        n=w.sent,
                        host=rec.host_id,
                    )
                    row_out = NewOutbox(
                        rec.channel_id, "notice", {"text": text, "mentions": [rec.host_id]}
                    )
                    await tx.put_wait(replace(w, next_at=None, stalled=True))
                else:
                    n = w.sent + 1
                    must = plugin.must_decide(rec.seen(None), you=True)
                    text = tr(
                        "⏰ <@{user}>, it's still your turn in {title} here (reminder {n}): you "
                        "must {must}. The game has waited for you {waited}.",
                        user=w.user_id,
                        title=tr(plugin.title),
                        n=n,
                        must=must,
                        waited=waited,
                    )
                    row_out = NewOutbox(
                        rec.channel_id,
                        "notice",
                        {
                            "text": texts.fit(text),
                            "mentions": [w.user_id],
                            "components": "reminder",
                            "version": rec.version,
                        },
                    )
                    every = reminders.DEFAULT_EVERY if plan is None else plan[1]
                    # With reminders off, only the morning ping after a night-time turn is sent.
                    later = reminders.due(now + every, quiet) if plan is not None else None
                    await tx.put_wait(replace(w, sent=n, next_at=iso_or_none(later)))
            await tx.add_outbox(rec.id, [row_out])
        self.k.kick()
        return text

    async def snooze(self, channel_id: int, user_id: int) -> datetime:
        """Put off the caller's reminders in this channel's game by `SNOOZE` (not into their
        quiet hours); return when the next one may come.

        Raises:
            NoGame, NotYourTurn (the game is not waiting for the caller).
        """
        checked(channel_id, user_id)
        now = self.k.clock()
        async with self.k.lock(channel_id), self.k.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None or row.status != "active":
                raise NoGame(tr("There is no game in progress here any more: nothing to snooze."))
            w = await tx.wait(row.id)
            if w is None or w.user_id != user_id:
                raise NotYourTurn(
                    tr(
                        "The game is not waiting for you, so there is no reminder of yours to "
                        "snooze."
                    )
                )
            mine = await tx.user_settings(row.guild_id, user_id)
            quiet = reminders.quiet_of(mine.quiet_from, mine.quiet_to, mine.timezone)
            until = now + reminders.SNOOZE
            nxt = reminders.due(max(parse_when(w.next_at), until) if w.next_at else until, quiet)
            await tx.put_wait(replace(w, snooze_until=iso(until), next_at=iso(nxt)))
        return nxt
