"""Every Nautilus Island constant in one table.

The rulebook lost its pictures, so the project's rules page fixed several values ("[fixed here]");
keeping them all here means a changed value is changed in one place, and the tests pin each of
them. Nothing reads the rules page at run time: this module is the whole of it the engine needs.
"""

from __future__ import annotations

from typing import Final

# --- players (I-SETUP-1, I-SETUP-5) -----------------------------------------------------------
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

# --- cards (I-SETUP-1, I-TREASURE-1) -----------------------------------------------------------
# Six categories of four objects in four copies: 96 cards. The last category, treasures, is never
# stored. Colours are [fixed here]; object names are ours (the rulebook's pictures are lost).
CATEGORIES: Final[tuple[str, ...]] = (
    "clothing",
    "navigation",
    "repair",
    "fishing",
    "food",
    "treasure",
)
TREASURE: Final = "treasure"
STORABLE: Final[tuple[str, ...]] = CATEGORIES[:5]
CATEGORY_COLOR_NAME: Final[dict[str, str]] = {
    "clothing": "green",
    "navigation": "red",
    "repair": "blue",
    "fishing": "purple",
    "food": "orange",
    "treasure": "yellow",
}
CATEGORY_NAME: Final[dict[str, str]] = {
    "clothing": "clothing",
    "navigation": "navigation tools",
    "repair": "repair tools",
    "fishing": "fishing gear",
    "food": "food",
    "treasure": "Nautilus treasures",
}
OBJECTS: Final[dict[str, tuple[str, str, str, str]]] = {
    "clothing": ("hat", "coat", "boots", "gloves"),
    "navigation": ("compass", "spyglass", "sextant", "chart"),
    "repair": ("hammer", "saw", "wrench", "rope"),
    "fishing": ("rod", "net", "harpoon", "hook"),
    "food": ("bread", "cheese", "fruit", "ham"),
    "treasure": ("pearl", "coin", "goblet", "crown"),
}
COPIES: Final = 4
OBJECTS_PER_CATEGORY: Final = 4
CARDS_PER_CATEGORY: Final = OBJECTS_PER_CATEGORY * COPIES  # 16
CARD_COUNT: Final = len(CATEGORIES) * CARDS_PER_CATEGORY  # 96
# I-TREASURE-1 [fixed here]: the four treasure objects, in OBJECTS order, are worth 1..4 VP.
TREASURE_VP: Final[dict[str, int]] = {"pearl": 1, "coin": 2, "goblet": 3, "crown": 4}

# Every object name is unique across categories, so a name alone says its category.
OBJECT_CATEGORY: Final[dict[str, str]] = {o: c for c, objs in OBJECTS.items() for o in objs}
OBJECT_INDEX: Final[dict[str, int]] = {
    o: i for objs in OBJECTS.values() for i, o in enumerate(objs)
}


# A card is an int 0..95 inside the engine (fast to compare and sort): category * 16 +
# object * 4 + copy. In the saved state, a hand shown to its holder and the holder's private
# events, it is a string id "category:object:copy" ("food:ham:3"), unique per card. Anything
# anyone else sees (public views, other seats' views, public events) uses the public id
# "category:object" ("food:ham"): the copies of one object play alike, and which copy lies where
# would tell a little about the deal (for instance which copies are still face down).
def card_category(card: int) -> str:
    return CATEGORIES[card // CARDS_PER_CATEGORY]


def card_object(card: int) -> str:
    return OBJECTS[card_category(card)][card % CARDS_PER_CATEGORY // COPIES]


def card_id(card: int) -> str:
    return f"{card_category(card)}:{card_object(card)}:{card % COPIES + 1}"


def public_id(card: int) -> str:
    return f"{card_category(card)}:{card_object(card)}"


CARD_IDS: Final[tuple[str, ...]] = tuple(card_id(c) for c in range(CARD_COUNT))
PUBLIC_IDS: Final[tuple[str, ...]] = tuple(public_id(c) for c in range(CARD_COUNT))
CARD_BY_ID: Final[dict[str, int]] = {cid: c for c, cid in enumerate(CARD_IDS)}
CARD_CATEGORY_INDEX: Final[tuple[int, ...]] = tuple(
    c // CARDS_PER_CATEGORY for c in range(CARD_COUNT)
)
CARD_OBJECT: Final[tuple[str, ...]] = tuple(card_object(c) for c in range(CARD_COUNT))
TREASURE_INDEX: Final = CATEGORIES.index(TREASURE)


def card_vp(card: int) -> int:
    """What a card is worth in hand at the end (I-TREASURE-1, I-END-2): treasures only."""
    if card_category(card) != TREASURE:
        return 0
    return TREASURE_VP[card_object(card)]


# --- the Nautilus (I-SETUP-2) ------------------------------------------------------------------
CARDS_PER_STACK: Final = 8
# [fixed here] number of stacks in each column, bow (index 0) to stern (last index).
COLUMNS: Final[dict[int, tuple[int, ...]]] = {
    2: (1, 2, 2, 3),
    3: (1, 2, 2, 3, 3),
    4: (1, 1, 2, 2, 3, 3),
}
SIDES: Final[tuple[str, str]] = ("above", "below")
FIRST_SIDE: Final = "above"  # I-TURN-1: the first round places every pawn above


def other_side(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def round_side(round_: int) -> str:
    """The side every pawn ends round `round_` on: rounds alternate, the first is above."""
    return SIDES[(round_ - 1) % 2]


# --- camp and bonus tokens (I-SETUP-3, I-BONUS-3) ----------------------------------------------
CAMP_SPACES: Final = len(STORABLE)  # one space per storable category
REFILL_AT: Final = 1  # I-BONUS-2: refill when only this many tokens are left in the camp
TOKENS: Final[tuple[str, ...]] = ("vp2", "vp3", "per_card", "double_porthole", "odd", "pair")
# [fixed here] the mix of the 34 bonus tokens.
TOKEN_MIX: Final[dict[str, int]] = {
    "vp2": 8,
    "vp3": 6,
    "per_card": 5,
    "double_porthole": 5,
    "odd": 5,
    "pair": 5,
}
TOKEN_COUNT: Final = sum(TOKEN_MIX.values())  # 34
TOKEN_FLAT_VP: Final[dict[str, int]] = {"vp2": 2, "vp3": 3}
ODD_VP: Final = 4
PAIR_VP: Final = 5
TOKEN_NAME: Final[dict[str, str]] = {
    "vp2": "2 VP",
    "vp3": "3 VP",
    "per_card": "+1 VP per card",
    "double_porthole": "double porthole",
    "odd": "odd: 4 VP",
    "pair": "pair: 5 VP",
}

# --- porthole tokens (I-SETUP-4, I-PORT-1, I-PORT-2) -------------------------------------------
# [fixed here] one pile per exact collection size, values from the top of the pile down.
PORTHOLES: Final[dict[int, tuple[int, ...]]] = {
    3: (5, 4, 3),
    4: (8, 6, 5),
    5: (11, 9, 7),
    6: (15, 12, 10),
}
PORTHOLE_SIZES: Final[tuple[int, ...]] = tuple(PORTHOLES)
PORTHOLE_COUNT: Final = sum(len(v) for v in PORTHOLES.values())  # 12

# --- randomness ---------------------------------------------------------------------------------
# Draw numbers of the game's seeded RNG used at setup; later draws (refills) count on from here.
DRAW_DECK: Final = 0
DRAW_TOKENS: Final = 1
DRAW_FIRST: Final = 2
SETUP_DRAWS: Final = 3
