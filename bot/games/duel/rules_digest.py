"""`/duel rules [topic]`: the rules of the Nautilus duel in short, in the bot's own words.

Each line names the rule id it summarises (`D-…`), so a player can quote it and a test can check
that no rule is missing; each topic fits one Discord message.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import N_, tr

TOPICS: Final[dict[str, tuple[str, str]]] = {
    # topic: (title, text), English; said through `tr` in the reader's language
    "setup": (
        N_("Setup: cards and the first player"),
        N_(
            "- **D-SETUP-1** Exactly 2 players. 14 divers valued 1–14; 30 domain cards, 6 in each "
            "of 5 domains (science, exploration, navigation, engineering, war); 6 specials, one "
            "each: kraken, fishbone, anchor, eye, diving module, harpoon.\n"
            "- **D-SETUP-2** Each domain has 2 cards with two stars (2 points), 3 with one star (1 "
            "point) and 1 ink blot (−1 point).\n"
            "- **D-SETUP-3** Divers and specials are shuffled face down; 5 domain cards are dealt "
            "face up on the 5 slots along the Nautilus. The Nemo token (first player) is drawn at "
            "random."
        ),
    ),
    "round": (
        N_("A round: divers, specials and their powers"),
        N_(
            "- **D-ROUND-1** Each player draws 5 divers, secretly. The first player draws 2 "
            "specials, keeps one and gives the other to the opponent: each sees only their own "
            "(`/duel keep`).\n"
            "- **D-ROUND-2** Before any card is placed, first player first, whoever holds the eye, "
            "the diving module or the harpoon must play it: **eye** — see the opponent's divers as "
            "they are now (`/duel eye`); **diving module** — draw 2 divers, keep 1, the other goes "
            "back on top of the deck (`/duel dive`); **harpoon** — take a random diver from the "
            "opponent, then keep it and give one of yours, or give it back (`/duel harpoon`).\n"
            "- **D-ROUND-8** After the awards, unless the domain cards have run out: the Nemo "
            "token passes, 5 new domain cards are dealt, all 14 divers are gathered and "
            "reshuffled, and the round's specials are set aside. After round 3 the special deck is "
            "rebuilt from all 6 specials."
        ),
    ),
    "placing": (
        N_("Placing cards, the kraken, fishbone and anchor"),
        N_(
            "- **D-ROUND-3** Each slot has two spaces, one on each player's side: 10 spaces. First "
            "player first, you alternate placing one card face up on any empty space, on your side "
            "or your opponent's, until all 10 are full (5 cards each) (`/duel place`).\n"
            "- **D-ROUND-4** The kraken (15) and the fishbone (0) may be placed instead of a "
            "diver; they count as divers for arrows, the anchor and comparing. The anchor is "
            "played with a placement, on that card or any card already in play on either side: "
            "that card can no longer move (`anchor:` option). Playing them is optional; unplayed, "
            "they are discarded at the round's end."
        ),
    ),
    "arrows": (
        N_("Arrows: the 6, 7, 8 and 9"),
        N_(
            "- **D-ROUND-5** An arrow acts only when its card is placed; a card moved by an arrow "
            "never triggers its own. The placing player chooses the move (`/duel arrow`). A 6 or 9 "
            "(vertical arrow) moves another unanchored card on the side where it was placed "
            "straight across the Nautilus, to the empty space of that card's own slot. A 7 or 8 "
            "(horizontal arrow) moves another unanchored card on that side to any empty space on "
            "the same side. The move is mandatory when one exists (the bot makes it at once when "
            "there is only one); otherwise nothing moves. An anchor played with the placement lies "
            "down before the arrow is resolved."
        ),
    ),
    "awards": (
        N_("Awards at the end of a round"),
        N_(
            "- **D-ROUND-6** With all 10 spaces full, each slot's domain card goes to the player "
            "whose side of that slot shows the higher value. The 1 (crab) beats the 14, and only "
            "the 14 (not the kraken). All values differ, so a slot never ties.\n"
            "- **D-ROUND-7** Each award is public when made (the bot posts them and keeps the "
            "award log on the board); afterwards each player sees only their own won pile (`/duel "
            "hand`)."
        ),
    ),
    "end": (
        N_("The end and the winner"),
        N_(
            "- **D-END-1** The game ends after round 6. In each domain each player adds their "
            "cards: two stars 2, one star 1, ink blot −1, no cards 0. The higher total wins the "
            "domain; equal totals win it for nobody.\n"
            "- **D-END-2** Whoever wins more domains wins. If equal: the higher sum of all domain "
            "points, then a shared win."
        ),
    ),
    "commands": (
        N_("Playing in Discord"),
        N_(
            "When it is your turn you are pinged: press **Play** for your private panel (your "
            "divers, your special and your won pile on top; choose a card, then where it goes). Or "
            "type the move: `/duel keep special:eye`, `/duel eye`, `/duel dive keep:9`, `/duel "
            "harpoon give:3`, `/duel place card:7 side:2 slot:3` (`anchor:7` to play the anchor "
            "too), `/duel arrow card:5 side:1 slot:4`; sides are seat numbers and slots count 1–5 "
            "from the left; the options autocomplete from your legal moves. `/duel hand` shows "
            "your hand (only to you), `/duel board` the board, `/games log` the moves (with your "
            "own secret lines, only to you)."
        ),
    ),
}


def overview() -> str:
    """The reply without a topic: the game in a few lines, and the topics."""
    topics = "\n".join(f"- `{key}` — {tr(title)}" for key, (title, _) in TOPICS.items())
    return tr(
        "**Nautilus duel in short.** Two players, 6 rounds. Each round you hold 5 secret divers "
        "(1–14) and one special; you take turns placing cards on the 10 spaces along the "
        "Nautilus, on either side. Each of the 5 slots' domain cards goes to the side showing "
        "the higher value (the 1 beats the 14). Arrow cards move other cards. After 6 rounds, "
        "whoever wins more of the 5 domains wins.\n"
        "Ask `/duel rules topic:<topic>` for the details:\n"
        "{topics}",
        topics=topics,
    )


def digest(topic: str | None = None) -> str:
    """The reply to `/duel rules [topic]` (unknown topics get the overview with a hint)."""
    if topic is None or not topic.strip():
        return overview()
    key = topic.strip().lower()
    if key not in TOPICS:
        return tr("There is no topic {topic}.", topic=repr(topic.strip()[:40])) + "\n" + overview()
    title, text = TOPICS[key]
    return f"**{tr(title)}**\n{tr(text)}"
