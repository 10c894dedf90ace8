"""Pillow pictures of every game, drawn from engine views (one sub-package per game).

`render.canvas` (the recording canvas, the bundled font, encoding), `render.palette` (seat colours
and symbols), `render.icons`, `render.text`, `render.seats` (seats' short names, '+3' gains and
frames around what is new since the previous post) and `render.sheet` (the final score sheet's
table) are shared; `render.nauticus`, `render.island` and
`render.duel` draw each game. Nothing here does I/O beyond reading the bundled font once.
"""

from render.canvas import Mark, Picture

__all__ = ["Mark", "Picture"]
