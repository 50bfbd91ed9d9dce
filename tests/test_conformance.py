"""One suite every game passes, taken from the registry alone (as OpenSpiel's random-simulation
test does for its games): the board builds, passes its own checker and round-trips as GeoJSON;
the same spec gives the same bytes; notation round-trips; states copy independently;
random games recorded as JSON replay and validate; positions draw; every option a command
shows reaches the game's hooks, and a capability's options exist only where it is on.

A toy fifth game (``tests/toygame.py``, the scratch game of ``tests/scratch_game/``) is
registered for this module only: it passes the same suite without any other file in coinprint
knowing of it. A variant of it that declares a parameter no hook reads shows that no option
is silently ignored: ``board``, ``rules``, ``play`` and a layout spec refuse it.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from coinprint.checks import errors
from coinprint.engine import Record, read_record, replay
from coinprint.game import Engines, Game
from coinprint.layout import loads
from coinprint.registry import GAMES
from coinprint.search import RandomAgent, play_game
from coinprint.source import builtin_layout
from tests import toygame

SEEDS = range(3)


TOY_BUILT_IN = toygame.NAME in GAMES
"""Whether the toy game is a built-in game here (``tests/test_wheel.py`` adds it to a copy of
coinprint as CONTRIBUTING.md says and runs this suite there): then that one is checked."""


@pytest.fixture(scope="module", autouse=True)
def toy_game_registered() -> Iterator[None]:
    if TOY_BUILT_IN:
        yield
        return
    GAMES.register(toygame.GAME)
    yield
    GAMES.unregister(toygame.NAME)


def every_game() -> list[str]:
    return list(GAMES.names()) if TOY_BUILT_IN else [*GAMES.names(), toygame.NAME]


def game_named(name: str) -> Game:
    return GAMES[name]


@pytest.mark.parametrize("name", every_game())
def test_the_board_builds_and_passes_its_own_checker(name: str) -> None:
    game = game_named(name)
    layout = builtin_layout(game.default_spec)
    assert layout.game == name
    assert not errors(game.problems(layout))


@pytest.mark.parametrize("name", every_game())
def test_the_same_spec_gives_the_same_bytes_and_geojson_round_trips(name: str) -> None:
    game = game_named(name)
    first, second = builtin_layout(game.default_spec).dumps(), builtin_layout(game.default_spec).dumps()
    assert first == second
    assert loads(first).dumps() == first


@pytest.mark.parametrize("name", every_game())
def test_a_bad_parameter_is_a_one_line_usage_error(name: str) -> None:
    from coinprint.errors import UsageError

    with pytest.raises(UsageError) as caught:
        game_named(name).layout_from_spec({"no-such-parameter": "1"})
    assert "\n" not in str(caught.value)


def random_states(game: Game, seed: int) -> Iterator[tuple[Engines, object]]:
    """(the game's rules, search and view, state) after each move of a random game on the
    game's default layout."""
    engines = game.engines(builtin_layout(game.default_spec))
    rules = engines.rules
    rng = random.Random(seed)
    state = rules.initial_state()
    for _ in range(300):
        if rules.is_over(state):
            return
        rules.begin_turn(state, rng)
        yield engines, state
        rules.apply(state, engines.search.random_move(state, rng))


@pytest.mark.parametrize("name", every_game())
def test_notation_round_trips_for_every_legal_move(name: str) -> None:
    checked = 0
    for engines, state in random_states(game_named(name), seed=1):
        rules = engines.rules
        for move in rules.legal_moves(state)[:40]:
            assert rules.parse_move(state, rules.move_text(state, move)) == move
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", every_game())
def test_a_copied_state_is_independent(name: str) -> None:
    for engines, state in random_states(game_named(name), seed=2):
        rules = engines.rules
        moves = rules.legal_moves(state)
        if not moves:
            continue
        before = rules.describe(state)
        copy = state.copy()
        rules.apply(copy, moves[-1])
        assert rules.describe(state) == before
        assert rules.describe(copy) != before or rules.is_over(copy)


@pytest.mark.parametrize("name", every_game())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_recorded_as_json_replay_and_validate(name: str, seed: int) -> None:
    game = game_named(name)
    engines = game.engines(builtin_layout(game.default_spec))
    players = engines.rules.players
    outcome = play_game(engines.search, {p: RandomAgent() for p in players}, random.Random(seed), max_turns=400)
    result = None if outcome.timeout else outcome.result.to_json()
    text = Record(name, game.default_spec, outcome.moves, {}, {}, seed, result).dumps()
    record = read_record(text)
    replayed = replay(game.rules(builtin_layout(str(record.layout))), record.moves, record.result)
    assert replayed.valid, replayed.report()
    assert replayed.moves_played == len(outcome.moves)


@pytest.mark.parametrize("name", every_game())
def test_marks_draw_as_a_well_formed_svg_with_a_coin_per_mark(name: str) -> None:
    game = game_named(name)
    for engines, state in random_states(game, seed=3):
        if len(engines.view.marks(state)) >= 2:
            break
    svg = ET.fromstring(game.position_svg(engines.rules, state))
    assert svg.tag.endswith("svg") and svg.get("width", "").endswith("mm")
    texts = [t.text for t in svg.iter() if t.tag.endswith("text") and t.text]
    assert all(m.text in texts for m in engines.view.marks(state) if m.text)


def test_the_toy_game_is_reachable_by_name_everywhere_a_layout_spec_is() -> None:
    from coinprint import build_board, load_layout

    assert len(build_board("strip", squares=4)) == 4
    assert load_layout("strip:squares=3").game == "strip"


# -- the toy game through the command line: one class and one registry line give every command --


def run_cli(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from coinprint.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_the_toy_game_has_every_command_with_its_declared_options(tmp_path) -> None:
    from pypdf import PdfReader

    code, text = run_cli("board", "strip", "--squares", "4", "-o", str(tmp_path / "strip.geojson"))
    assert code == 0, text
    assert len(loads((tmp_path / "strip.geojson").read_text())) == 4
    code, text = run_cli("board", "strip", "--squares", "3", "-o", str(tmp_path / "strip.svg"))
    assert code == 0, text
    squares = [e for e in ET.parse(tmp_path / "strip.svg").iter() if e.tag.endswith("text") and e.text in "123"]
    assert len(squares) == 3
    code, text = run_cli("validate", "layout", str(tmp_path / "strip.geojson"))
    assert code == 0 and "valid strip layout with 4 spaces" in text
    code, text = run_cli("rules", "strip", "--squares", "7", "-o", str(tmp_path / "rules.pdf"))
    assert code == 0, text
    assert "row of 7 squares" in " ".join(PdfReader(tmp_path / "rules.pdf").pages[0].extract_text().split())
    code, text = run_cli("kit", "strip", "-o", str(tmp_path / "kits"))
    assert code == 0, text
    assert len(PdfReader(tmp_path / "kits" / "strip-kit-a4-en.pdf").pages) >= 2


def test_the_toy_game_refuses_an_appendix_its_texts_do_not_have(tmp_path) -> None:
    # strip.en.json has no "appendix": a page holding only the footer would be printed.
    from tests.conftest import run_cli as run_main

    result = run_main("rules", "strip", "--appendix", "-o", str(tmp_path / "rules.pdf"))
    assert result.code == 2 and result.out == ""
    assert result.err.strip().splitlines() == [
        "coinprint: error: Strip has no appendix in strip.en.json; leave out --appendix"
    ]
    assert not (tmp_path / "rules.pdf").exists()
    assert run_main("rules", "strip", "-o", str(tmp_path / "rules.pdf")).code == 0


def test_the_toy_game_plays_on_a_built_in_and_a_file_layout_and_its_records_validate(tmp_path) -> None:
    code, text = run_cli("play", "strip", "--squares", "6", "--games", "3", "--workers", "1", "-o", str(tmp_path / "a"))
    assert code == 0, text
    assert "3 games of Strip on strip:squares=6" in text
    records = sorted((tmp_path / "a").glob("strip-*.json"))
    assert len(records) == 3
    for record in records:
        assert run_cli("validate", "game", str(record))[0] == 0
        assert len(read_record(record.read_text()).moves) == 6
    run_cli("board", "strip", "--squares", "2", "-o", str(tmp_path / "two.geojson"))
    code, text = run_cli(
        "play",
        "strip",
        "--layout",
        str(tmp_path / "two.geojson"),
        "--games",
        "1",
        "--workers",
        "1",
        "-o",
        str(tmp_path / "b"),
    )
    assert code == 0, text
    (record,) = (tmp_path / "b").glob("strip-*.json")
    assert len(read_record(record.read_text()).moves) == 2
    assert run_cli("validate", "game", str(record))[0] == 0


def test_a_bad_toy_option_is_refused_in_one_line_with_exit_2(tmp_path) -> None:
    from coinprint.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["board", "strip", "--squares", "12", "-o", str(tmp_path / "x.svg")])
    assert stopped.value.code == 2
    assert not (tmp_path / "x.svg").exists()


PLUGIN = """
import sys
sys.path.insert(0, {root!r})
from coinprint.registry import GAMES
from tests.toygame import GAME
GAMES.register(GAME)  # before the command line is imported
from coinprint.cli import main
main(sys.argv[1:])
"""


def test_a_game_registered_before_the_command_line_is_imported_appears_everywhere(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "plugin.py"
    script.write_text(PLUGIN.format(root=str(Path(__file__).resolve().parent.parent)))
    for args in (
        ["board", "strip", "-o", str(tmp_path / "s.svg")],
        ["balance", "strip", "--games", "4", "--workers", "1"],
    ):
        done = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.svg").is_file()
    listed = subprocess.run([sys.executable, str(script), "play", "--help"], capture_output=True, text=True, timeout=60)
    assert "strip" in listed.stdout


def test_the_help_names_every_registered_game_the_toy_one_too(capsys) -> None:
    code, out, _ = run_main(capsys, "--help")
    assert code == 0
    first = " ".join(out.split("\n\n")[1].split())  # the first paragraph, unwrapped
    titles = [game.title for game in GAMES]
    assert toygame.GAME.title in titles
    assert first == f"Print and play coin games: {', '.join(titles[:-1])} and {titles[-1]}."


def test_a_game_installed_as_a_plugin_entry_point_appears_in_every_command(tmp_path) -> None:
    # A package that declares a coinprint.games entry point (as pip installs it: a dist-info
    # folder with entry_points.txt) is found without any registration call.
    import os
    import subprocess
    import sys
    from pathlib import Path

    info = tmp_path / "strip_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: strip-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[coinprint.games]\nstrip = tests.toygame:Strip\n")
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, str(tmp_path)])}
    for args in (["kit", "strip", "-o", str(tmp_path / "kits")], ["rules", "strip", "-o", str(tmp_path / "r.pdf")]):
        done = subprocess.run(
            [sys.executable, "-m", "coinprint", *args], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "kits" / "strip-kit-a4-en.pdf").is_file() and (tmp_path / "r.pdf").is_file()
    # Without the plug-in, the game is unknown; with it but its code missing, one line says so.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for folder, words in (
        (elsewhere, "No such command 'strip'"),
        (tmp_path, "'strip' (tests.toygame:Strip) is broken and cannot be loaded"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "coinprint", "board", "strip"],
            capture_output=True,
            text=True,
            cwd=folder,
            timeout=60,
        )
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


