"""N-BUY, N-GOLD, N-YARD and N-REW: buying, storage, building ships, rewards."""

from __future__ import annotations

import pytest

from engine.nauticus import IllegalMove, apply, data, legal_moves
from engine.nauticus.state import State
from tests.engine.rulekit import (
    buy,
    choose,
    game,
    kinds,
    p,
    play,
    set_player,
    ship,
    to_storage,
    turn_on,
    with_tile,
)

NEW = {"ship": "new"}


def supply(state: State, item: str) -> int:
    return state.supply[data.ITEM_INDEX[item]]


def test_n_buy_1_second_copy_costs_4() -> None:
    state = turn_on(game(), 3, "hulls")  # bow 1, middle 2, stern 3, one-ship 0; 3 blue
    state = set_player(state, 0, taler=30)
    paid = []
    for _ in range(3):
        before = p(state, 0).taler
        state, _ = play(state, 0, buy("bow", NEW))
        paid.append(before - p(state, 0).taler)
    assert paid == [1, 4, 4]
    before = p(state, 0).taler
    state, events = play(state, 0, to_storage("one_ship"), to_storage("one_ship"))
    assert before - p(state, 0).taler == 0 + 4
    assert [e.copy for e in kinds(events, "bought")] == [1, 2]  # type: ignore[attr-defined]


def test_n_buy_1_prices_reset_for_the_next_player() -> None:
    state = turn_on(game(), 3, "hulls")
    state, _ = play(state, 0, buy("bow", NEW), {"type": "end_turn"})
    before = p(state, 1).taler
    state, _ = play(state, 1, buy("bow", NEW))
    assert before - p(state, 1).taler == 1


def test_n_buy_2_all_four_earn_one_free_tile() -> None:
    state = turn_on(game(), 5, "masts")  # whale 0, anchor_ship 1, helm 2, tower 3
    state = set_player(state, 0, workers=10)
    state, events = play(
        state,
        0,
        to_storage("mast_whale"),
        to_storage("mast_anchor_ship"),
        to_storage("mast_helm"),
    )
    assert not kinds(events, "free_tile_earned")
    state, events = play(state, 0, to_storage("mast_tower"))
    assert len(kinds(events, "free_tile_earned")) == 1
    assert legal_moves(state, 0) == [
        {"type": "take_free_tile", "item": f"mast_{c}"} for c in data.CRESTS
    ]
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "take_free_tile", "item": "mast_crown"})
    assert exc.value.code == "wrong_item"
    taler = p(state, 0).taler
    workers = p(state, 0).workers
    state, events = play(state, 0, {"type": "take_free_tile", "item": "mast_helm"})
    assert p(state, 0).taler == taler and p(state, 0).workers == workers
    assert p(state, 0).storage.count("mast_helm") == 2
    # A fifth purchase earns nothing more.
    state, events = play(state, 0, to_storage("mast_whale"))
    assert not kinds(events, "free_tile_earned")
    assert p(state, 0).storage_used == 12


def test_n_buy_3_paid_tile_may_go_to_shipyard_or_storage() -> None:
    state = turn_on(game(), 3, "hulls")
    state, _ = play(state, 0, buy("bow", NEW), to_storage("stern"))
    assert p(state, 0).ships == (ship("bow"),)
    assert p(state, 0).storage == ("stern",)


def test_n_buy_3_free_tile_must_go_to_storage() -> None:
    state = turn_on(game(), 3, "hulls")  # one-ship costs 0 here
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("one_ship", NEW))
    assert exc.value.code == "free_to_storage"
    assert {"type": "buy", "item": "one_ship", "to": NEW} not in legal_moves(state, 0)
    assert {"type": "buy", "item": "one_ship", "to": "storage"} in legal_moves(state, 0)


def test_n_buy_4_crowns_cannot_be_bought_or_taken_as_bonus() -> None:
    state = turn_on(game(), 5, "masts")
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, to_storage("mast_crown"))
    assert exc.value.code == "crown_not_allowed"
    state = choose(with_tile(game(), 2, "money"), 2)
    assert state.step == "bonus"
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "take_bonus", "item": "sail_crown"})
    assert exc.value.code == "crown_not_allowed"
    assert all(m["item"] != "sail_crown" for m in legal_moves(state, 0))


