"""Nauticus knowledge for the search player: silly-move pruning, scripted play, evaluation.

Everything here reads a (determinized) `engine.nauticus` state; Nauticus hides nothing, so the
state is exactly what every seat sees. Pure: no I/O.

- `prune(state, seat, moves)`: drops moves a sensible player never makes (Crowns for 0 VP or
  with more workers than the cap needs, the once-per-game extra action before the last round
  unless it scores crowns or delivers, Money with own workers when rich, passing or ending the
  turn when a loaded ship can deliver or a sail can finish a ship, a second unfinished ship, a
  mast or sail bought for taler into storage for a crest no ship is built around, a repeat copy
  (4 taler) into storage, a mast or sail into storage while the ship has two places for it
  now, anything bought into a full storage). Never empty.
- `scripted(state, seat, moves, style, rng)`: the move a scripted player makes (`crowner`,
  `builder`, `mix` for the search's rollouts; `balanced`, the bench's mix opponent); the bench's
  strategy opponents and the search's rollouts use it.
- `estimate(state)`: each seat's expected final VP (final scores, the pass tiles still to pay
  this round, ships under construction, goods waiting to sail), the search's horizon evaluation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.nauticus import data
from engine.nauticus.rules import price_of
from engine.nauticus.scoring import final_scores
from engine.nauticus.state import Player, Ship, State

Move = dict[str, Any]
STYLES = ("crowner", "builder", "mix")
# The bench's "mix" opponent: the builder's one ship at a time with the crowner's discipline (every
# pass tile flipped each round, crowns from 2 VP). Not a rollout style: in 2-player games the
# rollouts' `mix` plays the builder's very moves, and changing the rollouts changes the search.
BALANCED = "balanced"
TOTAL_PHASES = data.PHASES_PER_ROUND


# --- small readings of the state ---------------------------------------------------------------


def _performance(state: State) -> str | None:
    turn = state.turn
    if turn is None:
        return None
    if turn.extra is not None:
        return turn.extra
    if turn.passed or turn.closed:
        return None
    return state.action


def crown_vp(state: State, seat: int, workers: int) -> int:
    """VP a Crowns move with `workers` scores now (the 15 VP cap of the performance counted)."""
    turn = state.turn
    done = turn.crown_vp if turn is not None else 0
    return min(state.players[seat].crowns * workers, data.CROWN_CAP - done)


def phases_left(state: State) -> int:
    """Action phases still to come in the game, the current one included."""
    return (state.rounds - state.round) * TOTAL_PHASES + (TOTAL_PHASES - state.phase + 1)


def _turns_left_in_round(state: State, seat: int) -> int:
    """This seat's turns still to come this round, the current one included if not yet over."""
    left = TOTAL_PHASES - state.phase  # later phases of the round
    if state.step in ("choose", "bonus"):
        left += 1
    elif state.turn is not None:
        n = len(state.players)
        # seats after the acting one (clockwise, before the start player comes back) still play
        order = [(state.start + k) % n for k in range(n)]
        pos = order.index(state.turn.seat)
        if seat in order[pos:]:
            left += 1
    return left


def _must_pass_now(state: State, seat: int) -> bool:
    """Whether the seat's turns left this round are no more than its face-up pass tiles, so
    that every turn from now on must pass for all of them to flip by round end."""
    passes = state.players[seat].passes
    return passes < 3 and _turns_left_in_round(state, seat) <= 3 - passes


def _target_size(state: State) -> int:
    left = phases_left(state)
    if left > 16:
        return 3
    if left > 5:
        return 2
    return 1


# --- pruning -----------------------------------------------------------------------------------


def prune(state: State, seat: int, moves: list[Move]) -> list[Move]:
    """`moves` without the silly ones (never empty when `moves` is not)."""
    if len(moves) <= 1 or state.turn is None:
        return moves
    turn = state.turn
    player = state.players[seat]
    last_round = state.round >= state.rounds
    out: list[Move] = []
    best_crowns = 0
    crests: frozenset[str] | None = None  # _rigging_crests(player), read at the first storage buy
    crests_known = False
    placeable: set[str] | None = None  # masts and sails with two places on a ship, read lazily
    # a ship ready to deliver and the workers to do it: deliver (goods score at least 2 VP
    # each, against a worker's third of a VP), never pass or end the turn instead; likewise
    # the sail that finishes a ship is placed at once (see _can_finish_a_ship)
    must_act = any(m["type"] == "deliver" for m in moves) or _can_finish_a_ship(player, moves)
    for m in moves:
        t = m["type"]
        if must_act and t in ("pass", "end_turn", "end_extra"):
            continue
        if (
            t in ("buy", "transport")
            and m["to"] == {"ship": "new"}
            and any(not s.finished for s in player.ships)
        ):
            continue  # one ship at a time: a second unfinished ship splits the parts to come
        if t == "buy" and m["to"] == "storage":
            if not crests_known:  # once per call: prune runs at every rollout step
                crests, crests_known = _rigging_crests(player), True
            if _wasted_in_storage(state, player, m["item"], crests):
                continue
            if m["item"].startswith(("mast_", "sail_")):
                if placeable is None:
                    placeable = _placeable_rigging(moves)
                if m["item"] in placeable:
                    continue  # both copies onto the ship now (see _placeable_rigging)
        if t == "crowns":
            k = m["workers"]
            vp = crown_vp(state, seat, k)
            if vp <= 0 or vp <= crown_vp(state, seat, k - 1):
                continue  # 0 VP, or a worker more for no VP more
            best_crowns = max(best_crowns, vp)
        elif t == "extra":
            if not _extra_worth(state, seat, m["action"], last_round):
                continue
        elif (
            t == "money"
            and turn.extra is None
            and player.taler >= 25
            and m["workers"] > max(turn.blue, 1)
        ):
            continue  # plenty of money: only free (blue) workers go to Money
        out.append(m)
    return out or moves


