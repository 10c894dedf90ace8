"""Pictures say who is who and what changed since the previous post (issue 23 item 4).

Names: every picture that shows a seat draws its short name (what the bundled font can draw,
cut to the room with '…', the seat number when nothing is left) under a `.name` mark.
Changes: given the view the previous post was drawn from, the numbers that moved carry a
'+N' (`.gain` marks), new tiles and cards are framed (`.new` areas) and the duel's arrow move is
drawn (`moved.<card>` area). All is checked through the marks each picture records, against
what the two views say.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import render.duel as D
import render.island as I
import render.nauticus as N
from engine import duel, island, nauticus
from engine.duel.events import ArrowMoved
from render import Picture
from render.canvas import font
from render.seats import drawable, short_name
from tests.engine.island.walk import playout as island_playout
from tests.render.expect import check_rules
from tests.render.states import _weight

NAMES = ("Ana", "Benjamin-Olivier de la Tour", "🐙🐙", "李 Dmitri")


def _names(pic: Picture, suffix: str = ".name") -> dict[str, str]:
    return {m.key: m.value for m in pic.drawn if m.key.endswith(suffix)}


def _keys(pic: Picture, suffix: str) -> Counter[str]:
    return Counter(m.key for m in pic.drawn if m.key.endswith(suffix))


# --- short names ------------------------------------------------------------------------------


def test_a_short_name_keeps_what_the_font_draws_and_what_fits() -> None:
    assert drawable("李 Dmitri") == "Dmitri"  # DejaVu has no CJK
    assert drawable("Cléo 🐙  Ñ") == "Cléo Ñ"  # accents kept, emoji left out, spaces made one
    assert short_name(NAMES, 0, 24, 200) == "Ana"
    assert short_name(NAMES, 2, 24, 200) == "3"  # only emoji: the seat number
    assert short_name(NAMES, 3, 24, 200) == "Dmitri"
    assert short_name((), 1, 24, 200) == "2"  # no names given
    cut = short_name(NAMES, 1, 24, 120)
    assert cut.endswith("…") and "Benjamin-Olivier".startswith(cut[:-1])
    one_more = drawable(NAMES[1])[: len(cut)] + "…"
    assert font(24).getlength(cut) <= 120 < font(24).getlength(one_more)
    assert short_name(NAMES, 1, 24, 10) == "2"  # not even one letter fits


def _expected(seat: int) -> set[str]:
    # Whatever the room, the picture draws a prefix of the drawable name or the seat number.
    name = drawable(NAMES[seat])
    return {name, str(seat + 1)} | {name[:k] + "…" for k in range(1, len(name))}


def _check_names(pic: Picture, seats: range, prefix: str) -> None:
    check_rules(pic)
    got = _names(pic)
    for seat in seats:
        key = prefix.format(seat=seat)
        assert got[key] in _expected(seat), (key, got[key])
    # The longest name is cut, never drawn whole past its room.
    assert all(v != NAMES[1] for v in got.values())


def test_nauticus_pictures_name_every_seat() -> None:
    v = nauticus.view(nauticus.new_game(players=4, seed=3))
    board = N.board(v, names=NAMES)
    _check_names(board, range(4), "player.{seat}.name")
    assert _names(board)["player.0.name"] == "Ana"
    assert _names(board)["player.3.name"] == "Dmitri"
    assert _names(board)["player.2.name"] == "3"
    for pic in N.shipyards(v, names=NAMES):
        _check_names(pic, range(0), "")
    yards = [N.shipyard(v, s, names=NAMES) for s in range(4)]
    for s, pic in enumerate(yards):
        _check_names(pic, range(s, s + 1), "p{seat}.name")


def test_score_sheets_name_every_seat() -> None:
    state = island.new_game(3, 4)
    for _, _, after, _ in island_playout(3, 4):
        state = after
    sheet = I.score_sheet(island.view(state), names=NAMES)
    _check_names(sheet, range(3), "p{seat}.name")
    assert _names(sheet)["p0.name"] == "Ana"
    d = _finished_duel()
    sheet = D.score_sheet(duel.view(d), names=NAMES[:2])
    _check_names(sheet, range(2), "p{seat}.name")
    result = next(m.value for m in sheet.drawn if m.key == "result")
    winner = next(s["seat"] for s in duel.view(d)["final"] if s["rank"] == 1)
    assert result.startswith(short_name(NAMES, winner, 24, 300)) or "Shared" in result


def test_island_and_duel_boards_and_hands_name_the_seats() -> None:
    state = island.new_game(4, 2)
    for i, (_, _, after, _) in enumerate(island_playout(4, 2)):
        state = after
        if i == 30:
            break
    public = island.view(state)
    board = I.board(public, names=NAMES)
    _check_names(board, range(4), "pawn.{seat}.name")
    for pic in I.areas(public, names=NAMES):
        check_rules(pic)
    areas = {k: v for pic in I.areas(public, names=NAMES) for k, v in _names(pic).items()}
    assert areas["p0.name"] == "Ana" and areas["p2.name"] == "3"
    seat = state.current
    assert seat is not None
    hand = I.hand(island.view(state, seat), names=NAMES)
    title = next(m.value for m in hand.drawn if m.key == "hand.title")
    assert title in _expected(seat)
    d = duel.new_game(2, 9)
    dv = duel.view(d)
    dboard = D.board(dv, names=NAMES[:2])
    _check_names(dboard, range(2), "seat.{seat}.name")
    assert _names(dboard)["nemo.name"] in _expected(dv["first"])
    dhand = D.hand(duel.view(d, 1), names=NAMES[:2])
    assert next(m.value for m in dhand.drawn if m.key == "title").startswith("Benjamin")


# --- what changed -----------------------------------------------------------------------------


def _nauticus_phases(players: int, seed: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(view at one phase post, view at the next): the pairs a game's posts are drawn from."""
    rng = random.Random(seed)
    state = nauticus.new_game(players=players, seed=seed)
    last = nauticus.view(state)
    while state.step != "over":
        seat = state.current
        assert seat is not None
        legal = nauticus.legal_moves(state, seat)
        unit = (state.round, state.phase)
        state, _ = nauticus.apply(state, seat, rng.choices(legal, [_weight(m) for m in legal])[0])
        if (state.round, state.phase) != unit and state.step != "over":
            now = nauticus.view(state)
            yield last, now
            last = now


