"""The words players read: escaping, exact summaries, tie-breaks, the 2,000-character limit."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

from bot import texts
from bot.games.nauticus import texts as nt
from engine.nauticus import State, apply, final_scores, legal_moves, new_game
from render.palette import PLAYER_COLOR_NAME, PLAYER_SYMBOL

HOSTILE = [
    "**Ana** @everyone <@&123456789012345678> `x` ||spoiler|| " + "é" * 40,
    "@here _Ben_ <@456789012345678901> > quote " + "W" * 60,
    "~~Cleo~~ [link](http://x) # heading " + "🙂" * 30,
    "Dev\n\n@everyone\n" + "*" * 50,
]


def test_names_are_escaped_and_bounded() -> None:
    for raw in HOSTILE:
        safe = texts.name(raw)
        assert "@everyone" not in safe and "@here" not in safe
        assert "<@456789012345678901>" not in safe and "<@&123456789012345678>" not in safe
        assert "**" not in safe.replace("\\*\\*", "")
        assert "\n" not in safe
        assert len(safe) <= 2 * texts.MAX_NAME + 10
    assert texts.name("Ana") == "Ana"
    assert texts.name("**Ana**") == "\\*\\*Ana\\*\\*"


def test_marks_match_what_render_draws() -> None:
    assert [m.colour for m in texts.PLAYER_MARKS] == list(PLAYER_COLOR_NAME)
    assert [m.symbol for m in texts.PLAYER_MARKS] == list(PLAYER_SYMBOL)
    assert len({m.emoji for m in texts.PLAYER_MARKS}) == 4
    legend = texts.legend(["Ana", "Ben"])
    assert "seat 1 = red circle: Ana" in legend and "seat 2 = blue square: Ben" in legend


def test_did_lists_each_act_with_where_it_went_and_the_costs() -> None:
    events = [
        {"kind": "action_chosen", "seat": 0, "space": 3, "action": "hulls", "blue": 2},
        {"kind": "bonus_received", "seat": 0, "space": 3, "workers": 0, "taler": 0, "vp": 2},
        {"kind": "bought", "seat": 0, "item": "bow", "price": 1, "copy": 1},
        {"kind": "taler_paid", "seat": 0, "amount": 1},
        {"kind": "workers_used", "seat": 0, "blue": 1, "own": 0},
        {"kind": "tile_placed", "seat": 0, "item": "bow", "ship": 1, "tile": 0, "new_ship": True},
        {"kind": "bought", "seat": 0, "item": "one_ship", "price": 0, "copy": 1},
        {"kind": "workers_used", "seat": 0, "blue": 1, "own": 0},
        {"kind": "tile_stored", "seat": 0, "item": "one_ship", "reason": "buy"},
        {"kind": "bought", "seat": 0, "item": "stern", "price": 3, "copy": 1},
        {"kind": "taler_paid", "seat": 0, "amount": 3},
        {"kind": "workers_used", "seat": 0, "blue": 0, "own": 1},
        {
            "kind": "tile_placed",
            "seat": 0,
            "item": "stern",
            "ship": 1,
            "tile": 1,
            "new_ship": False,
        },
        {"kind": "turn_ended", "seat": 0, "uses": 3},
    ]
    assert nt.did(events) == (
        "took the bonus +2 VP · bought a bow for 1 taler → new ship #2 · bought a one-ship for 0 "
        "taler → storage · bought a stern for 3 taler → ship #2 · cost: 4 taler, 3 workers (2 blue)"
    )
    passed = [
        {"kind": "passed", "seat": 1},
        {"kind": "pass_tile_flipped", "seat": 1, "value": 3},
    ]
    assert nt.did(passed) == "passed (flipped the −3 VP pass tile)"
    assert nt.did([]) == "did nothing"


def _random_states(players: int, seed: int, every: int = 7) -> list[State]:
    rng = random.Random(seed)
    state = new_game(players, seed)
    out = [state]
    i = 0
    while state.step != "over":
        seat = state.current
        assert seat is not None
        state, _ = apply(state, seat, rng.choice(legal_moves(state, seat)))
        i += 1
        if i % every == 0 or state.step == "over":
            out.append(state)
    return out


def test_every_text_stays_under_discord_limit_with_hostile_names() -> None:
    for players in (2, 3, 4):
        names = HOSTILE[:players]
        for state in _random_states(players, players):
            assert len(nt.status_line(state, names)) <= texts.MAX_MESSAGE
            assert len(nt.scores_line(state, names)) <= texts.MAX_MESSAGE
            if state.current is not None:
                ping = nt.turn_ping(state, names, 123456789012345678)
                assert len(ping) <= texts.MAX_MESSAGE
                assert "@everyone" not in ping
            else:
                assert len(nt.final_result(state, names)) <= texts.MAX_MESSAGE
        seats = [(i, n) for i, n in enumerate(names)]
        assert (
            len(
                texts.lobby_text(
                    "lobby", names[0], seats, title="Nauticus", min_players=2, max_players=4
                )
            )
            <= texts.MAX_MESSAGE
        )
    # A phase where everyone does a lot: the summary is cut, never over the limit.
    busy = [
        {"kind": "bought", "seat": 0, "item": "bow", "price": 4, "copy": 2},
        {"kind": "tile_stored", "seat": 0, "item": "bow", "reason": "buy"},
    ] * 80
    header = {"round": 1, "phase": 1, "space": 0, "action": "hulls", "blue": 0}
    text = nt.phase_summary(
        HOSTILE, header, {s: busy for s in range(4)}, [0, 1, 2, 3], {0: 3, 1: 0, 2: 1, 3: 6}
    )
    assert len(text) <= texts.MAX_MESSAGE
    lines = text.split("\n")
    assert lines[0].startswith("**Round 1 · Phase 1 · Hulls**")
    assert len(lines) == 1 + 4 + 2  # header, four players, round end, legend: none dropped
    assert lines[-1] == texts.legend(HOSTILE)
    assert "pass tiles cost:" in lines[-2]


def test_turn_ping_says_what_to_decide() -> None:
    state = new_game(3, 1)
    ping = nt.turn_ping(state, ["Ana", "Ben", "Cleo"], 42)
    assert ping.startswith("Round 1/5 · Phase 1/7")
    assert "<@42>" in ping and "choose an action" in ping
    space = next(s for s in range(8) if state.tiles[s] == "hulls")
    state, _ = apply(state, 0, {"type": "choose_action", "space": space})
    if state.step == "bonus":
        state, _ = apply(state, 0, legal_moves(state, 0)[0])
    state, _ = apply(state, 0, {"type": "end_turn"})
    ping = nt.turn_ping(state, ["Ana", "Ben", "Cleo"], 43)
    blue = state.blue_on(space)
    word = "worker" if blue == 1 else "workers"
    assert ping.endswith(f"<@43> — buy hulls or pass ({blue} blue {word}).")


def _scored(state: State, vp_and_taler: list[tuple[int, int]]) -> State:
    players = tuple(
        replace(p, score=vp, taler=taler, workers=0)
        for p, (vp, taler) in zip(state.players, vp_and_taler, strict=True)
    )
    return replace(state, players=players, step="over")


def test_final_result_names_winner_and_explains_the_tie_break() -> None:
    base = new_game(3, 1)
    # Equal VP after leftovers (10 + 3 and 10 + 3), but 11 taler leaves 2 over, 9 leaves 0.
    state = _scored(base, [(10, 11), (10, 9), (5, 0)])
    scores = final_scores(state)
    assert scores[0].vp == scores[1].vp and scores[0].rank == 1 and scores[1].rank == 2
    text = nt.final_result(state, ["Ana", "Ben", "Cleo"])
    assert "🏆 Ana wins with 13 VP." in text
    assert "Tie-break at 13 VP: Ana ranks ahead of Ben" in text
    assert "(2 vs 0)" in text
    assert text.index("1. ") < text.index("2. ") < text.index("3. ")


def test_final_result_without_a_tie_mentions_no_tie_break_and_shares_exact_ties() -> None:
    base = new_game(2, 1)
    clear = nt.final_result(_scored(base, [(30, 0), (20, 0)]), ["Ana", "Ben"])
    assert "Ana wins with 30 VP" in clear and "Tie-break" not in clear
    shared = nt.final_result(_scored(base, [(20, 5), (20, 5)]), ["Ana", "Ben"])
    assert "Ana and Ben share the win" in shared


def test_fit_cuts_at_a_line_and_marks_the_cut() -> None:
    text = "\n".join("x" * 99 for _ in range(40))
    cut = texts.fit(text)
    assert len(cut) <= texts.MAX_MESSAGE and cut.endswith("\n…")
    assert texts.fit("short") == "short"


def test_quoted_refusal_cannot_format_or_mention() -> None:
    from bot import texts

    out = texts.quoted("'\x00<@&1>@everyone **x**' is not an item")
    assert "\x00" not in out and "\ufffd" in out
    assert "@everyone" not in out  # escape_mentions breaks it with a zero-width space
    assert "\\*\\*x\\*\\*" in out


def test_the_games_and_the_service_load_without_discord() -> None:
    """The command-line tools (check, export, backup, ratings) load every game's words and the
    service but never talk to Discord: importing discord.py would cost each run about half a
    second of CPU. Only escaping a name loads it, and it escapes exactly as discord.py does."""
    probe = (
        "import sys, bot.games, bot.service, bot.records;"
        "print('discord' in sys.modules);"
        "from bot import texts;"
        "print(texts.name('@everyone *Ana*'));"
        "print('discord' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "False"
    assert out[1] == "@\u200beveryone \\*Ana\\*"
    assert out[2] == "True"


def test_a_lobby_for_one_player_count_says_how_many_not_a_range() -> None:
    from bot import i18n

    seats = [(1, "Ana")]
    duel = texts.lobby_text(
        "lobby", "Ana", seats, title="Nautilus duel", min_players=2, max_players=2
    )
    assert "the host starts once 2 players are seated" in duel and "2–2" not in duel
    island = texts.lobby_text("lobby", "Ana", seats, title="Island", min_players=2, max_players=4)
    assert "the host starts with 2–4 players" in island
    with i18n.use("fr"):
        duel_fr = texts.lobby_text(
            "lobby", "Ana", seats, title="Duel Nautilus", min_players=2, max_players=2
        )
    assert "l'hôte lance la partie une fois les 2 joueurs installés" in duel_fr
    assert "2 à 2" not in duel_fr
