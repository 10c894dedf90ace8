"""The differential secrets audit over whole seeded games (see `tests/platform/audit.py`): every
game with secrets, both languages, random and AI seats; and two planted leaks it must catch."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.games import GAMES
from engine import ai
from tests.platform.audit import Audit, Leak, audit_game

SECRET_GAMES = [("island", 3), ("duel", 2), ("gems", 2)]
TOTALS: Counter[str] = Counter()


pytestmark = pytest.mark.usefixtures("gems_installed")


def ai_seats(kind: str) -> Any:
    """A robot at the easiest level plays every seat (its own view only, as on the platform)."""
    rules = GAMES.get(kind).rules

    def choose(state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        return dict(ai.choose(rules, state, seat, level="easy", seed=rng.randrange(1 << 30)))

    return choose


SURFACES_TABLE = {
    "status line",
    "must decide (ping, reminder, skip prompt)",
    "turn ping",
    "phase post",
    "board pictures",
    "log line",
    "done line",
    "export (public view)",
}
SURFACES_SEAT = {"panel header", "panel menus", "hand text", "autocomplete", "refusals"}


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize(("kind", "players"), SECRET_GAMES)
def test_no_output_changes_when_what_its_audience_cannot_see_is_redealt(
    kind: str, players: int, locale: str
) -> None:
    audit = audit_game(GAMES.get(kind), players, seed=21, locale=locale)
    TOTALS.update(audit.checked)
    assert set(audit.checked) >= SURFACES_TABLE | SURFACES_SEAT
    assert audit.checked["final post"] == 2  # the game was played to its end
    assert audit.checked["log line"] > (5 if kind == "gems" else 20)


# Two seats: the three-seat Island table is audited above with random seats; here the robots'
# own path (a decision from the seat's view) is what is checked.
@pytest.mark.usefixtures("cheap_robots")
@pytest.mark.parametrize(("kind", "players"), [("island", 2), ("duel", 2)])
def test_robot_games_leak_nothing_either(kind: str, players: int) -> None:
    audit = audit_game(
        GAMES.get(kind), players, seed=5, locale="fr", choose=ai_seats(kind), pictures=False
    )
    assert audit.checked["final post"] == 2
    assert audit.checked["refusals"] > 50


# --- planted leaks ---------------------------------------------------------------------------


class ShowsOneHand:
    """A plugin whose public view leaks seat 1's hand into a field the board shows."""

    def __init__(self, plugin: Any) -> None:
        self._plugin = plugin
        self.rules = _LeakyRules(plugin.rules)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)


class _LeakyRules:
    def __init__(self, rules: Any) -> None:
        self._rules = rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        out = self._rules.view(state, seat)
        if seat is None and not self._rules.is_over(state):
            me = self._rules.view(state, 0)["me"]
            hand = me.get("hand", me.get("divers"))
            # The hand count the board prints becomes a number made from the hand itself.
            for p in out["players"]:
                key = "hand" if "hand" in p else "divers_in_hand"
                if p["seat"] == 0 and isinstance(p.get(key), int):
                    p[key] = sum(hash(str(c)) % 7 for c in hand)
        return out


def test_a_public_view_that_shows_a_hand_is_caught() -> None:
    plugin = GAMES.get("duel")
    with pytest.raises(Leak, match=r"changed when re-dealt \(move \d+, the table\)"):
        audit_game(ShowsOneHand(plugin), 2, seed=21, pictures=True)  # type: ignore[arg-type]


def test_a_log_line_naming_a_face_down_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = GAMES.get("island")
    rules = plugin.rules
    real = plugin.describe_move

    def naming(move: dict[str, Any], state: Any | None = None) -> str:
        line = real(move, state)
        if state is not None and move.get("type") == "collect":
            # Names the card under the top of the first stack: nobody at the table saw it.
            stacks = [s for s in state.stacks if len(s) > 1]
            if stacks:
                line += f" (under it: {stacks[0][0]})"
        return line

    monkeypatch.setattr(plugin, "describe_move", naming)
    with pytest.raises(Leak, match=r"log line changed when re-dealt"):
        audit_game(plugin, 3, seed=21, pictures=False)
    assert rules is plugin.rules


def test_report_outputs_checked_per_surface() -> None:
    """Printed with -s: the number of comparisons of each surface in the first 40 moves of one
    game each."""
    counts: Counter[str] = Counter()
    for kind, players in SECRET_GAMES:
        audit: Audit = audit_game(GAMES.get(kind), players, seed=3, pictures=False, max_moves=40)
        counts.update(audit.checked)
    print("\n".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    assert counts["refusals"] > 100 and counts["log line"] > 50
