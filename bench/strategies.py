"""Scripted strategy opponents for the AI bench: players that play the way sensible people do.

No search: each reads only its seat's `rules.view(state, seat)` and `rules.legal_moves` and
picks a move by rules of thumb.

- Nauticus (`crowner`, `builder`, `mix`): the crowner passes three times a round, scores crowns to
  the 15 VP cap, takes money otherwise and builds no ship; the builder builds one ship of one crest
  at a time (3 tiles early, 2 later), loads goods of one kind, delivers at once and passes when an
  action is useless; the mix builds like the builder but flips every pass tile each round and
  scores crowns from 2 VP (style `balanced` in engine/ai/nauticus_play.py; the rollouts' own
  `mix` plays the builder's very moves in 2-player games, so the bench does not use it).
- Nautilus Island (`collector`): commits to its best two or three categories, faces the column
  with the most cards it wants, stores in batches that take a camp token, closes at 5-6 cards (4
  late in the game) and keeps treasures.
- Nautilus duel (`counter`): values each slot by its domain card and how contested that domain
  is (tracking every card won), puts a high diver where it wins a contested slot, its lowest
  diver on ink, and the opponent's side of an ink slot high.

    python bench/strategies.py --games 40     # each strategy against uniform random, with stats
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import duel, island, nauticus
from engine.ai.nauticus_play import BALANCED, scripted
from engine.api import Move, Rules
from engine.nauticus.state import from_dict as nauticus_from_dict

Player = Callable[[Rules, Any, int, random.Random], Move]


# --- Nauticus ----------------------------------------------------------------------------------


def _nauticus(style: str, name: str | None = None) -> Player:
    def play(rules: Rules, state: Any, seat: int, rng: random.Random) -> Move:
        seen = nauticus_from_dict(rules.view(state, seat)["state"])
        return scripted(seen, seat, rules.legal_moves(state, seat), style, rng)

    play.__name__ = name or style
    return play


# --- Nautilus Island ---------------------------------------------------------------------------


def _wanted(view: dict[str, Any], seat: int) -> dict[str, float]:
    """How much the collector wants one more card of each category."""
    me = view["players"][seat]
    hand = me["hand"] or []
    counts: dict[str, float] = {}
    for col in me["collections"]:
        if col["closed"]:
            counts[col["category"]] = -1.0
        else:
            counts[col["category"]] = col["size"] + 0.7 * sum(
                1 for c in hand if c["category"] == col["category"]
            )
    ranked = sorted((c for c in counts if counts[c] >= 0), key=lambda c: -counts[c])
    out = {c: 0.15 for c in counts}
    for i, c in enumerate(ranked[:3]):
        out[c] = 1.0 if i < 2 else 0.6
    for c in counts:
        if counts[c] < 0:
            out[c] = 0.0
    out["treasure"] = 0.9
    return out


def collector(rules: Rules, state: Any, seat: int, rng: random.Random) -> Move:
    moves = rules.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    view = rules.view(state, seat)
    me = view["players"][seat]
    want = _wanted(view, seat)
    t = moves[0]["type"]
    if t in ("place", "move"):

        def column_value(m: Move) -> float:
            col = view["columns"][m["column"]]
            v = 0.0
            for st in col["stacks"]:
                if st["count"] == 0:
                    continue
                top = st.get("top")
                if top is None:
                    v += 0.45
                else:
                    v += want.get(top["category"], 0.1) * (1 + 0.2 * top.get("vp", 0))
            # a bigger column also lets a bigger batch be stored
            v += 0.3 * col["size"] * _can_store(view, seat)
            # the stern breaks ties at the end
            return v + 0.01 * m["column"]

        return max(moves, key=column_value)
    if t in ("close", "keep_open"):
        pending = view["pending"] or {}
        size = pending.get("size", 0)
        late = view["last_round"] or view["end_triggered"] or view["round"] >= 9
        hand = me["hand"] or []
        more = sum(1 for c in hand if c["category"] == pending.get("category"))
        close = (
            size >= 6
            or (size >= 5 and more == 0)
            or (late and size >= 4)
            or (view["last_round"] and size >= 3)
        )
        return next(
            (m for m in moves if m["type"] == ("close" if close else "keep_open")), moves[0]
        )
    # act: store a batch that takes a camp token (or reaches a closing size), else collect
    camp = {c["category"]: c["token"] for c in view["camp"]}
    sizes = {c["category"]: c["size"] for c in me["collections"]}
    best: Move | None = None
    best_v = 0.0
    late = view["last_round"] or view["end_triggered"]
    for m in moves:
        if m["type"] != "store":
            continue
        cat = m["category"]
        n = sum(m["objects"].values())
        v = 0.0
        if camp.get(cat) is not None:
            v += 2.0 + n
        new = sizes[cat] + n
        if new >= 5 or (late and new >= 3):
            v += 1.5 * n
        if n >= 2 or late:
            v += n * want.get(cat, 0.1)
        else:
            v -= 1.0
        if v > best_v:
            best, best_v = m, v
    collect = next((m for m in moves if m["type"] == "collect"), None)
    if best is not None and (best_v >= 4.0 or collect is None):
        return best
    if collect is not None:
        return collect
    return best if best is not None else moves[0]


def _can_store(view: dict[str, Any], seat: int) -> float:
    me = view["players"][seat]
    hand = me["hand"] or []
    open_cats = {c["category"] for c in me["collections"] if not c["closed"]}
    return 1.0 if sum(1 for c in hand if c["category"] in open_cats) >= 2 else 0.0


# --- Nautilus duel -----------------------------------------------------------------------------


def _beats(a: int, b: int) -> bool:
    if a == 1 and b == 14:
        return True
    if a == 14 and b == 1:
        return False
    return a > b


def counter(rules: Rules, state: Any, seat: int, rng: random.Random) -> Move:
    moves = rules.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    view = rules.view(state, seat)
    me = view["me"]
    t = moves[0]["type"]
    if t == "keep":
        order = ["kraken", "anchor", "harpoon", "diving_module", "eye", "fishbone"]
        return min(moves, key=lambda m: order.index(m["special"]))
    if t == "dive":
        return max(moves, key=lambda m: m["keep"])
    if t == "harpoon":
        return min(moves, key=lambda m: m["give"])
    if t not in ("place", "arrow"):
        return moves[0]
    # value of each slot's domain card, by how contested its domain is
    mine = {d: v["total"] for d, v in me["won_by_domain"].items()}
    theirs: dict[str, int] = {d: 0 for d in mine}
    for a in view["awards"]:
        if a["winner"] is not None and a["winner"] != seat:
            dom = a["domain"]
            theirs[dom["domain"]] += dom["points"]
    rounds_left = view["rounds"] - view["round"]

    def slot_weight(dom: dict[str, Any]) -> float:
        gap = mine[dom["domain"]] - theirs[dom["domain"]]
        contested = 1.0 / (1.0 + 0.5 * max(0, abs(gap) - 1 - rounds_left))
        return dom["points"] * (1.0 + contested)

    known_out = set(view["placed_cards"]) if "placed_cards" in view else set()
    board: list[list[int | None]] = [[None] * 5, [None] * 5]
    for s in view["slots"]:
        for sp in s["sides"]:
            board[sp["side"]][s["index"]] = sp["card"]
            if sp["card"] is not None:
                known_out.add(sp["card"])
    my_cards = set(me["divers"])
    unseen = [v for v in range(16) if v not in known_out and v not in my_cards]

    def p_win(mine_v: int | None, theirs_v: int | None) -> float:
        if mine_v is not None and theirs_v is not None:
            return 1.0 if _beats(mine_v, theirs_v) else 0.0
        if mine_v is not None:
            return sum(1 for u in unseen if _beats(mine_v, u)) / max(1, len(unseen))
        if theirs_v is not None:
            return 0.5 * sum(1 for u in my_cards if _beats(u, theirs_v)) / max(1, len(my_cards))
        return 0.5

    def value(b: list[list[int | None]], spent: int) -> float:
        v = 0.0
        for s in view["slots"]:
            i = s["index"]
            v += p_win(b[seat][i], b[1 - seat][i]) * slot_weight(s["domain"])
        return v - 0.02 * spent

    def after(m: Move) -> list[list[int | None]]:
        b = [row[:] for row in board]
        if m["type"] == "arrow":
            for side in (0, 1):
                for i in range(5):
                    if b[side][i] == m["card"]:
                        b[side][i] = None
        b[m["side"]][m["slot"]] = m["card"]
        return b

    def key(m: Move) -> tuple[float, float]:
        spent = m["card"] if m["type"] == "place" and m["side"] == seat else 0
        anchor = 0.01 if m.get("anchor") == m["card"] else 0.0
        return (value(after(m), spent) + anchor, rng.random())

    return max(moves, key=key)


# --- registry and the bench against uniform random ---------------------------------------------

STRATEGIES: dict[str, dict[str, Player]] = {
    "nauticus": {
        "crowner": _nauticus("crowner"),
        "builder": _nauticus("builder"),
        "mix": _nauticus(BALANCED, "mix"),
    },
    "island": {"collector": collector},
    "duel": {"counter": counter},
}
GAMES: dict[str, Rules] = {"nauticus": nauticus.RULES, "island": island.RULES, "duel": duel.RULES}


def stats(game: str, rules: Rules, state: Any, seat: int) -> dict[str, float]:
    """Per-seat figures of a finished (or running) game: VP, and the game's own progress counts."""
    score = rules.final_scores(state)[seat]
    out: dict[str, float] = {"vp": float(score.vp)}
    if game == "nauticus":
        p = state.players[seat]
        out["ships"] = float(sum(1 for s in p.ships if s.finished))
        out["goods"] = float(sum(p.delivered))
    elif game == "island":
        d = score.to_dict()
        out["closed"] = float(len(d["portholes"]))  # type: ignore[arg-type]
        out["tokens"] = float(len(d["tokens"]))  # type: ignore[arg-type]
        out["bonus_vp"] = float(d["bonus_vp"])  # type: ignore[arg-type]
        out["porthole_vp"] = float(d["porthole_vp"])  # type: ignore[arg-type]
        out["treasure_vp"] = float(d["treasure_vp"])  # type: ignore[arg-type]
        out["hand_left"] = float(len(state.players[seat].hand))
    else:
        out["domains"] = float(score.vp)
        out["points"] = float(score.to_dict()["points"])  # type: ignore[arg-type]
    return out


