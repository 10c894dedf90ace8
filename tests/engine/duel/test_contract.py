"""engine.duel.RULES satisfies the engine.api.Rules contract (mypy checks the assignment)."""

from __future__ import annotations

import random

from engine import duel
from engine.api import EventLike, Rules, ScoreLike


def test_rules_object_is_the_duel_engine() -> None:
    rules: Rules = duel.RULES
    assert (rules.name, rules.engine_version) == ("duel", "duel-1")
    assert (rules.min_players, rules.max_players) == (2, 2)
    state = rules.new_game(2, 3)
    seat = rules.current(state)
    assert seat is not None and not rules.is_over(state)
    move = rules.legal_moves(state, seat)[0]
    after, events = rules.apply(state, seat, move)
    typed: list[EventLike] = list(events)
    assert typed and all(e.private_to in (None, 0, 1) for e in typed)
    assert rules.from_json(rules.to_json(after)) == after
    scores: list[ScoreLike] = list(rules.final_scores(after))
    assert [s.seat for s in scores] == [0, 1]
    assert rules.view(after, seat)["game"] == "duel"
    assert rules.describe(move, state).startswith("kept one of the two specials")
    same = rules.determinize(after, seat, random.Random(1))
    assert rules.view(same, seat) == rules.view(after, seat)
