"""Deterministic randomness that lives in the game state as a seed plus a counter.

Storing Python's whole generator state would tie saved games to one interpreter; a seed and a
counter are two integers, and each draw seeds a fresh generator from both, so the same seed and
the same moves replay the same game anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def shuffled(seed: int, counter: int, items: Sequence[T]) -> tuple[T, ...]:
    """Return `items` shuffled by the draw number `counter` of game `seed`."""
    # String seeds are hashed with SHA-512 by `random`, stable across Python versions.
    rnd = random.Random(f"{seed}/{counter}")
    out = list(items)
    rnd.shuffle(out)
    return tuple(out)
