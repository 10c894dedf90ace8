"""Perft for Nauticus: the counts of legal move sequences of depth 1 and 2 from fixed positions,
kept in tests/engine/data/perft.counts (the kit, tests/kits/perft.py, says how). Rewrite them
after a deliberate rules change with `python -m tests.engine.perft --write`."""

from __future__ import annotations

from engine import nauticus
from tests.kits.perft import PerftKit, Position

POSITIONS = (
    Position("start-2p", (2, 1), 0),
    Position("start-3p", (3, 2), 0),
    Position("start-4p", (4, 3), 0),
    # Walk lengths picked where the position has many choices (a buying turn, a reward).
    Position("early-2p", (2, 11), 37),
    Position("early-3p", (3, 12), 58),
    Position("early-4p", (4, 13), 67),
    Position("mid-2p", (2, 21), 117),
    Position("mid-3p", (3, 22), 159),
    Position("mid-4p", (4, 23), 212),
)

KIT = PerftKit(nauticus.RULES, "the Nauticus engine", "tests.engine.perft", POSITIONS, depth=2)

if __name__ == "__main__":
    raise SystemExit(KIT.main())
