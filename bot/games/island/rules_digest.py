"""`/island rules [topic]`: the rules of Nautilus Island in short, in the bot's own words.

Each line names the rule id it summarises (`I-…`), so a player can quote it and a test can check
that none is missing; each topic fits one Discord message (under 2,000 characters).
"""

from __future__ import annotations

from typing import Final

from bot import texts
from bot.i18n import N_, tr

TOPICS: Final[dict[str, tuple[str, str]]] = {
    # topic: (title, text), English; said through `tr` in the reader's language
    "setup": (
        N_("Setup"),
        N_(
            "- **I-SETUP-1** 2–4 players. 96 cards: 6 categories × 4 objects × 4 copies — clothing "
            "(green: hat, coat, boots, gloves), navigation tools (red: compass, spyglass, sextant, "
            "chart), repair tools (blue: hammer, saw, wrench, rope), fishing gear (purple: rod, "
            "net, harpoon, hook), food (orange: bread, cheese, fruit, ham) and Nautilus treasures "
            "(yellow: pearl, coin, goblet, crown).\n"
            "- **I-SETUP-2** The Nautilus is a row of columns, bow (column 0) to stern, each of 1, "
            "2 or 3 stacks of 8 cards: 2 players 1-2-2-3, 3 players 1-2-2-3-3, 4 players "
            "1-1-2-2-3-3. In each column the first stack is face up (only its top card shows), the "
            "others face down. Leftover cards go back to the box unseen.\n"
            "- **I-SETUP-3** The camp has one space per storable category, each with a face-up "
            "bonus token; the other tokens wait face down. 34 tokens: 8 × 2 VP, 6 × 3 VP, 5 × +1 "
            "VP per card, 5 × double porthole, 5 × odd: 4 VP, 5 × pair: 5 VP.\n"
            "- **I-SETUP-4** Porthole piles for collections of exactly 3, 4, 5 and 6 cards, best "
            "on top: 3 cards 5/4/3 VP · 4 cards 8/6/5 · 5 cards 11/9/7 · 6 cards 15/12/10.\n"
            "- **I-SETUP-5** The first player is drawn at random."
        ),
    ),
    "turn": (
        N_("Your turn"),
        N_(
            "- **I-TURN-1** Round 1: from the first player on, each player places their pawn above "
            "the Nautilus facing a column no other pawn faces (`/island place`), then acts.\n"
            "- **I-TURN-2** Later rounds: cross to the other side (`/island move`), facing any "
            "column but last round's and those another pawn faces on that side; before the last "
            "round, never an empty column.\n"
            "- **I-TURN-3** After round 1, the player who has not moved yet and stands nearest the "
            "stern plays next. A round ends when every pawn is on the same side.\n"
            "- **I-TURN-4** Then do exactly one: **collect** (`/island collect`: the top card of "
            "every non-empty stack of your column into your hand; no hand limit) or **store** "
            "(`/island store`: 1 to N cards of one open category from your hand into its "
            "collection, N = your column's stacks). With nothing to store you must collect. In the "
            "last round you may face an empty column only if you can store there; only when every "
            "column you may face is empty and you have nothing to store do you face one and do "
            "nothing (`/island idle`).\n"
            "- **I-TURN-5** Hands are secret, their size is public. A card from a face-up stack is "
            "shown to all; one from a face-down stack only to you. Collections and tokens are "
            "public.\n"
            "- **I-TURN-6** After storing: take the camp token (I-BONUS-1), refill check "
            "(I-BONUS-2), then you may close (I-PORT-1)."
        ),
    ),
    "bonus": (
        N_("Bonus tokens"),
        N_(
            "- **I-BONUS-1** Storing into a category takes that category's camp token, if any, "
            "onto the collection for good. A collection may hold several tokens.\n"
            "- **I-BONUS-2** When only one token is left in the camp, every empty space is "
            "refilled from the face-down tokens (at random spaces if too few are left).\n"
            "- **I-BONUS-3** At the end: 2 VP / 3 VP as printed · +1 VP per card: the collection's "
            "cards · double porthole: its porthole once more (0 without one; two of them count it "
            "three times in all) · odd: 4 VP for an odd number of cards · pair: 5 VP for two cards "
            "of one object (several pair tokens need disjoint pairs)."
        ),
    ),
    "portholes": (
        N_("Closing a collection"),
        N_(
            "- **I-PORT-1** Only right after storing may you close that collection (`/island "
            "close`), taking the top porthole of the pile for its exact size; or keep it open "
            "(`/island keep-open`) and close it later only after storing into it again. A closed "
            "collection takes no more cards.\n"
            "- **I-PORT-2** A size with no pile (1, 2, 7+ cards) or an empty pile can't be closed: "
            "then the turn simply ends."
        ),
    ),
    "end": (
        N_("Treasures, end and score"),
        N_(
            "- **I-TREASURE-1** Treasures are never stored: they score from your hand at the end — "
            "pearl 1, coin 2, goblet 3, crown 4 VP.\n"
            "- **I-END-1** When a column runs out of cards, the round is finished, then one last "
            "round is played; in it a pawn may face an empty column, but only to store.\n"
            "- **I-END-2** Score: bonus tokens + portholes + treasures in hand (other cards in "
            "hand are worth nothing). Highest wins; a tie goes to the tied pawn nearest the stern."
        ),
    ),
    "commands": (
        N_("Commands"),
        N_(
            "- `/island hand` — your hand, treasures and collections (only to you).\n"
            "- `/island place column:` / `/island move column:` — your pawn (autocompleted).\n"
            "- `/island collect` — take the top cards of your column.\n"
            "- `/island store category: objects:` — e.g. `category:food objects:ham+ham+bread` "
            "(autocompleted from your hand).\n"
            "- `/island close` / `/island keep-open` — after a store that can be closed.\n"
            "- `/island idle` — only when every column you may face is empty and you have nothing "
            "to store.\n"
            "- `/island board` — the Nautilus, camp and portholes; the Play button on your ping "
            "opens a panel with every choice."
        ),
    ),
}


def overview() -> str:
    topics = " · ".join(f"`{key}` ({tr(title)})" for key, (title, _) in TOPICS.items())
    return tr(
        "**Nautilus Island in short** — collect cards from the Nautilus, store sets of one "
        "category into your collections, grab bonus tokens and close collections with "
        "porthole tokens. Each turn: place or move your pawn to face a column, then collect "
        "or store. Most VP wins.\n"
        "Topics: {topics}. Use `/island rules topic:` for the details.",
        topics=topics,
    )


def digest(topic: str | None = None) -> str:
    """The reply to `/island rules [topic]` (unknown topics get the overview with a hint)."""
    if topic is None or not topic.strip():
        return overview()
    key = topic.strip().lower()
    if key not in TOPICS:
        missing = tr("There is no topic “{topic}”.", topic=texts.quoted(topic.strip()[:50]))
        return texts.fit(f"{missing}\n{overview()}")
    title, text = TOPICS[key]
    return f"**{tr(title)}**\n{tr(text)}"
