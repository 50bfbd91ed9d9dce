"""The layers only look down, nothing imports in a circle, and each game is one package.

Every import in coinprint, at the top of a module or inside a function (where the lazy imports
are), goes to the same layer or a lower one:

    units, errors, caps, params, fileio, resources, stats, sprt
        →  layout, drawn, io
        →  checks, engine, mcts, agents, games/<game>/board, rules, fast, playout, coins
        →  render/, printing, games/<game>/draw
        →  game, registry, source, kit/, playback/, layout_report, games/<game>/sheet and the game itself
        →  selfplay, analysis, metrics, report, commands
        →  cli/, studio/ (the front doors)

A game's package ``coinprint/games/<game>/`` spans the layers. The modules named above sit
where their names say; a game may have other modules, named by what they are (``check``,
``search``, ...): each sits at the highest shared layer it imports, and at least beside the
board and the rules. No shared module imports a game, so a game is one folder plus one
registry line. Imports under ``if TYPE_CHECKING:`` are for the type checker only and are not
counted.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import networkx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "coinprint"

LAYERS: list[tuple[str, int]] = [
    ("coinprint.cli", 6),
    ("coinprint.studio", 6),
    ("coinprint.__main__", 6),
    ("coinprint.selfplay", 5),
    ("coinprint.analysis", 5),
    ("coinprint.commands", 5),
    ("coinprint.metrics", 5),
    ("coinprint.fair", 5),
    ("coinprint.families", 5),
    ("coinprint.ladder", 5),
    ("coinprint.questions", 5),
    ("coinprint.report", 5),
    ("coinprint.game", 4),
    ("coinprint.registry", 4),
    ("coinprint.source", 4),
    ("coinprint.kit", 4),
    ("coinprint.playback", 4),
    ("coinprint.layout_report", 4),
    ("coinprint.render", 3),
    ("coinprint.printing", 3),
    ("coinprint.checks", 2),
    ("coinprint.engine", 2),
    ("coinprint.mcts", 2),
    ("coinprint.agents", 2),
    ("coinprint.search", 2),
    ("coinprint.view", 2),
    ("coinprint.layout", 1),
    ("coinprint.drawn", 1),
    ("coinprint.spatial", 1),
    ("coinprint.io", 1),
    ("coinprint.units", 0),
    ("coinprint.colouring", 0),
    ("coinprint.errors", 0),
    ("coinprint.caps", 0),
    ("coinprint.arguments", 0),
    ("coinprint.params", 0),
    ("coinprint.fileio", 0),
    ("coinprint.resources", 0),
    ("coinprint.stats", 0),
    ("coinprint.sprt", 0),
]
"""Module prefixes and their layer, most specific first. A new shared module needs a line here."""

GAME_MODULES = {"board": 2, "rules": 2, "fast": 2, "playout": 2, "coins": 2, "draw": 3, "sheet": 4}
"""The layer of the modules of a game's package that have these names; the package itself (its
Game) is GAME_PACKAGE_LAYER. A module of any other name takes its layer from what it imports
(:func:`game_module_layer`)."""
GAME_PACKAGE_LAYER = 4
LOWEST_GAME_LAYER = 2
"""A game's modules of other names sit at least here, beside its board and its rules."""

UPWARD_ALLOWED = {
    # A notebook shows a layout or a position as a picture (as python-chess boards draw
    # themselves); the drawing is imported only when the picture is asked for.
    ("coinprint.layout", "coinprint.render.board"),
    ("coinprint.engine", "coinprint.registry"),
}


def layer(module: str, path: Path | None = None) -> int:
    """The layer of ``module``; ``path`` is its file when it is not in the package (the
    checker's own test writes one)."""
    parts = module.split(".")
    if is_game_module(module):
        if len(parts) == 3:
            return GAME_PACKAGE_LAYER
        if parts[3] in GAME_MODULES:
            return GAME_MODULES[parts[3]]
        return game_module_layer(path or module_path(module))
    return shared_layer(module)


def shared_layer(module: str) -> int:
    for prefix, rank in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return rank
    raise AssertionError(f"{module} has no layer: add it to LAYERS in {Path(__file__).name}")


def is_game_module(module: str) -> bool:
    parts = module.split(".")
    return parts[:2] == ["coinprint", "games"] and len(parts) >= 3


def game_module_layer(path: Path) -> int:
    """The layer of a game's module not named in GAME_MODULES: the highest layer of the shared
    modules it imports, and at least LOWEST_GAME_LAYER. (What it imports from its own game must
    then lie no higher, as for any module.)"""
    shared = [shared_layer(target) for target in imported(path) if not is_game_module(target)]
    return max([LOWEST_GAME_LAYER, *shared])


def module_path(module: str) -> Path:
    relative = PACKAGE.joinpath(*module.split(".")[1:])
    return relative.with_suffix(".py") if relative.with_suffix(".py").is_file() else relative / "__init__.py"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        if name != "coinprint":  # the package's API facade re-exports from every layer, lazily
            found.append((name, path))
    return found