def test_nauticus_marks_the_vp_taler_and_tiles_that_changed_since_the_previous_post() -> None:
    gains = new_tiles = 0
    for before, after in list(_nauticus_phases(3, 5))[:14]:
        board = N.board(after, before=before)
        check_rules(board)
        got = {m.key: m.value for m in board.drawn if m.key.endswith(".gain")}
        want = {}
        for p, q in zip(before["players"], after["players"], strict=True):
            d = q["score"] - p["score"]
            if d:
                want[f"player.{q['seat']}.score.gain"] = f"+{d}" if d > 0 else f"−{-d}"
        assert got == want
        pics = N.shipyards(after, before=before)
        for pic in pics:
            check_rules(pic)
        drawn = [m for pic in pics for m in pic.drawn]
        got = {m.key: m.value for m in drawn if m.key.endswith(".gain")}
        want = {}
        for p, q in zip(before["players"], after["players"], strict=True):
            for name, field in (("worker", "workers"), ("taler", "taler"), ("crown", "crowns")):
                d = q[field] - p[field]
                if d:
                    want[f"p{q['seat']}.{name}.gain"] = f"+{d}" if d > 0 else f"−{-d}"
            d = q["score"] - p["score"]
            if d:
                want[f"p{q['seat']}.score.gain"] = f"+{d}" if d > 0 else f"−{-d}"
            for g, n in q["delivered"].items():
                if n != p["delivered"][g]:
                    want[f"p{q['seat']}.delivered.{g}.gain"] = f"+{n - p['delivered'][g]}"
        assert got == want
        gains += len(want)
        # Storage: exactly the items that were not there before are framed.
        for p, q in zip(before["players"], after["players"], strict=True):
            added = Counter(q["storage"]["items"]) - Counter(p["storage"]["items"])
            framed = [
                m for m in drawn if m.key.startswith(f"p{q['seat']}.storage.") and m.value == "new"
            ]
            assert len(framed) == sum(added.values())
            new_tiles += len(framed)
        # Nothing is marked without a previous view.
        assert not [m for m in N.board(after).drawn if m.key.endswith((".gain", ".new"))]
    assert gains > 10 and new_tiles > 0  # the sample exercises both marks


