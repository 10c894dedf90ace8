"""Typed events: what one move did, for the log and the bot's messages.

Every event says who may read it: `private_to` is None for the whole table, or the one seat told.
A move that shows a secret to one seat emits a public event with only what the table saw and a
private event with the secret, so the bot can post the first and whisper the second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine import common

# The shared base (engine/common.py), named here too: `events.Event` is this game's event type.
Event = common.Event


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """Five domain cards dealt face up, 5 divers to each, 2 specials to the first player."""

    kind: ClassVar[str] = "round_started"
    round: int
    first: int
    slots: tuple[int, ...]  # domain card ids on slots 0..4


@dataclass(frozen=True, slots=True)
class SpecialDeckRebuilt(Event):
    """D-ROUND-8: after round 3 all 6 specials are shuffled into a new special deck."""

    kind: ClassVar[str] = "special_deck_rebuilt"
    round: int


@dataclass(frozen=True, slots=True)
class SpecialKept(Event):
    """The first player kept one special and gave the other (which ones is private)."""

    kind: ClassVar[str] = "special_kept"
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class SpecialPlayed(Event):
    """The eye, the diving module, the harpoon, the anchor, the kraken or the fishbone."""

    kind: ClassVar[str] = "special_played"
    seat: int
    special: str


@dataclass(frozen=True, slots=True)
class ModuleKept(Event):
    """The diving module's player kept one diver and put the other back on the deck."""

    kind: ClassVar[str] = "module_kept"
    seat: int


@dataclass(frozen=True, slots=True)
class HarpoonTook(Event):
    """The harpoon took a random diver from `victim`'s hand (which one is private)."""

    kind: ClassVar[str] = "harpoon_took"
    seat: int
    victim: int


@dataclass(frozen=True, slots=True)
class HarpoonResolved(Event):
    """The harpoon's player kept the diver and gave one back, or returned it."""

    kind: ClassVar[str] = "harpoon_resolved"
    seat: int
    victim: int
    kept: bool


@dataclass(frozen=True, slots=True)
class Placed(Event):
    kind: ClassVar[str] = "placed"
    seat: int
    card: int  # 0 fishbone, 1..14 diver, 15 kraken
    side: int
    slot: int


@dataclass(frozen=True, slots=True)
class Anchored(Event):
    kind: ClassVar[str] = "anchored"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ArrowMoved(Event):
    kind: ClassVar[str] = "arrow_moved"
    seat: int
    arrow: int  # the arrow card that was placed
    card: int  # the card moved
    from_side: int
    from_slot: int
    side: int
    slot: int
    forced: bool  # the only possible move, made without asking


@dataclass(frozen=True, slots=True)
class ArrowBlocked(Event):
    """D-ROUND-5: no legal move for the arrow, so nothing moves."""

    kind: ClassVar[str] = "arrow_blocked"
    seat: int
    arrow: int


@dataclass(frozen=True, slots=True)
class ArrowPending(Event):
    """The placer must now choose one of `options` moves for the arrow."""

    kind: ClassVar[str] = "arrow_pending"
    seat: int
    arrow: int
    options: int


@dataclass(frozen=True, slots=True)
class SlotAwarded(Event):
    kind: ClassVar[str] = "slot_awarded"
    round: int
    slot: int
    card: int  # the domain card id
    values: tuple[int, int]  # the card value on seat 0's side and on seat 1's side
    winner: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    kind: ClassVar[str] = "round_ended"
    round: int
    cards_won: tuple[int, int]  # domain cards each seat won this round


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]  # one seat, or both for a shared win
    domains_won: tuple[int, int]
    tiebreak: str  # "domains" | "points" | "shared" (D-END-2)


# --- private -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiversDealt(Event):
    kind: ClassVar[str] = "divers_dealt"
    seat: int
    divers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SpecialsDrawn(Event):
    kind: ClassVar[str] = "specials_drawn"
    seat: int
    specials: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpecialChosen(Event):
    """To the first player: the special kept and the one given."""

    kind: ClassVar[str] = "special_chosen"
    seat: int
    kept: str
    given: str


@dataclass(frozen=True, slots=True)
class SpecialReceived(Event):
    kind: ClassVar[str] = "special_received"
    seat: int
    special: str


@dataclass(frozen=True, slots=True)
class EyeSeen(Event):
    kind: ClassVar[str] = "eye_seen"
    seat: int
    divers: tuple[int, ...]  # the opponent's divers at that moment


@dataclass(frozen=True, slots=True)
class ModuleDrew(Event):
    kind: ClassVar[str] = "module_drew"
    seat: int
    divers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ModuleChosen(Event):
    kind: ClassVar[str] = "module_chosen"
    seat: int
    kept: int
    returned: int  # now on top of the diver deck


@dataclass(frozen=True, slots=True)
class HarpoonCard(Event):
    """To the harpoon's player (`role` "took") and to its victim (`role` "lost")."""

    kind: ClassVar[str] = "harpoon_card"
    seat: int
    card: int
    role: str


@dataclass(frozen=True, slots=True)
class HarpoonExchange(Event):
    """To either seat: the diver that seat now holds and the one it gave up (equal if returned)."""

    kind: ClassVar[str] = "harpoon_exchange"
    seat: int
    received: int
    gave: int | None  # None when nothing was given up (the victim getting its card back)


@dataclass(frozen=True, slots=True)
class SpecialDiscarded(Event):
    """An unplayed kraken, fishbone or anchor set aside at round end (D-ROUND-4)."""

    kind: ClassVar[str] = "special_discarded"
    seat: int
    special: str


@dataclass(frozen=True, slots=True)
class WonPile(Event):
    """After the public award: the seat's whole won pile (D-ROUND-7)."""

    kind: ClassVar[str] = "won_pile"
    seat: int
    cards: tuple[int, ...]


PRIVATE_KINDS = frozenset(
    {
        "divers_dealt",
        "specials_drawn",
        "special_chosen",
        "special_received",
        "eye_seen",
        "module_drew",
        "module_chosen",
        "harpoon_card",
        "harpoon_exchange",
        "special_discarded",
        "won_pile",
    }
)
