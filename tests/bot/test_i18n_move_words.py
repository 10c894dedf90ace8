"""The move log's lines in the game's language: in English they are the engines' own words,
move for move, and in French the rulebooks' words."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import i18n, move_words
from bot.games import GAMES

MALFORMED: list[Any] = [
    {"type": "nope"},
    {"type": "buy"},
    {"type": "place", "card": 99, "side": 7, "slot": "x"},
    {"type": "store", "category": 3, "objects": None},
    {"type": "move", "column": "far"},
    {"type": "reward", "kind": None},
    {"type": "extra", "action": 5},
    {"type": "crowns", "workers": None},
]


def _games(kind: str, count: int) -> list[tuple[dict[str, Any], Any]]:
    """(move, state it was played on) for every move of `count` random games."""
    rules = GAMES.get(kind).rules
    out = []
    for seed in range(count):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        state = rules.new_game(players, seed)
        rng = random.Random(seed)
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            move = dict(rng.choice(rules.legal_moves(state, seat)))
            out.append((move, state))
            state, _ = rules.apply(state, seat, move)
    return out


@pytest.mark.parametrize("kind", ["nauticus", "island", "duel"])
def test_in_english_every_move_reads_as_the_engine_says_it(kind: str) -> None:
    rules = GAMES.get(kind).rules
    played = _games(kind, 4)
    assert len(played) > 150
    for move, state in played:
        assert move_words.describe(kind, move, state) == rules.describe(move, state)
        assert move_words.describe(kind, move) == rules.describe(move)
    for move in MALFORMED:
        assert move_words.describe(kind, move) == rules.describe(move)


@pytest.mark.parametrize("kind", ["nauticus", "island", "duel"])
def test_in_french_no_move_reads_as_in_english(kind: str) -> None:
    rules = GAMES.get(kind).rules
    for move, state in _games(kind, 2):
        with i18n.use("fr"):
            french = move_words.describe(kind, move, state)
        assert french != rules.describe(move, state), french


def test_french_lines_use_the_rulebooks_words() -> None:
    nauticus = GAMES.get("nauticus").rules
    state = nauticus.new_game(3, 1)
    island = GAMES.get("island").rules
    duel = GAMES.get("duel").rules
    with i18n.use("fr"):
        assert move_words.describe("nauticus", {"type": "choose_action", "space": 2}, state) == (
            "a choisi Transport sur la case 2 (bonus 1 voile, 2 ouvriers bleus)"
        )
        assert move_words.describe(
            "nauticus", {"type": "buy", "item": "mast_helm", "to": {"ship": 0, "end": "back"}}
        ) == ("a acheté un mât Gouvernail → navire n°1 (arrière)")
        assert move_words.describe("nauticus", {"type": "money", "workers": 3}) == (
            "a pris de l'argent\u202f: 3 ouvriers → 6 thalers"
        )
        assert (
            move_words.describe(
                "island", {"type": "store", "category": "food", "objects": {"ham": 2, "bread": 1}}
            )
            == "a stocké 3 cartes vivres (pain, jambon ×2)"
        )
        assert move_words.describe("island", {"type": "idle"}) == (
            "n'a rien fait ce tour-ci (colonne vide et rien à stocker)"
        )
        assert (
            move_words.describe(
                "duel", {"type": "place", "card": 15, "side": 1, "slot": 2, "anchor": 0}
            )
            == "a posé le kraken du côté de la place 2, emplacement 3, avec l'ancre sur l'arête"
        )
    assert island.describe({"type": "idle"}).startswith("did nothing")
    assert duel.describe({"type": "eye"}) == "played the eye and looked at the opponent's divers"
