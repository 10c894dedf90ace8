"""How hard the long sweeps of the suite search: the default fits the README's test command in a
few minutes on two cores; `FULL_SWEEP=1` runs the long versions (as before issue 22 made them
shorter), e.g. before a release or after an engine change."""

from __future__ import annotations

import os

FULL = os.environ.get("FULL_SWEEP") == "1"


def sweep(default: int, full: int) -> int:
    """`default` in the everyday run, `full` with FULL_SWEEP=1."""
    return full if FULL else default
