"""The Nautilus Island plugin on its own: commands both ways, autocomplete, the panel, the rules
digest, words within Discord's limits, skip and pictures."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.discord_app import panel
from bot.games import GAMES
from bot.games.island import rules_digest
from bot.games.island.plugin import PLUGIN, decode_objects, encode_objects
from bot.plugin import BadOption, EventLine
from bot.texts import MAX_MESSAGE
from engine import island
from tests.bot.games.island.kit import HOSTILE, parse_call, sample_states, seen_of

# Every rule id of the project's rules page (docs: /work/shared/rules/nautilus-island.md).
RULE_IDS = (
    "I-SETUP-1",
    "I-SETUP-2",
    "I-SETUP-3",
    "I-SETUP-4",
    "I-SETUP-5",
    "I-TURN-1",
    "I-TURN-2",
    "I-TURN-3",
    "I-TURN-4",
    "I-TURN-5",
    "I-TURN-6",
    "I-BONUS-1",
    "I-BONUS-2",
    "I-BONUS-3",
    "I-PORT-1",
    "I-PORT-2",
    "I-TREASURE-1",
    "I-END-1",
    "I-END-2",
)


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def test_island_is_installed_after_nauticus() -> None:
    kinds = list(GAMES.games)
    assert kinds[0] == "nauticus" and kinds.index("island") > 0
    assert GAMES.get("island") is PLUGIN
    assert GAMES.by_command("island") is PLUGIN
    assert (PLUGIN.kind, PLUGIN.title, PLUGIN.hand_command) == ("island", "Nautilus Island", "hand")
    assert PLUGIN.kind == PLUGIN.rules.name


def test_every_legal_move_round_trips_through_its_slash_command() -> None:
    total = 0
    types: set[str] = set()
    for state, seat in sample_states():
        for move in island.legal_moves(state, seat):
            text = PLUGIN.call_text(move)
            command, options = parse_call(text)
            assert PLUGIN.move_from_call(command, options) == move, text
            types.add(move["type"])
            total += 1
    assert types == {"place", "move", "collect", "store", "close", "keep_open", "idle"}
    assert total > 3000


def test_the_objects_encoding_reads_what_players_type() -> None:
    assert encode_objects({"ham": 2, "bread": 1}) == "bread+ham+ham"
    for typed in (
        "ham+ham+bread",
        "Ham + bread + HAM",
        "ham*2+bread",
        "2 ham, bread",
        "ham x2+bread",
    ):
        assert decode_objects(typed, "food") == {"ham": 2, "bread": 1}, typed
    for bad in ("", "+", "ham+hat", "pearl", "ham*0", "<@1> ham"):
        with pytest.raises(BadOption):
            decode_objects(bad, "food")
    with pytest.raises(BadOption, match="not a category"):
        PLUGIN.move_from_call("store", {"category": "boats", "objects": "ham"})
    with pytest.raises(BadOption, match="never stored"):
        PLUGIN.move_from_call("store", {"category": "treasure", "objects": "pearl"})
    with pytest.raises(BadOption, match="not a column"):
        PLUGIN.move_from_call("place", {"column": "bow"})
    assert PLUGIN.move_from_call("store", {"category": "Repair tools", "objects": "saw"}) == {
        "type": "store",
        "category": "repair",
        "objects": {"saw": 1},
    }
    assert PLUGIN.move_from_call("keep-open", {}) == {"type": "keep_open"}


def test_autocomplete_offers_exactly_the_callers_legal_choices() -> None:
    checked = 0
    for state, seat in sample_states():
        seen = seen_of(state, seat)
        legal = {_key(m) for m in seen.legal}
        for command in ("place", "move"):
            values = [s.value for s in PLUGIN.suggest(seen, command, "column", "", {})]
            want = sorted(m["column"] for m in seen.legal if m["type"] == command)
            assert sorted(v for v in values if isinstance(v, int)) == want
        stores = [m for m in seen.legal if m["type"] == "store"]
        cats = [s.value for s in PLUGIN.suggest(seen, "store", "category", "", {})]
        assert sorted(map(str, cats)) == sorted({m["category"] for m in stores})
        for cat in cats:
            found = PLUGIN.suggest(seen, "store", "objects", "", {"category": cat})
            mine = [m for m in stores if m["category"] == cat]
            assert len(found) == min(25, len(mine))
            for s in found:
                assert 1 <= len(s.name) <= 100 and len(str(s.value)) <= 100
                move = PLUGIN.move_from_call("store", {"category": cat, "objects": s.value})
                assert _key(move) in legal
                checked += 1
            # Typing narrows the list to matching cards.
            if found:
                first = str(found[0].value).split("+")[0]
                narrowed = PLUGIN.suggest(seen, "store", "objects", first, {"category": cat})
                assert narrowed and all(first in str(s.value) for s in narrowed)
        # The public (no seat) and other seats get nothing of this seat's hand.
        assert PLUGIN.suggest(seen_of(state, None), "store", "objects", "", {}) == []
    assert checked > 500


def reachable(state: island.State, seat: int) -> dict[str, int]:
    """Walk every select option and button of the panel, as a player could."""
    found: dict[str, int] = {}
    todo = [panel.Selection()]
    done: set[panel.Selection] = set()
    seen = seen_of(state, seat)
    while todo:
        sel = todo.pop()
        if sel in done:
            continue
        done.add(sel)
        built = panel.build(PLUGIN, seen, sel)
        assert len(built.text) <= MAX_MESSAGE
        outcomes: list[panel.Outcome] = []
        for select in built.selects:
            assert 1 <= len(select.options) <= panel.MAX_OPTIONS
            assert len({o.value for o in select.options}) == len(select.options)
            for opt in select.options:
                assert 1 <= len(opt.label) <= 100
                if select.kind == "what":
                    outcomes.append(panel.on_what(PLUGIN, seen, int(select.arg), opt.value))
                else:
                    group, page = select.arg.rsplit("/", 1)
                    outcomes.append(panel.on_then(PLUGIN, seen, group, int(page), opt.value))
        for button in built.buttons:
            if button.kind == "b":
                outcomes.append(panel.on_button(PLUGIN, seen, button.key))
        for out in outcomes:
            if out.move is not None:
                found[_key(out.move)] = found.get(_key(out.move), 0) + 1
            else:
                todo.append(out.selection)
    return found


def test_every_legal_move_is_reachable_from_the_panel() -> None:
    total = 0
    for state, seat in sample_states():
        legal = {_key(m) for m in island.legal_moves(state, seat)}
        assert set(reachable(state, seat)) == legal
        total += len(legal)
    assert total > 3000


def test_the_panel_header_shows_the_seats_own_hand_and_the_decision() -> None:
    for state, seat in sample_states()[::7]:
        if island.is_over(state):
            continue
        seen = seen_of(state, seat)
        header = PLUGIN.panel_header(seen)
        hand = seen.view["players"][seat]["hand"]
        assert header.startswith(f"Your hand ({len(hand)})" if hand else "Your hand: empty")
        for card in hand:
            assert card["object"] in header
        assert "your turn" in header
        other = (seat + 1) % len(state.players)
        assert "not your turn" in PLUGIN.panel_header(seen_of(state, other))


def test_the_rules_digest_names_every_rule_id_within_discords_limit() -> None:
    text = "\n".join(PLUGIN.rules_digest(t) for t in [None, *PLUGIN.rules_topics])
    for rule in RULE_IDS:
        assert f"**{rule}**" in text, rule
    assert set(re.findall(r"I-[A-Z]+-\d+", text)) == set(RULE_IDS)
    for topic in [None, *PLUGIN.rules_topics, "nope <@1>"]:
        assert len(PLUGIN.rules_digest(topic)) <= MAX_MESSAGE
    assert "no topic" in PLUGIN.rules_digest("nope")
    assert set(PLUGIN.rules_topics) == set(rules_digest.TOPICS)


def _events_of_turn(state: island.State, seat: int) -> tuple[island.State, list[dict[str, Any]]]:
    """Play the seat's turn to its end (first legal move each time)."""
    events: list[dict[str, Any]] = []
    while state.current == seat and not island.is_over(state):
        state, evs = island.apply(state, seat, island.legal_moves(state, seat)[0])
        events += [e.to_dict() for e in evs]
        if any(e["kind"] == "turn_ended" for e in events):
            break
    return state, events