def play_game(
    game: str, players: tuple[Player, Player], seed: int
) -> tuple[float, list[dict[str, float]]]:
    """One 2-player game, players[0] in seat seed % 2: players[0]'s result and both stats."""
    rules = GAMES[game]
    a_seat = seed % 2
    who = {a_seat: players[0], 1 - a_seat: players[1]}
    rngs = {s: random.Random(f"strategies/{game}/{seed}/{s}") for s in (0, 1)}
    state = rules.new_game(2, seed)
    while not rules.is_over(state):
        seat = rules.current(state)
        assert seat is not None
        state, _ = rules.apply(state, seat, who[seat](rules, state, seat, rngs[seat]))
    scores = rules.final_scores(state)
    mine, theirs = scores[a_seat], scores[1 - a_seat]
    result = 1.0 if mine.rank < theirs.rank else 0.5 if mine.rank == theirs.rank else 0.0
    return result, [stats(game, rules, state, a_seat), stats(game, rules, state, 1 - a_seat)]


def uniform(rules: Rules, state: Any, seat: int, rng: random.Random) -> Move:
    return rng.choice(rules.legal_moves(state, seat))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--only", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = ap.parse_args()
    print("| game | strategy | games vs random | score | strategy's mean stats | random's |")
    print("|---|---|---|---|---|---|")
    for game in args.only:
        for name, player in STRATEGIES[game].items():
            results = [play_game(game, (player, uniform), s) for s in range(args.games)]
            score = sum(r for r, _ in results) / len(results)
            mean = [
                {k: statistics.mean(r[1][i][k] for r in results) for k in results[0][1][i]}
                for i in (0, 1)
            ]
            txt = [", ".join(f"{k} {v:.1f}" for k, v in m.items()) for m in mean]
            print(
                f"| {game} | {name} | {len(results)} | {100 * score:.0f} % | {txt[0]} | {txt[1]} |"
            )


if __name__ == "__main__":
    main()
