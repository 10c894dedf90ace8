"""One-line English descriptions of moves, for logs and menus.

A line names only what the move itself names (the mover's own choice); the bot shows other
seats the public events instead.
"""

from __future__ import annotations

from typing import Any

from engine.duel import data
from engine.duel.state import State

_STARS = {"two_stars": "★★", "one_star": "★", "ink": "ink blot"}


def _card(v: Any) -> str:
    if type(v) is int and data.MIN_CARD <= v <= data.MAX_CARD:
        return data.card_name(v)
    return repr(v)


def _space(side: Any, slot: Any, state: State | None) -> str:
    ok_side = type(side) is int and side in (0, 1)
    ok_slot = type(slot) is int and 0 <= slot < data.SLOTS
    where = f"seat {side + 1}'s side" if ok_side else f"side {side!r}"
    if not ok_slot:
        return f"{where}, slot {slot!r}"
    text = f"{where}, slot {slot + 1}"
    if state is not None and len(state.slots) == data.SLOTS:
        card = state.slots[slot]
        text += f" ({data.domain_of(card)} {_STARS[data.kind_of(card)]})"
    return text


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """Describe `move`; given the state it is about to be played on, slots show their domain."""
    if not isinstance(move, dict):
        return f"Unknown move {move!r}"
    t = move.get("type")
    if t == "keep":
        sp = move.get("special")
        name = data.SPECIAL_NAMES.get(sp, repr(sp)) if isinstance(sp, str) else repr(sp)
        return f"Keep the {name} and give the other special to the opponent"
    if t == "eye":
        return "Play the eye: look at the opponent's divers"
    if t == "dive":
        keep = move.get("keep")
        return f"Keep {_card(keep)} from the diving module; the other goes back on the deck"
    if t == "harpoon":
        give = move.get("give")
        took = state.harpooned if state is not None else None
        if took is not None and give == took:
            return f"Give the harpooned {took} back to the opponent"
        if took is not None:
            return f"Keep the harpooned {took} and give {_card(give)} to the opponent"
        return f"Give {_card(give)} to the opponent after the harpoon"
    if t == "place":
        where = _space(move.get("side"), move.get("slot"), state)
        text = f"Place {_card(move.get('card'))} on {where}"
        if "anchor" in move:
            text += f", with the anchor on {_card(move.get('anchor'))}"
        return text
    if t == "arrow":
        arrow = f"the {state.arrow}'s arrow: " if state is not None and state.arrow else "Arrow: "
        return (
            f"{arrow[0].upper()}{arrow[1:]}move {_card(move.get('card'))} to "
            f"{_space(move.get('side'), move.get('slot'), state)}"
        )
    return f"Unknown move {move!r}"
