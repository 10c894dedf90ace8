"""Every Nautilus duel constant in one table (rules page `D-…`; "[fixed here]" values included).

Nothing reads the rules page at run time: the values below are copied from it, so a changed value
is changed in one place and the tests pin each of them.
"""

from __future__ import annotations

from typing import Final

GAME: Final = "duel"
ENGINE_VERSION: Final = "duel-1"

# --- players and rounds (D-SETUP-1, D-END-1) --------------------------------------------------
PLAYERS: Final = 2
ROUNDS: Final = 6
SLOTS: Final = 5  # domain slots along the Nautilus; each has one space per side (D-ROUND-3)
SPACES: Final = SLOTS * PLAYERS  # 10 spaces filled every round
HAND_SIZE: Final = 5  # divers drawn by each player each round (D-ROUND-1)
SPECIALS_DRAWN: Final = 2  # specials the first player draws, keeps one, gives one
MODULE_DRAW: Final = 2  # divers the diving module draws (keep 1, put 1 back on top)
REBUILD_AFTER_ROUND: Final = 3  # the special deck is rebuilt from all 6 after this round

# --- divers (D-SETUP-1, D-ROUND-5, D-ROUND-6) --------------------------------------------------
DIVERS: Final[tuple[int, ...]] = tuple(range(1, 15))  # values 1..14
VERTICAL_ARROWS: Final[frozenset[int]] = frozenset({6, 9})  # move a card across the Nautilus
HORIZONTAL_ARROWS: Final[frozenset[int]] = frozenset({7, 8})  # move a card along its side
CRAB: Final = 1  # the crab beats the CRAB_PREY and only it
CRAB_PREY: Final = 14

# --- specials (D-SETUP-1, D-ROUND-2, D-ROUND-4) -----------------------------------------------
KRAKEN: Final = "kraken"
FISHBONE: Final = "fishbone"
ANCHOR: Final = "anchor"
EYE: Final = "eye"
MODULE: Final = "diving_module"
HARPOON: Final = "harpoon"
SPECIALS: Final[tuple[str, ...]] = (KRAKEN, FISHBONE, ANCHOR, EYE, MODULE, HARPOON)
# Played before any diver is placed, first player first; mandatory.
START_SPECIALS: Final[tuple[str, ...]] = (EYE, MODULE, HARPOON)
# Placed instead of a diver, with these values; optional.
CARD_SPECIALS: Final[dict[str, int]] = {KRAKEN: 15, FISHBONE: 0}
SPECIAL_OF_VALUE: Final[dict[int, str]] = {v: k for k, v in CARD_SPECIALS.items()}
SPECIAL_NAMES: Final[dict[str, str]] = {
    KRAKEN: "kraken",
    FISHBONE: "fishbone",
    ANCHOR: "anchor",
    EYE: "eye",
    MODULE: "diving module",
    HARPOON: "harpoon",
}
# Every value a card on the Nautilus can have: the fishbone 0, divers 1..14, the kraken 15.
CARD_VALUES: Final[tuple[int, ...]] = (0, *DIVERS, 15)
MIN_CARD: Final = 0
MAX_CARD: Final = 15

# --- domain cards (D-SETUP-1, D-SETUP-2, D-END-1) ---------------------------------------------
DOMAINS: Final[tuple[str, ...]] = ("science", "exploration", "navigation", "engineering", "war")
# [fixed here] D-SETUP-2: each domain's 6 cards, in card-id order within the domain.
DOMAIN_CARD_KINDS: Final[tuple[str, ...]] = (
    "two_stars",
    "two_stars",
    "one_star",
    "one_star",
    "one_star",
    "ink",
)
CARDS_PER_DOMAIN: Final = len(DOMAIN_CARD_KINDS)
POINTS: Final[dict[str, int]] = {"two_stars": 2, "one_star": 1, "ink": -1}
STARS: Final[dict[str, int]] = {"two_stars": 2, "one_star": 1, "ink": 0}
# A domain card is an id 0..29: domain DOMAINS[id // 6], kind DOMAIN_CARD_KINDS[id % 6].
DOMAIN_CARDS: Final[tuple[int, ...]] = tuple(range(len(DOMAINS) * CARDS_PER_DOMAIN))

# [fixed here] D-END-1: equal totals in a domain win it for nobody.
# [fixed here] D-END-2: equal domains won -> higher sum of all domain points -> shared win.
TIEBREAKS: Final[tuple[str, ...]] = ("domains", "points", "shared")


def domain_of(card: int) -> str:
    return DOMAINS[card // CARDS_PER_DOMAIN]


def kind_of(card: int) -> str:
    return DOMAIN_CARD_KINDS[card % CARDS_PER_DOMAIN]


def points_of(card: int) -> int:
    return POINTS[kind_of(card)]


def card_name(value: int) -> str:
    """A card on the Nautilus as players say it: 'the kraken', 'the 7'."""
    special = SPECIAL_OF_VALUE.get(value)
    return f"the {special}" if special else f"the {value}"


def arrow_of(value: int) -> str | None:
    if value in VERTICAL_ARROWS:
        return "vertical"
    if value in HORIZONTAL_ARROWS:
        return "horizontal"
    return None


def beats(a: int, b: int) -> bool:
    """D-ROUND-6: does value `a` beat value `b`? The crab beats the 14 and only the 14."""
    if a == CRAB and b == CRAB_PREY:
        return True
    if a == CRAB_PREY and b == CRAB:
        return False
    return a > b


# --- lookup tables for the hot paths (scoring, the AI search's rollouts) --------------------------
# The same values as the functions above, read by index: final scoring and the search's
# evaluation run tens of thousands of times per AI decision.
CARD_DOMAIN: Final[tuple[int, ...]] = tuple(c // CARDS_PER_DOMAIN for c in DOMAIN_CARDS)
CARD_POINTS: Final[tuple[int, ...]] = tuple(points_of(c) for c in DOMAIN_CARDS)
# BEATS[a][b] == beats(a, b) for every card value 0..15.
BEATS: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(beats(a, b) for b in CARD_VALUES) for a in CARD_VALUES
)
