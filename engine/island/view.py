"""What a seat may see, as plain JSON-able data, for pictures and messages.

Hands are secret (I-TURN-5): a view holds every hand's size, the cards of the viewer's own
hand, and of every hand the cards still in it that everyone saw taken face up (by object). Only
the viewer's own hand shows copy numbers ("food:ham:3"); every other card has its public id
("food:ham"), so views of deals that differ only in which copy lies where are equal. A face-down
stack shows its count, a face-up stack its count and top card; the token reserve its count.
The seed never appears: it would deal every secret card again. The view also spells out what a
reader would otherwise compute (each token's VP so far, the next porthole of each pile, the
column each pawn faced last round), so renderers never re-implement a rule.
"""

from __future__ import annotations

from typing import Any

from engine.island import data
from engine.island.rules import porthole_next
from engine.island.scoring import final_scores, token_scores
from engine.island.state import COLUMN_STACKS, ENGINE_VERSION, FACE_UP, Player, State


def card_view(card: int, *, own: bool = False) -> dict[str, Any]:
    """One card as a reader sees it. Only the holder's own hand (`own`) keeps the copy number:
    anywhere else the copies of one object must look the same (see data.public_id)."""
    out: dict[str, Any] = {
        "id": data.CARD_IDS[card] if own else data.PUBLIC_IDS[card],
        "category": data.card_category(card),
        "object": data.CARD_OBJECT[card],
    }
    if out["category"] == data.TREASURE:
        out["vp"] = data.card_vp(card)
    return out


def _pawn(state: State, seat: int, p: Player) -> dict[str, Any]:
    pawn = p.pawn
    # Pawns that played this round (or are playing) are on this round's side already.
    moved = pawn.side == state.side
    return {
        "side": pawn.side,
        "column": pawn.column,
        # A pawn that has not played this round still faces last round's column.
        "last_column": pawn.last if moved else (pawn.column if state.round > 1 else None),
        "moved": moved,
    }


def _player(state: State, seat: int, p: Player, viewer: int | None) -> dict[str, Any]:
    own = viewer == seat
    collections = []
    score = 0
    for category, col in zip(data.STORABLE, p.collections, strict=True):
        tokens = token_scores(category, col)
        score += sum(t.vp for t in tokens) + (col.porthole or 0)
        collections.append(
            {
                "category": category,
                "cards": [card_view(c) for c in col.cards],
                "size": len(col.cards),
                "tokens": [{"token": t.token, "vp": t.vp, "why": t.why} for t in tokens],
                "closed": col.closed,
                "porthole": col.porthole,
            }
        )
    return {
        "seat": seat,
        "hand_size": len(p.hand),
        "hand": [card_view(c, own=True) for c in p.hand] if own else None,
        # Public: everyone saw these cards taken from a face-up stack, and they are still in this
        # hand (Player.known). A person remembers them, determinize keeps them in this hand, so
        # the view must show them: determinize may depend on nothing a view does not show.
        "taken_face_up": [card_view(c) for c in p.known],
        "treasure_vp": sum(data.card_vp(c) for c in p.hand) if own else None,
        "pawn": _pawn(state, seat, p),
        "collections": collections,
        "score": score,  # bonus and porthole VP so far: treasures stay secret
    }


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The game as `seat` sees it (None: the public view). Plain data, safe to keep."""
    n = len(state.players)
    viewer = seat if type(seat) is int and 0 <= seat < n else None
    columns = []
    for c, stack_ids in enumerate(COLUMN_STACKS[n]):
        stacks = []
        for s in stack_ids:
            stack = state.stacks[s]
            up = FACE_UP[n][s]
            stacks.append(
                {
                    "index": s,
                    "face": "up" if up else "down",
                    "count": len(stack),
                    "top": card_view(stack[-1]) if up and stack else None,
                }
            )
        faced: dict[str, int | None] = {side: None for side in data.SIDES}
        for i, p in enumerate(state.players):
            if p.pawn.column == c and p.pawn.side is not None:
                faced[p.pawn.side] = i
        cards = sum(len(state.stacks[s]) for s in stack_ids)
        columns.append(
            {
                "index": c,
                "stacks": stacks,
                "size": len(stacks),
                "cards": cards,
                "empty": cards == 0,
                "above": faced["above"],
                "below": faced["below"],
            }
        )
    portholes = [
        {
            "size": size,
            "values": list(data.PORTHOLES[size]),
            "left": len(data.PORTHOLES[size]) - state.portholes[i],
            "next": porthole_next(state, size),
        }
        for i, size in enumerate(data.PORTHOLE_SIZES)
    ]
    pending = None
    if state.step == "close" and state.current is not None and state.stored is not None:
        size = len(state.players[state.current].collections[state.stored].cards)
        pending = {
            "category": data.STORABLE[state.stored],
            "size": size,
            "porthole": porthole_next(state, size),
        }
    return {
        "game": "island",
        "engine_version": ENGINE_VERSION,
        "viewer": viewer,
        "players_count": n,
        "round": state.round,
        "side": state.side,
        "last_round": state.last_round,
        "end_triggered": state.end_triggered,
        "step": state.step,
        "current": state.current,
        "first_player": state.first,
        "columns": columns,
        "camp": [
            {"category": category, "token": token}
            for category, token in zip(data.STORABLE, state.camp, strict=True)
        ],
        "reserve": len(state.reserve),
        "portholes": portholes,
        "box": len(state.box),
        "players": [_player(state, i, p, viewer) for i, p in enumerate(state.players)],
        "pending": pending,
        "final": [s.to_dict() for s in final_scores(state)] if state.step == "over" else None,
    }
