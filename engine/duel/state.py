"""The state of a Nautilus duel: frozen dataclasses that serialise to JSON and back without loss.

Everything is immutable so `apply` can share what a move does not touch (the other hand, the
decks, the award log) between the old and the new state. The state holds every secret (hands,
deck orders, the eye's snapshot) and what each seat knows about the other's hand, so that `view`
and `determinize` can tell the two apart without replaying the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from engine.common import state_json
from engine.duel import data
from engine.errors import IllegalMove

ENGINE_VERSION = data.ENGINE_VERSION

STEPS = ("keep", "eye", "dive", "harpoon", "place", "arrow", "over")


@dataclass(frozen=True, slots=True)
class Hand:
    divers: tuple[int, ...]  # kept sorted
    special: str | None  # the special held and not yet played


@dataclass(frozen=True, slots=True)
class Award:
    """One slot's domain card given at the end of a round (D-ROUND-6, D-ROUND-7): public."""

    round: int
    slot: int
    card: int  # domain card id
    values: tuple[int, int]  # the card value on seat 0's side and on seat 1's side
    winner: int


@dataclass(frozen=True, slots=True)
class Eye:
    """What the eye showed its player: the opponent's divers at that moment (D-ROUND-2)."""

    seat: int
    round: int
    divers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    draws: int  # RNG counter: how many random draws have been made
    round: int  # 1..6
    first: int  # the seat holding the Nemo token this round
    step: str  # one of STEPS
    turn: int  # the seat that must decide (kept as it was once the game is over)
    domain_deck: tuple[int, ...]  # face down, top first
    slots: tuple[int, ...]  # the 5 face-up domain cards of this round, slot 0..4
    board: tuple[tuple[int | None, ...], tuple[int | None, ...]]  # board[side][slot]: value
    anchored: int | None  # value of the card the anchor lies on
    hands: tuple[Hand, Hand]
    diver_deck: tuple[int, ...]  # top first
    special_deck: tuple[str, ...]  # top first
    aside: tuple[str, ...]  # specials of earlier rounds since the last rebuild (D-ROUND-8)
    played: tuple[tuple[int, str], ...]  # (seat, special) played this round, in order: public
    drawn: tuple[str, ...]  # step "keep": the first player's two specials
    module: tuple[int, ...]  # step "dive": the two divers the diving module drew
    harpooned: int | None  # step "harpoon": the diver the harpoon took
    arrow: int | None  # step "arrow": the arrow card whose move the placer chooses
    placed: int  # cards placed this round, 0..10
    eye: Eye | None  # this round's eye snapshot, if the eye was played
    known: tuple[tuple[int, ...], tuple[int, ...]]  # divers each seat knows the other holds
    deck_top: tuple[int, int] | None  # (seat, diver): the diver the module put back, its player
    seen: tuple[tuple[str, ...], tuple[str, ...]]  # specials each seat saw since the rebuild
    won: tuple[tuple[int, ...], tuple[int, ...]]  # each seat's won pile of domain cards
    awards: tuple[Award, ...]  # the public log of every award so far

    @property
    def current(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""
        return None if self.step == "over" else self.turn

    @property
    def second(self) -> int:
        """The seat without the Nemo token this round."""
        return 1 - self.first

    def card_at(self, side: int, slot: int) -> int | None:
        return self.board[side][slot]

    def where(self, value: int) -> tuple[int, int] | None:
        """(side, slot) of the card `value` on the Nautilus, if it lies there."""
        for side in (0, 1):
            row = self.board[side]
            if value in row:
                return side, row.index(value)
        return None


_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
_state_values = attrgetter(*_STATE_FIELDS)
_new = object.__new__
_set = object.__setattr__


def evolve(state: State, **changes: Any) -> State:
    """`dataclasses.replace(state, **changes)`, three times cheaper: the rules build a new state
    for every move and the AI search makes tens of thousands of moves a decision, where
    `replace` spent most of its time reading the dataclass fields again on every call. State has
    no `__init__` checks to skip: the result equals `replace`'s (tested).

    Raises:
        AttributeError: a name in `changes` that is not a field of State.
    """
    new = _new(State)
    for name, value in zip(_STATE_FIELDS, _state_values(state), strict=True):
        _set(new, name, value)
    for name, value in changes.items():
        _set(new, name, value)
    return new


# --- JSON ------------------------------------------------------------------------------------


def to_json(state: State) -> str:
    """Serialise a state to a JSON string (ENGINE_VERSION inside)."""
    return state_json(to_dict(state))


def to_dict(state: State) -> dict[str, Any]:
    return {
        "engine_version": ENGINE_VERSION,
        "seed": state.seed,
        "draws": state.draws,
        "round": state.round,
        "first": state.first,
        "step": state.step,
        "turn": state.turn,
        "domain_deck": list(state.domain_deck),
        "slots": list(state.slots),
        "board": [list(row) for row in state.board],
        "anchored": state.anchored,
        "hands": [{"divers": list(h.divers), "special": h.special} for h in state.hands],
        "diver_deck": list(state.diver_deck),
        "special_deck": list(state.special_deck),
        "aside": list(state.aside),
        "played": [[s, sp] for s, sp in state.played],
        "drawn": list(state.drawn),
        "module": list(state.module),
        "harpooned": state.harpooned,
        "arrow": state.arrow,
        "placed": state.placed,
        "eye": None
        if state.eye is None
        else {"seat": state.eye.seat, "round": state.eye.round, "divers": list(state.eye.divers)},
        "known": [list(k) for k in state.known],
        "deck_top": None if state.deck_top is None else list(state.deck_top),
        "seen": [list(s) for s in state.seen],
        "won": [list(w) for w in state.won],
        "awards": [
            {
                "round": a.round,
                "slot": a.slot,
                "card": a.card,
                "values": list(a.values),
                "winner": a.winner,
            }
            for a in state.awards
        ],
    }


def from_json(text: str) -> State:
    """Load a state saved by `to_json`.

    Raises:
        IllegalMove: code "bad_state" if the text is not a saved Nautilus duel of this version.
    """
    try:
        d = json.loads(text)
        if not isinstance(d, dict):
            raise ValueError("the top level is not an object")
        state = from_dict(d)
        _check(state)
        return state
    except IllegalMove:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise IllegalMove("bad_state", f"This is not a saved Nautilus duel game: {exc}") from exc


def _int(v: Any) -> int:
    if type(v) is not int:
        raise TypeError(f"expected a whole number, got {v!r}")
    return v


def _opt_int(v: Any) -> int | None:
    return None if v is None else _int(v)


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"expected a string, got {v!r}")
    return v


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(_int(x) for x in v)