def _placeable_rigging(moves: list[Move]) -> set[str]:
    """The masts and sails `moves` can buy onto two or more places of a ship.

    Bought into storage, such a part is dominated: the ship could take it now and its repeat
    copy (4 taler, N-BUY-1) too, where the stored one still needs a Transport worker. Robots
    bought the first copy into storage for 0-3 taler and then the repeat onto the ship, a part
    left in storage for 4 taler and a worker, beside a ship with room for both (seeds 4109,
    4110). With one place only, storage first stays: it is the one way to a second copy for
    the next hull tile, since a repeat into storage is dropped (`_wasted_in_storage`); dropping
    it there too won 52 of 120 games against the code before (margin -2.3 +- 1.8 VP).
    """
    places: dict[str, int] = {}
    for m in moves:
        if m["type"] == "buy" and isinstance(m["to"], dict):
            item = m["item"]
            if item.startswith(("mast_", "sail_")):
                places[item] = places.get(item, 0) + 1
    return {item for item, n in places.items() if n >= 2}


def _can_finish_a_ship(player: Player, moves: list[Move]) -> bool:
    """Whether one of `moves` puts the last sail on a ship, finishing it (N-YARD-6).

    The last part of a ship is always a sail: every hull tile needs a mast and the mast a sail,
    so a ship is one move from finished only when its hull is closed, every tile has its mast
    and one sail is missing. Finishing it scores the ship (2-35 VP) and its rewards at once and
    lets it deliver from then on; turning it down saves a pass tile (3 VP at most) and bets on a
    later Sails or Transport phase. Robots in self-play turned it down in 12 of 28 such
    positions (normal, seeds 4024-4029 with 3 players, 2032-2039 with 2), some for a whole round,
    and three ships one sail short were never finished (self-play seed 4027).
    """
    ready = [
        i
        for i, s in enumerate(player.ships)
        if s.closed and None not in s.masts and s.sails.count(None) == 1
    ]
    if not ready:
        return False
    for m in moves:
        to = m.get("to")
        if (
            m["type"] in ("buy", "transport")
            and isinstance(to, dict)
            and to.get("ship") in ready
            and m["item"].startswith("sail_")
        ):
            return True  # the one sail-less mast of that ship: the only tile a sail can go
    return False


def _rigging_crests(player: Player) -> frozenset[str] | None:
    """The crests whose masts and sails are worth buying into storage (None: any crest).

    The unfinished ship's crest once it has one; otherwise the crest (or crests, on a tie) most
    stored already, since one ship takes one crest (N-YARD-5) and the search builds one ship
    at a time; with nothing stored and no crest chosen, any.
    """
    active = next((s for s in player.ships if not s.finished), None)
    if active is not None and active.crest is not None:
        return frozenset((active.crest,))
    counts = {c: 0 for c in data.CRESTS}
    for item in player.storage:
        if item.startswith(("mast_", "sail_")) and item[5:] in counts:  # crown ones fit any
            counts[item[5:]] += 1
    top = max(counts.values())
    if top == 0:
        return None
    return frozenset(c for c, n in counts.items() if n == top)


def _wasted_in_storage(
    state: State, player: Player, item: str, crests: frozenset[str] | None
) -> bool:
    """Whether buying `item` into storage throws taler or a worker away (`crests`: the
    player's `_rigging_crests`).

    A tile that does not fit in storage is lost as soon as it is bought (N-GOLD-1). A mast or
    sail bought for taler is waste when its crest is not the one the seat's ship (or stored
    rigging) is built around: it could only serve a later ship, and the robots bought sails of
    four crests in one phase with no ship to carry any of them. A free (0-taler) tile costs only
    the worker, which it repays as a leftover, so it stays allowed. A repeat copy (4 taler,
    N-BUY-1) into storage is waste too: it still needs a Transport worker to reach a ship, and a
    later phase sells it for 0-3. Robots bought a second sail and a second mast at 4 each into
    storage in round 1, before their ships had a mast for the sail, and spent the rounds after
    with 0-3 taler beside four-tile ships their last sails never reached (3-player self-play,
    seed 4059).
    """
    if player.storage_used + data.item_units(item) > data.STORAGE_UNITS:
        return True
    price = price_of(state, item)
    if price >= data.REPEAT_PRICE:
        return True
    if not item.startswith(("mast_", "sail_")) or price == 0:
        return False
    return crests is not None and item[5:] not in crests  # "mast_" and "sail_": 5 characters


