"""The launcher (tests/e2e/launcher.py) starts a process that is, to the test, the same as one
started with `python -m`: the same output, folder, settings, exit status, and signals."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import World
from tests.e2e.harness import BotProcess, _Launcher


def _probe(world: World, tmp_path: Path, args: list[str], *, fork: bool) -> BotProcess:
    folder = tmp_path / ("forked" if fork else "spawned")
    folder.mkdir()
    return BotProcess(
        world.fake,
        ["-m", "tests.e2e.child_probe", *args],
        {"PROBE_SETTING": "asked"},
        folder / "probe.log",
        fork=fork,
    )


@pytest.mark.parametrize("fork", [True, False])
async def test_a_started_process_sees_its_folder_settings_and_arguments(
    world: World, tmp_path: Path, fork: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROBE_LEAK", "from the test process")  # inherited, as with `python -m`
    bot = _probe(world, tmp_path, ["3", "two words"], fork=fork)
    await bot.start()
    assert await bot.proc.wait() == 3  # type: ignore[union-attr]
    await bot.kill()  # reaps and drains stdout
    assert bot.lines == [
        f"cwd={bot.cwd}",
        "setting=asked",
        "leak=from the test process",
        "args=['3', 'two words']",
        "main=tests.e2e.child_probe",
    ]
    assert bot.log_path.read_text() == "error line\n"
    assert not bot.running


@pytest.mark.parametrize("fork", [True, False])
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGKILL, -9), (signal.SIGTERM, 0)])
async def test_signals_reach_the_process_and_its_status_is_reported(
    world: World, tmp_path: Path, fork: bool, sig: int, status: int
) -> None:
    bot = _probe(world, tmp_path, ["wait"], fork=fork)
    await bot.start()
    await bot.wait_line("WAITING")
    assert bot.running
    assert await bot.kill(sig) == status
    assert not bot.running
    assert bot.proc is not None and bot.proc.returncode == status


async def test_forked_processes_get_new_process_ids(world: World, tmp_path: Path) -> None:
    first = _probe(world, tmp_path, ["0"], fork=True)
    await first.start()
    again = BotProcess(world.fake, first.args, first.env, tmp_path / "again.log", fork=True)
    await again.start()
    assert first.proc is not None and again.proc is not None
    assert await first.proc.wait() == 0 and await again.proc.wait() == 0
    assert os.getpid() not in (first.proc.pid, again.proc.pid)
    assert first.proc.pid != again.proc.pid


class _AnswerAfterExit(queue.Queue[dict[str, Any]]):
    """The launcher's answer queue, handing the answer over only once the reader thread has
    recorded the exit of `pid`: the order a busy machine may give the two threads."""

    def __init__(self, launcher: _Launcher, pid: int) -> None:
        super().__init__()
        self.launcher, self.pid = launcher, pid

    def get(self, block: bool = True, timeout: float | None = None) -> dict[str, Any]:
        with self.launcher._state:
            assert self.launcher._state.wait_for(lambda: self.pid in self.launcher.exits, 60)
        return super().get(block, timeout)


def _play_launcher(sock: socket.socket, *messages: dict[str, Any]) -> None:
    """The launcher's side: take one start request (closing the descriptors it carries) and
    send `messages` back, one packet each."""
    data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 2)
    assert json.loads(data)["args"] == ["-m", "quick"] and len(fds) == 2
    for fd in fds:
        os.close(fd)
    for message in messages:
        sock.sendall(json.dumps(message).encode())


def _spawn(launcher: _Launcher, ours: socket.socket, *messages: dict[str, Any]) -> int:
    out, err = os.pipe()
    try:
        with ThreadPoolExecutor(1) as pool:
            started = pool.submit(launcher.spawn, ["-m", "quick"], {}, Path("."), out, err)
            _play_launcher(ours, *messages)
            return started.result(timeout=60)
    finally:
        os.close(out)
        os.close(err)


def test_a_child_that_ends_before_its_start_is_answered_keeps_its_exit_status() -> None:
    # The race behind a hung run: the reader thread recorded the quick child's exit before the
    # spawning thread took the answer, and `spawn` then dropped that status as a reused pid's.
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    launcher = _Launcher(theirs, None)
    try:
        launcher._answers = _AnswerAfterExit(launcher, 4242)
        pid = _spawn(launcher, ours, {"pid": 4242}, {"exit": 4242, "code": 7})
        assert pid == 4242
        assert launcher.wait_sync(pid, 60) == 7
    finally:
        launcher.close()
        ours.close()


def test_an_earlier_childs_status_under_a_reused_pid_is_not_taken_for_the_new_ones() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    launcher = _Launcher(theirs, None)
    try:
        ours.sendall(json.dumps({"exit": 4242, "code": 1}).encode())  # the pid's first child
        with launcher._state:
            assert launcher._state.wait_for(lambda: launcher.exits.get(4242) == 1, 60)
        assert _spawn(launcher, ours, {"pid": 4242}) == 4242
        assert launcher.exits == {}  # dropped when the answer was read, before anyone waits
        ended = threading.Timer(0.2, ours.sendall, [json.dumps({"exit": 4242, "code": 0}).encode()])
        ended.start()
        assert launcher.wait_sync(4242, 60) == 0
        ended.join()
    finally:
        launcher.close()
        ours.close()
