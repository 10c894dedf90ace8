"""What the three engines (nauticus, island, duel) share, written once.

Each engine was written as a copy of the first, so each had its own copy of three pieces that
have nothing game-specific in them: the check of a move's shape before its rules are read
(`move_type_parser`), the base class of its typed events (`Event`, `PublicEvent`), and the
object that puts its module functions behind the `engine.api.Rules` contract (`ModuleRules`).
A fix to one of them now reaches every game. Nothing here knows a game; each engine passes in
its own move table, wording and functions.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.api import EventLike, Move, ScoreLike
from engine.errors import IllegalMove

# --- a state's stored JSON ------------------------------------------------------------------------

# `json.dumps` with any option builds a new encoder each call; this one is built once with the
# same options (the others at their defaults: ASCII only, NaN written NaN), so the same text.
_STATE_ENCODER = json.JSONEncoder(separators=(",", ":"), sort_keys=True)


def state_json(data: Any) -> str:
    """`json.dumps(data, separators=(",", ":"), sort_keys=True)`: the compact, sorted text every
    engine stores its state as (each engine's `to_json` of its `to_dict`)."""
    return _STATE_ENCODER.encode(data)


# --- move shapes ---------------------------------------------------------------------------------

# Per move type: (required fields, optional fields), "type" itself not included.
MoveTypes = Mapping[str, tuple[frozenset[str], frozenset[str]]]


def move_type_parser(
    move_types: MoveTypes,
    *,
    no_fields: str = "no fields",
    quote_extra: bool = False,
    name_optional: bool = True,
) -> Callable[[Any], str]:
    """A function that checks a move's shape and returns its type, or raises IllegalMove.

    The shape is: a dict, a known "type", every required field and no unknown one. The refusals
    ("malformed", "unknown_type") name what is wrong and what is allowed. The wording options
    keep each engine's messages as they were (tests and translations pin them): `no_fields`
    is said of a type without fields, `quote_extra` gives unexpected keys as repr ('column')
    rather than plainly, `name_optional` lists the optional fields in the message.
    """
    # A well-formed move without its optional fields has exactly these keys: one comparison on
    # the fast path, which is every move the menus and the AI make.
    exact: dict[str, frozenset[str]] = {t: req | {"type"} for t, (req, _) in move_types.items()}
    names = ", ".join(move_types)
    show = repr if quote_extra else str

    def parse_type(move: Any) -> str:
        if type(move) is dict:
            mtype = move.get("type")
            if type(mtype) is str and move.keys() == exact.get(mtype):
                return mtype
        if not isinstance(move, dict):
            raise IllegalMove(
                "malformed",
                f"A move must be a JSON object with a 'type', not {move!r}.",
                move=repr(move),
            )
        mtype = move.get("type")
        if not isinstance(mtype, str) or mtype not in move_types:
            raise IllegalMove(
                "unknown_type",
                f"Unknown move type {mtype!r}; the move types are: {names}.",
                type=repr(mtype),
            )
        required, optional = move_types[mtype]
        keys = set(move) - {"type"}
        missing = required - keys
        extra = keys - required - optional
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(sorted(missing))}")
            if extra:
                parts.append(f"unexpected {', '.join(sorted(map(show, extra)))}")
            want = ", ".join(sorted(required)) or no_fields
            if optional and name_optional:
                want += f" (and optionally {', '.join(sorted(optional))})"
            raise IllegalMove(
                "malformed",
                f"A {mtype!r} move takes {want}: {'; '.join(parts)}.",
                type=mtype,
            )
        return mtype

    return parse_type


# --- events --------------------------------------------------------------------------------------


