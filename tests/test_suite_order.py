"""The suite's own schedule: the files started first exist, and pytest-xdist keeps their order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BUSY, SLOW_FIRST, WAITING

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_started_first_exists_once() -> None:
    # A renamed or deleted file would silently drop out of the order.
    assert sorted(SLOW_FIRST) == sorted(set(BUSY) | set(WAITING))
    missing = [p for p in SLOW_FIRST if not (ROOT / p).is_file()]
    assert missing == []
    # Waiting and busy files alternate from the start.
    assert SLOW_FIRST[:4] == (BUSY[0], WAITING[0], BUSY[1], WAITING[1])


def test_pytest_xdist_keeps_the_order(pytestconfig: pytest.Config) -> None:
    # Without --no-loadscope-reorder, `--dist loadfile` sorts the files by their number of tests
    # and the few-test, longest files would start last.
    assert pytestconfig.getoption("loadscopereorder") is False
