"""Alt-text lengths of every public picture, in English and French, over seeded games.

    python bench/alt_bench.py [--games 30] [--every 1] [--games-list nauticus,island,duel]

Plays `--games` seeded games of each game (2-4 players where the game allows; even games with
uniform random seats, odd games with the AI's one-ply `greedy` on every other seat) and, on
every `--every`-th snapshot, builds the alt texts the bot posts: Nauticus board, shipyards
(one picture each) and scores; Island board, areas (the seats of each picture as `chunks`
splits them), each player and scores; duel board and scores (`tests/render/alt_games.py`). For
each text kind and language it prints the count of texts, their longest, p95, how many are over
Discord's 1,024 characters or were cut by `fit` (ending in '…'), how many said some detail
more shortly to fit (they say so: "for length", French "faute de place"; the shipyards picture:
not each shipyard's text joined), and how many all-shipyards pictures have no text that fits.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import i18n
from render.nauticus.shipyard_pic import MAX_HEIGHT, block_height
from render.nauticus.text import shipyard_alt, shipyards_alt_uncut
from render.text import ALT_LIMIT
from tests.render.alt_games import KINDS, alt_texts, snapshots


def shortened(name: str, text: str, view: dict[str, Any]) -> bool:
    """Whether `text` said something more shortly to fit (it then says so, or, for the
    shipyards picture, differs from each shipyard's text joined)."""
    if name == "shipyards":
        seats = range(len(view["players"]))
        return text != "\n\n".join(shipyard_alt(view, s) for s in seats)
    return "for length" in text or "faute de" in text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--games-list", default=",".join(KINDS))
    args = parser.parse_args()
    for kind in args.games_list.split(","):
        lengths: dict[tuple[str, str], list[int]] = defaultdict(list)
        cut: dict[tuple[str, str], int] = defaultdict(int)
        short: dict[tuple[str, str], int] = defaultdict(int)
        split: dict[str, int] = defaultdict(int)
        snaps = 0
        for game in range(args.games):
            for view in snapshots(kind, game, args.every):
                snaps += 1
                for locale in ("en", "fr"):
                    with i18n.use(locale):
                        for name, _seats, text in alt_texts(kind, view):
                            lengths[(name, locale)].append(len(text))
                            cut[(name, locale)] += text.endswith("…")
                            short[(name, locale)] += shortened(name, text, view)
                        # All shipyards would fit one picture, but none of its texts fits.
                        if kind == "nauticus" and shipyards_alt_uncut(view) is None:
                            heights = sum(block_height(p) for p in view["players"])
                            split[locale] += heights <= MAX_HEIGHT
        print(f"{kind}: {args.games} games, {snaps} snapshots")
        head = ("count", "max", "p95", ">1024", "cut", "short")
        print(f"  {'text':<10} {'lang':<4} " + " ".join(f"{h:>6}" for h in head))
        for (name, locale), ls in sorted(lengths.items()):
            ls.sort()
            p95 = ls[min(len(ls) - 1, int(len(ls) * 0.95))]
            over = sum(n > ALT_LIMIT for n in ls)
            print(
                f"  {name:<10} {locale:<4} {len(ls):>6} {ls[-1]:>6} {p95:>6} {over:>6} "
                f"{cut[(name, locale)]:>6} {short[(name, locale)]:>6}"
            )
        for locale, n in sorted(split.items()):
            print(f"  shipyards {locale}: {n} pictures with no text that fits (to be split)")


if __name__ == "__main__":
    main()
