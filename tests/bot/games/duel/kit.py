"""Sampled duel states and the secrets of each audience, for the duel plugin's tests.

`secret_patterns(state, audience)` is the leak check: for every card or special that `audience`
(None: the table; a seat: its holder) may not know now — worked out by comparing the seats'
own views (`view(state, seat)["me"]`) with what the audience's view already shows — the
phrases any of our writers (the plugin's words, the engine's describe, the pictures' alt texts)
would use to name it.
"""

from __future__ import annotations

import random
import re
from typing import Any

from bot.games.duel.plugin import PLUGIN
from bot.plugin import Seen
from bot.visibility import seen
from engine import duel
from engine.duel.state import State
from tests.engine.duel.policy import choose, game_rng, taste

NAMES = ("Ana", "Ben")
SPECIAL_WORDS = {
    "kraken": "kraken",
    "fishbone": "fishbone",
    "anchor": "anchor",
    "eye": "eye",
    "diving_module": "diving module",
    "harpoon": "harpoon",
}


def seen_of(state: State, seat: int | None) -> Seen:
    return seen(PLUGIN, state, NAMES, seat)


def sample_states(games: int = 12, seed: int = 5_000) -> list[State]:
    """Every state of `games` seeded playouts (every step, arrows and anchors included)."""
    out: list[State] = []
    for g in range(games):
        rng = game_rng(seed + g)
        t = taste(rng)
        state = duel.new_game(2, seed + g)
        while not duel.is_over(state):
            out.append(state)
            s = state.turn
            state, _ = duel.apply(state, s, choose(rng, state, duel.legal_moves(state, s), t))
        out.append(state)
    return out


def secrets(state: State, audience: int | None) -> tuple[set[int], set[str]]:
    """(diver values, specials) that `audience` may not know now."""
    mine = duel.view(state, audience)
    me = mine["me"] or {}
    on_board = {
        sp["card"] for slot in mine["slots"] for sp in slot["sides"] if sp["card"] is not None
    }
    known: set[int] = set(me.get("known") or []) | on_board
    if me.get("harpoon"):
        known.add(me["harpoon"]["card"])
    divers: set[int] = set()
    specials: set[str] = set()
    pending = (mine.get("pending") or {}).get("kind")
    for other in (0, 1):
        if other == audience:
            continue
        theirs = duel.view(state, other)["me"]
        divers |= set(theirs["divers"]) | set(theirs["module"])
        if theirs["deck_top"] is not None:
            divers.add(theirs["deck_top"])
        if theirs["eye"] and audience is None:
            divers |= set(theirs["eye"]["divers"])
        sp = theirs["special"]
        # Public: the special the step is waiting for (the table sees "play the eye"), and
        # the one the audience itself gave.
        if sp is not None and sp != pending and sp != me.get("opponent_special"):
            specials.add(sp)
    if audience is not None:
        divers -= set(me.get("divers") or [])
    return divers - known, specials


def secret_patterns(
    state: State,
    audience: int | None,
    published: set[int] = frozenset(),  # type: ignore[assignment]
) -> list[re.Pattern[str]]:
    """Regexes that match any way our texts would name a secret of `audience`; `published`:
    card values the last move's public events showed (the 10th card of a round is back in a
    hand once the next round is dealt, yet the posts about that move may name it)."""
    divers, specials = secrets(state, audience)
    divers -= published or set()
    out = []
    for v in sorted(divers):
        out += [
            re.compile(rf"\bthe {v}\b(?![/\d])"),  # describe, words.card
            re.compile(rf"(?<![\d/])\b{v} \((crab|horizontal|vertical)"),  # card labels
            re.compile(rf"\byour {v}\b|'s {v}\b"),  # the harpoon's words
            # lists: "Your divers: **1, 6**", "Divers: 1, 6.", "holds: 6", "showed: 2, 9"
            re.compile(
                rf"(divers|holds|showed|drew)\b[: *]*(?:(?:\d+|kraken \(15\)|fishbone \(0\)), )*"
                rf"{v}\b(?![/\d])",
                re.IGNORECASE,
            ),
        ]
    for sp in sorted(specials):
        out.append(re.compile(rf"\b{SPECIAL_WORDS[sp]}\b", re.IGNORECASE))
    return out


def leaks(texts: list[str], patterns: list[re.Pattern[str]]) -> list[str]:
    found = []
    for t in texts:
        for p in patterns:
            m = p.search(t)
            if m:
                found.append(f"{p.pattern!r} in …{t[max(0, m.start() - 60) : m.end() + 20]}…")
    return found


def rng_move(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(rng.choice(moves))
