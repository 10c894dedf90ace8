"""Pillow pictures of a Nautilus duel, drawn from `engine.duel.view(...)` output.

    >>> from engine import duel
    >>> from render.duel import board
    >>> pic = board(duel.view(duel.new_game(2, seed=1)))
    >>> pic.data[:4]
    b'\\x89PNG'

`board(view)` is public (it draws only the public part of any view); `hand(view)` is the private
picture of `view(state, seat)`; `score_sheet(view)` needs a finished game. Each takes the plain
view dict plus keyword-only options and returns a `Picture`.
"""

from render.canvas import Mark, Picture
from render.duel.board_pic import board
from render.duel.hand_pic import hand
from render.duel.scores_pic import score_sheet

__all__ = ["Mark", "Picture", "board", "hand", "score_sheet"]
