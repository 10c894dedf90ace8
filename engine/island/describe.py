"""One-line English descriptions of moves, for logs; never a secret card.

A line tells what a player did, in the past and without its subject ("placed their pawn above
column 0 (…)"): the bot writes the player's name before it ("Ben placed…").
"""

from __future__ import annotations

from typing import Any

from engine.island import data
from engine.island.rules import porthole_next
from engine.island.state import COLUMN_STACKS, FACE_UP, State, column_cards


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _column(move: dict[str, Any], state: State | None) -> str:
    c = move.get("column")
    if state is None or type(c) is not int or not 0 <= c < len(state.layout):
        return f"column {c!r}" if type(c) is not int else f"column {c}"
    stacks = state.layout[c]
    cards = column_cards(state, c)
    left = f"{cards} card{_s(cards)} left" if cards else "empty"
    return f"column {c} ({stacks} stack{_s(stacks)}, {left})"


def _collect(state: State | None) -> str:
    if state is None or state.current is None:
        return "collected the top card of every stack of their column"
    column = state.players[state.current].pawn.column
    if column is None:
        return "collected the top card of every stack of their column"
    n = len(state.players)
    seen: list[str] = []
    hidden = 0
    for s in COLUMN_STACKS[n][column]:
        stack = state.stacks[s]
        if not stack:
            continue
        if FACE_UP[n][s]:
            seen.append(data.CARD_OBJECT[stack[-1]])  # face up: everyone sees it
        else:
            hidden += 1
    parts = seen + ([f"{hidden} face-down card{_s(hidden)}"] if hidden else [])
    return f"collected from column {column}: {' + '.join(parts) or 'nothing'}"


def _store(move: dict[str, Any], state: State | None) -> str:
    category = move.get("category")
    objects = move.get("objects")
    if not isinstance(category, str) or not isinstance(objects, dict):
        return f"stored {objects!r} of {category!r}"
    parts = []
    total = 0
    # In the rulebook's order, not the move's: the same move always reads the same (a move
    # read back from the log or a game record has its keys sorted).
    ordered = sorted(
        objects.items(), key=lambda kv: (data.OBJECT_INDEX.get(str(kv[0]), 9), str(kv[0]))
    )
    for name, count in ordered:
        parts.append(f"{name} ×{count}" if count != 1 else str(name))
        if type(count) is int:
            total += count
    text = f"stored {total} {category} card{_s(total)} ({', '.join(parts)})"
    if state is not None and category in data.STORABLE:
        token = state.camp[data.STORABLE.index(category)]
        if token is not None:
            text += f" and took the {data.TOKEN_NAME[token]} token"
    return text


def _close(state: State | None, close: bool) -> str:
    if state is None or state.stored is None or state.current is None:
        return "closed the collection" if close else "kept the collection open"
    category = data.STORABLE[state.stored]
    size = len(state.players[state.current].collections[state.stored].cards)
    if close:
        value = porthole_next(state, size)
        return (
            f"closed their {category} collection of {size} card{_s(size)} with the {value} VP "
            "porthole"
        )
    return f"kept their {category} collection of {size} card{_s(size)} open"


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """Describe `move`; given the state it is about to be played on, details are added."""
    if not isinstance(move, dict):
        return f"Unknown move {move!r}"
    t = move.get("type")
    if t == "place":
        return f"placed their pawn above {_column(move, state)}"
    if t == "move":
        side = data.round_side(state.round) if state is not None else "to the other side of"
        return f"moved their pawn {side} {_column(move, state)}"
    if t == "collect":
        return _collect(state)
    if t == "store":
        return _store(move, state)
    if t == "close":
        return _close(state, True)
    if t == "keep_open":
        return _close(state, False)
    if t == "idle":
        return "did nothing this turn (an empty column and nothing to store)"
    return f"Unknown move {move!r}"
