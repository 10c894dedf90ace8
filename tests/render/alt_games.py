"""Seeded games whose every snapshot's alt texts the alt-text test and `bench/alt_bench.py`
read: game `g` of a kind has 2-4 players where the game allows (`min + g % span`), uniform
random seats, and on odd games the AI's one-ply `greedy` on every other seat (it builds,
collects and delivers more than random seats, so its games' texts run longer)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import render.duel.text as duel_alt
import render.island.text as island_alt
import render.nauticus.text as nauticus_alt
from bot.games import GAMES  # installs the catalogue into render.words
from engine import ai
from render.island.areas_pic import chunks
from render.nauticus.shipyard_pic import MAX_HEIGHT, block_height

KINDS = ("nauticus", "island", "duel")


def snapshots(kind: str, game: int, every: int = 1) -> Iterator[dict[str, Any]]:
    """The public views of seeded game `game` of `kind`: the first, every `every`-th move's
    and the last."""
    rules = GAMES.get(kind).rules
    span = rules.max_players - rules.min_players + 1
    players = rules.min_players + game % span
    ai_seats = frozenset(range(0, players, 2)) if game % 2 else frozenset()
    rng = random.Random(f"alt-texts/{kind}/{game}")
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


def alt_texts(kind: str, view: dict[str, Any]) -> Iterator[tuple[str, tuple[int, ...], str]]:
    """(picture, the seats it shows, its alt text) of every public picture the bot posts for
    `view`, in the language of the context: Nauticus board, each shipyard, all shipyards in one
    picture when `render.nauticus.shipyards` draws them so, and scores; Island
    board, each areas picture (the seats `chunks` puts in it), scores; duel board and scores.
    Island's one-seat `player_alt` is measured too (an areas picture of one seat says it)."""
    everyone = tuple(range(view.get("players_count", 2)))
    over = bool(view.get("final"))
    if kind == "nauticus":
        yield "board", everyone, nauticus_alt.board_alt(view)
        for s in everyone:
            yield "shipyard", (s,), nauticus_alt.shipyard_alt(view, s)
        # All shipyards in one picture when their blocks fit its height (`shipyards`) and a
        # text of it fits Discord's limit (else one picture each, said above).
        if sum(block_height(p) for p in view["players"]) <= MAX_HEIGHT:
            together = nauticus_alt.shipyards_alt_uncut(view)
            if together is not None:
                yield "shipyards", everyone, together
        if over:
            yield "scores", everyone, nauticus_alt.scores_alt(view)
    elif kind == "island":
        yield "board", everyone, island_alt.board_alt(view)
        for seats in chunks(view):
            yield "areas", tuple(seats), island_alt.areas_alt(view, seats)
        for s in everyone:
            yield "player", (s,), island_alt.player_alt(view, s)
        if over:
            yield "scores", everyone, island_alt.scores_alt(view)
    else:
        yield "board", everyone, duel_alt.board_alt(view)
        if over:
            yield "scores", everyone, duel_alt.scores_alt(view)


assert GAMES
