"""What the core passes around: a game as loaded (`GameRecord`, its `Seat`s), the results of
the core's calls, and the small checks and conversions every concern uses. Nothing here reads
the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any, NamedTuple

from bot import i18n
from bot.core.errors import ServiceError
from bot.games import GAMES
from bot.i18n import tr
from bot.plugin import GamePlugin, Seen
from bot.store import MoveRow, SeatRow
from bot.visibility import seen
from engine.api import EventLike


class Seat(NamedTuple):
    seat: int  # engine seat, 0-based (players read seat + 1)
    user_id: int  # < 0: a robot seat, no Discord member behind it
    name: str
    ai: str | None = None  # the AI level that plays this seat (robot or autopilot), else None

    @property
    def robot(self) -> bool:
        return self.user_id < 0


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    status: str  # "lobby" | "active" | "finished" | "aborted"
    host_id: int
    version: int
    state: Any  # the engine's state (opaque here), None in a lobby or when unreadable
    seats: list[Seat]
    engine_version: str
    seed: int
    flagged: str | None = None
    seating: str = "random"  # lobby setting: "random" draw or "join" order
    updated_at: str = ""
    kind: str = ""  # the game (registry key)
    deadline_hours: int | None = None  # the host's turn deadline (None: none)
    reminder_hours: int | None = None  # the host's reminder interval (None: not set, 0: off)
    locale: str = i18n.ENGLISH  # the language of the game's channel posts

    @property
    def plugin(self) -> GamePlugin:
        return GAMES.get(self.kind)

    def seen(self, audience: int | None) -> Seen:
        """What `audience` (None: the channel; a seat: its holder alone) may see now."""
        assert self.state is not None
        # A record never changes, so each audience's Seen is made once (kept in __dict__:
        # the dataclass is frozen, and `replace` makes a new record with an empty cache).
        cache: dict[int | None, Seen] = self.__dict__.setdefault("_seen", {})
        found = cache.get(audience)
        if found is None:
            found = cache[audience] = seen(self.plugin, self.state, self.names, audience)
        return found

    def changed(self, **changes: Any) -> GameRecord:
        """`dataclasses.replace(self, **changes)` (a new record, its Seen cache empty), about
        seven times faster: the fields are copied as they are, not passed one by one through
        the frozen dataclass's `__init__` (which checks nothing): every move makes one."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"GameRecord has no field {', '.join(sorted(unknown))}")
        values = self.__dict__.copy()
        values.pop("_seen", None)
        values.update(changes)
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", values)
        return new

    @property
    def current(self) -> int | None:
        """The seat that must decide now (None in a lobby or once over)."""
        return None if self.state is None else self.plugin.rules.current(self.state)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def user_at(self, seat: int) -> int:
        return self.seats[seat].user_id


_FIELDS = frozenset(f.name for f in fields(GameRecord))


@dataclass(frozen=True)
class PlayResult:
    record: GameRecord  # the game after the move
    move: dict[str, Any]
    events: list[EventLike]
    text: str  # the move in words, with its cost
    n: int  # the move's number in the game's log


@dataclass(frozen=True)
class SkipResult:
    record: GameRecord
    seat: int  # the seat whose turn was skipped
    texts: list[str]  # the moves played for it, in words


@dataclass(frozen=True)
class MyGame:
    """One line of `/games mygames`."""

    game_id: int
    channel_id: int
    status: str
    seat: int
    your_turn: bool
    decide: str  # what you (or whoever acts) must decide
    since: str  # when the game last changed (ISO time): how long it has waited
    title: str = ""  # the game's name


def seat_list(rows: Sequence[SeatRow]) -> list[Seat]:
    return [Seat(r.seat, r.user_id, r.name, r.ai) for r in rows]


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime) -> str:
    """A stored time: UTC, to the second, so stored times compare as text in SQL."""
    return when.astimezone(UTC).isoformat(timespec="seconds")


def iso_or_none(when: datetime | None) -> str | None:
    return None if when is None else iso(when)


def parse_when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def replay(plugin: GamePlugin, seed: int, players: int, moves: Sequence[MoveRow]) -> Any:
    """Rebuild a game from its seed and log."""
    rules = plugin.rules
    state = rules.new_game(players, seed)
    for m in moves:
        state, _ = rules.apply(state, m.seat, m.move)
    return state


def same_state(plugin: GamePlugin, a: Any, b: Any) -> bool:
    return plugin.rules.to_json(a) == plugin.rules.to_json(b)


def new_commands() -> str:
    return tr(" or ").join(f"`/{g.command} new`" for g in GAMES)


def no_game_here() -> str:
    return tr("No game is being played here. Start one with {commands}.", commands=new_commands())


def checked(*values: object) -> None:
    """Refuse an id or count no Discord request carries (not an int, or outside SQLite's
    64-bit integers), before it reaches the database."""
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not -(1 << 63) <= v < 1 << 63:
            raise ServiceError(
                tr("That request is malformed; nothing was changed."), code="bad_input"
            )


# A move is a small JSON object (a type and a few values); anything much deeper or larger is not
# a move, and an engine that quotes it back in a refusal would recurse through it.
MOVE_DEPTH = 8
MOVE_NODES = 200


def move_shaped(move: object) -> bool:
    """Whether `move` is a dict of at most MOVE_DEPTH levels and MOVE_NODES values (walked
    without recursion, so no nesting can exhaust the stack here)."""
    if not isinstance(move, dict):
        return False
    todo: list[tuple[object, int]] = [(move, 1)]
    nodes = 0
    while todo:
        value, depth = todo.pop()
        nodes += 1
        if depth > MOVE_DEPTH or nodes > MOVE_NODES:
            return False
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            todo.extend((v, depth + 1) for v in value)
    return True
