"""Every engine stores its state as the text `json.dumps(to_dict(state), separators=(",", ":"),
sort_keys=True)` wrote; `engine.common.state_json` (one encoder built once) writes that very
text, for the states of whole games of the three engines and for what the stdlib writes its own
way (NaN, infinities, non-ASCII, integer keys)."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from engine import duel, island, nauticus
from engine.common import state_json
from engine.duel import state as duel_state
from engine.island import state as island_state
from engine.nauticus import state as nauticus_state

ENGINES: dict[str, tuple[Any, Any, int]] = {
    "nauticus": (nauticus.RULES, nauticus_state, 4),
    "island": (island.RULES, island_state, 3),
    "duel": (duel.RULES, duel_state, 2),
}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize("kind", ENGINES)
def test_to_json_is_the_stdlib_text_on_every_state_of_a_game(kind: str) -> None:
    rules, module, players = ENGINES[kind]
    rng = random.Random(11)
    state = rules.new_game(players, 11)
    seen = set()
    while True:
        text = rules.to_json(state)
        assert text == _dumps(module.to_dict(state))
        seen.add(text)
        # Read back to the same state, so what is stored still loads.
        assert rules.to_json(rules.from_json(text)) == text
        seat = rules.current(state)
        if seat is None:
            break
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    assert len(seen) > 20  # a whole game: many different states compared


@pytest.mark.parametrize(
    "value",
    [
        {"b": math.nan, "a": [math.inf, -math.inf]},
        {"é": "ship ⚓", "z": "\u2028\x00"},
        {2: "two", 1: None, 3: True},
        [1.5, 10**30, -0.0, {"k": {"j": [], "i": {}}}],
    ],
)
def test_state_json_writes_what_json_dumps_writes(value: Any) -> None:
    assert state_json(value) == _dumps(value)


def test_state_json_refuses_what_json_dumps_refuses() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        state_json({"a": {1, 2}})
    with pytest.raises(TypeError, match="keys must be str"):
        state_json({(1, 2): 0})
