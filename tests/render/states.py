"""Game states for the render tests, the golden images, the samples and the benchmark.

Random playouts give ordinary states; a few states are built by hand (dataclasses.replace on a
real engine state) so that the pictures show finished ships, crowns and full storage, which
random play rarely reaches.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from engine import nauticus
from engine.nauticus.state import Player, Ship, State

# Moves that make a shipyard interesting are weighted up, so playouts build and deliver.
_WEIGHT = {"deliver": 6.0, "reward": 2.0, "pass": 0.3, "end_turn": 0.6, "extra": 0.3}


def _weight(move: dict[str, Any]) -> float:
    to = move.get("to")
    if isinstance(to, dict):
        return 6.0
    return _WEIGHT.get(move["type"], 1.0)


def playout(players: int, seed: int, moves: int | None = None) -> State:
    """A seeded playout biased toward building; stops after `moves` moves or at game end."""
    rng = random.Random(seed)
    state = nauticus.new_game(players=players, seed=seed)
    done = 0
    while state.step != "over" and (moves is None or done < moves):
        seat = state.current
        assert seat is not None
        legal = nauticus.legal_moves(state, seat)
        move = rng.choices(legal, weights=[_weight(m) for m in legal])[0]
        state, _ = nauticus.apply(state, seat, move)
        done += 1
    return state


def snapshots(players: int, seed: int, every: int) -> Iterator[State]:
    """The start, every `every`-th state of the biased playout, and the end."""
    rng = random.Random(seed)
    state = nauticus.new_game(players=players, seed=seed)
    yield state
    done = 0
    while state.step != "over":
        seat = state.current
        assert seat is not None
        legal = nauticus.legal_moves(state, seat)
        state, _ = nauticus.apply(state, seat, rng.choices(legal, [_weight(m) for m in legal])[0])
        done += 1
        if done % every == 0 or state.step == "over":
            yield state


def ship(hulls: str, masts: str = "", sails: str = "", goods: str = "") -> Ship:
    """A ship from short codes: hulls 'bmms' (bow, middle, middle, stern) or 'o' (one-ship);
    masts/sails per tile 'W' whale, 'A' anchor ship, 'H' helm, 'T' tower, 'C' crown, '.' none;
    goods per tile 'c' coffee, 'g' grain, 'f' fish, 's' salt, '.' none."""
    hull = {"b": "bow", "m": "middle", "s": "stern", "o": "one_ship"}
    crest = {"W": "whale", "A": "anchor_ship", "H": "helm", "T": "tower", "C": "crown"}
    good = {"c": "coffee", "g": "grain", "f": "fish", "s": "salt"}
    n = len(hulls)

    def per_tile(codes: str, table: dict[str, str]) -> tuple[str | None, ...]:
        codes = codes.ljust(n, ".")
        return tuple(table.get(ch) for ch in codes)

    return Ship(
        tuple(hull[h] for h in hulls),
        per_tile(masts, crest),
        per_tile(sails, crest),
        per_tile(goods, good),
    )


def late_game() -> State:
    """A 4-player state in the last round with every kind of thing on show."""
    base = playout(4, seed=11, moves=250)
    p = base.players
    players = (
        replace(
            p[0],
            score=38,
            workers=5,
            taler=12,
            extra=False,
            passes=1,
            storage=("bow", "coffee", "mast_whale", "sail_tower"),
            ships=(
                ship("bmms", "CWCW", "CCWC", "c.sf"),
                ship("o", "H", "H", "c"),
                ship("bs", "T.", "", "gf"),
            ),
            delivered=(3, 1, 0, 2),
        ),
        replace(
            p[1],
            score=27,
            workers=2,
            taler=4,
            extra=True,
            passes=0,
            storage=(
                "fish",
                "fish",
                "grain",
                "mast_helm",
                "mast_helm",
                "one_ship",
                "sail_helm",
                "sail_helm",
                "sail_helm",
                "stern",
            ),
            ships=(
                ship("bs", "AA", "AA", "ss"),
                ship("o"),
                ship("ms", "H."),
                ship("o", "C", "T"),
            ),
            delivered=(0, 4, 2, 0),
        ),
        replace(
            p[2],
            score=-4,
            workers=9,
            taler=31,
            extra=True,
            passes=3,
            storage=("salt", "sail_crown"),
            ships=(),
            delivered=(0, 0, 0, 0),
        ),
        replace(
            p[3],
            score=19,
            workers=1,
            taler=0,
            extra=False,
            passes=2,
            storage=(),
            ships=(
                ship("bms", "WWW", "WWW", "cgf"),
                ship("o", "C", "C"),
                ship("o", "A", "A"),
                ship("bs", "", "", "s."),
                ship("b"),
                ship("bmm", "TT.", "T"),
            ),
            delivered=(6, 0, 1, 5),
        ),
    )
    return replace(base, players=players)


def extreme_player(player: Player) -> Player:
    """12 four-tile ships (crown masts and sails on one), full storage, 30 coffee, 250 taler,
    a score of -40."""
    ships = [ship("bmms", "CCCC", "CCCC", "cgfs")]
    ships += [ship("bmms", "HHHH", "HHHH", "ssss") for _ in range(11)]
    return replace(
        player,
        score=-40,
        workers=99,
        taler=250,
        extra=False,
        passes=3,
        storage=tuple(sorted(["mast_crown"] * 6)),
        ships=tuple(ships),
        delivered=(30, 12, 12, 12),
    )


def extreme_state(players: int = 4) -> State:
    """Every player extreme and every supply empty."""
    base = playout(players, seed=5, moves=40)
    return replace(
        base,
        players=tuple(extreme_player(p) for p in base.players),
        supply=tuple(0 for _ in base.supply),
    )
