"""What a seat may see, as plain JSON-able data, for pictures and messages.

The public part is the same for every viewer; everything secret sits under "me" and belongs to
the viewer alone (None for the public view). The view also spells out what a reader would
otherwise compute (each card's arrow, the anchored card, the arrow's possible moves, domain card
points), so renderers never re-implement a rule.
"""

from __future__ import annotations

from typing import Any

from engine.duel import data
from engine.duel.rules import _hand_cards, arrow_options
from engine.duel.scoring import domain_totals, final_scores
from engine.duel.state import ENGINE_VERSION, State


def _domain_card(card: int) -> dict[str, Any]:
    kind = data.kind_of(card)
    return {
        "id": card,
        "domain": data.domain_of(card),
        "kind": kind,
        "stars": data.STARS[kind],
        "ink": kind == "ink",
        "points": data.POINTS[kind],
    }


# Views are built after every move for every seat: the 30 card dicts are made once, copied out.
_DOMAIN_CARD = {c: _domain_card(c) for c in data.DOMAIN_CARDS}


def domain_card(card: int) -> dict[str, Any]:
    """A domain card as JSON: `{id, domain, kind, stars, ink, points}`."""
    return dict(_DOMAIN_CARD[card])


def _space(state: State, side: int, slot: int) -> dict[str, Any]:
    card = state.board[side][slot]
    return {
        "side": side,
        "card": card,
        "name": None if card is None else data.SPECIAL_OF_VALUE.get(card),
        "arrow": None if card is None else data.arrow_of(card),
        "anchored": card is not None and card == state.anchored,
    }


def _me(state: State, seat: int) -> dict[str, Any]:
    hand = state.hands[seat]
    other = 1 - seat
    won = state.won[seat]
    totals = domain_totals(won)
    eye = state.eye if state.eye is not None and state.eye.seat == seat else None
    harpoon: dict[str, Any] | None = None
    if state.step == "harpoon" and state.harpooned is not None:
        harpoon = {"card": state.harpooned, "role": "took" if state.turn == seat else "lost"}
    # The first player gave the opponent its special, so knows it while it is unplayed.
    opp_special = (
        state.hands[other].special if seat == state.first and state.step != "keep" else None
    )
    return {
        "seat": seat,
        "divers": list(hand.divers),
        "special": hand.special,
        "playable": _hand_cards(hand),
        "won": [domain_card(c) for c in won],
        "won_by_domain": {
            d: {
                "cards": [domain_card(c) for c in won if data.domain_of(c) == d],
                "total": totals[i],
            }
            for i, d in enumerate(data.DOMAINS)
        },
        "eye": None if eye is None else {"round": eye.round, "divers": list(eye.divers)},
        "known": list(state.known[seat]),
        "opponent_special": opp_special,
        "drawn": list(state.drawn) if seat == state.first else [],
        "module": list(state.module) if state.step == "dive" and state.turn == seat else [],
        "harpoon": harpoon,
        "deck_top": state.deck_top[1]
        if state.deck_top is not None and state.deck_top[0] == seat
        else None,
    }


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The game as `seat` sees it (None: the public view). Plain data, safe to keep."""
    over = state.step == "over"
    last = {a.slot: a.winner for a in state.awards if a.round == state.round} if over else {}
    slots = [
        {
            "index": k,
            "domain": domain_card(state.slots[k]) if k < len(state.slots) else None,
            "sides": [_space(state, 0, k), _space(state, 1, k)],
            "winner": last.get(k),
        }
        for k in range(data.SLOTS)
    ]
    arrow: dict[str, Any] | None = None
    if state.step == "arrow" and state.arrow is not None:
        at = state.where(state.arrow)
        assert at is not None
        arrow = {
            "seat": state.turn,
            "card": state.arrow,
            "side": at[0],
            "slot": at[1],
            "direction": data.arrow_of(state.arrow),
            "options": [
                {"card": c, "side": s, "slot": k} for c, s, k in arrow_options(state, state.arrow)
            ],
        }
    played_by = {s: [sp for who, sp in state.played if who == s] for s in (0, 1)}
    players = [
        {
            "seat": s,
            "divers_in_hand": len(state.hands[s].divers),
            "holds_special": state.hands[s].special is not None,
            "played": played_by[s],
            "won_count": len(state.won[s]),
        }
        for s in (0, 1)
    ]
    pending: dict[str, Any] | None = None
    if state.step == "keep":
        pending = {"kind": "keep", "seat": state.first, "drawn": len(state.drawn)}
    elif state.step == "eye":
        pending = {"kind": "eye", "seat": state.turn}
    elif state.step == "dive":
        pending = {"kind": "dive", "seat": state.turn}
    elif state.step == "harpoon":
        pending = {"kind": "harpoon", "seat": state.turn, "victim": 1 - state.turn}
    return {
        "game": data.GAME,
        "engine_version": ENGINE_VERSION,
        "viewer": seat,
        "current": state.current,
        "step": state.step,
        "round": state.round,
        "rounds": data.ROUNDS,
        "first": state.first,
        "slots": slots,
        "anchored": state.anchored,
        "arrow": arrow,
        "pending": pending,
        "placed": state.placed,
        "domain_deck": len(state.domain_deck),
        "diver_deck": len(state.diver_deck),
        "special_deck": len(state.special_deck),
        "players": players,
        "awards": [
            {
                "round": a.round,
                "slot": a.slot,
                "domain": domain_card(a.card),
                "values": list(a.values),
                "winner": a.winner,
            }
            for a in state.awards
        ],
        "me": None if seat is None else _me(state, seat),
        "final": [s.to_dict() for s in final_scores(state)] if over else None,
    }
