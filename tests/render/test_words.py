"""The pictures' words in the game's language: render draws English by itself, and the words
the bot installs (render/words.py) when a picture is drawn in a French context."""

from __future__ import annotations

import random

from bot import i18n
from bot.games import GAMES  # installs the catalogue into render.words
from engine.nauticus import apply, legal_moves, new_game, view
from render import words
from render.nauticus import board_pic, scores, shipyard_pic, text


def _texts(canvas_marks: tuple[object, ...]) -> set[str]:
    return {str(getattr(m, "value", "")) for m in canvas_marks if getattr(m, "kind", "") == "text"}


def _finished(seed: int) -> dict[str, object]:
    state = new_game(2, seed)
    rng = random.Random(seed)
    while state.current is not None:
        state, _ = apply(state, state.current, rng.choice(legal_moves(state, state.current)))
    return view(state, None)


def test_without_a_translator_render_speaks_english() -> None:
    assert "nauticus" in GAMES.games
    assert words.w("Seat") == "Seat" and words.wn("{n} worker", "{n} workers", 2) == "2 workers"
    assert words.wc("start player", "Start") == "Start"


def test_the_board_and_shipyard_draw_french_words_in_a_french_context() -> None:
    v = view(new_game(3, 1), None)
    english_board = _texts(board_pic.draw_board(v).marks)
    with i18n.use("fr"):
        french_board = _texts(board_pic.draw_board(v).marks)
        french_yard = _texts(tuple(shipyard_pic.draw_shipyard(v, 0).marks))
        alt = text.board_alt(v)
    assert {"Round", "Start", "blue", "MASTS"} <= english_board
    assert {"Manche", "1er joueur", "bleu", "MÂTS"} <= french_board
    assert not {"Round", "Start", "MASTS"} & french_board
    assert {"Entrepôt", "+1 action"} <= french_yard
    assert alt.startswith("Plateau, manche 1/5, phase 1/7. Premier joueur\u202f: place 1.\n")
    assert alt.endswith("\nPV\u202f: 10 pour la place 1, 10 pour la place 2, 10 pour la place 3.")
    # The cached head of a player's block is kept per language: English again after French.
    assert "Storage" in _texts(tuple(shipyard_pic.draw_shipyard(v, 0).marks))


def test_the_score_sheet_and_its_alt_text_in_french() -> None:
    v = _finished(4)
    with i18n.use("fr"):
        sheet = _texts(scores.draw_scores(v).marks)
        alt = text.scores_alt(v)
    assert {"Décompte final", "Piste de score", "Total PV", "Rang"} <= sheet
    assert alt.startswith("Décompte final.\n1. place ")
    assert text.scores_alt(v).startswith("Final scores.\n1. seat ")


def test_island_and_duel_pictures_and_alt_texts_in_french() -> None:
    from engine import duel, island
    from render.duel import board_pic as duel_board
    from render.duel import text as duel_text
    from render.island import board_pic as island_board
    from render.island import text as island_text

    iv = island.view(island.new_game(3, 2), None)
    dv = duel.view(duel.new_game(2, 2), None)
    english = _texts(island_board.draw_board(iv).marks) | _texts(duel_board.draw_board(dv).marks)
    with i18n.use("fr"):
        french = _texts(island_board.draw_board(iv).marks) | _texts(duel_board.draw_board(dv).marks)
        island_alt = island_text.board_alt(iv)
        duel_alt = duel_text.board_alt(dv)
    assert {"← bow", "stern →", "Camp", "Domain deck", "Seat 1"} <= english
    assert {"← proue", "poupe →", "Campement", "Pioche Domaine", "Place 1"} <= french
    assert not {"← bow", "Camp", "Domain deck", "Seat 1"} & french
    assert island_alt.startswith("Nautilus Island, manche 1, les pions vont au-dessus")
    assert duel_alt.startswith(
        "Plateau du duel Nautilus, manche 1/6\u202f; jeton Nemo\u202f: place "
    )
    assert island_text.board_alt(iv).startswith("Nautilus Island, round 1, pawns go above")


