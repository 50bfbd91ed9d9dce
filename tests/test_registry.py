"""The registry loads a game when it is chosen, and only then: choosing one game imports that
game alone, and a game that cannot be loaded fails when it is chosen, in one line, leaving
every other game and command working."""

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
