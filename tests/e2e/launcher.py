"""`python -m tests.e2e.launcher FD`: starts bot processes for the end-to-end tests by `fork`.

A bot process spends about a second of CPU importing discord.py, aiohttp, Pillow and the bot
before it does anything, and the scenarios start 50-odd of them (the crash scenarios restart
the bot after every kill). This process imports all of that once; each start is then a `fork`
of it, which runs `python -m MODULE ARGS` as the interpreter would (`runpy`, as `__main__`), in
the folder and with exactly the environment the test asked for, its stdout and stderr on the
descriptors the test passed. The child is an ordinary process of its own, so SIGKILL, SIGTERM
and exit codes are real; only its parent is this launcher, which reaps it and reports how it
ended. `E2E_FORK=0` starts every bot with `python -m` instead (tests/e2e/harness.py), and the
hosting test starts the real `python -m bot run` either way.

Protocol, on the SOCK_SEQPACKET socket `FD` (one message a packet, JSON):
- request `{"args": [...], "env": {...}, "cwd": "..."}` with two descriptors attached (the
  child's stdout and stderr); answer `{"pid": N}` or `{"error": "..."}`;
- when a child ends: `{"exit": pid, "code": C}` (C as `Popen.returncode` gives it: the exit
  status, or minus the signal that ended it).
The launcher exits when the socket closes (the test process ended), killing any child left.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import traceback
from typing import Any

# What `python -m bot run` and the probe bot import before they do anything: imported here
# once, so a forked start skips it. Only modules whose import reads nothing of the environment
# or the working folder (settings are read by `main`, at run time, in the child).
PRELOAD = (
    "aiohttp",
    "aiosqlite",
    "discord",
    "discord.app_commands",
    "discord.webhook.async_",
    "PIL.Image",
    "bot.config",
    "bot.ops",
    "bot.ai_seats",
    "bot.damage",
    "bot.games",
    "bot.i18n",
    "bot.records",
    "bot.service",
    "bot.store",
    "bot.discord_app.app",
    "bot.discord_app.client",
)


def _run_child(request: dict[str, Any], out_fd: int, err_fd: int) -> int:
    """In the forked child: become `python -m MODULE ARGS`; returns the exit status."""
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd in (out_fd, err_fd, null):
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    args: list[str] = request["args"]
    if len(args) < 2 or args[0] != "-m":
        print(f"launcher: only `-m MODULE ARGS` can be started, not {args!r}", file=sys.stderr)
        return 2
    module = args[1]
    sys.argv = [module, *args[2:]]  # runpy puts the module's file in argv[0]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = stop.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException:  # what the interpreter would print, then status 1
        traceback.print_exc()
        return 1
    return 0


def _fork(
    request: dict[str, Any], fds: list[int], sock: socket.socket, wake: tuple[int, int]
) -> int:
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            # Nothing of the launcher's own plumbing stays in the bot.
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sock.close()
            for fd in wake:
                os.close(fd)
            code = _run_child(request, fds[0], fds[1])
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):  # a closed pipe: the test stopped reading
                    stream.flush()
            os._exit(code)
    return pid


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    for name in PRELOAD:
        importlib.import_module(name)
    # SIGCHLD wakes the loop through a pipe, so children are reaped as they end.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: set[int] = set()
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ, "request")
    selector.register(wake_r, selectors.EVENT_READ, "child")

    def send(message: dict[str, Any]) -> None:
        sock.sendall(json.dumps(message).encode())

    try:
        while True:
            for key, _ in selector.select():
                if key.data == "child":
                    try:
                        while os.read(wake_r, 512):
                            pass
                    except BlockingIOError:
                        pass
                    while children:
                        pid, status = os.waitpid(-1, os.WNOHANG)
                        if pid == 0:
                            break
                        children.discard(pid)
                        send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})
                    continue
                data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 2)
                if not data:
                    return  # the test process is gone
                try:
                    request = json.loads(data)
                    if len(fds) != 2:
                        raise ValueError(f"expected stdout and stderr, got {len(fds)} descriptors")
                    pid = _fork(request, fds, sock, (wake_r, wake_w))
                except Exception as exc:  # the request's fault: say so, stay up for the next
                    send({"error": f"{type(exc).__name__}: {exc}"})
                else:
                    children.add(pid)
                    send({"pid": pid})
                finally:
                    for fd in fds:
                        os.close(fd)
    finally:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
