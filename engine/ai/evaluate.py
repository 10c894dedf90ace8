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

ISLAND_HORIZON_SCALE = 8.0  # VP: Island games end around 50 VP a seat, won by 5-10
# Island estimate: the chance per card still missing that an open collection gets it. Before the
# end is triggered it falls as the lowest column empties, by the cards left in each of its stacks
# (the game ends a round after some column is empty; over 150 collector-vs-collector games, 2.95
# rounds were left at a height of 1 and 9.2 at 4). Once triggered, one round is left, then none.
ISLAND_CARD_CHANCE_BY_HEIGHT = {1: 0.65, 2: 0.75}
ISLAND_CARD_CHANCE = 0.85
ISLAND_CARD_CHANCE_TRIGGERED = 0.5
ISLAND_CARD_CHANCE_LAST_ROUND = 0.15
# Cards a store turn lays on average (1 to 3, the faced column's stacks). A porthole for `t` cards
# needs (t - size) / this many more store turns, each a turn not spent collecting, discounted like
# a missing card: without it the estimate counted a hand card 0.8 of a stored one whatever the
# turns to lay it, and the search kept collecting beside six cards of one category in hand.
ISLAND_CARDS_PER_STORE = 2.5
SCRIPTED_SHARE = 0.75  # share of rollout moves a Nauticus rollout takes from the scripted player
NAUTICUS_ROLLOUT_SHARE = 1 / 3  # normal: 8 moves (about one action phase) before the estimate
# Nauticus rewards: a smoothed lead (games end around 80 VP a seat, won by 5-15), and a share for
# the seat's own VP. Most of what a Nauticus phase offers comes to every seat alike (a Crowns
# phase scores for all, everyone builds in a Hulls phase), so a reward of rank and margin alone
# was indifferent to it: two robots left whole rounds unused (seed 2000: no Crowns tile chosen
# in round 2 with 15 VP in it for each, 18 taler idle) and ended at 56 and 57 VP.
NAUTICUS_HORIZON_SCALE = 10.0
NAUTICUS_OWN_SCORE = (0.3, 150.0)  # (share of the reward, the VP that gives all of it)


@dataclass(frozen=True, slots=True)
class Knowledge:
    prune: Callable[[Any, int, list[Move]], list[Move]]
    rollout: Callable[[Any, int, list[Move], random.Random], Move]
    estimate: Callable[[Any], list[float]] | None  # None: the final scores' rewards
    # Share of the level's rollout depth this game plays before its estimate: a game whose
    # estimate knows more than a few scripted moves can show (Nauticus: ships and deliveries
    # need whole rounds) is better served by more, shorter, less noisy iterations.
    rollout_share: float = 1.0
    # The root's moves best first by the game's rule of thumb, for progressive widening: the
    # search first spreads its visits over the few best, then lets the others in as the root's
    # visits grow (engine/ai/search.py). None: every root move from the start.
    order: Callable[[Any, int, list[Move]], list[Move]] | None = None
    # The estimated VP lead worth about three quarters of a win at the horizon (tanh(1)): an
    # unfinished position's reward then grows smoothly with the lead instead of jumping from
    # behind to ahead, which with a few dozen rollouts per move is mostly noise. None: the rank
    # and margin of `value_rewards`.
    horizon_scale: float | None = None
    # (weight, scale): a share `weight` of the reward is the seat's own VP (final, or estimated
    # at the horizon) / scale, capped at 1, the rest the rank-based reward above. (0, 1): none.
    # A seat then also plays for points where every seat gains alike (see `own_score_rewards`).
    own_score: tuple[float, float] = (0.0, 1.0)


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


