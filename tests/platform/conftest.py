"""The test-only secret game (Gems), installed for the modules that ask for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games import GAMES, load_extra


@pytest.fixture
def gems_installed() -> Iterator[None]:
    added = "gems" not in GAMES.games
    load_extra("tests.platform.secret_game:PLUGIN")
    yield
    if added:
        del GAMES.games["gems"]
