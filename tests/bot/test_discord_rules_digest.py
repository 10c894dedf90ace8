"""`/nauticus rules`: every rule of the project's rules page is summarised, each reply fits."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot import i18n
from bot.games.island.rules_digest import TOPICS as ISLAND_TOPICS
from bot.games.island.rules_digest import digest as island_digest
from bot.games.nauticus.rules_digest import TOPICS, digest

# The rule ids of the rules page (N-MOVES is design, not a rule); a new rule must be added here
# and to the digest.
RULE_IDS = (
    [f"N-SETUP-{i}" for i in range(1, 8)]
    + [f"N-BOARD-{i}" for i in range(1, 6)]
    + [f"N-ROUND-{i}" for i in range(1, 7)]
    + [f"N-ACT-{i}" for i in range(1, 4)]
    + [f"N-BUY-{i}" for i in range(1, 6)]
    + ["N-TRANS-1", "N-MONEY-1", "N-DELIV-1", "N-CROWN-1", "N-GOLD-1", "N-GOLD-2"]
    + [f"N-YARD-{i}" for i in range(1, 8)]
    + ["N-REW-1", "N-REW-2"]
    + [f"N-EXTRA-{i}" for i in range(1, 4)]
    + [f"N-END-{i}" for i in range(1, 6)]
)


def test_every_rule_is_summarised_exactly_once() -> None:
    found = [rid for _, text in TOPICS.values() for rid in re.findall(r"N-[A-Z]+-\d+", text)]
    assert sorted(found) == sorted(RULE_IDS)


@pytest.mark.parametrize("topic", [None, "", "nonsense", *TOPICS])
def test_every_reply_fits_one_discord_message(topic: str | None) -> None:
    assert 0 < len(digest(topic)) < 2000


def test_topics_are_the_ones_promised() -> None:
    assert list(TOPICS) == [
        "setup", "board", "round", "actions", "buying", "storage", "ships", "rewards",
        "extra", "scoring",
    ]  # fmt: skip
    assert "N-YARD-5" in digest(" Ships ")
    assert digest("nonsense").startswith("There is no topic 'nonsense'")
    assert all(f"`{t}`" in digest() for t in TOPICS)


# --- statements checked against the rules pages (issue 21, item 6) ------------------------------


def _said(lang: str, reply: Callable[[], str]) -> str:
    with i18n.use(lang):
        return reply()


def test_n_round_5_unflipped_pass_tiles_cost_their_vp_at_round_end() -> None:
    # N-ROUND-5, N-ACT-2: the face-up (not flipped) pass tiles cost VP; passing flips one.
    overview = _said("en", digest)
    assert "Passing costs VP at round end" not in overview
    assert (
        "At round end each pass tile still face up costs its VP; passing turns one over, which "
        "saves its VP and shows a crown." in overview
    )
    assert "lose the value of your face-up pass tiles" in _said("en", lambda: digest("round"))
    french = _said("fr", digest)
    assert "Passer coûte des PV en fin de manche" not in french
    assert (
        "En fin de manche, chaque tuile « passer » encore face visible coûte ses PV\u202f; "
        "passer en "
        "retourne une, ce qui épargne ses PV et montre une couronne." in french
    )
    round_fr = _said("fr", lambda: digest("round"))
    assert round_fr.startswith("**Une manche, phase par phase**")
    assert "perdez la valeur de vos tuiles « passer » retournées" not in round_fr
    assert (
        "perdez la valeur de vos tuiles « passer » encore face visible, celles que vous n'avez "
        "pas retournées" in round_fr
    )


def test_n_round_2_a_bonus_good_is_of_a_kind_masts_and_sails_of_a_crest() -> None:
    assert (
        "A bonus mast or sail is of the regular crest you choose (never crown), a bonus good of "
        "the kind you choose; it goes to storage." in _said("en", lambda: digest("round"))
    )
    assert (
        "Un mât ou une voile en bonus est de l'armoirie ordinaire de votre choix (jamais la "
        "Couronne), une marchandise en bonus de la sorte de votre choix\u202f; il va à l'entrepôt."
        in _said("fr", lambda: digest("round"))
    )


def test_n_buy_5_a_zero_taler_purchase_without_room_is_lost_not_the_free_tile() -> None:
    english = _said("en", lambda: digest("buying"))
    assert "A free tile with no room" not in english
    assert "A tile bought for 0 taler with no room in storage still costs the worker" in english
    assert "Une tuile achetée 0 thaler sans place à l'entrepôt coûte quand même l'ouvrier" in (
        _said("fr", lambda: digest("buying"))
    )


def test_i_turn_4_island_digest_empty_column_only_to_store_idle_only_when_all_are_empty() -> None:
    english = _said("en", lambda: island_digest("turn"))
    assert "facing an empty column with nothing to store, you do nothing" not in english
    assert (
        "In the last round you may face an empty column only if you can store there; only when "
        "every column you may face is empty and you have nothing to store do you face one and do "
        "nothing (`/island idle`)." in english
    )
    assert (
        "`/island idle` — only when every column you may face is empty and you have nothing to "
        "store." in _said("en", lambda: island_digest("commands"))
    )
    french = _said("fr", lambda: island_digest("turn"))
    assert (
        "À la dernière manche, vous ne pouvez faire face à une colonne vide que si vous pouvez y "
        "stocker\u202f; ce n'est que lorsque toutes les colonnes auxquelles vous pouvez faire face "
        "sont vides et que vous n'avez rien à stocker que vous faites face à l'une d'elles sans "
        "rien faire (`/island attendre`)." in french
    )
    assert "`/island attendre` — seulement quand toutes les colonnes" in _said(
        "fr", lambda: island_digest("commands")
    )
    assert "only to store" in _said("en", lambda: island_digest("end"))  # I-END-1


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("reply", "topics"),
    [(digest, TOPICS), (island_digest, ISLAND_TOPICS)],
    ids=["nauticus", "island"],
)
def test_every_topic_fits_one_discord_message_in_each_language(
    lang: str, reply: Callable[[str | None], str], topics: dict[str, tuple[str, str]]
) -> None:
    with i18n.use(lang):
        for topic in [None, *topics]:
            assert 0 < len(reply(topic)) < 2000
