"""Results, stats and openskill ratings: stored with a game's last move, rebuilt from the store,
robots and mostly-AI seats left out of the ranking as the README says."""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.games import GAMES
from bot.ratings import SeatResult
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.e2e.harness import run_module

CH = 800
GUILD = 5
ANA, BEN, CLEO = 31, 32, 33


async def play_out(svc: GameService, rec: GameRecord, seed: int) -> GameRecord:
    """Every person plays random legal moves and every AI seat its AI move, to the end."""
    rng = random.Random(seed)
    rules = rec.plugin.rules
    while rec.status == "active":
        seat = rec.current
        assert seat is not None and rec.state is not None
        if rec.seats[seat].ai is not None:
            played = await svc.play_ai(rec.channel_id, rec.version)
            assert played is not None
            rec = played.record
            continue
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(rec.channel_id, rec.user_at(seat), move, confirm=True)).record
    return rec


async def duel(svc: GameService, seed: int, ch: int = CH) -> GameRecord:
    await svc.open_lobby(GUILD, ch, ANA, "Ana", kind="duel")
    await svc.join(ch, BEN, "Ben")
    rec = await svc.start(ch, ANA, can_manage=False, order=[ANA, BEN], seed=seed)
    return await play_out(svc, rec, seed)


def table(path: Path, name: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT * FROM {name} ORDER BY 1, 2, 3").fetchall()
    finally:
        conn.close()


async def test_a_finished_game_stores_its_result_and_the_librarys_rating_update(
    store: Store,
) -> None:
    svc = GameService(store)
    rec = await duel(svc, seed=3)
    assert rec.status == "finished" and rec.state is not None
    scores = {s.seat: s for s in rec.plugin.rules.final_scores(rec.state)}
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating()], [model.rating()]], ranks=[scores[0].rank, scores[1].rank]
    )
    async with store.read() as tx:
        got = {
            uid: (mu, sigma, games)
            for uid, mu, sigma, games in await tx.all(
                "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ?",
                (GUILD, "duel"),
            )
        }
        results = await tx.all(
            "SELECT seat, user_id, vp, rank, rated FROM results WHERE game_id = ? ORDER BY seat",
            (rec.id,),
        )
    assert got == {
        ANA: (pytest.approx(expected[0][0].mu), pytest.approx(expected[0][0].sigma), 1),
        BEN: (pytest.approx(expected[1][0].mu), pytest.approx(expected[1][0].sigma), 1),
    }
    assert results == [
        (0, ANA, scores[0].vp, scores[0].rank, 1),
        (1, BEN, scores[1].vp, scores[1].rank, 1),
    ]
    ana = await svc.standing(GUILD, "duel", ANA)
    assert ana is not None
    assert (ana.games, ana.wins, ana.best_vp) == (1, int(scores[0].rank == 1), scores[0].vp)
    assert ana.rating == pytest.approx(expected[0][0].mu - 3 * expected[0][0].sigma)
    board = await svc.leaderboard(GUILD, "duel")
    winner = ANA if scores[0].rank < scores[1].rank else BEN
    assert board[0].user_id == winner and {s.user_id for s in board} == {ANA, BEN}


def test_robots_drop_out_and_people_are_ranked_among_themselves() -> None:
    results = [
        SeatResult(0, ANA, "Ana", 30, 2, 20, 0),
        SeatResult(1, -1, "🤖 Nemo (hard)", 40, 1, 20, 20),
        SeatResult(2, BEN, "Ben", 20, 3, 20, 0),
        SeatResult(3, CLEO, "Cleo", 35, 1, 20, 11),  # the AI played 11 of 20: not rated
    ]
    assert [r.rated for r in results] == [True, False, True, False]
    new = ratings.rate(results, {BEN: (30.0, 5.0)})
    model = PlackettLuce()
    a, b = model.rate([[model.rating()], [model.rating(mu=30.0, sigma=5.0)]], ranks=[2.0, 3.0])
    assert new == {
        ANA: (pytest.approx(a[0].mu), pytest.approx(a[0].sigma)),
        BEN: (pytest.approx(b[0].mu), pytest.approx(b[0].sigma)),
    }
    assert ratings.rate(results[:2], {}) == {}  # one person and a robot: nothing to rate


@pytest.mark.usefixtures("cheap_robots")
async def test_the_ai_share_of_a_seat_decides_whether_it_is_rated(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=4)
    await svc.set_autopilot(CH, BEN, True, "easy")  # Ben is away for the whole game
    rec = await svc.game_in(CH)  # type: ignore[assignment]
    rec = await play_out(svc, rec, 4)
    ben = await svc.standing(GUILD, "duel", BEN)
    assert ben is not None and ben.games == 1 and ben.assisted == 1 and ben.rating is None
    assert await svc.leaderboard(GUILD, "duel") == []  # only Ana counted: no rating moved


async def test_rebuild_gives_back_exactly_what_the_games_wrote(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        svc = GameService(store)
        for i in range(3):
            await duel(svc, seed=10 + i, ch=CH + i)
    finally:
        await store.close()
    before = table(path, "results"), table(path, "ratings")
    assert len(before[0]) == 6 and len(before[1]) == 2
    conn = sqlite3.connect(path)
    conn.execute("UPDATE ratings SET mu = 0")  # damage them: the rebuild must not read them
    conn.commit()
    conn.close()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DATABASE_PATH"] = str(path)
    # The real command line, forked from the test launcher's preloaded interpreter.
    done = run_module(
        ["-m", "bot", "ratings", "--rebuild"],
        env=env,
        cwd=tmp_path,  # no .env of a developer's checkout is read
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "from 3 finished game(s)" in done.stdout
    assert (table(path, "results"), table(path, "ratings")) == before


def test_every_installed_game_can_be_rated() -> None:
    # Ranks come from each engine's final_scores: 1 is the winner, ties share a rank.
    for plugin in GAMES:
        rules = plugin.rules
        scores = rules.final_scores(rules.new_game(rules.min_players, 1))
        assert sorted(s.seat for s in scores) == list(range(rules.min_players))
        assert min(s.rank for s in scores) == 1
