"""Every Nauticus constant in one table.

The rulebooks lost their pictures, so several values were fixed by the project's rules page
("[fixed here]"); keeping them all here means a changed value is changed in one place, and the
tests pin each of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# --- players, rounds (N-SETUP-1, N-SETUP-2, N-SETUP-3) ---------------------------------------
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
ROUNDS: Final[dict[int, int]] = {2: 4, 3: 5, 4: 5}
PHASES_PER_ROUND: Final = 7

START_SCORE: Final = 10
START_WORKERS: Final = 4
START_TALER: Final = 15
# Pass tiles in the order they are flipped; at round end each face-up tile costs its value.
PASS_TILES: Final[tuple[int, ...]] = (3, 2, 1)

# (extra taler, extra workers) by seat index 0.., per player count.
SEAT_BONUS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    2: ((0, 0), (1, 0)),
    3: ((0, 0), (1, 0), (2, 1)),
    4: ((0, 0), (1, 0), (1, 1), (2, 2)),
}

# --- items (N-SETUP-4, N-SETUP-6, N-BOARD-3) -------------------------------------------------
HULLS: Final[tuple[str, ...]] = ("bow", "middle", "stern", "one_ship")
CRESTS: Final[tuple[str, ...]] = ("whale", "anchor_ship", "helm", "tower")
CROWN: Final = "crown"
ALL_CRESTS: Final[tuple[str, ...]] = (*CRESTS, CROWN)
GOODS: Final[tuple[str, ...]] = ("coffee", "grain", "fish", "salt")

MASTS: Final[tuple[str, ...]] = tuple(f"mast_{c}" for c in ALL_CRESTS)
SAILS: Final[tuple[str, ...]] = tuple(f"sail_{c}" for c in ALL_CRESTS)
ITEMS: Final[tuple[str, ...]] = (*HULLS, *MASTS, *SAILS, *GOODS)
ITEM_INDEX: Final[dict[str, int]] = {item: i for i, item in enumerate(ITEMS)}

SUPPLY: Final[dict[str, int]] = {
    "one_ship": 18,
    "bow": 18,
    "middle": 9,
    "stern": 18,
    **{f"mast_{c}": 15 for c in CRESTS},
    "mast_crown": 12,
    **{f"sail_{c}": 15 for c in CRESTS},
    "sail_crown": 12,
    **{g: 12 for g in GOODS},
}

# --- storage (N-GOLD-2) ------------------------------------------------------------------------
STORAGE_UNITS: Final = 12
MAST_UNITS: Final = 2

# --- actions and board (N-BOARD-1..4) --------------------------------------------------------
ACTIONS: Final[tuple[str, ...]] = (
    "hulls",
    "masts",
    "sails",
    "goods",
    "transport",
    "money",
    "deliver",
    "crowns",
)
PAID_ACTIONS: Final[tuple[str, ...]] = ("hulls", "masts", "sails", "goods")
# The four items of each paid tile, in slot order 0..3.
TILE_ITEMS: Final[dict[str, tuple[str, ...]]] = {
    "hulls": HULLS,
    "masts": tuple(f"mast_{c}" for c in CRESTS),
    "sails": tuple(f"sail_{c}" for c in CRESTS),
    "goods": GOODS,
}


@dataclass(frozen=True, slots=True)
class Bonus:
    """The start-player bonus printed beside one action space."""

    workers: int = 0
    taler: int = 0
    vp: int = 0
    tile: str | None = None  # "mast", "sail" or "good": a regular tile of the player's choice


SPACES: Final = 8
SPACE_BONUS: Final[tuple[Bonus, ...]] = (
    Bonus(workers=3),
    Bonus(tile="mast"),
    Bonus(tile="sail"),
    Bonus(vp=2),
    Bonus(workers=2),
    Bonus(workers=1, tile="good"),
    Bonus(workers=1, vp=1),
    Bonus(taler=4),
)
# Blue workers of the wheel's sections, clockwise from the anchor section.
WHEEL: Final[tuple[int, ...]] = (0, 1, 2, 3, 1, 2, 3, 2)
# Price printed next to each slot 0..3 of the tile lying on each space.
PRICES: Final[tuple[tuple[int, int, int, int], ...]] = (
    (2, 3, 0, 1),
    (0, 3, 2, 1),
    (3, 0, 1, 2),
    (1, 2, 3, 0),
    (3, 2, 1, 0),
    (0, 1, 2, 3),
    (1, 0, 3, 2),
    (2, 1, 0, 3),
)
REPEAT_PRICE: Final = 4  # N-BUY-1: every further identical copy in one performance

# --- extra action (N-EXTRA) ------------------------------------------------------------------
EXTRA_WORKERS: Final = 2
EXTRA_PRICE: Final = 2

# --- crowns (N-CROWN-1) ----------------------------------------------------------------------
CROWN_CAP: Final = 15

# --- ships and rewards (N-YARD, N-REW) -------------------------------------------------------
MAX_MIDDLES: Final = 2
REWARD_KINDS: Final[tuple[str, ...]] = (
    "crown_mast",
    "crown_sail",
    "vp",
    "taler",
    "workers",
    "goods",
)
REWARD_VP: Final = 3
REWARD_TALER: Final = 7
REWARD_WORKERS: Final = 3
REWARD_GOODS: Final = 2
REWARD_MAX_PER_SHIP: Final = 2

# --- final scoring (N-END) -------------------------------------------------------------------
GOODS_SCORE: Final[tuple[int, ...]] = (0, 2, 5, 9, 14, 20)
GOODS_SCORE_EXTRA: Final = 5  # per delivered good of one kind beyond the table
SHIP_SCORE: Final[dict[int, int]] = {1: 2, 2: 8, 3: 20, 4: 35}
LEFTOVER_DIVISOR: Final = 3

# --- words players read ----------------------------------------------------------------------
CREST_NAMES: Final[dict[str, str]] = {
    "whale": "Whale",
    "anchor_ship": "Anchor ship",
    "helm": "Helm",
    "tower": "Tower",
    "crown": "Crown",
}
HULL_NAMES: Final[dict[str, str]] = {
    "bow": "bow",
    "middle": "middle",
    "stern": "stern",
    "one_ship": "one-ship",
}
ACTION_NAMES: Final[dict[str, str]] = {a: a.capitalize() for a in ACTIONS}
REWARD_NAMES: Final[dict[str, str]] = {
    "crown_mast": "Crown mast",
    "crown_sail": "Crown sail",
    "vp": f"{REWARD_VP} VP",
    "taler": f"{REWARD_TALER} taler",
    "workers": f"{REWARD_WORKERS} workers",
    "goods": f"{REWARD_GOODS} different goods",
}


def item_name(item: str) -> str:
    """Player-facing name of an item id: 'mast_helm' -> 'Helm mast'."""
    if item in HULL_NAMES:
        return HULL_NAMES[item]
    if item.startswith("mast_"):
        return f"{CREST_NAMES[item[5:]]} mast"
    if item.startswith("sail_"):
        return f"{CREST_NAMES[item[5:]]} sail"
    return item


def item_units(item: str) -> int:
    """Storage units an item takes (N-GOLD-2)."""
    return MAST_UNITS if item.startswith("mast_") else 1


# item_units of every item, looked up where it is summed often (Player.storage_used).
ITEM_UNITS: Final[dict[str, int]] = {item: item_units(item) for item in ITEMS}


def bonus_text(bonus: Bonus) -> str:
    """'1 worker + 1 good' style text of a space bonus."""
    parts: list[str] = []
    if bonus.workers:
        parts.append(f"{bonus.workers} worker" + ("s" if bonus.workers > 1 else ""))
    if bonus.taler:
        parts.append(f"{bonus.taler} taler")
    if bonus.vp:
        parts.append(f"{bonus.vp} VP")
    if bonus.tile:
        parts.append(f"1 {bonus.tile}")
    return " + ".join(parts)


def goods_score(count: int) -> int:
    """VP for `count` delivered goods of one kind (N-END-1)."""
    last = len(GOODS_SCORE) - 1
    if count <= last:
        return GOODS_SCORE[count]
    return GOODS_SCORE[last] + GOODS_SCORE_EXTRA * (count - last)
