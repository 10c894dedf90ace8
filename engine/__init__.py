"""Pure game engines: rules as data and pure functions, no I/O.

One sub-package per game (`engine.nauticus`); `IllegalMove` is shared by all of them.
"""

from engine.errors import IllegalMove

__all__ = ["IllegalMove"]
