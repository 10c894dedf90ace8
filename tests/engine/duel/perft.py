"""Perft for the duel: the number of legal move sequences of depth 1 and 2 from fixed positions.

The counts live in tests/engine/duel/data/perft.counts; test_perft.py recomputes them, so any
change to what is legal shows up as a changed number and has to be made on purpose. After a
deliberate rules change, regenerate the file from the repository root with:

    python -m tests.engine.duel.perft --write
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import duel
from engine.duel.state import State

DATA = Path(__file__).with_name("data") / "perft.counts"


@dataclass(frozen=True)
class Position:
    name: str
    seed: int
    first: int
    plies: int  # moves of the seeded random walk from the start (0: the start position)


POSITIONS = (
    Position("start-0", 1, 0, 0),
    Position("start-1", 2, 1, 0),
    Position("specials", 3, 0, 1),
    Position("place-early", 4, 0, 4),
    Position("place-mid", 5, 1, 9),
    Position("round-2", 6, 0, 17),
    Position("round-3", 7, 1, 30),
    Position("round-5", 8, 0, 55),
    Position("round-6", 9, 1, 70),
)


@dataclass(frozen=True)
class Row:
    name: str
    seed: int
    first: int
    plies: int
    position: str  # sha256 of the position's JSON, first 16 hex digits
    depth1: int
    depth2: int

    def line(self) -> str:
        return (
            f"{self.name} {self.seed} {self.first} {self.plies} {self.position} "
            f"{self.depth1} {self.depth2}"
        )


def position(p: Position) -> State:
    """The start of game (seed, first), then `plies` moves drawn uniformly from legal_moves."""
    state = duel.new_game(2, p.seed, first=p.first)
    rng = random.Random(f"duel-perft/{p.seed}")
    for _ in range(p.plies):
        seat = state.current
        assert seat is not None, f"{p.name}: the game ended before {p.plies} moves"
        state, _ = duel.apply(state, seat, rng.choice(duel.legal_moves(state, seat)))
    return state


def perft(state: State, depth: int) -> int:
    """The number of legal move sequences of length `depth` from `state`."""
    seat = state.current
    if seat is None:
        return 0
    moves = duel.legal_moves(state, seat)
    if depth == 1:
        return len(moves)
    return sum(perft(duel.apply(state, seat, m)[0], depth - 1) for m in moves)


def compute(p: Position) -> Row:
    state = position(p)
    digest = hashlib.sha256(duel.to_json(state).encode()).hexdigest()[:16]
    return Row(p.name, p.seed, p.first, p.plies, digest, perft(state, 1), perft(state, 2))


def read(path: Path = DATA) -> list[Row]:
    rows = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, seed, first, plies, pos, d1, d2 = line.split()
        rows.append(Row(name, int(seed), int(first), int(plies), pos, int(d1), int(d2)))
    return rows


HEADER = f"""\
# Perft counts of the Nautilus duel engine ({duel.ENGINE_VERSION}): how many legal move
# sequences of depth 1 and 2 start from each position. tests/engine/duel/test_perft.py
# recomputes them. A position is new_game(2, seed, first=first) followed by `plies` moves drawn
# uniformly from legal_moves with random.Random(f"duel-perft/{{seed}}"); `position` is the first
# 16 hex digits of the sha256 of its to_json, so a changed walk is told apart from changed counts.
# Regenerate after a deliberate rules change, from the repository root:
#     python -m tests.engine.duel.perft --write
# name seed first plies position depth1 depth2
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
