"""The core names no game: `bot/*.py` and `bot/discord_app/` import no `engine.<game>`,
`render.<game>` or `bot.games.<game>` module (only the registry `bot.games` and the shared
`engine.api`, `engine.errors`), and the pure packages import nothing of the bot."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# engine.ai is the search player for every game: shared, like the API it plays through.
SHARED_ENGINE = {"engine", "engine.api", "engine.errors", "engine.rng", "engine.ai"}
SHARED_RENDER = {"render", "render.canvas", "render.palette", "render.icons", "render.text"}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, absolute and relative imports resolved, names included
    (`from engine import nauticus` counts as `engine.nauticus`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            # `from engine import nauticus` imports a module; `from bot.games import GAMES` a name.
            found.update(f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}"))
    return found


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _game_module(module: str) -> str:
    """The game package a game-specific module belongs to (`engine.nauticus.rules` ->
    `engine.nauticus`)."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[0] == "bot" else parts[:2])


def _game_specific(module: str) -> bool:
    parts = module.split(".")
    if parts[0] == "engine" and len(parts) > 1:
        return ".".join(parts[:2]) not in SHARED_ENGINE
    if parts[0] == "render" and len(parts) > 1:
        return ".".join(parts[:2]) not in SHARED_RENDER
    return parts[:2] == ["bot", "games"] and len(parts) > 2


def core_files() -> list[Path]:
    """Every module of the platform: bot/ without the game registry and plugins (bot/games/),
    the core's concerns (bot/core/) and the Discord layer's handlers included."""
    games = ROOT / "bot" / "games"
    return sorted(f for f in (ROOT / "bot").rglob("*.py") if games not in f.parents)


def violations(files: list[Path]) -> list[str]:
    out = []
    for f in files:
        games = {_game_module(m) for m in imported_modules(f) if _game_specific(m)}
        out += [f"{f.relative_to(ROOT)} imports {g}" for g in sorted(games)]
    return out


def test_the_core_imports_no_game_module() -> None:
    files = core_files()
    assert len(files) >= 15  # the walk really sees the core
    assert violations(files) == []


def test_the_check_catches_a_core_file_that_imports_a_game(tmp_path: Path) -> None:
    # A deliberately wrong core file, in each import form the walk must see.
    for source in (
        "from engine.nauticus import apply\n",
        "from engine import nauticus\n",
        "import render.nauticus\n",
        "from bot.games.nauticus.plugin import PLUGIN\n",
        "from .games.nauticus import texts\n",
    ):
        bad = ROOT / "bot" / "_boundary_probe.py"
        bad.write_text(source, encoding="utf-8")
        try:
            assert violations([bad]) == [f"bot/_boundary_probe.py imports {_expected(source)}"]
        finally:
            bad.unlink()


def _expected(source: str) -> str:
    return {
        "from engine.nauticus import apply\n": "engine.nauticus",
        "from engine import nauticus\n": "engine.nauticus",
        "import render.nauticus\n": "render.nauticus",
        "from bot.games.nauticus.plugin import PLUGIN\n": "bot.games.nauticus",
        "from .games.nauticus import texts\n": "bot.games.nauticus",
    }[source]


def test_the_pure_packages_import_no_bot_and_no_io_library() -> None:
    for package in ("engine", "render"):
        for f in sorted((ROOT / package).rglob("*.py")):
            for module in imported_modules(f):
                top = module.split(".")[0]
                assert top not in ("bot", "discord", "aiosqlite", "sqlite3"), (f, module)
                if package == "engine":
                    assert top not in ("PIL", "render"), (f, module)


def test_the_catalogue_imports_nothing_above_it() -> None:
    """`bot.i18n` is used by every layer, so it imports no other part of the bot (its build
    tool, `bot.texts_extract`, sits at the top instead: it reads the command tree)."""
    files = sorted((ROOT / "bot" / "i18n").rglob("*.py"))
    assert files
    above = [
        f"{f.relative_to(ROOT)} imports {m}"
        for f in files
        for m in imported_modules(f)
        if m.split(".")[0] == "bot" and not m.startswith("bot.i18n") and m != "bot"
    ]
    assert above == []
