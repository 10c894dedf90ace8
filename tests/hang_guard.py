"""What a stuck test says when pytest-timeout's guard (`timeout` in pyproject.toml) ends it.

pytest-timeout's own signal handler fails the test where the main thread is: for an asyncio
test that is the event loop's `select`, which names nothing. This handler also prints the stack
of every task still pending on that loop, so the failure shows which `await` never returned.
It is loaded by tests/conftest.py for the suite (and with `-p tests.hang_guard` elsewhere).
"""

from __future__ import annotations

import asyncio
import io
import signal
import threading
from types import FrameType
from typing import Any

import pytest


def _pending_tasks() -> str:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a plain test: pytest's own traceback shows where it is
        return ""
    out = io.StringIO()
    for task in asyncio.all_tasks(loop):
        task.print_stack(file=out)
    return out.getvalue()


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    if settings.method != "signal" or threading.current_thread() is not threading.main_thread():
        return None  # pytest-timeout's own timer thread, which dumps every thread's stack

    def stuck(signum: int, frame: FrameType | None) -> None:
        __tracebackhide__ = True
        tasks = _pending_tasks()
        where = f"; the asyncio tasks still waiting:\n{tasks}" if tasks else ""
        pytest.fail(f"Timeout (>{settings.timeout}s) from pytest-timeout: stuck{where}")

    def cancel() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    item.cancel_timeout = cancel  # type: ignore[attr-defined]  # pytest-timeout's cancel calls it
    signal.signal(signal.SIGALRM, stuck)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    return True
