"""Small builders for Nautilus Island rule tests: put chosen cards, pawns and tokens in place.

Cards are named by their ids ("food:ham:3"). `relocate` takes cards out of wherever they are and
puts them somewhere else, so a built state still holds each of the 96 cards exactly once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import island
from engine.island import data
from engine.island.events import Event
from engine.island.state import Collection, Pawn, State


def game(players: int = 3, seed: int = 1, first: int = 0) -> State:
    return island.new_game(players, seed, first=first)


def ids(*names: str) -> tuple[int, ...]:
    return tuple(data.CARD_BY_ID[n] for n in names)


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [data.CARD_IDS[c] for c in cards]


def _without(state: State, gone: set[int]) -> State:
    players = []
    for p in state.players:
        cols = tuple(
            replace(c, cards=tuple(x for x in c.cards if x not in gone)) for c in p.collections
        )
        players.append(
            replace(
                p,
                hand=tuple(x for x in p.hand if x not in gone),
                known=tuple(x for x in p.known if x not in gone),
                collections=cols,
            )
        )
    return replace(
        state,
        players=tuple(players),
        stacks=tuple(tuple(x for x in s if x not in gone) for s in state.stacks),
        box=tuple(x for x in state.box if x not in gone),
    )


def relocate(state: State, where: tuple[Any, ...], *card_ids: str) -> State:
    """Move cards to ("hand", seat) | ("known", seat) | ("stack", s) (on top, in order) |
    ("collection", seat, category) | ("box",)."""
    cards = ids(*card_ids)
    state = _without(state, set(cards))
    kind = where[0]
    if kind in ("hand", "known"):
        seat = where[1]
        players = list(state.players)
        p = players[seat]
        known = tuple(sorted((*p.known, *cards))) if kind == "known" else p.known
        players[seat] = replace(p, hand=tuple(sorted((*p.hand, *cards))), known=known)
        return replace(state, players=tuple(players))
    if kind == "stack":
        stacks = list(state.stacks)
        stacks[where[1]] = (*stacks[where[1]], *cards)
        return replace(state, stacks=tuple(stacks))
    if kind == "collection":
        seat, category = where[1], where[2]
        k = data.STORABLE.index(category)
        players = list(state.players)
        p = players[seat]
        cols = list(p.collections)
        cols[k] = replace(cols[k], cards=tuple(sorted((*cols[k].cards, *cards))))
        players[seat] = replace(p, collections=tuple(cols))
        return replace(state, players=tuple(players))
    assert kind == "box"
    return replace(state, box=tuple(sorted((*state.box, *cards))))


def set_stack(state: State, s: int, *card_ids: str) -> State:
    """Make stack `s` exactly these cards, bottom to top; its old cards go to the box."""
    old = names(state.stacks[s])
    state = relocate(state, ("box",), *old)
    return relocate(state, ("stack", s), *card_ids)


def empty_column(state: State, column: int) -> State:
    from engine.island.state import COLUMN_STACKS

    for s in COLUMN_STACKS[len(state.players)][column]:
        state = relocate(state, ("box",), *names(state.stacks[s]))
    return state


def set_collection(
    state: State,
    seat: int,
    category: str,
    *card_ids: str,
    tokens: tuple[str, ...] = (),
    porthole: int | None = None,
) -> State:
    state = relocate(state, ("collection", seat, category), *card_ids)
    k = data.STORABLE.index(category)
    players = list(state.players)
    p = players[seat]
    cols = list(p.collections)
    cols[k] = Collection(cols[k].cards, tokens, porthole)
    players[seat] = replace(p, collections=tuple(cols))
    return replace(state, players=tuple(players))


def clear_hands(state: State) -> State:
    gone = [c for p in state.players for c in p.hand]
    return relocate(state, ("box",), *names(gone))


def pawns(state: State, *spec: tuple[str | None, int | None, int | None]) -> State:
    """Set every pawn: (side, column, last) per seat."""
    players = tuple(replace(p, pawn=Pawn(*s)) for p, s in zip(state.players, spec, strict=True))
    return replace(state, players=players)


def turn(state: State, seat: int, step: str, **changes: Any) -> State:
    return replace(state, current=seat, step=step, **changes)


def camp(state: State, **tokens: str | None) -> State:
    c = list(state.camp)
    for category, token in tokens.items():
        c[data.STORABLE.index(category)] = token
    return replace(state, camp=tuple(c))


def play(state: State, seat: int, *moves: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply moves for one seat in order; return the final state and every event."""
    out: list[Event] = []
    for m in moves:
        state, events = island.apply(state, seat, m)
        out += events
    return state, out


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def store(category: str, **objects: int) -> dict[str, Any]:
    return {"type": "store", "category": category, "objects": objects}


def acting(
    players: int = 3,
    seat: int = 0,
    column: int = 1,
    *,
    seed: int = 1,
    round_: int = 2,
    hand: tuple[str, ...] = (),
) -> State:
    """Round `round_`, `seat` has just moved its pawn to `column` and must collect or store.

    Other pawns wait on the previous side, in columns away from `column` where possible.
    """
    state = clear_hands(game(players, seed))
    side = data.round_side(round_)
    other = data.other_side(side)
    free = [c for c in range(len(data.COLUMNS[players])) if c != column]
    spec: list[tuple[str | None, int | None, int | None]] = []
    for s in range(players):
        if s == seat:
            spec.append((side, column, free[-1]))
        else:
            spec.append((other, free.pop(0), None))
    state = pawns(state, *spec)
    state = replace(state, round=round_, current=seat, step="act", moved=())
    if hand:
        state = relocate(state, ("hand", seat), *hand)
    return state
