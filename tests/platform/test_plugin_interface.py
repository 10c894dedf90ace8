"""The plugin interface names every hook the core calls (issue 22, item 3): outside the game
packages, the bot reaches a plugin only through members `GamePlugin` declares, and never probes
one with getattr/hasattr. Read from the source, so a new call of an undeclared hook fails here."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.plugin import GamePlugin

BOT = Path(__file__).resolve().parents[2] / "bot"


def _is_plugin(node: ast.expr) -> bool:
    """`plugin`, `self.plugin`, `rec.plugin`, ...: an expression naming a game plugin."""
    if isinstance(node, ast.Name):
        return node.id == "plugin"
    return isinstance(node, ast.Attribute) and node.attr == "plugin"


def _core_files() -> list[Path]:
    return [p for p in BOT.rglob("*.py") if "games" not in p.relative_to(BOT).parts]


def declared() -> set[str]:
    members = set(GamePlugin.__annotations__)
    members |= {n for n in vars(GamePlugin) if not n.startswith("_")}
    return members


def test_the_core_uses_only_declared_hooks() -> None:
    used: dict[str, str] = {}
    for path in _core_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _is_plugin(node.value):
                used.setdefault(node.attr, f"{path.relative_to(BOT)}:{node.lineno}")
    assert len(used) > 20  # the scan sees the core's calls
    undeclared = {name: where for name, where in used.items() if name not in declared()}
    assert undeclared == {}


def test_no_hook_is_probed_with_getattr() -> None:
    probes = []
    for path in _core_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and node.args
                and _is_plugin(node.args[0])
            ):
                probes.append(f"{path.relative_to(BOT)}:{node.lineno}")
    assert probes == []


def test_every_installed_game_has_every_hook() -> None:
    from bot.games import GAMES

    for plugin in GAMES:
        missing = sorted(n for n in declared() if not hasattr(plugin, n))
        assert missing == [], (plugin.kind, missing)
