"""The state of a Nautilus Island game: frozen dataclasses that serialise to JSON and back.

Everything is immutable so `apply` can share what a move does not touch (the other players, the
other stacks, the porthole piles) between the old and the new state. The state holds every
secret (hands, face-down stacks, the token reserve, the seed); `view` is what a seat may see.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.common import state_json
from engine.errors import IllegalMove
from engine.island import data

# Bump when a change would make a stored game replay differently.
# island-2: in the last round an empty column may be faced only by a player who can store
# (I-TURN-4); an island-1 log where a player faced one and did nothing may no longer replay.
ENGINE_VERSION = "island-2"
# Versions whose saved states `from_json` reads: the state's shape is the same, and a game
# saved by one goes on under these rules (the bot does not replay its log).
READS_VERSIONS = ("island-1", ENGINE_VERSION)


@dataclass(frozen=True, slots=True)
class Collection:
    """One category's cards laid in front of a player, its bonus tokens and its porthole."""

    cards: tuple[int, ...] = ()  # sorted card numbers
    tokens: tuple[str, ...] = ()  # bonus token types, in the order taken
    porthole: int | None = None  # the porthole token's VP once closed (I-PORT-1)

    @property
    def closed(self) -> bool:
        return self.porthole is not None


EMPTY_COLLECTION = Collection()


@dataclass(frozen=True, slots=True)
class Pawn:
    side: str | None = None  # "above" | "below"; None until placed in the first round
    column: int | None = None
    last: int | None = None  # the column faced in the previous round, shown to players


@dataclass(frozen=True, slots=True)
class Player:
    hand: tuple[int, ...]  # sorted card numbers
    # Cards in hand that everyone saw taken (from a face-up stack, I-TURN-5): determinize keeps
    # them where they are instead of re-dealing them.
    known: tuple[int, ...]
    collections: tuple[Collection, ...]  # one per storable category, data.STORABLE order
    pawn: Pawn


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    draws: int  # RNG counter: draws taken so far (engine.rng)
    players: tuple[Player, ...]
    stacks: tuple[tuple[int, ...], ...]  # every stack bow→stern, each bottom→top (top = last)
    box: tuple[int, ...]  # sorted cards left out of the game at setup (I-SETUP-2)
    camp: tuple[str | None, ...]  # the token on each camp space, data.STORABLE order
    reserve: tuple[str, ...]  # face-down tokens, drawn from the end
    portholes: tuple[int, ...]  # tokens taken so far from each pile, data.PORTHOLE_SIZES order
    first: int  # the first player (I-SETUP-5)
    round: int  # 1-based
    step: str  # "place" | "move" | "act" | "close" | "over"
    current: int | None  # the seat that must decide; None once over
    moved: tuple[int, ...] = ()  # seats that have taken their turn this round, in order
    end_triggered: bool = False  # a column ran out of cards (I-END-1)
    last_round: bool = False  # this round is the last one
    stored: int | None = None  # step "close": the storable category index just stored into

    @property
    def layout(self) -> tuple[int, ...]:
        """Stacks per column, bow→stern (I-SETUP-2)."""
        return data.COLUMNS[len(self.players)]

    @property
    def side(self) -> str:
        """The side pawns move to in this round."""
        return data.round_side(self.round)


def column_stacks(players: int) -> tuple[tuple[int, ...], ...]:
    """The stack indices of each column: stacks are numbered bow→stern, column by column."""
    out: list[tuple[int, ...]] = []
    i = 0
    for n in data.COLUMNS[players]:
        out.append(tuple(range(i, i + n)))
        i += n
    return tuple(out)


def face_up(players: int) -> tuple[bool, ...]:
    """Per stack: the first stack of every column is face up, the others face down."""
    return tuple(j == 0 for col in column_stacks(players) for j in range(len(col)))


# Precomputed per player count: layouts never change during a game.
COLUMN_STACKS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: column_stacks(n) for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
}
FACE_UP: dict[int, tuple[bool, ...]] = {
    n: face_up(n) for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
}
STACK_COLUMN: dict[int, tuple[int, ...]] = {
    n: tuple(c for c, col in enumerate(COLUMN_STACKS[n]) for _ in col) for n in COLUMN_STACKS
}


# Per player count and column: the (first, end) stack indices, for slicing `State.stacks`.
COLUMN_SPAN: dict[int, tuple[tuple[int, int], ...]] = {
    n: tuple((col[0], col[-1] + 1) for col in cols) for n, cols in COLUMN_STACKS.items()
}


def column_cards(state: State, column: int) -> int:
    """Cards left in a column, all its stacks together."""
    # A slice of the column's stacks (they are numbered consecutively) summed by `map`: the
    # search asks this for every column at every pawn move of its rollouts.
    first, end = COLUMN_SPAN[len(state.players)][column]
    return sum(map(len, state.stacks[first:end]))


def rename_cards(state: State, new: Sequence[int]) -> State:
    """The same state with every card `c` replaced by `new[c]` (a one-to-one renaming, such as
    exchanging copies of one object), sorted places kept sorted and stacks kept in order."""

    def cards(cs: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted([new[c] for c in cs])) if cs else cs

    # Built directly rather than with `replace`: determinize renames on every sample.
    players = tuple(
        Player(
            cards(p.hand),
            cards(p.known),
            tuple(
                Collection(cards(col.cards), col.tokens, col.porthole) if col.cards else col
                for col in p.collections
            ),
            p.pawn,
        )
        for p in state.players
    )
    return replace(
        state,
        players=players,
        stacks=tuple(tuple([new[c] for c in stack]) for stack in state.stacks),
        box=cards(state.box),
    )


