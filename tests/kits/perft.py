"""Perft for any engine: the number of legal move sequences of a few depths from fixed positions.

A game's counts live in a data file next to its tests (tests/engine/**/data/perft.counts); its
test_perft.py recomputes them with `perft_tests`, so any change to what is legal shows up as a
changed number and has to be made on purpose. A position is a new game, then `plies` moves drawn
uniformly from legal_moves by a seeded RNG; the file also keeps a digest of the position reached,
so a changed walk is told apart from changed counts. Each game's tests/engine/**/perft.py gives
its positions and start in a `PerftKit` and regenerates its file after a deliberate rules change:

    python -m tests.engine.perft --write          (Nauticus; .island.perft, .duel.perft likewise)
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.api import Rules


@dataclass(frozen=True)
class Position:
    name: str
    setup: tuple[int, int]  # what the game's start takes, named by PerftKit.setup_names
    plies: int  # moves of the seeded random walk from the start (0: the start position)


@dataclass(frozen=True)
class Row:
    name: str
    setup: tuple[int, ...]
    plies: int
    position: str  # sha256 of the position's JSON, first 16 hex digits
    counts: tuple[int, ...]  # perft at depth 1, 2, ...

    def line(self) -> str:
        return " ".join(
            [self.name, *map(str, self.setup), str(self.plies), self.position]
            + [str(c) for c in self.counts]
        )


ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class PerftKit:
    """One game's perft: its rules, positions, how a position starts and where counts live.

    By default a position's setup is (players, seed), given to `rules.new_game`."""

    rules: Rules
    game: str  # in the data file's header: "the Nauticus engine"
    command: str  # the module that rewrites the file: "tests.engine.perft"
    positions: tuple[Position, ...]
    depth: int  # counts kept: depth 1 to this
    start: Callable[[int, int], Any] | None = None  # the new game of a setup; None: new_game
    setup_names: tuple[str, str] = ("players", "seed")  # Position.setup, as the header says
    walk: str = "perft/{players}/{seed}"  # the walk's RNG seed, a format of the setup names
    start_words: str = "a new game (players, seed)"  # what `start` does, for the header

    @property
    def data(self) -> Path:
        """The counts file: data/perft.counts next to the `command` module."""
        return ROOT.joinpath(*self.command.split(".")[:-1], "data", "perft.counts")

    def position(self, p: Position) -> Any:
        """The start of the game, then `plies` moves drawn uniformly from legal_moves."""
        rules = self.rules
        state = (self.start or rules.new_game)(*p.setup)
        rng = random.Random(self.walk.format(**dict(zip(self.setup_names, p.setup, strict=True))))
        for _ in range(p.plies):
            seat = rules.current(state)
            assert seat is not None, f"{p.name}: the game ended before {p.plies} moves"
            state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
        return state

    def perft(self, state: Any, depth: int) -> int:
        """The number of legal move sequences of length `depth` from `state`."""
        rules = self.rules
        seat = rules.current(state)
        if seat is None:
            return 0
        moves = rules.legal_moves(state, seat)
        if depth == 1:
            return len(moves)
        return sum(self.perft(rules.apply(state, seat, m)[0], depth - 1) for m in moves)

    def compute(self, p: Position) -> Row:
        state = self.position(p)
        digest = hashlib.sha256(self.rules.to_json(state).encode()).hexdigest()[:16]
        counts = tuple(self.perft(state, d) for d in range(1, self.depth + 1))
        return Row(p.name, p.setup, p.plies, digest, counts)

    def read(self) -> list[Row]:
        rows = []
        for raw in self.data.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            name, a, b, plies, pos, *counts = line.split()
            assert len(counts) == self.depth, line
            rows.append(Row(name, (int(a), int(b)), int(plies), pos, tuple(map(int, counts))))
        return rows

    def header(self) -> str:
        depths = [str(d) for d in range(1, self.depth + 1)]
        said = " and ".join([", ".join(depths[:-1]), depths[-1]] if len(depths) > 1 else depths)
        test = Path(*self.command.split(".")[:-1]) / "test_perft.py"
        prose = (
            f"Perft counts of {self.game} ({self.rules.engine_version}): how many legal move "
            f"sequences of depth {said} start from each position. {test} recomputes them. "
            f"A position is {self.start_words} followed by `plies` moves drawn uniformly from "
            f'legal_moves with random.Random(f"{self.walk}"); `position` is the first 16 hex '
            "digits of the sha256 of its to_json, so a changed walk is told apart from changed "
            "counts. "
            "Regenerate after a deliberate rules change, from the repository root:"
        )
        columns = ["name", *self.setup_names, "plies", "position", *(f"depth{d}" for d in depths)]
        return (
            textwrap.fill(prose, width=98, initial_indent="# ", subsequent_indent="# ")
            + f"\n#     python -m {self.command} --write\n# {' '.join(columns)}\n"
        )

    def main(self, argv: list[str] | None = None) -> int:
        parser = argparse.ArgumentParser(description=f"Perft counts of {self.game}.")
        parser.add_argument("--write", action="store_true", help=f"rewrite {self.data}")
        args = parser.parse_args(argv)
        text = self.header() + "".join(self.compute(p).line() + "\n" for p in self.positions)
        if args.write:
            self.data.write_text(text, encoding="utf-8")
            print(f"wrote {self.data}")
        else:
            sys.stdout.write(text)
        return 0


def perft_tests(kit: PerftKit) -> dict[str, Callable[..., None]]:
    """The shared tests, by name, for a game's test_perft.py to take in (`globals().update`)."""
    stored = {row.name: row for row in kit.read()}

    def test_data_file_lists_every_position() -> None:
        assert [r.name for r in kit.read()] == [p.name for p in kit.positions]

    @pytest.mark.parametrize("pos", kit.positions, ids=lambda p: p.name)
    def test_perft_counts_match_the_data_file(pos: Position) -> None:
        was = stored[pos.name]
        row = kit.compute(pos)
        assert (row.setup, row.plies) == (was.setup, was.plies)
        assert row.position == was.position, "the seeded walk reached another position"
        assert row.counts == was.counts

    return {
        t.__name__: t
        for t in (test_data_file_lists_every_position, test_perft_counts_match_the_data_file)
    }
