"""The state of a Nauticus game: frozen dataclasses that serialise to JSON and back without loss.

Everything is immutable so `apply` can share the parts a move does not touch (a player, a ship,
the supply) between the old and the new state instead of copying the world.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.common import state_json
from engine.errors import IllegalMove
from engine.nauticus import data
from engine.nauticus.frozen import fast_init, generate, maker, twin

# Bump when a change would make a stored game replay differently.
ENGINE_VERSION = "nauticus-1"


@fast_init
@dataclass(frozen=True, slots=True)
class Ship:
    """One ship in a shipyard, hull tiles from front (bow) to back (stern)."""

    hulls: tuple[str, ...]
    masts: tuple[str | None, ...]  # crest of the mast on each hull tile
    sails: tuple[str | None, ...]  # crest of the sail on the mast of each hull tile
    goods: tuple[str | None, ...]  # good under each hull tile

    @property
    def size(self) -> int:
        return len(self.hulls)

    @property
    def front_open(self) -> bool:
        return self.hulls[0] not in ("bow", "one_ship")

    @property
    def back_open(self) -> bool:
        return self.hulls[-1] not in ("stern", "one_ship")

    @property
    def closed(self) -> bool:
        return not self.front_open and not self.back_open

    @property
    def finished(self) -> bool:
        """N-YARD-6: closed hull and a mast with a sail on every hull tile."""
        return self.closed and None not in self.masts and None not in self.sails

    @property
    def crest(self) -> str | None:
        """The one regular crest this ship's masts and sails share (N-YARD-5), if any yet."""
        for c in self.masts:
            if c is not None and c != data.CROWN:
                return c
        for c in self.sails:
            if c is not None and c != data.CROWN:
                return c
        return None

    @property
    def middles(self) -> int:
        return self.hulls.count("middle")

    def parts(self) -> int:
        """Hull tiles, masts and sails: what an unfinished ship leaves over (N-END-3)."""
        return (
            len(self.hulls)
            + sum(m is not None for m in self.masts)
            + sum(s is not None for s in self.sails)
        )

    def goods_count(self) -> int:
        return sum(g is not None for g in self.goods)


def storage_units(storage: tuple[str, ...]) -> int:
    """Storage units the items take (Player.storage_used)."""
    # Read for every buy menu, store and reward: the table look-ups summed in C.
    try:
        return sum(map(data.ITEM_UNITS.__getitem__, storage))
    except KeyError:  # a damaged save: an id that is no item
        return sum(data.item_units(item) for item in storage)


def new_ship(hull: str) -> Ship:
    return make_ship((hull,), (None,), (None,), (None,))  # defined below, on the hot path


@fast_init
@dataclass(frozen=True, slots=True)
class Player:
    score: int
    workers: int
    taler: int
    extra: bool  # still holds the extra-action tile
    passes: int  # pass tiles flipped this round (0..3), in the order of data.PASS_TILES
    storage: tuple[str, ...]  # item ids, kept sorted
    ships: tuple[Ship, ...]
    delivered: tuple[int, ...]  # per kind, in data.GOODS order

    @property
    def storage_used(self) -> int:
        return storage_units(self.storage)

    @property
    def crowns(self) -> int:
        """N-CROWN-1: crown masts and sails owned (storage and shipyard) plus flipped pass tiles."""
        n = self.passes
        for item in self.storage:
            if item in ("mast_crown", "sail_crown"):
                n += 1
        for ship in self.ships:
            n += ship.masts.count(data.CROWN) + ship.sails.count(data.CROWN)
        return n


@fast_init
@dataclass(frozen=True, slots=True)
class Pending:
    """A decision that interrupts a turn: rewards for a finished ship, or the free tile."""

    kind: str  # "reward" or "free_tile"
    ship: int = -1  # reward: the ship finished
    left: int = 0  # reward: rewards still to choose
    taken: tuple[str, ...] = ()  # reward: kinds chosen so far for this ship
    items: tuple[str, ...] = ()  # free_tile: the tile's four items