SHARED = {
    "board": {
        "--paper",
        "--style",
        "--margin",
        "--overlap",
        "--output",
        "--format",
        "--layout",
        "--units",
        "--tolerance",
    },
    "rules": {"--paper", "--lang", "--output", "--format"},
    "play": {"--layout", "--games", "--seed", "--max-turns", "--output", "--html", "--workers", "--dask"},
}


@pytest.mark.parametrize("name", every_game())
@pytest.mark.parametrize("group", ["board", "rules", "play"])
def test_every_game_command_takes_the_shared_options_and_its_declared_ones(name: str, group: str) -> None:
    import click

    from coinprint.cli import cli

    game = GAMES[name]
    parent = cli.get_command(click.Context(cli), group)
    assert isinstance(parent, click.Group)
    if group == "play" and not game.simulated:
        # A refereed game (Flick) is not played by agents: choosing it says so, in one line.
        with pytest.raises(click.UsageError, match="refereed, not simulated"):
            parent.get_command(click.Context(parent), name)
        return
    command = parent.get_command(click.Context(parent), name)
    assert command is not None
    flags = {opt for param in command.params for opt in param.opts if opt.startswith("--")}
    declared = {param.flag(group) for param in game.schema.shown_in(group)}
    assert SHARED[group] <= flags
    assert declared <= flags
    if group == "play":
        assert {seat.flag for seat in game.seats} <= flags


