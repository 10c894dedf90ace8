"""Delivering the outbox: the posts and pings each committed move wrote, each exactly once.

A move's transaction writes its messages as outbox rows; only after COMMIT does `Outbox` hand them
to a `Sender` (the Discord layer, or the offline runner's folder writer) and mark each row sent
with the message id right after delivery. Rows left over by a crash are delivered on start-up.
The gap between delivery and marking is closed by the row's nonce: Discord refuses a second
message with the same nonce from the same bot, so a resend after a crash there shows once.

Pictures are drawn at send time, from the state stored in the row, in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from bot import i18n
from bot.games import GAMES, LEGACY_KIND
from bot.i18n import tr
from bot.plugin import Seen
from bot.store import SET_ASIDE, DiskFull, OutboxRow, Store
from bot.texts import MAX_MESSAGE, fit

log = logging.getLogger(__name__)

Components = Literal["play", "lobby", "final", "reminder"]


@dataclass(frozen=True, slots=True)
class OutFile:
    filename: str
    data: bytes
    description: str = ""  # alt text


@dataclass(frozen=True, slots=True)
class OutMessage:
    """One channel message to send, or the new content of one to edit.

    `mention_user_ids` are the only users the message may ping (never everyone or roles).
    `components`: "play" = a Play button for (game_id, version); "lobby" = Join/Leave/Start/Cancel
    for game_id; "final" = Replay/Rematch/Record under a game's final scores; "reminder" = Play
    and Snooze; None = no components (an edit with None removes the old ones).
    `silent`: posted without a notification (the pinged player is in their quiet hours).
    `nonce` is stable across retries of the same row; pass it to Discord so a resend after a
    crash is dropped instead of shown twice.
    """

    text: str
    files: tuple[OutFile, ...] = ()
    mention_user_ids: tuple[int, ...] = ()
    components: Components | None = None
    game_id: int | None = None
    version: int | None = None
    nonce: int | None = None
    kind: str = ""  # the outbox row kind, for logs and the offline transcript
    silent: bool = False
    locale: str = i18n.ENGLISH  # the game's language: of its buttons and pictures' alt texts


class Sender(Protocol):
    """Where messages go: implemented by the Discord layer and by the offline runner."""

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        """Post a message; return its id."""
        ...

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        """Replace the content (text, files, components) of a message posted earlier."""
        ...


class DeliveryRefused(Exception):
    """Raised by a Sender when retrying cannot help (a missing permission, a deleted channel):
    the row is given up at once instead of after several attempts."""


class DeliveryDelayed(Exception):
    """Raised by a Sender when Discord cannot be reached or answers with a server error.

    A home-hosted bot loses its network for minutes at a time; such failures say nothing about
    the message, so they never count towards giving a row up: it is retried (with backoff)
    until Discord answers.
    """


# Failures of the way to Discord rather than of the message (see DeliveryDelayed).
TRANSIENT: tuple[type[BaseException], ...] = (DeliveryDelayed, OSError, TimeoutError)


# (game kind, picture names, public view, the seats' names, the public view of the previous post
# or None) -> encoded pictures; the default draws with the game's plugin, tests and benches may
# swap it.
Draw = Callable[
    [str, Sequence[str], dict[str, Any], Sequence[str], dict[str, Any] | None],
    tuple[OutFile, ...],
]


def draw_with_render(
    kind: str,
    names: Sequence[str],
    public_view: dict[str, Any],
    seats: Sequence[str] = (),
    before: dict[str, Any] | None = None,
) -> tuple[OutFile, ...]:
    """Draw the named public pictures of a game from its public view (never a state), with the
    seats' names beside their badges and, given the previous post's view, what changed marked."""
    pictures = GAMES.get(kind).draw(names, Seen(None, public_view, tuple(seats), before=before))
    return tuple(OutFile(p.filename, p.data, _alt(p.description)) for p in pictures)


MAX_ALT_TEXT = 1024  # Discord's limit on an attachment's description


def _alt(text: str) -> str:
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"


def error_id() -> str:
    """A short id shown to users and logged with the details of an internal error."""
    return secrets.token_hex(3)


class Outbox:
    """Delivers pending outbox rows in order through a Sender."""

    def __init__(
        self,
        store: Store,
        sender: Sender,
        *,
        draw: Draw = draw_with_render,
        max_attempts: int = 5,
        page_size: int = 200,
    ) -> None:
        self.store = store
        self.sender = sender
        self.draw = draw
        self.max_attempts = max_attempts
        self.page_size = page_size
        self._wake = asyncio.Event()
        self._deliver_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # Rows delivered whose marking failed (a full disk): row id -> message id. Only the
        # marking is retried; the post is never sent again by this process.
        self._delivered: dict[int, int | None] = {}

    def kick(self) -> None:
        """Tell the background task there is something to deliver (no-op if not started)."""
        self._wake.set()

    def start(self) -> None:
        """Start the background delivery task; it first delivers what a previous run left."""
        if self._task is None or self._task.done():
            self._stopping = False
            self._wake.set()
            self._task = asyncio.create_task(self._run(), name="outbox")

    async def stop(self, grace: float = 5.0) -> None:
        """Stop delivering. A message being delivered gets up to `grace` seconds to finish
        and be marked sent (else the next start resends it, with the same nonce); no new one
        starts. Undelivered rows stay in the outbox for the next start."""
        task, self._task = self._task, None
        if task is not None:
            self._stopping = True
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(grace), self._deliver_lock:
                    pass
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        backoff = 1.0
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                failed = await self.deliver_pending()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox pass failed")
                failed = 1
            if failed:
                # Retry later without spinning; a new commit wakes us earlier.
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=backoff)
                except TimeoutError:
                    self._wake.set()
                backoff = min(backoff * 2, 60.0)
            else:
                backoff = 1.0

    async def deliver_pending(self) -> int:
        """Deliver every pending row once, in order; return how many rows failed this pass.

        A row that fails holds back the later rows of its channel (so a channel never sees
        messages out of order) until it is delivered or given up.
        """
        async with self._deliver_lock:
            failed = 0
            blocked: set[int] = set()
            after = 0
            while True:
                # Page through by id, so rows committed during the pass are delivered too.
                async with self.store.read() as tx:
                    rows = await tx.pending_outbox(limit=self.page_size, after=after)
                if not rows:
                    return failed
                for row in rows:
                    if self._stopping:
                        return failed
                    if row.channel_id in blocked:
                        continue
                    if not await self._deliver(row):
                        failed += 1
                        blocked.add(row.channel_id)
                after = rows[-1].id

    async def _deliver(self, row: OutboxRow) -> bool:
        if row.id in self._delivered:
            return await self._mark(row, self._delivered[row.id])
        if row.unreadable is not None:
            # Retrying can't repair it, and holding it would stop its channel for ever.
            log.error(
                "outbox row %s (game %s, channel %s) set aside: its payload is unreadable (%s); "
                "it will not be delivered",
                row.id,
                row.game_id,
                row.channel_id,
                row.unreadable,
            )
            async with self.store.write() as tx:
                await tx.mark_sent(row.id, None, f"{SET_ASIDE}: unreadable payload")
            return True
        try:
            msg = await self._message(row)
            if row.edits is not None:
                async with self.store.read() as tx:
                    target = await tx.outbox_row(row.edits)
                if target is not None and target.message_id is not None:
                    await self.sender.edit(row.channel_id, target.message_id, msg)
                    message_id: int | None = target.message_id
                elif row.kind == "lobby":
                    message_id = await self.sender.send(row.channel_id, msg)
                else:
                    message_id = None  # the message to edit was never posted: nothing to edit
            else:
                message_id = await self.sender.send(row.channel_id, msg)
        except asyncio.CancelledError:
            raise
        except DeliveryRefused as exc:
            log.warning("outbox row %s (game %s) refused: %s", row.id, row.game_id, exc)
            async with self.store.write() as tx:
                await tx.mark_sent(row.id, None, f"refused: {exc}")
            return True
        except TRANSIENT as exc:
            log.warning(
                "outbox row %s (game %s) delayed, will retry: %s: %s",
                row.id,
                row.game_id,
                type(exc).__name__,
                exc,
            )
            return False
        except Exception as exc:
            eid = error_id()
            log.exception("outbox row %s (game %s) failed [error %s]", row.id, row.game_id, eid)
            async with self.store.write() as tx:
                attempts = await tx.note_failure(row.id, f"[{eid}] {type(exc).__name__}: {exc}")
                if attempts >= self.max_attempts:
                    log.error("outbox row %s given up after %s attempts", row.id, attempts)
                    await tx.mark_sent(row.id, None, f"gave up [{eid}]")
                    return True
            return False
        self._delivered[row.id] = message_id
        return await self._mark(row, message_id)

    async def _mark(self, row: OutboxRow, message_id: int | None) -> bool:
        """Record a delivery; on a full disk keep it in memory and retry (with the pass's
        backoff) only the marking, holding back the channel's later rows to keep the order."""
        try:
            # One hop to the database's thread for the whole transaction (four with `write`).
            await self.store.write_at_once(lambda tx: tx.mark_sent(row.id, message_id))
        except DiskFull:
            log.debug("outbox row %s delivered; marking it waits for disk space", row.id)
            return False
        del self._delivered[row.id]
        return True

    async def _locale(self, game_id: int | None) -> str:
        """The language of a game's posts (its text was written in it when the row was)."""
        if game_id is None:
            return i18n.ENGLISH
        async with self.store.read() as tx:
            row = await tx.game(game_id)
        return row.locale if row is not None else i18n.ENGLISH

    async def _message(self, row: OutboxRow) -> OutMessage:
        p = row.payload
        files: tuple[OutFile, ...] = ()
        text = str(p.get("text", ""))
        kinds = p.get("pictures") or []
        public = _public_view(p)
        # Rows written before posts carried them draw without names and change marks.
        seats = [str(n) for n in p.get("names") or ()]
        before = p.get("before") if isinstance(p.get("before"), dict) else None
        locale = await self._locale(row.game_id)
        if kinds and public is not None:
            game = str(p.get("game") or LEGACY_KIND)
            # to_thread runs the drawing in a copy of this context: alt texts in the game's
            # language.
            with i18n.use(locale):
                try:
                    files = await asyncio.to_thread(self.draw, game, kinds, public, seats, before)
                except Exception:
                    # The words matter more than the pictures: post them and say what went wrong.
                    eid = error_id()
                    log.exception(
                        "drawing %s for game %s failed [error %s]", kinds, row.game_id, eid
                    )
                    note = "\n" + tr("(The pictures could not be drawn: error {eid}.)", eid=eid)
                    text = fit(text, MAX_MESSAGE - len(note)) + note
        return OutMessage(
            text=text,
            files=files,
            mention_user_ids=tuple(int(u) for u in p.get("mentions", ())),
            components=p.get("components"),
            game_id=row.game_id,
            version=p.get("version"),
            nonce=row.nonce,
            kind=row.kind,
            silent=bool(p.get("silent")),
            locale=locale,
        )


def _public_view(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The public view a post's pictures are drawn from.

    Rows written before the platform stored the state of a game with no secret (Nauticus,
    `LEGACY_KIND`); its public view is computed from it here.
    """
    view = payload.get("view")
    if isinstance(view, dict):
        return view
    state = payload.get("state")
    if isinstance(state, str):
        rules = GAMES.get(LEGACY_KIND).rules
        return rules.view(rules.from_json(state), None)
    return None
