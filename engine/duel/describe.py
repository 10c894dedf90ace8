"""One-line English descriptions of moves, public-safe: for logs everyone reads.

A line tells what a player did, in the past and without its subject ("placed the 7 on seat 2's
side, slot 3 (war ★)"): the bot writes the player's name before it ("Ana placed…").

A line names only what the move shows the whole table: the card placed and where, the anchor,
the arrow's move. A choice that stays secret (the special kept or given, the diver the diving
module kept, the divers the harpoon exchanged) is described without naming a card, so two moves
the table cannot tell apart are described by the same words.
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
        return "kept one of the two specials drawn and gave the other to the opponent"
    if t == "eye":
        return "played the eye and looked at the opponent's divers"
    if t == "dive":
        return (
            "kept one of the two divers the diving module drew and put the other back on the deck"
        )
    if t == "harpoon":
        # Kept or returned is public (harpoon_resolved); which divers changed hands is not.
        took = state.harpooned if state is not None else None
        if took is not None and move.get("give") == took:
            return "returned the harpooned diver to the opponent"
        if took is not None:
            return "kept the harpooned diver and gave the opponent another diver for it"
        return "kept or returned the harpooned diver"
    if t == "place":
        where = _space(move.get("side"), move.get("slot"), state)
        text = f"placed {_card(move.get('card'))} on {where}"
        if "anchor" in move:
            text += f", with the anchor on {_card(move.get('anchor'))}"
        return text
    if t == "arrow":
        where = _space(move.get("side"), move.get("slot"), state)
        moved = f"moved {_card(move.get('card'))} to {where}"
        if state is not None and state.arrow:
            return f"{moved} with the {state.arrow}'s arrow"
        return f"{moved} with an arrow"
    return f"Unknown move {move!r}"
