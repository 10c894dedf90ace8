"""Running a bot process against the fake: start, read its output, kill it (SIGKILL included).

A bot is started as a fork of the launcher (tests/e2e/launcher.py), which has discord.py and the
bot imported already, or with `python -m` when `fork=False` or `E2E_FORK=0`: the process, its
signals, exit status, stdout and stderr are the same either way.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import locale
import os
import queue
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.e2e.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
# The bot's own settings: each run sets what it needs, nothing comes from the developer's shell.
INHERIT_NEVER = {"DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"}


class _Launcher:
    """The test process's one launcher: a `python -m tests.e2e.launcher` child and the thread
    that reads its answers and the exit statuses of the bots it forked."""

    _one: _Launcher | None = None
    _guard = threading.Lock()

    @classmethod
    def get(cls) -> _Launcher:
        with cls._guard:
            if cls._one is None or cls._one.gone:
                cls._one = cls._start()
            return cls._one

    @classmethod
    def _start(cls) -> _Launcher:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.launcher", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            env=env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        return cls(mine, proc)

    def __init__(self, sock: socket.socket, proc: subprocess.Popen[bytes] | None) -> None:
        """`sock` speaks the launcher's protocol; `proc` is the launcher process, reaped on
        close (None when a test plays the launcher's side of the socket itself)."""
        self.proc = proc
        self.sock = sock
        self.gone = False
        self._answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self._ask = threading.Lock()  # one request and its answer at a time
        self._state = threading.Condition()
        self.exits: dict[int, int] = {}
        self._waiters: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]]] = {}
        threading.Thread(target=self._read, name="e2e-launcher", daemon=True).start()
        atexit.register(self.close)

    def close(self) -> None:
        """End the launcher (it kills any bot left) and reap it, so its CPU time and its
        children's count in this process's, as a `python -m` bot's did."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader thread too
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(1 << 20)
            except OSError:
                data = b""
            if not data:
                break
            message = json.loads(data)
            if "exit" not in message:
                if "pid" in message:
                    # A status kept under this pid is an earlier child's (pids are reused). It
                    # is dropped here, in socket order: the launcher answers before it can reap
                    # the new child, so that child's own exit is the next status read for the
                    # pid. Dropping it in `spawn` instead, once the answer was taken from the
                    # queue, raced this thread: a child that ended at once had its status
                    # recorded first and then dropped, and whoever waited for it waited forever.
                    with self._state:
                        self.exits.pop(message["pid"], None)
                self._answers.put(message)
                continue
            with self._state:
                self.exits[message["exit"]] = message["code"]
                waiters = self._waiters.pop(message["exit"], [])
                self._state.notify_all()
            for loop, future in waiters:
                loop.call_soon_threadsafe(_settle, future, message["code"])
        with self._state:
            self.gone = True
            waiters = [w for ws in self._waiters.values() for w in ws]
            self._waiters.clear()
            self._state.notify_all()
        self._answers.put({"error": "the launcher exited"})
        for loop, future in waiters:
            loop.call_soon_threadsafe(_fail, future, "the launcher exited")

    def spawn(self, args: list[str], env: dict[str, str], cwd: Path, out: int, err: int) -> int:
        """Blocking (call it in a thread): fork a child running `args`; its pid."""
        request = json.dumps({"args": args, "env": env, "cwd": str(cwd)}).encode()
        with self._ask:
            socket.send_fds(self.sock, [request], [out, err])
            answer = self._answers.get(timeout=120)
        if "error" in answer:
            raise RuntimeError(f"the launcher could not start {args}: {answer['error']}")
        pid: int = answer["pid"]
        return pid

    def wait_sync(self, pid: int, timeout: float) -> int | None:
        """Blocking: the exit status of `pid`, or None if it has not ended within `timeout`."""
        with self._state:
            self._state.wait_for(lambda: pid in self.exits or self.gone, timeout)
            if pid not in self.exits and self.gone:
                raise RuntimeError("the launcher exited")
            return self.exits.get(pid)

    async def wait(self, pid: int) -> int:
        loop = asyncio.get_running_loop()
        with self._state:
            if pid in self.exits:
                return self.exits[pid]
            if self.gone:
                raise RuntimeError("the launcher exited")
            future: asyncio.Future[int] = loop.create_future()
            self._waiters.setdefault(pid, []).append((loop, future))
        return await future


def _settle(future: asyncio.Future[int], code: int) -> None:
    if not future.done():
        future.set_result(code)


def _fail(future: asyncio.Future[int], why: str) -> None:
    if not future.done():
        future.set_exception(RuntimeError(why))


class _Forked:
    """What BotProcess uses of `asyncio.subprocess.Process`, for a child of the launcher."""

    def __init__(self, launcher: _Launcher, pid: int, stdout: asyncio.StreamReader) -> None:
        self._launcher = launcher
        self.pid = pid
        self.stdout = stdout

    @property
    def returncode(self) -> int | None:
        return self._launcher.exits.get(self.pid)

    async def wait(self) -> int:
        return await self._launcher.wait(self.pid)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            # It may have ended an instant ago: its status is on its way.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def run_module(
    args: list[str], *, cwd: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([python, *args], capture_output=True, text=True)` for `args` =
    ["-m", MODULE, ...], the process forked by the launcher (or spawned with `E2E_FORK=0`).
    Raises `subprocess.TimeoutExpired` (the process killed) as `subprocess.run` does."""
    command = [sys.executable, *args]
    if os.environ.get("E2E_FORK", "1") == "0":
        return subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
        )
    launcher = _Launcher.get()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        pid = launcher.spawn(args, env, cwd, out_w, err_w)
    except BaseException:
        os.close(out_r)
        os.close(err_r)
        raise
    finally:
        os.close(out_w)
        os.close(err_w)
    deadline = time.monotonic() + timeout
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            ready = selector.select(left) if left > 0 else []
            if not ready:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                for fd in chunks:
                    os.close(fd)
                raise subprocess.TimeoutExpired(command, timeout)
            for key, _ in ready:
                data = os.read(key.fd, 1 << 16)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
    for fd in chunks:
        os.close(fd)
    code = launcher.wait_sync(pid, max(0.0, deadline - time.monotonic()) + 5.0)
    if code is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        raise subprocess.TimeoutExpired(command, timeout)

    def text(raw: list[bytes]) -> str:  # what text=True gives: locale encoding, \n newlines
        decoded = b"".join(raw).decode(locale.getpreferredencoding(False))
        return decoded.replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess(command, code, text(chunks[out_r]), text(chunks[err_r]))


