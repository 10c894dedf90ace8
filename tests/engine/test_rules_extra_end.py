"""N-EXTRA, N-END and the rulebooks' worked examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.nauticus import IllegalMove, apply, data, final_scores, legal_moves
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


def test_n_extra_1_once_per_game_two_workers_any_action() -> None:
    state = turn_on(game(), 5, "money")
    state, events = play(state, 0, {"type": "extra", "action": "hulls"})
    assert p(state, 0).extra is False and p(state, 0).workers == 6
    assert [e.amount for e in kinds(events, "workers_gained")] == [2]  # type: ignore[attr-defined]
    # Zero uses allowed; the 2 workers are kept.
    state, _ = play(state, 0, {"type": "end_extra"}, {"type": "money", "workers": 1})
    assert p(state, 0).workers == 6  # the money use took the 2 blue... space 5 has 2 blue
    assert {"type": "extra", "action": "money"} not in legal_moves(state, 0)
    state, _ = play(state, 0, {"type": "end_turn"})
    state = turn_on(state, 6, "money")
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "extra", "action": "money"})
    assert exc.value.code == "not_now"


def test_n_extra_1_any_action_including_flipped_ones() -> None:
    state = turn_on(game(), 5, "money")
    hulls_space = state.tiles.index("hulls")
    state = replace(state, chosen=(hulls_space, 5))  # Hulls was played earlier this round
    assert {m["action"] for m in legal_moves(state, 0) if m["type"] == "extra"} == set(data.ACTIONS)
    state, _ = play(state, 0, {"type": "extra", "action": "hulls"}, to_storage("bow"))
    assert p(state, 0).storage == ("bow",) and p(state, 0).taler == 13


def test_n_extra_1_after_uses_closes_the_phase_action() -> None:
    state = turn_on(game(), 5, "money")
    state, _ = play(state, 0, {"type": "money", "workers": 1}, {"type": "extra", "action": "money"})
    state, _ = play(state, 0, {"type": "money", "workers": 1}, {"type": "end_extra"})
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "money", "workers": 1})
    assert exc.value.code == "not_now"
    assert legal_moves(state, 0) == [{"type": "end_turn"}]


def test_n_extra_1_before_uses_keeps_the_phase_action_open() -> None:
    state = turn_on(game(), 5, "money")  # 2 blue
    state, _ = play(
        state,
        0,
        {"type": "extra", "action": "money"},
        {"type": "money", "workers": 1},
        {"type": "end_extra"},
        {"type": "money", "workers": 2},
    )
    # Extra: +2 workers, 1 own used; phase: the 2 blue workers.
    assert p(state, 0).workers == 5 and p(state, 0).taler == 15 + 2 + 4
    state, events = play(state, 0, {"type": "end_turn"})
    assert not kinds(events, "pass_tile_flipped")


def test_n_extra_1_after_a_pass() -> None:
    state = turn_on(game(), 5, "money")
    state, _ = play(state, 0, {"type": "pass"})
    assert state.current == 0 and p(state, 0).passes == 1
    state, _ = play(state, 0, {"type": "extra", "action": "money"}, {"type": "money", "workers": 2})
    state, events = play(state, 0, {"type": "end_extra"}, {"type": "end_turn"})
    assert p(state, 0).passes == 1 and p(state, 0).taler == 19
    assert not kinds(events, "pass_tile_flipped")


def test_n_extra_1_start_player_only_after_choosing_and_bonus() -> None:
    state = with_tile(game(), 1, "money")
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "extra", "action": "money"})
    assert exc.value.code == "not_now"
    state = choose(state, 1)
    assert state.step == "bonus"
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, {"type": "extra", "action": "money"})
    assert exc.value.code == "not_now"
    state, _ = play(state, 0, {"type": "take_bonus", "item": "mast_helm"})
    state, _ = play(state, 0, {"type": "extra", "action": "money"})
    assert state.turn is not None and state.turn.extra == "money"


def test_n_extra_2_no_blue_workers_first_copy_2() -> None:
    state = turn_on(game(), 3, "money")  # 3 blue workers for the phase action
    state = set_player(state, 0, workers=0)
    state, _ = play(state, 0, {"type": "extra", "action": "hulls"})
    assert p(state, 0).workers == 2
    state, _ = play(state, 0, buy("bow", NEW), buy("bow", NEW))
    assert p(state, 0).taler == 15 - 2 - 4 and p(state, 0).workers == 0
    with pytest.raises(IllegalMove) as exc:
        apply(state, 0, buy("stern", {"ship": 0, "end": "back"}))
    assert exc.value.code == "no_workers"  # the 3 blue workers are not available here
    assert state.turn is not None and state.turn.blue == 3


def test_n_extra_2_buy_all_four_in_extra_earns_free_tile() -> None:
    state = turn_on(game(), 3, "money")
    state = set_player(state, 0, workers=10)
    state, events = play(
        state,
        0,
        {"type": "extra", "action": "goods"},
        to_storage("coffee"),
        to_storage("grain"),
        to_storage("fish"),
        to_storage("salt"),
    )
    assert p(state, 0).taler == 15 - 8
    assert len(kinds(events, "free_tile_earned")) == 1
    state, _ = play(state, 0, {"type": "take_free_tile", "item": "fish"})
    assert p(state, 0).storage.count("fish") == 2


def test_n_extra_3_flips_no_tile_and_gives_no_bonus() -> None:
    state = turn_on(game(), 5, "money")
    tiles_before = state.chosen
    state, events = play(state, 0, {"type": "extra", "action": "hulls"})
    assert state.chosen == tiles_before
    assert not kinds(events, "bonus_received")
    assert not kinds(events, "phase_ended")


def finished(hulls: str, crest: str = "helm") -> object:
    n = len(hulls.split())
    return ship(hulls, " ".join([crest] * n), " ".join([crest] * n))


def test_n_end_1_delivered_goods_table() -> None:
    assert [data.goods_score(n) for n in range(9)] == [0, 2, 5, 9, 14, 20, 25, 30, 35]
    state = set_player(game(), 0, delivered=(6, 2, 3, 1))
    s = final_scores(state)[0]
    assert s.goods_vp == (25, 5, 9, 2)


def test_n_end_2_finished_ships_by_size() -> None:
    state = set_player(
        game(),
        0,
        ships=(
            finished("one_ship"),
            finished("bow stern"),
            finished("bow middle stern"),
            finished("bow middle middle stern"),
            ship("bow stern"),  # unfinished: no VP
        ),
        taler=0,
        workers=0,
    )
    s = final_scores(state)[0]
    assert s.ships == (1, 1, 1, 1)
    assert s.ships_vp == 2 + 8 + 20 + 35


def test_n_end_3_leftovers_total_taler_div_3() -> None:
    state = set_player(
        game(),
        0,
        workers=2,
        taler=8,
        storage=("mast_helm", "coffee", "bow"),
        ships=(
            ship("bow middle", "helm -", "helm -", "coffee -"),  # 2 hulls + mast + sail = 4 parts
            ship("one_ship", "helm", "helm", "salt"),  # finished; its good counts
        ),
    )
    s = final_scores(state)[0]
    assert (s.workers, s.storage_tiles, s.unfinished_parts, s.goods_on_ships) == (2, 3, 4, 2)
    assert s.total_taler == 8 + 2 + 3 + 4 + 2
    assert s.leftover_vp == 19 // 3 == 6


def test_n_end_4_ties_total_mod_3_then_total_then_shared() -> None:
    state = game(players=4)
    # Same VP: seat 0 total 11 (mod 2), seat 1 total 14 (mod 2), seat 2 total 9 (mod 0),
    # seat 3 total 14 (mod 2) -> seat 1 and 3 share first, then seat 0, then seat 2.
    state = set_player(state, 0, score=12, taler=11, workers=0)
    state = set_player(state, 1, score=11, taler=14, workers=0)
    state = set_player(state, 2, score=13, taler=9, workers=0)
    state = set_player(state, 3, score=11, taler=14, workers=0)
    scores = final_scores(state)
    assert [s.vp for s in scores] == [15, 15, 16, 15]
    assert [s.rank for s in scores] == [4, 2, 1, 2]
    ranks = {s.seat: s.rank for s in scores}
    assert ranks[2] == 1  # most VP wins outright
    assert ranks[1] == ranks[3] == 2  # 15 VP, total 14 (mod 2): shared second place
    assert ranks[0] == 4  # 15 VP, total 11 (mod 2) < 14


def test_n_end_4_mod_3_beats_larger_total() -> None:
    state = game(players=2)
    state = set_player(state, 0, score=10, taler=17, workers=0)  # 17: 5 VP, mod 2
    state = set_player(state, 1, score=9, taler=20, workers=0)  # 20: 6 VP, mod 2 -> same VP
    s = final_scores(state)
    assert (s[0].vp, s[1].vp) == (15, 15)
    assert (s[0].tiebreak, s[1].tiebreak) == ((2, 17), (2, 20))
    assert (s[0].rank, s[1].rank) == (2, 1)
    state = set_player(state, 0, score=10, taler=17)
    state = set_player(state, 1, score=10, taler=15)  # 15: 5 VP, mod 0
    s = final_scores(state)
    assert (s[0].rank, s[1].rank) == (1, 2)


def test_n_end_5_worked_example_003() -> None:
    state = set_player(
        game(),
        0,
        score=0,
        delivered=(6, 2, 3, 0),
        workers=2,
        taler=8,
        storage=("bow", "stern", "sail_whale"),
        ships=(
            finished("one_ship"),
            finished("one_ship"),
            finished("one_ship"),
            finished("bow stern"),
            finished("bow middle stern"),
            # 5 unfinished parts (2 hulls, 2 masts, 1 sail) carrying 2 goods
            ship("bow middle", "whale whale", "whale -", "coffee grain"),
        ),
    )
    # The third undelivered good sits under a finished ship's hull.
    ships = list(p(state, 0).ships)
    ships[0] = replace(ships[0], goods=("fish",))
    state = set_player(state, 0, ships=tuple(ships))
    s = final_scores(state)[0]
    assert sum(s.goods_vp) == 39
    assert s.ships_vp == 34
    assert (s.workers, s.storage_tiles, s.unfinished_parts, s.goods_on_ships, s.taler) == (
        2,
        3,
        5,
        3,
        8,
    )
    assert s.total_taler == 21 and s.leftover_vp == 7
    assert s.vp == 0 + 39 + 34 + 7


def test_example_hulls_on_space_3() -> None:
    """The rulebook's hull example: space 3 with 2 blue workers (anchor on space 1)."""
    state = replace(with_tile(game(), 3, "hulls"), anchor=1)
    state = set_player(state, 0, storage=())
    state = choose(state, 3)
    assert p(state, 0).score == 12  # the 2 VP bonus
    state, events = play(
        state,
        0,
        to_storage("one_ship"),
        buy("bow", NEW),
        buy("stern", {"ship": 0, "end": "back"}),
        buy("middle", NEW),
    )
    a = p(state, 0)
    assert a.taler == 15 - 6
    assert a.workers == 4 - 2  # 2 blue + 2 own
    state, _ = play(state, 0, {"type": "take_free_tile", "item": "one_ship"})
    a = p(state, 0)
    assert a.storage == ("one_ship", "one_ship")
    assert [s.hulls for s in a.ships] == [("bow", "stern"), ("middle",)]
    state, _ = play(state, 0, {"type": "end_turn"})
    # Player B buys bow + stern: 4 taler, the 2 blue workers, no own worker.
    state, _ = play(state, 1, buy("bow", NEW), buy("stern", {"ship": 0, "end": "back"}))
    b = p(state, 1)
    assert (b.taler, b.workers) == (16 - 4, 4)
    state, _ = play(state, 1, {"type": "end_turn"})
    # Player C buys the one-ship for 0 with 1 blue worker; the other blue worker is lost.
    state, _ = play(state, 2, to_storage("one_ship"))
    c = p(state, 2)
    assert (c.taler, c.workers, c.storage) == (17, 5, ("one_ship",))
    assert state.turn is not None and state.turn.blue == 1
    state, events = play(state, 2, {"type": "end_turn"})
    assert kinds(events, "phase_ended")


