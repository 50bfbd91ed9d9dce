"""The registry loads a game when it is chosen, and only then: choosing one game imports that
game alone, and a game that cannot be loaded in any way (a missing module, an exception on
import, no name) is broken: listed as broken, failing when it is chosen, in one line, and
leaving every other game and command working."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from coinprint.errors import UsageError
from coinprint.registry import BUILT_IN, GAMES, TITLES, Registry

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter: this process has imported every game already.
LOADED_BY = """
import sys
from coinprint.cli import main
try:
    main({args!r})
except SystemExit as done:
    assert not done.code, done.code
print("games:", *sorted({{m.split(".")[2] for m in sys.modules if m.startswith("coinprint.games.")}}))
"""


def games_loaded_by(*args: str) -> set[str]:
    """The games whose packages ``coinprint ARGS`` imported, run in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED_BY.format(args=list(args))], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("games:")]
    return set(line.split()[1:])


@pytest.mark.parametrize("name", GAMES.names())
def test_printing_one_games_kit_imports_that_game_alone(name: str, tmp_path: Path) -> None:
    assert games_loaded_by("kit", name, "-o", str(tmp_path) + "/") == {name}
    assert (tmp_path / f"{name}-kit-a4-en.pdf").read_bytes().startswith(b"%PDF")


def test_printing_a_board_imports_that_game_alone(tmp_path: Path) -> None:
    name = GAMES.names()[-1]
    assert games_loaded_by("board", name, "-o", str(tmp_path / "board.geojson")) == {name}


def test_a_game_chosen_by_its_title_imports_that_game_alone(tmp_path: Path) -> None:
    assert games_loaded_by("board", "Map", "-o", str(tmp_path / "map.geojson")) == {"mapgame"}
    assert games_loaded_by("board", "coin-age", "-o", str(tmp_path / "coinage.geojson")) == {"coinage"}


def test_the_titles_named_beside_the_built_in_games_are_their_titles() -> None:
    assert list(TITLES) == list(BUILT_IN)
    assert {name: GAMES[name].title for name in BUILT_IN} == TITLES
    assert GAMES.name_for("CoinTable") == "cointable" and GAMES.name_for("chess") is None


def test_a_game_that_cannot_load_fails_only_when_chosen(cli, tmp_path: Path) -> None:
    registry = Registry({"broken": "coinprint.games.no_such_game:Nothing"})
    with pytest.raises(UsageError) as caught:
        registry["broken"]
    message = str(caught.value)
    assert "\n" not in message and "broken" in message and "ModuleNotFoundError" in message
    assert "broken" in registry.names() and list(registry) == []  # listing skips it

    GAMES._targets["broken"] = "coinprint.games.no_such_game:Nothing"
    try:
        chosen = cli("board", "broken", "-o", str(tmp_path / "b.svg"))
        assert chosen.code == 2 and chosen.err.count("\n") == 1
        assert "the game 'broken'" in chosen.err and "cannot be loaded" in chosen.err
        other = GAMES.names()[0]
        fine = cli("board", other, "-o", str(tmp_path / "ok.geojson"))
        assert fine.code == 0, fine.err
        assert cli("board", "--help").code == 0
    finally:
        GAMES.unregister("broken")
    assert not (tmp_path / "b.svg").exists()


EXPLODING = 'raise ValueError("this plug-in is broken on purpose")\n'
"""A plug-in's module that fails on import (as one with a bug at its top level does)."""