def test_the_nauticus_board_of_a_phase_post_is_titled_with_that_phase() -> None:
    for before, after in list(_nauticus_phases(4, 8))[:9]:
        board = N.board(after, before=before)
        marks = {m.key: m.value for m in board.drawn}
        # The post of phase N is drawn when phase N+1 waits for its action.
        assert after["step"] == "choose"
        r, ph = after["round"], after["phase"]
        shown = (r, ph - 1) if ph > 1 else (r - 1, after["phases"])
        assert marks["round"] == f"{shown[0]}/{after['rounds']}"
        assert marks["phase"] == f"{shown[1]}/{after['phases']}"
        assert marks["done"] == "done"
        # The action played in that phase is framed as new.
        played = [
            s["index"]
            for s, t in zip(before["spaces"], after["spaces"], strict=True)
            if t["flipped"] and not s["flipped"]
        ]
        framed = sorted(int(m.key.split(".")[1]) for m in board.drawn if m.value == "new")
        assert framed == sorted(played)
    start = nauticus.view(nauticus.new_game(players=3, seed=1))
    marks = {m.key: m.value for m in N.board(start).drawn}
    assert (marks["round"], marks["phase"]) == ("1/5", "1/7") and "done" not in marks


def test_the_duel_board_draws_the_arrow_move_and_frames_the_cards_and_awards_since() -> None:
    rng = random.Random(4)
    state = duel.new_game(2, 44)
    moved = placed = awarded = 0
    last_view = duel.view(state)
    while not duel.is_over(state):
        seat = state.turn
        state, events = duel.apply(state, seat, rng.choice(duel.legal_moves(state, seat)))
        view = duel.view(state)
        pic = D.board(view, before=last_view)
        check_rules(pic)
        areas = {m.key: m.value for m in pic.drawn if m.kind == "area"}
        for e in events:
            if isinstance(e, ArrowMoved):
                key = f"moved.{e.card}"
                assert key in areas, (key, areas)
                moved += 1
        old_awards = {(a["round"], a["slot"]) for a in last_view["awards"]}
        for a in view["awards"]:
            new = (a["round"], a["slot"]) not in old_awards
            assert (areas.get(f"award.{a['round']}.{a['slot']}.new") == "new") == new
            awarded += new
        was = {
            sp["card"] for sl in last_view["slots"] for sp in sl["sides"] if sp["card"] is not None
        }
        for sl in view["slots"]:
            for side, sp in enumerate(sl["sides"]):
                key = f"space.{side}.{sl['index']}.new"
                if sp["card"] is not None and sp["card"] not in was:
                    assert areas.get(key) == "new"
                    placed += 1
        last_view = view
    assert moved >= 2 and placed >= 20 and awarded == 30  # 6 rounds of 5 domain cards


