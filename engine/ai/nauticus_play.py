"""Nauticus knowledge for the search player: silly-move pruning, scripted play, evaluation.

Everything here reads a (determinized) `engine.nauticus` state; Nauticus hides nothing, so the
state is exactly what every seat sees. Pure: no I/O.

- `prune(state, seat, moves)`: drops moves a sensible player never makes (Crowns for 0 VP or
  with more workers than the cap needs, the once-per-game extra action before the last round
  unless it scores crowns or delivers, Money with own workers when rich). Never empty.
- `scripted(state, seat, moves, style, rng)`: the move a scripted player makes (`crowner`,
  `builder`, `mix`); the bench's strategy opponents and the search's rollouts use it.
- `estimate(state)`: each seat's expected final VP (final scores, the pass tiles still to pay
  this round, ships under construction, goods waiting to sail), the search's horizon evaluation.
"""

from __future__ import annotations

import random
from typing import Any

from engine.nauticus import data
from engine.nauticus.rules import price_of
from engine.nauticus.scoring import final_scores
from engine.nauticus.state import Player, Ship, State

Move = dict[str, Any]
STYLES = ("crowner", "builder", "mix")
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
    for m in moves:
        t = m["type"]
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
    from engine.nauticus.rules import _dest_json, _dock_dests

    return [_dest_json(d) for d in _dock_dests(player, item)]


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
        if vp >= 3 or (vp > 0 and style == "crowner"):
            return best
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
        if (
            style == "crowner"
            and player.passes < 3
            and _turns_left_in_round(state, seat) <= 3 - player.passes
        ):
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


def _ship_potential(ship: Ship, left: int) -> float:
    """Expected VP still to come from an unfinished ship (its size if closed, else planned)."""
    opens = int(ship.front_open) + int(ship.back_open)
    size = min(ship.size + opens, 4)
    need = 3 * size
    have = (
        ship.size + sum(m is not None for m in ship.masts) + sum(s is not None for s in ship.sails)
    )
    missing = need - have
    # about 1.5 parts per phase at best; fewer phases left, lower the chance to finish
    chance = max(0.0, min(1.0, (1.6 * left - missing) / (1.6 * left + 1e-9)))
    value = data.SHIP_SCORE[size] + data.REWARD_VP * size
    return float(chance * value * (have / need) ** 1.3)


def estimate(state: State) -> list[float]:
    """Each seat's expected final VP, from the final scores of the position plus what is under way.

    Added to `final_scores(state)[seat].vp`: the face-up pass tiles this round it cannot flip any
    more (or half of the others, which cost a turn to flip), the ships under construction (their
    finished value and rewards times the share built times the chance to finish in the phases
    left), the goods loaded on finished ships (their delivery value), and a small value for
    crowns while a Crowns action may still come.
    """
    scores = final_scores(state)
    if state.step == "over":
        return [float(s.vp) for s in scores]
    left = phases_left(state)
    out: list[float] = []
    for seat, p in enumerate(state.players):
        v = float(scores[seat].vp)
        # pass tiles still face up: paid at the end of this round
        face_up = data.PASS_TILES[p.passes :]
        turns = _turns_left_in_round(state, seat)
        can_flip = min(len(face_up), turns)
        v -= sum(face_up[can_flip:]) + 0.35 * sum(face_up[:can_flip])
        # ships
        for ship in p.ships:
            if ship.finished:
                if ship.goods_count():
                    kinds = [g for g in ship.goods if g is not None]
                    gain = 0.0
                    delivered = list(p.delivered)
                    for g in kinds:
                        k = data.GOODS.index(g)
                        gain += data.goods_score(delivered[k] + 1) - data.goods_score(delivered[k])
                        delivered[k] += 1
                    share = ship.goods_count() / ship.size
                    v += gain * share * (0.85 if left > 2 else 0.4)
                continue
            v += _ship_potential(ship, left)
        # storage parts help the next ship a little
        v += 0.25 * sum(1 for i in p.storage if i not in data.GOODS) * (1 if left > 6 else 0)
        # crowns keep their value while there are Crowns actions to come
        if left > 1:
            v += 0.6 * min(p.crowns - p.passes, 5) * min(1.0, left / 7)
        out.append(v)
    return out
