"""Invariants of every duel state and move: cards conserved, spaces filled, secrets kept.

`check(state)` holds for any reachable state; `check_move(before, seat, move, after, events)` for
any move. Secrets are checked three ways: the public part of every seat's view is the public view;
no special a seat cannot know appears as a value in its view; and the public view is unchanged
when every hidden card is relabelled (so nothing in it depends on a secret).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from engine import duel
from engine.duel import data
from engine.duel.events import PRIVATE_KINDS, Event
from engine.duel.state import Eye, Hand, State

PUBLIC_FIELDS = frozenset(
    {
        "kind",
        "private_to",
        "round",
        "first",
        "slots",
        "seat",
        "to",
        "special",
        "victim",
        "kept",
        "card",
        "side",
        "slot",
        "arrow",
        "from_side",
        "from_slot",
        "forced",
        "options",
        "values",
        "winner",
        "cards_won",
        "winners",
        "domains_won",
        "tiebreak",
    }
)


def divers_of(state: State) -> list[int]:
    out = [*state.diver_deck, *state.module, *state.hands[0].divers, *state.hands[1].divers]
    if state.harpooned is not None:
        out.append(state.harpooned)
    out += [v for row in state.board for v in row if v is not None and v in data.DIVERS]
    return out


def specials_of(state: State) -> list[str]:
    out = [*state.special_deck, *state.aside, *state.drawn, *(sp for _, sp in state.played)]
    return out + [h.special for h in state.hands if h.special is not None]


def check(state: State) -> None:
    # 14 divers and 6 specials, each exactly once.
    assert sorted(divers_of(state)) == list(data.DIVERS)
    assert sorted(specials_of(state)) == sorted(data.SPECIALS)
    # Each of the 30 domain cards exactly once: deck, this round's slots, won piles.
    domains = [*state.domain_deck, *state.won[0], *state.won[1]]
    if state.step != "over":
        domains += state.slots
    assert sorted(domains) == list(data.DOMAIN_CARDS)
    assert sorted(a.card for a in state.awards) == sorted([*state.won[0], *state.won[1]])
    assert len(state.awards) == 5 * (state.round - (state.step != "over"))
    assert len(state.domain_deck) == 30 - 5 * state.round
    # Arrows move cards but never add or remove one: the board holds one card per placement.
    on_board = [v for row in state.board for v in row if v is not None]
    assert len(on_board) == state.placed and len(set(on_board)) == state.placed
    assert state.anchored is None or state.anchored in on_board
    for hand in state.hands:
        assert list(hand.divers) == sorted(set(hand.divers))
    # What a seat knows the other holds is true.
    for seat in (0, 1):
        assert set(state.known[seat]) <= set(state.hands[1 - seat].divers)
    if state.step == "place":
        # Alternation: the first player places the odd-numbered cards.
        assert state.turn == (state.first if state.placed % 2 == 0 else 1 - state.first)
        # Everyone still has a card for each of their remaining placements.
        for seat in (0, 1):
            made = (state.placed + (seat == state.first)) // 2
            mine = 5 - made
            cards = len(state.hands[seat].divers) + (
                state.hands[seat].special in data.CARD_SPECIALS
            )
            assert cards >= mine
    check_views(state)


def _string_values(text: str) -> set[str]:
    """Every special name that appears as a JSON string value (not a key) in `text`."""
    return {name for name in data.SPECIALS if re.search(f'"{name}"(?!:)', text)}


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("viewer", "me")}


def known_specials(state: State, seat: int) -> set[str]:
    known = set(state.seen[seat]) | {sp for _, sp in state.played}
    own = state.hands[seat].special
    if own is not None:
        known.add(own)
    return known


def check_views(state: State) -> None:
    public = duel.view(state)
    assert public["me"] is None
    played = {sp for _, sp in state.played}
    held = {h.special for h in state.hands if h.special is not None} | set(state.drawn)
    shown = _string_values(json.dumps(public))
    assert not (held - played) & shown, "a held special is in the public view"
    for seat in (0, 1):
        mine = duel.view(state, seat)
        text = json.dumps(mine)
        assert _strip(mine) == _strip(public)
        assert mine["me"]["seat"] == seat and mine["me"]["divers"] == list(state.hands[seat].divers)
        unknown = set(data.SPECIALS) - known_specials(state, seat)
        assert not unknown & _string_values(text), f"seat {seat} sees a special it cannot know"
        eye = mine["me"]["eye"]
        assert eye is None or (state.eye is not None and state.eye.seat == seat)
    assert _strip(duel.view(hide_all(state, random.Random(state.placed)))) == _strip(public)


def hide_all(state: State, rng: random.Random) -> State:
    """Relabel every card not face up (divers off the board, unplayed specials) at random."""
    hidden = [v for v in data.DIVERS if v not in {x for row in state.board for x in row}]
    perm = hidden[:]
    rng.shuffle(perm)
    dm = dict(zip(hidden, perm, strict=True))
    shidden = [s for s in data.SPECIALS if s not in {sp for _, sp in state.played}]
    sperm = shidden[:]
    rng.shuffle(sperm)
    sm = dict(zip(shidden, sperm, strict=True))

    def d(t: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(dm.get(v, v) for v in t))

    def s(t: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sm.get(v, v) for v in t)

    return replace(
        state,
        hands=(
            Hand(d(state.hands[0].divers), sm.get(state.hands[0].special or "")),
            Hand(d(state.hands[1].divers), sm.get(state.hands[1].special or "")),
        ),
        diver_deck=d(state.diver_deck),
        module=d(state.module),
        harpooned=None if state.harpooned is None else dm[state.harpooned],
        eye=None
        if state.eye is None
        else Eye(state.eye.seat, state.eye.round, d(state.eye.divers)),
        known=(d(state.known[0]), d(state.known[1])),
        deck_top=None if state.deck_top is None else (state.deck_top[0], dm[state.deck_top[1]]),
        drawn=s(state.drawn),
        special_deck=s(state.special_deck),
        aside=s(state.aside),
        seen=(s(state.seen[0]), s(state.seen[1])),
    )


def check_move(before: State, seat: int, after: State, events: list[Event]) -> None:
    assert events, "every move reports what it did"
    for e in events:
        d = e.to_dict()
        json.dumps(d)
        if e.kind in PRIVATE_KINDS:
            assert e.private_to in (0, 1), e
        else:
            assert e.private_to is None, e
            assert set(d) <= PUBLIC_FIELDS, f"public event {e.kind} has {set(d) - PUBLIC_FIELDS}"
    ended = [e.to_dict() for e in events if e.kind == "slot_awarded"]
    if ended:
        # 10 spaces filled: every slot showed a card on both sides when awarded.
        assert len(ended) == 5
        assert all(None not in a["values"] for a in ended)
        assert before.placed == 9 and seat in (0, 1)
    elif after.round == before.round:
        assert after.placed - before.placed in (0, 1)
