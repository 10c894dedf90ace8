"""Nautilus Island moves in words, in the language of the context: the move log's lines.

The engine's `describe` (engine/island/describe.py) is the English original; this says the same
thing through the catalogue, branch for branch, so an English game logs exactly the engine's
words (a test holds them equal on every move of many games) and a French game logs French.
"""

from __future__ import annotations

from typing import Any

from bot.games.island import words
from bot.i18n import tr, trn
from engine.island import data
from engine.island.rules import porthole_next
from engine.island.state import COLUMN_STACKS, FACE_UP, State, column_cards


def _column(move: dict[str, Any], state: State | None) -> str:
    c = move.get("column")
    if state is None or type(c) is not int or not 0 <= c < len(state.layout):
        return tr("column {c}", c=repr(c) if type(c) is not int else c)
    stacks = state.layout[c]
    cards = column_cards(state, c)
    left = trn("{n} card left", "{n} cards left", cards) if cards else tr("empty")
    return tr(
        "column {c} ({stacks}, {left})",
        c=c,
        stacks=trn("{n} stack", "{n} stacks", stacks),
        left=left,
    )


def _collect(state: State | None) -> str:
    column = None
    if state is not None and state.current is not None:
        column = state.players[state.current].pawn.column
    if state is None or column is None:
        return tr("collected the top card of every stack of their column")
    n = len(state.players)
    seen: list[str] = []
    hidden = 0
    for s in COLUMN_STACKS[n][column]:
        stack = state.stacks[s]
        if not stack:
            continue
        if FACE_UP[n][s]:
            seen.append(words.object_name(data.CARD_OBJECT[stack[-1]]))  # face up: public
        else:
            hidden += 1
    parts = seen + ([trn("{n} face-down card", "{n} face-down cards", hidden)] if hidden else [])
    return tr(
        "collected from column {c}: {cards}", c=column, cards=" + ".join(parts) or tr("nothing")
    )


def _store(move: dict[str, Any], state: State | None) -> str:
    category = move.get("category")
    objects = move.get("objects")
    if not isinstance(category, str) or not isinstance(objects, dict):
        return tr("stored {objects} of {category}", objects=repr(objects), category=repr(category))
    parts = []
    total = 0
    ordered = sorted(
        objects.items(), key=lambda kv: (data.OBJECT_INDEX.get(str(kv[0]), 9), str(kv[0]))
    )
    for name, count in ordered:
        shown = words.object_name(str(name))
        parts.append(f"{shown} ×{count}" if count != 1 else shown)
        if type(count) is int:
            total += count
    text = trn(
        "stored {n} {category} card ({objects})",
        "stored {n} {category} cards ({objects})",
        total,
        category=words.short_category(category),
        objects=", ".join(parts),
    )
    if state is not None and category in data.STORABLE:
        token = state.camp[data.STORABLE.index(category)]
        if token is not None:
            text = tr(
                "{stored} and took the {token} token",
                stored=text,
                token=words.token_name(token),
            )
    return text


def _close(state: State | None, close: bool) -> str:
    if state is None or state.stored is None or state.current is None:
        return tr("closed the collection") if close else tr("kept the collection open")
    category = words.short_category(data.STORABLE[state.stored])
    size = len(state.players[state.current].collections[state.stored].cards)
    if close:
        return trn(
            "closed their {category} collection of {n} card with the {vp} VP porthole",
            "closed their {category} collection of {n} cards with the {vp} VP porthole",
            size,
            category=category,
            vp=porthole_next(state, size),
        )
    return trn(
        "kept their {category} collection of {n} card open",
        "kept their {category} collection of {n} cards open",
        size,
        category=category,
    )


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """The engine's `describe`, in the language of the context."""
    if not isinstance(move, dict):
        return tr("Unknown move {move}", move=repr(move))
    t = move.get("type")
    if t == "place":
        return tr("placed their pawn above {column}", column=_column(move, state))
    if t == "move":
        column = _column(move, state)
        if state is None:
            return tr("moved their pawn to the other side of {column}", column=column)
        # A whole template per side: French says "au-dessus de la colonne", "au-dessous de la".
        if data.round_side(state.round) == "above":
            return tr("moved their pawn above {column}", column=column)
        return tr("moved their pawn below {column}", column=column)
    if t == "collect":
        return _collect(state)
    if t == "store":
        return _store(move, state)
    if t == "close":
        return _close(state, True)
    if t == "keep_open":
        return _close(state, False)
    if t == "idle":
        return tr("did nothing this turn (an empty column and nothing to store)")
    return tr("Unknown move {move}", move=repr(move))
