"""Nauticus in French: the words of the French rulebook in every text the plugin writes, the
English unchanged, and French names understood when a player types them."""

from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.games.nauticus import moves_map, words
from bot.games.nauticus import texts as nt
from engine.nauticus import RULES, State, apply, legal_moves, new_game
from tests.bot.nauticus_kit import PLUGIN, seen_of


def _played(seed: int, moves: int) -> State:
    state = new_game(3, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        assert state.current is not None
        state, _ = apply(state, state.current, rng.choice(legal_moves(state, state.current)))
    return state


def test_the_words_follow_the_rulebook() -> None:
    with i18n.use("fr"):
        assert words.item_label("mast_helm") == "mât Gouvernail"
        assert words.item_label("sail_anchor_ship") == "voile Bateau à ancre"
        assert words.item_label("bow") == "proue" and words.item_label("stern") == "poupe"
        assert words.item_label("grain") == "céréales"
        assert words.action_label("deliver") == "Livrer"
        assert words.reward_name("crown_mast") == "Mât de la Couronne"
        assert words.reward_name("taler") == "7 thalers"
        assert words.counted(1, "worker") == "1 ouvrier"
        assert words.counted(3, "blue worker") == "3 ouvriers bleus"
    # English is the engine's own wording, word for word.
    assert words.item_label("mast_helm") == "Helm mast"
    assert words.reward_name("taler") == "7 taler"


def test_the_start_players_ping_and_the_status_in_french() -> None:
    state = new_game(3, 5)
    names = ["Ana", "Ben", "Cleo"]
    with i18n.use("fr"):
        ping = nt.turn_ping(state, names, 42)
        status = nt.status_line(state, names)
    assert ping == (
        "Manche 1/5 · Phase 1/7 — 🔴 <@42>, vous êtes premier joueur\u202f: choisir une action "
        "(le premier joueur reçoit le bonus de la case)."
    )
    assert status == (
        "Manche 1/5 · Phase 1/7 · 🔴 Ana (place 1) doit choisir une action (le premier joueur "
        "reçoit le bonus de la case)."
    )
    assert nt.status_line(state, names).startswith("Round 1/5 · Phase 1/7 · 🔴 Ana (seat 1) must")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_panels_posts_and_hands_of_a_game_in_progress_say_no_english_word(seed: int) -> None:
    # Thirty moves into a game: every kind of label the panel shows, the hand and the status.
    english = ("taler ", "worker", "storage", "Buy ", "ship #", " VP", "Round ", "Your ")
    state = _played(seed, 30)
    seat = state.current
    assert seat is not None
    with i18n.use("fr"):
        mine = seen_of(state, seat)
        texts = [
            PLUGIN.panel_header(mine),
            PLUGIN.hand_text(mine),
            PLUGIN.status_line(seen_of(state, None)),
        ]
        for move in mine.legal:
            key = PLUGIN.group_key(dict(move))
            texts.append(PLUGIN.group_label(mine, key, [dict(move)]))
    for text in texts:
        assert not [w for w in english if w in text], text
    assert "thalers" in texts[0] and "entrepôt" in texts[0] and "PV" in texts[0]
    assert texts[1].startswith(f"**Votre chantier naval** (place {seat + 1})")


def test_a_whole_phase_summary_and_the_final_result_in_french() -> None:
    state = new_game(2, 11)
    rng = random.Random(11)
    while state.current is not None:
        state, _ = apply(state, state.current, rng.choice(legal_moves(state, state.current)))
    with i18n.use("fr"):
        final = nt.final_result(state, ["Ana", "Ben"])
    assert final.startswith("**Partie terminée\u202f!**\n🏆 ")
    assert " PV (piste " in final and "thalers)" in final
    assert "Places\u202f: 🔴 place 1 = cercle rouge\u202f: Ana" in final
    assert nt.final_result(state, ["Ana", "Ben"]).startswith("**Game over!**")
    assert RULES.is_over(state)


def test_a_confirmation_in_french() -> None:
    state = _played(4, 0)
    # The start player chooses, then passes: the pass after taking the bonus needs a yes.
    for _ in range(200):
        seat = state.current
        assert seat is not None
        passes = [m for m in legal_moves(state, seat) if m["type"] == "pass"]
        if passes and seat == state.start:
            with i18n.use("fr"):
                reason = nt.confirmation_needed(state, seat, passes[0])
            assert reason is not None and reason.startswith("Vous avez choisi ")
            assert reason.endswith("(les autres le peuvent encore).")
            return
        state, _ = apply(state, seat, legal_moves(state, seat)[0])
    raise AssertionError("no start player's pass came up")


def test_french_names_typed_by_a_player_are_understood_and_bad_ones_refused_in_french() -> None:
    move = moves_map.from_call("buy", {"item": "mât Gouvernail", "to": "storage"})
    assert move == {"type": "buy", "item": "mast_helm", "to": "storage"}
    extra = moves_map.from_call("extra", {"action": "Livrer"})
    assert extra == {"type": "extra", "action": "deliver"}
    # Accents and case do not count: a keyboard without "â" still buys the Helm mast.
    move = moves_map.from_call("buy", {"item": "MAT gouvernail", "to": "storage"})
    assert move == {"type": "buy", "item": "mast_helm", "to": "storage"}
    with i18n.use("fr"), pytest.raises(moves_map.BadOption) as refused:
        moves_map.from_call("buy", {"item": "licorne", "to": "storage"})
    assert str(refused.value) == (
        "'licorne' n'est pas une tuile\u202f; choisissez-en une dans la liste."
    )


def test_goods_rewards_and_actions_typed_in_french_and_listed_in_french() -> None:
    assert moves_map.parse_goods("poisson + Sel") == ["fish", "salt"]
    assert moves_map.parse_goods("cereales,café") == ["grain", "coffee"]
    assert moves_map.from_call(
        "reward", {"kind": "2 marchandises différentes", "goods": "sel"}
    ) == {
        "type": "reward",
        "kind": "goods",
        "goods": ["salt"],
    }
    with i18n.use("fr"):
        with pytest.raises(moves_map.BadOption) as goods:
            moves_map.from_call("reward", {"kind": "goods", "goods": "or+argent"})
        with pytest.raises(moves_map.BadOption) as action:
            moves_map.from_call("extra", {"action": "voler"})
    assert str(goods.value) == (
        "'or+argent' n'est pas un choix de marchandises\u202f; écrivez deux sortes comme "
        "poisson+sel "
        "(sortes\u202f: café, céréales, poisson, sel)."
    )
    assert str(action.value) == (
        "'voler' n'est pas une action\u202f; les actions sont\u202f: Coques, Mâts, Voiles, "
        "Marchandises, "
        "Transport, Argent, Livrer, Couronnes."
    )
