"""Nautilus Island pictures of real states: size rules, completeness against the view, secrecy."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from engine import island
from engine.island.state import State
from render.island import areas, board, hand, score_sheet
from render.island import text as island_text
from tests.engine.island.walk import playout
from tests.render.expect import check_rules
from tests.render.island import expect
from tests.sweep import sweep


def snapshots(players: int, seed: int, every: int) -> list[State]:
    out = [island.new_game(players, seed)]
    for i, (_, _, after, _) in enumerate(playout(players, seed)):
        if i % every == 0 or island.is_over(after):
            out.append(after)
    return out


def check_all(state: State) -> None:
    public = island.view(state)
    pic = board(public)
    check_rules(pic)
    assert expect.drawn(pic) == expect.board_marks(public)
    pics = areas(public)
    seats = [m.key.split(".")[0] for p in pics for m in p.drawn if m.key.endswith(".name")]
    assert seats == [f"p{s}" for s in range(len(state.players))]
    for p in pics:
        check_rules(p)
    together = sum((expect.drawn(p) for p in pics), start=Counter())
    want = sum(
        (expect.area_marks(public, s) for s in range(len(state.players))),
        start=Counter(),
    )
    assert together == want
    for seat in range(len(state.players)):
        own = island.view(state, seat)
        h = hand(own)
        check_rules(h)
        assert expect.drawn(h) == expect.hand_marks(own)
        # The public pictures drawn from a seat's own view are exactly the public ones: nothing
        # of that seat's hand reaches them.
        assert board(own).data == pic.data and board(own).alt_text == pic.alt_text
        assert [p.data for p in areas(own)] == [p.data for p in pics]
    if public["final"] is not None:
        sheet = score_sheet(public)
        check_rules(sheet)
        keys = Counter(m.key for m in sheet.drawn if m.key != "label")
        assert keys == expect.score_keys(public)
        for sc in public["final"]:
            vp = [m.value for m in sheet.drawn if m.key == f"p{sc['seat']}.final.vp"]
            assert vp == [str(sc["vp"])]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_of_random_playout_states_follow_the_rules_and_show_the_view(
    players: int,
) -> None:
    for seed in range(sweep(2, 3)):  # whole games, 2 a player count (3 with FULL_SWEEP=1)
        states = snapshots(players, 300 + seed, every=17)
        assert island.is_over(states[-1])
        for state in states:
            check_all(state)


def test_no_hidden_card_reaches_a_public_picture() -> None:
    # Every object name drawn on the board is a face-up top card; in the areas, a stored card.
    for state in snapshots(4, 77, every=9):
        v = island.view(state)
        tops = Counter(st["top"]["object"] for c in v["columns"] for st in c["stacks"] if st["top"])
        drawn = Counter(
            m.value
            for m in board(v).drawn
            if m.key.startswith("stack.") and m.key.endswith(".top") and m.is_text
        )
        assert drawn == tops
        hidden = {
            c["object"]
            for s in range(len(state.players))
            for c in island.view(state, s)["players"][s]["hand"]
        }
        stored = {
            c["object"] for p in v["players"] for col in p["collections"] for c in col["cards"]
        }
        for pic in areas(v):
            objs = {m.value.split(" ×")[0] for m in pic.drawn if m.key.endswith(".cards")}
            assert objs <= stored
            assert not (objs - stored) & hidden


def test_pictures_are_built_from_the_view_only() -> None:
    state = snapshots(3, 5, every=40)[2]
    v = island.view(state, 1)
    again = json.loads(json.dumps(v))
    assert board(again).data == board(v).data
    assert hand(again).alt_text == hand(v).alt_text
    # A changed view changes the picture: the renderer reads nothing else.
    fake: dict[str, Any] = copy.deepcopy(v)
    top = next(st for c in fake["columns"] for st in c["stacks"] if st["top"])
    top["top"]["object"] = "boots" if top["top"]["object"] != "boots" else "hat"
    assert expect.drawn(board(fake)) == expect.board_marks(fake)
    assert board(fake).alt_text != board(v).alt_text
    before = copy.deepcopy(v)
    board(v), areas(v), hand(v)
    assert v == before  # rendering leaves the view unchanged


def test_hand_needs_an_own_view_and_score_sheet_a_finished_game() -> None:
    v = island.view(island.new_game(3, 1))
    with pytest.raises(ValueError, match="own view"):
        hand(v)
    with pytest.raises(ValueError, match="finished game"):
        score_sheet(v)
    empty = hand(island.view(island.new_game(3, 1), 0))
    assert ("hand.empty", "No cards in hand") in expect.drawn(empty)


def test_alt_texts_say_what_the_pictures_show() -> None:
    state = snapshots(4, 8, every=25)[3]
    v = island.view(state)
    alt = board(v).alt_text
    assert alt.startswith(f"Nautilus Island, round {v['round']}")
    for col in v["columns"]:
        assert f"{col['index']}: " in alt
    for sp in v["camp"]:
        assert sp["category"] in alt
    assert f"{v['reserve']} face-down token" in alt
    for p in areas(v):
        assert p.alt_text.startswith("Players' collections.")
        assert len(p.alt_text) <= 1024
    own = island.view(state, 2)
    assert hand(own).alt_text.startswith(
        f"Your hand, seat 3 (green triangle): {len(own['players'][2]['hand'])} card"
    )
    over = island.view(snapshots(2, 9, every=1000)[-1])
    sheet = score_sheet(over).alt_text
    winner = min(over["final"], key=lambda s: s["rank"])
    assert f"1. seat {winner['seat'] + 1}: {winner['vp']} VP" in sheet


def test_board_alt_text_is_never_cut() -> None:
    for players in (2, 3, 4):
        for state in snapshots(players, 11, every=30):
            alt = board(island.view(state)).alt_text
            assert len(alt) <= 1024 and not alt.endswith("…")


def test_the_french_board_alt_text_is_never_cut_either() -> None:
    # French runs longer: stacks alike are said once ("2 piles de 5 cartes face cachée") so
    # that the whole board still fits Discord's 1,024 characters.
    from bot import i18n
    from bot.games import GAMES  # installs the catalogue into render.words

    assert "island" in GAMES.games
    with i18n.use("fr"):
        for players in (3, 4):
            for state in snapshots(players, 4, every=9):
                alt = island_text.board_alt(island.view(state))
                assert len(alt) <= 1024, len(alt)
                assert alt.startswith("Nautilus Island, manche ")


def test_a_pawn_cell_keeps_an_eight_letter_name_whole_with_six_columns() -> None:
    # The name sits under the badge across the cell: "Benjamin" and "Jean-Paul" (8-9 letters)
    # were cut to "Benj…" beside the badge; a longer name is still cut with '…'.
    names = ("Benjamin", "Maximilien-Alexandre", "Dmitri", "Ana")
    state = next(s for s in snapshots(4, 2, 10) if all(p.pawn.side for p in s.players))
    public = island.view(state)
    assert len(public["columns"]) == 6
    pic = board(public, names=names)
    check_rules(pic)
    drawn = {m.key: m.value for m in pic.drawn if m.key.endswith(".name")}
    assert drawn["pawn.0.name"] == "Benjamin"
    assert drawn["pawn.2.name"] == "Dmitri" and drawn["pawn.3.name"] == "Ana"
    cut = drawn["pawn.1.name"]
    # At least six wide letters and the '…' ("Maximi…"; beside the badge it was "Max…").
    assert cut.endswith("…") and "Maximilien-Alexandre".startswith(cut[:-1]) and len(cut) >= 7
