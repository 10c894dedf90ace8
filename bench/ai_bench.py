"""Benchmark of the AI seat (engine/ai): strength against simple players, decision times, memory.

    python bench/ai_bench.py                      # 20 games per pairing, every game, 2 processes
    python bench/ai_bench.py --games 40 --jobs 2 --only duel --pairings normal-random
    nice -n 10 python bench/ai_bench.py --games 100 --log ai_bench.jsonl   # the full run
    python bench/ai_bench.py --only duel --pairings normal-strategies --no-widening  # as before
    python bench/ai_bench.py --only nauticus --pairings normal-strategies --players 3

`--log FILE` appends every finished game to FILE as one JSON line and, when started again with
the same FILE, skips the games already there and counts them in the tables: a 100-game run
(hours on a loaded 2-core machine) can be stopped and resumed, or run in slices.

Pairings (2-player games, seeds `--first-seed` on, the first player of each pair in seat 1 for
even seeds and seat 2 for odd ones): `normal-random`, `normal-greedy`, `hard-normal`, and
`normal-strategies` / `hard-strategies` (the level against every scripted strategy opponent of
the game in bench/strategies.py: crowner, builder, mix; collector; counter). Goals (issue 24):
normal 95 % against random and 75 % against every strategy opponent, hard 60 % against normal
(greedy: 65 %). Each row gives the score with its Wilson 95 % interval and both sides' mean
figures (VP; ships finished and goods delivered; collections closed and tokens; domains and
points). A shared win counts half.
With `--players 3` (or 4; games that allow it, the duel is left out) the first player sits in
seat seed mod n and every other seat plays the second: it wins when it ranks first (a shared
first place counts half), its fair share is 1/n, and the other side's figures are the mean of
the other seats. The 2-player goals do not apply.
Decision times are per call of `choose` with at least two legal moves (a forced move costs
nothing), per level, across all pairings; goals: normal p95 <= 1 s, hard p95 <= 5 s.
Memory: the peak resident size of the worker processes, and the traced peak of one hard
decision per game. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import statistics
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.strategies import STRATEGIES, stats
from engine import duel, island, nauticus
from engine.ai import LEVELS, Level, choose, greedy
from engine.ai.evaluate import KNOWLEDGE
from engine.api import Move, Rules

GAMES: dict[str, Rules] = {"nauticus": nauticus.RULES, "island": island.RULES, "duel": duel.RULES}
PAIRINGS = {
    "normal-random": 0.95,
    "normal-greedy": 0.65,
    "hard-normal": 0.60,
    "normal-strategies": 0.75,  # expands to normal-<each strategy of the game>
    "hard-strategies": 0.75,
}


def goal_of(pairing: str) -> float:
    if pairing in PAIRINGS:
        return PAIRINGS[pairing]
    return PAIRINGS.get(pairing.split("-")[0] + "-strategies", 0.5)


def interval(wins: float, n: int) -> tuple[float, float]:
    """Wilson 95 % interval of a win rate (shared wins count half): how far a few games go."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z = 1.96
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


def decide(
    who: str, rules: Rules, state: Any, seat: int, seed: int, rng: random.Random
) -> tuple[Move, tuple[float, float] | None]:
    """(move, (wall, CPU) seconds of a real AI decision, or None)."""
    moves = rules.legal_moves(state, seat)
    if who == "random":
        return rng.choice(moves), None
    if who in STRATEGIES[rules.name]:
        return STRATEGIES[rules.name][who](rules, state, seat, rng), None
    t0 = time.perf_counter()
    c0 = time.process_time()
    if who == "greedy":
        move = greedy(rules, state, seat, seed=seed)
    else:
        move = choose(rules, state, seat, level=who, seed=seed)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return move, ((dt, cpu) if len(moves) > 1 else None)