# -- no option is silently ignored ---------------------------------------------------------------

SLOPPY = "sloppy"
"""A variant of the toy game that declares one parameter more, ``extra``, which no hook reads."""
EVERYWHERE = frozenset({"board", "rules", "play", "spec"})
ONE_GAME = ("--games", "1", "--workers", "1")


@pytest.fixture(scope="module")
def sloppy(tmp_path_factory) -> Iterator[Game]:
    import shutil

    from coinprint.params import Param

    texts = tmp_path_factory.mktemp("sloppy_texts")
    shutil.copy(toygame.TEMPLATE, texts / f"{SLOPPY}.en.json")

    class Sloppy(toygame.Strip):
        name = SLOPPY
        title = "Sloppy Strip"
        template_folder = texts
        params = (*toygame.Strip.params, Param("extra", "int", "Read by no hook.", 0, EVERYWHERE, low=0, high=9))

    game = Sloppy()
    GAMES.register(game)
    yield game
    GAMES.unregister(SLOPPY)


def run_main(capsys, *args: object) -> tuple[int, str, str]:
    """``coinprint ARGS`` as the console script runs it: (exit code, stdout, stderr)."""
    from coinprint.cli import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    code = stopped.value.code
    return code if isinstance(code, int) else (0 if code is None else 2), out, err


