"""`/nauticus rules`: every rule of the project's rules page is summarised, each reply fits."""

from __future__ import annotations

import re

import pytest

from bot.games.nauticus.rules_digest import TOPICS, digest

# The rule ids of the rules page (N-MOVES is design, not a rule); a new rule must be added here
# and to the digest.
RULE_IDS = (
    [f"N-SETUP-{i}" for i in range(1, 8)]
    + [f"N-BOARD-{i}" for i in range(1, 6)]
    + [f"N-ROUND-{i}" for i in range(1, 7)]
    + [f"N-ACT-{i}" for i in range(1, 4)]
    + [f"N-BUY-{i}" for i in range(1, 6)]
    + ["N-TRANS-1", "N-MONEY-1", "N-DELIV-1", "N-CROWN-1", "N-GOLD-1", "N-GOLD-2"]
    + [f"N-YARD-{i}" for i in range(1, 8)]
    + ["N-REW-1", "N-REW-2"]
    + [f"N-EXTRA-{i}" for i in range(1, 4)]
    + [f"N-END-{i}" for i in range(1, 6)]
)


def test_every_rule_is_summarised_exactly_once() -> None:
    found = [rid for _, text in TOPICS.values() for rid in re.findall(r"N-[A-Z]+-\d+", text)]
    assert sorted(found) == sorted(RULE_IDS)


@pytest.mark.parametrize("topic", [None, "", "nonsense", *TOPICS])
def test_every_reply_fits_one_discord_message(topic: str | None) -> None:
    assert 0 < len(digest(topic)) < 2000


def test_topics_are_the_ones_promised() -> None:
    assert list(TOPICS) == [
        "setup", "board", "round", "actions", "buying", "storage", "ships", "rewards",
        "extra", "scoring",
    ]  # fmt: skip
    assert "N-YARD-5" in digest(" Ships ")
    assert digest("nonsense").startswith("There is no topic 'nonsense'")
    assert all(f"`{t}`" in digest() for t in TOPICS)
