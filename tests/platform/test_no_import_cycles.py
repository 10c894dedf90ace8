"""No import cycle among the modules of `bot/`, `engine/` and `render/`: every module can be
read, tested and replaced from the bottom up. Imports under `if TYPE_CHECKING:` count too (a
cycle there still ties two modules together, and turns into a real one the day the import is
needed at run time); imports inside functions count as well, for the same reason."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine", "render")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """Module name -> file, for every module of the packages (tests and scripts excluded)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def imports(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The known modules `name` imports (a `from package import module` names the module)."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                head = ".".join(base + ([node.module] if node.module else []))
            else:
                head = node.module or ""
            targets = [
                f"{head}.{a.name}" if f"{head}.{a.name}" in known else head for a in node.names
            ]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(edges.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_the_packages_have_no_import_cycle() -> None:
    edges = graph(ROOT)
    assert len(edges) > 100  # the walk really sees bot, engine and render
    assert cycles(edges) == []


def test_only_the_client_imports_the_discord_app() -> None:
    edges = graph(ROOT)
    importers = sorted(m for m, targets in edges.items() if "bot.discord_app.app" in targets)
    assert importers == ["bot.discord_app.client"]


def test_the_walk_finds_a_cycle_in_each_import_form(tmp_path: Path) -> None:
    pkg = tmp_path / "bot" / "pkg"
    pkg.mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from bot.pkg import b\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n"
    )
    (pkg / "c.py").write_text("def f():\n    import bot.pkg.a\n")
    (pkg / "d.py").write_text("from bot.pkg.a import x\n")  # imports into the cycle, not in it
    for package in PACKAGES[1:]:
        (tmp_path / package).mkdir()
    assert cycles(graph(tmp_path)) == [["bot.pkg.a", "bot.pkg.b", "bot.pkg.c"]]


def test_a_chain_without_a_loop_is_no_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"c"}}) == [["a", "b"]]
