"""The engine contract: `RULES` is an `engine.api.Rules` (mypy checks this file), module-level
functions match it, and events carry `private_to`."""

from __future__ import annotations

import random
from dataclasses import fields

from engine import island
from engine.api import EventLike, Rules, ScoreLike
from engine.island import events

RULES: Rules = island.RULES  # mypy --strict proves the conformance


def test_rules_object_names_and_limits() -> None:
    assert (RULES.name, RULES.engine_version) == ("island", "island-2")
    assert (RULES.min_players, RULES.max_players) == (2, 4)
    assert island.ENGINE_VERSION == "island-2"


def test_rules_object_and_module_functions_agree() -> None:
    state = RULES.new_game(3, 5)
    assert state == island.new_game(3, 5)
    seat = RULES.current(state)
    assert seat is not None and seat == island.current(state)
    assert not RULES.is_over(state) and not island.is_over(state)
    moves = RULES.legal_moves(state, seat)
    assert moves == island.legal_moves(state, seat)
    new, evs = RULES.apply(state, seat, moves[0])
    assert (new, list(evs)) == island.apply(state, seat, moves[0])
    assert RULES.view(new) == island.view(new) == island.view(new, None)
    assert RULES.view(new, 1) == island.view(new, 1)
    assert RULES.from_json(RULES.to_json(new)) == new
    assert RULES.describe(moves[0], state) == island.describe(moves[0], state)
    scores: list[ScoreLike] = list(RULES.final_scores(new))
    assert [s.seat for s in scores] == [0, 1, 2] and all(s.rank >= 1 for s in scores)
    assert RULES.determinize(new, 0, random.Random(1)) == island.determinize(
        new, 0, random.Random(1)
    )


def test_every_event_has_private_to_keyword_only_and_public_by_default() -> None:
    for cls in events.EVENT_TYPES:
        f = {x.name: x for x in fields(cls)}
        assert f["private_to"].kw_only and f["private_to"].default is None
    e: EventLike = events.PawnPlaced(0, 2, "above")
    assert e.private_to is None and e.to_dict()["kind"] == "pawn_placed"
    drawn = events.CardDrawn(1, 2, 3, "food:ham:1", private_to=1)
    assert drawn.private_to == 1 and drawn.to_dict()["private_to"] == 1