def test_n_buy_5_cannot_spend_what_you_do_not_have() -> None:
    state = turn_on(game(), 4, "hulls")  # bow 3; 1 blue worker
    state = set_player(state, 0, taler=2)
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("bow", NEW))
    assert exc.value.code == "cannot_afford"
    assert "costs 3 taler" in str(exc.value) and "you have 2" in str(exc.value)
    state = set_player(state, 0, taler=20, workers=0)
    state, _ = play(state, 0, buy("bow", NEW))  # the blue worker
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("stern", {"ship": 0, "end": "back"}))
    assert exc.value.code == "no_workers"


def test_n_buy_5_paid_tile_with_no_place_is_refused_before_paying() -> None:
    state = turn_on(game(), 4, "goods")  # coffee 3; no ships
    state = set_player(state, 0, storage=("mast_whale",) * 6)
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, to_storage("coffee"))
    assert exc.value.code == "storage_full"
    assert "12/12" in str(exc.value)
    assert all(m.get("item") != "coffee" for m in legal_moves(state, 0))


def test_n_buy_5_zero_taler_tile_with_full_storage_is_lost_but_counts() -> None:
    state = turn_on(game(), 5, "goods")  # coffee 0, grain 1, fish 2, salt 3
    state = set_player(
        state, 0, storage=("mast_whale",) * 6, ships=(ship("bow middle stern"),), workers=6
    )
    state, events = play(state, 0, to_storage("coffee"))
    assert [e.item for e in kinds(events, "tile_lost")] == ["coffee"]  # type: ignore[attr-defined]
    assert supply(state, "coffee") == 12
    assert p(state, 0).workers == 6 - 0 and state.turn is not None and state.turn.blue == 1
    state, events = play(
        state,
        0,
        buy("grain", {"ship": 0, "tile": 0}),
        buy("fish", {"ship": 0, "tile": 1}),
        buy("salt", {"ship": 0, "tile": 2}),
    )
    assert len(kinds(events, "free_tile_earned")) == 1
    state, events = play(state, 0, {"type": "take_free_tile", "item": "salt"})
    assert kinds(events, "tile_lost")  # still no room


def test_n_gold_1_free_tiles_go_to_storage_or_are_lost() -> None:
    state = with_tile(game(), 1, "money")
    state = set_player(state, 0, storage=("mast_whale",) * 5 + ("bow",))  # 11 units
    state = choose(state, 1)
    state, events = play(state, 0, {"type": "take_bonus", "item": "mast_tower"})
    assert kinds(events, "tile_lost") and p(state, 0).storage_used == 11
    assert supply(state, "mast_tower") == 15
    state = with_tile(game(), 2, "money")
    state = set_player(state, 0, storage=("mast_whale",) * 5 + ("bow",))
    state = choose(state, 2)
    state, events = play(state, 0, {"type": "take_bonus", "item": "sail_tower"})
    assert kinds(events, "tile_stored") and p(state, 0).storage_used == 12
    assert supply(state, "sail_tower") == 14


def test_n_gold_2_storage_units_masts_take_two() -> None:
    state = game()
    state = set_player(state, 0, storage=("mast_helm", "mast_crown", "sail_helm", "coffee", "bow"))
    assert p(state, 0).storage_used == 2 + 2 + 1 + 1 + 1
    assert data.STORAGE_UNITS == 12 and data.MAST_UNITS == 2


def test_n_yard_1_ship_shapes() -> None:
    assert ship("one_ship").closed and ship("one_ship").size == 1
    assert ship("bow stern").closed and ship("bow middle middle stern").size == 4
    assert not ship("bow middle").closed


