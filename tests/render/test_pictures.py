"""Pictures of real and extreme states: size rules, completeness against the view, options."""

from __future__ import annotations

import copy
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import render
from engine import nauticus
from render.nauticus import board, score_sheet, shipyard, shipyards
from tests.render import expect
from tests.render.states import extreme_state, late_game, playout, snapshots


class Pictures:
    """Every picture of one view, rendered once for all the checks."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.board = board(view)
        self.together = shipyards(view)
        self.each = [shipyard(view, s) for s in range(view["players_count"])]
        self.sheet = score_sheet(view) if view["final"] is not None else None

    def all(self) -> list[render.Picture]:
        extra = [self.sheet] if self.sheet is not None else []
        return [self.board, *self.together, *self.each, *extra]

    def mismatches(self) -> list[str]:
        """Size rules for all (asserted), then the pictures that do not show exactly what the
        view says: [] when every one does."""
        view = self.view
        for pic in self.all():
            expect.check_rules(pic)
        wrong = []
        if expect.drawn(self.board) != expect.board_marks(view):
            wrong.append("board")
        for seat, pic in enumerate(self.each):
            if expect.drawn(pic) != expect.shipyard_marks(view, seat):
                wrong.append(f"shipyard of seat {seat + 1}")
        together = sum((expect.drawn(p) for p in self.together), start=expect.Counter())
        want = sum(
            (expect.shipyard_marks(view, s) for s in range(view["players_count"])),
            start=expect.Counter(),
        )
        if together != want:
            wrong.append("shipyards together")
        if self.sheet is not None and expect.drawn(self.sheet) != expect.scores_marks(view):
            wrong.append("score sheet")
        return wrong


def _all_pictures(view: dict) -> list[render.Picture]:
    return Pictures(view).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_state_pictures_follow_the_size_rules_and_show_everything(players: int) -> None:
    view = nauticus.view(nauticus.new_game(players=players, seed=players))
    assert Pictures(view).mismatches() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playout_states_render_within_the_rules(players: int) -> None:
    seen = 0
    for state in snapshots(players, seed=players, every=60):
        view = nauticus.view(state)
        assert Pictures(view).mismatches() == []
        seen += 1
    assert view["step"] == "over"
    assert seen >= 4


def test_late_game_pictures_show_everything_each_player_owns() -> None:
    view = nauticus.view(late_game())
    assert Pictures(view).mismatches() == []


@pytest.mark.parametrize("players", [2, 4])
def test_extreme_states_render_within_the_rules(players: int) -> None:
    # 12 four-tile ships (one with crown masts and sails), full storage, 30 delivered coffee,
    # 250 taler, a score of -40 and every supply empty, for every player at once.
    state = replace(extreme_state(players), step="over", turn=None)
    view = nauticus.view(state)
    p = view["players"][0]
    assert len(p["ships"]) == 12 and p["storage"]["used"] == 12
    assert p["delivered"]["coffee"] == 30 and p["taler"] == 250 and p["score"] == -40
    assert set(view["supply"].values()) == {0}
    assert [t["mast"] for t in p["ships"][0]["tiles"]] == ["crown"] * 4
    assert Pictures(view).mismatches() == []
    texts = {m.value for m in shipyard(view, 0).drawn if m.is_text}
    assert {"−40", "250", "30", "12/12", "#12"} <= texts


def test_a_missing_tile_breaks_completeness() -> None:
    # The completeness check itself must notice a picture that leaves something out.
    view = nauticus.view(late_game())
    fewer = copy.deepcopy(view)
    fewer["players"][1]["ships"].pop(1)  # the lone one-ship #2
    assert expect.drawn(shipyard(fewer, 1)) != expect.shipyard_marks(view, 1)


def test_combined_shipyards_when_they_fit_else_one_per_player() -> None:
    two = nauticus.view(nauticus.new_game(players=2, seed=1))
    pics = shipyards(two)
    assert len(pics) == 1 and pics[0].filename == "shipyards.png"
    late = nauticus.view(late_game())
    pics = shipyards(late)
    assert [p.filename for p in pics] == [f"shipyard-seat{s}.png" for s in (1, 2, 3, 4)]


def test_rendering_leaves_the_view_unchanged() -> None:
    view = nauticus.view(late_game())
    before = copy.deepcopy(view)
    _all_pictures(view)
    assert view == before


def test_webp_option_encodes_webp() -> None:
    view = nauticus.view(late_game())
    pic = board(view, fmt="webp")
    assert pic.filename.endswith(".webp")
    im = Image.open(io.BytesIO(pic.data))
    assert im.format == "WEBP" and im.size == (pic.width, pic.height)
    expect.check_rules(pic)


def test_score_sheet_needs_a_finished_game_and_shipyard_a_real_seat() -> None:
    view = nauticus.view(nauticus.new_game(players=3, seed=1))
    with pytest.raises(ValueError, match="finished game"):
        score_sheet(view)
    with pytest.raises(IndexError):
        shipyard(view, 3)


def test_alt_text_names_what_the_pictures_show() -> None:
    # The stored view of the golden tests: its spaces do not move with the engine's shuffles.
    golden = Path(__file__).parent / "golden" / "late_game.view.json"
    view = json.loads(golden.read_text())
    alt = board(view).alt_text
    assert "Space 0 (+3 workers): Goods — coffee 2, grain 3, fish 0, salt 1." in alt
    # A turned-over space's bonus can't be had again this round: only its action is said.
    assert "Space 1: Hulls, flipped." in alt
    assert "Space 7 (wheel's anchor, anchor tile): Deliver, flipped." in alt
    # The blue workers in one sentence, grouped by their number (space 7 has none).
    assert (
        "Blue workers: spaces 2 and 5 have 3; spaces 1, 4 and 6 have 2; spaces 0 and 3 have 1."
        in alt
    )
    assert (
        "Supply: bow 10, middle 0, stern 9, one-ship 12, coffee 10, grain 11, fish 10, salt 10.\n"
        in alt
    )
    assert "Masts and sails: Whale 7 and 12, Anchor ship 10 and 9, Helm 13 and 11," in alt
    assert alt.endswith("\nVP: 38 for seat 1, 27 for seat 2, -4 for seat 3, 19 for seat 4.")
    yard = shipyard(view, 0).alt_text
    # Every count agrees with its noun, one sentence a ship.
    assert yard.startswith(
        "Shipyard of seat 1 (red circle): 38 VP, 5 workers, 12 taler, 6 crowns. Extra action "
        "used. Pass tiles face up: -2, -1 (1 flipped). Start player.\n"
    )
    assert (
        "Ship 1 (4 tiles), finished: 2 Crown masts, 2 Whale masts, 3 Crown sails, 1 Whale "
        "sail, 1 coffee, 1 fish, 1 salt." in yard
    )
    assert "Ship 3 (2 tiles), unfinished: 1 Tower mast, 1 fish, 1 grain." in yard
    # An open hull is spelled out tile by tile: seat 2's ship #3 lacks its bow.
    seat2 = shipyard(view, 1).alt_text
    assert "Ship 3 (middle, stern), unfinished: 1 Helm mast." in seat2
    assert "27 VP, 2 workers, 4 taler, 1 crown. Extra action ready." in seat2
    assert "Storage 5/12: 1 bow, 1 coffee, 1 Whale mast, 1 Tower sail." in yard
    over = nauticus.view(playout(3, 4))
    sheet = score_sheet(over).alt_text
    winner = min(over["final"], key=lambda s: s["rank"])
    assert f"1. seat {winner['seat'] + 1}" in sheet and f"{winner['vp']} VP" in sheet


def test_board_alt_text_fits_a_discord_attachment_description_uncut() -> None:
    for state in (nauticus.new_game(players=4, seed=1), late_game(), extreme_state(4)):
        alt = board(nauticus.view(state)).alt_text
        assert len(alt) <= 1024 and not alt.endswith("…")


def test_a_too_long_summary_is_cut_at_a_clause_with_an_ellipsis() -> None:
    from render.text import fit

    text = "; ".join(f"#{k} 4-tile, finished" for k in range(1, 80))
    cut = fit(text)
    assert len(cut) <= 1024 and cut.endswith("finished…")
    assert text.startswith(cut[:-1])
    assert fit("short") == "short"


def test_every_character_drawn_is_a_glyph_of_the_bundled_font() -> None:
    # A character the font lacks renders as its "missing" box, the same as a private-use one.
    from render.canvas import _text_mask

    def ink(ch: str) -> bytes:
        return _text_mask(ch, 24)[0].tobytes()

    missing = ink("\ue000")
    view = nauticus.view(late_game())
    over = nauticus.view(playout(4, 3))
    pics = [*_all_pictures(view), score_sheet(over)]
    chars = {ch for p in pics for m in p.drawn if m.is_text for ch in m.value if not ch.isspace()}
    assert {"−", "→", "÷", "✗", "#"} <= chars
    for ch in chars:
        assert ink(ch) != missing, ch
