"""Test-wide settings: hypothesis runs derandomized with no deadline, so CI cannot flake.

A loaded machine can make any example slow, and a random seed or a saved example database would
make two runs of the same commit differ; the "ci" profile removes all three. Set
HYPOTHESIS_PROFILE=thorough to search harder locally.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    database=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
