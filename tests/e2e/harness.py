"""Running a bot process against the fake: start, read its output, kill it (SIGKILL included)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
# The bot's own settings: each run sets what it needs, nothing comes from the developer's shell.
INHERIT_NEVER = {"DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"}


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
    ) -> None:
        self.fake = fake
        self.args = args
        self.env = env
        self.log_path = log_path
        # Not the repository: a developer's .env there must not leak a real token or guild in.
        self.cwd = cwd or log_path.parent
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
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
