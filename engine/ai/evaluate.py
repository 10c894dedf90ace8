"""Game knowledge for the search, keyed by `rules.name`: pruning, rollout policy, evaluation.

The search (engine/ai/search.py) stays generic; for a game it knows it asks this module for

- `prune(state, seat, moves)`: the moves worth searching (silly ones dropped; never empty);
- `rollout(state, seat, moves, rng)`: the move a rollout plays (a scripted move mixed with
  random ones), instead of a uniformly random one;
- `estimate(state)`: each seat's expected final VP at the rollout horizon, instead of the raw
  `final_scores` of an unfinished game.

Every function reads only the state it is given, which the search always draws with
`rules.determinize` from the seat's view, so fairness is unchanged. A game with no entry here
gets the plain search: every legal move, uniform rollouts, rewards from `final_scores`.
Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai import nauticus_play
from engine.api import Move, Rules

SCRIPTED_SHARE = 0.75  # share of rollout moves a Nauticus rollout takes from the scripted player


@dataclass(frozen=True, slots=True)
class Knowledge:
    prune: Callable[[Any, int, list[Move]], list[Move]]
    rollout: Callable[[Any, int, list[Move], random.Random], Move]
    estimate: Callable[[Any], list[float]] | None  # None: the final scores' rewards


def _no_prune(state: Any, seat: int, moves: list[Move]) -> list[Move]:
    return moves


def _uniform(state: Any, seat: int, moves: list[Move], rng: random.Random) -> Move:
    return moves[rng.randrange(len(moves))]


# --- Nauticus ----------------------------------------------------------------------------------


def _nauticus_rollout(state: Any, seat: int, moves: list[Move], rng: random.Random) -> Move:
    moves = nauticus_play.prune(state, seat, moves)
    if len(moves) == 1:
        return moves[0]
    if rng.random() < SCRIPTED_SHARE:
        style = nauticus_play.STYLES[(seat + state.round) % len(nauticus_play.STYLES)]
        if style == "crowner":
            style = "mix"
        return nauticus_play.scripted(state, seat, moves, style, rng)
    return moves[rng.randrange(len(moves))]


# --- Nautilus Island ---------------------------------------------------------------------------


def _island_rollout(state: Any, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """A collector's rule of thumb for 70 % of the moves: store batches that take a camp token
    or reach a closing size, close at 5+ cards (3+ in the last round), face the fullest column."""
    if len(moves) == 1 or rng.random() >= SCRIPTED_SHARE:
        return moves[rng.randrange(len(moves))]
    from engine.island import data
    from engine.island.state import COLUMN_STACKS

    step = state.step
    player = state.players[seat]
    if step == "close":
        assert state.stored is not None
        size = len(player.collections[state.stored].cards)
        close = size >= 5 or (state.last_round and size >= 3)
        want = "close" if close else "keep_open"
        return next((m for m in moves if m["type"] == want), moves[0])
    if step == "act":
        best: Move | None = None
        best_v = 0.0
        for m in moves:
            if m["type"] != "store":
                continue
            k = data.STORABLE.index(m["category"])
            n = sum(m["objects"].values())
            v = (3.0 + n if state.camp[k] is not None and n >= 2 else 0.0) + (
                n if len(player.collections[k].cards) + n >= 5 else 0.0
            )
            if v > best_v:
                best, best_v = m, v
        if best is not None:
            return best
        return next((m for m in moves if m["type"] == "collect"), moves[0])
    if step in ("place", "move"):
        cols = COLUMN_STACKS[len(state.players)]
        return max(
            moves,
            key=lambda m: sum(1 for i in cols[m["column"]] if state.stacks[i]) + rng.random(),
        )
    return moves[rng.randrange(len(moves))]


def _island_estimate(state: Any) -> list[float]:
    """Final VP so far, plus what each open collection may still close for: the best porthole
    still on a pile for a size it can reach, discounted per card still missing (more so once the
    end is triggered), twice with a double-porthole token; the cards in hand count towards it."""
    from engine.island import data
    from engine.island.rules import porthole_next
    from engine.island.scoring import final_scores

    scores = final_scores(state)
    if state.step == "over":
        return [float(s.vp) for s in scores]
    step_chance = 0.15 if state.last_round else 0.45 if state.end_triggered else 0.75
    avail = {t: porthole_next(state, t) or 0 for t in data.PORTHOLE_SIZES}
    out: list[float] = []
    for seat, p in enumerate(state.players):
        v = float(scores[seat].vp)
        in_hand = [0] * len(data.STORABLE)
        for c in p.hand:
            k = data.CARD_CATEGORY_INDEX[c]
            if k < len(in_hand):
                in_hand[k] += 1
        for k, col in enumerate(p.collections):
            if col.porthole is not None:
                continue
            size = len(col.cards)
            have = size + 0.8 * in_hand[k]
            best = 0.0
            for t, value in avail.items():
                if t >= size and value:
                    best = max(best, value * step_chance ** max(0.0, t - have))
            times = 1 + col.tokens.count("double_porthole")
            v += 0.85 * best * times
        out.append(v)
    return out


# --- Nautilus duel -----------------------------------------------------------------------------


def _duel_estimate(state: Any) -> list[float]:
    from engine.duel.scoring import final_scores

    scores = final_scores(state)
    if state.step == "over":
        return [float(s.vp) for s in scores]
    out: list[float] = []
    for s in scores:
        lean = sum(
            math.tanh((a - b) / 2.0) for a, b in zip(s.totals, s.opponent_totals, strict=True)
        )
        out.append(float(s.vp) + 0.3 * lean + 0.02 * sum(s.totals))
    return out


KNOWLEDGE: dict[str, Knowledge] = {
    "nauticus": Knowledge(nauticus_play.prune, _nauticus_rollout, nauticus_play.estimate),
    "island": Knowledge(_no_prune, _island_rollout, _island_estimate),
    "duel": Knowledge(_no_prune, _uniform, _duel_estimate),
}


def knowledge(rules: Rules) -> Knowledge:
    """What the search knows of `rules`' game (the generic fallback for an unknown game)."""
    known = KNOWLEDGE.get(getattr(rules, "name", ""))
    if known is not None:
        return known
    return Knowledge(_no_prune, _uniform, None)


def value_rewards(values: Sequence[float], margin_weight: float) -> list[float]:
    """Each seat's reward in 0..1 from estimated VP: mostly its rank, a little its margin."""
    n = len(values)
    out: list[float] = []
    for i, v in enumerate(values):
        others = [o for j, o in enumerate(values) if j != i]
        if not others:
            out.append(1.0)
            continue
        beaten = sum(1.0 if v > o else 0.5 if v == o else 0.0 for o in others)
        best = max(others)
        margin = (v - best) / (max(abs(v), abs(best)) + 1)
        margin = max(-1.0, min(1.0, margin))
        out.append((1 - margin_weight) * beaten / (n - 1) + margin_weight * (0.5 + 0.5 * margin))
    return out
