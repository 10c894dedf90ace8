"""No blunders a person would point at, in every game (issue 24), checked on sampled positions.

Each test first checks that the blunder is really on offer in the positions it samples (so a
player that makes it would fail), then that the player never makes it. The search-level tests
(Island lone store, duel high diver) run the `normal` search with the game's pruning switched
off, so that the search itself, not the pruning that hides the blunder from it, must avoid it;
their counter-tests run the same check on a broken search (rewards turned upside down) and
require it to fail, so the sample would catch a search that lost its way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from engine import duel, island, nauticus
from engine.ai import choose, evaluate
from engine.ai import search as search_module
from engine.ai.nauticus_play import scripted
from engine.api import Move
from engine.duel import data as duel_data
from engine.island import data as island_data
from engine.island.rules import porthole_next

SEARCH_LEVEL = "normal"  # the level the goals are about, and the one people meet


def _keep_all(state: Any, seat: int, moves: list[Move]) -> list[Move]:
    return moves


@pytest.fixture
def unpruned(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Island and duel searched without their pruning: every legal move is offered, and
    without the root's ordering for progressive widening, which would rank the blunder last
    and so hide it as well as the pruning does."""
    for game in ("island", "duel"):
        know = evaluate.KNOWLEDGE[game]
        monkeypatch.setitem(evaluate.KNOWLEDGE, game, replace(know, prune=_keep_all, order=None))
    yield


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch, unpruned: None) -> Iterator[None]:
    """The unpruned search with every reward turned upside down: it seeks what it should flee."""
    rewards, value_rewards = search_module.rewards, search_module.value_rewards
    monkeypatch.setattr(search_module, "rewards", lambda s: [1 - r for r in rewards(s)])
    monkeypatch.setattr(
        search_module, "value_rewards", lambda *a: [1 - r for r in value_rewards(*a)]
    )
    yield


# --- Nauticus: a loaded ship delivers --------------------------------------------------------


def _nauticus_deliver_positions(count: int) -> list[tuple[Any, int]]:
    """Positions of builder games where a finished, loaded ship may deliver, among other moves."""
    rules = nauticus.RULES
    rng = random.Random("blunders/deliver")
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < count:
        state = rules.new_game(2, 700 + game)
        game += 1
        while not rules.is_over(state) and len(out) < count:
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            if len(moves) > 1 and any(m["type"] == "deliver" for m in moves):
                out.append((state, seat))
            state, _ = rules.apply(state, seat, scripted(state, seat, moves, "builder", rng))
    return out


def test_the_search_delivers_a_loaded_ship_instead_of_passing() -> None:
    rules = nauticus.RULES
    sample = _nauticus_deliver_positions(8)
    for i, (state, seat) in enumerate(sample):
        moves = rules.legal_moves(state, seat)
        # the blunder is on offer: passing or ending the turn instead
        assert any(m["type"] in ("pass", "end_turn", "end_extra") for m in moves)
        move = choose(rules, state, seat, level="easy", seed=i)
        assert move["type"] == "deliver", move


def _finishes(state: Any, seat: int, m: Move) -> bool:
    """Whether move `m` finishes one of the seat's ships (found by playing it)."""
    to = m.get("to")
    if m["type"] not in ("buy", "transport") or not isinstance(to, dict) or "tile" not in to:
        return False
    after, _ = nauticus.RULES.apply(state, seat, m)
    ship = after.players[seat].ships[to["ship"]]
    return bool(ship.finished) and not state.players[seat].ships[to["ship"]].finished


def test_the_search_finishes_a_ship_with_its_last_sail_instead_of_passing() -> None:
    """Self-play robots passed on the sail that finished a ship in 12 of 28 such positions,
    some for a whole round, some for good (three ships one sail short at the end of seed
    4027). Positions of builder games where a move finishes a ship and passing or
    ending the turn is also legal: the search never takes the pass."""
    rules = nauticus.RULES
    rng = random.Random("blunders/finish")
    sample: list[tuple[Any, int]] = []
    game = 0
    while len(sample) < 6:
        state = rules.new_game(2, 800 + game)
        game += 1
        while not rules.is_over(state) and len(sample) < 6:
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            if any(m["type"] in ("pass", "end_turn") for m in moves) and any(
                _finishes(state, seat, m) for m in moves
            ):
                sample.append((state, seat))
            state, _ = rules.apply(state, seat, scripted(state, seat, moves, "builder", rng))
    for i, (state, seat) in enumerate(sample):
        move = choose(rules, state, seat, level="easy", seed=i)
        assert move["type"] not in ("pass", "end_turn", "end_extra"), move


