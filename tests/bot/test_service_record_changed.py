"""`GameRecord.changed` (the record after a move, made without `dataclasses.replace`'s generic
path) is the record `replace` made: every field, equality, no Seen of the old record."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from bot.core.game import GameRecord, Seat
from engine.nauticus import RULES


def _record() -> GameRecord:
    return GameRecord(
        7, 1, 10, "active", 100, 3, RULES.new_game(2, 5),
        [Seat(0, 100, "Ana"), Seat(1, -1, "Bot", "hard")], "v1", 5,
        flagged=None, seating="join", updated_at="2026-01-01T00:00:00+00:00",
        kind="nauticus", deadline_hours=24, reminder_hours=0, locale="fr",
    )  # fmt: skip


def test_changed_is_replace() -> None:
    rec = _record()
    old_seen = rec.seen(None)
    state, _ = RULES.apply(rec.state, 0, RULES.legal_moves(rec.state, 0)[0])
    new = rec.changed(version=4, state=state, status="finished")
    expected = replace(rec, version=4, state=state, status="finished")
    assert type(new) is GameRecord
    assert new == expected
    assert {f.name: getattr(new, f.name) for f in fields(GameRecord)} == {
        f.name: getattr(expected, f.name) for f in fields(GameRecord)
    }
    # The old record's Seen is not carried over: the new one is built from the new state.
    assert new.seen(None) is not old_seen
    assert new.seen(None).view == RULES.view(state, None)
    assert rec.seen(None) is old_seen and rec.version == 3 and rec.state is not state
    # Still frozen, and the unchanged fields are shared, as replace shares them.
    with pytest.raises(AttributeError):
        new.version = 5  # type: ignore[misc]
    assert new.seats is rec.seats


def test_changed_refuses_a_field_the_record_has_not() -> None:
    with pytest.raises(TypeError, match="no field colour"):
        _record().changed(colour="red")