def test_island_frames_the_stacks_taken_from_and_marks_the_cards_and_vp_gained() -> None:
    taken = gained = cards_ticked = 0
    steps = list(island_playout(3, 6))
    for before_state, _, after_state, _ in steps[::4]:
        before, after = island.view(before_state), island.view(after_state)
        board = I.board(after, before=before)
        check_rules(board)
        framed = {m.key for m in board.drawn if m.value == "new"}
        old = {(c["index"], s["index"]): s["count"] for c in before["columns"] for s in c["stacks"]}
        want = {
            f"stack.{s['index']}.new"
            for c in after["columns"]
            for s in c["stacks"]
            if old.get((c["index"], s["index"]), s["count"]) > s["count"]
        }
        assert framed == want
        taken += len(want)
        for pic in I.areas(after, before=before):
            check_rules(pic)
            got = {m.key: m.value for m in pic.drawn if m.key.endswith(".gain")}
            seats = {int(m.key[1]) for m in pic.drawn if m.key.endswith(".name")}
            # A card line is ticked exactly where the seat holds more of that object than before.
            ticked = Counter(
                m.key.rsplit(".", 3)[0]
                for m in pic.drawn
                if ".cards." in m.key and m.value == "new"
            )
            grown: Counter[str] = Counter()
            for s in seats:
                for old_col, col in zip(
                    before["players"][s]["collections"],
                    after["players"][s]["collections"],
                    strict=True,
                ):
                    had = Counter(card["object"] for card in old_col["cards"])
                    has = Counter(card["object"] for card in col["cards"])
                    grown[f"p{s}.{col['category']}"] += sum(1 for o in has if has[o] > had[o])
            assert ticked == +grown
            cards_ticked += sum(ticked.values())
            rise = {s: after["players"][s]["score"] - before["players"][s]["score"] for s in seats}
            want_gain = {f"p{s}.score.gain": f"+{d}" for s, d in rise.items() if d > 0}
            assert got == want_gain
            gained += len(got)
    assert taken > 5 and gained > 0 and cards_ticked >= 5


def _finished_duel() -> duel.State:
    rng = random.Random(2)
    state = duel.new_game(2, 77)
    while not duel.is_over(state):
        state, _ = duel.apply(state, state.turn, rng.choice(duel.legal_moves(state, state.turn)))
    return state


@pytest.mark.parametrize("fr", [False, True])
def test_named_pictures_follow_the_layout_rules_in_both_languages(fr: bool) -> None:
    from bot import i18n
    from bot.games import GAMES  # installs the catalogue into render.words

    assert "duel" in GAMES.games
    before, after = next(iter(_nauticus_phases(4, 2)))
    with i18n.use("fr" if fr else "en"):
        for pic in (
            N.board(after, names=NAMES, before=before),
            *N.shipyards(after, names=NAMES, before=before),
            D.score_sheet(duel.view(_finished_duel()), names=NAMES[:2]),
        ):
            check_rules(pic)


def test_private_hands_mark_the_cards_new_since_the_seats_previous_picture() -> None:
    # Duel: each diver not in the seat's previous view is framed, and only those.
    rng = random.Random(6)
    state = duel.new_game(2, 66)
    last = {s: duel.view(state, s) for s in (0, 1)}
    framed_total = 0
    while not duel.is_over(state):
        state, _ = duel.apply(state, state.turn, rng.choice(duel.legal_moves(state, state.turn)))
        for s in (0, 1):
            mine = duel.view(state, s)
            pic = D.hand(mine, before=last[s])
            framed = {m.key for m in pic.drawn if m.value == "new"}
            new = set(mine["me"]["divers"]) - set(last[s]["me"]["divers"])
            assert framed == {f"diver.{v}.new" for v in new}
            framed_total += len(framed)
            last[s] = mine
    assert framed_total >= 20
    # Island: a card line is ticked where the hand holds more of that object than before.
    ticked_total = 0
    for before_state, _, after_state, _ in list(island_playout(3, 7))[::3]:
        for s in range(3):
            old, now = island.view(before_state, s), island.view(after_state, s)
            pic = I.hand(now, before=old)
            check_rules(pic)
            ticked = sum(1 for m in pic.drawn if m.value == "new")
            had = Counter(c["object"] for c in old["players"][s]["hand"])
            has = Counter(c["object"] for c in now["players"][s]["hand"])
            assert ticked == sum(1 for o in has if has[o] > had[o])
            ticked_total += ticked
    assert ticked_total >= 5
