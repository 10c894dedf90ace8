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
        ("island", 5, {"type": "collect"}, "Il n'y a pas de place 5 ; les places vont de 0 à 1."),
        ("duel", 0, {"type": "fly"}, "Type de coup inconnu 'fly' ; les types de coup sont : "),
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