def test_n_yard_2_hull_growth_at_open_ends() -> None:
    state = turn_on(game(), 2, "hulls")  # stern 1? prices 3,0,1,2: bow 3, middle 0, stern 1, one 2
    state = set_player(state, 0, workers=20, taler=50, storage=("middle",) * 3)
    state, _ = play(state, 0, buy("stern", NEW))
    moves = legal_moves(state, 0)
    assert {"type": "buy", "item": "bow", "to": {"ship": 0, "end": "front"}} in moves
    assert {"type": "buy", "item": "bow", "to": {"ship": 0, "end": "back"}} not in moves
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("stern", {"ship": 0, "end": "back"}))
    assert exc.value.code == "hull_closed"
    # Middles via transport: at the open front, up to two.
    state = turn_on(state, 5, "transport")
    state = set_player(state, 0, workers=20)
    mid_front = {"type": "transport", "item": "middle", "to": {"ship": 0, "end": "front"}}
    state, _ = play(state, 0, mid_front, mid_front)
    assert p(state, 0).ships[0].hulls == ("middle", "middle", "stern")
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, mid_front)
    assert exc.value.code == "too_many_middles"
    # A one-ship is always its own ship; a closed hull takes nothing more.
    state = turn_on(state, 3, "hulls")
    state = set_player(state, 0, workers=20, taler=50)
    state, _ = play(state, 0, buy("bow", {"ship": 0, "end": "front"}))
    assert p(state, 0).ships[0].closed
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("middle", {"ship": 0, "end": "front"}))
    assert exc.value.code == "hull_closed"
    assert p(state, 0).ships[0].hulls == ("bow", "middle", "middle", "stern")


def test_n_yard_2_middle_starts_a_ship_open_at_both_ends() -> None:
    state = turn_on(game(), 1, "hulls")  # bow 0, middle 3, stern 2, one 1
    state, _ = play(state, 0, buy("middle", NEW))
    dests = [m["to"] for m in legal_moves(state, 0) if m.get("item") == "stern"]
    assert {"ship": 0, "end": "back"} in dests and {"ship": "new"} in dests
    state, _ = play(state, 0, buy("stern", {"ship": 0, "end": "back"}))
    assert p(state, 0).ships[0].hulls == ("middle", "stern")
    assert len(p(state, 0).ships) == 1  # never merged, never a second ship


def test_n_yard_3_one_mast_per_hull_tile_hull_need_not_be_closed() -> None:
    state = turn_on(game(), 6, "masts")  # whale 1, anchor 0, helm 3, tower 2
    state = set_player(state, 0, ships=(ship("bow middle"),))
    state, _ = play(state, 0, buy("mast_whale", {"ship": 0, "tile": 1}))
    assert p(state, 0).ships[0].masts == (None, "whale")
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("mast_whale", {"ship": 0, "tile": 1}))
    assert exc.value.code == "tile_occupied"


def test_n_yard_4_sail_only_on_a_mast_without_sail() -> None:
    state = turn_on(game(), 6, "sails")  # whale 1
    state = set_player(state, 0, ships=(ship("bow stern", "whale -"),))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("sail_whale", {"ship": 0, "tile": 1}))
    assert exc.value.code == "no_mast"
    state, _ = play(state, 0, buy("sail_whale", {"ship": 0, "tile": 0}))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("sail_whale", {"ship": 0, "tile": 0}))
    assert exc.value.code == "tile_occupied"


def test_n_yard_5_one_crest_per_ship_crowns_excepted() -> None:
    state = turn_on(game(), 6, "masts")  # anchor_ship 0, whale 1, tower 2, helm 3
    state = set_player(state, 0, ships=(ship("bow middle stern", "crown - -", "helm - -"),))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("mast_whale", {"ship": 0, "tile": 1}))
    assert exc.value.code == "wrong_crest"
    assert "Helm" in str(exc.value)
    state, _ = play(state, 0, buy("mast_helm", {"ship": 0, "tile": 1}))
    assert p(state, 0).ships[0].crest == "helm"


