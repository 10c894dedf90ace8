"""The engines' refusals in the member's language: every literal refusal of every engine is a
catalogue template, a real refusal is matched and said in French with its values, and an
English member reads the engine's own sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n, refusals
from bot.games import GAMES
from engine.errors import IllegalMove


def _refused(kind: str, seat: int, move: Any, players: int = 2) -> IllegalMove:
    rules = GAMES.get(kind).rules
    state = rules.new_game(players, 3)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, seat, move)
    return caught.value


def test_every_literal_refusal_of_the_engines_is_in_the_catalogue_with_french() -> None:
    found = list(refusals.engine_templates())
    assert len(found) > 80  # the three engines' refusals, not an empty scan
    cat = i18n.catalogue("fr")
    assert cat is not None
    for template, where, _ in found:
        assert cat.get(template, refusals.CONTEXT), f"no French for {where}: {template!r}"


@pytest.mark.parametrize(
    ("kind", "seat", "move", "french"),
    [
        ("nauticus", 7, {"type": "pass"}, "Il n'y a pas de place 7"),
        (
            "island",
            5,
            {"type": "collect"},
            "Il n'y a pas de place 5\u202f; les places vont de 0 à 1.",
        ),
        (
            "duel",
            0,
            {"type": "fly"},
            "Type de coup inconnu 'fly'\u202f; les types de coup sont\u202f: ",
        ),
        ("duel", 0, "nope", "Un coup doit être un objet JSON avec un 'type', pas 'nope'."),
    ],
)
def test_a_real_refusal_is_said_in_french_with_its_values(
    kind: str, seat: int, move: Any, french: str
) -> None:
    exc = _refused(kind, seat, move)
    english = str(exc)
    assert refusals.text(exc, "en") == english
    with i18n.use("fr"):
        said = refusals.text(exc)
    assert said.startswith(french) and said != english


def test_each_template_reads_back_its_own_values() -> None:
    # Fill every English template with distinct values, then read them back in French.
    checked = 0
    for template, _, sources in refusals.engine_templates():
        values = [f"«v{i}»" for i in range(len(sources))]
        english = template.format(*values)
        exc = IllegalMove("x", english)
        french = refusals.text(exc, "fr")
        assert french != english, template
        assert sorted(re.findall(r"«v\d+»", french)) == sorted(values), template
        checked += 1
    assert checked > 80


def test_a_refusal_no_template_knows_stays_english() -> None:
    exc = IllegalMove("odd", "Something no engine says.")
    assert refusals.text(exc, "fr") == "Something no engine says."


# --- the engines' words inside a refusal -------------------------------------------------------


def _first_refusal(kind: str, move: Any, players: int = 2) -> IllegalMove:
    rules = GAMES.get(kind).rules
    state = rules.new_game(players, 3)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.current(state), move)
    return caught.value


@pytest.mark.parametrize(
    ("kind", "move", "english", "french"),
    [
        (
            "nauticus",
            {"type": "buy", "item": "bow", "to": "storage"},
            "You can't buy now; you can: choose an action.",
            "Vous ne pouvez pas acheter maintenant\u202f; vous pouvez\u202f: choisir une action.",
        ),
        (
            "island",
            {"type": "collect"},
            "You can't collect now; you can: place your pawn.",
            "Vous ne pouvez pas récolter maintenant\u202f; vous pouvez\u202f: placer votre pion.",
        ),
        (
            "duel",
            {"type": "place", "card": 3, "side": 0, "slot": 0},
            "A 'place' move is not possible now: the first player is choosing which special to "
            "keep, so the move is 'keep'.",
            "Un coup 'place' n'est pas possible maintenant\u202f: le premier joueur "
            "choisit la carte "
            "spéciale à garder, le coup attendu est donc 'keep'.",
        ),
    ],
)
def test_the_engines_words_in_a_refusal_are_said_in_french(
    kind: str, move: Any, english: str, french: str
) -> None:
    exc = _first_refusal(kind, move)
    assert str(exc) == english
    assert refusals.text(exc, "fr") == french
    assert refusals.text(exc, "en") == english


def test_a_move_word_that_is_also_an_action_name_is_said_as_a_verb() -> None:
    # "deliver" and "transport" are Nauticus actions ("Livrer") and move words ("livrer").
    english = "You can't transport now; you can: deliver, pass or end your turn."
    assert refusals.text(IllegalMove("not_now", english), "fr") == (
        "Vous ne pouvez pas transporter maintenant\u202f; vous pouvez\u202f: livrer, "
        "passer ou finir "
        "votre tour."
    )


def test_a_value_the_member_typed_is_quoted_back_as_typed() -> None:
    # 'bow' is a Nauticus word (French "proue"), but here it is what the member typed.
    exc = _first_refusal("nauticus", {"type": "choose_action", "space": "bow"})
    assert refusals.text(exc, "fr") == (
        "La case 'bow' n'existe pas\u202f; vous pouvez choisir\u202f: 0, 1, 2, 3, 4, 5, 6, 7."
    )


def test_a_refusal_built_in_pieces_is_said_whole() -> None:
    # "Space … " + (one of two clauses) + "; …": the clause is a field said by the glossary.
    rules = GAMES.get("nauticus").rules
    state = rules.new_game(2, 3)
    seat = rules.current(state)
    state, _ = rules.apply(state, seat, {"type": "choose_action", "space": 2})
    while rules.current(state) == seat or rules.view(state)["step"] != "choose":
        mover = rules.current(state)
        state, _ = rules.apply(state, mover, rules.legal_moves(state, mover)[-1])
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.current(state), {"type": "choose_action", "space": 2})
    assert str(caught.value).startswith("Space 2 has already been played this round; ")
    assert refusals.text(caught.value, "fr").startswith(
        "La case 2 a déjà été jouée cette manche\u202f; vous pouvez choisir\u202f: "
    )


def test_the_reason_an_engine_picks_before_it_refuses_is_said_too() -> None:
    # engine/duel/rules.py raises "{why}; the moves are: {choices}." with `why` chosen from
    # clauses of its own: those are templates too, and the moves are said with the glossary.
    english = (
        "The 10 cannot be moved by the 8: only another card on side 1 can; the moves are: "
        "14 to side 1 slot 0; 12 to side 1 slot 2."
    )
    assert refusals.text(IllegalMove("not_movable", english), "fr") == (
        "Le 10 ne peut pas être déplacé par le 8\u202f: seule une autre carte du côté 1 le "
        "peut\u202f; "
        "les coups possibles sont\u202f: 14 vers le côté 1 emplacement 0; 12 vers le côté 1 "
        "emplacement 2."
    )


def test_each_games_refusal_words_follow_its_engine() -> None:
    from bot.games.duel import refusal_words as duel_words
    from bot.games.island import refusal_words as island_words
    from bot.games.nauticus import refusal_words as nauticus_words
    from engine.duel.rules import STEP_WORDS
    from engine.island.rules import MOVE_WORDS as ISLAND_MOVES
    from engine.nauticus.rules import MOVE_WORDS as NAUTICUS_MOVES

    assert set(nauticus_words.MOVE_WORDS) == set(NAUTICUS_MOVES)
    assert set(island_words.MOVE_WORDS) == set(ISLAND_MOVES)
    assert set(duel_words.STEP_WORDS) == set(STEP_WORDS)
    # Each table says the engine's English when the context is English.
    for ours, engine in (
        (nauticus_words.MOVE_WORDS, NAUTICUS_MOVES),
        (island_words.MOVE_WORDS, ISLAND_MOVES),
        (duel_words.STEP_WORDS, STEP_WORDS),
    ):
        assert {k: ours[k] for k in engine} == dict(engine)


def test_the_games_say_a_shared_english_word_alike() -> None:
    # The glossary is one for all games; a word two games use must mean the same in both.
    for locale in i18n.TRANSLATED:
        said: dict[str, tuple[str, str]] = {}
        with i18n.use(locale):
            for plugin in GAMES:
                say = getattr(plugin, "refusal_words", None)
                if say is None:  # a game without words of its own (the tests' Gems)
                    continue
                for english, word in say().items():
                    if english in said:
                        assert said[english][1] == word, (english, said[english][0], plugin.kind)
                    said[english] = (plugin.kind, word)
        assert len(said) > 100


def _probe_refusals(kind: str, players: int, steps: int) -> set[str]:
    """The engine's refusals of moves taken from elsewhere in a game, at each of its steps."""
    import random

    rules = GAMES.get(kind).rules
    rng = random.Random(5)
    state = rules.new_game(players, 5)
    pool: list[Any] = []
    found: set[str] = set()
    for _ in range(steps):
        if rules.is_over(state):
            break
        seats = [s for s in range(players) if rules.legal_moves(state, s)]
        seat = rng.choice(seats)
        legal = rules.legal_moves(state, seat)
        pool = (pool + legal[:6])[-200:]
        for move in rng.sample(pool, min(12, len(pool))):
            for other in range(players):
                try:
                    rules.apply(state, other, move)
                except IllegalMove as exc:
                    found.add(str(exc))
        state, _ = rules.apply(state, seat, rng.choice(legal))
    return found


@pytest.mark.parametrize(("kind", "players"), [("nauticus", 3), ("island", 3), ("duel", 2)])
def test_no_engine_word_stays_english_in_a_french_refusal(kind: str, players: int) -> None:
    # Moves that are legal somewhere in the game, tried by every seat at every step: every
    # refusal is matched, and no word of the games' glossary is left in English outside quotes.
    english_words = [w for w, fr in refusals.glossary("fr").items() if w != fr and len(w) > 2]
    left = re.compile(
        "|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in sorted(english_words, key=len)[::-1])
    )
    found = _probe_refusals(kind, players, 80)
    assert len(found) > 20
    for english in found:
        french = refusals.text(IllegalMove("x", english), "fr")
        assert french != english, english
        unquoted = refusals._QUOTED.sub("", french)
        assert left.search(unquoted) is None, (english, french)
