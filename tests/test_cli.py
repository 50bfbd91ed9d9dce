"""The command-line contract: outputs, determinism, one-line errors with the right exit code,
no half-written files, and a fast --help."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import coinprint
from coinprint.games.cointable.board import build
from coinprint.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


def test_version_and_help(cli):
    result = cli("--version")
    assert result.code == 0 and coinprint.__version__ in result.out
    for command in (
        [],
        ["board"],
        ["board", "cointable"],
        ["validate", "layout"],
        ["validate", "game"],
        ["play"],
        ["rules"],
    ):
        result = cli(*command, "--help")
        assert result.code == 0 and "Usage:" in result.out, command


@pytest.mark.parametrize("group", ["cli", "validate"])
def test_the_help_lists_each_command_as_its_own_help_says(group):
    # --help lists the commands from summaries kept beside their names (so it imports no
    # command module); each must say what the command's own help says.
    import click

    from coinprint.cli import groups

    command = getattr(groups, group)
    ctx = click.Context(command)
    assert command.list_commands(ctx) == list(command.lazy)
    for name, (_, summary) in command.lazy.items():
        loaded = command.get_command(ctx, name)
        assert loaded is not None and loaded.name == name
        own = " ".join((loaded.help or "").split("\n\n")[0].split())
        assert summary == own, name
        for limit in (30, 45, 70):
            assert groups._short_help(summary, limit) == loaded.get_short_help_str(limit), name


def test_python_dash_m_runs_the_same_cli():
    done = subprocess.run([sys.executable, "-m", "coinprint", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "coinprint, version" in done.stdout


def test_help_does_not_import_the_heavy_libraries():
    commands = (
        [["--help"], ["kit", "--help"]]
        + [[group, game, "--help"] for group in ("board", "rules") for game in GAMES.names()]
        + [["play", game, "--help"] for game in GAMES.simulated()]
    )
    code = (
        "import sys; from coinprint.cli import main\n"
        f"for args in {commands!r}:\n"
        "    try:\n        main(args)\n    except SystemExit as done:\n        assert done.code == 0, args\n"
        "heavy = {'shapely', 'reportlab', 'networkx', 'svgwrite', 'numpy'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_default_output_goes_to_the_output_folder(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("board", "cointable", "--size", "3")
    assert result.code == 0
    assert (tmp_path / "output" / "cointable-board-a4.pdf").is_file()
    assert str(Path("output") / "cointable-board-a4.pdf") in result.out


def test_output_folder_and_format_inference(cli, tmp_path):
    assert cli("board", "cointable", "--size", "2", "-o", str(tmp_path) + "/").code == 0
    assert (tmp_path / "cointable-board-a4.pdf").is_file()
    assert cli("board", "cointable", "--size", "2", "--format", "svg", "-o", str(tmp_path)).code == 0
    assert (tmp_path / "cointable-board.svg").read_bytes().startswith(b"<svg")
    assert cli("board", "cointable", "--size", "2", "-o", str(tmp_path / "b.geojson")).code == 0
    assert json.loads((tmp_path / "b.geojson").read_text())["coinprint"]["params"]["size"] == 2


@pytest.mark.parametrize("fmt", ["pdf", "svg", "geojson"])
def test_same_inputs_give_identical_bytes(cli, tmp_path, fmt):
    first, second = tmp_path / f"1.{fmt}", tmp_path / f"2.{fmt}"
    args = ("board", "cointable", "--paper", "a4", "--orientation", "flat")
    assert cli(*args, "-o", str(first)).code == 0
    assert cli(*args, "-o", str(second)).code == 0
    assert first.read_bytes() == second.read_bytes()


def test_identical_bytes_across_processes(tmp_path):
    outputs = []
    for run in range(2):
        out = tmp_path / f"{run}.pdf"
        subprocess.run(
            [sys.executable, "-m", "coinprint", "board", "cointable", "-o", str(out)],
            check=True,
            cwd=ROOT,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": str(run + 1)},
        )
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("style, filled", [("ink-saver", False), ("color", True)])
def test_styles_fill_cells_or_only_outline_them(cli, tmp_path, style, filled):
    from tests.conftest import read_svg

    out = tmp_path / "board.svg"
    assert cli("board", "cointable", "--style", style, "-o", str(out)).code == 0
    cells = read_svg(out).root.iterfind(".//{http://www.w3.org/2000/svg}use")
    fills = {use.get("fill") for use in cells}
    assert len(fills) == (3 if filled else 1)  # a proper 3-colouring, or no fill at all
    assert ("none" in fills) is not filled


# -- the error contract: one line on stderr, exit 2, no output file --------------------------------------
BAD_INPUTS = {
    "size zero": (["--size", "0"], "--size 0 is out of range; use 2 to 13"),
    "size huge": (["--size", "1000"], "--size 1000 is out of range; use 2 to 13"),
    "size not a number": (["--size", "five"], "--size must be a whole number, not 'five'"),
    "negative length": (["--hex", "-1in"], "'-1in' must be a positive length"),
    "unparseable length": (["--hex", "wide"], "'wide' is not a length"),
    "unknown unit": (["--hex", "3yd"], "unknown unit 'yd'"),
    "unknown paper": (["--paper", "b9"], "unknown paper 'b9'"),
    "unknown coin": (["--coin", "doubloon"], "unknown coin 'doubloon'"),
    "coin too big": (["--hex", "20mm", "--coin", "quarter"], "does not fit"),
    "bad choice": (["--orientation", "diagonal"], "'diagonal' is not one of"),
    "bad style": (["--style", "neon"], "'neon' is not one of"),
    "unknown suffix": (["-o", "{tmp}/board.docx"], "cannot tell the format"),
    "suffix and format disagree": (["-o", "{tmp}/board.svg", "--format", "pdf"], "make them agree"),
    "unwritable path": (["-o", "{tmp}/a-file.txt/board.pdf"], "cannot write"),
    "margin too big": (["--margin", "150mm"], "margin 150mm leaves too little"),
    "unknown option": (["--colour", "red"], "No such option"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gives_one_line_and_exit_2(cli, tmp_path, name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file.txt").write_text("not a folder")
    args, message = BAD_INPUTS[name]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = cli("board", "cointable", *args)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("coinprint: error: ")
    assert message in lines[0]
    assert "Traceback" not in result.err
    leftovers = [p for p in tmp_path.rglob("*") if p.name != "a-file.txt"]
    assert leftovers == [] or all(p.is_dir() and not any(p.iterdir()) for p in leftovers)


def test_a_failure_while_writing_leaves_no_file(cli, tmp_path, monkeypatch):
    import coinprint.kit.board as kit

    target = tmp_path / "board.pdf"
    target.write_bytes(b"the old board")

    def broken(*args, **kwargs):
        raise coinprint.errors.UsageError("the renderer broke")

    monkeypatch.setattr(kit, "pages_to_pdf", broken)
    result = cli("board", "cointable", "-o", str(target))
    assert result.code == 2 and "the renderer broke" in result.err
    assert target.read_bytes() == b"the old board"
    assert [p.name for p in tmp_path.iterdir()] == ["board.pdf"]


def test_write_is_atomic_when_the_disk_write_fails(tmp_path, monkeypatch):
    from coinprint import fileio

    target = tmp_path / "out.bin"

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", failing_replace)
    with pytest.raises(coinprint.errors.UsageError, match="No space left"):
        fileio.write_atomic(target, b"data")
    assert list(tmp_path.iterdir()) == []


# -- validate layout ------------------------------------------------------------------------------------------
def test_validate_layout_reports_every_problem_with_ids(cli, tmp_path):
    doc = json.loads(build(3).dumps())
    doc["features"][1]["id"] = doc["features"][0]["id"]  # a duplicate id
    doc["features"][5]["geometry"]["coordinates"][0][2] = [999.0, 999.0]  # a broken cell
    path = tmp_path / "broken.geojson"
    path.write_text(json.dumps(doc))
    result = cli("validate", "layout", str(path))
    assert result.code == 1
    lines = result.out.strip().splitlines()
    assert any(doc["features"][0]["id"] in line and "used by 2 features" in line for line in lines)
    assert any(doc["features"][5]["id"] in line and "invalid" in line for line in lines)
    assert lines[-1].endswith(f"invalid cointable layout: {len(lines) - 1} problem(s)")


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not JSON"),
        ('{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
        ('{"type": "FeatureCollection", "features": []}', "not a coinprint layout"),
    ],
)
def test_validate_layout_of_something_that_is_not_a_layout(cli, tmp_path, content, message):
    path = tmp_path / "x.geojson"
    path.write_text(content)
    result = cli("validate", "layout", str(path))
    assert result.code == 2 and message in result.err and len(result.err.strip().splitlines()) == 1


def test_validate_layout_of_a_missing_file_or_unknown_game(cli, tmp_path):
    result = cli("validate", "layout", str(tmp_path / "none.geojson"))
    assert result.code == 2 and "cannot read" in result.err
    doc = json.loads(build(2).dumps())
    doc["coinprint"]["game"] = "chess"
    path = tmp_path / "chess.geojson"
    path.write_text(json.dumps(doc))
    result = cli("validate", "layout", str(path))
    assert result.code == 1 and "unknown game 'chess'" in result.out


@pytest.mark.parametrize("args", [[], ["board"], ["rules"], ["play"], ["validate"]])
def test_bare_command_prints_its_help_and_exits_0(cli, args):
    result = cli(*args)
    assert result.code == 0 and result.err == ""
    assert result.out.startswith(f"Usage: coinprint {' '.join(args)}".rstrip() + " [OPTIONS]")
    assert "Commands:" in result.out


def test_a_tolerance_over_the_cap_is_refused_before_any_check(cli):
    result = cli(
        "validate",
        "layout",
        str(ROOT / "examples" / "coinage-card.svg"),
        "--game",
        "coinage",
        "--tolerance",
        "1000000mm",
    )
    assert result.code == 2 and result.out == ""
    assert "--tolerance must be from 0 to 2 mm" in result.err


@pytest.mark.parametrize(
    "args, option",
    [
        (["validate", "layout", "examples/coinage-card.svg", "--game", "coinage", "--report", "x.txt"], "--report"),
        (["validate", "game", "docs/none.json", "--svg", "x.pdf"], "--svg"),
    ],
)
def test_an_output_name_of_the_wrong_kind_is_refused_before_the_work(cli, tmp_path, args, option):
    # Refused while the options are read: nothing checked, printed or written first.
    args = [str(ROOT / a) if a.startswith(("examples/", "docs/")) else a for a in args]
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    result = cli(*args)
    assert result.code == 2 and result.out == "" and list(tmp_path.iterdir()) == []
    assert f"{option} needs a file name ending in" in result.err