# --- JSON ----------------------------------------------------------------------------------------


def _ids(cards: tuple[int, ...]) -> list[str]:
    return [data.CARD_IDS[c] for c in cards]


def to_dict(state: State) -> dict[str, Any]:
    return {
        "engine_version": ENGINE_VERSION,
        "seed": state.seed,
        "draws": state.draws,
        "players": [
            {
                "hand": _ids(p.hand),
                "known": _ids(p.known),
                "collections": [
                    {"cards": _ids(c.cards), "tokens": list(c.tokens), "porthole": c.porthole}
                    for c in p.collections
                ],
                "pawn": {"side": p.pawn.side, "column": p.pawn.column, "last": p.pawn.last},
            }
            for p in state.players
        ],
        "stacks": [_ids(s) for s in state.stacks],
        "box": _ids(state.box),
        "camp": list(state.camp),
        "reserve": list(state.reserve),
        "portholes": list(state.portholes),
        "first": state.first,
        "round": state.round,
        "step": state.step,
        "current": state.current,
        "moved": list(state.moved),
        "end_triggered": state.end_triggered,
        "last_round": state.last_round,
        "stored": state.stored,
    }


def to_json(state: State) -> str:
    """Serialise a whole state (secrets included: this is for storage, not for players)."""
    return state_json(to_dict(state))


def _cards(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise TypeError("a card list is expected")
    return tuple(data.CARD_BY_ID[x] for x in v)


def _int(v: Any) -> int:
    if type(v) is not int:
        raise TypeError(f"{v!r} is not a whole number")
    return v


def _opt_int(v: Any) -> int | None:
    return None if v is None else _int(v)


def _opt_str(v: Any, allowed: tuple[str, ...]) -> str | None:
    if v is None:
        return None
    if v not in allowed:
        raise ValueError(f"{v!r} is not one of {allowed}")
    return str(v)


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise TypeError(f"{v!r} is not true or false")
    return v


def from_dict(d: Any) -> State:
    if not isinstance(d, dict):
        raise TypeError("a saved game is a JSON object")
    if d.get("engine_version") not in READS_VERSIONS:
        raise IllegalMove(
            "bad_state",
            f"This game was saved by engine {d.get('engine_version')!r}; "
            f"this engine reads {ENGINE_VERSION!r}.",
            version=d.get("engine_version"),
        )
    players = tuple(
        Player(
            hand=tuple(sorted(_cards(p["hand"]))),
            known=tuple(sorted(_cards(p["known"]))),
            collections=tuple(
                Collection(
                    cards=tuple(sorted(_cards(c["cards"]))),
                    tokens=tuple(str(_opt_str(t, data.TOKENS)) for t in c["tokens"]),
                    porthole=_opt_int(c["porthole"]),
                )
                for c in p["collections"]
            ),
            pawn=Pawn(
                side=_opt_str(p["pawn"]["side"], data.SIDES),
                column=_opt_int(p["pawn"]["column"]),
                last=_opt_int(p["pawn"]["last"]),
            ),
        )
        for p in d["players"]
    )
    n = len(players)
    if not data.MIN_PLAYERS <= n <= data.MAX_PLAYERS:
        raise ValueError(f"{n} players")
    state = State(
        seed=_int(d["seed"]),
        draws=_int(d["draws"]),
        players=players,
        stacks=tuple(_cards(s) for s in d["stacks"]),
        box=tuple(sorted(_cards(d["box"]))),
        camp=tuple(_opt_str(t, data.TOKENS) for t in d["camp"]),
        reserve=tuple(str(_opt_str(t, data.TOKENS)) for t in d["reserve"]),
        portholes=tuple(_int(x) for x in d["portholes"]),
        first=_int(d["first"]),
        round=_int(d["round"]),
        step=str(_opt_str(d["step"], ("place", "move", "act", "close", "over"))),
        current=_opt_int(d["current"]),
        moved=tuple(_int(x) for x in d["moved"]),
        end_triggered=_bool(d["end_triggered"]),
        last_round=_bool(d["last_round"]),
        stored=_opt_int(d["stored"]),
    )
    _check(state)
    return state


def _check(state: State) -> None:
    """Shape checks a hand-edited save could break: counts that the rules rely on."""
    n = len(state.players)
    cards = [c for s in state.stacks for c in s] + list(state.box)
    for p in state.players:
        cards += p.hand
        if len(p.collections) != len(data.STORABLE):
            raise ValueError("a player needs one collection per storable category")
        for c in p.collections:
            cards += c.cards
        if not set(p.known) <= set(p.hand):
            raise ValueError("known cards must be in hand")
    if sorted(cards) != list(range(data.CARD_COUNT)):
        raise ValueError("the 96 cards must each be in exactly one place")
    if len(state.stacks) != sum(data.COLUMNS[n]) or len(state.camp) != data.CAMP_SPACES:
        raise ValueError("wrong number of stacks or camp spaces")
    if len(state.portholes) != len(data.PORTHOLE_SIZES):
        raise ValueError("wrong number of porthole piles")
    if state.current is not None and not 0 <= state.current < n:
        raise ValueError("no such current seat")


def from_json(text: str) -> State:
    """Load a state saved by `to_json`.

    Raises:
        IllegalMove: code "bad_state" if the text is not a saved Nautilus Island game.
    """
    try:
        return from_dict(json.loads(text))
    except IllegalMove:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise IllegalMove(
            "bad_state", f"This is not a saved Nautilus Island game: {exc}", error=str(exc)
        ) from exc
