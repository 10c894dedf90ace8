"""AI worker processes run at a lower OS priority than the bot (issue 22): two workers
searching on a 2-core machine must not starve the event loop. Not timed: bench/loop_bench.py
measures the loop's delays."""

from __future__ import annotations

import os
import sys

import pytest

from bot import ai_seats

pytestmark = pytest.mark.skipif(
    not hasattr(os, "getpriority") or sys.platform == "win32", reason="POSIX priorities only"
)


def test_a_pool_worker_runs_at_a_lower_priority_than_the_bot() -> None:
    parent = os.getpriority(os.PRIO_PROCESS, 0)
    if parent >= 19:
        pytest.skip("the test process already runs at the lowest priority")
    thinker = ai_seats.Thinker(workers=1)
    try:
        worker = thinker.pool().submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=120)
    finally:
        thinker.close()
    # A higher nice value is a lower priority; nice stops at 19.
    assert worker == min(parent + ai_seats.WORKER_NICE, 19) and worker > parent


def test_nice_zero_keeps_the_bots_priority_and_session() -> None:
    parent = os.getpriority(os.PRIO_PROCESS, 0)
    thinker = ai_seats.Thinker(workers=1, nice=0)
    try:
        worker = thinker.pool().submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=120)
        session = thinker.pool().submit(os.getsid, 0).result(timeout=120)
    finally:
        thinker.close()
    assert worker == parent and session == os.getsid(0)


def _session_and_pid() -> tuple[int, int]:
    return os.getsid(0), os.getpid()


def test_a_pool_worker_runs_in_a_session_of_its_own() -> None:
    # Where Linux shares CPU between sessions first (autogroup), workers in the bot's session
    # would make the event loop wait for that session's turn (see ai_seats._own_session).
    thinker = ai_seats.Thinker(workers=1)
    try:
        session, pid = thinker.pool().submit(_session_and_pid).result(timeout=120)
    finally:
        thinker.close()
    assert session == pid != os.getpid() and session != os.getsid(0)
