"""The duel plugin's commands, autocomplete, panel, words and pictures on sampled states."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.discord_app import panel
from bot.games import GAMES
from bot.games.duel import calls
from bot.games.duel.plugin import PLUGIN
from bot.plugin import BadOption, GamePlugin
from engine import duel
from engine.duel.state import State
from tests.bot.games.duel.kit import sample_states, seen_of

# Every rule id of the rules page (/work/shared/rules/nautilus-duel.md), copied here.
RULE_IDS = [
    "D-SETUP-1",
    "D-SETUP-2",
    "D-SETUP-3",
    "D-ROUND-1",
    "D-ROUND-2",
    "D-ROUND-3",
    "D-ROUND-4",
    "D-ROUND-5",
    "D-ROUND-6",
    "D-ROUND-7",
    "D-ROUND-8",
    "D-END-1",
    "D-END-2",
]
LIMIT = 2000


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states()


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def _parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """A typed call back into (command, options), as Discord would send them."""
    parts = text.split()
    assert parts[0] == "/duel"
    options: dict[str, Any] = {}
    for p in parts[2:]:
        name, _, value = p.partition(":")
        options[name] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return parts[1], options


def test_the_plugin_is_registered_as_a_game_plugin() -> None:
    plugin: GamePlugin = PLUGIN
    assert GAMES.get("duel") is plugin
    assert (plugin.kind, plugin.title, plugin.command, plugin.hand_command) == (
        "duel",
        "Nautilus duel",
        "duel",
        "hand",
    )
    assert {c.name for c in plugin.move_commands} == {
        "keep",
        "eye",
        "dive",
        "harpoon",
        "place",
        "arrow",
    }


def test_every_legal_move_round_trips_through_its_call(states: list[State]) -> None:
    checked = set()
    for state in states:
        seat = state.current
        if seat is None:
            continue
        for move in duel.legal_moves(state, seat):
            text = PLUGIN.call_text(move)
            command, options = _parse_call(text)
            assert PLUGIN.move_from_call(command, options) == move, text
            assert PLUGIN.move_from_call(command, calls.options_of(move)) == move
            checked.add(move["type"])
    assert checked == {"keep", "eye", "dive", "harpoon", "place", "arrow"}


def test_autocomplete_offers_each_legal_move_option_by_option(states: list[State]) -> None:
    total = 0
    for state in states[::3]:
        seat = state.current
        if seat is None:
            continue
        mine = seen_of(state, seat)
        for move in duel.legal_moves(state, seat):
            command = move["type"]
            options = calls.options_of(move)
            filled: dict[str, Any] = {}
            for name, value in options.items():
                offered = PLUGIN.suggest(mine, command, name, "", filled)
                assert 1 <= len(offered) <= 25
                assert all(1 <= len(s.name) <= 100 for s in offered)
                if len(offered) < 25:
                    assert value in [s.value for s in offered], (move, name, offered)
                typed = PLUGIN.suggest(mine, command, name, str(value), filled)
                assert value in [s.value for s in typed], (move, name, typed)
                filled[name] = value
            total += 1
        # Nothing is offered for a command the step does not take.
        other = next(t for t in ("eye", "dive") if t != state.step)
        assert PLUGIN.suggest(mine, other, "keep", "", {}) == []
    assert total > 500


def test_the_other_seat_is_offered_nothing(states: list[State]) -> None:
    for state in states[::10]:
        if state.current is None:
            continue
        theirs = seen_of(state, 1 - state.current)
        for command in PLUGIN.move_commands:
            for option in command.options:
                assert PLUGIN.suggest(theirs, command.name, option.name, "", {}) == []


@pytest.mark.parametrize(
    ("command", "options", "wanted"),
    [
        ("place", {"card": 7, "side": 3, "slot": 1}, "side"),
        ("place", {"card": 7, "side": 1, "slot": 6}, "slot"),
        ("place", {"card": 16, "side": 1, "slot": 1}, "card"),
        ("place", {"card": "seven", "side": 1, "slot": 1}, "card"),
        ("keep", {"special": "crab"}, "crab"),
        ("dive", {}, "missing"),
        ("nope", {}, "no duel command"),
    ],
)
def test_a_value_that_names_nothing_is_refused_in_words(
    command: str, options: dict[str, Any], wanted: str
) -> None:
    with pytest.raises(BadOption) as info:
        PLUGIN.move_from_call(command, options)
    assert wanted in str(info.value)


def test_friendly_spellings_are_accepted() -> None:
    assert PLUGIN.move_from_call("keep", {"special": "Diving module"}) == {
        "type": "keep",
        "special": "diving_module",
    }
    assert PLUGIN.move_from_call("place", {"card": "kraken", "side": "2", "slot": 5}) == {
        "type": "place",
        "card": 15,
        "side": 1,
        "slot": 4,
    }


def reachable(state: State, seat: int) -> dict[str, int]:
    """Walk every select option and button of the panel, as a player could."""
    found: dict[str, int] = {}
    todo = [panel.Selection()]
    done: set[panel.Selection] = set()
    mine = seen_of(state, seat)
    while todo:
        sel = todo.pop()
        if sel in done:
            continue
        done.add(sel)
        built = panel.build(PLUGIN, mine, sel)
        assert len(built.text) < LIMIT
        outcomes: list[panel.Outcome] = []
        for select in built.selects:
            assert 1 <= len(select.options) <= panel.MAX_OPTIONS
            assert len({o.value for o in select.options}) == len(select.options)
            for opt in select.options:
                assert 1 <= len(opt.label) <= 100
                if select.kind == "what":
                    outcomes.append(panel.on_what(PLUGIN, mine, int(select.arg), opt.value))
                else:
                    group, page = select.arg.rsplit("/", 1)
                    outcomes.append(panel.on_then(PLUGIN, mine, group, int(page), opt.value))
        for button in built.buttons:
            if button.kind == "b":
                outcomes.append(panel.on_button(PLUGIN, mine, button.key))
        for out in outcomes:
            if out.move is not None:
                found[_key(out.move)] = found.get(_key(out.move), 0) + 1
            else:
                todo.append(out.selection)
    return found


def test_the_panel_reaches_every_legal_move(states: list[State]) -> None:
    total = 0
    paged = 0
    for state in states[::2]:
        seat = state.current
        if seat is None:
            continue
        legal = {_key(m) for m in duel.legal_moves(state, seat)}
        assert set(reachable(state, seat)) == legal
        total += len(legal)
        groups = panel.groups(PLUGIN, seen_of(state, seat))
        paged += any(len(g.moves) > panel.MAX_OPTIONS for g in groups.values())
    assert total > 3000
    assert paged > 0  # a card with anchor variants needs more than one page


def test_the_header_shows_the_seats_own_hand_and_the_decision() -> None:
    state = duel.new_game(2, 3, first=0)
    header = PLUGIN.panel_header(seen_of(state, 0)).splitlines()
    divers = ", ".join(str(v) for v in state.hands[0].divers)
    assert header[0].startswith(f"Your divers: **{divers}** · no special · won: 0 domain cards")
    drawn = [w.replace("_", " ") for w in state.drawn]
    assert all(d in header[1] for d in drawn) and "keep one" in header[1]
    other = PLUGIN.panel_header(seen_of(state, 1))
    assert "Ana must keep one of two specials" in other
    assert not any(d in other for d in drawn)


def test_words_fit_a_message_and_read_only_the_given_view(states: list[State]) -> None:
    for state in states[::5]:
        public = seen_of(state, None)
        for text in (
            PLUGIN.status_line(public),
            PLUGIN.must_decide(public, you=False),
            PLUGIN.turn_ping(public, 42) if state.current is not None else "",
        ):
            assert len(text) < LIMIT
        for seat in (0, 1):
            assert len(PLUGIN.hand_text(seen_of(state, seat))) < LIMIT
        with pytest.raises(ValueError):
            PLUGIN.hand_text(public)
    assert "state" not in duel.view(states[0], None)


def test_rules_digest_covers_every_rule_id() -> None:
    texts = [PLUGIN.rules_digest(None)] + [PLUGIN.rules_digest(t) for t in PLUGIN.rules_topics]
    assert all(len(t) < LIMIT for t in texts)
    joined = "\n".join(texts)
    for rule in RULE_IDS:
        assert f"**{rule}**" in joined, rule
    assert "There is no topic" in PLUGIN.rules_digest("krill")


def test_unit_groups_a_placement_with_its_arrow(states: list[State]) -> None:
    for state in states:
        r, p = PLUGIN.unit(seen_of(state, None))
        assert r == state.round
        if state.step in ("keep", "eye", "dive", "harpoon"):
            assert p == 0
        elif state.step == "place":
            assert p == state.placed + 1
        elif state.step == "arrow":
            assert p == state.placed  # the placement that put the arrow card down


def test_skip_plays_a_legal_move_and_never_the_anchor(states: list[State]) -> None:
    for state in states[::4]:
        seat = state.current
        if seat is None:
            continue
        mine = seen_of(state, seat)
        move = PLUGIN.skip_move(mine)
        assert move in duel.legal_moves(state, seat)
        if move["type"] == "place":
            assert "anchor" not in move
        after, _ = duel.apply(state, seat, move)
        ends = PLUGIN.skip_ends(mine, seen_of(after, seat), move)
        assert ends == (after.step != "arrow")


def test_private_events_are_told_to_their_owner(states: list[State]) -> None:
    kinds: set[str] = set()
    for state in states[:400]:
        seat = state.current
        if seat is None:
            continue
        for move in duel.legal_moves(state, seat)[:1]:
            _, events = duel.apply(state, seat, move)
            for e in events:
                if e.private_to is not None:
                    line = PLUGIN.private_line(e.to_dict())
                    assert line and line != e.kind, e
                    kinds.add(e.kind)
    assert {"divers_dealt", "specials_drawn", "special_chosen", "special_received"} <= kinds


def test_pictures_public_and_private() -> None:
    state = duel.new_game(2, 3, first=0)
    public = seen_of(state, None)
    board = PLUGIN.draw(PLUGIN.board_pictures(), public)
    assert board[0].data[:4] == b"\x89PNG" and "round 1/6" in board[0].description
    with pytest.raises(ValueError):
        PLUGIN.draw(("hand",), public)  # the hand needs a seat's own view
    hand = PLUGIN.draw(PLUGIN.hand_pictures(), seen_of(state, 0))
    divers = ", ".join(map(str, state.hands[0].divers))
    assert f"Divers: {divers}." in hand[0].description
    with pytest.raises(ValueError):
        PLUGIN.draw(("score_sheet",), public)  # not over yet
