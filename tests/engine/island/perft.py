"""Perft for Nautilus Island: the counts of legal move sequences of depth 1, 2 and 3, kept in
tests/engine/island/data/perft.counts (see tests/kits/perft.py). Rewrite them after a deliberate
rules change with `python -m tests.engine.island.perft --write`."""

from __future__ import annotations

from engine import island
from tests.kits.perft import PerftKit, Position

POSITIONS = (
    Position("start-2p", (2, 1), 0),
    Position("start-3p", (3, 2), 0),
    Position("start-4p", (4, 3), 0),
    Position("early-2p", (2, 11), 12),
    Position("early-3p", (3, 12), 17),
    Position("early-4p", (4, 13), 22),
    Position("mid-2p", (2, 21), 50),
    Position("mid-3p", (3, 22), 61),
    Position("mid-4p", (4, 23), 80),
    Position("late-4p", (4, 31), 130),
)

KIT = PerftKit(
    island.RULES, "the Nautilus Island engine", "tests.engine.island.perft", POSITIONS, depth=3
)

if __name__ == "__main__":
    raise SystemExit(KIT.main())