def test_alt_text_clauses_and_labels_take_the_languages_punctuation() -> None:
    from render.text import clauses, labelled

    assert clauses(["a", "", "b", "c"]) == "a; b; c" and clauses([]) == ""
    assert labelled("Food", "ham") == "Food: ham"
    with i18n.use("fr"):
        assert clauses(["a", "b"]) == "a\u202f; b"
        assert labelled("Vivres", "jambon") == "Vivres\u202f: jambon"


def test_the_french_alt_texts_count_their_nouns_and_space_their_punctuation() -> None:
    import json
    from pathlib import Path

    golden = Path(__file__).parent / "golden" / "late_game.view.json"
    v = json.loads(golden.read_text())
    with i18n.use("fr"):
        yard = text.shipyard_alt(v, 0)
        seat2 = text.shipyard_alt(v, 1)
    assert yard.startswith(
        "Chantier naval de la place 1 (cercle rouge)\u202f: 38 PV, 5 ouvriers, 12 thalers, "
        "6 couronnes. Action supplémentaire utilisée. Tuiles «\u202fpasser\u202f» face "
        "visible\u202f: -2, -1 (1 retournée). Premier joueur.\n"
    )
    assert (
        "Navire 1 (4 tuiles), achevé\u202f: 2 mâts Couronne, 2 mâts Baleine, 3 voiles "
        "Couronne, 1 voile Baleine, 1 café, 1 poisson, 1 sel." in yard
    )
    assert "Entrepôt 5/12\u202f: 1 proue, 1 café, 1 mât Baleine, 1 voile Tour." in yard
    assert "4 thalers, 1 couronne." in seat2
    assert "Navire 3 (partie centrale, poupe), inachevé\u202f: 1 mât Gouvernail." in seat2
    assert "2 poissons, 1 céréale, 2 mâts Gouvernail, 1 navire d'une pièce" in seat2


def test_the_island_and_duel_alt_texts_read_as_sentences_in_french() -> None:
    from engine import duel, island
    from render.duel import text as duel_text
    from render.island import text as island_text

    iv = island.view(island.new_game(3, 2), None)
    dv = duel.view(duel.new_game(2, 2), None)
    with i18n.use("fr"):
        island_alt = island_text.board_alt(iv)
        duel_alt = duel_text.board_alt(dv)
    # Each column is a sentence; its stacks are clauses joined by " ; " (narrow no-break space).
    assert "Colonnes de la proue à la poupe. Colonne 0\u202f: " in island_alt
    assert "\u202f; " in island_alt and " ;" not in island_alt.replace("\u202f;", "")
    assert "Campement\u202f: " in island_alt and "Prochains hublots\u202f: " in island_alt
    # The duel's domain cards are spelt out for a screen reader ("★★" reads "black star" twice).
    assert "★" not in duel_alt and "Emplacement 1, " in duel_alt
    assert "les deux côtés vides" in duel_alt
    assert "★" not in duel_text.board_alt(dv) and "both sides empty" in duel_text.board_alt(dv)


def test_the_french_final_scores_alt_texts_name_whose_number_is_whose() -> None:
    from dataclasses import replace

    from engine import duel
    from engine import nauticus as n_engine
    from render.duel import text as duel_text
    from tests.render.duel.samples import game
    from tests.render.states import late_game

    _, end = game()
    v = duel.view(end)
    with i18n.use("fr"):
        alt = duel_text.scores_alt(v)
        nv = n_engine.view(replace(late_game(), step="over", turn=None))
        sheet = text.scores_alt(nv)
    # "place 1 7, place 2 -1" read as one run of numbers; each number now says whose it is.
    for d, word in (("science", "Science"), ("navigation", "Navigation")):
        a, b = (s["totals"][d] for s in v["final"])
        end_words = "égalité" if a == b else f"gagné par la place {1 if a > b else 2}"
        assert f"{word}\u202f: {a} pour la place 1, {b} pour la place 2, {end_words}." in alt
    assert "place 1 7" not in alt
    # "aucune" marchandise, "aucun" navire; the tie-break said as a sentence.
    assert "marchandises 0 (aucune) + navires 0 (aucun)" in sheet
    assert "Départage\u202f: il reste 0 thaler après division par 3." in sheet
