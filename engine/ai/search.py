"""Information-set Monte Carlo tree search over any `engine.api.Rules` (single observer).

One tree for the deciding seat, its nodes reached by sequences of moves (each move keyed by its
JSON), shared by every determinization. Each iteration:

1. draws a determinization of the canonical position (`rules.determinize`, a fresh sample);
2. walks down the tree: at each node only the moves legal in *this* determinization compete
   (at the root of a game whose knowledge orders its moves, only the first few of that order,
   more as the root's visits grow: progressive widening);
   every one of them gets an availability count, the first not yet in the tree is added and the
   walk stops, otherwise UCT picks (mean reward of the seat to move + exploration, with the
   availability count in place of the parent's visits: Cowling, Powley and Whitehouse 2012);
3. plays the game's rollout policy from there (uniformly random moves for a game without
   knowledge, engine/ai/evaluate.py), to the end or `rollout_depth` × the game's
   `rollout_share` moves;
4. scores that position with `final_scores`, or an unfinished one with the game's estimate (a
   reward per seat in 0..1, below; a game may give a share of it to the seat's own VP,
   `Knowledge.own_score`), and adds it to every node on the path, each node read later from the
   point of view of the seat that chose it.

The budget counts `rules.apply` calls (the level's for this game, `Level.budget_for`); the
search stops at the first iteration that starts with it spent. The move played is the root's
most visited (then best mean, then first listed).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii as _json_str  # what json.dumps writes for a str
from typing import Any

from engine.ai.canon import canonical
from engine.ai.evaluate import Knowledge, knowledge, own_score_rewards, value_rewards
from engine.ai.levels import Level
from engine.ai.levels import level as find_level
from engine.api import Move, Rules, ScoreLike

# Progressive widening at the root, for a game whose knowledge orders the root's moves: the
# first WIDEN_BASE + WIDEN_RATE * sqrt(root visits) moves of that order compete (normal, about
# 150 duel iterations: 9 of a placement's 26 moves on average, up to 140 with the anchor).
WIDEN_BASE = 3
WIDEN_RATE = 0.5
MARGIN_WEIGHT = 0.2  # share of the reward given by the VP margin; the rest by the rank
HORIZON_MARGIN_WEIGHT = 0.4  # the same for an estimated (unfinished) position: noisier ranks


def move_key(move: Move) -> str:
    """The statistics key of a move: its JSON, keys sorted (so equal dicts share a key).

    A flat move of str and int values (every duel and Island move) is written here directly,
    the same text `json.dumps(move, sort_keys=True, separators=(",", ":"))` gives (tested):
    the search keys every legal move at every node it walks, and `json.dumps` was 8 % of a duel
    decision. Anything else (nested lists, bools, floats) goes through `json.dumps`.
    """
    parts: list[str] = []
    for k in sorted(move):
        v = move[k]
        t = type(v)
        if t is int:
            parts.append(f"{_json_str(k)}:{v}")
        elif t is str:
            parts.append(f"{_json_str(k)}:{_json_str(v)}")
        else:
            return json.dumps(move, sort_keys=True, separators=(",", ":"))
    return "{" + ",".join(parts) + "}"


def rewards(scores: Sequence[ScoreLike]) -> list[float]:
    """Each seat's reward in 0..1 for a position: mostly its rank, a little its VP margin.

    The rank part is the share of other seats it beats (a tie counts half); the margin part maps
    `vp - best other vp`, relative to the larger of the two, from -1..1 onto 0..1. Mid-game
    positions (a capped rollout) are scored the same way, by the engine's `final_scores`.
    """
    n = len(scores)
    out: list[float] = []
    for s in scores:
        others = [o for o in scores if o.seat != s.seat]
        if not others:
            out.append(1.0)
            continue
        beaten = sum(1.0 if o.rank > s.rank else 0.5 if o.rank == s.rank else 0.0 for o in others)
        best = max(o.vp for o in others)
        margin = (s.vp - best) / (max(abs(s.vp), abs(best)) + 1)
        out.append((1 - MARGIN_WEIGHT) * beaten / (n - 1) + MARGIN_WEIGHT * (0.5 + 0.5 * margin))
    return out


class _Node:
    __slots__ = ("avail", "children", "move", "seat", "totals", "visits")

    def __init__(self, seat: int, move: Move | None, players: int) -> None:
        self.seat = seat  # the seat whose move led here (-1 at the root)
        self.move = move
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * players
        self.children: dict[str, _Node] = {}

    def mean(self) -> float:
        return self.totals[self.seat] / self.visits if self.visits else 0.0


def search(
    rules: Rules, root: Any, seat: int, lvl: Level, rng: random.Random
) -> tuple[Move, dict[str, tuple[int, float]]]:
    """Search from the canonical state `root`; return the move and the root statistics
    (move key -> (visits, mean reward))."""
    players = len(rules.final_scores(root))
    know = knowledge(rules)
    moves = rules.legal_moves(root, seat)
    if not moves:
        raise ValueError(f"seat {seat + 1} has no move to make now")
    moves = know.prune(root, seat, moves)
    keys = [move_key(m) for m in moves]
    tree = _Node(-1, None, players)
    if len(moves) > 1:
        order = [move_key(m) for m in know.order(root, seat, moves)] if know.order else None
        _run(rules, root, tree, lvl, rng, know, order)
    stats = {k: (c.visits, c.mean()) for k, c in tree.children.items()}
    best = max(
        range(len(moves)),
        key=lambda i: (*stats.get(keys[i], (0, 0.0)), -i),
    )
    return moves[best], stats


def _run(
    rules: Rules,
    root: Any,
    tree: _Node,
    lvl: Level,
    rng: random.Random,
    know: Knowledge,
    order: list[str] | None = None,
) -> None:
    """Iterate until the budget is spent. `order`: the root's move keys best first, for
    progressive widening (only the first `_widened(visits)` of them compete at the root)."""
    seat_of = rules.current
    legal = rules.legal_moves
    apply = rules.apply
    is_over = rules.is_over
    seat = seat_of(root)
    assert seat is not None
    c = lvl.exploration
    budget = lvl.budget_for(rules.name)
    prune = know.prune
    policy = know.rollout
    estimate = know.estimate
    max_depth = max(1, round(lvl.rollout_depth * know.rollout_share))
    own_weight = know.own_score[0]
    allowed: set[str] = set()
    allowed_width = -1
    spent = 0
    while spent < budget:
        state = rules.determinize(root, seat, rng)
        node = tree
        path = [tree]
        # Selection and expansion.
        while not is_over(state):
            actor = seat_of(state)
            assert actor is not None
            keyed = [(move_key(m), m) for m in prune(state, actor, legal(state, actor))]
            if order is not None and node is tree:
                width = _widened(tree.visits)
                if width != allowed_width:
                    allowed, allowed_width = set(order[:width]), width
                keyed = [km for km in keyed if km[0] in allowed] or keyed
            fresh: list[tuple[str, Move]] = []
            best: _Node | None = None
            best_move: Move | None = None
            best_value = -math.inf
            for k, m in keyed:
                child = node.children.get(k)
                if child is None:
                    fresh.append((k, m))
                    continue
                child.avail += 1
                if not fresh:
                    value = child.totals[actor] / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best, best_move, best_value = child, m, value
            if fresh:
                k, m = fresh[rng.randrange(len(fresh))]
                child = _Node(actor, m, len(tree.totals))
                child.avail = 1
                node.children[k] = child
                state, _ = apply(state, actor, m)
                spent += 1
                path.append(child)
                break
            assert best is not None and best_move is not None
            state, _ = apply(state, actor, best_move)
            spent += 1
            node = best
            path.append(node)
        # Rollout.
        depth = 0
        while depth < max_depth and not is_over(state):
            actor = seat_of(state)
            assert actor is not None
            state, _ = apply(state, actor, policy(state, actor, legal(state, actor), rng))
            depth += 1
        spent += depth
        if estimate is None or is_over(state):
            scores = rules.final_scores(state)
            reward = rewards(scores)
            # the VP list only for a game that rewards one's own VP (today Nauticus)
            values: Sequence[float] = [float(s.vp) for s in scores] if own_weight > 0 else ()
        else:
            values = estimate(state)
            reward = value_rewards(values, HORIZON_MARGIN_WEIGHT, know.horizon_scale)
        if own_weight > 0:
            reward = own_score_rewards(reward, values, know.own_score)
        for n in path:
            n.visits += 1
            for i, r in enumerate(reward):
                n.totals[i] += r


def _widened(visits: int) -> int:
    """How many of the root's ordered moves compete after `visits` iterations."""
    return WIDEN_BASE + int(WIDEN_RATE * math.sqrt(visits))


def choose(rules: Rules, state: Any, seat: int, *, level: str, seed: int) -> Move:
    """The move the search player makes for `seat` at `level`; the same inputs, the same move.

    It reads `state` only through `rules.determinize(state, seat, ·)` and `rules.view(state,
    seat)`, so the move depends on nothing `seat` cannot see (engine/ai/README.md).

    Raises:
        ValueError: an unknown level, or `seat` has no decision to make now.
        ContractError: the engine's determinize changed the seat's view.
    """
    return choose_with_stats(rules, state, seat, level=level, seed=seed)[0]


def choose_with_stats(
    rules: Rules, state: Any, seat: int, *, level: str, seed: int
) -> tuple[Move, dict[str, tuple[int, float]]]:
    """`choose`, with the root statistics (move key -> (visits, mean reward)) for tests/benches."""
    lvl = find_level(level)
    root = canonical(rules, state, seat, seed)
    if rules.current(root) != seat:
        raise ValueError(f"seat {seat + 1} has no move to make now")
    return search(rules, root, seat, lvl, random.Random(f"ai/{lvl.name}/{seed}"))
