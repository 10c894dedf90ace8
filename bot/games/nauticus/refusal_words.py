"""The Nauticus engine's words as its refusals quote them, in the language of the context.

An engine refusal is an English sentence (engine/nauticus/rules.py); `bot.refusals` says its
frame in the member's language and its values with these words: the item, action and reward
names, the move words of "you can: buy or end your turn", the places of the shipyard. The keys
are exactly the engine's English (a test holds them to the engine's tables).
"""

from __future__ import annotations

from bot.games.nauticus import words
from bot.i18n import N_, tr
from engine.nauticus import data
from engine.nauticus.rules import MOVE_WORDS as ENGINE_MOVE_WORDS

# engine.nauticus.rules.MOVE_WORDS, said as infinitives ("you can: {buy or end your turn}").
MOVE_WORDS = {
    "choose_action": N_("choose an action"),
    "take_bonus": N_("take a bonus tile"),
    "buy": N_("buy"),
    "take_free_tile": N_("take a free tile"),
    "transport": N_("transport"),
    "money": N_("take money"),
    "crowns": N_("score crowns"),
    "deliver": N_("deliver"),
    "reward": N_("choose a reward"),
    "extra": N_("start the extra action"),
    "end_extra": N_("end the extra action"),
    "pass": N_("pass"),
    "end_turn": N_("end your turn"),
}

# Phrases the engine writes into its refusals' values (what is bought, where a tile may go).
PHRASES = (
    N_("the bonus"),
    N_("the free tile"),
    N_("transported"),
    N_("Buying"),
    N_("Transport"),
    N_("Delivering ship #"),
    N_("storage"),
    N_("a new ship"),
    N_("ship #"),
    N_("tile"),
    N_("no place in your shipyard"),
    N_("no place fits"),
    N_("has already been played this round"),
    N_("does not exist"),
    N_("nothing now"),
    N_("nothing"),
    N_("none"),
    N_("or"),
)


def refusal_words() -> dict[str, str]:
    """English as the engine writes it -> the same in the context's language."""
    out = {english: tr(english) for english in PHRASES}
    for move, english in ENGINE_MOVE_WORDS.items():
        out[english] = tr(MOVE_WORDS[move])
    for item in data.ITEM_INDEX:
        out[item] = out[data.item_name(item)] = words.item_label(item)
    for crest, name in data.CREST_NAMES.items():
        out[name] = words.crest_word(crest)
    for action in data.ACTIONS:
        out[data.ACTION_NAMES[action]] = words.action_label(action)
        # "transport" and "deliver" are move words too ("you can: deliver"): those win.
        out.setdefault(action, words.action_label(action))
    for kind, name in data.REWARD_NAMES.items():
        out[name] = words.reward_name(kind)
    for end, word in words.END_WORDS.items():
        out[end] = tr(word)
    for kind in ("mast", "sail", "good"):
        out[kind] = words.tile_word(kind)
    return out