@fast_init
@dataclass(frozen=True, slots=True)
class Turn:
    """The acting player's progress through their turn in the current action phase."""

    seat: int
    blue: int  # blue workers left for the phase's action
    uses: int = 0  # uses of the phase's action
    passed: bool = False
    closed: bool = False  # the phase's action may no longer be used (extra action came after)
    extra: str | None = None  # action being performed through the extra action
    # The current performance (the phase's action, or the extra action):
    bought: tuple[str, ...] = ()  # distinct items bought so far
    free_earned: bool = False
    crown_vp: int = 0
    pending: tuple[Pending, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class State:
    seed: int
    draws: int  # RNG counter: how many shuffles have been drawn
    players: tuple[Player, ...]
    supply: tuple[int, ...]  # per item, in data.ITEMS order
    round: int  # 1-based
    phase: int  # 1..7: the action phase in progress or about to start
    anchor: int  # the space the wheel's anchor faces
    tiles: tuple[str, ...]  # the action tile lying on each space
    chosen: tuple[int, ...]  # spaces chosen this round, in order (the first holds the anchor tile)
    start: int  # start player's seat
    step: str  # "choose" | "bonus" | "turn" | "over"
    turn: Turn | None = None

    @property
    def rounds(self) -> int:
        return data.ROUNDS[len(self.players)]

    @property
    def space(self) -> int | None:
        """The space chosen for the current action phase, once chosen."""
        if self.step in ("bonus", "turn"):
            return self.chosen[-1]
        return None

    @property
    def action(self) -> str | None:
        s = self.space
        return None if s is None else self.tiles[s]

    @property
    def current(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""
        if self.step in ("choose", "bonus"):
            return self.start
        if self.step == "turn" and self.turn is not None:
            return self.turn.seat
        return None

    def blue_on(self, space: int) -> int:
        """N-BOARD-2: blue workers of the wheel section facing `space`."""
        return data.WHEEL[(space - self.anchor) % data.SPACES]


# --- fast copies ------------------------------------------------------------------------------

_T = TypeVar("_T", Ship, Player, Pending, Turn, State)
_KEEP: Any = object()  # "this field is not changed" in a generated evolve below
_CLASSES = (Ship, Player, Pending, Turn, State)
# Each class's mutable twin (engine/nauticus/frozen.py `twin`), and back.
_TWIN: dict[type, type] = {cls: twin(cls) for cls in _CLASSES}
_FROZEN: dict[type, type] = {tw: cls for cls, tw in _TWIN.items()}


def _evolver(cls: type[_T]) -> Callable[..., _T]:
    """Generate `evolve(obj, *, field=..., ...)` for `cls`: a copy with the given fields changed.

    `dataclasses.replace` re-reads fields(), packs the changes into a dict and goes through the
    generated __init__, which sets each field through the frozen guard; the engine builds a few
    of these objects on every move. This function fills a twin (engine/nauticus/frozen.py
    `twin`) with plain writes and gives it its class: the same object for about a third of
    replace's cost. The classes have no __post_init__ and no validation that this would skip.
    """
    names = cls.__slots__
    body = [f"    out.{n} = obj.{n} if {n} is KEEP else {n}" for n in names]
    body += ["    out.__class__ = cls", "    return out"]
    params = f"obj, *, {', '.join(f'{n}=KEEP' for n in names)}"
    env = {"cls": cls, "KEEP": _KEEP}
    evolve: Callable[..., _T] = generate(_TWIN[cls], "evolve", params, body, env)
    return evolve


def _thawer(cls: type) -> Callable[[Any], Any]:
    """Generate `thaw(obj)`: a mutable twin copy of `obj` (see `thaw`)."""
    body = [f"    out.{n} = obj.{n}" for n in vars(cls)["__slots__"]] + ["    return out"]
    thaw: Callable[[Any], Any] = generate(_TWIN[cls], "thaw", "obj", body, {})
    return thaw


_EVOLVE: dict[type, Callable[..., Any]] = {cls: _evolver(cls) for cls in _CLASSES}
_THAW: dict[type, Callable[[Any], Any]] = {cls: _thawer(cls) for cls in _CLASSES}
# A twin being built (rules._Ctx's copy of the mover) copies and changes like its class.
_EVOLVE.update({_TWIN[cls]: f for cls, f in list(_EVOLVE.items())})
# The new state of every move is built with these: called directly, they skip a dispatch.
evolve_state: Callable[..., State] = _EVOLVE[State]
make_state = maker(State)
make_turn = maker(Turn)
make_ship = maker(Ship)
thaw_player: Callable[[Player], Any] = _THAW[Player]
thaw_turn: Callable[[Turn], Any] = _THAW[Turn]


def evolve(obj: _T, **changes: Any) -> _T:
    """`dataclasses.replace(obj, **changes)` for the state classes, faster (see `_evolver`).

    Raises TypeError for a field the class does not have, as replace does.
    """
    new: _T = _EVOLVE[type(obj)](obj, **changes)
    return new


def thaw(obj: _T) -> Any:
    """A private, MUTABLE copy of `obj` (an instance of its twin), to change with plain
    attribute writes and hand out only through `freeze`.

    Only for rules._Ctx's copy of the moving player and turn: nothing else sees it until the
    new state is returned, so every state anyone holds stays unchanged, and a refused move
    just drops it.
    """
    return _THAW[type(obj)](obj)


def freeze(obj: Any) -> Any:
    """Turn a twin from `thaw` into its frozen class, in place, and return it. Frozen from now
    on: the caller must not keep writing to it."""
    obj.__class__ = _FROZEN[type(obj)]
    return obj


# --- JSON ------------------------------------------------------------------------------------


def _ship_to_json(s: Ship) -> dict[str, Any]:
    return {
        "hulls": list(s.hulls),
        "masts": list(s.masts),
        "sails": list(s.sails),
        "goods": list(s.goods),
    }


def to_json(state: State) -> str:
    """Serialise a state (without its move log) to a JSON string."""
    return state_json(to_dict(state))


def to_dict(state: State) -> dict[str, Any]:
    turn = state.turn
    return {
        "engine_version": ENGINE_VERSION,
        "seed": state.seed,
        "draws": state.draws,
        "players": [
            {
                "score": p.score,
                "workers": p.workers,
                "taler": p.taler,
                "extra": p.extra,
                "passes": p.passes,
                "storage": list(p.storage),
                "ships": [_ship_to_json(s) for s in p.ships],
                "delivered": list(p.delivered),
            }
            for p in state.players
        ],
        "supply": list(state.supply),
        "round": state.round,
        "phase": state.phase,
        "anchor": state.anchor,
        "tiles": list(state.tiles),
        "chosen": list(state.chosen),
        "start": state.start,
        "step": state.step,
        "turn": None
        if turn is None
        else {
            "seat": turn.seat,
            "blue": turn.blue,
            "uses": turn.uses,
            "passed": turn.passed,
            "closed": turn.closed,
            "extra": turn.extra,
            "bought": list(turn.bought),
            "free_earned": turn.free_earned,
            "crown_vp": turn.crown_vp,
            "pending": [
                {
                    "kind": p.kind,
                    "ship": p.ship,
                    "left": p.left,
                    "taken": list(p.taken),
                    "items": list(p.items),
                }
                for p in turn.pending
            ],
        },
    }


def from_json(text: str) -> State:
    """Load a state saved by `to_json`.

    Raises:
        IllegalMove: code "bad_state" if the text is not a saved Nauticus state.
    """
    try:
        return from_dict(json.loads(text))
    except IllegalMove:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise IllegalMove("bad_state", f"This is not a saved Nauticus game: {exc}") from exc


def _opt(v: Any) -> str | None:
    return None if v is None else str(v)


def from_dict(d: dict[str, Any]) -> State:
    if d.get("engine_version") != ENGINE_VERSION:
        raise IllegalMove(
            "bad_state",
            f"This game was saved by engine {d.get('engine_version')!r}; "
            f"this engine reads {ENGINE_VERSION!r}.",
            version=d.get("engine_version"),
        )
    t = d["turn"]
    turn = (
        None
        if t is None
        else Turn(
            seat=int(t["seat"]),
            blue=int(t["blue"]),
            uses=int(t["uses"]),
            passed=bool(t["passed"]),
            closed=bool(t["closed"]),
            extra=_opt(t["extra"]),
            bought=tuple(t["bought"]),
            free_earned=bool(t["free_earned"]),
            crown_vp=int(t["crown_vp"]),
            pending=tuple(
                Pending(
                    kind=str(p["kind"]),
                    ship=int(p["ship"]),
                    left=int(p["left"]),
                    taken=tuple(p["taken"]),
                    items=tuple(p["items"]),
                )
                for p in t["pending"]
            ),
        )
    )
    return State(
        seed=int(d["seed"]),
        draws=int(d["draws"]),
        players=tuple(
            Player(
                score=int(p["score"]),
                workers=int(p["workers"]),
                taler=int(p["taler"]),
                extra=bool(p["extra"]),
                passes=int(p["passes"]),
                storage=tuple(p["storage"]),
                ships=tuple(
                    Ship(
                        tuple(s["hulls"]),
                        tuple(_opt(x) for x in s["masts"]),
                        tuple(_opt(x) for x in s["sails"]),
                        tuple(_opt(x) for x in s["goods"]),
                    )
                    for s in p["ships"]
                ),
                delivered=tuple(int(x) for x in p["delivered"]),
            )
            for p in d["players"]
        ),
        supply=tuple(int(x) for x in d["supply"]),
        round=int(d["round"]),
        phase=int(d["phase"]),
        anchor=int(d["anchor"]),
        tiles=tuple(d["tiles"]),
        chosen=tuple(int(x) for x in d["chosen"]),
        start=int(d["start"]),
        step=str(d["step"]),
        turn=turn,
    )