def test_example_masts_on_space_5() -> None:
    state = turn_on(game(), 5, "masts")  # whale 0, anchor_ship 1; 2 blue workers
    state = set_player(state, 0, ships=(ship("bow stern"),))
    state, _ = play(
        state,
        0,
        to_storage("mast_whale"),
        buy("mast_anchor_ship", {"ship": 0, "tile": 0}),
        buy("mast_anchor_ship", {"ship": 0, "tile": 1}),
    )
    a = p(state, 0)
    assert a.taler == 15 - 5
    assert a.workers == 4 - 1  # 3 workers: 2 blue + 1 own
    assert a.storage == ("mast_whale",)
    assert a.ships[0].masts == ("anchor_ship", "anchor_ship")


def test_example_goods_on_space_5() -> None:
    state = turn_on(game(), 5, "goods")  # coffee 0, grain 1, fish 2, salt 3
    state = set_player(state, 0, ships=(ship("bow middle stern"),), workers=4)
    state, _ = play(
        state,
        0,
        to_storage("coffee"),
        buy("grain", {"ship": 0, "tile": 0}),
        buy("fish", "storage"),
        buy("coffee", {"ship": 0, "tile": 1}),
    )
    a = p(state, 0)
    assert a.taler == 15 - 7
    assert a.workers == 4 - 2  # 4 workers: 2 blue + 2 own
    assert a.storage == ("coffee", "fish")
    assert a.ships[0].goods == ("grain", "coffee", None)


def test_example_goods_all_four_alternative() -> None:
    state = turn_on(game(), 5, "goods")
    state, _ = play(
        state,
        0,
        to_storage("coffee"),
        to_storage("grain"),
        to_storage("fish"),
        to_storage("salt"),
        {"type": "take_free_tile", "item": "coffee"},
    )
    a = p(state, 0)
    assert a.taler == 15 - 6 and a.workers == 4 - 2
    assert a.storage.count("coffee") == 2


def test_example_crowns() -> None:
    state = turn_on(game(), 2, "crowns")  # 2 blue workers
    state = set_player(state, 0, storage=("sail_crown",), ships=(ship("bow", "crown"),), passes=1)
    s3, _ = play(state, 0, {"type": "crowns", "workers": 3})
    assert p(s3, 0).score == 19 and p(s3, 0).workers == 3
    s5, events = play(state, 0, {"type": "crowns", "workers": 5})
    assert p(s5, 0).score == 25
    assert kinds(events, "crowns_scored")[0].vp_before_cap == 15  # type: ignore[attr-defined]
