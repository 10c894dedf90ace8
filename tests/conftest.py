"""Test-wide settings: hypothesis runs derandomized with no deadline, so CI cannot flake.

A loaded machine can make any example slow, and a random seed or a saved example database would
make two runs of the same commit differ; the "ci" profile removes all three. Set
HYPOTHESIS_PROFILE=thorough to search harder locally.
"""

from __future__ import annotations

import dataclasses
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

from tests.hang_guard import pytest_timeout_set_timer  # noqa: F401  (a hook: a stuck test's tasks)

# Bytecode caching on, for this run and every process it starts. CI machines often set
# PYTHONDONTWRITEBYTECODE=1, and then every bot process the tests start (the end-to-end
# scenarios restart the real bot dozens of times) compiles the whole project from source again:
# 1.4 s of CPU to import the bot instead of 0.9 s. The cache goes to the ignored __pycache__/.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

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

# The longest files start first, the ones that mostly wait (on the bot process they drive, on
# Discord's rate limits, on a robot thinking at a lower priority) interleaved with the ones that
# keep a core busy, so that two waiting scenarios seldom hold two of the three workers while a
# core idles. `--dist loadfile` runs a file whole on one worker, and `--no-loadscope-reorder`
# (pyproject's addopts) keeps this order: by default pytest-xdist sorts the files by their number
# of tests, which started these few-test, longest files last and left one worker running
# scenarios alone for the last few minutes. (Measured per file: CPU time and wall time,
# `pytest -p` with a timing plugin; the order only changes when a file starts.)
WAITING = (
    "tests/e2e/test_scenario_crash.py",
    "tests/e2e/test_scenario_commit_kill.py",
    "tests/e2e/test_scenario_reminders.py",  # a skip's AI runs at a lower priority
    "tests/e2e/test_scenario_ratelimit.py",  # Discord's buckets, made tight
    "tests/e2e/test_scenario_game.py",
    "tests/e2e/test_scenario_ai.py",
    "tests/e2e/test_scenario_duel.py",
    "tests/e2e/test_scenario_island.py",
)
BUSY = (
    "tests/engine/ai/test_strength.py",
    "tests/bot/test_records.py",
    "tests/platform/test_audit.py",
    "tests/engine/island/test_playouts.py",
    "tests/bot/games/duel/test_secrets.py",
    "tests/bot/test_cli_export.py",
    "tests/render/test_french_layout.py",
    "tests/render/island/test_pictures.py",
    "tests/engine/ai/test_blunders.py",
    "tests/engine/test_legal_complete.py",
    "tests/bot/test_hardening_database.py",
    "tests/bot/games/island/test_secrets.py",
    "tests/bot/test_ops_lock_identity.py",
    "tests/bot/test_ai_seats.py",
    "tests/engine/duel/test_describe_public.py",
    "tests/engine/ai/test_fairness.py",
)
SLOW_FIRST = tuple(
    path
    for i in range(max(len(WAITING), len(BUSY)))
    for path in (BUSY[i : i + 1] + WAITING[i : i + 1])
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers more than there are cores. The end-to-end scenarios spend part of
    their time waiting (for the bot process they drive, for Discord's rate limits, for an AI
    worker that runs at a lower priority), and a core left idle meanwhile is lost. Measured on
    two cores, quiet machine, the whole suite: 3 workers 6 min 31 s (1.84 cores busy on
    average), 4 workers 6 min 3 s (1.94). PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").strip()
    if chosen.isdigit():
        return int(chosen)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture
def cheap_robots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every AI level searches 150 engine applies a decision instead of 800-16,000, for tests
    about the platform around the robots (whole robot games through the service, secrecy audits
    of robot games, damaged values): they assert what the table sees, never how well a robot
    plays, and their robots take the very same path (levels table, search, determinize) at a
    fraction of the CPU. How well each level plays is tested in tests/engine/ai and measured by
    bench/ai_bench.py, at the real budgets."""
    from engine.ai import levels

    for name, lvl in list(levels.LEVELS.items()):
        monkeypatch.setitem(levels.LEVELS, name, dataclasses.replace(lvl, budget=150))
