"""What the bot writes into its working folder never reaches git; `.env.example` stays tracked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def ignored(path: str) -> bool:
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", path], cwd=REPO, capture_output=True
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 0


@pytest.mark.parametrize(
    "path",
    [
        "nauticus.db.before-restore-20261120T101500Z",  # restore's full copy of the old database
        "data/bot.db.before-restore-20261120T101500Z",
        "nauticus.db.lock",
        "data/nauticus.db.lock",
        ".env",
        ".env.local",
        ".env.production",
        "nauticus.db",
        "nauticus.db-wal",
    ],
)
def test_bot_files_and_secrets_are_ignored(path: str) -> None:
    assert ignored(path)


def test_env_example_stays_tracked() -> None:
    assert not ignored(".env.example")
    listed = subprocess.run(
        ["git", "ls-files", "--error-unmatch", ".env.example"], cwd=REPO, capture_output=True
    )
    assert listed.returncode == 0
