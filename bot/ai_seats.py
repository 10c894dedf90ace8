"""AI seats for every game of the registry: who plays, how they are named, where they think.

The search player itself is `engine.ai` (pure, fair: it reads a state only through the seat's
view and the engine's `determinize`). This module is the platform's side of it:

- the levels a host may choose and the names robot seats get;
- `Thinker`: where a decision is computed. In the bot that is a process pool sized for the
  machine, so a search of a second or more never runs on the event loop (which serves every
  channel); tests and the offline runner think inline.
- the seed of a decision is made from public facts only (game id, version, seat), so a restart
  in the middle of an AI turn makes the same decision again, and nothing secret (such as the
  game's seed, which deals the hidden cards) can steer the search.

No game-specific code: any game behind `engine.api.Rules` gets AI seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.i18n import N_, tr, trn
from bot.store import IN_PLAY, GameRow, SeatRow, Tx, report
from engine import ai
from engine.api import Move, Rules

T = TypeVar("T")

LEVELS: tuple[str, ...] = tuple(ai.LEVELS)  # easy, normal, hard
DEFAULT_LEVEL = "normal"
LEVEL_WORDS = (N_("easy"), N_("normal"), N_("hard"))  # for the catalogue: shown through `tr`
LEVEL_NOTES: dict[str, str] = {  # what a host reads when choosing (engine/ai/levels.py budgets)
    "easy": N_("a quick, beatable player"),
    "normal": N_("a solid player; thinks about a second"),
    "hard": N_("the strongest player; thinks a few seconds"),
}
ROBOT = "🤖"
# Robot seats are named after the crew of Verne's Nautilus, the games' namesake.
ROBOT_NAMES: tuple[str, ...] = ("Nemo", "Aronnax", "Conseil", "Ned Land", "Farragut")
# Turn deadlines a host may set (hours); past one, the AI plays the waiting seat's turn.
DEADLINES: dict[str, int | None] = {
    "none": None,
    "12h": 12,
    "24h": 24,
    "48h": 48,
    "72h": 72,
    "7d": 168,
}


def deadline_label(hours: int | None) -> str:
    if hours is None:
        return tr("no turn deadline")
    if hours >= 168:
        return trn("{n} day", "{n} days", hours // 24)
    return tr("{n} h", n=hours)


def robot_name(taken: list[str], level: str) -> str:
    """A robot seat's shown name: the mark, a crew name not yet at the table, the level (in
    the language of the context: the game's, when the service seats it)."""
    said = tr(level)
    for crew in ROBOT_NAMES:
        name = f"{ROBOT} {crew} ({said})"
        if not any(t.startswith(f"{ROBOT} {crew} (") for t in taken):
            return name
    return tr("{robot} Robot {n} ({level})", robot=ROBOT, n=len(taken) + 1, level=said)


def check_level(level: str) -> str:
    """The level, or a ValueError whose message lists the levels there are."""
    if level not in LEVELS:
        raise ValueError(f"There is no AI level {level!r}; choose {', '.join(LEVELS)}.")
    return level


def damaged_level(tx: Tx, row: GameRow, seats: Sequence[SeatRow]) -> str | None:
    """Why a game in play is on hold because a seat's stored AI level is no level (a damaged
    file, a hand edit, a level a newer version wrote), else None. Played with another level
    the seat would not be the player its host chose, and played with it every decision fails:
    the game waits for an admin instead, and the other games go on. Logged once (`tx.reported`)."""
    if row.status not in IN_PLAY:
        return None
    for s in seats:
        if s.ai is not None and s.ai not in LEVELS:
            where = f"game {row.id}, seat {s.seat}"
            eid = report(tx.reported, where, "AI level", s.ai, "the game is on hold")
            return f"[{eid}] the stored AI level of seat {s.seat} {s.ai!r:.40} is damaged"
    return None


def decision_seed(game_id: int, version: int, seat: int) -> int:
    """Public facts only: the same position of the same game always gets the same decision."""
    return (game_id * 1_000_003 + version * 101 + seat) % (2**62)


def decide(rules: Rules, state: Any, seat: int, level: str, seed: int) -> Move:
    """One AI decision (runs in a worker process in the bot; pure)."""
    return ai.choose(rules, state, seat, level=level, seed=seed)


# How much lower than the bot an AI worker runs (POSIX nice, added to the bot's own). Two
# workers searching flat out on a 2-core machine would otherwise get the same CPU share as the
# event loop that serves every channel, and a button press would wait behind them.
WORKER_NICE = 10


def _worker_start(parent: int, nice: int = WORKER_NICE) -> None:
    """Start-up of each AI worker process: lower its priority, leave the bot's session (unless
    `nice` is 0: a worker like the bot, for the before/after figures), then watch the bot."""
    _lower_priority(nice)
    if nice > 0:
        _own_session()
    _watch_parent(parent)


def _own_session() -> None:
    """Put this worker in a session of its own (no-op where there is none, e.g. Windows).

    Where Linux schedules processes by session first (autogroup: a bot started from a shell,
    tmux or screen), CPU is shared between sessions before nice values order the processes
    inside one. Workers in the bot's session keep it always busy: on a loaded machine the
    event loop then waits for its session's turn behind the other sessions (worst 60-310 ms in
    bench/loop_bench.py at load 8-9); in a session of their own the workers take those turns
    apart from the bot (worst 9-39 ms, decisions no slower). A terminal's Ctrl-C no longer
    interrupts a search either: the bot shuts its pool down itself, and `_watch_parent` ends a
    worker whose bot is gone."""
    if hasattr(os, "setsid"):
        with contextlib.suppress(OSError):
            os.setsid()


def _lower_priority(nice: int) -> None:
    """Make this process `nice` steps nicer than it is; nothing where there is no nice (Windows)
    or if the system refuses (it never refuses a lowering on Linux)."""
    if nice <= 0 or not hasattr(os, "nice"):
        return
    with contextlib.suppress(OSError):
        os.nice(nice)


def _watch_parent(parent: int) -> None:
    """In each worker: exit when the bot is gone. A bot killed outright (SIGKILL, the OOM
    killer) cannot shut its pool down, and an orphaned worker would hold the bot's log pipe
    and memory for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class Thinker:
    """Computes AI decisions off the event loop.

    `workers=0` thinks inline (tests, offline). Otherwise a process pool of `workers`
    processes, started with "spawn" (a fork of a process running an asyncio loop and
    aiosqlite's thread could inherit a held lock); it starts lazily at the first decision.
    Each worker runs `nice` steps below the bot (`WORKER_NICE`; 0 keeps the bot's priority,
    for the before/after figures of bench/loop_bench.py).
    """

    def __init__(self, workers: int | None = None, nice: int = WORKER_NICE) -> None:
        self.workers = default_workers() if workers is None else workers
        self.nice = nice
        self._pool: Executor | None = None

    def pool(self) -> Executor:
        """The process pool, started at the first call."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(), self.nice),
            )
        return self._pool

    async def decide(self, rules: Rules, state: Any, seat: int, level: str, seed: int) -> Move:
        if self.workers <= 0:
            return decide(rules, state, seat, level, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), decide, rules, state, seat, level, seed)

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run other CPU-bound work (a replay's GIF) in the same worker processes, at their lower
        priority, so it neither holds the bot's GIL against the event loop nor leaves its
        frames in the bot's memory; inline (a thread) when `workers=0`. `fn` must be a
        module-level function and `args` picklable."""
        if self.workers <= 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), fn, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def default_workers() -> int:
    """One process per core, at most 4: AI turns are rare next to the moves people make."""
    return max(1, min(4, os.cpu_count() or 1))