def imported(path: Path) -> set[str]:
    """Every coinprint module ``path`` imports at run time, wherever the import statement stands
    (imports for the type checker only, under ``if TYPE_CHECKING:``, are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _typing_only(tree)
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {n for n in names if n.startswith("coinprint.") and _is_module(n)}


def _typing_only(tree: ast.Module) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (imports for the type checker only)."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }


def _is_module(name: str) -> bool:
    return module_path(name).is_file()


def import_graph() -> networkx.DiGraph:
    graph = networkx.DiGraph()
    for name, path in modules():
        graph.add_node(name)
        for target in imported(path):
            # Importing a module imports its package first; that is not an edge of ours.
            if target != name:
                graph.add_edge(name, target)
    return graph


def upward_imports(name: str, path: Path) -> list[str]:
    """The modules ``name`` (read from ``path``) imports from a higher layer than its own."""
    return [
        target
        for target in sorted(imported(path))
        if layer(target) > layer(name, path) and (name, target) not in UPWARD_ALLOWED
    ]


@pytest.mark.parametrize("name,path", modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_only_look_down(name: str, path: Path) -> None:
    upward = upward_imports(name, path)
    assert not upward, f"{name} (layer {layer(name, path)}) imports from higher layers: {upward}"


def test_at_most_two_upward_imports_and_each_one_is_used() -> None:
    graph = import_graph()
    assert len(UPWARD_ALLOWED) <= 2
    assert all(graph.has_edge(low, high) for low, high in UPWARD_ALLOWED)


def test_nothing_imports_in_a_circle() -> None:
    circles = [sorted(c) for c in networkx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize("name,path", [m for m in modules() if not m[0].startswith("coinprint.games.")])
def test_shared_modules_import_no_game(name: str, path: Path) -> None:
    assert not [t for t in imported(path) if t.startswith("coinprint.games.")], name


def other_games(name: str, path: Path) -> list[str]:
    """The modules of other games that ``name``, a module of a game, imports."""
    own = ".".join(name.split(".")[:3])
    return sorted(t for t in imported(path) if is_game_module(t) and t != own and not t.startswith(own + "."))


@pytest.mark.parametrize("name,path", [m for m in modules() if is_game_module(m[0])])
def test_a_game_imports_no_other_game(name: str, path: Path) -> None:
    others = other_games(name, path)
    assert not others, f"{name} imports another game: {others}"


def is_drawing(name: str, path: Path) -> bool:
    """Rendering: ``render/``, a game's ``draw`` and any other module of a game at its layer."""
    return name.startswith("coinprint.render") or (
        is_game_module(name) and len(name.split(".")) > 3 and layer(name, path) == GAME_MODULES["draw"]
    )


def rules_imported(path: Path) -> list[str]:
    """The rules ``path`` imports: the engine, or a game's rules or fast play-outs."""
    return sorted(t for t in imported(path) if t == "coinprint.engine" or t.endswith((".rules", ".fast", ".playout")))


@pytest.mark.parametrize("name,path", [m for m in modules() if is_drawing(*m)])
def test_rendering_knows_no_rules(name: str, path: Path) -> None:
    rules = rules_imported(path)
    assert not rules, f"{name} draws, yet imports {rules}"


def test_the_checker_itself_sees_an_upward_import_and_a_circle(tmp_path: Path) -> None:
    # The tests above must be able to fail: a board module importing the CLI is caught...
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from coinprint.cli import main\n")
    assert "coinprint.cli" in imported(bad)
    assert layer("coinprint.cli") > layer("coinprint.games.cointable.board")
    # ...a circle is found...
    graph = import_graph()
    graph.add_edge("coinprint.layout", "coinprint.kit.kit")
    assert any(len(c) > 1 for c in networkx.strongly_connected_components(graph))
    # ...and an import only for the type checker is not counted.
    typed = tmp_path / "typed.py"
    typed.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from coinprint.cli import main\n")
    assert not imported(typed)


def test_the_checker_places_a_game_module_of_any_name_and_sees_what_it_breaks(tmp_path: Path) -> None:
    # A module of a game with a name of its own sits at the highest shared layer it imports...
    search = tmp_path / "search.py"
    search.write_text("from coinprint.layout import Layout\nfrom coinprint.engine import Rules\n")
    assert layer("coinprint.games.mapgame.search", search) == shared_layer("coinprint.engine") == 2
    plain = tmp_path / "plain.py"
    plain.write_text("import math\n")
    assert layer("coinprint.games.mapgame.plain", plain) == LOWEST_GAME_LAYER
    # ...so importing its own game's sheet (layer 4) from there looks up, and is caught...
    search.write_text(search.read_text() + "from coinprint.games.mapgame.sheet import rule_sheet_parts\n")
    assert upward_imports("coinprint.games.mapgame.search", search) == ["coinprint.games.mapgame.sheet"]
    # ...as is importing another game...
    search.write_text("def f():\n    from coinprint.games.coinage.board import build\n")
    assert other_games("coinprint.games.mapgame.search", search) == ["coinprint.games.coinage.board"]
    # ...and a module that draws (it imports render/) is held to knowing no rules.
    pictures = tmp_path / "pictures.py"
    pictures.write_text(
        "from coinprint.render.scene import Group\nfrom coinprint.games.mapgame.rules import MapRules\n"
    )
    assert is_drawing("coinprint.games.mapgame.pictures", pictures)
    assert rules_imported(pictures) == ["coinprint.games.mapgame.rules"]
    # The real modules of a game are placed by the same rule.
    assert layer("coinprint.games.mapgame") == GAME_PACKAGE_LAYER
    assert layer("coinprint.games.mapgame.draw") == 3


