"""Whether a move may be taken back: a generic test, with no game-specific code.

A player may take back a move only if it taught nobody anything: no hidden card was revealed
and no random draw happened. Rather than ask each game, this asks the engine contract: for
every seat, re-deal what that seat cannot see (`rules.determinize`, a few seeded times) and
play the same move on the re-dealt game. If what the seat then sees (`rules.view`) is always
what it sees after the real move, the move's outcome did not depend on anything hidden from
that seat, so taking it back gives nobody a second look at a secret or a second draw. A move
with a private event (a card only its player was shown) stands, too.

Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_
from engine.api import Move, Rules

TRIES = 3  # re-deals per seat: a draw that one re-deal repeats by chance, another does not

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
    otherwise why not, in words for the player."""
    if any(e.get("private_to") is not None for e in events):
        return REVEALED
    for s in range(players):
        want = rules.view(after, s)
        for k in range(TRIES):
            dealt = rules.determinize(before, s, random.Random(f"undo/{s}/{k}"))
            try:
                again, _ = rules.apply(dealt, seat, dict(move))
            except Exception:
                # Not even legal in a game that looks the same to `s`: the move used something
                # `s` cannot see (the mover's own hidden hand, say) and `s` now knows more.
                return REVEALED if s != seat else DREW
            if rules.view(again, s) != want:
                return DREW if s == seat else REVEALED
    return None
