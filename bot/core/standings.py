"""Standings: the result and rating change a finished game stores, their rebuild, and the
server's tables (`bot.ratings` holds the arithmetic)."""

from __future__ import annotations

from bot import ratings
from bot.core.game import (
    GameRecord,
    checked,
)
from bot.core.kernel import Kernel
from bot.games import GAMES
from bot.store import (
    Tx,
)


class Standings:
    def __init__(self, k: Kernel) -> None:
        self.k = k

    async def record_result(self, tx: Tx, rec: GameRecord) -> None:
        assert rec.state is not None
        scores = [(s.seat, s.vp, s.rank) for s in rec.plugin.rules.final_scores(rec.state)]
        moves = await tx.moves(rec.id)
        results = ratings.seat_results(
            [(s.seat, s.user_id, s.name) for s in rec.seats], scores, moves
        )
        await ratings.record_game(
            tx,
            game_id=rec.id,
            guild_id=rec.guild_id,
            kind=rec.kind,
            results=results,
            # The last move's time, so a rebuild writes exactly what the game's end wrote.
            ended_at=moves[-1].at if moves else self.k.clock().isoformat(),
        )

    async def rebuild_ratings(self) -> int:
        """Recompute every result and rating from the finished games and their logs, in the
        order the games were played; return how many games were counted. A game whose stored
        state this engine cannot read is skipped (it is listed by `check`)."""
        async with self.k.store.write() as tx:
            await ratings.clear(tx)
            counted = 0
            for row in await tx.games_with_status("finished"):
                rec = await self.k.record(tx, row)
                if rec.state is None or row.kind not in GAMES.games:
                    continue
                await self.record_result(tx, rec)
                counted += 1
        return counted

    async def standing(self, guild_id: int, kind: str, user_id: int) -> ratings.Standing | None:
        checked(guild_id, user_id)
        async with self.k.store.read() as tx:
            return await ratings.standing(tx, guild_id, kind, user_id)

    async def leaderboard(self, guild_id: int, kind: str) -> list[ratings.Standing]:
        checked(guild_id)
        async with self.k.store.read() as tx:
            return await ratings.leaderboard(tx, guild_id, kind)