NAMELESS = '''
from coinprint.game import Game


class Nameless(Game):
    """A whole game in every hook, but with no name: nothing could list or choose it."""

    title = "Nameless"

    def build(self, values):
        raise NotImplementedError

    def problems(self, layout, *, tolerance_mm=0.2):
        return []

    def rules(self, layout, options=None):
        raise NotImplementedError

    def sheet(self, layout, job):
        raise NotImplementedError

    def rule_sheet_parts(self, template, values, layout):
        raise NotImplementedError
'''


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on the import path holding the plug-ins' modules."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "exploding_plugin.py").write_text(EXPLODING, encoding="utf-8")
    (folder / "nameless_plugin.py").write_text(NAMELESS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_a_plugin_that_raises_on_import_is_listed_as_broken_and_the_others_work(
    cli, plugins: Path, tmp_path: Path
) -> None:
    """Not only a module that is missing: any exception while loading (here a ValueError)
    makes the game broken. ``board --help`` lists it as broken beside the games that work;
    choosing it fails in one line; ``kit all`` writes every other game's kit and says, in one
    note, which game has none and why."""
    others = GAMES.names()
    GAMES._targets["exploding"] = "exploding_plugin:Game"
    try:
        assert GAMES.why_broken("exploding") == "ValueError: this plug-in is broken on purpose"
        assert GAMES.broken() == {"exploding": "ValueError: this plug-in is broken on purpose"}
        assert [game.name for game in GAMES] == list(others)

        shown = cli("board", "--help")
        assert shown.code == 0, shown.err
        listed = {line.split()[0]: line for line in shown.out.splitlines() if line.startswith("  ") and line.split()}
        assert set(others) < set(listed)
        assert "(broken: ValueError: this plug-in is broken on purpose)" in listed["exploding"]
        assert all("broken" not in listed[name] for name in others)

        chosen = cli("board", "exploding", "-o", str(tmp_path / "b.svg"))
        assert chosen.code == 2 and chosen.err.count("\n") == 1 and "Traceback" not in chosen.err
        assert "the game 'exploding' (exploding_plugin:Game) is broken and cannot be loaded" in chosen.err
        assert "ValueError: this plug-in is broken on purpose" in chosen.err
        assert not (tmp_path / "b.svg").exists()

        kits = tmp_path / "kits"
        made = cli("kit", "all", "-o", str(kits) + "/")
        assert made.code == 0, made.err
        assert sorted(path.name for path in kits.iterdir()) == sorted(f"{name}-kit-a4-en.pdf" for name in others)
        notes = [line for line in made.err.splitlines() if "exploding" in line]
        assert notes == ["exploding is broken and has no kit: ValueError: this plug-in is broken on purpose"]
    finally:
        GAMES.unregister("exploding")
    assert "exploding" not in GAMES and GAMES.broken() == {}


def test_a_game_without_a_name_is_refused_as_broken_naming_what_is_missing(cli, plugins: Path) -> None:
    registry = Registry({"nameless": "nameless_plugin:Nameless"})
    why = registry.why_broken("nameless")
    assert why == "TypeError: nameless_plugin:Nameless is not a coinprint.game.Game: it has no name"
    assert registry.broken() == {"nameless": why} and list(registry) == []
    with pytest.raises(UsageError) as caught:
        registry["nameless"]
    message = str(caught.value)
    assert "\n" not in message and "is broken and cannot be loaded" in message and message.endswith("it has no name")

    GAMES._targets["nameless"] = "nameless_plugin:Nameless"
    try:
        chosen = cli("board", "nameless")
        assert chosen.code == 2 and chosen.err.count("\n") == 1
        assert "the game 'nameless' (nameless_plugin:Nameless) is broken" in chosen.err
        assert chosen.err.rstrip().endswith("it has no name")
    finally:
        GAMES.unregister("nameless")


def test_the_agents_games_add_are_listed_for_the_command_line() -> None:
    """The command line accepts a game's own agents (Flick's ``park``) before it loads the game;
    its table must name exactly the agents each built-in game's search adds."""
    from coinprint.registry import GAME_AGENTS
    from coinprint.source import resolve_layout

    found = {}
    for name in BUILT_IN:
        game = GAMES[name]
        rules = game.rules(resolve_layout(game.default_spec), {})
        found.update({agent: name for agent in game.search(rules).agents})
    assert found == GAME_AGENTS
