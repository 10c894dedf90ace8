"""What must hold after every move of any game, checked by the playouts and the benchmark."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from engine import island
from engine.island import data
from engine.island.state import FACE_UP, State

# Any full card id in a JSON text: "category:object:copy" between quotes. Views show them in the
# viewer's own hand only; every other card has its public id "category:object".
CARD_ID = re.compile(r'"([a-z]+:[a-z]+:[1-4])"')


def check_conservation(state: State) -> None:
    """96 cards each in one place; 34 bonus and 12 porthole tokens accounted for."""
    n = len(state.players)
    places: list[int] = [c for s in state.stacks for c in s] + list(state.box)
    tokens: Counter[str] = Counter(t for t in state.camp if t is not None)
    tokens.update(state.reserve)
    closed: Counter[tuple[int, int]] = Counter()
    for p in state.players:
        places += p.hand
        assert set(p.known) <= set(p.hand) and len(set(p.known)) == len(p.known)
        assert list(p.hand) == sorted(p.hand)
        for k, col in enumerate(p.collections):
            places += col.cards
            assert all(data.CARD_CATEGORY_INDEX[c] == k for c in col.cards)
            tokens.update(col.tokens)
            if col.porthole is not None:
                closed[(len(col.cards), col.porthole)] += 1
    assert sorted(places) == list(range(data.CARD_COUNT)), "a card is lost or in two places"
    assert tokens == Counter(data.TOKEN_MIX), tokens
    taken = Counter(
        (size, v)
        for size, t in zip(data.PORTHOLE_SIZES, state.portholes, strict=True)
        for v in data.PORTHOLES[size][:t]
    )
    assert closed == taken, (closed, taken)
    piles = zip(data.PORTHOLE_SIZES, state.portholes, strict=True)
    left = sum(len(data.PORTHOLES[s]) - t for s, t in piles)
    assert left + sum(closed.values()) == data.PORTHOLE_COUNT
    # Pawns: on one side no two pawns face the same column.
    seen = [(p.pawn.side, p.pawn.column) for p in state.players if p.pawn.side is not None]
    assert len(seen) == len(set(seen))
    # All stacks of a column hold the same number of cards (collect takes from each).
    for column in range(len(state.layout)):
        sizes = {len(state.stacks[s]) for s in _column(state, column)}
        assert len(sizes) == 1
    assert len(FACE_UP[n]) == len(state.stacks)


def _column(state: State, column: int) -> tuple[int, ...]:
    from engine.island.state import COLUMN_STACKS

    return COLUMN_STACKS[len(state.players)][column]


def hidden_from(state: State, seat: int | None) -> Counter[str]:
    """Public ids of the cards `seat` has not seen (every card not public nor its own), counted:
    copies look alike, so what a view may not show is how many of an object lie hidden."""
    n = len(state.players)
    out: list[int] = list(state.box)
    for s, stack in enumerate(state.stacks):
        out += stack[:-1] if FACE_UP[n][s] else stack
    for i, p in enumerate(state.players):
        if i != seat:
            out += p.hand
    return Counter(data.PUBLIC_IDS[c] for c in out)


def _shown(v: dict[str, Any]) -> Counter[str]:
    """The ids of the public cards in a view: face-up tops, collections and the cards in hands
    that were taken face up."""
    out: Counter[str] = Counter()
    for col in v["columns"]:
        out.update(st["top"]["id"] for st in col["stacks"] if st["top"] is not None)
    for p in v["players"]:
        for c in p["collections"]:
            out.update(card["id"] for card in c["cards"])
        out.update(card["id"] for card in p["taken_face_up"])
    return out


def _public(state: State) -> Counter[str]:
    """What everyone sees, card by card: face-up tops, collections, and the cards still in a
    hand that everyone saw taken face up (Player.known)."""
    n = len(state.players)
    cards = [s[-1] for i, s in enumerate(state.stacks) if FACE_UP[n][i] and s]
    cards += [c for p in state.players for col in p.collections for c in col.cards]
    cards += [c for p in state.players for c in p.known]
    return Counter(data.PUBLIC_IDS[c] for c in cards)


def check_views(state: State) -> None:
    """Every seat's view (and the public one) is JSON, shows exactly the public cards by their
    public ids, and names full card ids in the viewer's own hand only."""
    public = island.view(state, None)
    assert _shown(public) == _public(state)
    for seat in (None, *range(len(state.players))):
        v = island.view(state, seat)
        text = json.dumps(v)
        assert json.loads(text) == v
        own = list(state.players[seat].hand) if seat is not None else []
        # The full ids found are exactly the viewer's own hand: nothing else says which copy.
        assert sorted(CARD_ID.findall(text)) == sorted(data.CARD_IDS[c] for c in own)
        if seat is not None:
            assert [c["id"] for c in v["players"][seat]["hand"]] == [data.CARD_IDS[c] for c in own]
        assert "seed" not in v and "reserve_order" not in text
        for i, p in enumerate(v["players"]):
            assert p["hand_size"] == len(state.players[i].hand)
            if i != seat:
                assert p["hand"] is None and p["treasure_vp"] is None
        # Apart from the viewer's own hand, every view is the public one.
        if seat is not None:
            mine = dict(v["players"][seat])
            mine.update(hand=None, treasure_vp=None)
            assert {
                **v,
                "viewer": None,
                "players": [mine if i == seat else p for i, p in enumerate(v["players"])],
            } == public
    assert public["viewer"] is None


def check_events(before: State, seat: int, events: list[Any]) -> None:
    """Public events name cards by public id; only the taker's `card_drawn` says which copy."""
    for e in events:
        d = e.to_dict()
        text = json.dumps(d)
        assert json.loads(text) is not None
        if e.private_to is not None:
            assert e.private_to == seat and d["kind"] == "card_drawn"
            assert d["card"] == data.CARD_IDS[before.stacks[d["stack"]][-1]]
            continue
        assert not CARD_ID.findall(text), d
        if d["kind"] == "card_taken" and d["face"] == "down":
            assert d["card"] is None
        elif d["kind"] == "card_taken":
            assert d["card"] == data.PUBLIC_IDS[before.stacks[d["stack"]][-1]]
        elif d["kind"] == "cards_stored":
            held = Counter(data.PUBLIC_IDS[c] for c in before.players[seat].hand)
            assert Counter(d["cards"]) <= held and len(d["cards"]) >= 1


def check_all(before: State, seat: int, events: list[Any], after: State) -> None:
    check_conservation(after)
    check_views(after)
    check_events(before, seat, events)
    assert island.from_json(island.to_json(after)) == after
