"""Small builders for rule tests: put a chosen tile on a chosen space, set a player's holdings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.nauticus import apply, data, new_game
from engine.nauticus.events import Event
from engine.nauticus.state import Player, Ship, State


def game(players: int = 3, seed: int = 1) -> State:
    return new_game(players, seed)


def with_tile(state: State, space: int, action: str) -> State:
    """Swap tiles so that `action` lies on `space`."""
    tiles = list(state.tiles)
    j = tiles.index(action)
    tiles[j], tiles[space] = tiles[space], tiles[j]
    return replace(state, tiles=tuple(tiles))


def set_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    if "storage" in changes:
        changes["storage"] = tuple(sorted(changes["storage"]))
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def set_supply(state: State, **counts: int) -> State:
    supply = list(state.supply)
    for item, n in counts.items():
        supply[data.ITEM_INDEX[item]] = n
    return replace(state, supply=tuple(supply))


def ship(
    hulls: str,
    masts: str = "",
    sails: str = "",
    goods: str = "",
) -> Ship:
    """ship("bow middle stern", "helm helm -", "helm - -", "coffee - -"); '-' = nothing."""
    h = tuple(hulls.split())

    def row(spec: str) -> tuple[str | None, ...]:
        if not spec:
            return (None,) * len(h)
        vals = tuple(None if x == "-" else x for x in spec.split())
        assert len(vals) == len(h)
        return vals

    return Ship(h, row(masts), row(sails), row(goods))


def play(state: State, seat: int, *moves: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply moves for one seat in order; return the final state and every event."""
    out: list[Event] = []
    for m in moves:
        state, events = apply(state, seat, m)
        out.extend(events)
    return state, out


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def p(state: State, seat: int) -> Player:
    return state.players[seat]


def choose(state: State, space: int) -> State:
    state, _ = apply(state, state.start, {"type": "choose_action", "space": space})
    return state


def end_turn(state: State, seat: int) -> State:
    state, _ = apply(state, seat, {"type": "end_turn"})
    return state


def pass_(state: State, seat: int) -> State:
    """Pass and, if the player still holds the extra action, end the turn too."""
    state, _ = apply(state, seat, {"type": "pass"})
    if state.current == seat and state.step == "turn":
        state, _ = apply(state, seat, {"type": "end_turn"})
    return state


def to_storage(item: str) -> dict[str, Any]:
    return {"type": "buy", "item": item, "to": "storage"}


def buy(item: str, to: Any) -> dict[str, Any]:
    return {"type": "buy", "item": item, "to": to}


def turn_on(state: State, space: int, action: str, seat: int = 0) -> State:
    """Jump straight to `seat`'s turn in a phase whose chosen tile is `action` on `space`.

    The start player is the seat itself unless another is wanted (then set `start` after).
    """
    from engine.nauticus.state import Turn

    state = with_tile(state, space, action)
    return replace(
        state,
        step="turn",
        chosen=(space,),
        start=seat,
        turn=Turn(seat=seat, blue=state.blue_on(space)),
    )
