"""`python -m tests.e2e.commit_killer`: `python -m bot run`, killed inside a database COMMIT.

Test-only. The bot SIGKILLs itself while SQLite executes the COMMIT that stores its
`E2E_KILL_AT_MOVE`-th move since start, `E2E_KILL_DELAY_MS` milliseconds (a fraction) after
the COMMIT statement began: so, from one kill to the next, it dies before, while and after
SQLite writes and syncs the write-ahead log. The statement trace runs in aiosqlite's worker
thread (where the COMMIT runs) and starts a timer thread that sends the signal, so the COMMIT
itself is not delayed by the hook. `E2E_KILL_DELAY_MS=after`: it dies as the next statement
starts on that thread, so surely after the COMMIT returned, however slow a busy machine makes
it (the timer's few milliseconds may all pass before the COMMIT ends there).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

from bot import store as store_module
from bot.__main__ import main

KILL_AT = int(os.environ["E2E_KILL_AT_MOVE"])
AFTER = os.environ.get("E2E_KILL_DELAY_MS") == "after"
DELAY = 0.0 if AFTER else float(os.environ.get("E2E_KILL_DELAY_MS", "0")) / 1000


def _kill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _install() -> None:
    seen = {"moves": 0, "in_move": False, "committed": False}

    def trace(sql: str) -> None:
        if seen["committed"]:
            _kill()  # the statement after the killing COMMIT: that COMMIT has returned
        head = sql.strip().upper()
        if head.startswith("INSERT INTO MOVES"):
            seen["in_move"] = True
        elif head == "ROLLBACK":
            seen["in_move"] = False
        elif head == "COMMIT" and seen["in_move"]:
            seen["in_move"] = False
            seen["moves"] += 1
            if seen["moves"] == KILL_AT:
                if AFTER:
                    seen["committed"] = True
                    return
                if DELAY <= 0:
                    _kill()
                threading.Timer(DELAY, _kill).start()

    opened = store_module.Store.open

    async def open_and_trace(path: Any, **kwargs: Any) -> store_module.Store:
        store = await opened(path, **kwargs)
        conn = store._conn
        await conn._execute(conn._conn.set_trace_callback, trace)
        return store

    store_module.Store.open = open_and_trace  # type: ignore[method-assign]


if __name__ == "__main__":
    _install()
    sys.exit(main(["run"]))
