"""Builders for duel rule tests: a state at any step with chosen hands, board and specials.

Every built state keeps the cards adding up (the rest of the divers in the deck, the rest of the
specials in the special deck, the rest of the domain cards in the domain deck), which `check`
asserts, so a rule test never runs on an impossible position.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import duel
from engine.duel import data
from engine.duel.events import Event
from engine.duel.state import Hand, State, _check

Row = tuple[int | None, ...]
EMPTY: Row = (None,) * data.SLOTS


def card(domain: str, kind: str) -> int:
    """The first domain card id of that domain and kind ("two_stars", "one_star", "ink")."""
    base = data.DOMAINS.index(domain) * data.CARDS_PER_DOMAIN
    return base + data.DOMAIN_CARD_KINDS.index(kind)


def cards(domain: str, kind: str) -> list[int]:
    base = data.DOMAINS.index(domain) * data.CARDS_PER_DOMAIN
    return [base + i for i, k in enumerate(data.DOMAIN_CARD_KINDS) if k == kind]


def make(
    *,
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    specials: tuple[str | None, str | None] = (None, None),
    board: tuple[Row, Row] = (EMPTY, EMPTY),
    anchored: int | None = None,
    first: int = 0,
    turn: int | None = None,
    step: str = "place",
    round_: int = 1,
    slots: tuple[int, ...] | None = None,
    won: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    domain_deck: tuple[int, ...] | None = None,
    played: tuple[tuple[int, str], ...] = (),
    seed: int = 1,
    drawn: tuple[str, ...] = (),
    **extra: Any,
) -> State:
    """A consistent state at `step`; the seat to decide follows the alternation unless given."""
    base = duel.new_game(2, seed, first=first)
    used = {*hands[0], *hands[1], *(v for row in board for v in row if v is not None)}
    used |= set(extra.get("module", ()))
    if extra.get("harpooned") is not None:
        used.add(extra["harpooned"])
    deck = tuple(v for v in data.DIVERS if v not in used)
    out_specials = [s for s in specials if s is not None]
    out_specials += [data.SPECIAL_OF_VALUE[v] for row in board for v in row if v in (0, 15)]
    if anchored is not None:
        out_specials.append(data.ANCHOR)
    if not played:
        played = tuple((0, s) for s in out_specials if s not in specials)
    out_specials += [s for _, s in played if s not in out_specials]
    out_specials += list(drawn)
    special_deck = tuple(s for s in data.SPECIALS if s not in out_specials)
    slots = base.slots if slots is None else slots
    if domain_deck is None:
        taken = {*slots, *won[0], *won[1]}
        domain_deck = tuple(c for c in base.domain_deck + base.slots if c not in taken)
    placed = sum(v is not None for row in board for v in row)
    if turn is None:
        turn = first if placed % 2 == 0 else 1 - first
    state = replace(
        base,
        round=round_,
        first=first,
        step=step,
        turn=turn,
        domain_deck=domain_deck,
        slots=slots,
        board=board,
        anchored=anchored,
        hands=(
            Hand(tuple(sorted(hands[0])), specials[0]),
            Hand(tuple(sorted(hands[1])), specials[1]),
        ),
        diver_deck=tuple(v for v in deck if v not in extra.get("module", ())),
        special_deck=special_deck,
        aside=(),
        played=played,
        drawn=drawn,
        placed=placed,
        won=won,
        seen=((), ()),
        **extra,
    )
    _check(state)
    return state


def play(state: State, seat: int, *moves: dict[str, Any]) -> tuple[State, list[Event]]:
    out: list[Event] = []
    for m in moves:
        state, events = duel.apply(state, seat, m)
        out.extend(events)
    return state, out


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def place(card_: Any, side: Any, slot: Any, anchor: Any = None) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "place", "card": card_, "side": side, "slot": slot}
    if anchor is not None:
        move["anchor"] = anchor
    return move


def arrow(card_: int, side: int, slot: int) -> dict[str, Any]:
    return {"type": "arrow", "card": card_, "side": side, "slot": slot}


def row(*values: int | None) -> Row:
    assert len(values) == data.SLOTS
    return tuple(values)


def finish_round(state: State) -> tuple[State, list[Event]]:
    """Play the rest of the round: each seat places its lowest card on the first empty space."""
    out: list[Event] = []
    start = state.round
    while state.round == start and state.step != "over":
        seat = state.turn
        moves = duel.legal_moves(state, seat)
        plain = [m for m in moves if "anchor" not in m] or moves
        state, events = duel.apply(state, seat, plain[0])
        out.extend(events)
    return state, out


def to_placing(state: State) -> State:
    """From a round's start, play the specials phase with the first legal move each time."""
    while state.step not in ("place", "over"):
        seat = state.turn
        state, _ = duel.apply(state, seat, duel.legal_moves(state, seat)[0])
    return state