def _strs(v: Any) -> tuple[str, ...]:
    return tuple(_str(x) for x in v)


def _pair(v: Any) -> tuple[int, int]:
    a, b = v
    return _int(a), _int(b)


def from_dict(d: dict[str, Any]) -> State:
    if d.get("engine_version") != ENGINE_VERSION:
        raise IllegalMove(
            "bad_state",
            f"This game was saved by engine {d.get('engine_version')!r}; "
            f"this engine reads {ENGINE_VERSION!r}.",
            version=d.get("engine_version"),
        )
    b0, b1 = d["board"]
    h0, h1 = d["hands"]
    k0, k1 = d["known"]
    s0, s1 = d["seen"]
    w0, w1 = d["won"]
    eye = d["eye"]
    top = d["deck_top"]
    return State(
        seed=_int(d["seed"]),
        draws=_int(d["draws"]),
        round=_int(d["round"]),
        first=_int(d["first"]),
        step=_str(d["step"]),
        turn=_int(d["turn"]),
        domain_deck=_ints(d["domain_deck"]),
        slots=_ints(d["slots"]),
        board=(tuple(_opt_int(x) for x in b0), tuple(_opt_int(x) for x in b1)),
        anchored=_opt_int(d["anchored"]),
        hands=(
            Hand(_ints(h0["divers"]), None if h0["special"] is None else _str(h0["special"])),
            Hand(_ints(h1["divers"]), None if h1["special"] is None else _str(h1["special"])),
        ),
        diver_deck=_ints(d["diver_deck"]),
        special_deck=_strs(d["special_deck"]),
        aside=_strs(d["aside"]),
        played=tuple((_int(s), _str(sp)) for s, sp in d["played"]),
        drawn=_strs(d["drawn"]),
        module=_ints(d["module"]),
        harpooned=_opt_int(d["harpooned"]),
        arrow=_opt_int(d["arrow"]),
        placed=_int(d["placed"]),
        eye=None
        if eye is None
        else Eye(_int(eye["seat"]), _int(eye["round"]), _ints(eye["divers"])),
        known=(_ints(k0), _ints(k1)),
        deck_top=None if top is None else _pair(top),
        seen=(_strs(s0), _strs(s1)),
        won=(_ints(w0), _ints(w1)),
        awards=tuple(
            Award(
                _int(a["round"]),
                _int(a["slot"]),
                _int(a["card"]),
                _pair(a["values"]),
                _int(a["winner"]),
            )
            for a in d["awards"]
        ),
    )


def _check(state: State) -> None:
    """Refuse a loaded state whose cards do not add up (a hand-edited or corrupted save)."""
    if state.step not in STEPS:
        raise ValueError(f"unknown step {state.step!r}")
    if state.first not in (0, 1) or state.turn not in (0, 1):
        raise ValueError("the first player and the seat to decide must be 0 or 1")
    if len(state.slots) != data.SLOTS or any(len(row) != data.SLOTS for row in state.board):
        raise ValueError("the Nautilus has 5 slots")
    divers = [*state.diver_deck, *state.module]
    for h in state.hands:
        divers += h.divers
    if state.harpooned is not None:
        divers.append(state.harpooned)
    divers += [v for row in state.board for v in row if v is not None and v in data.DIVERS]
    if sorted(divers) != list(data.DIVERS):
        raise ValueError("the 14 divers do not add up")
    specials = [*state.special_deck, *state.aside, *state.drawn, *(sp for _, sp in state.played)]
    specials += [h.special for h in state.hands if h.special is not None]
    if sorted(specials) != sorted(data.SPECIALS):
        raise ValueError("the 6 specials do not add up")
    domains = [*state.domain_deck, *state.won[0], *state.won[1]]
    if state.step != "over":
        domains += state.slots
    if sorted(domains) != list(data.DOMAIN_CARDS):
        raise ValueError("the 30 domain cards do not add up")
