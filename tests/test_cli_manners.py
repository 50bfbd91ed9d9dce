"""Command-line manners: fresh seeds said and stored, paper from the environment, standard
input, --quiet, examples in every --help, games by their title, the right suggestion, shell
completion, one file-name pattern, and progress on a terminal for the long waits."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from coinprint.cli import cli
from coinprint.registry import GAMES
from coinprint.units import default_paper

ROOT = Path(__file__).resolve().parent.parent
CARD = ROOT / "examples" / "coinage-card.svg"
MM_PER_PT = 25.4 / 72


def run(*args: str, env: dict[str, str] | None = None, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """``coinprint ARGS`` in a fresh interpreter (the environment matters here)."""
    return subprocess.run(
        [sys.executable, "-m", "coinprint", *args],
        capture_output=True,
        text=True,
        input=None if stdin is None else stdin.decode("utf-8"),
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        timeout=300,
    )


def page_size_mm(path: Path) -> tuple[float, float]:
    from pypdf import PdfReader

    box = PdfReader(path).pages[0].mediabox
    return round(float(box.width) * MM_PER_PT, 1), round(float(box.height) * MM_PER_PT, 1)


# -- fresh seeds --------------------------------------------------------------------------------


def test_two_maps_without_a_seed_differ_and_each_says_its_seed(cli, tmp_path: Path) -> None:
    firsts = []
    for name in ("one", "two"):
        result = cli("board", "mapgame", "--countries", "9", "-o", str(tmp_path / name) + "/", "--format", "geojson")
        assert result.code == 0, result.err
        seed = int(result.out.split()[1].rstrip(":"))
        (written,) = (tmp_path / name).iterdir()
        assert written.name == f"mapgame-9-seed{seed}.geojson"  # the seed is in the name...
        assert f'"seed": {seed}' in written.read_text()  # ...and in the layout's metadata
        firsts.append((seed, written.read_bytes()))
    (seed_a, map_a), (seed_b, map_b) = firsts
    assert seed_a != seed_b and map_a != map_b
    again = tmp_path / "again.geojson"
    assert cli("board", "mapgame", "--countries", "9", "--seed", str(seed_a), "-o", str(again)).code == 0
    assert again.read_bytes() == map_a  # the printed seed repeats the map


def test_a_fixed_map_takes_no_fresh_seed_and_a_kit_keeps_its_standard_board(cli, tmp_path: Path) -> None:
    result = cli("board", "coinage", "-o", str(tmp_path) + "/", "--format", "svg")
    assert result.code == 0 and "seed" not in result.out
    assert [p.name for p in tmp_path.iterdir()] == ["coinage-classic.svg"]


def test_play_without_a_seed_draws_one_and_its_records_repeat(cli, tmp_path: Path) -> None:
    result = cli("play", "cointable", "--size", "2", "--games", "2", "--workers", "1", "-o", str(tmp_path / "a"))
    assert result.code == 0, result.err
    seed = int(result.out.split()[1].rstrip(":"))
    again = cli(
        "play",
        "cointable",
        "--size",
        "2",
        "--games",
        "2",
        "--workers",
        "1",
        "--seed",
        str(seed),
        "-o",
        str(tmp_path / "b"),
    )
    assert again.code == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == [f"cointable-{seed}.json", f"cointable-{seed + 1}.json"]
    assert all((tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes() for n in names)


# -- paper from the environment -------------------------------------------------------------------


def test_papersize_gives_letter_and_coinprint_paper_comes_first(tmp_path: Path) -> None:
    clean = {"COINPRINT_PAPER": ""}
    letter = run("board", "cointable", "-o", str(tmp_path / "l.pdf"), env={**clean, "PAPERSIZE": "letter"})
    assert letter.returncode == 0, letter.stderr
    assert page_size_mm(tmp_path / "l.pdf") in ((279.4, 215.9), (215.9, 279.4))
    both = run(
        "board", "cointable", "-o", str(tmp_path / "a.pdf"), env={"COINPRINT_PAPER": "a3", "PAPERSIZE": "letter"}
    )
    assert both.returncode == 0 and page_size_mm(tmp_path / "a.pdf") in ((420.0, 297.0), (297.0, 420.0))
    named = run("kit", "cointable", "-o", str(tmp_path) + "/", env={**clean, "PAPERSIZE": "letter"})
    assert (tmp_path / "cointable-kit-letter-en.pdf").is_file(), named.stderr


def test_a_paper_the_environment_names_badly_is_refused_naming_the_variable(tmp_path: Path) -> None:
    done = run(
        "board", "cointable", "-o", str(tmp_path / "x.pdf"), env={"COINPRINT_PAPER": "", "PAPERSIZE": "foolscap"}
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "PAPERSIZE says paper 'foolscap'" in done.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_libpapers_file_is_read_after_the_variables(tmp_path: Path) -> None:
    papersize = tmp_path / "papersize"
    papersize.write_text("# the system's paper\n\nLetter\n")
    assert default_paper({}, str(papersize)) == ("letter", str(papersize))
    assert default_paper({"PAPERSIZE": "a5"}, str(papersize)) == ("a5", "PAPERSIZE")
    assert default_paper({}, str(tmp_path / "missing")) == ("a4", "the default")


# -- standard input, --quiet, names -------------------------------------------------------------


def test_validate_layout_reads_a_drawing_from_standard_input() -> None:
    done = run("validate", "layout", "-", "--game", "coinage", stdin=CARD.read_bytes())
    assert done.returncode == 0, done.stderr
    assert "-: valid coinage layout with 10 spaces" in done.stdout


def test_a_board_piped_into_validate_is_checked(tmp_path: Path) -> None:
    board = run("board", "mapgame", "--seed", "2", "--countries", "9", "-o", "-", "--format", "geojson")
    assert board.returncode == 0 and board.stdout.startswith("{")
    checked = run("validate", "layout", "-", stdin=board.stdout.encode("utf-8"))
    assert checked.returncode == 0 and "valid mapgame layout with 9 spaces" in checked.stdout


def test_quiet_prints_results_and_errors_only(cli, tmp_path: Path) -> None:
    made = cli("board", "mapgame", "--countries", "9", "-q", "-o", str(tmp_path / "m.svg"))
    assert made.code == 0 and made.out == "" and made.err == ""
    assert (tmp_path / "m.svg").read_bytes().startswith(b"<svg")
    kit = cli("kit", "flick", "--quiet", "-o", str(tmp_path) + "/")
    assert kit.code == 0 and kit.out == "" and (tmp_path / "flick-kit-a4-en.pdf").is_file()
    checked = cli("validate", "layout", str(CARD), "--game", "coinage", "-q")
    assert "valid coinage layout" in checked.out  # the verdict is the result, kept
    wrong = cli("board", "cointable", "--size", "99", "-q")
    assert wrong.code == 2 and "--size 99" in wrong.err  # errors are never quiet


def test_outputs_that_differ_have_names_that_differ(cli, tmp_path: Path) -> None:
    for args in (["--paper", "letter"], ["--lang", "sv"], []):
        assert cli("kit", "cointable", *args, "-o", str(tmp_path) + "/").code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cointable-kit-a4-en.pdf",
        "cointable-kit-a4-sv.pdf",
        "cointable-kit-letter-en.pdf",
    ]


def test_a_game_is_found_by_its_title(cli, tmp_path: Path) -> None:
    result = cli("rules", "map", "-o", str(tmp_path) + "/")
    assert result.code == 0, result.err
    assert (tmp_path / "mapgame-rules-a4-en.pdf").is_file()
    assert cli("kit", "Map", "-o", str(tmp_path) + "/").code == 0
    assert cli("board", "CoinAge", "-o", str(tmp_path / "c.geojson")).code == 0


def test_another_games_agent_option_gets_this_games_and_flick_says_why_it_cannot_be_played(cli) -> None:
    for game in GAMES:
        if not game.simulated:
            refused = cli("play", game.name)
            assert refused.code == 2 and "refereed, not simulated" in refused.err
            continue
        foreign = next(s.flag for g in GAMES for s in g.seats if s.flag not in {t.flag for t in game.seats})
        wrong = cli("play", game.name, foreign, "greedy")
        assert wrong.code == 2 and wrong.err.count("\n") == 1
        assert all(seat.flag in wrong.err for seat in game.seats), wrong.err


# -- help, examples, completion -----------------------------------------------------------------


def every_command() -> list[tuple[list[str], click.Command]]:
    """Every command and group, with the words that reach it (the per-game ones built for each game)."""
    found: list[tuple[list[str], click.Command]] = [([], cli)]
    for name, command in cli.commands.items():
        found.append(([name], command))
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for sub in command.list_commands(ctx):
                found.append(([name, sub], command.get_command(ctx, sub)))
    return found


@pytest.mark.parametrize("words,command", every_command(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_help_has_examples_that_parse(words: list[str], command: click.Command) -> None:
    epilog = command.epilog or ""
    lines = [line.strip() for line in epilog.splitlines() if line.strip().startswith("coinprint")]
    assert len(lines) >= 2, f"coinprint {' '.join(words)} --help has no examples"
    for line in lines:
        args = shlex.split(line.split("<", 1)[0])[1:]  # no shell redirection
        assert args[: len(words)] == words, line
        target, rest = cli, args
        while isinstance(target, click.Group) and rest:
            ctx = click.Context(target)
            name, target, rest = target.resolve_command(ctx, rest)
        ctx = target.make_context("coinprint", list(rest))  # options and values are all accepted
        assert ctx.command is target


@pytest.mark.parametrize(
    "words,expected",
    [
        ("coinprint board c", {"cointable", "coinage"}),
        ("coinprint kit --paper le", {"letter", "legal"}),
        ("coinprint rules coinage --lang ", {"en", "sv"}),
        ("coinprint validate layout x.svg --game m", {"mapgame"}),
    ],
)
def test_the_shell_completes_games_papers_and_languages(words: str, expected: set[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from coinprint.cli.groups import cli; cli(prog_name='coinprint')"],
        env={
            **os.environ,
            "_COINPRINT_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split(" ")) - 1),
        },
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    offered = {line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line}
    assert expected <= offered, (done.stdout, done.stderr)


# -- progress on the long waits -------------------------------------------------------------------


def test_the_fair_search_hears_of_every_game_it_plays() -> None:
    from coinprint.caps import MAX_TURNS
    from coinprint.fair import fair_search, search_games
    from coinprint.selfplay import RunPlan

    heard: list[int] = []
    search = fair_search("mapgame:countries=5,seed=1", 3, RunPlan(4, 1, MAX_TURNS), fair_games=6, progress=heard.append)
    assert sum(heard) == search_games(3, 4, 6)
    assert search.check is not None
    assert sum(heard) == sum(report.games for report in search.reports) + search.check.games


def test_a_fair_search_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    import pty

    out = tmp_path / "fair.svg"
    command = [sys.executable, "-m", "coinprint", "board", "mapgame", "--countries", "5", "--seed", "1"]
    command += ["--fair", "--candidates", "2", "--fair-games", "20", "-o", str(out)]
    leader, follower = pty.openpty()
    done = subprocess.Popen(command, stdin=follower, stdout=subprocess.PIPE, stderr=follower, cwd=ROOT)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    assert done.wait(timeout=300) == 0, seen
    os.close(leader)
    from coinprint.fair import SEARCH_GAMES, search_games

    total = search_games(2, SEARCH_GAMES, 20)
    assert b"fair search" in seen and out.is_file()
    assert f"{total}/{total}".encode() in seen  # the bar counted every game of the search