def with_extra(command: str, out, extra: bool = True) -> list[object]:
    """The command line that gives the variant's ``extra`` (or, with ``extra`` False, the same
    without it) in ``command``; ``spec``: in the layout spec ``play --layout`` takes."""
    given = ["--extra", "3"] if extra else []
    return {
        "board": ["board", SLOPPY, "--squares", "4", *given, "-o", out / "board.svg"],
        "rules": ["rules", SLOPPY, "--squares", "4", *given, "-o", out / "rules.pdf"],
        "play": ["play", SLOPPY, "--squares", "4", *given, *ONE_GAME, "-o", out / "records"],
        "spec": ["play", SLOPPY, "--layout", f"{SLOPPY}:squares=4" + (",extra=3" if extra else ""), *ONE_GAME]
        + ["-o", out / "records"],
    }[command]


@pytest.mark.parametrize("command", sorted(EVERYWHERE))
def test_a_parameter_no_hook_reads_is_refused_in_one_line_naming_it(sloppy, command, tmp_path, capsys) -> None:
    import click

    from coinprint.cli import cli

    if command != "spec":  # shown: the command offers the option, so the refusal is the game's
        group = cli.get_command(click.Context(cli), command)
        assert isinstance(group, click.Group)
        offered = group.get_command(click.Context(group), SLOPPY)
        assert offered is not None and "--extra" in {o for p in offered.params for o in p.opts}
    code, _, err = run_main(capsys, *with_extra(command, tmp_path))
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "does not use" in err and "extra" in err, err
    assert not list(tmp_path.rglob("*.*")), "nothing is written"
    # The same command without it runs: the refusal is of the unread value alone.
    code, _, err = run_main(capsys, *with_extra(command, tmp_path, extra=False))
    assert code == 0, err


