"""engine/duel/README.md stays true: its example runs, it names every move, event and code."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

from engine import duel
from engine.duel import events, rules

ENGINE = Path(duel.__file__).parent
README = ENGINE / "README.md"


def engine_codes() -> set[str]:
    """Every code the engine raises: the first argument of each IllegalMove(...) call."""
    codes: set[str] = set()
    # engine/common.py checks every game's move shapes: its codes are this game's too.
    for path in (*ENGINE.glob("*.py"), ENGINE.parent / "common.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMove"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(str(node.args[0].value))
            # Codes chosen in a tuple before the raise: ("not_movable", why) and the like.
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                first = node.elts[0]
                if isinstance(first, ast.Constant) and first.value in {
                    "not_movable",
                    "anchored",
                    "bad_destination",
                }:
                    codes.add(str(first.value))
    return codes


def test_readme_example_runs_and_plays_a_game_to_the_end() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), namespace)
    printed = out.getvalue().splitlines()
    assert printed[0].startswith("keep [{'type': 'keep', 'special': ")
    assert printed[1].startswith("not_your_turn - It is not seat 2's turn; seat 1 must decide")
    state = namespace["state"]
    assert duel.is_over(state)
    winner = namespace["winner"]
    assert winner.rank == 1
    assert printed[-1] == f"seat {winner.seat + 1} wins {winner.vp} domains ({winner.tiebreak})"


def test_readme_names_every_move_type_event_and_code() -> None:
    text = README.read_text(encoding="utf-8")
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
    codes = engine_codes()
    assert len(codes) >= 20
    for code in codes:
        assert f"`{code}`" in text, code
    assert f'"{duel.ENGINE_VERSION}"' in text