def play(task: tuple[str, str, int, int]) -> dict[str, Any]:
    """One game of `pairing` in `game` with `n` seats: the first player's result and the
    decision times."""
    game, pairing, seed, n = task
    rules = GAMES[game]
    a, b = pairing.split("-")
    a_seat = seed % n
    who = {s: a if s == a_seat else b for s in range(n)}
    # 2-player games keep the seed text of the logs made before --players
    rng = random.Random(f"bench/{game}/{pairing}/{seed}" + ("" if n == 2 else f"/{n}"))
    state = rules.new_game(n, seed)
    times: dict[str, list[tuple[float, float]]] = {}
    ply = 0
    while not rules.is_over(state):
        seat = rules.current(state)
        assert seat is not None
        move, dt = decide(who[seat], rules, state, seat, seed * 10_000 + ply, rng)
        if dt is not None:
            times.setdefault(who[seat], []).append(dt)
        state, _ = rules.apply(state, seat, move)
        ply += 1
    scores = rules.final_scores(state)
    others = [s for s in range(n) if s != a_seat]
    mine = scores[a_seat]
    best = min(others, key=lambda s: scores[s].rank)  # the best other seat
    theirs = scores[best]
    result = 1.0 if mine.rank < theirs.rank else 0.5 if mine.rank == theirs.rank else 0.0
    their_stats = [stats(game, rules, state, s) for s in others]
    mean_stats = {k: statistics.mean(d[k] for d in their_stats) for k in their_stats[0]}
    return {
        "stats": (stats(game, rules, state, a_seat), mean_stats),
        "game": game,
        "pairing": pairing,
        "seed": seed,
        "players": n,
        "result": result,
        "vp": (mine.vp, theirs.vp),
        "times": times,
        "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def pairing_arg(text: str) -> str:
    """A `--pairings` entry: a pairing of the table, or a level against one strategy."""
    a, _, b = text.partition("-")
    if text in PAIRINGS or (a in LEVELS and any(b in names for names in STRATEGIES.values())):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r}: use one of {', '.join(PAIRINGS)} or <level>-<strategy> (e.g. normal-mix)"
    )


def expand(game: str, pairings: list[str]) -> list[str]:
    """The pairings of one game, `<level>-strategies` expanded to every strategy of the game;
    a pairing with another game's strategy is left out."""
    out: list[str] = []
    for p in pairings:
        a, b = p.split("-")
        if b == "strategies":
            out.extend(f"{a}-{name}" for name in STRATEGIES[game])
        elif b in ("random", "greedy") or b in LEVELS or b in STRATEGIES[game]:
            out.append(p)
    return out


