"""Fixtures shared by the bot tests: a real SQLite store in a temporary file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bot.db")
    yield s
    await s.close()
