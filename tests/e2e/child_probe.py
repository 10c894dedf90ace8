"""`python -m tests.e2e.child_probe ARGS`: a stand-in bot for tests/e2e/test_launcher.py.

It prints what a started process should see (its folder, one setting, its arguments, the name
it runs under), then either exits with the status given as its first argument or, given
"wait", waits for a signal (SIGTERM ends it with status 0, as the bot's clean stop does).
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> int:
    print(f"cwd={os.getcwd()}")
    print(f"setting={os.environ.get('PROBE_SETTING', '<unset>')}")
    print(f"leak={os.environ.get('PROBE_LEAK', '<unset>')}")
    print(f"args={sys.argv[1:]}")
    print(f"main={sys.modules['__main__'].__spec__.name}")  # type: ignore[union-attr]
    print("error line", file=sys.stderr)
    if sys.argv[1:2] == ["wait"]:
        # SIGTERM blocked first, then waited for: one sent the moment "WAITING" is read stays
        # pending until `sigwait` takes it. With a handler and `signal.pause()`, a SIGTERM that
        # came between the print and the pause ran the handler's C part only, and the pause
        # then slept past it (the test's 10 s wait for the exit ran out on a busy machine).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        print("WAITING")
        signal.sigwait({signal.SIGTERM})
        return 0
    return int(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