def traced_peak(game: str) -> float:
    """MiB traced during one hard decision from a mid-game position that the search really
    searches (two or more moves left after the game's pruning: a Nauticus position with one
    had traced 0.01 MiB)."""
    rules = GAMES[game]
    prune = KNOWLEDGE[game].prune
    rng = random.Random(1)
    state = rules.new_game(2, 1)
    for _ in range(12):
        seat = rules.current(state)
        assert seat is not None
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    while True:
        seat = rules.current(state)
        assert seat is not None
        moves = rules.legal_moves(state, seat)
        if len(prune(state, seat, moves)) >= 2:
            break
        state, _ = rules.apply(state, seat, moves[0])
    tracemalloc.start()
    choose(rules, state, seat, level="hard", seed=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _budgets(lv: Level) -> str:
    """A level's budget for the header line, with its per-game ones: "hard 16000 applies
    (nauticus 48000)"."""
    games = "".join(f" ({g} {b})" for g, b in lv.game_budgets)
    return f"{lv.name} {lv.budget} applies{games}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per pairing and game")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--only", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument(
        "--pairings",
        nargs="*",
        default=list(PAIRINGS),
        type=pairing_arg,
        help="pairings of the table below, or <level>-<strategy> for one strategy (normal-mix)",
    )
    ap.add_argument(
        "--plain",
        action="store_true",
        help="the search without game knowledge (engine/ai/evaluate.py), as before issue 24",
    )
    ap.add_argument(
        "--no-widening",
        action="store_true",
        help="the search without progressive widening at the root (every root move from the "
        "start), for a paired comparison on the same seeds",
    )
    ap.add_argument("--no-memory", action="store_true", help="skip the traced-memory runs")
    ap.add_argument("--first-seed", type=int, default=0, help="seeds first-seed..first-seed+N-1")
    ap.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        default=2,
        help="seats per game: the first player in one, the second in every other (default 2)",
    )
    ap.add_argument(
        "--log",
        type=Path,
        help="append each game to this JSON-lines file; games already in it are not replayed",
    )
    args = ap.parse_args()

    if args.plain:
        KNOWLEDGE.clear()  # the worker processes are forked after this, so they see it too
    if args.no_widening:
        for game, know in list(KNOWLEDGE.items()):
            KNOWLEDGE[game] = replace(know, order=None)
    print("plain search, " if args.plain else "", end="")
    print("no root widening, " if args.no_widening else "", end="")
    print("levels:", ", ".join(_budgets(lv) for lv in LEVELS.values()))
    n = args.players
    games = [g for g in args.only if GAMES[g].min_players <= n <= GAMES[g].max_players]
    for g in sorted(set(args.only) - set(games)):
        print(f"{g} left out: it has no {n}-player game")
    if n != 2:
        print(f"{n} players a game: the first player's fair share is {100 / n:.0f} %")
    seeds = range(args.first_seed, args.first_seed + args.games)
    tasks = [(g, p, s, n) for g in games for p in expand(g, args.pairings) for s in seeds]
    results: list[dict[str, Any]] = []
    if args.log is not None and args.log.exists():
        wanted = set(tasks)
        for line in args.log.read_text().splitlines():
            r = json.loads(line)
            key = (r["game"], r["pairing"], r["seed"], r.get("players", 2))
            if key in wanted:
                wanted.discard(key)  # a game logged twice counts once
                results.append(r)
        tasks = [t for t in tasks if t in wanted]
        print(f"{len(results)} games read from {args.log}, {len(tasks)} to play")
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for r in pool.map(play, tasks, chunksize=1):
            results.append(r)
            if args.log is not None:
                with args.log.open("a") as f:
                    f.write(json.dumps(r) + "\n")
            print(f"  {r['game']} {r['pairing']}: {r['result']} {r['vp']}", file=sys.stderr)
    wall = time.perf_counter() - t0
    print(f"{len(tasks)} games played in {wall:.0f} s with {args.jobs} processes\n")

    print(
        "| game | pairing | games | first player's score (95 % interval) | goal "
        "| mean stats, first / second |"
    )
    print("|---|---|---|---|---|---|")
    for g in games:
        for p in expand(g, args.pairings):
            rs = [r for r in results if r["game"] == g and r["pairing"] == p]
            if not rs:
                continue
            wins = sum(r["result"] for r in rs)
            score = wins / len(rs)
            lo, hi = interval(wins, len(rs))
            side = []
            for i in (0, 1):
                keys = rs[0]["stats"][i]
                side.append(
                    ", ".join(
                        f"{k} {statistics.mean(r['stats'][i][k] for r in rs):.1f}" for k in keys
                    )
                )
            print(
                f"| {g} | {p} | {len(rs)} | {100 * score:.0f} % ({100 * lo:.0f}–{100 * hi:.0f}) "
                f"| {100 * goal_of(p) if n == 2 else 100 / n:.0f} %{'' if n == 2 else ' share'} "
                f"| {side[0]} / {side[1]} |"
            )

    print("\n| game | player | decisions | median | p95 | max | CPU median | CPU p95 |")
    print("|---|---|---|---|---|---|---|---|")
    for g in games:
        per: dict[str, list[tuple[float, float]]] = {}
        for r in results:
            if r["game"] == g:
                for who, ts in r["times"].items():
                    per.setdefault(who, []).extend(ts)
        for who in ("easy", "normal", "hard", "greedy"):
            pairs = per.get(who, [])
            if pairs:
                ts = [w for w, _ in pairs]
                cs = [c for _, c in pairs]
                print(
                    f"| {g} | {who} | {len(ts)} | {statistics.median(ts):.3f} s "
                    f"| {pct(ts, 0.95):.3f} s | {max(ts):.3f} s "
                    f"| {statistics.median(cs):.3f} s | {pct(cs, 0.95):.3f} s |"
                )

    if not results:
        return
    rss = max(r["rss_kb"] for r in results) / 1024
    print(f"\npeak resident size of a worker process: {rss:.0f} MiB")
    if not args.no_memory:
        for g in games:
            print(f"traced peak of one hard decision, {g}: {traced_peak(g):.1f} MiB")


if __name__ == "__main__":
    main()
