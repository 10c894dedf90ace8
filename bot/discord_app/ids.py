"""Component custom ids: `nx:<kind>:<game id>:<state version>[:<arg>]`, at most 100 characters.

They carry everything a click needs, so buttons posted before a restart still work, and a
click on an old panel (its version is not the game's) is recognised as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal[
    "play",
    "w",
    "t",
    "b",
    "ok",
    "lobby",
    "abort",
    "skip",
    "replace",
    "ai",
    "end",
    "snooze",
    "undo",
    "log",
]
KINDS: Final[tuple[str, ...]] = (
    "play",
    "w",
    "t",
    "b",
    "ok",
    "lobby",
    "abort",
    "skip",
    "replace",
    "ai",  # the lobby's AI seat select (add a robot of a level, or remove one)
    "end",  # the final post's buttons: replay, rematch, record
    "snooze",  # a reminder's Snooze button
    "undo",  # the panel's Undo button (takes back the player's last move)
    "log",  # the game log's Older / Newer buttons (arg: the page)
)
MAX_LEN: Final = 100
_ARG = r"[A-Za-z0-9_./-]{0,60}"


def template(*kinds: str) -> str:
    """The regex (for a DynamicItem `template`) matching custom ids of the given kinds."""
    alts = "|".join(re.escape(k) for k in kinds)
    head = rf"nx:(?P<kind>{alts}):(?P<game>[0-9]{{1,19}}):(?P<version>[0-9]{{1,19}})"
    return rf"{head}(?::(?P<arg>{_ARG}))?"


_ANY = re.compile(template(*KINDS))


@dataclass(frozen=True, slots=True)
class CustomId:
    kind: Kind
    game_id: int
    version: int
    arg: str = ""

    def encode(self) -> str:
        """The custom id string.

        Raises:
            ValueError: the id would not round-trip or would be longer than Discord allows.
        """
        text = f"nx:{self.kind}:{self.game_id}:{self.version}" + (
            f":{self.arg}" if self.arg else ""
        )
        if len(text) > MAX_LEN or decode(text) != self:
            raise ValueError(f"{text!r} is not a valid custom id")
        return text


def decode(text: str) -> CustomId | None:
    """Parse a custom id of ours; None for anything else."""
    m = _ANY.fullmatch(text)
    if m is None:
        return None
    kind: Kind = m["kind"]  # type: ignore[assignment]  # the regex admits only KINDS
    return CustomId(kind, int(m["game"]), int(m["version"]), m["arg"] or "")