def test_n_yard_5_rulebook_examples_003() -> None:
    # Helm mast with crown sail beside anchor_ship masts and sails: cannot be built.
    state = turn_on(game(), 6, "masts")
    state = set_player(state, 0, ships=(ship("bow stern", "anchor_ship -", "anchor_ship -"),))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("mast_helm", {"ship": 0, "tile": 1}))
    assert exc.value.code == "wrong_crest"
    # anchor_ship and crown masts and sails: correct, and finished.
    state = turn_on(game(), 6, "sails")  # anchor_ship sail costs 0 here: use space 5 (1)
    state = turn_on(game(), 5, "sails")
    state = set_player(state, 0, ships=(ship("bow stern", "anchor_ship crown", "crown -"),))
    state, events = play(state, 0, buy("sail_anchor_ship", {"ship": 0, "tile": 1}))
    assert p(state, 0).ships[0].finished
    assert kinds(events, "ship_finished")


def test_n_yard_6_finished_when_closed_and_fully_rigged() -> None:
    assert not ship("bow middle", "helm helm", "helm helm").finished
    assert not ship("bow stern", "helm helm", "helm -").finished
    assert ship("bow stern", "helm helm", "helm helm").finished
    assert ship("one_ship", "crown", "tower").finished


def test_n_yard_7_goods_under_any_hull_tile_once() -> None:
    state = turn_on(game(), 5, "goods")  # grain 1
    state = set_player(state, 0, ships=(ship("bow"), ship("one_ship", "helm", "helm")))
    state, _ = play(state, 0, buy("grain", {"ship": 0, "tile": 0}))
    state, _ = play(state, 0, buy("grain", {"ship": 1, "tile": 0}))
    assert p(state, 0).ships[0].goods == ("grain",) and p(state, 0).ships[1].goods == ("grain",)
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("grain", {"ship": 1, "tile": 0}))
    assert exc.value.code == "tile_occupied"


def finished_two_ship(state: State) -> State:
    """Seat 0 finishes a 2-ship by buying its last sail (sails on space 5: helm 2)."""
    state = turn_on(state, 5, "sails")
    state = set_player(state, 0, ships=(ship("bow stern", "helm helm", "helm -"),))
    state, events = play(state, 0, buy("sail_helm", {"ship": 0, "tile": 1}))
    finished = kinds(events, "ship_finished")
    assert [(e.ship, e.size, e.rewards) for e in finished] == [(0, 2, 2)]  # type: ignore[attr-defined]
    return state


def test_n_rew_1_one_reward_per_mast_each_at_most_twice() -> None:
    state = finished_two_ship(game())
    assert {m["type"] for m in legal_moves(state, 0)} == {"reward"}
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "end_turn"})
    assert exc.value.code == "not_now"
    state, _ = play(state, 0, {"type": "reward", "kind": "taler"})
    assert p(state, 0).taler == 15 - 2 + 7
    state, _events = play(state, 0, {"type": "reward", "kind": "taler"})
    assert p(state, 0).taler == 15 - 2 + 14
    assert "reward" not in {m["type"] for m in legal_moves(state, 0)}
    # A 4-ship: the third taler is refused.
    state = turn_on(game(), 5, "sails")
    state = set_player(
        state,
        0,
        ships=(ship("bow middle middle stern", "helm helm helm helm", "helm helm helm -"),),
    )
    state, _ = play(
        state,
        0,
        buy("sail_helm", {"ship": 0, "tile": 3}),
        {"type": "reward", "kind": "taler"},
        {"type": "reward", "kind": "taler"},
    )
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "reward", "kind": "taler"})
    assert exc.value.code == "reward_limit"


def test_n_rew_1_each_reward_kind() -> None:
    state = turn_on(game(), 5, "sails")
    state = set_player(
        state,
        0,
        ships=(ship("bow middle middle stern", "helm helm helm helm", "helm helm helm -"),),
        score=10,
    )
    state, _ = play(state, 0, buy("sail_helm", {"ship": 0, "tile": 3}))
    state, events = play(
        state,
        0,
        {"type": "reward", "kind": "crown_mast"},
        {"type": "reward", "kind": "crown_sail"},
        {"type": "reward", "kind": "vp"},
        {"type": "reward", "kind": "workers"},
    )
    me = p(state, 0)
    assert me.storage == ("mast_crown", "sail_crown")
    assert me.score == 13 and me.workers == 4 - 0 + 3  # the sail used 1 of 2 blue workers
    assert supply(state, "mast_crown") == 11 and supply(state, "sail_crown") == 11
    assert len(kinds(events, "reward_taken")) == 4


