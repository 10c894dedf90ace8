"""Plays AI turns in the running bot: robot seats, autopilots and passed turn deadlines.

Nothing here is remembered between runs, and nothing needs to be: whether the AI must play a
seat is a fact of the stored game (its seats and deadline), so at start-up (and every
`SCAN_EVERY`, for deadlines) the runner asks the service which games wait for the AI. A restart
in the middle of an AI turn thus resumes it, and since a decision's seed comes from the game's
id and version, the same move is chosen again.

Each AI move waits `delay` first, so the channel can follow a table of robots move by move,
then goes through `GameService.play_ai` like any player's move (the version check refuses it if
a person moved meanwhile). One task per channel at most; channels run side by side, their
searches in the service's process pool.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from bot.service import GameService, ServiceError

log = logging.getLogger(__name__)

SCAN_EVERY = timedelta(seconds=60)


class AiRunner:
    def __init__(self, service: GameService, *, delay: timedelta = timedelta(seconds=3)) -> None:
        self.service = service
        self.delay = delay
        self._wanted: dict[int, int] = {}  # channel -> game version the AI should move at
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}  # deadlines due later
        self._scanner: asyncio.Task[None] | None = None
        self.played = 0  # AI moves committed since start (for `about` and the tests)

    def start(self) -> None:
        self.service.on_ai_turn = self.notify
        self._scanner = asyncio.create_task(self._scan_forever(), name="ai-scan")

    def notify(self, channel_id: int, version: int) -> None:
        """The AI should move in `channel_id` at game version `version`."""
        self._wanted[channel_id] = version
        task = self._tasks.get(channel_id)
        if task is None or task.done():
            self._tasks[channel_id] = asyncio.create_task(
                self._channel(channel_id), name=f"ai-{channel_id}"
            )

    async def _channel(self, channel_id: int) -> None:
        # Loops while new versions are wanted: the move this task commits asks for the next.
        while channel_id in self._wanted:
            version = self._wanted.pop(channel_id)
            await asyncio.sleep(self.delay.total_seconds())
            if self.service.closing:
                return
            try:
                # Shielded: stopping the bot cancels the wait, never a move being committed.
                if await asyncio.shield(self.service.play_ai(channel_id, version)) is not None:
                    self.played += 1
            except ServiceError as exc:
                # The game ended, was aborted or put on hold meanwhile: nothing to play.
                log.info("channel %s: no AI move (%s)", channel_id, exc)
            except Exception:
                log.exception(
                    "channel %s: the AI move failed; retried at the next scan", channel_id
                )

    async def scan(self) -> None:
        """Ask the service which games wait for the AI, now or at a deadline."""
        loop = asyncio.get_running_loop()
        now = self.service.clock()
        for channel_id, version, when in await self.service.ai_due():
            wait = (when - now).total_seconds()
            old = self._timers.pop(channel_id, None)
            if old is not None:
                old.cancel()
            if wait <= 0:
                self.notify(channel_id, version)
            elif wait <= SCAN_EVERY.total_seconds():
                self._timers[channel_id] = loop.call_later(wait, self.notify, channel_id, version)

    async def _scan_forever(self) -> None:
        while not self.service.closing:
            try:
                await self.scan()
            except Exception:
                log.exception("AI scan failed; trying again in %s", SCAN_EVERY)
            await asyncio.sleep(SCAN_EVERY.total_seconds())

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        tasks = [t for t in (self._scanner, *self._tasks.values()) if t is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.service.on_ai_turn = None
        self.service.thinker.close()


def due_label(when: datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone."""
    return f"<t:{int(when.timestamp())}:R>"
