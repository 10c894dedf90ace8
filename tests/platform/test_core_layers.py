"""The core stays a set of rooms a person can hold in mind: each module of `bot.core` is one
concern of at most ~500 lines, imports only the concerns below it (so there is no cycle and no
way for a lower room to reach up), and the service only wires them together."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, cast

import bot.core
from bot.service import GameService

CORE = Path(bot.core.__file__).parent
# Bottom to top: a module may import only those before it.
LAYERS = [
    "errors",
    "game",
    "kernel",
    "posts",
    "standings",
    "turns",
    "lobby",
    "takeback",
    "reminding",
    "preferences",
    "history",
    "robots",
    "hosting",
]


def _core_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith("bot.core."):
                found.add(name.split(".")[2])
            elif name in ("bot.service", "bot.discord_app") or name.startswith("bot.discord_app."):
                found.add(name)
    return found


def test_every_core_module_is_a_known_layer() -> None:
    modules = {p.stem for p in CORE.glob("*.py")} - {"__init__"}
    assert modules == set(LAYERS)


def test_a_core_module_imports_only_the_layers_below_it() -> None:
    wrong = []
    for i, name in enumerate(LAYERS):
        for imported in _core_imports(CORE / f"{name}.py"):
            if imported not in LAYERS[:i]:
                wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_the_layer_check_catches_an_import_upwards(tmp_path: Path) -> None:
    probe = tmp_path / "posts.py"
    probe.write_text("from bot.core.turns import Turns\nimport bot.service\n")
    assert _core_imports(probe) == {"turns", "bot.service"}


def test_each_core_module_and_class_is_small() -> None:
    too_big = []
    for path in CORE.glob("*.py"):
        text = path.read_text()
        if len(text.splitlines()) > 500:
            too_big.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 400:
                    too_big.append(f"{path.name}:{node.name}: {size} lines")
    assert too_big == []


def test_the_service_only_wires_the_concerns() -> None:
    """GameService holds no logic of its own: no method but its constructor and the
    properties that forward to the kernel, and it stays short."""
    path = Path(__import__("bot.service").service.__file__)
    tree = ast.parse(path.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameService")
    plain = [
        f.name
        for f in cls.body
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and f.name != "__init__"
        and not f.decorator_list
    ]
    assert plain == []
    assert len(path.read_text().splitlines()) < 250
    # Each call is a concern's own method, bound to the one set of concerns of this service.
    svc = GameService(cast(Any, None))
    owners = {}
    for name in ("play", "undo", "skip", "play_ai", "start", "join", "remind", "export", "abort"):
        bound = getattr(svc, name)
        owners[name] = type(bound.__self__).__module__
    assert owners == {
        "play": "bot.core.turns",
        "undo": "bot.core.takeback",
        "skip": "bot.core.robots",
        "play_ai": "bot.core.robots",
        "start": "bot.core.lobby",
        "join": "bot.core.lobby",
        "remind": "bot.core.reminding",
        "export": "bot.core.history",
        "abort": "bot.core.hosting",
    }