def squares_output(command: str, squares: int, out, capsys) -> object:
    """What ``command`` of the variant writes with ``--squares squares``, in a comparable form."""
    from pypdf import PdfReader

    out.mkdir()
    if command == "board svg":
        assert run_main(capsys, "board", SLOPPY, "--squares", squares, "-o", out / "b.svg")[0] == 0
        return (out / "b.svg").read_bytes()
    if command == "board geojson":
        assert run_main(capsys, "board", SLOPPY, "--squares", squares, "-o", out / "b.geojson")[0] == 0
        return (out / "b.geojson").read_bytes(), len(loads((out / "b.geojson").read_text()))
    if command == "rules":
        assert run_main(capsys, "rules", SLOPPY, "--squares", squares, "-o", out / "r.pdf")[0] == 0
        return " ".join(" ".join(page.extract_text() for page in PdfReader(out / "r.pdf").pages).split())
    assert run_main(capsys, "play", SLOPPY, "--squares", squares, *ONE_GAME, "-o", out)[0] == 0
    (record,) = out.glob(f"{SLOPPY}-*.json")
    played = read_record(record.read_text())
    return played.layout, len(played.moves)


@pytest.mark.parametrize("command", ["board svg", "board geojson", "rules", "play"])
def test_the_parameter_the_game_reads_changes_what_each_command_writes(sloppy, command, tmp_path, capsys) -> None:
    three = squares_output(command, 3, tmp_path / "three", capsys)
    four = squares_output(command, 4, tmp_path / "four", capsys)
    assert three != four
    if command == "board geojson":
        assert (three[1], four[1]) == (3, 4)
    if command == "rules":
        assert "row of 3 squares" in three and "row of 4 squares" in four
    if command == "play":
        assert three == (f"{SLOPPY}:squares=3", 3) and four == (f"{SLOPPY}:squares=4", 4)


@pytest.mark.parametrize("name", every_game())
def test_every_parameter_a_game_shows_is_read_where_it_is_shown(name: str) -> None:
    # The other side of the refusal above: each option a game declares is read by the hook of
    # the command that shows it (given at its default, it is not refused as unused).
    from coinprint.kit.rulesheet import rule_sheet

    game = game_named(name)
    defaults = game.schema.defaults()
    for param in game.schema.shown_in("board"):
        game.layout(defaults.replace(**{param.name: defaults.peek(param.name)}))
    for param in game.schema.shown_in("rules"):
        rule_sheet(game, "en", defaults.replace(**{param.name: defaults.peek(param.name)}))
    for param in game.schema.shown_in("play"):
        # play passes a layout's values to build only through the layout spec it records: a
        # layout parameter shown in play and not in the spec would never reach the game.
        assert param.role == "rules" or param.shown_in("spec"), f"{name}: play {param.flag('play')} reaches no hook"


def capability_cases() -> list[object]:
    """(game, options of ``board GAME``, words of the refusal): each capability option given
    where the capability is off. Taken from what the registry's games declare."""
    cases = []
    for name in every_game():
        game = toygame.GAME if name == toygame.NAME and not TOY_BUILT_IN else GAMES[name]
        if game.generated is None:
            cases.append((name, ["--fair"], "No such option"))
            cases.append((name, ["--candidates", "3"], "No such option"))
        else:
            cases.append((name, ["--candidates", "3"], "--candidates is for --fair"))
            cases.append((name, ["--fair-games", "4", "--agent", "random"], "are for --fair"))
            for key, wanted in game.generated.asks.items():
                other = next(c for c in game.schema[key].choices if c != wanted) if game.schema[key].choices else None
                if other is not None:
                    flag = game.schema[key].flag("board")
                    cases.append((name, ["--fair", flag, other], f"--fair needs {flag} {wanted}"))
        if not game.cards:
            cases.append((name, ["--copies", "2"], "No such option"))
            cases.append((name, ["--bleed", "3mm"], "No such option"))
    return [pytest.param(*case, id=f"{case[0]} {' '.join(case[1])}") for case in cases]


def test_the_registry_has_a_game_of_each_capability() -> None:
    # The capability cases below cover both sides only if some game has each capability.
    games = [GAMES[name] for name in GAMES.names()]
    assert any(game.generated is not None for game in games)
    assert any(game.cards for game in games)
    assert any(game.generated is None for game in games) and any(not game.cards for game in games)


@pytest.mark.parametrize(("name", "options", "words"), capability_cases())
def test_a_capability_option_without_its_capability_on_is_refused(name, options, words, tmp_path, capsys) -> None:
    code, _, err = run_main(capsys, "board", name, *options, "-o", tmp_path / "board.svg")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert not (tmp_path / "board.svg").exists()
