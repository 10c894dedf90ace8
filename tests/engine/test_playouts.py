"""Hundreds of complete seeded games, invariants after every move, and the rare events they reach.

The games follow the biased random policy of policy.py. The counts the last tests assert are the
proof that the playouts really visit the corners of the rules (a 4-tile ship, the crown cap in an
extra action, an empty stack, ...) rather than only the common paths.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from engine import nauticus
from engine.nauticus import data
from engine.nauticus import events as ev
from engine.nauticus.state import State
from tests.engine.invariants import check, check_move
from tests.engine.policy import choose, game_rng, taste
from tests.sweep import sweep

GAMES = sweep(90, 300)  # a third each of 2, 3 and 4 players
ROUND_TRIP_EVERY = 10


@dataclass
class Seen:
    games: Counter[int] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)
    moves: int = 0


def _same_after_refusal(state: State, seat: int, move: dict[str, object]) -> str:
    """Play a move that must be refused; return its code after checking nothing changed."""
    before = nauticus.to_json(state)
    with pytest.raises(nauticus.IllegalMove) as info:
        nauticus.apply(state, seat, move)
    assert nauticus.to_json(state) == before
    return info.value.code


def _try_empty_stacks(state: State, seat: int, seen: Seen) -> None:
    """Ask for a tile from an empty stack wherever one could be asked for (N-SETUP-5)."""
    empty = {item for item, n in zip(data.ITEMS, state.supply, strict=True) if n == 0}
    if not empty or state.turn is None:
        return
    tries: list[dict[str, object]] = []
    if state.step == "bonus":
        tries += [{"type": "take_bonus", "item": i} for i in empty]
    elif state.turn.pending and state.turn.pending[0].kind == "free_tile":
        tries += [{"type": "take_free_tile", "item": i} for i in state.turn.pending[0].items]
    elif state.turn.pending:
        pending = state.turn.pending[0]
        for kind in ("crown_mast", "crown_sail"):
            if f"{kind[6:]}_crown" in empty and pending.taken.count(kind) < 2:
                tries.append({"type": "reward", "kind": kind})
    else:
        action = state.turn.extra or (
            None if state.turn.passed or state.turn.closed else state.action
        )
        if action in data.PAID_ACTIONS:
            tries += [
                {"type": "buy", "item": i, "to": "storage"}
                for i in data.TILE_ITEMS[action]
                if i in empty
            ]
    legal = nauticus.legal_moves(state, seat)
    for move in tries:
        if move in legal:
            continue  # e.g. a bonus of another kind than the empty stack
        code = _same_after_refusal(state, seat, move)
        if move.get("item", "") in empty or move["type"] == "reward":
            assert code == "empty_stack", (move, code)
            seen.features["refused empty_stack"] += 1


def _note(events: list[ev.Event], in_extra: bool, seen: Seen) -> None:
    f = seen.features
    for e in events:
        if isinstance(e, ev.ShipFinished):
            f[f"ship of size {e.size} finished"] += 1
        elif isinstance(e, ev.RewardTaken):
            f[f"reward {e.reward}"] += 1
        elif isinstance(e, ev.FreeTileEarned):
            f["free tile earned"] += 1
        elif isinstance(e, ev.CrownsScored) and e.vp < e.vp_before_cap:
            f["crown cap in extra" if in_extra else "crown cap in phase"] += 1
        elif isinstance(e, ev.ExtraStarted):
            f[f"extra action {e.action}"] += 1
        elif isinstance(e, ev.TileLost):
            f["tile lost"] += 1
        elif isinstance(e, ev.Delivered) and len(e.goods) >= 2:
            f["delivery of size >= 2"] += 1


def _play(players: int, seed: int, seen: Seen) -> None:
    rng = game_rng(players, seed)
    t = taste(rng)
    state = nauticus.new_game(players, seed)
    check(state)
    log: list[tuple[int, dict[str, object]]] = []
    events: list[ev.Event] = []
    while state.step != "over":
        seat = state.current
        assert seat is not None
        legal = nauticus.legal_moves(state, seat)
        assert legal, f"seat {seat} has no legal move at {nauticus.to_json(state)}"
        others = [s for s in range(players) if s != seat]
        assert all(nauticus.legal_moves(state, s) == [] for s in others)
        _try_empty_stacks(state, seat, seen)
        move = choose(rng, state, legal, t)
        in_extra = state.turn is not None and state.turn.extra is not None
        before = nauticus.to_json(state) if len(log) % ROUND_TRIP_EVERY == 0 else None
        new, events = nauticus.apply(state, seat, move)
        if before is not None:
            assert nauticus.to_json(state) == before, "apply changed its input"
            assert nauticus.from_json(nauticus.to_json(new)) == new
        check_move(state, new, events)
        _note(events, in_extra, seen)
        log.append((seat, move))
        state = new
    # The game ends after the last phase of the last round, announcing the rank-1 seats.
    assert (state.round, state.phase) == (state.rounds, data.PHASES_PER_ROUND)
    ended = [e for e in events if isinstance(e, ev.GameEnded)]
    winners = tuple(s.seat for s in nauticus.final_scores(state) if s.rank == 1)
    assert [e.winners for e in ended] == [winners]
    assert nauticus.from_json(nauticus.to_json(state)) == state
    replay = nauticus.new_game(players, seed)
    for seat, move in log:
        replay, _ = nauticus.apply(replay, seat, move)
    assert replay == state
    if any(p.score < 0 for p in state.players):
        seen.features["negative score"] += 1
    seen.games[players] += 1
    seen.moves += len(log)


@pytest.fixture(scope="module")
def seen() -> Seen:
    out = Seen()
    for n in range(GAMES):
        _play(2 + n % 3, 1000 + n, out)
    return out


def test_every_playout_finishes_with_invariants_replay_and_json(seen: Seen) -> None:
    assert seen.games == {2: GAMES // 3, 3: GAMES // 3, 4: GAMES // 3}
    # 2-player games last 4 rounds, the others 5; each phase needs at least one move per player.
    assert seen.moves > GAMES * 4 * 7 * 2


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_playouts_finish_ships_of_every_size(seen: Seen, size: int) -> None:
    assert seen.features[f"ship of size {size} finished"] >= 1


@pytest.mark.parametrize("kind", data.REWARD_KINDS)
def test_playouts_take_every_reward_kind(seen: Seen, kind: str) -> None:
    assert seen.features[f"reward {kind}"] >= 1


@pytest.mark.parametrize("action", data.ACTIONS)
def test_playouts_start_the_extra_action_on_every_action(seen: Seen, action: str) -> None:
    assert seen.features[f"extra action {action}"] >= 1


@pytest.mark.parametrize(
    "feature",
    [
        "free tile earned",
        "crown cap in phase",
        "crown cap in extra",
        "refused empty_stack",
        "tile lost",
        "delivery of size >= 2",
        "negative score",
    ],
)
def test_playouts_reach_rare_events(seen: Seen, feature: str) -> None:
    assert seen.features[feature] >= 1, dict(seen.features)
