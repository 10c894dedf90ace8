"""A test that waits for something that never comes fails, with its stacks, instead of hanging
the run: pytest-timeout's guard (`timeout` in pyproject.toml) is on for the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

STUCK = """
import asyncio


async def test_waits_for_an_event_nobody_sets() -> None:
    never = asyncio.Event()
    await never.wait()  # the wait the guard must name
"""


def test_the_suite_runs_with_a_hang_guard(pytestconfig: pytest.Config) -> None:
    assert float(pytestconfig.getini("timeout")) >= 600  # a guard, far above any test's time


def test_a_test_stuck_in_a_wait_fails_and_names_the_wait(tmp_path: Path) -> None:
    (tmp_path / "test_stuck.py").write_text(STUCK)
    # The project's own settings (asyncio mode, plugins), one process, the guard shortened: the
    # event is never set, so only the guard can end this test.
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(tmp_path),
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.hang_guard",
            "-n0",
            "-o",
            "timeout=2",
            str(tmp_path / "test_stuck.py"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed" in out and "Timeout" in out
    assert "await never.wait()" in out
