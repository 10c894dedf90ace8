"""Sampled Nautilus Island states and `Seen`s for the plugin's tests."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from bot.games.island.plugin import PLUGIN
from bot.plugin import Seen
from engine import island
from tests.engine.island.walk import playout

NAMES = ("Ana", "Ben", "Cleo", "Dev")
HOSTILE = (
    "@everyone **bold** <@123456789012345678> " + "x" * 80,
    "`code` ||spoiler|| \u202eevil\u202c " + "ŵ" * 60,
    "@here _it_ ~~s~~ > quote " + "😀" * 50,
    "# Title\n- list <#1> " + "y" * 70,
)


def seen_of(state: island.State, audience: int | None, names: tuple[str, ...] = ()) -> Seen:
    players = len(state.players)
    names = names or NAMES[:players]
    legal = () if audience is None else tuple(island.legal_moves(state, audience))
    return Seen(audience, island.view(state, audience), tuple(names[:players]), legal)


@lru_cache(maxsize=1)
def sample_states() -> tuple[tuple[island.State, int], ...]:
    """States of 2-, 3- and 4-player random playouts with the seat that decides, every few
    moves, including the close decision and the last round."""
    out: list[tuple[island.State, int]] = []
    for seed in range(24):
        players = 2 + seed % 3
        rng = random.Random(seed)
        state = island.new_game(players, seed)
        i = 0
        while not island.is_over(state):
            seat = state.current
            assert seat is not None
            if i % 3 == 0 or state.step == "close" or state.last_round:
                out.append((state, seat))
            moves = island.legal_moves(state, seat)
            # Store more often than uniform play would, so hands and collections grow.
            stores = [m for m in moves if m["type"] == "store"]
            move = rng.choice(stores) if stores and rng.random() < 0.5 else rng.choice(moves)
            state, _ = island.apply(state, seat, move)
            i += 1
        out.append((state, 0))
    # The idle decision needs every column a pawn may face empty and nothing to store
    # (I-TURN-4), too rare for the games above: the first engine playout that reaches it.
    for before, move, _, _ in playout(3, 9097):
        if move["type"] == "idle":
            assert before.current is not None
            out.append((before, before.current))
            break
    return tuple(out)


def parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """'/island store category:food objects:ham+bread' -> ('store', {...}), as Discord would
    hand the options over (an int option arrives as an int)."""
    parts = text.split()
    assert parts[0] == f"/{PLUGIN.command}"
    options: dict[str, Any] = {}
    for part in parts[2:]:
        key, _, value = part.partition(":")
        spec = next(
            o
            for c in PLUGIN.move_commands
            if c.name == parts[1]
            for o in c.options
            if o.name == key
        )
        options[key] = int(value) if spec.kind == "int" else value
    return parts[1], options
