"""The Nauticus plugin's words read the state inside a view (`state_of`): for the views its
rules built, the very state they were built from, which is the state `from_dict` rebuilds from
the view; a turn-changing move's posts rebuild none."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.nauticus import plugin as nauticus_plugin
from bot.plugin import Seen
from bot.service import GameService
from bot.store import Store
from bot.visibility import seen
from engine.nauticus import RULES, State
from engine.nauticus.api import NauticusRules
from engine.nauticus.state import from_dict, to_dict


def _states(players: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    state = RULES.new_game(players, seed)
    out = [state]
    while (seat := RULES.current(state)) is not None:
        state, _ = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
        out.append(state)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_a_view_rebuilds_the_very_state_it_was_built_from(players: int, seed: int) -> None:
    states = _states(players, seed)
    assert states[-1].step == "over" and len(states) > 100
    for state in states:
        rebuilt = from_dict(to_dict(state))
        # Equal field by field, and of the same types (a tuple stays a tuple, a bool a bool).
        assert rebuilt == state
        assert repr(rebuilt) == repr(state)


def test_state_of_a_view_the_rules_built_is_its_state_and_of_any_other_view_a_rebuilt_one() -> None:
    plugin = GAMES.get("nauticus")
    state = _states(3, 5)[40]
    names = ["Ana", "Ben", "Cleo"]
    public = seen(plugin, state, names, None)
    mine = seen(plugin, state, names, 1)
    assert nauticus_plugin.state_of(public) is state
    assert nauticus_plugin.state_of(mine) is state
    # A view that did not come from the rules (read back from a stored payload) is rebuilt:
    # an equal state, not the same object, and the same one on the next read.
    stored = Seen(None, json.loads(json.dumps(public.view)), tuple(names))
    rebuilt = nauticus_plugin.state_of(stored)
    assert rebuilt == state and rebuilt is not state
    assert nauticus_plugin.state_of(stored) is rebuilt
    # The words are the same whichever state they read.
    assert plugin.must_decide(stored, you=False) == plugin.must_decide(public, you=False)
    assert plugin.turn_ping(stored, 7) == plugin.turn_ping(public, 7)


async def test_a_turn_changing_move_rebuilds_no_state_from_a_view(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    await svc.open_lobby(1, 10, 100, "Ana", kind="nauticus")
    await svc.join(10, 101, "Ben")
    rec = await svc.start(10, 100, can_manage=True, seed=4, order=[100, 101])
    rebuilt: list[Any] = []

    def counted(d: dict[str, Any]) -> State:
        rebuilt.append(d)
        return from_dict(d)

    monkeypatch.setattr(nauticus_plugin, "from_dict", counted)
    rng = random.Random(4)
    turned = 0
    while turned < 2:
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = rng.choice(RULES.legal_moves(rec.state, seat))
        rec = (await svc.play(10, 100 + seat, move, confirm=True)).record
        turned += rec.current != seat
    # Two turn pings and done lines (and any phase post) were written from the states the
    # views were built from.
    assert rebuilt == []
    async with store.read() as tx:
        ping = await tx.latest_outbox(rec.id, "turn_ping")
    assert ping is not None and f"<@{rec.user_at(rec.current or 0)}>" in ping.payload["text"]


def test_the_rules_reach_the_ai_workers_as_the_engines_own() -> None:
    # The AI's worker processes get the rules pickled: the engine's class, no bot module.
    rules = GAMES.get("nauticus").rules
    data = pickle.dumps(rules)
    assert b"bot." not in data
    there = pickle.loads(data)
    assert type(there) is NauticusRules
    state = _states(2, 3)[30]
    seat = RULES.current(state)
    assert seat is not None
    move = RULES.legal_moves(state, seat)[0]
    assert there.to_json(there.apply(state, seat, move)[0]) == rules.to_json(
        rules.apply(state, seat, move)[0]
    )
