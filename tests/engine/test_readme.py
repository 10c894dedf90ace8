"""engine/nauticus/README.md stays true: its example runs, its tables name every move and code."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

from engine import nauticus
from engine.nauticus import events, rules
from tests.engine.test_error_messages import _engine_codes

README = Path(nauticus.__file__).parent / "README.md"


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
    assert printed[0] == "chose the action on space 0 ['action_chosen', 'bonus_received']"
    assert printed[1].startswith("not_your_turn - It is not seat 3's turn; seat 1 must decide")
    state = namespace["state"]
    assert state.step == "over"
    winner = namespace["winner"]
    assert winner.rank == 1
    assert printed[-1] == f"seat {winner.seat + 1} wins with {winner.vp} VP"
    assert winner.vp == max(s.vp for s in nauticus.final_scores(state))


def test_readme_names_every_move_type_event_and_code() -> None:
    text = _text()
    for mtype in rules.MOVE_TYPES:
        assert f'{{"type": "{mtype}"' in text, mtype
    kinds = {
        cls.kind
        for cls in vars(events).values()
        if isinstance(cls, type) and issubclass(cls, events.Event) and cls is not events.Event
    }
    assert len(kinds) >= 25
    for kind in kinds:
        assert f"`{kind}`" in text, kind
    for code in _engine_codes():
        assert f"`{code}`" in text, code
    assert f'"{nauticus.ENGINE_VERSION}"' in text
