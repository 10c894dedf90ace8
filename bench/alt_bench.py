"""Alt-text lengths of every public picture, in English and French, over seeded games.

    python bench/alt_bench.py [--games 30] [--every 1] [--games-list nauticus,island,duel]

Plays `--games` seeded games of each game (2-4 players where the game allows; even games with
uniform random seats, odd games with the AI's one-ply `greedy` on every other seat) and, on
every `--every`-th snapshot, builds the alt texts the bot posts: Nauticus board, shipyards
(one picture each) and scores; Island board, areas (the seats of each picture as `chunks`
splits them, and all seats in one text), each player and scores; duel board and scores. For
each text kind and language it prints the count of texts, their longest, p95, and how many are
over Discord's 1,024 characters or were cut by `fit` (ending in '…').
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render.duel.text as duel_alt
import render.island.text as island_alt
import render.nauticus.text as nauticus_alt
from bot import i18n
from bot.games import GAMES  # installs the catalogue into render.words
from engine import ai
from render.island.areas_pic import chunks
from render.text import ALT_LIMIT

Texts = Callable[[dict[str, Any]], Iterator[tuple[str, str]]]


def nauticus_texts(view: dict[str, Any]) -> Iterator[tuple[str, str]]:
    yield "board", nauticus_alt.board_alt(view)
    for s in range(view["players_count"]):
        yield "shipyard", nauticus_alt.shipyard_alt(view, s)
    if view.get("final"):
        yield "scores", nauticus_alt.scores_alt(view)


def island_texts(view: dict[str, Any]) -> Iterator[tuple[str, str]]:
    yield "board", island_alt.board_alt(view)
    for seats in chunks(view):
        yield "areas", island_alt.areas_alt(view, seats)
    yield "areas-all", island_alt.areas_alt(view, list(range(view["players_count"])))
    for s in range(view["players_count"]):
        yield "player", island_alt.player_alt(view, s)
    if view.get("final"):
        yield "scores", island_alt.scores_alt(view)


def duel_texts(view: dict[str, Any]) -> Iterator[tuple[str, str]]:
    yield "board", duel_alt.board_alt(view)
    if view.get("final"):
        yield "scores", duel_alt.scores_alt(view)


TEXTS: dict[str, Texts] = {
    "nauticus": nauticus_texts,
    "island": island_texts,
    "duel": duel_texts,
}


def snapshots(kind: str, game: int, every: int) -> Iterator[dict[str, Any]]:
    """The public views of seeded game `game` of `kind`, every `every`-th move and the last."""
    rules = GAMES.get(kind).rules
    span = rules.max_players - rules.min_players + 1
    players = rules.min_players + game % span
    # Odd games: the AI plays every other seat (it builds, collects and delivers more).
    ai_seats = frozenset(range(0, players, 2)) if game % 2 else frozenset()
    rng = random.Random(f"alt-bench/{kind}/{game}")
    state = rules.new_game(players, 1000 + game)
    yield rules.view(state, None)
    n = 0
    while not rules.is_over(state):
        seat = rules.current(state)
        assert seat is not None
        if seat in ai_seats:
            move = ai.greedy(rules, state, seat, seed=game * 1000 + n)
        else:
            move = rng.choice(rules.legal_moves(state, seat))
        state, _ = rules.apply(state, seat, move)
        n += 1
        if n % every == 0 or rules.is_over(state):
            yield rules.view(state, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--games-list", default="nauticus,island,duel")
    args = parser.parse_args()
    assert GAMES
    for kind in args.games_list.split(","):
        lengths: dict[tuple[str, str], list[int]] = defaultdict(list)
        cut: dict[tuple[str, str], int] = defaultdict(int)
        snaps = 0
        for game in range(args.games):
            for view in snapshots(kind, game, args.every):
                snaps += 1
                for locale in ("en", "fr"):
                    with i18n.use(locale):
                        for name, text in TEXTS[kind](view):
                            lengths[(name, locale)].append(len(text))
                            cut[(name, locale)] += text.endswith("…")
        print(f"{kind}: {args.games} games, {snaps} snapshots")
        head = ("count", "max", "p95", ">1024", "cut")
        print(f"  {'text':<10} {'lang':<4} " + " ".join(f"{h:>6}" for h in head))
        for (name, locale), ls in sorted(lengths.items()):
            ls.sort()
            p95 = ls[min(len(ls) - 1, int(len(ls) * 0.95))]
            over = sum(n > ALT_LIMIT for n in ls)
            print(
                f"  {name:<10} {locale:<4} {len(ls):>6} {ls[-1]:>6} {p95:>6} {over:>6} "
                f"{cut[(name, locale)]:>6}"
            )


if __name__ == "__main__":
    main()