def test_every_text_fits_discord_with_hostile_names() -> None:
    for state, seat in sample_states()[::3]:
        n = len(state.players)
        names = HOSTILE[:n]
        pub, mine = seen_of(state, None, names), seen_of(state, seat, names)
        texts_ = [PLUGIN.status_line(pub), PLUGIN.hand_text(mine), PLUGIN.panel_header(mine)]
        texts_.append(PLUGIN.start_post(pub).text)
        if island.is_over(state):
            texts_.append(PLUGIN.final_post(pub).text)
        else:
            texts_ += [PLUGIN.turn_ping(pub, 42), PLUGIN.must_decide(pub, you=False)]
            after, events = _events_of_turn(state, seat)
            public = [e for e in events if e.get("private_to") is None]
            line = EventLine(1, seat, 1, 1, "x", tuple(public))
            texts_.append(PLUGIN.done_line(pub, seat, public))
            post = PLUGIN.phase_post(pub, seen_of(after, None, names), [line], public)
            assert post is not None and post.pictures == ("board", "areas")
            texts_.append(post.text)
        for t in texts_:
            assert 0 < len(t) <= MAX_MESSAGE
            assert "@everyone" not in t and "<@123456789012345678>" not in t and "\u202e" not in t


def test_a_phase_post_comes_only_when_a_turn_ends_and_words_face_down_cards_blindly() -> None:
    state = island.new_game(3, 5)
    seat = state.current
    assert seat is not None
    before = seen_of(state, None)
    col = island.legal_moves(state, seat)[-1]
    state, evs = island.apply(state, seat, col)
    first = [e.to_dict() for e in evs]
    assert PLUGIN.phase_post(before, seen_of(state, None), [], first) is None
    state, evs = island.apply(state, seat, {"type": "collect"})
    public = [e.to_dict() for e in evs if e.private_to is None]
    drawn = [e.to_dict() for e in evs if e.private_to is not None]
    assert drawn  # the stern column has face-down stacks
    lines = [
        EventLine(1, seat, 1, 1, "x", tuple(first)),
        EventLine(2, seat, 1, 1, "y", tuple(public)),
    ]
    post = PLUGIN.phase_post(before, seen_of(state, None), lines, public)
    assert post is not None
    assert "face-down card" in post.text and f"above column {col['column']}" in post.text
    # The private line tells the taker what the face-down card was.
    d = drawn[0]
    obj = d["card"].split(":")[1]
    assert f"you took the {obj} of " in PLUGIN.private_line(d)


