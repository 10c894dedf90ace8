"""N-ROUND, N-ACT and the free actions (N-TRANS, N-MONEY, N-DELIV, N-CROWN)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.nauticus import IllegalMove, apply, data, legal_moves, view
from engine.nauticus.state import State
from tests.engine.rulekit import (
    buy,
    choose,
    end_turn,
    game,
    kinds,
    p,
    pass_,
    play,
    set_player,
    ship,
    turn_on,
    with_tile,
)

MONEY1 = {"type": "money", "workers": 1}


def money_phase(state: State, space: int, passers: tuple[int, ...] = ()) -> State:
    """Money is put on `space` and chosen; everyone uses 1 worker on it except `passers`."""
    state = choose(with_tile(state, space, "money"), space)
    if state.step == "bonus":
        state, _ = apply(state, state.start, legal_moves(state, state.start)[0])
    for _ in range(len(state.players)):
        seat = state.current
        assert seat is not None
        if seat in passers:
            state = pass_(state, seat)
        else:
            state, _ = play(state, seat, MONEY1, {"type": "end_turn"})
    return state


def test_n_round_1_phase_runs_clockwise_from_the_start_player() -> None:
    state = with_tile(game(), 6, "money")
    state = replace(state, start=1)
    state = choose(state, 6)
    order = []
    for _ in range(3):
        order.append(state.current)
        state, _ = play(state, state.current, MONEY1, {"type": "end_turn"})  # type: ignore[arg-type]
    assert order == [1, 2, 0]
    assert state.step == "choose" and state.start == 2


def test_n_round_2_bonus_usable_at_once_and_before_deciding() -> None:
    state = with_tile(game(), 0, "money")  # space 0: bonus 3 workers, 0 blue at start
    state = set_player(state, 0, workers=0)
    state = choose(state, 0)
    assert p(state, 0).workers == 3
    state, _ = play(state, 0, {"type": "money", "workers": 3})
    assert p(state, 0).taler == 15 + 6
    assert p(state, 0).workers == 0


def test_n_round_2_start_player_may_pass_and_keeps_the_bonus() -> None:
    state = with_tile(game(), 7, "hulls")
    state = choose(state, 7)
    state = pass_(state, 0)
    assert p(state, 0).taler == 19 and p(state, 0).passes == 1


def test_n_round_3_tile_flipped_start_moves_left_anchor_tile() -> None:
    state = with_tile(game(), 6, "money")
    state = money_phase(state, 6)
    assert state.start == 1 and state.phase == 2
    v = view(state)
    assert v["spaces"][6]["flipped"] is True
    assert v["anchor_tile"] == 6
    with pytest.raises(IllegalMove) as exc:
        apply(state, 1, {"type": "choose_action", "space": 6})
    assert exc.value.code == "space_taken"
    assert "0, 1, 2, 3, 4, 5, 7" in str(exc.value)
    state = money_phase(state, 2)
    assert state.start == 2 and view(state)["anchor_tile"] == 6


def play_round(state: State, passers: tuple[int, ...] = ()) -> State:
    rnd = state.round
    spaces = iter([s for s in range(8)])
    while state.round == rnd and state.step != "over":
        space = next(spaces)
        state = money_phase(state, space, passers)
    return state


def test_n_round_4_seven_phases_then_the_eighth_tile_is_not_played() -> None:
    state = game()
    phases = 0
    while state.round == 1:
        state = money_phase(state, phases)
        phases += 1
    assert phases == 7
    assert state.round == 2 and state.phase == 1 and state.chosen == ()


def test_n_round_5_pass_penalties_wheel_and_start_player() -> None:
    state = game()
    # Seat 2 passes in every phase (3 tiles flipped), seat 1 once, seat 0 never.
    flips = {0: 0, 1: 0, 2: 0}
    rnd = 1
    phase = 0
    while state.round == rnd:
        passers = (2,) if phase else (1, 2)
        flips[1] += 1 if phase == 0 else 0
        state = money_phase(state, phase + 1, passers)
        phase += 1
    # Each phase: +2 taler per money use; penalties: seat0 lost 6, seat1 lost 2+1=3, seat2 lost 0.
    # Seat 2 was start player on space 3 (+2 VP) and space 6 (+1 VP).
    assert [pl.score for pl in state.players] == [10 - 6, 10 - 3, 10 + 3 - 0]
    assert all(pl.passes == 0 for pl in state.players)
    assert state.anchor == 1  # the first chosen space of round 1
    assert state.start == 7 % 3  # moved once per phase, not again at round end


def test_n_round_5_penalty_events() -> None:
    state = game()
    events_all = []
    while state.round == 1:
        space = len(state.chosen) + 1
        state = choose(state, space)
        if state.step == "bonus":
            state, _ = apply(state, state.start, legal_moves(state, state.start)[0])
        for _ in range(3):
            seat = state.current
            state, ev = apply(state, seat, {"type": "end_turn"})  # type: ignore[arg-type]
            events_all.extend(ev)
    penalties = {e.seat: e.vp for e in kinds(events_all, "round_penalty")}  # type: ignore[attr-defined]
    assert penalties == {0: 0, 1: 0, 2: 0}  # everyone passed 7 times: all tiles flipped


def test_n_round_6_last_round_penalty_no_turn_no_reshuffle() -> None:
    state = replace(game(players=2), round=4)
    draws, anchor = state.draws, state.anchor
    state = play_round(state)
    assert state.step == "over"
    assert state.draws == draws and state.anchor == anchor and len(state.chosen) == 7
    # Nobody passed: each loses 6 VP; seat 1 chose space 3 (+2 VP), seat 0 space 6 (+1 VP).
    assert [pl.score for pl in state.players] == [10 - 6 + 1, 10 - 6 + 2]
    assert view(state)["final"] is not None


def test_n_act_1_blue_workers_first_then_own_unused_lost() -> None:
    state = turn_on(game(), 3, "money")  # anchor 0: space 3 has 3 blue workers
    assert state.turn is not None and state.turn.blue == 3
    state, events = play(state, 0, {"type": "money", "workers": 4})
    used = kinds(events, "workers_used")[0]
    assert (used.blue, used.own) == (3, 1)  # type: ignore[attr-defined]
    assert p(state, 0).workers == 3 and p(state, 0).taler == 23
    state = end_turn(state, 0)
    assert state.turn is not None and state.turn.seat == 1 and state.turn.blue == 3
    state, _ = play(state, 1, MONEY1)
    state = end_turn(state, 1)
    # Seat 1 used 1 of 3 blue: the other 2 were lost, seat 2 gets a fresh 3.
    assert state.turn is not None and state.turn.blue == 3 and p(state, 1).workers == 4


def test_n_act_2_pass_tiles_flip_in_order_and_show_crowns() -> None:
    state = game()
    values = []
    for _ in range(4):
        state = turn_on(state, 5, "money")
        state, events = play(state, 0, {"type": "pass"})
        values.append([e.value for e in kinds(events, "pass_tile_flipped")])  # type: ignore[attr-defined]
    assert values == [[3], [2], [1], []]
    assert p(state, 0).passes == 3 and p(state, 0).crowns == 3
    flipped = [t["flipped"] for t in view(state)["players"][0]["pass_tiles"]]
    assert flipped == [True, True, True]


def test_n_act_3_no_use_is_a_pass_and_extra_uses_do_not_count() -> None:
    state = turn_on(game(), 5, "hulls")
    state, events = play(
        state,
        0,
        {"type": "extra", "action": "money"},
        {"type": "money", "workers": 2},
        {"type": "end_extra"},
        {"type": "end_turn"},
    )
    assert p(state, 0).passes == 1
    assert len(kinds(events, "pass_tile_flipped")) == 1
    assert p(state, 0).taler == 19


def test_n_trans_1_transport_costs_one_worker_each_and_places_at_once() -> None:
    state = turn_on(game(), 5, "transport")  # 2 blue workers
    state = set_player(state, 0, storage=("bow", "stern", "mast_helm"))
    state, events = play(
        state,
        0,
        {"type": "transport", "item": "bow", "to": {"ship": "new"}},
        {"type": "transport", "item": "stern", "to": {"ship": 0, "end": "back"}},
        {"type": "transport", "item": "mast_helm", "to": {"ship": 0, "tile": 1}},
    )
    me = p(state, 0)
    assert me.storage == ()
    assert me.ships == (ship("bow stern", "- helm"),)
    assert me.workers == 3  # 2 blue, then 1 own
    assert len(kinds(events, "transported")) == 3
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "transport", "item": "bow", "to": {"ship": "new"}})
    assert exc.value.code == "not_in_storage"


def test_n_trans_1_transport_must_go_to_the_shipyard() -> None:
    state = turn_on(game(), 5, "transport")
    state = set_player(state, 0, storage=("bow",))
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "transport", "item": "bow", "to": "storage"})
    assert exc.value.code == "bad_destination"


def test_n_money_1_two_taler_per_worker() -> None:
    state = turn_on(game(), 1, "money")  # 1 blue worker
    state, events = play(state, 0, {"type": "money", "workers": 3})
    assert p(state, 0).taler == 21 and p(state, 0).workers == 2
    assert kinds(events, "money_taken")[0].taler == 6  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "money", "workers": 3})
    assert exc.value.code == "bad_count"
    assert "1 to 2" in str(exc.value)


def _loaded(goods: str = "coffee fish") -> State:
    return set_player(
        turn_on(game(), 6, "deliver"),  # 3 blue workers
        0,
        ships=(
            ship("bow stern", "whale whale", "whale crown", goods),
            ship("one_ship", "helm", "", "salt"),
        ),
    )


def test_n_deliv_1_deliver_finished_loaded_ship() -> None:
    state, events = play(_loaded(), 0, {"type": "deliver", "ship": 0})
    me = p(state, 0)
    assert me.delivered == (1, 0, 1, 0)
    assert me.ships[0].goods == (None, None)
    assert me.workers == 4  # 2 goods, 2 of the 3 blue workers
    assert kinds(events, "delivered")[0].goods == ("coffee", "fish")  # type: ignore[attr-defined]
    # Loaded again later, it can deliver again.
    state = set_player(
        state, 0, ships=(ship("bow stern", "whale whale", "whale crown", "salt salt"),)
    )
    state, _ = play(state, 0, {"type": "deliver", "ship": 0})
    assert p(state, 0).delivered == (1, 0, 1, 2)


def test_n_deliv_1_unfinished_or_partly_loaded_ships_cannot_deliver() -> None:
    with pytest.raises(IllegalMove) as exc:
        apply(_loaded(), 0, {"type": "deliver", "ship": 1})
    assert exc.value.code == "not_finished"
    with pytest.raises(IllegalMove) as exc:
        apply(_loaded("coffee -"), 0, {"type": "deliver", "ship": 0})
    assert exc.value.code == "missing_goods"
    state = set_player(_loaded(), 0, workers=0)
    state = replace(state, turn=replace(state.turn, blue=1))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "deliver", "ship": 0})
    assert exc.value.code == "no_workers"
    assert legal_moves(state, 0)[0]["type"] != "deliver"


def test_n_crown_1_counts_crowns_everywhere_and_caps_at_15() -> None:
    state = turn_on(game(), 2, "crowns")  # 2 blue workers
    state = set_player(
        state,
        0,
        storage=("sail_crown",),
        ships=(ship("bow", "crown"),),
        passes=1,
    )
    assert p(state, 0).crowns == 3
    state, events = play(state, 0, {"type": "crowns", "workers": 3})
    scored = kinds(events, "crowns_scored")[0]
    assert (scored.vp_before_cap, scored.vp) == (9, 9)  # type: ignore[attr-defined]
    assert p(state, 0).score == 19
    state, events = play(state, 0, {"type": "crowns", "workers": 3})
    scored = kinds(events, "crowns_scored")[0]
    assert (scored.vp_before_cap, scored.vp) == (9, 6)  # type: ignore[attr-defined]
    assert p(state, 0).score == 25  # 15 for this performance
    assert p(state, 0).workers == 0


def test_n_crown_1_extra_performance_has_its_own_cap() -> None:
    state = turn_on(game(), 2, "crowns")
    state = set_player(state, 0, passes=3, workers=10, storage=("mast_crown", "sail_crown"))
    state, _ = play(
        state,
        0,
        {"type": "crowns", "workers": 4},
        {"type": "extra", "action": "crowns"},
        {"type": "crowns", "workers": 4},
    )
    assert p(state, 0).score == 10 + 15 + 15


def test_n_crown_1_money_and_crowns_constants() -> None:
    assert data.CROWN_CAP == 15


def test_n_act_1_buy_uses_blue_before_own() -> None:
    state = turn_on(game(), 2, "hulls")  # 2 blue workers; prices 3,0,1,2
    state, events = play(
        state,
        0,
        buy("stern", {"ship": "new"}),
        buy("bow", {"ship": 0, "end": "front"}),
    )
    assert p(state, 0).workers == 4
    state, events = play(state, 0, buy("one_ship", {"ship": "new"}))
    used = kinds(events, "workers_used")[0]
    assert (used.blue, used.own) == (0, 1)  # type: ignore[attr-defined]
    assert p(state, 0).workers == 3


def test_n_round_3_anchor_tile_appears_after_the_first_phase() -> None:
    state = with_tile(game(), 6, "money")
    state = choose(state, 6)
    assert view(state)["anchor_tile"] is None  # the first phase is still being played
    for seat in range(3):
        state = pass_(state, seat)
    assert view(state)["anchor_tile"] == 6


def test_n_extra_2_view_shows_no_blue_workers_during_the_extra_action() -> None:
    state = turn_on(game(), 3, "money")
    assert view(state)["turn"]["blue_left"] == 3
    state, _ = play(state, 0, {"type": "extra", "action": "hulls"})
    assert view(state)["turn"]["blue_left"] == 0
    state, _ = play(state, 0, {"type": "end_extra"})
    assert view(state)["turn"]["blue_left"] == 3