# --- Nautilus Island: stores worth a turn, one search branch per batch ------------------------


def _lone_store(state: Any, seat: int, m: Move) -> tuple[int, int] | None:
    """(category index, collection size after) of a single-card store; None for other moves."""
    if m["type"] != "store" or sum(m["objects"].values()) != 1:
        return None
    k = island_data.STORABLE.index(m["category"])
    return k, len(state.players[seat].collections[k].cards) + 1


def _lone_for_nothing(state: Any, seat: int, m: Move) -> bool:
    """A single card stored with no camp token to take and no closing size reached, before
    the end is near: the turn spent for one card."""
    lone = _lone_store(state, seat, m)
    if lone is None:
        return False
    k, size = lone
    late = state.last_round or state.end_triggered
    return (
        state.camp[k] is None
        and not (late and size >= 3)
        and not (size >= 5 and porthole_next(state, size) is not None)
    )


def _lone_pruned(state: Any, seat: int, m: Move) -> bool:
    """A single card the pruning drops (collecting being possible): it closes nothing, and
    either the end is not near yet (even where it would take a camp token) or it is near and
    the store takes no token into a collection of under 3 cards."""
    lone = _lone_store(state, seat, m)
    if lone is None:
        return False
    k, size = lone
    if size >= 5 and porthole_next(state, size) is not None:
        return False
    late = state.last_round or state.end_triggered
    return not late or (state.camp[k] is None and size < 3)


def _island_act_positions(count: int) -> list[tuple[Any, int, list[Move]]]:
    """Act positions of collector-style games where collecting and a lone store for nothing
    are both legal."""
    rules = island.RULES
    know = evaluate.knowledge(rules)
    rng = random.Random("blunders/island")
    out: list[tuple[Any, int, list[Move]]] = []
    game = 0
    while len(out) < count:
        state = rules.new_game(2, 40 + game)
        game += 1
        while not rules.is_over(state) and len(out) < count:
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            if (
                state.step == "act"
                and any(m["type"] == "collect" for m in moves)
                and any(_lone_for_nothing(state, seat, m) for m in moves)
            ):
                out.append((state, seat, moves))
            state, _ = rules.apply(state, seat, know.rollout(state, seat, moves, rng))
    return out