def _extra_worth(state: State, seat: int, action: str, last_round: bool) -> bool:
    player = state.players[seat]
    if action == "crowns":
        return player.crowns * (player.workers + data.EXTRA_WORKERS) >= 9
    if action == "deliver":
        return any(s.finished and s.goods_count() == s.size for s in player.ships)
    if not last_round:
        return False
    if action in ("money", "transport"):
        return action == "transport" and bool(player.storage) and bool(player.ships)
    return player.taler >= data.EXTRA_PRICE


# --- scripted players --------------------------------------------------------------------------


def _useful_dest(player: Player, item: str, to: Any, target: int) -> float:
    """How much a tile at destination `to` advances the ships (0: not at all)."""
    ships = player.ships
    active = next((i for i, s in enumerate(ships) if not s.finished), None)
    if to == "storage":
        return 0.0
    if to == {"ship": "new"}:
        if active is not None:
            return 0.0
        if item == "one_ship":
            return 2.0 if target == 1 else 0.0
        if item == "middle" and target < 3:
            return 0.0
        return 3.0 if target >= 2 else 0.0
    i = to["ship"]
    ship = ships[i]
    if item in data.GOODS:
        if not ship.finished and i != active:
            return 0.0
        return 4.0 if ship.finished else 1.5
    if i != active:
        return 0.0
    if item in data.HULLS:
        opens = int(ship.front_open) + int(ship.back_open)
        if item == "middle":
            return 3.0 if ship.size + opens < target else 0.0
        return 3.5
    if item.startswith("mast_") or item.startswith("sail_"):
        return 3.5 if ship.closed else 2.5
    return 0.0


def _goods_kind_bonus(player: Player, item: str) -> float:
    if item not in data.GOODS:
        return 0.0
    k = data.GOODS.index(item)
    n = player.delivered[k]
    return 0.4 * (data.goods_score(n + 1) - data.goods_score(n)) / 5


def _build_score(state: State, seat: int, m: Move) -> float:
    """Value of one build move for a builder (<= 0: not useful)."""
    player = state.players[seat]
    target = _target_size(state)
    t = m["type"]
    if t == "deliver":
        return 10.0
    if t == "buy":
        item = m["item"]
        price = price_of(state, item)
        if m["to"] == "storage":
            if price != 0:
                return 0.0
            # a free tile is worth storing when the active ship could use it
            probe = [d for d in _dests_for(player, item) if _useful_dest(player, item, d, target)]
            return 1.0 if probe and item not in player.storage else 0.0
        useful = _useful_dest(player, item, m["to"], target)
        if useful <= 0:
            return 0.0
        if price > player.taler - (2 if item in data.GOODS else 0) and price > 2:
            return 0.0
        return useful + _goods_kind_bonus(player, item) - 0.5 * price
    if t == "transport":
        return _useful_dest(player, m["item"], m["to"], target) + 1.0
    return 0.0


def _dests_for(player: Player, item: str) -> list[Any]:
    from engine.nauticus.rules import shipyard_destinations

    return shipyard_destinations(player, item)


def _choose_space(state: State, seat: int, moves: list[Move], style: str) -> Move:
    player = state.players[seat]
    best, best_key = moves[0], -1e9
    for m in moves:
        space = m["space"]
        action = state.tiles[space]
        bonus = data.SPACE_BONUS[space]
        blue = state.blue_on(space)
        v = bonus.vp + 0.7 * bonus.workers + 0.3 * bonus.taler + (1 if bonus.tile else 0)
        if action == "crowns":
            v += min(player.crowns * (player.workers + blue + bonus.workers), data.CROWN_CAP) / 2
        elif action == "money":
            v += 1 + blue
        elif style != "crowner":
            if action == "deliver" and any(
                s.finished and s.goods_count() == s.size for s in player.ships
            ):
                v += 8
            elif action in data.PAID_ACTIONS:
                v += 2 + blue
            elif action == "transport" and player.storage and player.ships:
                v += 2
        if v > best_key:
            best, best_key = m, v
    return best


