"""Check that two checkouts of the Nauticus engine play identically (issue 22: a faster engine
must replay every stored game byte for byte).

    python bench/nauticus_compare.py --old /tmp/old-checkout            # 200 games, 4 players
    python bench/nauticus_compare.py --old /tmp/old-checkout --games 50 --players 2

The old engine is another checkout of this repository (e.g. `git worktree add --detach
/tmp/old-checkout <commit>`). Both engines are called `engine`, so each one runs in its own
Python process (this script again, with `--dump`, and the checkout's root first on sys.path);
each writes, for every move of the same seeded random games, one line with the legal moves,
the move, the new state's JSON, its to_dict, the events' to_dict, describe's text, one move
in ten the view of every seat, and at the end the final scores. The two outputs must be equal
line for line; the first difference is printed. Not a timed test: run it by hand after a
change to the engine.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def dump(players: int, games: int, seed: int) -> None:
    """Play the games with the `engine` on sys.path and print one line per move."""
    from engine import nauticus  # the checkout given on the command line (see main)
    from engine.nauticus.state import to_dict

    out = sys.stdout
    for g in range(games):
        rng = random.Random(seed + g)
        state = nauticus.new_game(players, seed + g)
        out.write(f"game {seed + g} {nauticus.to_json(state)}\n")
        n = 0
        while state.step != "over":
            seat = state.current
            assert seat is not None
            moves = nauticus.legal_moves(state, seat)
            move = rng.choice(moves)
            new, events = nauticus.apply(state, seat, move)
            record: dict[str, Any] = {
                "n": n,
                "seat": seat,
                "moves": moves,
                "move": move,
                "json": nauticus.to_json(new),
                # Unsorted: the key order of to_dict and of the events' dicts is kept too.
                "dict": json.dumps(to_dict(new)),
                "events": json.dumps([e.to_dict() for e in events]),
                "describe": nauticus.describe(move, state),
            }
            if n % 10 == 0:  # the views cost more than the move: one move in ten
                record["views"] = [nauticus.view(new, s) for s in (*range(players), None)]
            # The reloaded state must be the same state (equal, and the same JSON again).
            back = nauticus.from_json(record["json"])
            assert back == new and nauticus.to_json(back) == record["json"], (g, n)
            out.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
            state = new
            n += 1
        scores = [dataclasses.asdict(s) for s in nauticus.final_scores(state)]
        out.write(f"scores {json.dumps(scores)}\n")


def run(root: Path, players: int, games: int, seed: int) -> list[str]:
    args = [sys.executable, __file__, "--dump", str(root)]
    args += ["--players", str(players), "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare two Nauticus engines move by move")
    parser.add_argument("--old", type=Path, help="root of the other checkout")
    parser.add_argument("--new", type=Path, default=HERE, help="root of this checkout (default)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # child process: the root
    args = parser.parse_args(argv)
    if args.dump is not None:
        sys.path.insert(0, str(args.dump.resolve()))
        dump(args.players, args.games, args.seed)
        return 0
    if args.old is None:
        parser.error("--old is required")
    old = run(args.old.resolve(), args.players, args.games, args.seed)
    new = run(args.new.resolve(), args.players, args.games, args.seed)
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            print(f"line {i + 1} differs:\n old {a[:2000]}\n new {b[:2000]}")
            return 1
    if len(old) != len(new):
        print(f"old has {len(old)} lines, new {len(new)}")
        return 1
    digest = hashlib.sha256("\n".join(new).encode()).hexdigest()[:16]
    moves = sum(1 for line in new if line.startswith("{"))
    print(f"identical: {args.games} games, {moves} moves, {len(new)} lines, sha256 {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