def _island_prune(state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """One store move per (category, card count), no lone card stored for nothing, and a
    collection of 5+ cards (of any size in the last round) closed when it can be.

    Stores of the same number of cards of one category differ only in which objects go: one
    representative (the most disjoint pairs in the collection, for a pair token; then the first
    listed) stands for them, so the search spends its budget on what to do, not on which ham.
    While collecting is possible, a single card that brings its collection to no closing size
    (5+ with a porthole left) is dropped: it spends the turn for one card a later batch would
    store as well. Until the end is near that holds even where it would take a camp token; once
    the end is triggered, a lone card is still stored for a token or into a collection of 3+.
    """
    if state.step == "close" and state.stored is not None:
        # A collection of 5+ cards closes when it can, as the collector does: keeping it open for
        # the 6-card porthole (15/12/10 VP against 11/9/7) needs another store into it, a turn
        # the game's end may not leave. Normal vs the collector on fresh seeds: engine/ai/README.
        # In the last round this was the seat's one turn (I-END-1), so a collection of any size
        # closes: kept open it could only close after another store. The search, scoring both
        # by rank against hidden hands, once kept a 3-card one open.
        closes = [m for m in moves if m["type"] == "close"]
        size = len(state.players[seat].collections[state.stored].cards)
        if closes and (size >= 5 or state.last_round):
            return closes
        return moves
    if state.step != "act" or len(moves) <= 1:
        return moves
    from engine.island import data
    from engine.island.rules import porthole_next

    player = state.players[seat]
    late = state.last_round or state.end_triggered
    can_collect = any(m["type"] == "collect" for m in moves)
    best: dict[tuple[str, int], tuple[int, int]] = {}  # (category, n) -> (pairs, index)
    keep: list[bool] = []
    for i, m in enumerate(moves):
        if m["type"] != "store":
            keep.append(True)
            continue
        keep.append(False)
        cat = m["category"]
        k = data.STORABLE.index(cat)
        objects: dict[str, int] = m["objects"]
        n = sum(objects.values())
        col = player.collections[k]
        size = len(col.cards) + n
        # A lone card that closes nothing: before the end is near, not even for a camp token
        # (a single-card store per token spread the search over every category and cost it the
        # collecting turns its closings and treasures needed); near the end, for a token or into
        # a collection of 3+.
        if (
            n == 1
            and can_collect
            and not (size >= 5 and porthole_next(state, size) is not None)
            and (not late or (state.camp[k] is None and size < 3))
        ):
            continue
        counts: dict[str, int] = dict(objects)
        for c in col.cards:
            o = data.CARD_OBJECT[c]
            counts[o] = counts.get(o, 0) + 1
        pairs = sum(v // 2 for v in counts.values())
        key = (cat, n)
        if key not in best or pairs > best[key][0]:
            best[key] = (pairs, i)
    for _, i in best.values():
        keep[i] = True
    out = [m for m, k in zip(moves, keep, strict=True) if k]
    return out or moves


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


def _island_card_chance(state: Any) -> float:
    """The chance per missing card that an open collection still gets it (the constants above)."""
    if state.last_round:
        return ISLAND_CARD_CHANCE_LAST_ROUND
    if state.end_triggered:
        return ISLAND_CARD_CHANCE_TRIGGERED
    from engine.island.state import COLUMN_SPAN

    # the engine's slice of each column's stacks (numbered consecutively), as column_cards uses
    stacks = state.stacks
    low = min(max(map(len, stacks[a:b])) for a, b in COLUMN_SPAN[len(state.players)])
    return ISLAND_CARD_CHANCE_BY_HEIGHT.get(max(low, 1), ISLAND_CARD_CHANCE)


def _island_estimate(state: Any) -> list[float]:
    """Final VP so far, plus what each open collection may still close for: the best porthole
    still on a pile for a size it can reach, discounted per card still missing and per store turn
    still needed (more so as the end nears: `_island_card_chance`), twice with a double-porthole
    token; the cards in hand count towards the cards, not the store turns."""
    from engine.island import data
    from engine.island.rules import porthole_next
    from engine.island.scoring import final_scores

    scores = final_scores(state)
    if state.step == "over":
        return [float(s.vp) for s in scores]
    step_chance = _island_card_chance(state)
    avail = {t: porthole_next(state, t) or 0 for t in data.PORTHOLE_SIZES}
    out: list[float] = []
    for seat, p in enumerate(state.players):
        v = float(scores[seat].vp)
        # I-PORT-1: an open collection closes only right after a store, so at a larger size
        # than it has now; only the one this seat just stored into may still close at its size.
        pending = state.stored if state.step == "close" and state.current == seat else None
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
            smallest = size if k == pending else size + 1
            best = 0.0
            for t, value in avail.items():
                if t >= smallest and value:
                    # the cards still to find, and the store turns still to lay them all
                    steps = max(0.0, t - have) + (t - size) / ISLAND_CARDS_PER_STORE
                    best = max(best, value * step_chance**steps)
            times = 1 + col.tokens.count("double_porthole")
            v += 0.85 * best * times
        out.append(v)
    return out


# --- Nautilus duel -----------------------------------------------------------------------------


def _duel_expected(state: Any) -> list[list[float]]:
    """Each seat's domain totals, counting this round's board: a slot with both divers goes to
    the higher one (the crab beating the 14), a slot with one diver to it with the share of the
    other values it beats, an empty slot half to each."""
    from engine.duel import data

    domain_of, points_of = data.CARD_DOMAIN, data.CARD_POINTS
    totals = [[0.0] * len(data.DOMAINS) for _ in (0, 1)]
    for seat in (0, 1):
        mine = totals[seat]
        for card in state.won[seat]:
            mine[domain_of[card]] += points_of[card]
    if state.step == "over":
        return totals
    share = _beat_shares()
    row0, row1 = state.board
    for slot, card in enumerate(state.slots):
        d = domain_of[card]
        pts = points_of[card]
        a, b = row0[slot], row1[slot]
        if a is not None and b is not None:
            p0 = 1.0 if data.BEATS[a][b] else 0.0
        elif a is not None:
            p0 = share[a]
        elif b is not None:
            p0 = 1.0 - share[b]
        else:
            p0 = 0.5
        totals[0][d] += p0 * pts
        totals[1][d] += (1.0 - p0) * pts
    return totals


def _beat_share(value: int) -> float:
    """The share of the 15 other diver values (0 the fishbone .. 15 the kraken) that `value`
    beats (the crab, 1, beats the 14 and the 0)."""
    return _beat_shares()[value]


def _beat_shares() -> list[float]:
    """`_beat_share` of every value 0..15, computed once."""
    if not _BEAT_SHARE:
        from engine.duel import data

        _BEAT_SHARE.extend(
            sum(1 for u in range(16) if u != v and data.beats(v, u)) / 15 for v in range(16)
        )
    return _BEAT_SHARE


_BEAT_SHARE: list[float] = []


def _duel_estimate(state: Any) -> list[float]:
    """Domains won so far (with this round's board counted, `_duel_expected`), plus a lean per
    domain, tanh(lead / 2), largest where a domain is close: a diver that turns a contested
    domain is worth more than one that widens a safe lead or chases a lost one."""
    if state.step == "over":
        from engine.duel.scoring import final_scores

        return [float(s.vp) for s in final_scores(state)]
    totals = _duel_expected(state)
    out: list[float] = []
    for seat in (0, 1):
        mine, theirs = totals[seat], totals[1 - seat]
        won = sum(1.0 for a, b in zip(mine, theirs, strict=True) if a > b)
        lean = sum(math.tanh((a - b) / 2.0) for a, b in zip(mine, theirs, strict=True))
        out.append(won + 0.4 * lean + 0.02 * sum(mine))
    return out


def _duel_prune(state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """No high diver (13 or more, the kraken included) handed to the opponent: placed on the
    opponent's side of a slot whose domain card scores (not an ink blot) where the seat's own
    side does not already beat it, it wins that domain card for the opponent."""
    if state.step != "place" or len(moves) <= 1:
        return moves
    from engine.duel import data

    points_of, beats = data.CARD_POINTS, data.BEATS
    slots, mine_row = state.slots, state.board[seat]
    out = []
    for m in moves:
        card = m["card"]
        if card >= 13:
            slot = m["slot"]
            if m["side"] != seat and points_of[slots[slot]] > 0:
                mine = mine_row[slot]
                if mine is None or not beats[mine][card]:
                    continue
        out.append(m)
    return out or moves


def _duel_place_values(
    state: Any, seat: int, moves: list[Move], rng: random.Random | None
) -> list[float]:
    """How much each placement raises the seat's expected domain lean (`_duel_estimate` after
    the move, read on the board alone), a high diver's use on its own side costing a little
    (a tiny random tie-break with `rng`); -inf for a move that is not a placement.

    A rollout calls this for most of its placements, so what depends only on the space (its
    domain's lead, the card facing it) is worked out once per space, and a value once per
    (card, space): the anchor's variants of one placement (up to five each) share it.
    """
    from engine.duel import data

    totals = _duel_expected(state)
    base_mine, base_theirs = totals[seat], totals[1 - seat]
    board, slots = state.board, state.slots
    domain_of, points_of, beats = data.CARD_DOMAIN, data.CARD_POINTS, data.BEATS
    share = _beat_shares()
    tanh = math.tanh
    spaces: dict[int, tuple[int | None, float, int, float, float]] = {}
    values: dict[int, float] = {}
    out: list[float] = []
    for m in moves:
        if m["type"] != "place":
            out.append(-math.inf)
            continue
        slot, side, card = m["slot"], m["side"], m["card"]
        at = side * 5 + slot
        key = card * 10 + at
        v = values.get(key)
        if v is None:
            space = spaces.get(at)
            if space is None:
                if board[side][slot] is not None:
                    out.append(-math.inf)
                    continue
                dom = slots[slot]
                other = board[1 - side][slot]
                # the side's chance with its place still empty
                before = 1.0 - share[other] if other is not None else 0.5
                before_me = before if side == seat else 1.0 - before
                d = domain_of[dom]
                a = base_mine[d] - base_theirs[d]
                space = (other, before_me, points_of[dom], a, tanh(a / 2.0))
                spaces[at] = space
            other, before_me, pts, a, lean = space
            p_side = share[card] if other is None else 1.0 if beats[card][other] else 0.0
            p_me = p_side if side == seat else 1.0 - p_side
            delta = (p_me - before_me) * pts
            v = tanh((a + 2 * delta) / 2.0) - lean
            if side == seat:
                v -= 0.01 * card  # keep high divers for later slots
            values[key] = v
        if rng is not None:
            v += 0.001 * rng.random()
        out.append(v)
    return out


def _duel_rollout(state: Any, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """For 75 % of placements, the one that best raises the seat's expected domain lean
    (`_duel_place_values`); other moves and the rest at random."""
    moves = _duel_prune(state, seat, moves)
    if len(moves) == 1 or moves[0]["type"] != "place" or rng.random() >= SCRIPTED_SHARE:
        return moves[rng.randrange(len(moves))]
    values = _duel_place_values(state, seat, moves, rng)
    # The first of the highest values (max by (value, -index), without the key tuples).
    best, best_v = 0, values[0]
    for i, v in enumerate(values):
        if v > best_v:
            best, best_v = i, v
    return moves[best]


# How much lower a placement with the anchor ranks in the root's order than the same placement
# without it: the first few moves searched are then different placements, and the anchor's
# variants of a good one still come in a few widenings later.
DUEL_ANCHOR_ORDER = 0.05


def _duel_order(state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """Placements best first by the rollout's rule (`_duel_place_values`); a placement with
    the anchor counts `DUEL_ANCHOR_ORDER` less, so the few moves searched first are distinct
    placements rather than one placement with and without the anchor (up to 140 moves with
    it). Other steps as listed (they have few moves)."""
    if not moves or moves[0]["type"] != "place":
        return moves
    values = _duel_place_values(state, seat, moves, None)
    ranked = sorted(
        range(len(moves)),
        key=lambda i: (-values[i] + (DUEL_ANCHOR_ORDER if "anchor" in moves[i] else 0.0), i),
    )
    return [moves[i] for i in ranked]


KNOWLEDGE: dict[str, Knowledge] = {
    "nauticus": Knowledge(
        nauticus_play.prune,
        _nauticus_rollout,
        nauticus_play.estimate,
        rollout_share=NAUTICUS_ROLLOUT_SHARE,
        horizon_scale=NAUTICUS_HORIZON_SCALE,
        own_score=NAUTICUS_OWN_SCORE,
    ),
    "island": Knowledge(
        _island_prune, _island_rollout, _island_estimate, horizon_scale=ISLAND_HORIZON_SCALE
    ),
    "duel": Knowledge(_duel_prune, _duel_rollout, _duel_estimate, order=_duel_order),
}


def knowledge(rules: Rules) -> Knowledge:
    """What the search knows of `rules`' game (the generic fallback for an unknown game)."""
    known = KNOWLEDGE.get(getattr(rules, "name", ""))
    if known is not None:
        return known
    return Knowledge(_no_prune, _uniform, None)


def value_rewards(
    values: Sequence[float], margin_weight: float, scale: float | None = None
) -> list[float]:
    """Each seat's reward in 0..1 from estimated VP: mostly its rank, a little its margin.

    With `scale` (a game's `horizon_scale`), the rank is smoothed instead: against each other
    seat, 0.5 + 0.5 · tanh(VP lead / scale), averaged, as a chance of staying ahead that grows
    with the lead; `margin_weight` is then unused.
    """
    n = len(values)
    out: list[float] = []
    for i, v in enumerate(values):
        others = [o for j, o in enumerate(values) if j != i]
        if not others:
            out.append(1.0)
            continue
        if scale is not None:
            out.append(sum(0.5 + 0.5 * math.tanh((v - o) / scale) for o in others) / (n - 1))
            continue
        beaten = sum(1.0 if v > o else 0.5 if v == o else 0.0 for o in others)
        best = max(others)
        margin = (v - best) / (max(abs(v), abs(best)) + 1)
        margin = max(-1.0, min(1.0, margin))
        out.append((1 - margin_weight) * beaten / (n - 1) + margin_weight * (0.5 + 0.5 * margin))
    return out


def own_score_rewards(
    rewards: Sequence[float], values: Sequence[float], own_score: tuple[float, float]
) -> list[float]:
    """`rewards` with a share `weight` given to each seat's own VP / `scale` (clamped to 0..1).

    Rank and margin rewards do not move when every seat gains the same VP; this share does, so
    of two moves equal for the race the one that also scores more for the seat wins.
    """
    weight, scale = own_score
    if weight <= 0:
        return list(rewards)
    return [
        (1 - weight) * r + weight * min(1.0, max(0.0, v / scale))
        for r, v in zip(rewards, values, strict=True)
    ]
