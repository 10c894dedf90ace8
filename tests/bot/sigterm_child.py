"""A stand-in bot process for the SIGTERM test: the real Store, GameService, Outbox, run lock and
stop handling (`bot.ops`), with a fake channel instead of Discord and random players that keep
several games going at once in different channels.

Usage: python -m tests.bot.sigterm_child DB_PATH
Prints "ready" once moves are flowing, and "stopped cleanly after N moves" at the end.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ops import RunLock, StopSignal, shut_down
from bot.outbox import Outbox, OutMessage
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.nauticus import legal_moves

CHANNELS = (1, 2, 3)
READY_AFTER = 30  # moves


class Channel:
    """Keeps nothing; yields to the loop like a network call would."""

    def __init__(self) -> None:
        self.next_id = 1

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        await asyncio.sleep(0)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        await asyncio.sleep(0)


def no_pictures(game: str, kinds: Sequence[str], game_view: dict[str, Any], *_: Any) -> tuple[()]:
    return ()


async def players(svc: GameService, channel: int, moves: list[int], ready: asyncio.Event) -> None:
    rng = random.Random(channel)
    users = [channel * 10 + i for i in range(3)]
    try:
        while True:
            await svc.open_lobby(1, channel, users[0], "A", kind="nauticus")
            for u in users[1:]:
                await svc.join(channel, u, "B")
            rec = await svc.start(channel, users[0], can_manage=False)
            while rec.status == "active":
                state = rec.state
                assert state is not None and state.current is not None
                move = rng.choice(legal_moves(state, state.current))
                result = await svc.play(
                    channel, rec.user_at(state.current), move, version=rec.version, confirm=True
                )
                rec = result.record
                moves[0] += 1
                if moves[0] >= READY_AFTER:
                    ready.set()
    except ServiceError as exc:
        if exc.code != "closing":
            raise


async def main(db: Path) -> int:
    lock = RunLock(db)
    lock.acquire()
    try:
        store = await Store.open(db)
        outbox = Outbox(store, Channel(), draw=no_pictures)
        svc = GameService(store, outbox=outbox)
        stop = StopSignal()
        stop.install()
        outbox.start()
        moves = [0]
        ready = asyncio.Event()
        tasks = [asyncio.create_task(players(svc, ch, moves, ready)) for ch in CHANNELS]
        await ready.wait()
        print("ready", flush=True)
        await stop.wait()
        await shut_down(svc, outbox, store)
        # The players' next request was refused ("closing"); nothing else may be pending.
        results = await asyncio.gather(*tasks, return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        if errors:
            print(f"player errors: {errors!r}", flush=True)
            return 1
        print(f"stopped cleanly after {moves[0]} moves ({stop.received})", flush=True)
        return 0
    finally:
        lock.release()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]))))
