"""How the renderer is built: one-way imports, no I/O, cached static layers and font."""

from __future__ import annotations

import ast
from pathlib import Path

import render
from engine import nauticus
from render import canvas
from render.nauticus import board, shipyard
from tests.render.states import late_game

RENDER = Path(render.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_render_imports_only_pillow_the_standard_library_and_itself() -> None:
    allowed = {
        "PIL",
        "render",
        "__future__",
        "io",
        "math",
        "collections",
        "contextlib",  # canvas.frames(): collecting a replay's frames in a with-block
        "contextvars",  # ... per thread or task, so two replays drawn at once never mix
        "dataclasses",
        "functools",
        "importlib",
        "struct",  # render/seats.py reads the font's character map
        "typing",
    }
    for path in RENDER.glob("*.py"):
        assert _imports(path) <= allowed, (path.name, _imports(path) - allowed)


def test_render_opens_no_file_and_no_socket() -> None:
    # The bundled font is read through importlib.resources, once; nothing else touches I/O.
    for path in RENDER.glob("*.py"):
        tree = ast.parse(path.read_text())
        calls = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert "open" not in calls, path.name
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not attrs & {"save_to", "urlopen", "connect", "write_bytes", "write_text"}, path.name


def test_font_is_read_once_and_static_layers_are_reused() -> None:
    import render.nauticus.board_pic as b
    import render.nauticus.shipyard_pic as s

    view = nauticus.view(late_game())
    board(view)
    shipyard(view, 0)
    font_reads = canvas._font_bytes.cache_info().misses
    layers = b._static.cache_info().misses, s._head.cache_info().misses
    for _ in range(3):
        board(view)
        shipyard(view, 0)
    assert canvas._font_bytes.cache_info().misses == font_reads == 1
    assert (b._static.cache_info().misses, s._head.cache_info().misses) == layers
    assert b._static.cache_info().hits >= 3 and s._head.cache_info().hits >= 3


def test_font_ships_with_its_licence() -> None:
    fonts = RENDER / "fonts"
    assert (fonts / "DejaVuSans-Bold.ttf").stat().st_size > 100_000
    assert "Bitstream" in (fonts / "LICENSE-DejaVu.txt").read_text()