def test_unit_gives_each_turn_its_own_number() -> None:
    state = island.new_game(3, 2)
    units = []
    while not island.is_over(state) and len(units) < 60:
        seat = state.current
        assert seat is not None
        units.append((PLUGIN.unit(seen_of(state, None)), seat))
        state, _ = island.apply(state, seat, island.legal_moves(state, seat)[0])
    turns = [u for (u, _) in units]
    # Every move of one turn shares its unit; the next turn's number is one more.
    distinct = list(dict.fromkeys(turns))
    assert [t for _, t in distinct] == list(range(1, len(distinct) + 1))
    assert all(r == (t - 1) // 3 + 1 for r, t in distinct)


def test_skip_plays_a_cheap_move_and_ends_the_turn() -> None:
    for state, seat in sample_states()[::5]:
        if island.is_over(state):
            continue
        before = seen_of(state, seat)
        move = PLUGIN.skip_move(before)
        assert move in before.legal
        if any(m["type"] == "collect" for m in before.legal):
            assert move == {"type": "collect"}
        for _ in range(4):
            now = seen_of(state, seat)
            move = PLUGIN.skip_move(now)
            state, _ = island.apply(state, seat, move)
            if PLUGIN.skip_ends(now, seen_of(state, seat), move):
                break
        else:
            pytest.fail("skip never ended the turn")
        assert island.is_over(state) or state.step in ("place", "move")


def test_keep_open_needs_confirmation_only_in_the_last_round() -> None:
    asked = {True: 0, False: 0}
    for state, seat in sample_states():
        if state.step != "close":
            continue
        reason = PLUGIN.confirmation(seen_of(state, seat), {"type": "keep_open"})
        assert (reason is not None) == state.last_round
        assert PLUGIN.confirmation(seen_of(state, seat), {"type": "close"}) is None
        asked[state.last_round] += 1
    assert asked[False] > 0


def test_pictures_are_drawn_from_the_seen_given() -> None:
    state = island.new_game(3, 1)
    seat = state.current
    assert seat is not None
    state, _ = island.apply(state, seat, island.legal_moves(state, seat)[-1])
    state, _ = island.apply(state, seat, {"type": "collect"})
    pub = seen_of(state, None)
    pics = PLUGIN.draw(PLUGIN.board_pictures(), pub)
    assert pics and all(p.data[:4] == b"\x89PNG" and p.description for p in pics)
    hand = PLUGIN.draw(PLUGIN.hand_pictures(), seen_of(state, seat))
    assert len(hand) == 1 and "hand" in hand[0].filename
    with pytest.raises(ValueError):
        PLUGIN.draw(["hand"], pub)  # no hand in the public view
    over = next(s for s, _ in sample_states() if island.is_over(s))
    (sheet,) = PLUGIN.draw(["score_sheet"], seen_of(over, None))
    assert sheet.data[:4] == b"\x89PNG" and "VP" in sheet.description
