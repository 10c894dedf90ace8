"""Nautilus duel moves in words, in the language of the context: the move log's lines.

The engine's `describe` (engine/duel/describe.py) is the English original and public-safe (a
secret choice is described without naming a card); this says the same thing through the
catalogue, branch for branch, so an English game logs exactly the engine's words (a test holds
them equal on every move of many games) and a French game logs French.
"""

from __future__ import annotations

from typing import Any

from bot.games.duel import words
from bot.i18n import tr
from engine.duel import data
from engine.duel.state import State


def _card(v: Any) -> str:
    """'the 7', 'the kraken' (the engine's `card_name`)."""
    if type(v) is int and data.MIN_CARD <= v <= data.MAX_CARD:
        special = data.SPECIAL_OF_VALUE.get(v)
        return words.the_special(special) if special else tr("the {n}", n=v)
    return repr(v)


def _space(side: Any, slot: Any, state: State | None) -> str:
    ok_side = type(side) is int and side in (0, 1)
    ok_slot = type(slot) is int and 0 <= slot < data.SLOTS
    where = tr("seat {n}'s side", n=side + 1) if ok_side else tr("side {side}", side=repr(side))
    if not ok_slot:
        return tr("{where}, slot {slot}", where=where, slot=repr(slot))
    text = tr("{where}, slot {slot}", where=where, slot=slot + 1)
    if state is not None and len(state.slots) == data.SLOTS:
        card = state.slots[slot]
        kind = words.KIND_WORDS[data.kind_of(card)]
        text += f" ({words.domain(data.domain_of(card))} {tr(kind)})"
    return text


def describe(move: dict[str, Any], state: State | None = None) -> str:
    """The engine's `describe`, in the language of the context."""
    if not isinstance(move, dict):
        return tr("Unknown move {move}", move=repr(move))
    t = move.get("type")
    if t == "keep":
        return tr("kept one of the two specials drawn and gave the other to the opponent")
    if t == "eye":
        return tr("played the eye and looked at the opponent's divers")
    if t == "dive":
        return tr(
            "kept one of the two divers the diving module drew and put the other back on the deck"
        )
    if t == "harpoon":
        took = state.harpooned if state is not None else None
        if took is not None and move.get("give") == took:
            return tr("returned the harpooned diver to the opponent")
        if took is not None:
            return tr("kept the harpooned diver and gave the opponent another diver for it")
        return tr("kept or returned the harpooned diver")
    if t == "place":
        where = _space(move.get("side"), move.get("slot"), state)
        text = tr("placed {card} on {where}", card=_card(move.get("card")), where=where)
        if "anchor" in move:
            text += tr(", with the anchor on {card}", card=_card(move.get("anchor")))
        return text
    if t == "arrow":
        where = _space(move.get("side"), move.get("slot"), state)
        if state is not None and state.arrow:
            return tr(
                "moved {card} to {where} with the {arrow}'s arrow",
                arrow=state.arrow,
                card=_card(move.get("card")),
                where=where,
            )
        return tr(
            "moved {card} to {where} with an arrow", card=_card(move.get("card")), where=where
        )
    return tr("Unknown move {move}", move=repr(move))
