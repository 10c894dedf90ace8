"""CPU-heavy work the bot asks for (a replay's GIF) runs in the AI worker processes, not in the
bot's own process: the bot's event loop keeps answering and its memory does not grow by the
frames. The GIF is the same wherever it is drawn."""

from __future__ import annotations

import os
import random
from pathlib import Path

from bot import records
from bot.ai_seats import Thinker
from bot.service import GameService
from bot.store import Store

GUILD, CH = 1, 10
ANA, BEN = 100, 101


async def test_offloaded_work_runs_in_another_process() -> None:
    pool = Thinker(workers=1)
    try:
        worker_pid = await pool.offload(os.getpid)
    finally:
        pool.close()
    inline = await Thinker(workers=0).offload(os.getpid)
    assert inline == os.getpid()
    assert worker_pid != os.getpid()


async def test_the_replay_drawn_in_a_worker_is_the_one_drawn_inline(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    pool = Thinker(workers=1)
    try:
        svc = GameService(store, thinker=pool)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=5)
        rng = random.Random(5)
        rules = rec.plugin.rules
        for _ in range(12):  # a few action phases of a duel
            seat = rec.current
            assert seat is not None
            move = rng.choice(rules.legal_moves(rec.state, seat))
            rec = (await svc.play(CH, (ANA, BEN)[seat], move, confirm=True)).record
        name, data = await svc.animation(CH)
        async with store.read() as tx:
            moves = await tx.moves(rec.id)
        here = records.animation(rec.plugin, rec.seed, rec.names, [(m.seat, m.move) for m in moves])
        assert name == f"duel-game-{rec.id}-replay.gif"
        assert data == here and data[:6] == b"GIF89a"
    finally:
        pool.close()
        await store.close()


async def test_a_french_games_replay_is_drawn_in_french(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "fr.db")
    try:
        svc = GameService(store)
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel", locale="fr")
        await svc.join(CH, BEN, "Ben")
        rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=5)
        rng = random.Random(5)
        for _ in range(6):
            seat = rec.current
            assert seat is not None
            move = rng.choice(rec.plugin.rules.legal_moves(rec.state, seat))
            rec = (await svc.play(CH, (ANA, BEN)[seat], move, confirm=True)).record
        _, data = await svc.animation(CH)
        async with store.read() as tx:
            script = [(m.seat, m.move) for m in await tx.moves(rec.id)]
        french = records.replay_gif("duel", rec.seed, rec.names, script, "fr")
        english = records.replay_gif("duel", rec.seed, rec.names, script, "en")
        assert data == french and french != english
    finally:
        await store.close()
