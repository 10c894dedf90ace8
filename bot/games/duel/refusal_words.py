"""The Nautilus duel engine's words as its refusals quote them, in the context's language.

An engine refusal is an English sentence (engine/duel/rules.py); `bot.refusals` says its frame
in the member's language and its values with these words: the cards and specials, what the
table is waiting for, the spaces an arrow may move a card to. The keys are exactly the engine's
English (a test holds them to the engine's tables).
"""

from __future__ import annotations

from bot.games.duel import words
from bot.i18n import N_, tr
from engine.duel import data
from engine.duel.rules import STEP_WORDS as ENGINE_STEP_WORDS

# engine.duel.rules.STEP_WORDS: what the table waits for, as a clause ("…, so the move is …").
STEP_WORDS = {
    "keep": N_("the first player is choosing which special to keep"),
    "eye": N_("the eye must be played"),
    "dive": N_("the diving module's player must keep one of the two divers drawn"),
    "harpoon": N_("the harpoon's player must keep the diver taken or return it"),
    "place": N_("a card must be placed"),
    "arrow": N_("the arrow's move must be chosen"),
}

# How an arrow moves a card, as the engine says it when the destination is wrong.
PHRASES = (
    N_("straight across the Nautilus"),
    N_("to an empty space on its own side"),
    N_("none"),
    N_("or"),
)


def refusal_words() -> dict[str, str]:
    """English as the engine writes it -> the same in the context's language."""
    out = {english: tr(english) for english in PHRASES}
    for step, english in ENGINE_STEP_WORDS.items():
        out[english] = tr(STEP_WORDS[step])
    # The spaces, as the engine lists them: "side 0 slot 2", "3 to side 0 slot 2".
    for side in (0, 1):
        for slot in range(data.SLOTS):
            out[f"side {side} slot {slot}"] = tr("side {side} slot {slot}", side=side, slot=slot)
            out[f"to side {side} slot {slot}"] = tr(
                "to side {side} slot {slot}", side=side, slot=slot
            )
    for special, name in data.SPECIAL_NAMES.items():
        out[name] = words.special(special)
    for value in data.CARD_VALUES:
        named = data.SPECIAL_OF_VALUE.get(value)
        said = words.the_special(named) if named else tr("the {n}", n=value)
        out[data.card_name(value)] = said
        out[data.card_name(value).capitalize()] = said[:1].upper() + said[1:]
    return out
