"""Typed events: what one move did, for the log and the bot's messages.

Each event says who may read it (`private_to`: None for everyone, or one seat; see
engine/api.py). A card taken from a face-down stack gives two events: a public `card_taken`
without the card (what the table saw) and a private `card_drawn` with it, for the taker only.
Public events give cards by their public ids ("food:ham": which copy is never told, see
data.public_id); the private `card_drawn` gives the taker the full id ("food:ham:3").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine import common

# The shared base (engine/common.py), named here too: `events.Event` is this game's event type.
Event = common.Event


@dataclass(frozen=True, slots=True)
class PawnPlaced(Event):
    """I-TURN-1: a pawn's first placement, above the Nautilus."""

    kind: ClassVar[str] = "pawn_placed"
    seat: int
    column: int
    side: str


@dataclass(frozen=True, slots=True)
class PawnMoved(Event):
    """I-TURN-2: a pawn crossed to the other side."""

    kind: ClassVar[str] = "pawn_moved"
    seat: int
    column: int
    side: str
    from_column: int


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """One card collected into a hand. Public: `card` is None when the stack is face down."""

    kind: ClassVar[str] = "card_taken"
    seat: int
    column: int
    stack: int  # the stack's index on the whole Nautilus, bow→stern
    face: str  # "up" | "down"
    card: str | None


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """The card a face-down stack gave, told to its taker only (private_to = seat)."""

    kind: ClassVar[str] = "card_drawn"
    seat: int
    column: int
    stack: int
    card: str


@dataclass(frozen=True, slots=True)
class ColumnEmptied(Event):
    """I-END-1: a column has no card left; the round is finished, then one last round."""

    kind: ClassVar[str] = "column_emptied"
    column: int
    first: bool  # the first column to run out: this is what triggers the end


@dataclass(frozen=True, slots=True)
class CardsStored(Event):
    kind: ClassVar[str] = "cards_stored"
    seat: int
    category: str
    cards: tuple[str, ...]
    size: int  # the collection's size afterwards


@dataclass(frozen=True, slots=True)
class TokenTaken(Event):
    """I-BONUS-1: the camp token of the category, laid on the collection for good."""

    kind: ClassVar[str] = "token_taken"
    seat: int
    category: str
    token: str


@dataclass(frozen=True, slots=True)
class CampRefilled(Event):
    """I-BONUS-2: empty camp spaces refilled from the face-down tokens."""

    kind: ClassVar[str] = "camp_refilled"
    tokens: tuple[tuple[str, str], ...]  # (category of the space, token) per refilled space
    reserve_left: int


@dataclass(frozen=True, slots=True)
class CollectionClosed(Event):
    kind: ClassVar[str] = "collection_closed"
    seat: int
    category: str
    size: int
    porthole: int  # VP of the porthole token taken


@dataclass(frozen=True, slots=True)
class KeptOpen(Event):
    kind: ClassVar[str] = "kept_open"
    seat: int
    category: str
    size: int


@dataclass(frozen=True, slots=True)
class Idled(Event):
    """I-TURN-4 [fixed here]: last round, an empty column and nothing to store."""

    kind: ClassVar[str] = "idled"
    seat: int
    column: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    seat: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    kind: ClassVar[str] = "round_ended"
    round: int
    side: str  # where every pawn now is
    next_is_last: bool


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    vp: tuple[int, ...]  # every seat's final VP, seat order


EVENT_TYPES: tuple[type[Event], ...] = (
    PawnPlaced,
    PawnMoved,
    CardTaken,
    CardDrawn,
    ColumnEmptied,
    CardsStored,
    TokenTaken,
    CampRefilled,
    CollectionClosed,
    KeptOpen,
    Idled,
    TurnEnded,
    RoundEnded,
    GameEnded,
)