class BotProcess:
    """A bot subprocess whose stdout lines are collected; stderr goes to a log file."""

    def __init__(
        self,
        fake: FakeDiscord,
        args: list[str],
        env: dict[str, str],
        log_path: Path,
        *,
        cwd: Path | None = None,
        fork: bool = True,
    ) -> None:
        self.fake = fake
        self.args = args
        self.env = env
        self.log_path = log_path
        # Not the repository: a developer's .env there must not leak a real token or guild in.
        self.cwd = cwd or log_path.parent
        self.fork = fork and os.environ.get("E2E_FORK", "1") != "0"
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | _Forked | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DISCORD_", "NAUTICUS_")) and key not in INHERIT_NEVER
        }
        env.update(self.env, DISCORD_API_BASE=self.fake.api_base, PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        log = self.log_path.open("ab")
        if self.fork:
            try:
                self.proc = await self._fork(env, log.fileno())
            finally:
                log.close()
            self._reader = asyncio.create_task(self._read())
            return
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.args,
                cwd=self.cwd,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
            )
        finally:
            log.close()
        self._reader = asyncio.create_task(self._read())

    async def _fork(self, env: dict[str, str], err: int) -> _Forked:
        launcher = _Launcher.get()
        read_end, write_end = os.pipe()
        try:
            pid = await asyncio.to_thread(launcher.spawn, self.args, env, self.cwd, write_end, err)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)  # the child has its own copy: EOF comes when it ends
        loop = asyncio.get_running_loop()
        stdout = asyncio.StreamReader()
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stdout), os.fdopen(read_end, "rb", buffering=0)
        )
        return _Forked(launcher, pid, stdout)

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))
            self.fake._notify()
        self.fake._notify()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def wait_line(self, text: str, *, timeout: float = 10.0, count: int = 1) -> None:
        """Until `text` has appeared on `count` stdout lines."""

        def seen() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                raise AssertionError(f"bot exited with {self.proc.returncode}:\n{self.log()}")
            return sum(text in line for line in self.lines) >= count

        await self.fake.wait_for(seen, timeout=timeout, what=f"bot output {text!r}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except FileNotFoundError:
            return ""

    async def kill(self, sig: int = signal.SIGKILL) -> int:
        """Send `sig` and reap the process; returns its exit status."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        code = await asyncio.wait_for(self.proc.wait(), 10)
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 10)
        return code

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            await self.kill()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)
