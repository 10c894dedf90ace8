"""Hundreds of seeded games with invariants after every move, JSON round trips and replays.

The counts at the end prove the playouts reach the corners of the rules (every special played,
arrows forced, chosen and blocked, the anchor blocking an arrow, both tie-breaks...).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from engine import duel
from tests.engine.duel.invariants import check, check_move
from tests.engine.duel.policy import playout
from tests.sweep import sweep

GAMES = sweep(60, 200)
ROUND_TRIP_EVERY = 7


@cache
def features() -> Counter[str]:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        game = playout(seed, first=seed % 2 if seed % 3 else None)
        first_state = game[0][0]
        check(first_state)
        moves = []
        for i, (state, seat, move) in enumerate(game[:-1]):
            after, events = duel.apply(state, seat, move)
            assert after == game[i + 1][0]
            check_move(state, seat, after, list(events))
            check(after)
            if i % ROUND_TRIP_EVERY == 0:
                assert duel.from_json(duel.to_json(after)) == after
            moves.append((seat, move))
            for e in events:
                d = e.to_dict()
                seen[e.kind] += 1
                if e.kind == "special_played":
                    seen[f"played {d['special']}"] += 1
                if e.kind == "arrow_moved":
                    seen["arrow forced" if d["forced"] else "arrow chosen"] += 1
                if e.kind == "arrow_blocked" and state.anchored is not None:
                    seen["blocked with an anchor down"] += 1
                if e.kind == "harpoon_resolved":
                    seen["harpoon kept" if d["kept"] else "harpoon returned"] += 1
                if e.kind == "special_discarded":
                    seen[f"discarded {d['special']}"] += 1
                if e.kind == "slot_awarded" and sorted(d["values"]) == [1, 14]:
                    seen["crab vs 14"] += 1
                if e.kind == "game_ended":
                    seen[f"tiebreak {d['tiebreak']}"] += 1
            seen["moves"] += 1
        final = game[-1][0]
        assert duel.is_over(final) and final.round == 6
        # Replay: the same seed, first player and moves give the same game.
        replay = duel.new_game(2, seed, first=first_state.first)
        for seat, move in moves:
            replay, _ = duel.apply(replay, seat, move)
        assert duel.to_json(replay) == duel.to_json(final)
        seen["games"] += 1
    return seen


def test_playouts_keep_every_invariant() -> None:
    seen = features()
    assert seen["games"] == GAMES
    assert seen["moves"] > 60 * GAMES
    assert seen["round_started"] == 5 * GAMES and seen["slot_awarded"] == 30 * GAMES


def test_playouts_reach_the_corners() -> None:
    seen = features()
    for special in ("eye", "diving_module", "harpoon", "anchor", "kraken", "fishbone"):
        assert seen[f"played {special}"] > GAMES // 4, special
    for special in ("anchor", "kraken", "fishbone"):
        assert seen[f"discarded {special}"] > GAMES // 40, special
    for key in (
        "arrow forced",
        "arrow chosen",
        "arrow_blocked",
        "blocked with an anchor down",
        "harpoon kept",
        "harpoon returned",
        "crab vs 14",
        "tiebreak domains",
        "tiebreak points",
        "special_deck_rebuilt",
    ):
        assert seen[key] > 0, key
