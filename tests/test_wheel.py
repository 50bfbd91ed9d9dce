"""A game added as CONTRIBUTING.md says ships in the wheel, works from an installed copy and
passes the whole suite.

The source tree is copied, a scratch fifth game (``tests/scratch_game/``) is added to the copy
exactly as "Adding a game" says (its folder ``coinprint/games/strip/``, one line in
``BUILT_IN``, its English texts ``templates/strip.en.json``), a wheel is built offline and
installed in a fresh venv, and every registered game of the installed copy — found by asking
it, so the four built-in games and the scratch one — goes through ``board``, ``rules``, ``kit``
and ``validate layout`` from a folder that is not the checkout; the scratch game is played
and its records validated. Then (marked slow) the suite itself runs in that venv from the
copied tree, every test parametrised by game taking the scratch game as a built-in one: the
book's three steps are all a game needs to keep the suite green.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from coinprint.registry import BUILT_IN

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / "tests" / "scratch_game"
GAME = "strip"
"""The scratch game: its package ``tests/scratch_game/strip/`` (class ``Strip``) and its
English texts ``tests/scratch_game/strip.en.json``."""
GAME_CLASS = "Strip"
SOURCE_FILES = ("pyproject.toml", "setup.py", "README.md")
SOURCE_FOLDERS = ("coinprint", "templates")
SUITE_FILES = ("CONTRIBUTING.md", "CHANGELOG.md", "LICENSE", "mkdocs.yml")
SUITE_FOLDERS = ("tests", "docs", "examples", "bench")
"""What the suite reads besides the source: the tests and the pages and examples they check."""

PDF, SVG, JSON = (b"%PDF",), (b"<svg", b"<?xml"), (b"{",)


def add_game(source: Path, name: str, package: Path, english: Path, cls: str) -> None:
    """Add a game to the source tree at ``source`` as CONTRIBUTING.md's "Adding a game" says:
    its folder, its line in ``BUILT_IN`` and its English rule-sheet texts."""
    shutil.copytree(package, source / "coinprint" / "games" / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(english, source / "templates" / f"{name}.en.json")
    registry = source / "coinprint" / "registry.py"
    line = f'    "{name}": "coinprint.games.{name}:{cls}",\n'
    text, added = re.subn(
        r"(BUILT_IN: dict\[str, str\] = \{\n(?:    .*\n)*?)\}", rf"\g<1>{line}}}", registry.read_text()
    )
    assert added == 1, "BUILT_IN not found in coinprint/registry.py"
    registry.write_text(text)


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A copy of the source tree, with the scratch game added."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCE_FILES:
        shutil.copy(ROOT / name, source / name)
    for folder in SOURCE_FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    add_game(source, GAME, SCRATCH / GAME, SCRATCH / f"{GAME}.en.json", GAME_CLASS)
    return source


@pytest.fixture(scope="module")
def wheel(source, tmp_path_factory) -> Path:
    # Built offline from the copy, so the checkout is left as it was (no build/ folder).
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"]
        + [str(source), "-w", str(out)],
        capture_output=True,
        text=True,
        cwd=source,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (found,) = out.glob("coinprint-*.whl")
    return found


@dataclass(frozen=True)
class Installed:
    """The wheel installed in a fresh venv, and a folder that is not the checkout to run it in."""

    venv: Path
    python: Path
    script: Path
    elsewhere: Path
    env: dict[str, str]

    def run(self, *args: str | Path, module: bool = False) -> subprocess.CompletedProcess[str]:
        """``coinprint ARGS`` through the console script (or ``python -m coinprint``)."""
        command = [str(self.python), "-m", "coinprint"] if module else [str(self.script)]
        return subprocess.run(
            [*command, *map(str, args)], capture_output=True, text=True, cwd=self.elsewhere, env=self.env, timeout=300
        )

    def python_code(self, code: str) -> str:
        done = subprocess.run(
            [str(self.python), "-c", code], capture_output=True, text=True, cwd=self.elsewhere, env=self.env
        )
        assert done.returncode == 0, done.stderr
        return done.stdout


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Installed:
    """The wheel in a venv made without pip; its dependencies are the test interpreter's,
    seen through a ``.pth`` file of plain paths (which does not run that folder's own
    ``.pth`` files, so the checkout's editable coinprint stays out of sight)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--clear", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Installed before the dependencies are seen, so pip does not meet the editable install.
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    ask = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(
        subprocess.run([str(python), "-c", ask], capture_output=True, text=True, check=True, env=env).stdout.strip()
    )
    theirs = dict.fromkeys([*site.getsitepackages(), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (purelib / "test-dependencies.pth").write_text("".join(f"{path}\n" for path in theirs))
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    return Installed(venv, python, venv / "bin" / "coinprint", elsewhere, env)


def test_the_wheel_ships_every_template_and_the_added_game(wheel, source):
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in (source / "templates").rglob("*.*"):
        assert f"coinprint/templates/{template.relative_to(source / 'templates').as_posix()}" in names
    assert "coinprint/cli/__init__.py" in names
    # PEP 561: type checkers use coinprint's own hints.
    assert "coinprint/py.typed" in names
    # The added game: its folder (found, not listed) and its texts, and the registry names it.
    for path in (SCRATCH / GAME).rglob("*.py"):
        assert f"coinprint/games/{GAME}/{path.relative_to(SCRATCH / GAME).as_posix()}" in names
    assert f"coinprint/templates/{GAME}.en.json" in names
    registry = zipfile.ZipFile(wheel).read("coinprint/registry.py").decode()
    assert f'"{GAME}": "coinprint.games.{GAME}:{GAME_CLASS}"' in registry


def test_the_installed_copy_is_the_wheel_and_registers_the_added_game(installed):
    code = (
        "import coinprint, sys; from coinprint.registry import GAMES; from coinprint.resources import templates_dir\n"
        "from coinprint.render.style import palette\n"
        f"game = GAMES[{GAME!r}]\n"
        "print(coinprint.__file__); print(sys.modules[type(game).__module__].__file__); print(templates_dir())\n"
        "print(palette('ink-saver').space_stroke); print(*GAMES.names())"
    )
    package, game_file, templates, stroke, names = installed.python_code(code).strip().splitlines()
    for path in (package, game_file, templates):
        assert Path(path).is_relative_to(installed.venv), path
    assert Path(game_file).parent.name == GAME and Path(templates).name == "templates"
    assert stroke == "#000000"
    assert names.split() == [*BUILT_IN, GAME]


def magic(path: Path, starts: tuple[bytes, ...]) -> str | None:
    """What is wrong with an output file: missing, empty, or not starting with ``starts``."""
    if not path.is_file():
        return f"{path.name} was not written"
    data = path.read_bytes()[:16]
    if not data:
        return f"{path.name} is empty"
    return None if data.startswith(starts) else f"{path.name} starts with {data!r}, not {starts}"


def every_command(installed: Installed, game: str, out: Path) -> list[str]:
    """``board`` (GeoJSON and SVG), ``validate layout`` on the GeoJSON, ``rules`` and ``kit``
    for ``game``; what went wrong, one line each."""
    out.mkdir()
    wrong = []
    steps = (
        (("board", game, "-o", out / "board.geojson"), out / "board.geojson", JSON),
        (("board", game, "-o", out / "board.svg"), out / "board.svg", SVG),
        (("validate", "layout", out / "board.geojson"), None, ()),
        (("rules", game, "-o", out / "rules.pdf"), out / "rules.pdf", PDF),
        (("kit", game, "-o", out / "kits"), out / "kits" / f"{game}-kit-a4-en.pdf", PDF),
    )
    for args, path, starts in steps:
        done = installed.run(*args)
        said = "validate layout" if args[0] == "validate" else args[0]
        if done.returncode != 0:
            wrong.append(f"coinprint {said} {game}: exit {done.returncode}: {done.stderr.strip()}")
        elif path is not None and (problem := magic(path, starts)):
            wrong.append(f"coinprint {said} {game}: {problem}")
        elif path is None and f"valid {game} layout" not in done.stdout:
            wrong.append(f"coinprint {said} {game}: {done.stdout.strip()}")
    return wrong


def test_every_registered_game_of_the_installed_copy_has_every_command(installed, tmp_path):
    names = installed.python_code("from coinprint.registry import GAMES; print(*GAMES.names())").split()
    assert GAME in names and set(BUILT_IN) <= set(names)
    with ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 1))) as pool:
        reports = pool.map(lambda name: every_command(installed, name, tmp_path / name), names)
        wrong = [line for report in reports for line in report]
    assert not wrong, "\n".join(wrong)