def _pairs(state: Any, seat: int, m: Move) -> int:
    k = island_data.STORABLE.index(m["category"])
    counts: dict[str, int] = dict(m["objects"])
    for c in state.players[seat].collections[k].cards:
        o = island_data.CARD_OBJECT[c]
        counts[o] = counts.get(o, 0) + 1
    return sum(v // 2 for v in counts.values())


def test_island_pruning_keeps_one_store_per_batch_and_no_lone_store_for_nothing() -> None:
    know = evaluate.knowledge(island.RULES)
    grouped = 0
    for state, seat, moves in _island_act_positions(30):
        kept = know.prune(state, seat, moves)
        assert [m for m in moves if m["type"] != "store"] == [
            m for m in kept if m["type"] != "store"
        ]
        stores = [m for m in kept if m["type"] == "store"]
        keys = [(m["category"], sum(m["objects"].values())) for m in stores]
        assert len(keys) == len(set(keys))  # one representative per category and count
        assert not any(_lone_pruned(state, seat, m) for m in kept)
        for m in stores:
            same = [
                o
                for o in moves
                if o["type"] == "store"
                and o["category"] == m["category"]
                and sum(o["objects"].values()) == sum(m["objects"].values())
            ]
            grouped += len(same) - 1
            # the representative keeps the most pairs (for a pair token)
            assert _pairs(state, seat, m) == max(_pairs(state, seat, o) for o in same)
        # every batch that is not a lone store the pruning drops keeps its representative
        wanted = {
            (m["category"], sum(m["objects"].values()))
            for m in moves
            if m["type"] == "store" and not _lone_pruned(state, seat, m)
        }
        assert set(keys) == wanted
    assert grouped > 0  # the sample holds batches with several object choices


def _token_grab(state: Any, seat: int, m: Move) -> bool:
    """A single card stored where the camp has a token, into a collection it leaves under 5."""
    lone = _lone_store(state, seat, m)
    return lone is not None and state.camp[lone[0]] is not None and lone[1] < 5


def test_island_pruning_keeps_a_lone_card_for_a_camp_token_only_once_the_end_is_near() -> None:
    """Before the end is triggered a single card is not stored for a camp token (a batch of
    two takes it as well); once it is triggered, the token is worth the turn."""
    rules = island.RULES
    know = evaluate.knowledge(rules)
    rng = random.Random("blunders/island-token")
    checked = 0
    game = 0
    while checked < 5:
        state = rules.new_game(2, 80 + game)
        game += 1
        while not rules.is_over(state) and checked < 5:
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            grabs = [m for m in moves if _token_grab(state, seat, m)]
            if (
                state.step == "act"
                and not (state.last_round or state.end_triggered)
                and grabs
                and any(m["type"] == "collect" for m in moves)
            ):
                early = know.prune(state, seat, moves)
                assert not any(g in early for g in grabs)
                assert any(m["type"] == "collect" for m in early)
                near = know.prune(replace(state, end_triggered=True), seat, moves)
                kept = [g for g in grabs if g in near]
                # one representative per (category, count): every category offered keeps one
                assert {g["category"] for g in kept} == {g["category"] for g in grabs}
                checked += 1
            state, _ = rules.apply(state, seat, know.rollout(state, seat, moves, rng))
    assert game <= 20


def test_island_pruning_closes_a_collection_of_five_or_more_and_leaves_smaller_ones_open() -> None:
    """Before the last round a collection of 3 or 4 may stay open for a larger porthole; in the
    last round (I-END-1) the store was the seat's last turn, so every collection that can close
    does."""
    rules = island.RULES
    know = evaluate.knowledge(rules)
    rng = random.Random("blunders/island-close")
    seen: dict[tuple[int, bool], int] = {}  # (collection size, last round) -> steps checked
    game = 0
    while min(seen.get((3, False), 0), seen.get((5, False), 0), seen.get((3, True), 0)) < 3:
        state = rules.new_game(2, 60 + game)
        game += 1
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            if state.step == "close" and {m["type"] for m in moves} == {"close", "keep_open"}:
                size = len(state.players[seat].collections[state.stored].cards)
                last = state.last_round
                seen[size, last] = seen.get((size, last), 0) + 1
                kept = [m["type"] for m in know.prune(state, seat, moves)]
                closes = size >= 5 or last
                assert kept == (["close"] if closes else ["close", "keep_open"]), (size, last)
            state, _ = rules.apply(state, seat, rng.choice(moves))
    assert game <= 40  # random games reach every case quickly


def _island_lone_stores(count: int) -> int:
    """How many of `count` sampled positions the search answers with a lone store for nothing."""
    rules = island.RULES
    return sum(
        _lone_for_nothing(state, seat, choose(rules, state, seat, level=SEARCH_LEVEL, seed=i))
        for i, (state, seat, _) in enumerate(_island_act_positions(count))
    )


def test_island_search_never_stores_a_lone_card_for_nothing(unpruned: None) -> None:
    assert _island_lone_stores(6) == 0


def test_a_broken_island_search_stores_lone_cards_in_the_same_sample(broken: None) -> None:
    assert _island_lone_stores(6) >= 2


# --- Nautilus duel: high divers stay on the seat's own side ------------------------------------


def _gift(state: Any, seat: int, m: Move) -> bool:
    """A diver of 13+ placed on the opponent's side of a scoring slot the seat does not hold."""
    if m["type"] != "place" or m["card"] < 13 or m["side"] == seat:
        return False
    if duel_data.points_of(state.slots[m["slot"]]) <= 0:
        return False
    mine = state.board[seat][m["slot"]]
    return mine is None or not duel_data.beats(mine, m["card"])


def _duel_gift_positions(count: int) -> list[tuple[Any, int]]:
    """Placements along random games where a gift is on offer among other moves."""
    rules = duel.RULES
    rng = random.Random("blunders/duel")
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < count:
        state = rules.new_game(2, 300 + game)
        game += 1
        while not rules.is_over(state) and len(out) < count:
            seat = rules.current(state)
            assert seat is not None
            moves = rules.legal_moves(state, seat)
            gifts = [m for m in moves if _gift(state, seat, m)]
            if gifts and len(gifts) < len(moves):
                out.append((state, seat))
            state, _ = rules.apply(state, seat, rng.choice(moves))
    return out


def _duel_gifts(count: int) -> int:
    """How many of `count` sampled positions the search answers with a gift."""
    rules = duel.RULES
    return sum(
        _gift(state, seat, choose(rules, state, seat, level=SEARCH_LEVEL, seed=i))
        for i, (state, seat) in enumerate(_duel_gift_positions(count))
    )


def test_duel_search_never_hands_a_high_diver_to_the_opponent(unpruned: None) -> None:
    assert _duel_gifts(6) == 0


def test_a_broken_duel_search_hands_high_divers_over_in_the_same_sample(broken: None) -> None:
    # the upside-down search seeks the worst result, which a gift is one way to reach: in these
    # six positions it hands one diver over, enough to fail the test above
    assert _duel_gifts(6) >= 1
