"""The layers only look down: every import in coinprint, at the top of a module or inside a
function (where the lazy imports are), goes to the same layer or a lower one.

    units, errors, caps, fileio, resources  →  layout, io  →  boards/, games/  →  render/
        →  kit/, analysis, registry and the other whole-game modules  →  cli/

Rendering knows no rules: nothing in render/ imports games/.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "coinprint"

LAYERS: list[tuple[str, int]] = [
    ("coinprint.cli", 5),
    ("coinprint.__main__", 5),
    ("coinprint.kit", 4),
    ("coinprint.analysis", 4),
    ("coinprint.registry", 4),
    ("coinprint.selfplay", 4),
    ("coinprint.sprt", 4),
    ("coinprint.stats", 4),
    ("coinprint.metrics", 4),
    ("coinprint.ladder", 4),
    ("coinprint.report", 4),
    ("coinprint.render", 3),
    ("coinprint.boards", 2),
    ("coinprint.games", 2),
    ("coinprint.layout", 1),
    ("coinprint.io", 1),
    ("coinprint.units", 0),
    ("coinprint.errors", 0),
    ("coinprint.caps", 0),
    ("coinprint.fileio", 0),
    ("coinprint.resources", 0),
]
"""Module prefixes and their layer, most specific first. A new module needs a line here."""

UPWARD_ALLOWED = {
    # A notebook shows a layout or a position as a picture (as python-chess boards draw
    # themselves); the drawing code is imported only when the picture is asked for.
    ("coinprint.layout", "coinprint.render.board"),
    ("coinprint.layout", "coinprint.render.svg"),
    ("coinprint.games.core", "coinprint.kit"),
}


def layer(module: str) -> int:
    for prefix, rank in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return rank
    raise AssertionError(f"{module} has no layer: add it to LAYERS in {Path(__file__).name}")


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name != "coinprint":  # the package's API facade re-exports from every layer, lazily
            found.append((name, path))
    return found


def imported(path: Path) -> set[str]:
    """Every coinprint module ``path`` imports, wherever the import statement stands."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {n for n in names if n.startswith("coinprint.") and _is_module(n)}


def _is_module(name: str) -> bool:
    relative = Path(*name.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative / "__init__.py").is_file()


@pytest.mark.parametrize("name,path", modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_only_look_down(name: str, path: Path) -> None:
    upward = [
        target
        for target in sorted(imported(path))
        if layer(target) > layer(name) and (name, target) not in UPWARD_ALLOWED
    ]
    assert not upward, f"{name} (layer {layer(name)}) imports from higher layers: {upward}"


@pytest.mark.parametrize("name,path", [m for m in modules() if m[0].startswith("coinprint.render")])
def test_rendering_knows_no_rules(name: str, path: Path) -> None:
    assert not [t for t in imported(path) if t.startswith("coinprint.games")], name


def test_the_checker_itself_sees_an_upward_import(tmp_path: Path) -> None:
    # The test above must be able to fail: a board module importing the CLI is caught.
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from coinprint.cli import main\n")
    assert "coinprint.cli" in imported(bad)
    assert layer("coinprint.cli") > layer("coinprint.boards.cointable")
