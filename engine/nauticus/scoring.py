"""Final scoring (N-END): every player's full breakdown, tie-breaks and ranks."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.nauticus import data
from engine.nauticus.state import Player, State


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    track: int  # VP on the scoring track before final scoring
    goods: tuple[int, ...]  # delivered count per kind, data.GOODS order
    goods_vp: tuple[int, ...]  # VP per kind (N-END-1)
    ships: tuple[int, ...]  # finished ships per size 1..4
    ships_vp: int  # N-END-2
    workers: int
    storage_tiles: int
    unfinished_parts: int  # hull tiles, masts and sails of unfinished ships
    goods_on_ships: int
    taler: int
    total_taler: int  # own taler + every leftover at 1 taler (N-END-3)
    leftover_vp: int  # total_taler div 3
    vp: int  # final VP
    tiebreak: tuple[int, int]  # (total_taler mod 3, total_taler) (N-END-4)
    rank: int  # 1 = winner; tied players share a rank

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "track": self.track,
            "goods": dict(zip(data.GOODS, self.goods, strict=True)),
            "goods_vp": dict(zip(data.GOODS, self.goods_vp, strict=True)),
            "ships": {str(i + 1): n for i, n in enumerate(self.ships)},
            "ships_vp": self.ships_vp,
            "workers": self.workers,
            "storage_tiles": self.storage_tiles,
            "unfinished_parts": self.unfinished_parts,
            "goods_on_ships": self.goods_on_ships,
            "taler": self.taler,
            "total_taler": self.total_taler,
            "leftover_vp": self.leftover_vp,
            "vp": self.vp,
            "tiebreak": list(self.tiebreak),
            "rank": self.rank,
        }


def _score(seat: int, p: Player) -> Score:
    goods_vp = tuple(data.goods_score(n) for n in p.delivered)
    sizes = [0, 0, 0, 0]
    parts = 0
    on_ships = 0
    for ship in p.ships:
        on_ships += ship.goods_count()
        if ship.finished:
            sizes[ship.size - 1] += 1
        else:
            parts += ship.parts()
    ships_vp = sum(data.SHIP_SCORE[i + 1] * n for i, n in enumerate(sizes))
    total = p.taler + p.workers + len(p.storage) + parts + on_ships
    leftover_vp = total // data.LEFTOVER_DIVISOR
    return Score(
        seat=seat,
        track=p.score,
        goods=p.delivered,
        goods_vp=goods_vp,
        ships=tuple(sizes),
        ships_vp=ships_vp,
        workers=p.workers,
        storage_tiles=len(p.storage),
        unfinished_parts=parts,
        goods_on_ships=on_ships,
        taler=p.taler,
        total_taler=total,
        leftover_vp=leftover_vp,
        vp=p.score + sum(goods_vp) + ships_vp + leftover_vp,
        tiebreak=(total % data.LEFTOVER_DIVISOR, total),
        rank=0,
    )


def final_scores(state: State) -> list[Score]:
    """Each player's final score breakdown, in seat order, with ranks (works mid-game too)."""
    scores = [_score(i, p) for i, p in enumerate(state.players)]
    keys = [(s.vp, *s.tiebreak) for s in scores]
    out = []
    for s, key in zip(scores, keys, strict=True):
        rank = 1 + sum(1 for other in keys if other > key)
        out.append(replace(s, rank=rank))
    return out
