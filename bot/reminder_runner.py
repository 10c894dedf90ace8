"""Sends the reminders that are due, every minute, in the running bot.

Nothing is held in memory: the schedule is stored with each game (`waits`), so after a restart
the first tick sends whatever came due while the bot was down (once: `GameService.remind`
advances the schedule in the same transaction as the post).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from bot.service import GameService

log = logging.getLogger(__name__)

TICK = timedelta(seconds=60)  # a reminder a minute late is still on time


class ReminderRunner:
    def __init__(self, service: GameService, *, tick: timedelta = TICK) -> None:
        self.service = service
        self.tick_every = tick
        self._task: asyncio.Task[None] | None = None
        self.sent = 0  # reminders and stall notices sent since start

    def start(self) -> None:
        self._task = asyncio.create_task(self._forever(), name="reminders")

    async def tick(self) -> int:
        """Send every reminder due now; return how many went out."""
        sent = 0
        for game_id in await self.service.due_reminders():
            try:
                if await self.service.remind(game_id) is not None:
                    sent += 1
            except Exception:
                # One game's trouble (a damaged row) must not hold up the others' reminders.
                log.exception("game %s: reminder failed; tried again at the next tick", game_id)
        self.sent += sent
        return sent

    async def _forever(self) -> None:
        while not self.service.closing:
            try:
                await self.tick()
            except Exception:
                log.exception("reminder tick failed; trying again in %s", self.tick_every)
            await asyncio.sleep(self.tick_every.total_seconds())

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