def _reward(state: State, seat: int, moves: list[Move], style: str) -> Move:
    player = state.players[seat]
    order = ["vp", "workers", "taler", "crown_mast", "crown_sail", "goods"]
    if style != "builder" and player.workers >= 4:
        order = ["crown_sail", "crown_mast", "vp", "workers", "taler", "goods"]
    if player.taler < 4:
        order = ["taler", *[o for o in order if o != "taler"]]
    for kind in order:
        for m in moves:
            if m["kind"] == kind:
                return m
    return moves[0]


def scripted(state: State, seat: int, moves: list[Move], style: str, rng: random.Random) -> Move:
    """The move a scripted Nauticus player of `style` makes (from `moves`, the legal ones)."""
    if len(moves) == 1:
        return moves[0]
    t0 = moves[0]["type"]
    if t0 == "choose_action":
        return _choose_space(state, seat, moves, style)
    if t0 == "take_bonus":
        if style == "crowner":
            return moves[0]
        player = state.players[seat]
        best = max(
            moves,
            key=lambda m: sum(
                _useful_dest(player, m["item"], d, 3) for d in _dests_for(player, m["item"])
            ),
        )
        return best
    if t0 == "reward":
        return _reward(state, seat, moves, style)
    if t0 == "take_free_tile":
        return moves[0]
    turn = state.turn
    assert turn is not None
    player = state.players[seat]
    by_type: dict[str, list[Move]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    build = style != "crowner"
    # 1. crowns: the fewest workers reaching the best VP, when it is worth a worker
    if "crowns" in by_type:
        best = max(
            by_type["crowns"], key=lambda m: (crown_vp(state, seat, m["workers"]), -m["workers"])
        )
        vp = crown_vp(state, seat, best["workers"])
        if vp >= 3 or (vp > 0 and style == "crowner") or (vp >= 2 and style == BALANCED):
            return best
    # 1b. the balanced player keeps its passes for the turns it has left, so that no pass tile
    # stays face up at round end (a ready ship still delivers first)
    if (
        style == BALANCED
        and "pass" in by_type
        and "deliver" not in by_type
        and _must_pass_now(state, seat)
    ):
        return by_type["pass"][0]
    # 2. build moves
    if build:
        scored = [(_build_score(state, seat, m), i, m) for i, m in enumerate(moves)]
        scored = [s for s in scored if s[0] > 0]
        if scored:
            return max(scored, key=lambda s: (s[0], -s[1]))[2]
    # 3. the extra action, when worth it
    if "extra" in by_type and (turn.uses > 0 or turn.passed or _performance(state) is None):
        last = state.round >= state.rounds
        wants = ["crowns", "deliver"] if style == "crowner" else ["deliver", "crowns"]
        if build and last:
            wants += ["goods", "sails", "masts", "hulls"]
        for action in wants:
            if _extra_worth(state, seat, action, last):
                for m in by_type["extra"]:
                    if m["action"] == action:
                        return m
    # 4. money: free workers, or own ones when short of taler
    if "money" in by_type:
        blue = turn.blue if turn.extra is None else 0
        need = 6 if build else 0
        if style == "crowner" and _must_pass_now(state, seat):
            pass  # must pass now to flip every tile this round
        elif blue > 0 and turn.uses < 1:
            return by_type["money"][min(blue, len(by_type["money"])) - 1]
        elif player.taler < need and turn.uses < 1:
            return by_type["money"][0]
    # 5. pass (flips a pass tile while some are face up), else end the turn / extra
    if "pass" in by_type and (player.passes < 3 or turn.uses == 0):
        return by_type["pass"][0]
    if "end_extra" in by_type:
        return by_type["end_extra"][0]
    if "end_turn" in by_type:
        return by_type["end_turn"][0]
    return moves[rng.randrange(len(moves))]


# --- evaluation --------------------------------------------------------------------------------


# Parts one performance of Hulls, Masts or Sails adds to a ship, on average: a seat that builds
# buys two or three in one (the blue workers first; a repeat costs 4 taler and a worker). An
# early calibration on scripted games had set 1.0, and with it the robots never planned a ship
# of three or four tiles: in self-play they placed 4 parts a game and finished ships of one or
# two. With 2.0 and the masts' `ORDER_CUT`, normal is as strong (23 of 48 against the code
# with 1.0; 86 of 90 against the scripted players, 88 before) and builds bigger ships
# (self-play: 10.3 VP of finished ships a seat against 3.9; against the scripted players 0.96
# ships a game, 0.76).
PARTS_PER_PERFORMANCE = 2.0
GOODS_PER_PERFORMANCE = 2.5
REWARD_VALUE = 3.0  # one ship reward: 3 VP, 7 taler, 3 workers or a crown tile, about alike
PART_COST = 1.0  # VP a missing part still costs: about 2 taler and a worker
# Taler a part bought costs on average: a performance buys two or three, the first copy of an
# item at the space's price (0-3), and a ship of one crest needs identical masts and sails,
# each further copy at 4 (N-BUY-1).
PART_PRICE = 2.75
GOOD_VP = 3.0  # a delivered good of a kind already started, a little more than the first one
GOOD_COST = 0.8  # VP a good still to buy costs: its price (0-3 taler, a repeat 4) and a worker
# Blue workers a space brings, on average over the wheel's sections (N-BOARD-2): an action's
# space is not known before its tile is chosen. A delivery takes a worker per good and a good
# under every hull tile; the estimate once counted goods on board as delivered whatever the
# load and the workers, and robots ended 3-player games with four-tile ships carrying one to
# three goods (self-play seeds 4000-4011).
SPACE_BLUE = sum(data.WHEEL) / len(data.WHEEL)
# Every part placed takes a worker, bought or moved from storage (N-ACT-1, N-TRANS-1): the blue
# workers of the performances counted on (SPACE_BLUE each), the seat's own, the extra
# action's 2, and about one a round more (start players' bonus spaces, rewards). The estimate
# once counted parts without workers, so Money with every own worker cost only their kept
# value: a robot turned 6 workers into 12 taler beside a three-tile ship missing its stern, a
# mast and three sails (stored), held 24 taler and no worker in the last round's Sails and
# Masts phases, and never finished the ship (3-player self-play, seed 4055).
WORKER_INCOME = 1.0
# An own worker kept while most of the game is to come is worth more than its leftover taler
# (a third of a VP): later it buys a second part in a phase, scores 2-3 VP in a Crowns phase
# after passes, or at worst becomes 2 taler in a Money phase. Without this the search spent
# every worker at once for 1 VP each (Crowns with one crown, Money) and bought one part a
# phase for the rest of the game.
WORKER_HOLD = 0.9
WORKER_HOLD_MAX = 6  # workers beyond this many rarely find a use
WORKER_HOLD_PHASES = 14  # the bonus fades over the last two rounds' phases
# Performances a later round offers a seat for each action: the tile comes in 7 of 8 rounds,
# and the seat performs in 4 of the round's 7 phases, since it passes in 3 to flip its pass
# tiles (N-ACT-2, N-ROUND-5): 7/8 × 4/7 = 1/2. Counting the whole 7/8 made a ship's parts
# look sure while two rounds were left: two robots left Hulls unchosen for two rounds beside
# an open hull (self-play seed 2003) and ended with it unfinished and 41 taler unspent.
LATER_PERFORMANCES = (TOTAL_PHASES - len(data.PASS_TILES)) / data.SPACES
# How the chance that `e` parts expected (PARTS_PER_PERFORMANCE × performances) supply `n`
# missing grows: 1 - exp(-SPREAD·e/n), as for a count that varies from game to game (e/n = 1:
# 0.78; 2: 0.95), where min(1, e/n) was sure from e = n on. While it was sure, buying a part
# now scored nothing over buying it later, so the search kept passing and the parts never came;
# now each part bought raises the chance. With these two changes, normal won 15 of 24 against
# itself as it was (84.8 VP a game to 77.6) and two robots scored 82.5 VP each instead of 74.8
# (seeds 2000-2031).
FINISH_SPREAD = 1.5
# Performances less for a kind whose parts wait on another kind's phase: a sail needs its mast
# (a Masts phase first), a mast for a hull tile not yet laid needs a Hulls phase first; no cut
# while the seat is in that earlier phase now. Without the masts' cut, a three-tile hull open
# at the back with all its masts and sails (self-play seed 2015) was valued near finished
# through the last round, when its stern, then that stern's mast, then its sail still had to
# come in that order; it was never finished.
ORDER_CUT = 0.5


def _never_sure(expected: float, missing: float) -> float:
    """The chance that `expected` items (parts or goods) to come supply `missing` ones:
    1 - exp(-FINISH_SPREAD · expected / missing), never 1 (see FINISH_SPREAD)."""
    return 1.0 - math.exp(-FINISH_SPREAD * expected / missing)


def _round_choices(state: State) -> tuple[list[str], int]:
    """(the actions still face up, the phases of this round whose tile is still to choose: the
    one in progress too while its start player has not chosen)."""
    free = [state.tiles[s] for s in range(data.SPACES) if s not in state.chosen]
    return free, TOTAL_PHASES - state.phase + (1 if state.step == "choose" else 0)


def choices_to_come(state: State, wanted: Sequence[Sequence[str]]) -> tuple[set[str], int]:
    """(the tiles sure to be chosen, the choices left to spread) for the rest of this round.

    The start player chooses each phase's tile and passes the role on clockwise (N-ROUND-1,
    N-ROUND-3): each chooser in turn takes the first tile of its `wanted` (the actions its
    plans need, in order) still face up; a chooser who wants none of them chooses at random.
    """
    free, to_choose = _round_choices(state)
    n = len(state.players)
    sure: set[str] = set()
    spread = 0
    for k in range(TOTAL_PHASES - to_choose + 1, TOTAL_PHASES + 1):  # the phases still to choose
        seat = (state.start + k - state.phase) % n
        pick = next((a for a in wanted[seat] if a in free and a not in sure), None)
        if pick is None:
            spread += 1
        else:
            sure.add(pick)
    return sure, spread


def action_ops(
    state: State, seat: int, choices: tuple[set[str], int] | None = None
) -> dict[str, float]:
    """Expected performances of each action still open to `seat`, the current one included.

    A later round offers each action `LATER_PERFORMANCES` (1/2) times; this round, each tile
    not yet chosen is played with chance (phases still to choose / tiles left); the phase in
    progress counts once if the seat's turn in it has not ended. With `choices`
    (`choices_to_come`), the tiles sure to be chosen count once and the other choices spread
    over the rest.
    """
    later = (state.rounds - state.round) * LATER_PERFORMANCES
    ops = dict.fromkeys(data.ACTIONS, later)
    free, to_choose = _round_choices(state)
    if free and to_choose > 0:
        sure, spread = choices if choices is not None else (set(), to_choose)
        rest = len(free) - len(sure)
        p = min(1.0, spread / rest) if rest else 0.0
        for a in free:
            ops[a] += 1.0 if a in sure else p
    if state.action is not None and _acts_in_current(state, seat):
        ops[state.action] += 1.0
    return ops


def _acts_in_current(state: State, seat: int) -> bool:
    """Whether `seat` still acts in the action phase in progress (its turn not yet over)."""
    turn = state.turn
    if state.action is None:
        return False
    if state.step == "bonus" or turn is None:
        return True
    if turn.seat == seat:
        return not (turn.passed or turn.closed)
    return _turns_left_in_round(state, seat) > TOTAL_PHASES - state.phase  # it acts later


def _stored_rigging(ship: Ship, storage: tuple[str, ...]) -> tuple[int, int]:
    """(masts, sails) in storage this ship can still take: crown ones and those of its crest.

    A ship with no crest yet takes one crest only (N-YARD-5): the one with the most stored
    masts and sails, not every stored mast and sail at once (which made sails of three crests
    bought into storage look like parts of one ship).
    """
    crests = data.CRESTS if ship.crest is None else (ship.crest,)
    best = (0, 0)
    for c in crests:
        masts = sum(1 for i in storage if i in (f"mast_{c}", "mast_crown"))
        sails = sum(1 for i in storage if i in (f"sail_{c}", "sail_crown"))
        if masts + sails > best[0] + best[1]:
            best = (masts, sails)
    return best


def _ship_plan(
    ship: Ship,
    player: Player,
    ops: dict[str, float],
    extra: float,
    left_rounds: float,
    now: str | None,
) -> tuple[float, float, dict[str, int]]:
    """(expected VP, finishing chance, parts missing by action) of an unfinished ship at its
    best size (0 VP and no parts when no size is worth building).

    For each size it can still reach: the chance that the Hulls, Masts and Sails still to come
    (and the extra action, and Transport for what lies in storage) supply the missing parts
    (per kind 1 - exp(-FINISH_SPREAD × PARTS_PER_PERFORMANCE × performances expected / parts
    missing): never sure), sails needing their masts first (unless the seat is in a Masts phase
    now: its masts come before every Sails phase still to come) and masts for new hull tiles
    their hulls first (likewise unless in a Hulls phase now; `now` is the action the seat still
    performs in the phase in progress), and the taler (`PART_PRICE` a part still to buy; a
    stored part costs none) and the workers (one a part, bought or moved: `SPACE_BLUE`,
    `WORKER_INCOME`) for the missing parts, times
    the ship's score and rewards, less what the missing parts still cost and the leftover
    taler its parts stop counting once finished.
    """
    size = ship.size
    opens = int(ship.front_open) + int(ship.back_open)
    masts = sum(m is not None for m in ship.masts)
    sails = sum(s is not None for s in ship.sails)
    if opens:
        lo = size + opens
        hi = min(4, size + opens + data.MAX_MIDDLES - ship.middles)
    else:
        lo = hi = size
    stored_m, stored_s = _stored_rigging(ship, player.storage)
    stored_h = sum(1 for i in player.storage if i in ("bow", "stern", "middle"))
    carry = PARTS_PER_PERFORMANCE * ops["transport"]
    parts_now = size + masts + sails
    best: tuple[float, float, dict[str, int]] = (0.0, 0.0, {})
    # parts of each kind the ship can take before any part of the kind before it comes: a
    # mast for each hull tile without one, a sail for each mast without one
    ready = {"masts": float(size - masts), "sails": float(masts - sails)}
    # stored parts beyond what fits now go on only with a Transport after the kind before them:
    # not the one in progress, and with the same order cut as a purchase
    late_room = PARTS_PER_PERFORMANCE * max(
        0.0, ops["transport"] - (1.0 if now == "transport" else 0.0) - ORDER_CUT
    )
    for t in range(max(lo, 1), hi + 1):
        need = {"hulls": t - size, "masts": t - masts, "sails": t - sails}
        stored = {"hulls": stored_h, "masts": stored_m, "sails": stored_s}
        chance = 1.0
        room = carry
        blue = 0.0  # blue workers the performances counted on bring, on average
        moved_before = 0.0  # parts of the kind before, moved from storage (same Transport)
        bought = 0.0  # parts still to buy
        for kind, before in (("hulls", ""), ("masts", "hulls"), ("sails", "masts")):
            n = float(need[kind])
            if n <= 0:
                moved_before = 0.0
                continue
            # this kind waits on the kind before it, unless the seat is placing those now
            waits = bool(before) and need[before] > 0 and now != before
            fits = ready[kind] + moved_before if waits else n
            movable = min(stored[kind], n)
            early = min(movable, fits, room)
            room -= early
            late = min(movable - early, room, late_room) if waits else 0.0
            room -= late
            moved_before = early + late
            n -= early + late
            fits = max(0.0, fits - early)
            if n <= 0:
                continue
            bought += n
            o = ops[kind] + extra - (ORDER_CUT if waits else 0.0)
            # the blue workers of the performances counted on (the extra action has none,
            # N-EXTRA-2), on average
            blue += SPACE_BLUE * max(0.0, o - extra)
            if waits and now == kind and fits < n:
                # the performance in progress places only what fits now (a sail on a mast
                # that is there); the rest waits for one after the kind before it
                first = min(n, fits)
                if first > 0:
                    chance *= _never_sure(PARTS_PER_PERFORMANCE, first)
                n -= first
                o -= 1.0
            if n <= 0:
                continue
            chance *= _never_sure(PARTS_PER_PERFORMANCE * max(0.0, o), n)
        if room < carry:  # stored parts moved: a Transport performance's blue workers
            blue += SPACE_BLUE * min(1.0, ops["transport"])
        missing = sum(max(0, n) for n in need.values())
        if bought > 0:  # parts moved from storage cost no taler
            chance *= min(1.0, (player.taler + 4.0 * left_rounds + 4.0) / (PART_PRICE * bought))
        # every part placed, bought or moved, takes a worker (N-ACT-1, N-TRANS-1)
        hands = player.workers + blue + 2.0 * extra + WORKER_INCOME * (left_rounds + 1.0)
        chance *= min(1.0, hands / (missing + 1e-9))
        # a finished ship also carries goods to deliver in the rounds after it
        value = data.SHIP_SCORE[t] + REWARD_VALUE * t + 1.5 * t * min(1.0, left_rounds / 2)
        ev = chance * (value - parts_now / data.LEFTOVER_DIVISOR) - missing * PART_COST * (
            0.5 + 0.5 * chance
        )
        if ev > best[0]:
            best = (ev, chance, need)
    return best


def _goods_plan(
    ship: Ship,
    player: Player,
    delivered: list[int],
    ops: dict[str, float],
    stored: int,
    goods_now: bool,
) -> float:
    """Expected VP from delivering goods with a finished ship, up to two loads.

    A delivery takes a good under every hull tile and a worker per good (N-DELIV-1): the first
    load counts with the chance that the goods still missing come (stored ones by Transport,
    the rest bought, `GOODS_PER_PERFORMANCE` a Goods performance, never sure), that a Deliver
    phase follows (half a performance less while goods must come first, unless the seat is in
    a Goods phase now) and that the seat has the workers (own ones and the Deliver space's blue
    ones on average). The goods on board count at their exact VP by kind, the others at
    `GOOD_VP`, less what the goods still to buy cost and the leftover taler the goods and
    workers stop counting once delivered. A load with no chance adds nothing, so a good put on
    a ship that cannot deliver scores only its leftover taler. A second load counts only while
    a second Deliver phase may come.
    """
    n = ship.size
    loaded = [g for g in ship.goods if g is not None]
    deliveries = ops["deliver"]
    if deliveries <= 0:
        return 0.0
    missing = n - len(loaded)
    supply = (
        min(stored, missing) * min(1.0, ops["transport"]) + GOODS_PER_PERFORMANCE * ops["goods"]
    )
    load = 1.0
    if missing > 0:
        load = _never_sure(supply, missing)
        if not goods_now:
            deliveries = max(0.0, deliveries - ORDER_CUT)
    workers = min(1.0, (player.workers + SPACE_BLUE) / n)
    chance = load * min(1.0, deliveries) * workers
    gain = 0.0
    for g in loaded:
        k = data.GOODS.index(g)
        gain += data.goods_score(delivered[k] + 1) - data.goods_score(delivered[k])
        delivered[k] += 1
    gain += missing * GOOD_VP - (len(loaded) + n) / data.LEFTOVER_DIVISOR
    value = chance * (gain - missing * GOOD_COST)
    # a second load: n goods more, bought, and a second Deliver phase
    again = min(1.0, max(0.0, deliveries - 1.0))
    if again > 0:
        left = max(0.0, supply - missing)
        reload = _never_sure(left, n)
        value += chance * again * reload * n * (GOOD_VP - GOOD_COST - 1 / data.LEFTOVER_DIVISOR)
    return value


def _plans(
    state: State, seat: int, ops: dict[str, float], left_rounds: float
) -> tuple[float, list[str]]:
    """(expected VP, actions wanted) of the seat's ships: deliveries of the finished ones
    (`_goods_plan`) and the unfinished ones at their best sizes (`_ship_plan`), the most advanced
    first; later ones get the performances it leaves, so two ships started at once are not
    both counted as sure. The actions wanted, in the order the seat needs them: Deliver for a
    loaded ship, then the parts missing (hulls, masts, sails), then goods and a Deliver phase
    for a finished ship still to load."""
    p = state.players[seat]
    extra = 0.6 if p.extra else 0.0
    stored_goods = sum(1 for i in p.storage if i in data.GOODS)
    delivered = list(p.delivered)
    ops = dict(ops)
    # the action the seat still performs in the phase in progress, if any
    now = state.action if _acts_in_current(state, seat) else None
    goods_now = now == "goods"
    value = 0.0
    first: list[str] = []
    last: list[str] = []
    for ship in p.ships:
        if ship.finished:
            value += _goods_plan(ship, p, delivered, ops, stored_goods, goods_now)
            stored_goods = 0
            if None in ship.goods:
                last += ["goods", "deliver"]
            else:
                first.append("deliver")
    for ship in sorted((s for s in p.ships if not s.finished), key=lambda s: -s.parts()):
        ev, chance, need = _ship_plan(ship, p, ops, extra, left_rounds, now)
        value += ev
        for kind, n in need.items():
            ops[kind] = max(0.0, ops[kind] - chance * n / PARTS_PER_PERFORMANCE)
            if n > 0:
                first.append(kind)
    return value, first + last


def estimate(state: State) -> list[float]:
    """Each seat's expected final VP, from the final scores of the position plus what is under way.

    Added to `final_scores(state)[seat].vp`: the face-up pass tiles this round it cannot flip any
    more (and 35 % of the others, which cost a turn to flip); each unfinished ship's expected
    value at its best size (`_ship_plan`: score and rewards times the chance the actions still to
    come supply its parts, less their cost); each finished ship's deliveries (`_goods_plan`: a
    full load from the goods on board and the Goods phases to come, then a Deliver phase and a
    worker per good); the rewards of a ship just finished that are still to be chosen; crowns
    while a Crowns action may still come; and the own workers kept, above their leftover taler,
    while most of the game is to come.

    The actions still to come this round are those its choosers will take (`choices_to_come`):
    a first pass values every seat's ships with each tile left equally likely, which gives the
    actions each seat needs; the ships are then valued again with each chooser taking the first
    of its needs still face up. Counting every tile left alike, a seat about to choose counted
    on the Sails its last part needed no more than on any other tile, and one whose needs were
    left to another seat's choice counted on them as much.
    """
    scores = final_scores(state)
    if state.step == "over":
        return [float(s.vp) for s in scores]
    left = phases_left(state)
    left_rounds = float(state.rounds - state.round)
    seats = range(len(state.players))
    plain = [_plans(state, seat, action_ops(state, seat), left_rounds) for seat in seats]
    choices = choices_to_come(state, [w for _, w in plain])
    out: list[float] = []
    for seat, p in enumerate(state.players):
        v = float(scores[seat].vp)
        # pass tiles still face up: paid at the end of this round
        face_up = data.PASS_TILES[p.passes :]
        turns = _turns_left_in_round(state, seat)
        can_flip = min(len(face_up), turns)
        v -= sum(face_up[can_flip:]) + 0.35 * sum(face_up[:can_flip])
        plans = plain[seat][0]
        if choices[0]:
            # the choosers of this round's phases take what their plans need (N-ROUND-1)
            plans, _ = _plans(state, seat, action_ops(state, seat, choices), left_rounds)
        v += plans
        # rewards of a ship just finished, still to be chosen
        turn = state.turn
        if turn is not None and turn.seat == seat:
            v += REWARD_VALUE * sum(q.left for q in turn.pending if q.kind == "reward")
        v += WORKER_HOLD * min(p.workers, WORKER_HOLD_MAX) * min(1.0, left / WORKER_HOLD_PHASES)
        # crowns keep their value while there are Crowns actions to come
        if left > 1:
            v += 0.6 * min(p.crowns - p.passes, 5) * min(1.0, left / 7)
        out.append(v)
    return out
