"""Typed events: what one move did, for the log, the phase summary and the bot's messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine import common
from engine.nauticus.frozen import fast_init

# Nauticus hides nothing: every event is public (see engine/api.py), and `private_to` is not
# one of an event's fields, so `to_dict()` does not carry it.
Event = common.PublicEvent


@dataclass(frozen=True, slots=True)
class ActionChosen(Event):
    kind: ClassVar[str] = "action_chosen"
    seat: int
    space: int
    action: str
    blue: int


@dataclass(frozen=True, slots=True)
class BonusReceived(Event):
    """Workers, taler and VP of a space bonus (a tile of choice comes as TileStored/TileLost)."""

    kind: ClassVar[str] = "bonus_received"
    seat: int
    space: int
    workers: int
    taler: int
    vp: int


@dataclass(frozen=True, slots=True)
class TileNotReceived(Event):
    """A bonus, free tile or reward tile that could not be had: every eligible stack is empty."""

    kind: ClassVar[str] = "tile_not_received"
    seat: int
    reason: str  # "bonus" | "free_tile"


@dataclass(frozen=True, slots=True)
class TalerPaid(Event):
    kind: ClassVar[str] = "taler_paid"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TalerGained(Event):
    kind: ClassVar[str] = "taler_gained"
    seat: int
    amount: int
    reason: str  # "money" | "reward"


@dataclass(frozen=True, slots=True)
class WorkersUsed(Event):
    kind: ClassVar[str] = "workers_used"
    seat: int
    blue: int
    own: int


@dataclass(frozen=True, slots=True)
class WorkersGained(Event):
    kind: ClassVar[str] = "workers_gained"
    seat: int
    amount: int
    reason: str  # "extra" | "reward"


@dataclass(frozen=True, slots=True)
class VPGained(Event):
    kind: ClassVar[str] = "vp_gained"
    seat: int
    amount: int
    reason: str  # "reward"


@dataclass(frozen=True, slots=True)
class Bought(Event):
    kind: ClassVar[str] = "bought"
    seat: int
    item: str
    price: int
    copy: int  # 1 for the first copy in this performance, 2 for any further copy (price 4)


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    kind: ClassVar[str] = "tile_placed"
    seat: int
    item: str
    ship: int
    tile: int  # index of the hull tile it sits on (or the new hull tile) after placing
    new_ship: bool


@dataclass(frozen=True, slots=True)
class TileStored(Event):
    kind: ClassVar[str] = "tile_stored"
    seat: int
    item: str
    reason: str  # "buy" | "bonus" | "free_tile" | "reward"


@dataclass(frozen=True, slots=True)
class TileLost(Event):
    """A tile received for free that did not fit in storage (N-GOLD-1): back to the supply."""

    kind: ClassVar[str] = "tile_lost"
    seat: int
    item: str
    reason: str


@dataclass(frozen=True, slots=True)
class FreeTileEarned(Event):
    kind: ClassVar[str] = "free_tile_earned"
    seat: int


@dataclass(frozen=True, slots=True)
class ShipFinished(Event):
    kind: ClassVar[str] = "ship_finished"
    seat: int
    ship: int
    size: int
    rewards: int


@dataclass(frozen=True, slots=True)
class RewardTaken(Event):
    kind: ClassVar[str] = "reward_taken"
    seat: int
    ship: int
    reward: str
    goods: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Transported(Event):
    kind: ClassVar[str] = "transported"
    seat: int
    item: str


@dataclass(frozen=True, slots=True)
class MoneyTaken(Event):
    kind: ClassVar[str] = "money_taken"
    seat: int
    workers: int
    taler: int


@dataclass(frozen=True, slots=True)
class CrownsScored(Event):
    kind: ClassVar[str] = "crowns_scored"
    seat: int
    crowns: int
    workers: int
    vp_before_cap: int
    vp: int


@dataclass(frozen=True, slots=True)
class Delivered(Event):
    kind: ClassVar[str] = "delivered"
    seat: int
    ship: int
    goods: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class PassTileFlipped(Event):
    kind: ClassVar[str] = "pass_tile_flipped"
    seat: int
    value: int  # the penalty the tile no longer costs: 3, 2 or 1


@dataclass(frozen=True, slots=True)
class ExtraStarted(Event):
    kind: ClassVar[str] = "extra_started"
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class ExtraEnded(Event):
    kind: ClassVar[str] = "extra_ended"
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    seat: int
    uses: int


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    kind: ClassVar[str] = "phase_ended"
    round: int
    phase: int
    space: int
    action: str


@dataclass(frozen=True, slots=True)
class RoundPenalty(Event):
    kind: ClassVar[str] = "round_penalty"
    seat: int
    vp: int  # VP lost for face-up pass tiles (0..6)


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    kind: ClassVar[str] = "round_ended"
    round: int
    anchor: int  # where the wheel's anchor faces for the next round


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]


# Every event is built on a hot path (a move makes about three): see engine/nauticus/frozen.py.
# (The module's classes, not Event.__subclasses__(), which also lists the classes
# @dataclass(slots=True) replaced.)
for _event in list(globals().values()):
    if isinstance(_event, type) and issubclass(_event, Event) and _event is not Event:
        fast_init(_event)
