"""The Nauticus engine's shortcuts (issue 22 item 7) against plain restatements of the rules.

The engine caches shipyard destinations and storage units per tuple, parses the menus' own
destination shapes before its general parser, and checks for a finished ship only after a mast
or sail is placed. These tests restate each rule from the Ship and Player fields and compare
over every state of seeded random games, so a shortcut that drifts from the rule fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.nauticus import IllegalMove, apply, data, legal_moves, new_game, rules, to_json
from engine.nauticus.state import Player, Ship, State, Turn


def _states(games: int, players: int = 4) -> list[State]:
    out: list[State] = []
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = new_game(players, seed)
        while state.step != "over":
            out.append(state)
            seat = state.current
            assert seat is not None
            state, _ = apply(state, seat, rng.choice(legal_moves(state, seat)))
    return out


def _reference_dests(ships: tuple[Ship, ...], item: str) -> list[Any]:
    """N-YARD-1..7 read from the Ship properties, as the menus must offer them."""
    out: list[Any] = []
    if item in data.HULLS:
        out.append({"ship": "new"})
        if item == "one_ship":
            return out
        for i, s in enumerate(ships):
            middle_ok = item != "middle" or s.middles < data.MAX_MIDDLES
            if item in ("bow", "middle") and s.front_open and middle_ok:
                out.append({"ship": i, "end": "front"})
            if item in ("stern", "middle") and s.back_open and middle_ok:
                out.append({"ship": i, "end": "back"})
        return out
    for i, s in enumerate(ships):
        for j in range(s.size):
            if item.startswith(("mast_", "sail_")):
                crest = item[5:]
                if crest != data.CROWN and s.crest not in (None, crest):
                    continue
                if item.startswith("mast_") and s.masts[j] is None:
                    out.append({"ship": i, "tile": j})
                if item.startswith("sail_") and s.masts[j] is not None and s.sails[j] is None:
                    out.append({"ship": i, "tile": j})
            elif s.goods[j] is None:
                out.append({"ship": i, "tile": j})
    return out


def test_shipyard_destinations_match_the_rules_in_every_state() -> None:
    checked = 0
    for state in _states(3)[::3]:
        for player in state.players:
            for item in data.ITEMS:
                # Twice: the second answer comes from the cache the first one filled.
                for _ in range(2):
                    assert rules.shipyard_destinations(player, item) == _reference_dests(
                        player.ships, item
                    ), (player.ships, item)
                checked += 1
    assert checked > 5000


def test_storage_units_match_the_item_table_after_every_change() -> None:
    for state in _states(2):
        for player in state.players:
            expected = sum(data.item_units(item) for item in player.storage)
            assert player.storage_used == expected
            assert rules._units(player.storage) == expected


def test_damaged_storage_still_counts_one_unit_per_unknown_item() -> None:
    storage = ("mast_whale", "no_such_item")
    assert rules._units(storage) == 2 + data.item_units("no_such_item")


@pytest.mark.parametrize(
    ("value", "item", "parsed"),
    [
        ({"ship": 0, "tile": 1}, "coffee", ("tile", 0, 1)),
        ({"tile": 1, "ship": 2}, "mast_helm", ("tile", 2, 1)),
        ({"ship": 1, "end": "front"}, "bow", ("end", 1, "front")),
        ({"ship": 0, "end": "back"}, "middle", ("end", 0, "back")),
        ({"ship": "new"}, "stern", ("new",)),
        ("storage", "salt", ("storage",)),
    ],
)
def test_menu_shaped_destinations_parse(value: Any, item: str, parsed: Any) -> None:
    assert rules._parse_dest(value, item) == parsed


@pytest.mark.parametrize(
    ("value", "item"),
    [
        ({"ship": True, "tile": 0}, "coffee"),  # a bool is not a ship number
        ({"ship": 0, "tile": "0"}, "coffee"),
        ({"ship": 0, "end": "front"}, "coffee"),  # a good goes on a tile, not an end
        ({"ship": 0, "tile": 0}, "bow"),  # a hull goes at an end, not on a tile
        ({"ship": 0, "end": "middle"}, "bow"),
        ({"ship": 0, "tile": 0, "end": "front"}, "bow"),
        ({"ship": "new"}, "coffee"),
        ({"ship": 0}, "coffee"),
    ],
)
def test_misshapen_destinations_are_refused(value: Any, item: str) -> None:
    with pytest.raises(IllegalMove) as err:
        rules._parse_dest(value, item)
    assert err.value.code == "bad_destination"


def _finished_ship_events(state: State) -> int:
    """Every ShipFinished event must come with a ship that just became finished."""
    count = 0
    rng = random.Random(state.seed)
    while state.step != "over":
        seat = state.current
        assert seat is not None
        before: Player = state.players[seat]
        state, events = apply(state, seat, rng.choice(legal_moves(state, seat)))
        after = state.players[seat]
        for e in events:
            if e.kind == "ship_finished":
                i = e.to_dict()["ship"]
                assert after.ships[i].finished
                assert i >= len(before.ships) or not before.ships[i].finished
                count += 1
        newly = [
            i
            for i, s in enumerate(after.ships)
            if s.finished and (i >= len(before.ships) or not before.ships[i].finished)
        ]
        assert len(newly) == sum(e.kind == "ship_finished" for e in events)
    return count


def test_ship_finished_exactly_when_a_ship_becomes_finished() -> None:
    total = sum(_finished_ship_events(new_game(4, seed)) for seed in range(1, 31))
    assert total > 0


def _by_the_handler(state: State, seat: int, move: dict[str, Any]) -> tuple[State, list[Any]]:
    """`move` played through its handler with a context filled as apply fills it, past apply's
    own shortcuts (the end of a turn built without a context)."""
    ctx = rules._Ctx()
    ctx.state = state
    ctx.seat = seat
    ctx.players = state.players
    ctx.supply = state.supply
    ctx.me = state.players[seat]
    ctx.turn = state.turn
    ctx.events = []
    ctx._own_me = False
    ctx._own_turn = False
    return rules._HANDLERS[move["type"]](ctx, move), ctx.events


def test_end_turn_shortcut_gives_the_handlers_state_and_events() -> None:
    # Every state of 3 games where ending the turn is allowed: the ones apply builds directly
    # (a used or passed action, the turn going on to the next seat) and the others.
    checked = 0
    for state in _states(3)[::2]:
        seat = state.current
        if state.step != "turn" or seat is None:
            continue
        if {"type": "end_turn"} not in legal_moves(state, seat):
            continue
        move = {"type": "end_turn"}
        fast, fast_events = apply(state, seat, move)
        slow, slow_events = _by_the_handler(state, seat, move)
        assert fast == slow
        assert to_json(fast) == to_json(slow)
        assert [e.to_dict() for e in fast_events] == [e.to_dict() for e in slow_events]
        checked += 1
    assert checked > 100


def test_fresh_turns_are_shared_and_equal_to_new_ones() -> None:
    for seat in range(data.MAX_PLAYERS):
        for blue in set(data.WHEEL):
            turn = rules._fresh_turn(seat, blue)
            assert turn == Turn(seat, blue)
            assert type(turn) is Turn
            assert rules._fresh_turn(seat, blue) is turn
    # A seat past the table (a damaged save) still gets its turn, built.
    assert rules._fresh_turn(7, 2) == Turn(7, 2)


def test_menus_hand_out_new_dicts_each_time() -> None:
    # The menus copy shared templates: changing one menu's moves, nested places included,
    # must not show in the next menu of the same or any other state.
    states = _states(2)
    kinds: set[str] = set()
    for state in states[::3]:
        seat = state.current
        assert seat is not None
        first = legal_moves(state, seat)
        expected = [
            dict(m, to=dict(m["to"])) if isinstance(m.get("to"), dict) else dict(m) for m in first
        ]
        for m in first:
            kinds.add(m["type"])
            m["spoiled"] = True
            if isinstance(m.get("to"), dict):
                m["to"]["spoiled"] = True
        assert legal_moves(state, seat) == expected
    assert {"buy", "transport", "choose_action", "extra", "money", "crowns"} <= kinds


def test_kinds_in_storage_in_item_order_for_every_storage() -> None:
    for state in _states(2)[::4]:
        for player in state.players:
            expected = sorted(set(player.storage), key=data.ITEM_INDEX.__getitem__)
            assert rules._kinds(player.storage) == expected
            assert rules._kinds(player.storage) == expected  # the cached answer


def test_crest_check_matches_the_ship_property() -> None:
    # The shipyard search's crest test against Ship.crest, on every ship of 3 games and on
    # hand-made ships: crowns only, a sail's crest alone, and a damaged save's mixed crests
    # (the property reads the first regular crest, masts before sails).
    ships = {s for state in _states(3)[::5] for p in state.players for s in p.ships}
    ships |= {
        Ship(("bow", "stern"), ("crown", None), ("crown", None), (None, None)),
        Ship(("bow", "stern"), (None, None), ("helm", None), (None, None)),
        Ship(("bow", "stern"), ("helm", "whale"), (None, "tower"), (None, None)),
        Ship(("one_ship",), (None,), (None,), (None,)),
    }
    checked = 0
    for ship in ships:
        for crest in data.CRESTS:
            if crest == data.CROWN:
                continue
            assert rules._crest_ok(ship, crest) == (ship.crest in (None, crest)), (ship, crest)
            checked += 1
    assert checked > 100


def test_finished_check_matches_the_ship_property() -> None:
    ships = {s for state in _states(3)[::5] for p in state.players for s in p.ships}
    ships |= {
        Ship(("one_ship",), ("helm",), ("helm",), (None,)),  # finished, one tile
        Ship(("bow", "stern"), ("helm", "helm"), ("helm", None), (None, None)),  # a sail short
        Ship(("bow", "middle"), ("helm", "helm"), ("helm", "helm"), (None, None)),  # open back
        Ship(("middle", "stern"), ("helm", "helm"), ("helm", "helm"), (None, None)),  # open front
    }
    finished = [rules._finished(ship) for ship in ships]
    assert finished == [ship.finished for ship in ships]
    assert True in finished and False in finished
