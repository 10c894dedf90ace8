"""Invariants every reachable Nauticus state keeps; shared by the playout test and the bench soak.

One copy on purpose: the 5,000-game soak in bench/engine_bench.py imports this file by path, so
the soak and the test can never drift apart.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.nauticus import data
from engine.nauticus.state import Ship, State

_INDEX = data.ITEM_INDEX
_MAST = {c: _INDEX[f"mast_{c}"] for c in data.ALL_CRESTS}
_SAIL = {c: _INDEX[f"sail_{c}"] for c in data.ALL_CRESTS}


def tile_count(state: State) -> list[int]:
    """Every tile of each item id (data.ITEMS order), wherever it is: supply, storage, ships,
    delivered goods."""
    count = list(state.supply)
    for p in state.players:
        for item in p.storage:
            count[_INDEX[item]] += 1
        for ship in p.ships:
            for h in ship.hulls:
                count[_INDEX[h]] += 1
            for c in ship.masts:
                if c is not None:
                    count[_MAST[c]] += 1
            for c in ship.sails:
                if c is not None:
                    count[_SAIL[c]] += 1
            for g in ship.goods:
                if g is not None:
                    count[_INDEX[g]] += 1
        for good, n in zip(data.GOODS, p.delivered, strict=True):
            count[_INDEX[good]] += n
    return count


@functools.lru_cache(maxsize=8192)
def ship_problems(ship: Ship) -> tuple[str, ...]:
    """What is wrong with a ship's shape and crests (N-YARD-1..5, N-YARD-7); [] if nothing."""
    out: list[str] = []
    h = ship.hulls
    if not (len(h) == len(ship.masts) == len(ship.sails) == len(ship.goods) >= 1):
        return (f"rows of different lengths: {ship}",)
    if "one_ship" in h and h != ("one_ship",):
        out.append(f"one-ship tile inside a longer ship: {h}")
    if "bow" in h[1:]:
        out.append(f"bow not at the front: {h}")
    if "stern" in h[:-1]:
        out.append(f"stern not at the back: {h}")
    if h.count("middle") > data.MAX_MIDDLES:
        out.append(f"more than {data.MAX_MIDDLES} middles: {h}")
    if len(h) > 4:
        out.append(f"longer than 4: {h}")
    for m, s in zip(ship.masts, ship.sails, strict=True):
        if s is not None and m is None:
            out.append(f"sail without a mast: {ship}")
    crests = {c for c in (*ship.masts, *ship.sails) if c is not None and c != data.CROWN}
    if len(crests) > 1:
        out.append(f"more than one crest: {sorted(crests)}")
    for c in (*ship.masts, *ship.sails):
        if c is not None and c not in data.ALL_CRESTS:
            out.append(f"unknown crest {c!r}")
    for g in ship.goods:
        if g is not None and g not in data.GOODS:
            out.append(f"unknown good {g!r}")
    # Cached: ships are immutable and shared between states, most moves leave them unchanged.
    return tuple(out)


def problems(state: State) -> list[str]:
    """Every broken invariant of `state`, as readable lines; [] when all hold."""
    out: list[str] = []
    for item, n in zip(data.ITEMS, tile_count(state), strict=True):
        if n != data.SUPPLY[item]:
            out.append(f"{item}: {n} tiles in the game, {data.SUPPLY[item]} made")
    for item, n in zip(data.ITEMS, state.supply, strict=True):
        if n < 0:
            out.append(f"supply of {item} is {n}")
    for seat, p in enumerate(state.players):
        if p.taler < 0:
            out.append(f"seat {seat} has {p.taler} taler")
        if p.workers < 0:
            out.append(f"seat {seat} has {p.workers} workers")
        if p.storage_used > data.STORAGE_UNITS:
            out.append(f"seat {seat} stores {p.storage_used} units")
        if not 0 <= p.passes <= len(data.PASS_TILES):
            out.append(f"seat {seat} has {p.passes} pass tiles flipped")
        if any(d < 0 for d in p.delivered):
            out.append(f"seat {seat} delivered {p.delivered}")
        for i, ship in enumerate(p.ships):
            out.extend(f"seat {seat} ship {i}: {msg}" for msg in ship_problems(ship))
    if state.turn is not None and state.turn.blue < 0:
        out.append(f"{state.turn.blue} blue workers left")
    if state.step not in ("choose", "bonus", "turn", "over"):
        out.append(f"unknown step {state.step!r}")
    if (state.step in ("bonus", "turn")) != (state.turn is not None):
        out.append(f"step {state.step!r} with turn {state.turn}")
    if not 1 <= state.round <= state.rounds:
        out.append(f"round {state.round} of {state.rounds}")
    if not 1 <= state.phase <= data.PHASES_PER_ROUND:
        out.append(f"phase {state.phase}")
    return out


def check(state: State) -> None:
    """Raise AssertionError naming every broken invariant."""
    found = problems(state)
    if found:
        raise AssertionError("invariants broken:\n  " + "\n  ".join(found))


def event_problems(before: State, after: State, events: list[Any]) -> list[str]:
    """Where the events of one move disagree with the change they report; [] when they agree.

    The bot tells players what happened from the events alone, so the taler, workers and VP
    they report must add up to exactly what changed in the state.
    """
    out: list[str] = []
    n = len(before.players)
    taler = [0] * n
    workers = [0] * n
    vp = [0] * n
    for e in events:
        k = e.kind
        if k == "taler_paid":
            taler[e.seat] -= e.amount
        elif k == "taler_gained":
            taler[e.seat] += e.amount
        elif k == "money_taken":
            taler[e.seat] += e.taler
            if e.taler != 2 * e.workers:
                out.append(f"money: {e.workers} workers gave {e.taler} taler")
        elif k == "bonus_received":
            taler[e.seat] += e.taler
            workers[e.seat] += e.workers
            vp[e.seat] += e.vp
        elif k == "workers_used":
            workers[e.seat] -= e.own
        elif k == "workers_gained":
            workers[e.seat] += e.amount
        elif k == "vp_gained":
            vp[e.seat] += e.amount
        elif k == "crowns_scored":
            vp[e.seat] += e.vp
            if e.vp_before_cap != e.crowns * e.workers or not 0 <= e.vp <= e.vp_before_cap:
                out.append(f"crowns: {e}")
        elif k == "round_penalty":
            vp[e.seat] -= e.vp
    for seat, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        if p1.taler - p0.taler != taler[seat]:
            out.append(f"seat {seat}: taler {p0.taler} -> {p1.taler}, events say {taler[seat]:+}")
        if p1.workers - p0.workers != workers[seat]:
            out.append(
                f"seat {seat}: workers {p0.workers} -> {p1.workers}, events say {workers[seat]:+}"
            )
        if p1.score - p0.score != vp[seat]:
            out.append(f"seat {seat}: score {p0.score} -> {p1.score}, events say {vp[seat]:+}")
    return out


def check_move(before: State, after: State, events: list[Any]) -> None:
    """Raise AssertionError if the state after a move breaks an invariant or its events lie."""
    found = problems(after) + event_problems(before, after, events)
    if found:
        raise AssertionError("invariants broken:\n  " + "\n  ".join(found))
