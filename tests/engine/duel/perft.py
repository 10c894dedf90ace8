"""Perft for the duel: the counts of legal move sequences of depth 1 and 2 from fixed positions,
kept in tests/engine/duel/data/perft.counts (see tests/kits/perft.py). Rewrite them after a
deliberate rules change with `python -m tests.engine.duel.perft --write`."""

from __future__ import annotations

from engine import duel
from engine.duel.state import State
from tests.kits.perft import PerftKit, Position

POSITIONS = (
    Position("start-0", (1, 0), 0),
    Position("start-1", (2, 1), 0),
    Position("specials", (3, 0), 1),
    Position("place-early", (4, 0), 4),
    Position("place-mid", (5, 1), 9),
    Position("round-2", (6, 0), 17),
    Position("round-3", (7, 1), 30),
    Position("round-5", (8, 0), 55),
    Position("round-6", (9, 1), 70),
)


def _start(seed: int, first: int) -> State:
    return duel.new_game(2, seed, first=first)


KIT = PerftKit(
    duel.RULES,
    "the Nautilus duel engine",
    "tests.engine.duel.perft",
    POSITIONS,
    depth=2,
    start=_start,
    setup_names=("seed", "first"),
    walk="duel-perft/{seed}",
    start_words="new_game(2, seed, first=first)",
)

if __name__ == "__main__":
    raise SystemExit(KIT.main())
