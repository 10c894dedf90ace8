"""N-SETUP and N-BOARD: components, setup, spaces, wheel, tiles and prices."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.nauticus import IllegalMove, apply, data, legal_moves, new_game, view
from tests.engine.rulekit import (
    buy,
    choose,
    game,
    kinds,
    p,
    pass_,
    play,
    set_player,
    set_supply,
    to_storage,
    turn_on,
    with_tile,
)


def test_n_setup_1_players_rounds_and_phases() -> None:
    assert new_game(2, 1).rounds == 4
    assert new_game(3, 1).rounds == 5
    assert new_game(4, 1).rounds == 5
    for bad in (1, 5, 0):
        with pytest.raises(IllegalMove) as exc:
            new_game(bad, 1)
        assert exc.value.code == "bad_players"
    # A 2-player game where everyone passes has exactly 4 rounds of 7 phases.
    state = new_game(2, 3)
    phases = 0
    while state.step != "over":
        seat = state.current
        assert seat is not None
        if state.step == "choose" or state.step == "bonus":
            state, events = apply(state, seat, legal_moves(state, seat)[0])
        else:
            state, events = apply(state, seat, {"type": "end_turn"})
        phases += len(kinds(events, "phase_ended"))
    assert phases == 4 * 7
    assert state.round == 4


def test_n_setup_2_starting_holdings() -> None:
    state = new_game(2, 1)
    a = p(state, 0)
    assert (a.score, a.workers, a.taler, a.extra, a.passes) == (10, 4, 15, True, 0)
    assert a.storage == () and a.ships == () and a.delivered == (0, 0, 0, 0)
    v = view(state)["players"][0]
    assert v["storage"] == {"items": [], "used": 0, "capacity": 12}
    assert [t["value"] for t in v["pass_tiles"]] == [-3, -2, -1]
    assert not any(t["flipped"] for t in v["pass_tiles"])


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, [(15, 4), (16, 4)]),
        (3, [(15, 4), (16, 4), (17, 5)]),
        (4, [(15, 4), (16, 4), (16, 5), (17, 6)]),
    ],
)
def test_n_setup_3_seat_bonuses(players: int, expected: list[tuple[int, int]]) -> None:
    state = new_game(players, 7)
    assert [(pl.taler, pl.workers) for pl in state.players] == expected
    assert state.start == 0
    assert all(pl.score == 10 for pl in state.players)


def test_n_setup_4_supply_counts() -> None:
    supply = view(new_game(3, 1))["supply"]
    assert supply["one_ship"] == 18
    assert supply["bow"] == 18
    assert supply["middle"] == 9
    assert supply["stern"] == 18
    for crest in ("whale", "anchor_ship", "helm", "tower"):
        assert supply[f"mast_{crest}"] == 15
        assert supply[f"sail_{crest}"] == 15
    assert supply["mast_crown"] == 12
    assert supply["sail_crown"] == 12
    for good in ("coffee", "grain", "fish", "salt"):
        assert supply[good] == 12
    assert len(supply) == 18


def test_n_setup_5_empty_stack_cannot_be_bought() -> None:
    state = turn_on(game(), 3, "hulls")
    state = set_supply(state, bow=0)
    assert all(m.get("item") != "bow" for m in legal_moves(state, 0))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("bow", {"ship": "new"}))
    assert exc.value.code == "empty_stack"
    assert "bow stack is empty" in str(exc.value)
    assert "middle" in str(exc.value)  # says what can be bought instead


def test_n_setup_5_bonus_not_received_when_every_stack_empty() -> None:
    state = with_tile(game(), 1, "money")
    state = set_supply(state, mast_whale=0, mast_anchor_ship=0, mast_helm=0, mast_tower=0)
    state, events = apply(state, 0, {"type": "choose_action", "space": 1})
    assert state.step == "turn"  # no bonus decision: nothing eligible (crowns never are)
    assert [e.reason for e in kinds(events, "tile_not_received")] == ["bonus"]
    assert p(state, 0).storage == ()


def test_n_setup_5_bonus_only_from_non_empty_stacks() -> None:
    state = with_tile(game(), 5, "money")
    state = set_supply(state, coffee=0, fish=0)
    state = choose(state, 5)
    assert legal_moves(state, 0) == [
        {"type": "take_bonus", "item": "grain"},
        {"type": "take_bonus", "item": "salt"},
    ]
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "take_bonus", "item": "coffee"})
    assert exc.value.code == "empty_stack"


def test_n_setup_5_reward_goods_with_one_kind_left_gives_that_one() -> None:
    from tests.engine.rulekit import ship

    state = turn_on(game(), 1, "sails")  # Helm sail costs 2 on space 1
    state = set_player(state, 0, ships=(ship("one_ship", "helm"),))
    state = set_supply(state, coffee=0, grain=0, fish=0, mast_crown=0)
    state, _ = play(state, 0, buy("sail_helm", {"ship": 0, "tile": 0}))
    rewards = legal_moves(state, 0)
    assert {"type": "reward", "kind": "goods", "goods": ["salt"]} in rewards
    assert {"type": "reward", "kind": "crown_mast"} not in rewards  # its stack is empty
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "reward", "kind": "crown_mast"})
    assert exc.value.code == "empty_stack"
    state, _events = play(state, 0, {"type": "reward", "kind": "goods", "goods": ["salt"]})
    assert p(state, 0).storage == ("salt",)
    assert state.supply[data.ITEM_INDEX["salt"]] == 11


def test_n_setup_6_crest_ids_and_crown_joker() -> None:
    assert data.CRESTS == ("whale", "anchor_ship", "helm", "tower")
    assert data.CROWN == "crown"
    assert data.MASTS[-1] == "mast_crown" and data.SAILS[-1] == "sail_crown"


def test_n_setup_7_everything_owned_is_public() -> None:
    state = turn_on(game(), 3, "hulls")
    state, _ = play(state, 0, buy("bow", {"ship": "new"}), to_storage("one_ship"))
    public = view(state)
    other = view(state, 2)
    assert public["players"] == other["players"]
    assert public["players"][0]["ships"][0]["tiles"][0]["hull"] == "bow"
    assert public["players"][0]["storage"]["items"] == ["one_ship"]
    assert other["viewer"] == 2 and public["viewer"] is None


@pytest.mark.parametrize(
    ("space", "workers", "taler", "vp", "tile"),
    [
        (0, 3, 0, 0, None),
        (1, 0, 0, 0, "mast"),
        (2, 0, 0, 0, "sail"),
        (3, 0, 0, 2, None),
        (4, 2, 0, 0, None),
        (5, 1, 0, 0, "good"),
        (6, 1, 0, 1, None),
        (7, 0, 4, 0, None),
    ],
)
def test_n_board_1_space_bonuses(
    space: int, workers: int, taler: int, vp: int, tile: str | None
) -> None:
    state = with_tile(game(), space, "money")
    before = p(state, 0)
    state = choose(state, space)
    after = p(state, 0)
    assert after.workers - before.workers == workers
    assert after.taler - before.taler == taler
    assert after.score - before.score == vp
    choices = {m["item"] for m in legal_moves(state, 0)} if state.step == "bonus" else set()
    expected = {
        None: set(),
        "mast": {f"mast_{c}" for c in data.CRESTS},
        "sail": {f"sail_{c}" for c in data.CRESTS},
        "good": set(data.GOODS),
    }[tile]
    assert choices == expected
    if tile:
        item = sorted(choices)[0]
        state, _ = play(state, 0, {"type": "take_bonus", "item": item})
        assert p(state, 0).storage == (item,)
        assert state.step == "turn" and state.current == 0


def test_n_board_1_bonus_goes_only_to_start_player() -> None:
    state = with_tile(game(), 7, "money")
    state = choose(state, 7)
    state = pass_(state, 0)
    assert state.current == 1
    assert p(state, 1).taler == 16  # seat bonus only; the 4-taler bonus was seat 1's alone


def test_n_board_2_wheel_blue_workers() -> None:
    state = game()
    assert state.anchor == 0
    assert [sp["blue"] for sp in view(state)["spaces"]] == [0, 1, 2, 3, 1, 2, 3, 2]
    # sections clockwise from the anchor are 0,1,2,3,1,2,3,2, so space 5+k gets WHEEL[k].
    turned = replace(state, anchor=5)
    assert [turned.blue_on(s) for s in range(8)] == [3, 1, 2, 3, 2, 0, 1, 2]


def test_n_board_3_tile_items_in_slot_order() -> None:
    assert data.TILE_ITEMS["hulls"] == ("bow", "middle", "stern", "one_ship")
    assert data.TILE_ITEMS["masts"] == ("mast_whale", "mast_anchor_ship", "mast_helm", "mast_tower")
    assert data.TILE_ITEMS["sails"] == ("sail_whale", "sail_anchor_ship", "sail_helm", "sail_tower")
    assert data.TILE_ITEMS["goods"] == ("coffee", "grain", "fish", "salt")
    assert set(data.ACTIONS) == {
        "hulls",
        "masts",
        "sails",
        "goods",
        "transport",
        "money",
        "deliver",
        "crowns",
    }
    state = with_tile(game(), 4, "goods")
    assert [i["item"] for i in view(state)["spaces"][4]["items"]] == [
        "coffee",
        "grain",
        "fish",
        "salt",
    ]


PRICE_TABLE = [
    [2, 3, 0, 1],
    [0, 3, 2, 1],
    [3, 0, 1, 2],
    [1, 2, 3, 0],
    [3, 2, 1, 0],
    [0, 1, 2, 3],
    [1, 0, 3, 2],
    [2, 1, 0, 3],
]


@pytest.mark.parametrize("space", range(8))
def test_n_board_4_prices_per_space(space: int) -> None:
    state = turn_on(game(), space, "goods")
    state = set_player(state, 0, workers=10)
    paid = []
    for good in data.GOODS:
        before = p(state, 0).taler
        state, _ = play(state, 0, to_storage(good))
        paid.append(before - p(state, 0).taler)
    assert paid == PRICE_TABLE[space]
    assert [i["price"] for i in view(state)["spaces"][space]["items"]] == PRICE_TABLE[space]


def test_n_board_5_tiles_shuffled_each_round_from_the_seed() -> None:
    a, b = new_game(3, 11), new_game(3, 11)
    assert a.tiles == b.tiles
    assert sorted(a.tiles) == sorted(data.ACTIONS)
    assert len({new_game(3, s).tiles for s in range(20)}) > 10
    # End the round: every player passes in every phase.
    state = a
    while state.round == 1:
        seat = state.current
        assert seat is not None
        move = legal_moves(state, seat)[0] if state.step != "turn" else {"type": "end_turn"}
        state, _ = apply(state, seat, move)
    assert state.draws == a.draws + 1
    assert sorted(state.tiles) == sorted(data.ACTIONS)
    from engine.rng import shuffled

    assert state.tiles == shuffled(11, a.draws, data.ACTIONS)