LAZY_ALLOWED = {
    # The notebook pictures (the two upward imports) load the drawing only when asked.
    ("coinprint.layout", "coinprint.render.board"),
    ("coinprint.engine", "coinprint.registry"),
    # Ctrl-C while the command line is still loading exits 130 with one line.
    ("coinprint.__main__", "coinprint.cli"),
    # The studio's web stack (Starlette, uvicorn) loads only when `coinprint studio` runs.
    ("coinprint.cli.studio", "coinprint.studio.server"),
    # A command's module (and the options it declares) loads only when that command runs.
    ("coinprint.cli.groups", "coinprint.cli.options"),
}
LAZY_TARGETS = {
    # The rule-sheet typesetter brings in ReportLab's platypus: loaded where a sheet is set,
    # so that `coinprint --help` stays fast.
    "coinprint.render.document",
}


def lazy_imports(path: Path) -> set[str]:
    """The coinprint modules ``path`` imports inside a function (not for the type checker)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _typing_only(tree)
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or node in tree.body or getattr(node, "col_offset", 0) == 0:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("coinprint"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("coinprint"))
    return found


@pytest.mark.parametrize("name,path", modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_first_party_imports_stand_at_the_top(name: str, path: Path) -> None:
    # Imports at the top say what a module depends on; only the heavy third-party libraries
    # (shapely, reportlab, networkx, numpy) are imported inside functions, for a fast --help.
    lazy = sorted(t for t in lazy_imports(path) if (name, t) not in LAZY_ALLOWED and t not in LAZY_TARGETS)
    assert not lazy, f"{name} imports {lazy} inside a function; import them at the top of the module"


LOOKUP_EDGES = ("coinprint/cli/", "coinprint/registry.py", "coinprint/source.py")
"""Where a game may be looked up by name: the command line, the registry, and the reading of
specs, records and layout files. Everywhere else holds the Game object it was given."""


def name_lookups(path: Path) -> list[str]:
    """The lines of ``path`` that look a game up in the registry by name (``GAMES[...]``,
    ``GAMES.get``), comments aside."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        code = line.split("#", 1)[0]
        if "GAMES[" in code or "GAMES.get(" in code:
            found.append(f"{path.name}:{number}: {line.strip()}")
    return found


def test_games_are_looked_up_by_name_only_at_the_edges() -> None:
    outside = [
        hit
        for _, path in [*modules(), ("coinprint", PACKAGE / "__init__.py")]
        if not path.relative_to(PACKAGE.parent).as_posix().startswith(LOOKUP_EDGES)
        for hit in name_lookups(path)
    ]
    assert not outside, outside


def test_the_lookup_check_sees_a_lookup(tmp_path: Path) -> None:
    sneaky = PACKAGE / "kit" / "__init__.py"
    assert not name_lookups(sneaky)
    copy = tmp_path / "copy.py"
    copy.write_text("title = GAMES[name].title  # GAMES[...] in a comment is fine\n")
    assert len(name_lookups(copy)) == 1


def hooks() -> set[str]:
    """The methods a game may override: the public methods of :class:`Game` that are not
    derived from the others (those defined after the "derived" marker comment)."""
    import inspect

    from coinprint.game import Game

    source = inspect.getsource(Game)
    hook_part = source.split("# -- derived from the above")[0]
    return {name for name, member in vars(Game).items() if callable(member) and f"def {name}(" in hook_part}


def test_a_game_has_at_most_fourteen_hooks_and_five_to_write() -> None:
    # Twelve, and the two optional companions of the referee (search and view).
    from coinprint.game import Game

    found = hooks()
    assert len(found) <= 14, sorted(found)
    assert {"search", "view"} <= found
    assert set(Game.__abstractmethods__) == {"build", "problems", "rules", "sheet", "rule_sheet_parts"}
    assert Game.__abstractmethods__ <= found


def test_the_referee_has_at_most_twelve_methods_and_no_name() -> None:
    # The referee and its notation only: search tuning and drawing live in Search and View,
    # and the game's name in its Game alone.
    import inspect

    from coinprint.engine import Rules

    methods = [name for name, member in vars(Rules).items() if inspect.isfunction(member)]
    assert len(methods) <= 12, methods
    assert not hasattr(Rules, "name")
    for game in _games():
        assert "name" not in vars(type(game.rules(game.layout(game.schema.defaults())))), game.name


def _games() -> list[Any]:
    from coinprint.registry import GAMES

    return list(GAMES)
