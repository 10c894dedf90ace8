"""Results, stats and ratings per server and game, for every game of the registry.

When a game ends, its result (each seat's points and rank) is stored in `results` in the same
transaction as its last move, and the ratings of its players move by `openskill`'s
Plackett-Luce model (a rating library for multiplayer rankings, ties included). Everything is
a function of the finished games and their move logs, so `python -m bot ratings --rebuild`
recomputes both tables from scratch, in the order the games ended.

Who counts (the rules players read in the README):
- robot seats are not players: they are left out of the ranking, and the people at the table
  are rated by their order among themselves (a person who finished behind a robot and ahead of
  another person still beat that person);
- a seat whose moves the AI played for more than half (autopilot, turn deadlines, skips) is
  not rated for that game (its result is the AI's more than the player's), but its stats count
  the game, marked "AI-assisted";
- a seat handed to someone else during the game (`/games replace`) belongs to its holder at the
  end: the result and the rating change go to them;
- a game needs two rated people to move ratings; aborted games never count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot import ai_seats
from bot.store import MoveRow, Tx

MODEL = PlackettLuce()  # mu 25, sigma 25/3: the library's defaults
AI_SHARE_LIMIT = 0.5  # more than this share of a seat's moves played by the AI: not rated


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    user_id: int
    name: str
    vp: int
    rank: int
    moves: int  # moves logged for the seat
    ai_moves: int  # of which the AI played (the robot mark in the log text)

    @property
    def robot(self) -> bool:
        return self.user_id < 0

    @property
    def rated(self) -> bool:
        return not self.robot and self.ai_moves <= AI_SHARE_LIMIT * self.moves


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    name: str
    games: int
    wins: int
    average_vp: float
    best_vp: int
    assisted: int  # games the AI played most of for them
    mu: float | None  # None: never rated
    sigma: float | None

    @property
    def rating(self) -> float | None:
        """The shown rating: mu - 3 sigma (openskill's ordinal), which rises as the system
        grows sure of a player, so one lucky win does not top the board."""
        return None if self.mu is None or self.sigma is None else self.mu - 3 * self.sigma


def seat_results(
    seats: Sequence[tuple[int, int, str]],
    scores: Sequence[tuple[int, int, int]],
    moves: Sequence[MoveRow],
) -> list[SeatResult]:
    """Each seat's result: `seats` as (seat, user id, name), `scores` as (seat, vp, rank)."""
    by_seat = {s: (vp, rank) for s, vp, rank in scores}
    out = []
    for seat, user_id, name in seats:
        mine = [m for m in moves if m.seat == seat]
        ai_moves = sum(ai_seats.ROBOT in m.text for m in mine)
        vp, rank = by_seat[seat]
        out.append(SeatResult(seat, user_id, name, vp, rank, len(mine), ai_moves))
    return out


def rate(
    results: Sequence[SeatResult], current: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each rated person of one game, from their ratings before it
    (`current`, by user id; missing: the model's default). Empty when fewer than two count."""
    rated = [r for r in results if r.rated]
    if len(rated) < 2:
        return {}
    teams = []
    for r in rated:
        mu, sigma = current.get(r.user_id, (MODEL.mu, MODEL.sigma))
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    # Ranks among the rated people only, ties kept (robots and assisted seats drop out).
    new = MODEL.rate(teams, ranks=[float(r.rank) for r in rated])
    return {r.user_id: (t[0].mu, t[0].sigma) for r, t in zip(rated, new, strict=True)}


async def record_game(
    tx: Tx,
    *,
    game_id: int,
    guild_id: int,
    kind: str,
    results: Sequence[SeatResult],
    ended_at: str,
) -> None:
    """Store one finished game's results and move its players' ratings (idempotent: a game
    already recorded is left alone)."""
    if await tx.one("SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (game_id,)) is not None:
        return
    for r in results:
        await tx.run(
            "INSERT INTO results (game_id, guild_id, kind, seat, user_id, name, vp, rank, "
            "rated, robot, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                guild_id,
                kind,
                r.seat,
                r.user_id,
                r.name,
                r.vp,
                r.rank,
                int(r.rated),
                int(r.robot),
                ended_at,
            ),
        )
    people = [r.user_id for r in results if r.rated]
    current: dict[int, tuple[float, float]] = {}
    for uid in people:
        row = await tx.one(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id = ?",
            (guild_id, kind, uid),
        )
        if row is not None:
            current[uid] = (float(row[0]), float(row[1]))
    for uid, (mu, sigma) in rate(results, current).items():
        await tx.run(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games) "
            "VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = games + 1",
            (guild_id, kind, uid, mu, sigma),
        )


async def clear(tx: Tx) -> None:
    """Forget every result and rating (before a rebuild)."""
    await tx.run("DELETE FROM results")
    await tx.run("DELETE FROM ratings")


_STANDING = """
    SELECT r.user_id,
           (SELECT name FROM results n WHERE n.user_id = r.user_id AND n.guild_id = r.guild_id
             AND n.kind = r.kind ORDER BY n.game_id DESC LIMIT 1),
           COUNT(*), SUM(r.rank = 1), AVG(r.vp), MAX(r.vp), SUM(NOT r.rated),
           g.mu, g.sigma
    FROM results r
    LEFT JOIN ratings g ON g.guild_id = r.guild_id AND g.kind = r.kind AND g.user_id = r.user_id
    WHERE r.guild_id = ? AND r.kind = ? AND NOT r.robot
"""


def _standing(row: tuple[Any, ...]) -> Standing:
    uid, name, games, wins, avg, best, assisted, mu, sigma = row
    return Standing(
        int(uid),
        str(name),
        int(games),
        int(wins or 0),
        float(avg or 0),
        int(best or 0),
        int(assisted or 0),
        None if mu is None else float(mu),
        None if sigma is None else float(sigma),
    )


async def standing(tx: Tx, guild_id: int, kind: str, user_id: int) -> Standing | None:
    """One member's stats and rating in one game on one server (None: no finished game)."""
    row = await tx.one(
        _STANDING + " AND r.user_id = ? GROUP BY r.user_id", (guild_id, kind, user_id)
    )
    return None if row is None else _standing(row)


async def leaderboard(tx: Tx, guild_id: int, kind: str, limit: int = 10) -> list[Standing]:
    """The rated players of one game on one server, best rating first."""
    rows = await tx.all(
        _STANDING + " AND g.mu IS NOT NULL GROUP BY r.user_id "
        "ORDER BY g.mu - 3 * g.sigma DESC, r.user_id LIMIT ?",
        (guild_id, kind, limit),
    )
    return [_standing(r) for r in rows]
