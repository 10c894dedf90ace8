"""Slash-command calls <-> engine moves: every legal move is exactly one call, autocomplete offers
only legal values."""

from __future__ import annotations

import json
import re

import pytest

from bot.games.nauticus import moves_map as mm
from engine.nauticus import apply, legal_moves, new_game
from tests.bot.test_discord_support import sample_states

STATES = sample_states(games=6)


def _key(move: dict[str, object]) -> str:
    return json.dumps(move, sort_keys=True)


def test_every_legal_move_is_exactly_one_command_call() -> None:
    checked = 0
    for state, seat in STATES:
        calls: dict[mm.Call, str] = {}
        for move in legal_moves(state, seat):
            call = mm.to_call(move)
            assert call.command in mm.BY_NAME
            assert mm.from_call(call.command, dict(call.options)) == move
            # A second legal move mapping to the same call would make one of them unreachable.
            assert calls.setdefault(call, _key(move)) == _key(move), call.text()
            checked += 1
    assert checked > 5000


def test_every_move_type_has_a_command_and_every_command_a_move_type() -> None:
    from engine.nauticus.rules import MOVE_TYPES

    assert set(mm.BY_MOVE_TYPE) == set(MOVE_TYPES)
    seen = {mm.to_call(m).command for s, seat in STATES for m in legal_moves(s, seat)}
    assert seen == set(mm.BY_NAME)


def test_autocomplete_offers_each_option_value_of_each_legal_move() -> None:
    for state, seat in STATES[::3]:
        for move in legal_moves(state, seat):
            call = mm.to_call(move)
            opts = dict(call.options)
            for name, value in call.options:
                others = {k: v for k, v in opts.items() if k != name}
                offered = mm.suggest(state, seat, call.command, name, str(value), others)
                assert value in [s.value for s in offered], (call.text(), name)
                assert len(offered) <= 25
                assert all(len(s.name) <= 100 for s in offered)


def test_autocomplete_is_filtered_by_what_was_typed_and_by_other_options() -> None:
    state = new_game(3, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 5})  # hulls, bonus a good
    state, _ = apply(state, 0, {"type": "take_bonus", "item": "fish"})
    every = mm.suggest(state, 0, "buy", "item", "")
    assert [s.value for s in every] == ["bow", "middle", "stern", "one_ship"]
    assert [s.value for s in mm.suggest(state, 0, "buy", "item", "ster")] == ["stern"]
    # A bow costs 0 on space 5 (N-BUY-3): free, so storage is its only destination.
    to_bow = mm.suggest(state, 0, "buy", "to", "", {"item": "bow"})
    assert [s.value for s in to_bow] == ["storage"]
    to = mm.suggest(state, 0, "buy", "to", "", {"item": "one_ship"})
    assert [s.value for s in to] == ["storage", "new"]
    assert "Storage (1/12 used" in to[0].name
    # Nothing is offered for commands that make no legal move now.
    assert mm.suggest(state, 0, "deliver", "ship", "") == []
    assert mm.suggest(state, 1, "buy", "item", "") == []


def test_autocomplete_never_offers_more_than_25() -> None:
    state = new_game(2, 3)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 0})  # +3 workers bonus
    from dataclasses import replace

    rich = replace(state.players[0], workers=40)
    state = replace(state, players=(rich, *state.players[1:]))
    # Any action through the extra action: Money with 2 + 40 workers = 42 counts.
    state, _ = apply(state, 0, {"type": "extra", "action": "money"})
    counts = [m for m in legal_moves(state, 0) if m["type"] == "money"]
    assert len(counts) == 42
    offered = mm.suggest(state, 0, "money", "workers", "")
    assert len(offered) == 25
    typed = mm.suggest(state, 0, "money", "workers", "42")
    # The exact value first; "21 workers → 42 taler" matches the words too.
    assert [s.value for s in typed] == [42, 21]


@pytest.mark.parametrize(
    ("command", "options", "move"),
    [
        (
            "buy",
            {"item": "Helm mast", "to": "ship 2 tile 3"},
            {"type": "buy", "item": "mast_helm", "to": {"ship": 1, "tile": 2}},
        ),
        (
            "buy",
            {"item": "one-ship", "to": "New"},
            {"type": "buy", "item": "one_ship", "to": {"ship": "new"}},
        ),
        (
            "transport",
            {"item": "Anchor ship sail", "to": "#1 front"},
            {"type": "transport", "item": "sail_anchor_ship", "to": {"ship": 0, "end": "front"}},
        ),
        (
            "reward",
            {"kind": "2 different goods", "goods": "fish + salt"},
            {"type": "reward", "kind": "goods", "goods": ["fish", "salt"]},
        ),
        ("reward", {"kind": "Crown mast"}, {"type": "reward", "kind": "crown_mast"}),
        ("deliver", {"ship": 3}, {"type": "deliver", "ship": 2}),
        ("extra", {"action": "Deliver"}, {"type": "extra", "action": "deliver"}),
        ("end-turn", {"confirm": True}, {"type": "end_turn"}),
    ],
)
def test_typed_values_are_read_leniently(
    command: str, options: dict[str, object], move: dict[str, object]
) -> None:
    assert mm.from_call(command, options) == move


@pytest.mark.parametrize(
    ("command", "options", "needle"),
    [
        ("buy", {"item": "rowboat", "to": "storage"}, "not an item"),
        ("buy", {"item": "bow", "to": "the moon"}, "ship2-back"),
        ("buy", {"item": "bow"}, "'to' is required"),
        ("reward", {"kind": "goods"}, "goods:fish+salt"),
        ("reward", {"kind": "goods", "goods": "fish+gold"}, "not a choice of goods"),
        ("money", {"workers": "lots"}, "whole number"),
        ("fly", {}, "not a move command"),
    ],
)
def test_bad_values_say_what_is_expected(
    command: str, options: dict[str, object], needle: str
) -> None:
    with pytest.raises(mm.BadOption, match=re.escape(needle)):
        mm.from_call(command, options)
