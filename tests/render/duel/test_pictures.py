"""Duel pictures of many seeded states: size rules, marks that match the view, no secret drawn."""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import render
from engine import duel
from render.duel import board, hand, score_sheet
from render.duel.text import board_alt
from tests.render import expect as shared
from tests.render.duel import expect
from tests.sweep import sweep

ROOT = Path(__file__).parents[3]


def drawn(pic: render.Picture, *, lines: bool = False) -> Counter[tuple[str, str]]:
    """The marks of a picture, decoration left out; info lines counted by key only."""
    out: Counter[tuple[str, str]] = Counter()
    for m in pic.drawn:
        if m.key in ("label", "status", "title", "result", "tiebreak", "special.name"):
            continue
        if m.key.startswith("info."):
            out[(m.key, "line")] += 1
        elif m.key.startswith(("won.", "row.")) and m.key.endswith(".name"):
            continue
        else:
            out[(m.key, m.value)] += 1
    return out


@cache
def states() -> tuple[duel.State, ...]:
    """Every 7th state of 8 seeded games (12 with FULL_SWEEP=1; all steps either way, see the
    next test), plus each game's end."""
    out: list[duel.State] = []
    for seed in range(sweep(8, 12)):
        rng = random.Random(seed)
        state = duel.new_game(2, 500 + seed)
        i = 0
        while not duel.is_over(state):
            if i % 7 == 0 or state.step in ("dive", "harpoon", "arrow", "eye"):
                out.append(state)
            seat = state.turn
            state, _ = duel.apply(state, seat, rng.choice(duel.legal_moves(state, seat)))
            i += 1
        out.append(state)
    return tuple(out)


def test_states_cover_every_step() -> None:
    assert {s.step for s in states()} == {
        "keep",
        "eye",
        "dive",
        "harpoon",
        "place",
        "arrow",
        "over",
    }


def test_board_pictures_follow_the_rules_and_show_the_view() -> None:
    for state in states()[::2]:
        for seat in (None, 0, 1):
            view = duel.view(state, seat)
            pic = board(view)
            shared.check_rules(pic)
            assert drawn(pic) == expect.board_marks(view)


def test_hand_pictures_follow_the_rules_and_show_the_view() -> None:
    for state in states()[::2]:
        for seat in (0, 1):
            view = duel.view(state, seat)
            pic = hand(view)
            shared.check_rules(pic)
            assert drawn(pic) == expect.hand_marks(view)


def test_score_sheets_follow_the_rules_and_show_the_view() -> None:
    finals = [s for s in states() if duel.is_over(s)]
    tiebreaks = set()
    for state in finals:
        view = duel.view(state)
        pic = score_sheet(view)
        shared.check_rules(pic)
        assert drawn(pic) == expect.scores_marks(view)
        tiebreaks.add(view["final"][0]["tiebreak"])
    assert "domains" in tiebreaks


def test_board_draws_no_secret_the_public_picture_is_the_same_for_every_viewer() -> None:
    # The board draws only public parts: from any seat's view it shows what the public view shows
    # (apart from which side is at the bottom), and its alt text is the same.
    for state in states()[::3]:
        public = board(duel.view(state))
        for seat in (0, 1):
            pic = board(duel.view(state, seat))
            assert drawn(pic) == drawn(public)
            assert pic.alt_text == public.alt_text
            assert not any(m.key.startswith(("diver.", "info.", "won.")) for m in pic.drawn)


def test_pictures_take_only_the_view_and_refuse_the_wrong_one() -> None:
    state = states()[5]
    with pytest.raises(ValueError):
        hand(duel.view(state))
    with pytest.raises(ValueError):
        score_sheet(duel.view(state))
    view: dict[str, Any] = duel.view(state)
    assert board_alt(view).startswith("Nautilus duel board, round")


def test_samples_are_saved() -> None:
    for name in ("board", "hand", "scores"):
        data = (ROOT / "docs" / "img" / f"duel-{name}.png").read_bytes()
        assert data[:4] == b"\x89PNG" and len(data) < 1_000_000


def test_render_duel_imports_only_pillow_the_standard_library_and_render() -> None:
    # Pictures take only the view: render/duel never imports the engine, and opens no file.
    import ast

    allowed = {"PIL", "render", "__future__", "collections", "math", "functools", "typing"}
    for path in (ROOT / "render" / "duel").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module.split(".")[0])
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "open", path.name
        assert names <= allowed, (path.name, names - allowed)


def test_the_board_alt_text_says_every_round_and_fits_discord() -> None:
    end = next(s for s in states() if duel.is_over(s))
    view = duel.view(end)
    alt = board_alt(view)
    assert len(alt) <= 1024 and not alt.endswith("…")
    # Oldest first: rounds told by their counts only ("Rounds 1 to 3, … 3 to 2, …"), then the
    # rounds told card by card; the last round's winners are in the slots ("won by seat 1").
    summary = re.search(r"Rounds? (\d)(?: (?:to|and) (\d))?, cards won, seat 1 against seat 2", alt)
    counted = range(int(summary[1]), int(summary[2] or summary[1]) + 1) if summary else range(0)
    detailed = [int(n) for n in re.findall(r"Round (\d): ", alt)]
    assert [*counted, *detailed] == list(range(1, view["round"]))
    assert alt.count(", won by seat ") == 5
    assert "★" not in alt and "Slot 1, " in alt


def test_a_special_under_its_card_is_named_in_the_games_language() -> None:
    """The fishbone and the kraken carry their name under the card: on a French board the
    catalogue's word ("arête"), never the engine's id (it drew "fishbone" before)."""
    from bot import i18n
    from bot.games import GAMES  # installs the catalogue into render.words

    assert "duel" in GAMES.games
    # The games' ends: every slot is filled, so each special placed shows its name (drawing
    # all 178 sampled states twice cost 4 s of the suite for the same words).
    ends = [state for state in states() if duel.is_over(state)]
    words: dict[str, Counter[str]] = {}
    for locale in ("en", "fr"):
        with i18n.use(locale):
            words[locale] = Counter(
                m.value
                for state in ends
                for m in board(duel.view(state)).drawn
                if m.is_text and m.key.startswith("space.") and m.key.endswith(".name")
            )
    assert words["en"]["fishbone"] > 0  # one of the 8 games ends with it placed
    assert words["fr"]["arête"] == words["en"]["fishbone"]
    assert words["fr"]["kraken"] == words["en"]["kraken"] > 0
    assert "fishbone" not in words["fr"]
