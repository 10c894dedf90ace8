"""Whether a move may be taken back: a generic test, with no game-specific code.

A player may take back a move only if it taught nobody anything: no hidden card was revealed
and no random draw happened. Rather than ask each game, this asks the engine contract, and it
asks it with **what the mover can see only** (the answer is shown to the mover, as the Undo
button: a check that read the others' hands would tell the mover something about them).

1. Worlds the mover cannot tell apart: `determinize(before, mover)` a few seeded times (a
   function of the mover's view and the seed, by the engine contract). In each, the move must
   be legal and leave the mover seeing exactly what they see after the real move; else the
   move's outcome hung on something hidden from the mover (a draw): DREW.
2. What each audience could have believed: inside each such world W, `determinize(W, other)`
   re-deals what another seat, or the table (None: a member with no seat), cannot see, the
   mover's hand among it. The move must be legal there too and leave that audience seeing what
   it sees in W after the move; else the move showed it something of the mover's secrets (a card
   placed or stored from a hidden hand, named in the public line): REVEALED. Built on W, never
   on the real state, so it reads nothing the mover cannot see.

A move with a private event (a card only its player was shown) stands, too. The re-deals are
seeded by place (`undo/...`), so the answer is the same for every hidden deal the mover cannot
tell apart: re-dealing the others' hands never flips it.

Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_
from engine.api import Move, Rules

TRIES = 3  # worlds the mover cannot tell apart
OTHER_TRIES = 3  # re-deals of what another seat cannot see, in each of those worlds

# Words for the player, marked for the catalogue; the service says them through `tr`.
REVEALED = N_(
    "that move showed you a card or information the others don't have (or they saw one of "
    "yours), so it stands"
)
DREW = N_("that move depended on a hidden card or a random draw, so it stands")


def undo_refusal(
    rules: Rules,
    before: Any,
    seat: int,
    move: Move,
    after: Any,
    events: Sequence[Mapping[str, Any]],
    players: int,
) -> str | None:
    """None if `move` (played by `seat` from `before`, giving `after`) may be taken back;
    otherwise why not, in words for the player. Reads `before` and `after` only through what
    `seat` may see (see the module docstring)."""
    if any(e.get("private_to") is not None for e in events):
        return REVEALED
    mine = rules.view(after, seat)
    for k in range(TRIES):
        world = rules.determinize(before, seat, random.Random(f"undo/{seat}/{k}"))
        played = _played(rules, world, seat, move)
        if played is None or rules.view(played, seat) != mine:
            return DREW
        audiences: list[int | None] = [None, *(s for s in range(players) if s != seat)]
        for other in audiences:
            theirs = rules.view(played, other)
            for j in range(OTHER_TRIES):
                believed = rules.determinize(
                    world, other, random.Random(f"undo/{seat}/{k}/{other}/{j}")
                )
                again = _played(rules, believed, seat, move)
                if again is None or rules.view(again, other) != theirs:
                    return REVEALED
    return None


def _played(rules: Rules, state: Any, seat: int, move: Move) -> Any | None:
    """The state after `move`, or None where the move is not legal in `state`."""
    try:
        again, _ = rules.apply(state, seat, dict(move))
    except Exception:
        return None
    return again