def test_n_rew_1_two_different_goods_and_which_is_kept() -> None:
    state = finished_two_ship(game())
    state = set_player(state, 0, storage=("mast_whale",) * 5)  # 10 units: 2 fit
    moves = [m for m in legal_moves(state, 0) if m["kind"] == "goods"]
    assert len(moves) == 6  # unordered pairs of 4 kinds
    assert all(len(m["goods"]) == 2 for m in moves)
    assert data.REWARD_NAMES["goods"] == "2 different goods"
    state2, _ = play(state, 0, {"type": "reward", "kind": "goods", "goods": ["fish", "salt"]})
    assert p(state2, 0).storage.count("fish") == 1 and p(state2, 0).storage.count("salt") == 1
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "reward", "kind": "goods", "goods": ["fish", "fish"]})
    assert exc.value.code == "bad_goods"
    # Only one fits: both orders are offered, the first listed is kept.
    state = set_player(state, 0, storage=("mast_whale",) * 5 + ("bow",))
    moves = [m for m in legal_moves(state, 0) if m["kind"] == "goods"]
    assert len(moves) == 12
    state, events = play(state, 0, {"type": "reward", "kind": "goods", "goods": ["salt", "fish"]})
    assert "salt" in p(state, 0).storage and "fish" not in p(state, 0).storage
    assert [e.item for e in kinds(events, "tile_lost")] == ["fish"]  # type: ignore[attr-defined]


def test_n_rew_2_rewards_usable_at_once() -> None:
    # Taler from a reward pays for a further purchase in the same performance.
    state = finished_two_ship(game())
    state = set_player(state, 0, taler=0)
    state, _ = play(state, 0, {"type": "reward", "kind": "taler"}, {"type": "reward", "kind": "vp"})
    state, _ = play(state, 0, to_storage("sail_tower"))  # tower 3 on space 5
    assert p(state, 0).taler == 4


def test_n_rew_2_crown_reward_transported_finishes_another_ship() -> None:
    state = turn_on(game(), 6, "transport")  # 3 blue
    state = set_player(
        state,
        0,
        storage=("sail_tower",),
        ships=(ship("one_ship", "tower"), ship("one_ship", "whale")),
    )
    state, events = play(
        state,
        0,
        {"type": "transport", "item": "sail_tower", "to": {"ship": 0, "tile": 0}},
        {"type": "reward", "kind": "crown_sail"},
        {"type": "transport", "item": "sail_crown", "to": {"ship": 1, "tile": 0}},
    )
    assert [e.ship for e in kinds(events, "ship_finished")] == [0, 1]  # type: ignore[attr-defined]
    assert state.turn is not None and state.turn.pending[0].ship == 1


def test_n_yard_4_shipyard_destinations_of_a_sail_are_the_masts_without_one() -> None:
    # The public helper the AI reads (engine.nauticus.rules.shipyard_destinations): exactly the
    # masts still without a sail, as a move's `to`; a placed sail takes its mast off the list.
    from engine.nauticus.rules import shipyard_destinations

    state = turn_on(game(), 6, "sails")  # whale 1
    state = set_player(state, 0, ships=(ship("bow middle stern", "whale - whale"),))
    assert shipyard_destinations(p(state, 0), "sail_whale") == [
        {"ship": 0, "tile": 0},
        {"ship": 0, "tile": 2},
    ]
    state, _ = play(state, 0, buy("sail_whale", {"ship": 0, "tile": 0}))
    got = shipyard_destinations(p(state, 0), "sail_whale")
    assert got == [{"ship": 0, "tile": 2}]
    got[0]["tile"] = 9  # the caller's own objects: the engine's cache is not changed
    assert shipyard_destinations(p(state, 0), "sail_whale") == [{"ship": 0, "tile": 2}]
