"""Final scoring (I-BONUS-3, I-TREASURE-1, I-END-2): breakdowns, tie-break and ranks."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from engine.island import data
from engine.island.state import Collection, Player, State


@dataclass(frozen=True, slots=True)
class TokenScore:
    """What one bonus token on one collection is worth, and why."""

    category: str
    token: str
    vp: int
    why: str

    def to_dict(self) -> dict[str, object]:
        return {"category": self.category, "token": self.token, "vp": self.vp, "why": self.why}


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    tokens: tuple[TokenScore, ...]  # every bonus token, collections in data.STORABLE order
    bonus_vp: int
    portholes: tuple[tuple[str, int], ...]  # (category, VP) of each closed collection
    porthole_vp: int
    treasures: tuple[int, ...]  # VP of each treasure card in hand, highest first
    treasure_vp: int
    vp: int
    tiebreak: int  # I-END-2: the column the pawn faces (higher = nearer the stern; -1 unplaced)
    rank: int  # 1 = winner; tied players share a rank

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "tokens": [t.to_dict() for t in self.tokens],
            "bonus_vp": self.bonus_vp,
            "portholes": [{"category": c, "vp": v} for c, v in self.portholes],
            "porthole_vp": self.porthole_vp,
            "treasures": list(self.treasures),
            "treasure_vp": self.treasure_vp,
            "vp": self.vp,
            "tiebreak": self.tiebreak,
            "rank": self.rank,
        }


def token_scores(category: str, col: Collection) -> list[TokenScore]:
    """I-BONUS-3: each token of a collection, in the order it was taken."""
    if not col.tokens:
        return []
    size = len(col.cards)
    porthole = col.porthole or 0
    # Several pair tokens need disjoint pairs: count how many disjoint pairs the cards hold.
    pairs = 0
    if "pair" in col.tokens:
        pairs = sum(n // 2 for n in Counter(data.CARD_OBJECT[c] for c in col.cards).values())
    out: list[TokenScore] = []
    for token in col.tokens:
        if token in data.TOKEN_FLAT_VP:
            vp = data.TOKEN_FLAT_VP[token]
            why = "printed value"
        elif token == "per_card":
            vp = size
            why = f"{size} card{'s' if size != 1 else ''}"
        elif token == "double_porthole":
            vp = porthole
            why = f"porthole {porthole} once more" if col.closed else "no porthole"
        elif token == "odd":
            vp = data.ODD_VP if size % 2 == 1 else 0
            why = f"{size} cards, {'odd' if size % 2 else 'even'}"
        else:  # pair
            if pairs > 0:
                pairs -= 1
                vp, why = data.PAIR_VP, "a pair of the same object"
            else:
                vp, why = 0, "no pair left for this token"
        out.append(TokenScore(category, token, vp, why))
    return out


def _score(seat: int, p: Player) -> Score:
    tokens: list[TokenScore] = []
    portholes: list[tuple[str, int]] = []
    for category, col in zip(data.STORABLE, p.collections, strict=True):
        tokens += token_scores(category, col)
        if col.porthole is not None:
            portholes.append((category, col.porthole))
    treasures = tuple(sorted((data.card_vp(c) for c in p.hand if data.card_vp(c)), reverse=True))
    bonus_vp = sum(t.vp for t in tokens)
    porthole_vp = sum(v for _, v in portholes)
    column = p.pawn.column
    return Score(
        seat=seat,
        tokens=tuple(tokens),
        bonus_vp=bonus_vp,
        portholes=tuple(portholes),
        porthole_vp=porthole_vp,
        treasures=treasures,
        treasure_vp=sum(treasures),
        vp=bonus_vp + porthole_vp + sum(treasures),
        tiebreak=-1 if column is None else column,
        rank=0,
    )


def public_vp(p: Player) -> int:
    """Bonus and porthole tokens as they would score now: the part of a score all may see."""
    s = _score(0, p)
    return s.bonus_vp + s.porthole_vp


def final_scores(state: State) -> list[Score]:
    """Each player's breakdown in seat order, with ranks (works mid-game too).

    I-END-2: highest VP wins; among equal VP the pawn nearest the stern (highest column) ranks
    first. At the end all pawns are on one side, in different columns, so no two seats tie.
    """
    scores = [_score(i, p) for i, p in enumerate(state.players)]
    keys = [(s.vp, s.tiebreak) for s in scores]
    return [
        replace(s, rank=1 + sum(1 for other in keys if other > key))
        for s, key in zip(scores, keys, strict=True)
    ]