# Values `to_dict` keeps as they are: immutable, so `asdict`'s deep copy returns them unchanged.
_ATOMIC = frozenset({int, str, bool, float, type(None)})
# Per event class, its fields' names in `dataclasses.fields` order (what `asdict` walks).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """`value` as `dataclasses.asdict` converts a field's value: dataclasses to dicts, lists,
    tuples (named ones too) and dicts walked with their own types, anything else deep-copied."""
    t = type(value)
    if t in _ATOMIC:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return t(*[_plain(v) for v in value])
    if isinstance(value, list | tuple):
        return t(_plain(v) for v in value)
    if isinstance(value, dict):
        return t((_plain(k), _plain(v)) for k, v in value.items())
    return copy.deepcopy(value)


@dataclass(frozen=True, slots=True)
class _Typed:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """`{"kind": ..., **dataclasses.asdict(self)}`, the same dict, made by one walk of the
        fields: an event's fields are nearly all ints and strings, kept as they are here, where
        asdict passes each through `copy.deepcopy` (it runs for every event of every move)."""
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(self))
        out: dict[str, Any] = {"kind": self.kind}
        for name in names:
            value = getattr(self, name)
            out[name] = value if type(value) in _ATOMIC else _plain(value)
        return out


@dataclass(frozen=True, slots=True)
class Event(_Typed):
    """An event of a game with secrets: `private_to` is None (the whole table) or the one seat
    told; it is a field, so it is in `to_dict()`."""

    # kw_only so that subclasses keep their own positional fields after this defaulted one.
    private_to: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class PublicEvent(_Typed):
    """An event of a game that hides nothing: always public, and `private_to` (None) is not a
    field, so `to_dict()` does not carry it."""

    private_to: ClassVar[int | None] = None


# --- the Rules object ----------------------------------------------------------------------------

S = TypeVar("S", bound="Turns")


class Turns(Protocol):
    """What `ModuleRules` reads of every engine's state: whose decision it is, and the step."""

    @property
    def current(self) -> int | None: ...

    @property
    def step(self) -> str: ...


@dataclass(frozen=True)
class GameFunctions(Generic[S]):
    """One engine's module functions, as `ModuleRules` forwards them."""

    new_game: Callable[[int, int], S]
    legal_moves: Callable[[S, int], list[Move]]
    apply: Callable[[S, int, Move], tuple[S, Sequence[EventLike]]]
    view: Callable[[S, int | None], dict[str, Any]]
    final_scores: Callable[[S], Sequence[ScoreLike]]
    to_json: Callable[[S], str]
    from_json: Callable[[str], S]
    describe: Callable[[Move, S | None], str]
    # None: the game hides nothing, so a determinization is the state itself.
    determinize: Callable[[S, int | None, random.Random], S] | None = None


class ModuleRules(Generic[S]):
    """`engine.api.Rules` for one engine: its module functions behind one object."""

    def __init__(
        self,
        name: str,
        engine_version: str,
        players: tuple[int, int],
        functions: GameFunctions[S],
    ) -> None:
        self.name = name
        self.engine_version = engine_version
        self.min_players, self.max_players = players
        self._f = functions

    def new_game(self, players: int, seed: int) -> S:
        return self._f.new_game(players, seed)

    def current(self, state: S) -> int | None:
        return state.current

    def is_over(self, state: S) -> bool:
        return state.step == "over"

    def legal_moves(self, state: S, seat: int) -> list[Move]:
        return self._f.legal_moves(state, seat)

    def apply(self, state: S, seat: int, move: Move) -> tuple[S, Sequence[EventLike]]:
        return self._f.apply(state, seat, move)

    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        return self._f.view(state, seat)

    def final_scores(self, state: S) -> Sequence[ScoreLike]:
        return self._f.final_scores(state)

    def to_json(self, state: S) -> str:
        return self._f.to_json(state)

    def from_json(self, text: str) -> S:
        return self._f.from_json(text)

    def describe(self, move: Move, state: S | None = None) -> str:
        return self._f.describe(move, state)

    def determinize(self, state: S, seat: int | None, rng: random.Random) -> S:
        if self._f.determinize is None:
            return state
        return self._f.determinize(state, seat, rng)
