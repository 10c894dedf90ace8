"""Write the sample pictures of docs/img/island-*.png from a fixed mid-game and a finished game.

python -m tests.render.island.samples
"""

from __future__ import annotations

from pathlib import Path

from engine import island
from engine.island.state import State
from render.island import areas, board, hand, score_sheet
from tests.engine.island.walk import playout

OUT = Path(__file__).parents[3] / "docs" / "img"


def mid_game(players: int = 4, seed: int = 2, moves: int = 90) -> State:
    state = island.new_game(players, seed)
    for i, (_, _, after, _) in enumerate(playout(players, seed)):
        state = after
        if i + 1 == moves:
            break
    return state


def finished(players: int = 4, seed: int = 2) -> State:
    state = island.new_game(players, seed)
    for _, _, after, _ in playout(players, seed):
        state = after
    return state


def main() -> int:
    state = mid_game()
    seat = state.current
    assert seat is not None
    public = island.view(state)
    pics = {"island-board.png": board(public), "island-hand.png": hand(island.view(state, seat))}
    for i, pic in enumerate(areas(public)):
        pics[f"island-areas-{i + 1}.png"] = pic
    pics["island-scores.png"] = score_sheet(island.view(finished()))
    for name, pic in pics.items():
        (OUT / name).write_bytes(pic.data)
        print(f"{name}: {pic.width}x{pic.height}, {len(pic.data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
