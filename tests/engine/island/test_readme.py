"""engine/island/README.md stays true: its example runs; it names every move, event and code."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

from engine import island
from engine.island import events, rules
from tests.engine.island.test_error_messages import engine_codes

README = Path(island.__file__).with_name("README.md")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_example_runs_and_plays_a_game_to_the_end() -> None:
    blocks = re.findall(r"```python\n(.*?)```", _text(), flags=re.S)
    assert len(blocks) == 1
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), namespace)
    printed = out.getvalue().splitlines()
    assert printed[0] == "placed their pawn above column 4 (3 stacks, 24 cards left)"
    assert printed[1] == "['card_taken', 'card_taken', 'card_taken', 'turn_ended']"
    assert printed[2] == "not_your_turn"
    state = namespace["state"]
    assert island.is_over(state)
    winner = namespace["winner"]
    assert winner.rank == 1
    assert printed[-1] == f"seat {winner.seat + 1} wins with {winner.vp} VP"


def test_readme_names_every_move_type_event_and_code() -> None:
    text = _text()
    for mtype in rules.MOVE_TYPES:
        assert f'{{"type": "{mtype}"' in text, mtype
    kinds = {cls.kind for cls in events.EVENT_TYPES}
    assert len(kinds) == 14
    for kind in kinds:
        assert f"`{kind}`" in text, kind
    for code in engine_codes():
        assert f"`{code}`" in text, code
    assert f'"{island.ENGINE_VERSION}"' in text
