"""The private panel model: every legal move is reachable through it, within Discord's limits."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.discord_app import panel
from engine.nauticus import State, apply, legal_moves, new_game
from engine.nauticus.state import Ship
from tests.bot.nauticus_kit import PLUGIN, seen_of
from tests.bot.test_discord_support import sample_states


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def reachable(state: State, seat: int) -> dict[str, int]:
    """Walk every select option and button of the panel from its main menu, as a player could,
    and count how many click paths end in each move."""
    found: dict[str, int] = {}
    todo = [panel.Selection()]
    seen: set[panel.Selection] = set()
    while todo:
        sel = todo.pop()
        if sel in seen:
            continue
        seen.add(sel)
        built = panel.build(PLUGIN, seen_of(state, seat), sel)
        outcomes: list[panel.Outcome] = []
        for select in built.selects:
            assert 1 <= len(select.options) <= panel.MAX_OPTIONS
            assert len({o.value for o in select.options}) == len(select.options)
            for opt in select.options:
                assert 1 <= len(opt.label) <= 100 and len(opt.value) <= 100
                if select.kind == "what":
                    outcomes.append(
                        panel.on_what(PLUGIN, seen_of(state, seat), int(select.arg), opt.value)
                    )
                else:
                    group, page = select.arg.rsplit("/", 1)
                    outcomes.append(
                        panel.on_then(PLUGIN, seen_of(state, seat), group, int(page), opt.value)
                    )
        for button in built.buttons:
            if button.kind == "b":
                outcomes.append(panel.on_button(PLUGIN, seen_of(state, seat), button.key))
        for out in outcomes:
            if out.move is not None:
                found[_key(out.move)] = found.get(_key(out.move), 0) + 1
            else:
                todo.append(out.selection)
    return found


def test_every_legal_move_is_reachable_from_the_panel_on_playout_states() -> None:
    total = 0
    for state, seat in sample_states():
        legal = {_key(m) for m in legal_moves(state, seat)}
        found = reachable(state, seat)
        assert set(found) == legal
        total += len(legal)
    assert total > 5000


def _masts_state(ships: int) -> State:
    """Masts on space 0 with `ships` closed 4-tile hulls without masts: 4 × ships places per
    mast, far more than one select menu holds."""
    state = new_game(3, 1)
    assert state.tiles[0] == "masts"
    state, _ = apply(state, 0, {"type": "choose_action", "space": 0})
    hull = Ship(("bow", "middle", "middle", "stern"), (None,) * 4, (None,) * 4, (None,) * 4)
    me = replace(state.players[0], ships=(hull,) * ships, workers=30, taler=40)
    return replace(state, players=(me, *state.players[1:]))


def test_more_than_25_destinations_are_paged_and_all_reachable() -> None:
    state = _masts_state(9)
    whale = [m for m in legal_moves(state, 0) if m.get("item") == "mast_whale"]
    assert len(whale) == 37  # storage + 36 tiles
    found = reachable(state, 0)
    assert set(found) == {_key(m) for m in legal_moves(state, 0)}
    first = panel.build(PLUGIN, seen_of(state, 0), panel.Selection(group="buy.mast_whale"))
    then = first.selects[1]
    assert len(then.options) == panel.PAGE_SIZE + 1
    assert then.options[-1].value == "page:1" and "More options" in then.options[-1].label
    second = panel.on_then(PLUGIN, seen_of(state, 0), "buy.mast_whale", 0, "page:1")
    page2 = panel.build(PLUGIN, seen_of(state, 0), second.selection).selects[1]
    assert page2.options[0].value == "page:0"
    assert page2.options[-1].label.startswith("Ship #9")


def test_first_line_shows_the_resources() -> None:
    state = new_game(3, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 5})  # 1 worker + 1 good bonus
    text = panel.build(PLUGIN, seen_of(state, 0)).text.splitlines()
    assert text[0] == (
        "5 workers (+2 blue) · 15 taler · 0 crowns · storage 0/12 · 10 VP · extra action ready"
    )
    assert "choose the tile of your bonus" in text[1]


def test_labels_name_the_cost_and_the_destination_words() -> None:
    state = new_game(3, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 5})  # hulls on space 5
    state, _ = apply(state, 0, {"type": "take_bonus", "item": "fish"})
    built = panel.build(PLUGIN, seen_of(state, 0))
    labels = [o.label for o in built.selects[0].options]
    assert "Buy middle — 1 taler, 1 worker" in labels
    assert "Buy bow — 0 taler, 1 worker (free: to storage)" in labels
    assert [b.label for b in built.buttons] == ["Pass", "Extra action", "End turn"]
    state, _ = apply(state, 0, {"type": "buy", "item": "middle", "to": {"ship": "new"}})
    again = panel.build(PLUGIN, seen_of(state, 0), panel.Selection(group="buy.middle"))
    assert "Buy another middle — 4 taler, 1 worker" in [o.label for o in again.selects[0].options]
    dests = [o.label for o in again.selects[1].options]
    assert dests == [
        "Storage (1/12 used, needs 1)",
        "New ship",
        "Ship #1 (…middle…) — add at the front",
        "Ship #1 (…middle…) — add at the back",
    ]


def test_confirmation_panel_offers_yes_and_back_only() -> None:
    state = new_game(2, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 0})
    built = panel.build(
        PLUGIN,
        seen_of(state, 0),
        panel.Selection(confirm="end_turn", reason="You have 1 unused blue worker."),
    )
    assert "unused blue worker" in built.text
    assert built.selects == ()
    assert [(b.kind, b.key) for b in built.buttons] == [("ok", "end_turn"), ("b", "back")]


def test_extra_action_button_opens_the_action_choice() -> None:
    state = new_game(2, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 0})
    out = panel.on_button(PLUGIN, seen_of(state, 0), "extra")
    assert out.move is None
    built = panel.build(PLUGIN, seen_of(state, 0), out.selection)
    assert [o.label for o in built.selects[-1].options][:2] == ["Hulls", "Masts"]


def test_not_your_turn_panel_has_no_controls() -> None:
    state = new_game(2, 1)
    built = panel.build(PLUGIN, seen_of(state, 1))
    assert built.selects == () and built.buttons == ()
    assert "not your turn" in built.text


@pytest.mark.parametrize("value", ["choose.99", "m:0", "page:x", ""])
def test_unknown_clicks_are_refused(value: str) -> None:
    state = new_game(2, 1)
    with pytest.raises(panel.PanelError):
        panel.on_what(PLUGIN, seen_of(state, 0), 0, value)
    with pytest.raises(panel.PanelError):
        panel.on_then(PLUGIN, seen_of(state, 0), "buy.bow", 0, value)
    with pytest.raises(panel.PanelError):
        panel.on_button(PLUGIN, seen_of(state, 0), "pass")


def test_a_single_worker_count_is_named_exactly_since_choosing_it_plays_it() -> None:
    state = new_game(2, 1)
    state, _ = apply(state, 0, {"type": "choose_action", "space": 1})  # Money, bonus a mast
    state, _ = apply(state, 0, {"type": "take_bonus", "item": "mast_whale"})
    poor = replace(state.players[0], workers=0)
    state = replace(state, players=(poor, *state.players[1:]))  # only the 1 blue worker left
    (group,) = [g for g in panel.groups(PLUGIN, seen_of(state, 0)).values() if g.key == "money"]
    assert group.label == "Money: 1 worker → 2 taler"
    assert panel.on_what(PLUGIN, seen_of(state, 0), 0, "money").move == {
        "type": "money",
        "workers": 1,
    }
