"""The one exception every game engine raises for a move it refuses."""

from __future__ import annotations

from typing import Any


class IllegalMove(ValueError):
    """A move the rules (or the move format) do not allow.

    `code` is stable (the bot maps it to a reply, tests pin it); `params` carries the values a
    message needs; `str(exc)` is a plain English sentence naming the bad value and what is
    allowed instead.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r})"
