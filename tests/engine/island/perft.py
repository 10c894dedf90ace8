"""Perft for Nautilus Island: the number of legal move sequences of depth 1, 2 and 3.

The counts live in tests/engine/island/data/perft.counts; test_perft.py recomputes them, so any
change to what is legal shows up as a changed number and has to be made on purpose. After a
deliberate rules change, regenerate the file from the repository root with:

    python -m tests.engine.island.perft --write
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import island
from engine.island.state import State

DATA = Path(__file__).with_name("data") / "perft.counts"


@dataclass(frozen=True)
class Position:
    name: str
    players: int
    seed: int
    plies: int  # moves of the seeded random walk from the start (0: the start position)


POSITIONS = (
    Position("start-2p", 2, 1, 0),
    Position("start-3p", 3, 2, 0),
    Position("start-4p", 4, 3, 0),
    Position("early-2p", 2, 11, 12),
    Position("early-3p", 3, 12, 17),
    Position("early-4p", 4, 13, 22),
    Position("mid-2p", 2, 21, 50),
    Position("mid-3p", 3, 22, 61),
    Position("mid-4p", 4, 23, 80),
    Position("late-4p", 4, 31, 130),
)


@dataclass(frozen=True)
class Row:
    name: str
    players: int
    seed: int
    plies: int
    position: str  # sha256 of the position's JSON, first 16 hex digits
    depth1: int
    depth2: int
    depth3: int

    def line(self) -> str:
        return (
            f"{self.name} {self.players} {self.seed} {self.plies} {self.position} "
            f"{self.depth1} {self.depth2} {self.depth3}"
        )


def position(p: Position) -> State:
    """The start of game (players, seed), then `plies` moves drawn uniformly from legal_moves."""
    state = island.new_game(p.players, p.seed)
    rng = random.Random(f"perft/{p.players}/{p.seed}")
    for _ in range(p.plies):
        seat = state.current
        assert seat is not None, f"{p.name}: the game ended before {p.plies} moves"
        state, _ = island.apply(state, seat, rng.choice(island.legal_moves(state, seat)))
    return state


def perft(state: State, depth: int) -> int:
    """The number of legal move sequences of length `depth` from `state`."""
    seat = state.current
    if seat is None:
        return 0
    moves = island.legal_moves(state, seat)
    if depth == 1:
        return len(moves)
    return sum(perft(island.apply(state, seat, m)[0], depth - 1) for m in moves)


def compute(p: Position) -> Row:
    state = position(p)
    digest = hashlib.sha256(island.to_json(state).encode()).hexdigest()[:16]
    return Row(
        p.name,
        p.players,
        p.seed,
        p.plies,
        digest,
        perft(state, 1),
        perft(state, 2),
        perft(state, 3),
    )


def read(path: Path = DATA) -> list[Row]:
    rows = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, players, seed, plies, pos, d1, d2, d3 = line.split()
        rows.append(Row(name, int(players), int(seed), int(plies), pos, int(d1), int(d2), int(d3)))
    return rows


HEADER = f"""\
# Perft counts of the Nautilus Island engine ({island.ENGINE_VERSION}): how many legal move
# sequences of depth 1, 2 and 3 start from each position. tests/engine/island/test_perft.py
# recomputes them. A position is a new game (players, seed) followed by `plies` moves drawn
# uniformly from legal_moves with random.Random(f"perft/{{players}}/{{seed}}"); `position` is the
# first 16 hex digits of the sha256 of its to_json, so a changed walk is told apart from changed
# counts. Regenerate after a deliberate rules change, from the repository root:
#     python -m tests.engine.island.perft --write
# name players seed plies position depth1 depth2 depth3
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DATA}")
    args = parser.parse_args(argv)
    rows = [compute(p) for p in POSITIONS]
    text = HEADER + "".join(r.line() + "\n" for r in rows)
    if args.write:
        DATA.write_text(text, encoding="utf-8")
        print(f"wrote {DATA}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