def test_the_added_game_plays_and_its_records_validate(installed, tmp_path):
    done = installed.run("play", GAME, "--games", "2", "--workers", "1", "-o", tmp_path / "records")
    assert done.returncode == 0, done.stderr
    assert f"2 games of Strip on {GAME}:squares=5" in done.stdout
    records = sorted((tmp_path / "records").glob(f"{GAME}-*.json"))
    assert len(records) == 2
    for record in records:
        assert magic(record, JSON) is None, magic(record, JSON)
        checked = installed.run("validate", "game", record, module=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_added_game_in_another_language_is_printed_in_english_with_a_one_line_note(installed, tmp_path):
    # Only templates/strip.en.json was added; coinprint prints pages in Swedish too.
    done = installed.run("rules", GAME, "--lang", "sv", "-o", tmp_path / "rules.pdf")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "note: Strip has no rule sheet in 'sv'; printing it in English"
    assert magic(tmp_path / "rules.pdf", PDF) is None, magic(tmp_path / "rules.pdf", PDF)


GAME_CASE = re.compile(rf"\[[^\]]*\b{GAME}\b[^\]]*\]$")
"""A test id whose parameters name the scratch game (``test_x[a4-en-strip]``, ``[strip --fair]``)."""

CROSS_GAME_FILES = (
    "tests/test_architecture.py",
    "tests/test_conformance.py",
    "tests/test_hostile.py",
    "tests/test_kit.py",
    "tests/test_print_colour.py",
    "tests/test_print_product.py",
    "tests/test_print_quality.py",
    "tests/test_registry.py",
)
"""Suites that parametrise over the registry: each must give the scratch game tests of its own."""


@pytest.fixture(scope="module")
def suite_tree(source, wheel, tmp_path_factory) -> Path:
    """The copied source tree with the scratch game (the wheel's source) and the test suite."""
    tree = tmp_path_factory.mktemp("suite") / "coinprint-source"
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    for name in SUITE_FILES:
        shutil.copy(ROOT / name, tree / name)
    for folder in SUITE_FOLDERS:
        shutil.copytree(ROOT / folder, tree / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def suite(installed: Installed, tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in the fresh venv, from ``tree``."""
    command = [str(installed.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=tree, env=installed.env, timeout=1800)


@pytest.mark.slow
def test_the_added_game_passes_every_test_parametrised_by_game(installed, suite_tree):
    listed = suite(installed, suite_tree, "--collect-only", "tests")
    assert listed.returncode == 0, listed.stdout[-3000:] + listed.stderr
    cases = [line for line in listed.stdout.splitlines() if GAME_CASE.search(line)]
    files = {case.split("::")[0] for case in cases}
    assert not set(CROSS_GAME_FILES) - files, f"no {GAME} tests in {sorted(set(CROSS_GAME_FILES) - files)}"
    done = suite(installed, suite_tree, "-n", "2", *cases)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert f"{len(cases)} passed" in done.stdout, done.stdout[-2000:]
