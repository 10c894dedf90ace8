"""The Nautilus Island engine's words as its refusals quote them, in the context's language.

An engine refusal is an English sentence (engine/island/rules.py); `bot.refusals` says its
frame in the member's language and its values with these words: categories, objects, the move
words of "you can: collect or store cards", the side of the Nautilus. The keys are exactly the
engine's English (a test holds them to the engine's tables).
"""

from __future__ import annotations

from bot.games.island import words
from bot.i18n import N_, tr
from engine.island import data
from engine.island.rules import MOVE_WORDS as ENGINE_MOVE_WORDS

# engine.island.rules.MOVE_WORDS, said as infinitives ("you can: {collect or store cards}").
MOVE_WORDS = {
    "place": N_("place your pawn"),
    "move": N_("move your pawn"),
    "collect": N_("collect"),
    "store": N_("store cards"),
    "close": N_("close the collection"),
    "keep_open": N_("keep the collection open"),
    "idle": N_("do nothing"),
}

PHRASES = (
    N_("nothing"),
    N_("none"),
    N_("or"),
)


def refusal_words() -> dict[str, str]:
    """English as the engine writes it -> the same in the context's language."""
    out = {english: tr(english) for english in PHRASES}
    for move, english in ENGINE_MOVE_WORDS.items():
        out[english] = tr(MOVE_WORDS[move])
    for category in data.CATEGORIES:
        out[category] = words.short_category(category)
        out[data.CATEGORY_NAME[category]] = words.category_name(category)
    for objects in data.OBJECTS.values():
        for obj in objects:
            out[obj] = words.object_name(obj)
    for side in words.SIDE_WORDS:
        out[side] = words.side_word(side)
    return out
