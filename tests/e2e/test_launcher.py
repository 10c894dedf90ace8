"""The launcher (tests/e2e/launcher.py) starts a process that is, to the test, the same as one
started with `python -m`: the same output, folder, settings, exit status, and signals."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.harness import BotProcess


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
