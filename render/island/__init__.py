"""Pillow pictures of a Nautilus Island game, drawn from `engine.island.view(...)` output.

    >>> from engine import island
    >>> from render.island import board
    >>> pic = board(island.view(island.new_game(players=3, seed=1)))
    >>> pic.data[:4]
    b'\\x89PNG'

Every function takes the plain view dict plus keyword-only options and returns `Picture`s
(encoded bytes, a filename, alt text built from the view alone, and the marks drawn). `board`,
`areas` and `score_sheet` are public pictures (any seat's view gives the same); `hand` needs a
seat's own view and is meant for that seat only.
"""

from render.canvas import Mark, Picture
from render.island.areas_pic import areas
from render.island.board_pic import board
from render.island.hand_pic import hand
from render.island.scores_pic import score_sheet

__all__ = ["Mark", "Picture", "areas", "board", "hand", "score_sheet"]
