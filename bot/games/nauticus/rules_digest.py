"""`/nauticus rules [topic]`: the rules of Nauticus in short, in the bot's own words.

Each line names the rule id it summarises, so a player can quote it and a test can check that no
rule is missing; each topic fits one Discord message (under 2,000 characters).
"""

from __future__ import annotations

from typing import Final

from bot.i18n import N_, tr

TOPICS: Final[dict[str, tuple[str, str]]] = {
    # topic: (title, text), English; said through `tr` in the reader's language
    "setup": (
        N_("Setup and what you own"),
        N_(
            "- **N-SETUP-1** 2–4 players. 5 rounds (4 with two players), 7 action phases each.\n"
            "- **N-SETUP-2** You begin with 10 VP, 4 workers, 15 taler, your extra-action tile, "
            "three pass tiles (-3, -2, -1) face up, an empty storage of 12 units and an empty "
            "shipyard.\n"
            "- **N-SETUP-3** Seat 1 is the first start player (random unless the host sets the "
            "order); seats go clockwise. Later seats get a head start: seat 2 +1 taler; with 3 "
            "players seat 3 +2 taler +1 worker; with 4 players seat 3 +1 taler +1 worker and seat "
            "4 +2 taler +2 workers.\n"
            "- **N-SETUP-4** Tiles are limited: 18 one-ships, 18 bows, 9 middles, 18 sterns; 15 "
            "masts and 15 sails of each crest plus 12 crown masts and 12 crown sails; 12 of each "
            "good. Workers and taler never run out.\n"
            "- **N-SETUP-5** An empty stack can't be bought, taken or received; a bonus or free "
            "tile with no stack left is simply not received. The goods reward with one kind left "
            "gives that one good.\n"
            "- **N-SETUP-6** Crests: Whale, Anchor ship, Helm, Tower. The crown is a joker for "
            "masts and sails.\n"
            "- **N-SETUP-7** Nothing is hidden: everyone may look at everything you own."
        ),
    ),
    "board": (
        N_("The board and the wheel"),
        N_(
            "- **N-BOARD-1** Eight action spaces, 0–7, each with a bonus for the start player who "
            "picks it: 0 three workers · 1 a mast · 2 a sail · 3 2 VP · 4 two workers · 5 a worker "
            "and a good · 6 a worker and 1 VP · 7 four taler.\n"
            "- **N-BOARD-2** The wheel gives each space blue workers: 0 on the anchor section, "
            "then 1, 2, 3, 1, 2, 3, 2 clockwise. The anchor starts facing space 0.\n"
            "- **N-BOARD-3** Eight action tiles. Paid: Hulls (bow, middle, stern, one-ship), Masts "
            "and Sails (Whale, Anchor ship, Helm, Tower), Goods (coffee, grain, fish, salt). Free: "
            "Transport, Money, Deliver, Crowns.\n"
            "- **N-BOARD-4** Each space prints a price from 0 to 3 for each of the four items of "
            "the tile lying there — `/nauticus board` shows them.\n"
            "- **N-BOARD-5** Every round the tiles are shuffled onto the spaces."
        ),
    ),
    "round": (
        N_("A round, phase by phase"),
        N_(
            "- **N-ROUND-1** The start player picks a face-up action; then everyone, start player "
            "first and clockwise, performs it (one or more uses) or passes.\n"
            "- **N-ROUND-2** Picking it gives the start player that space's bonus at once, usable "
            "for this very action. A bonus mast or sail is of the regular crest you choose (never "
            "crown), a bonus good of the kind you choose; it goes to storage.\n"
            "- **N-ROUND-3** After the phase the tile is turned over for the rest of the round and "
            "the start player role moves one seat clockwise.\n"
            "- **N-ROUND-4** After the 7th phase the round ends; one tile is never played.\n"
            "- **N-ROUND-5** Round end: lose the value of your face-up pass tiles (you may drop "
            "below zero), then turn them all face up. The wheel turns so its anchor faces the "
            "space picked first this round, and the tiles are reshuffled.\n"
            "- **N-ROUND-6** After the last round the pass penalty still counts, then the game is "
            "scored."
        ),
    ),
    "actions": (
        N_("Performing an action, passing, the free actions"),
        N_(
            "- **N-ACT-1** Every use costs one worker: the space's blue workers first, then your "
            "own. Blue workers you don't use are lost; every player gets the same blue workers.\n"
            "- **N-ACT-2** Passing turns over your next pass tile (-3, then -2, then -1; nothing "
            "once all three are down). A turned tile counts as one crown until round end.\n"
            "- **N-ACT-3** Ending your turn without a single use of the phase's action is a pass. "
            "Uses inside your extra action don't count.\n"
            "- **N-TRANS-1** Transport: each tile moved from storage into your shipyard costs one "
            "worker and is placed at once. As many as you like.\n"
            "- **N-MONEY-1** Money: 2 taler per worker.\n"
            "- **N-DELIV-1** Deliver: a finished ship with a good under every hull tile sends all "
            "its goods to your delivered goods, one worker per good, all or nothing. It may be "
            "loaded again later.\n"
            "- **N-CROWN-1** Crowns: count your crown masts and sails (storage and shipyard) plus "
            "your turned pass tiles; score crowns × workers used, at most 15 VP per performance."
        ),
    ),
    "buying": (
        N_("Buying hulls, masts, sails and goods"),
        N_(
            "- **N-BUY-1** The first copy of an item costs the price printed on this space; every "
            "further copy of the same item in the same performance costs 4 taler.\n"
            "- **N-BUY-2** Buy all four different items in one performance and you get one more of "
            "them free (no taler, no worker), to storage.\n"
            "- **N-BUY-3** Something bought for 1 taler or more may go straight into your shipyard "
            "or into storage; something bought for 0 taler is free and must go to storage.\n"
            "- **N-BUY-4** Crown masts and crown sails are never for sale: rewards only.\n"
            "- **N-BUY-5** You can't spend taler or workers you don't have, and a paid tile with "
            "no place to go is refused before you pay. A tile bought for 0 taler with no room in "
            "storage still costs the worker and is lost — the panel warns you first."
        ),
    ),
    "storage": (
        N_("The golden rule and storage"),
        N_(
            "- **N-GOLD-1** Every tile you get without paying taler (bonus, reward, free tile, a "
            "0-taler purchase) goes to storage; if it doesn't fit, it goes back to the supply.\n"
            "- **N-GOLD-2** Storage holds 12 units: masts take 2, everything else 1. Only the "
            "total matters."
        ),
    ),
    "ships": (
        N_("Building ships in your shipyard"),
        N_(
            "- **N-YARD-1** A ship is a one-ship tile alone, or bow + 0–2 middles + stern.\n"
            "- **N-YARD-2** A hull tile starts a new ship or extends one: a bow at an open front, "
            "a stern at an open back, a middle at either open end while the ship has fewer than "
            "two. Bow and stern close the hull. Tiles never move and ships never merge.\n"
            "- **N-YARD-3** One mast per hull tile; the hull needn't be closed yet.\n"
            "- **N-YARD-4** One sail per mast.\n"
            "- **N-YARD-5** One crest per ship: its regular masts and sails all share it. Crown "
            "masts and sails fit any ship, and a regular sail on a crown mast (or the reverse) "
            "still sets the crest. A placement breaking this is refused.\n"
            "- **N-YARD-6** A ship is finished when its hull is closed and every hull tile has a "
            "mast with a sail.\n"
            "- **N-YARD-7** One good under each hull tile, on any ship, finished or not; goods "
            "leave only by delivery."
        ),
    ),
    "rewards": (
        N_("Rewards for a finished ship"),
        N_(
            "- **N-REW-1** Finishing a ship pauses your turn: pick one reward per mast of that "
            "ship, each kind at most twice for it — a crown mast, a crown sail (both to storage), "
            "3 VP, 7 taler, 3 workers, or 2 different goods of your choice (to storage; if only "
            "one fits, you choose which one stays).\n"
            "- **N-REW-2** Rewards work at once: the taler and workers pay for more uses of the "
            "current action, and a crown tile just received may be transported straight away."
        ),
    ),
    "extra": (
        N_("The extra action (once per game)"),
        N_(
            "- **N-EXTRA-1** In your own turn, before your first use of the phase's action or "
            "after your last use (or your pass), you may give up your extra-action tile: take 2 "
            "workers, name any of the 8 actions (even a turned-over one) and perform it "
            "separately, with its own prices, its own buy-all-four tile and its own crown cap. "
            "Zero uses is fine; it never mixes with the phase's uses. The start player can use it "
            "only after picking the action and taking the bonus.\n"
            "- **N-EXTRA-2** No blue workers in the extra action; on a paid action the first copy "
            "of each item costs 2 taler (further copies 4).\n"
            "- **N-EXTRA-3** The extra action turns over no tile and gives no bonus."
        ),
    ),
    "scoring": (
        N_("Final scoring and the winner"),
        N_(
            "- **N-END-1** Delivered goods, for each kind: 1 → 2 VP, 2 → 5, 3 → 9, 4 → 14, 5 → 20, "
            "+5 for each one more.\n"
            "- **N-END-2** Finished ships by size: 1 → 2 VP, 2 → 8, 3 → 20, 4 → 35.\n"
            "- **N-END-3** Leftovers are worth 1 taler each: every worker, every tile in storage, "
            "every hull tile, mast and sail of an unfinished ship, every good still on a ship. Add "
            "your taler; every 3 make 1 VP.\n"
            "- **N-END-4** Most VP wins. A tie goes to the higher remainder of that taler total "
            "divided by 3, then to the higher total; after that the place is shared.\n"
            "- **N-END-5** Example: 2 grain, 3 fish and 6 coffee delivered = 5 + 9 + 25 = 39 VP; "
            "three one-ships, a 2-ship and a 3-ship = 6 + 8 + 20 = 34 VP; 2 workers, 3 stored "
            "tiles, 5 unfinished parts, 3 goods on ships and 8 taler = 21 = 7 VP."
        ),
    ),
}


def overview() -> str:
    """The reply without a topic: how a game goes in five lines, and the topics."""
    topics = "\n".join(f"- `{key}` — {tr(title)}" for key, (title, _) in TOPICS.items())
    return tr(
        "**Nauticus in short.** Over 5 rounds (4 with two players) of 7 phases, the start "
        "player picks an action and everyone in turn performs it or passes. Buy hulls, masts, "
        "sails and goods, build ships in your shipyard, deliver goods, and score for delivered "
        "goods, finished ships and leftovers. At round end each pass tile still face up costs "
        "its VP; passing turns one over, which saves its VP and shows a crown.\n"
        "Ask `/nauticus rules topic:<topic>` for the details:\n"
        "{topics}",
        topics=topics,
    )


def digest(topic: str | None = None) -> str:
    """The reply to `/nauticus rules [topic]` (unknown topics get the overview with a hint)."""
    if topic is None or not topic.strip():
        return overview()
    key = topic.strip().lower()
    if key not in TOPICS:
        return tr("There is no topic {topic}.", topic=repr(topic.strip())) + "\n" + overview()
    title, text = TOPICS[key]
    return f"**{tr(title)}**\n{tr(text)}"
