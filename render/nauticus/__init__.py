"""Pillow pictures of a Nauticus game, drawn from `engine.nauticus.view(...)` output.

    >>> from engine import nauticus
    >>> from render.nauticus import board
    >>> pic = board(nauticus.view(nauticus.new_game(players=3, seed=1)))
    >>> pic.data[:4]
    b'\\x89PNG'

Every function takes the plain view dict plus keyword-only options and returns a `Picture`
(encoded bytes, a filename, alt text, and the marks drawn). Nothing here does I/O beyond reading
the bundled font once.
"""

from render.canvas import Mark, Picture
from render.nauticus.board_pic import board
from render.nauticus.scores import score_sheet
from render.nauticus.shipyard_pic import shipyard, shipyards

__all__ = ["Mark", "Picture", "board", "score_sheet", "shipyard", "shipyards"]
