"""The position the search starts from: one full state per information set, whatever the secrets.

`Rules.determinize(state, seat, rng)` must return a state whose `view(·, seat)` equals the
seat's view, and must be a function of that view and `rng` only (engine/api.py): two states the
seat cannot tell apart give the same sample for the same `rng`. Each engine keeps that contract
itself (it deals the unseen cards by place from a fixed order, never by where the real cards
are), so the search needs no knowledge of any game: `canonical` draws one sample with a seeded
rng, checks the view did not change, and the search draws all its determinizations from it.
A new game gets a fair AI by keeping the contract; `tests/engine/ai` checks it for every game
of the registry.
"""

from __future__ import annotations

import random
from typing import Any

from engine.api import Rules


class ContractError(RuntimeError):
    """The engine's `determinize` broke its contract (the seat's view changed)."""


def canonical(rules: Rules, state: Any, seat: int, seed: int) -> Any:
    """The one state `search` starts from: the same for every state with this seat's view.

    Raises:
        ContractError: the engine's determinize changed `view(·, seat)`.
    """
    out = rules.determinize(state, seat, random.Random(f"ai-canon/{seed}"))
    if rules.view(out, seat) != rules.view(state, seat):
        raise ContractError(f"{rules.name}: determinize changed seat {seat + 1}'s view")
    return out
