"""Write the sample pictures shown in the README to docs/img/.

    python -m tests.render.samples

Start: a new 3-player game. Mid-game: the late-game 4-player state of the golden tests.
End: the same state scored as if the game had ended there.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine import nauticus
from render import Picture
from render.nauticus import board, score_sheet, shipyard, shipyards
from tests.render.states import late_game

OUT = Path(__file__).resolve().parents[2] / "docs" / "img"


def samples() -> dict[str, Picture]:
    start = nauticus.view(nauticus.new_game(players=3, seed=2))
    mid = nauticus.view(late_game())
    end = nauticus.view(replace(late_game(), step="over", turn=None))
    (together,) = shipyards(start)
    return {
        "start-board": board(start),
        "start-shipyards": together,
        "mid-board": board(mid),
        "mid-shipyard-seat1": shipyard(mid, 0),
        "mid-shipyard-seat2": shipyard(mid, 1),
        "end-scores": score_sheet(end),
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, pic in samples().items():
        (OUT / f"{name}.png").write_bytes(pic.data)
        (OUT / f"{name}.txt").write_text(pic.alt_text + "\n")
        print(f"{name}.png  {pic.width}x{pic.height}  {len(pic.data)} bytes")


if __name__ == "__main__":
    main()
