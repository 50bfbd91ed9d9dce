"""Hostile input: random option values and random mutations of valid layouts, records and
Flick event logs. Whatever comes in, the command line answers with exit 0, 1 or 2, at most
one line on stderr when it refuses, no traceback, no "internal error", and no file that was
not asked for (no temporaries left behind). The long runs are marked slow."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.registry import GAMES
from tests.conftest import CliResult, run_cli

HOSTILE_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -0.0,
    1e300,
    -1e300,
    10**40,
    "",
    " ",
    "x" * 300,
    "\x00",
    "\x01\x0c",
    "\ufffe",
    "a\nb",
    "é",
    {},
    [],
    [[]],
    [1, 2],
    [[1, 2]],
    {"x": 1, "y": 2},
    {"a": {"b": {}}},
    ["O", "X"],
    "O",
    "heads",
]
"""Values a mutation puts anywhere in a document (JSON can hold each of them)."""
RAW_HOSTILE = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 5000, '"\\ud800"', '"\\udc00x"', "[" * 100 + "]" * 100]
"""Texts that are not ordinary JSON values but a file can still contain."""


WALL_LIMIT = 120.0
"""Seconds of wall-clock time any one command may take, on however busy a machine: a hang fails."""


@dataclass(frozen=True)
class Took:
    """What a command cost: ``cpu`` seconds of work (this process and the children it reaped),
    which a busy machine does not stretch, and ``wall`` seconds on the clock, which it does."""

    cpu: float
    wall: float


def assert_clean(result: CliResult, took: Took | None = None, limit: float = 25.0) -> None:
    """A clean answer; with ``took``, one whose work stayed within ``limit`` CPU seconds (the
    caps bound the work, whatever else the machine is doing) and that did not hang."""
    assert result.code in (0, 1, 2), result
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    if result.code == 2:
        lines = result.err.strip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("coinprint: "), result.err
    if took is not None:
        assert took.cpu < limit, f"took {took.cpu:.1f} s of CPU time (the limit is {limit:g} s)"
        assert took.wall < WALL_LIMIT, f"took {took.wall:.0f} s on the clock: stuck, not just slow"


def files_in(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(*args: str) -> tuple[CliResult, Took]:
    """``run_cli(*args)`` and what it cost (:class:`Took`)."""
    cpu, wall = _cpu_seconds(), time.monotonic()
    result = run_cli(*args)
    return result, Took(_cpu_seconds() - cpu, time.monotonic() - wall)


# -- the documents the mutations start from -------------------------------------------------------------
_BASES: dict[str, dict] = {}
SMALL_LAYOUTS = {"cointable": "cointable:size=2", "mapgame": "mapgame:countries=5,seed=1"}
"""Where a game's standard layout is large, the smaller one its mutations start from; any other
game starts from the layout its bare name builds."""


def base_layout(game: str) -> dict:
    if game not in _BASES:
        from coinprint.analysis import builtin_layout

        _BASES[game] = json.loads(builtin_layout(SMALL_LAYOUTS.get(game, game)).dumps())
    return copy.deepcopy(_BASES[game])


def base_record(game: str) -> dict:
    key = "record:" + game
    if key not in _BASES:
        if game == "flick":
            moves = [
                {"shot": "heads", "coin": "h1"},
                {"enter": "h1", "edge": "heads"},
                {"stop": True},
                {"shot": "tails", "coin": "t1"},
                {"stop": True},
            ]
            doc = {"format": "coinprint-record/1", "game": "flick", "layout": "flick", "moves": moves}
        else:
            from coinprint.analysis import self_play

            spec, players = SMALL_LAYOUTS.get(game, game), GAMES[game].players
            record, _ = next(iter(self_play(spec, {p: "random" for p in players}, 1, 3, 60)))
            doc = record.to_json()
        _BASES[key] = doc
    return copy.deepcopy(_BASES[key])


def paths_in(doc: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document (the root is ())."""
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += paths_in(value, prefix + (key,))
    elif isinstance(doc, list):
        for index, value in enumerate(doc[:12]):  # the first few items are enough
            found += paths_in(value, prefix + (index,))
    return found


def replaced(doc: object, path: tuple, value: object) -> object:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]  # type: ignore[index]
    parent[path[-1]] = value  # type: ignore[index]
    return doc


@st.composite
def mutated(draw: st.DrawFn, doc: dict) -> str:
    """``doc`` with one to three values replaced (or deleted), as JSON text; sometimes a
    replacement is raw text that is not ordinary JSON (NaN, 5,000 digits, a lone surrogate)."""
    doc = copy.deepcopy(doc)
    raw: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths_in(doc)[1:] or [()]))
        action = draw(st.sampled_from(["value", "value", "delete", "raw"]))
        if action == "delete" and path:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
        elif action == "raw":
            raw.append(draw(st.sampled_from(RAW_HOSTILE)))
            doc = replaced(doc, path, f"@@RAW{len(raw) - 1}@@")  # type: ignore[assignment]
        else:
            doc = replaced(doc, path, copy.deepcopy(draw(st.sampled_from(HOSTILE_VALUES))))  # type: ignore[assignment]
    text = json.dumps(doc)
    for index, value in enumerate(raw):
        text = text.replace(f'"@@RAW{index}@@"', value)
    return text


FUZZ = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
SLOW_FUZZ = settings(FUZZ, max_examples=300)


def check_layout_text(folder: Path, text: str) -> None:
    path = folder / "layout.geojson"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = files_in(folder)
    result, took = timed("validate", "layout", str(path))
    assert_clean(result, took)
    assert files_in(folder) == before


def check_record_text(folder: Path, text: str) -> None:
    path = folder / "record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = files_in(folder)
    result, took = timed("validate", "game", str(path))
    assert_clean(result, took)
    assert files_in(folder) == before
    page = folder / "page.html"
    result, took = timed("replay", str(path), "-o", str(page))
    assert_clean(result, took)
    assert files_in(folder) - before <= ({page.name} if result.code in (0, 1) else set())
    assert result.code != 0 or page.is_file()
    page.unlink(missing_ok=True)


@pytest.mark.parametrize("game", GAMES.names())
def test_mutated_layouts_get_a_clean_answer(tmp_path, game):
    @FUZZ
    @given(text=mutated(base_layout(game)))
    def run(text: str) -> None:
        check_layout_text(tmp_path, text)

    run()


@pytest.mark.parametrize("game", GAMES.names())
def test_mutated_records_and_event_logs_get_a_clean_answer(tmp_path, game):
    @FUZZ
    @given(text=mutated(base_record(game)))
    def run(text: str) -> None:
        check_record_text(tmp_path, text)

    run()


@pytest.mark.parametrize("game", GAMES.simulated())
def test_records_with_a_mutated_inline_layout_get_a_clean_answer(tmp_path, game):
    record = base_record(game)
    record["layout"] = base_layout(game)

    @FUZZ
    @given(text=mutated(record))
    def run(text: str) -> None:
        check_record_text(tmp_path, text)

    run()


# -- random option values -------------------------------------------------------------------------------------
OPTION_VALUES = st.sampled_from(
    ["0", "-1", "1", "3", "1000000000", "9" * 200, "1e9", "nan", "", " ", "x" * 300, "a4", "10000x10000mm", "é", "-"]
)
COMMANDS = [
    ("balance", "mapgame", "--games"),
    ("balance", "cointable", "--max-turns"),
    ("balance", "coinage", "--layout"),
    ("play", "cointable", "--supply"),
    ("play", "cointable", "--games"),
    ("play", "mapgame", "--layout"),
    ("play", "coinage", "--max-turns"),
    ("rules", "cointable", "--supply"),
    ("rules", "coinage", "--lang"),
    ("rules", "mapgame", "--lang"),
    ("rules", "flick", "--paper"),
    ("board", "coinage", "--copies"),
    ("board", "coinage", "--card"),
    ("board", "cointable", "--hex"),
    ("board", "flick", "--width"),
    ("board", "mapgame", "--countries"),
    ("board", "mapgame", "--seed"),
    ("play", "coinage", "--map-seed"),
    ("kit", "cointable", "--paper"),
]


def run_option(folder: Path, command: tuple[str, str, str], value: str, games: str = "1") -> None:
    family, game, option = command
    args = [family, game, option, value]
    if family in ("play", "balance") and option != "--games":
        args += ["--games", games]
    if family == "play" and option != "--max-turns":
        args += ["--max-turns", "30"]
    if family == "balance" and option != "--max-turns":
        args += ["--max-turns", "30"]
    if family in ("play", "board", "rules", "kit"):
        args += ["-o", str(folder / "out" / ("" if family in ("play", "kit") else "x.svg"))]
    if family == "board" and option != "--paper":
        args += ["--format", "svg"]
    before = files_in(folder)
    result, took = timed(*args)
    assert_clean(result, took)
    new = {name for name in files_in(folder) - before if ".coinprint-" in name or name.endswith(".tmp")}
    assert not new, new
    if result.code != 0:
        assert files_in(folder) - before <= {"out"}, files_in(folder) - before


@pytest.mark.parametrize("command", COMMANDS, ids=["-".join(c) for c in COMMANDS])
def test_every_value_of_a_shared_option_gets_a_clean_answer(tmp_path, command):
    for value in ["0", "-1", "1000000000", "9" * 200, "", "x" * 300]:
        if command[2] == "--games" and value == "1000000000":
            continue  # over the cap: refused at once (below); nothing else is quick to check
        run_option(tmp_path, command, value)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=["-".join(c) for c in COMMANDS])
def test_random_option_values_get_a_clean_answer(tmp_path, command):
    @SLOW_FUZZ
    @given(value=OPTION_VALUES)
    def run(value: str) -> None:
        run_option(tmp_path, command, value)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES.names())
def test_many_mutated_layouts_and_records(tmp_path, game):
    @SLOW_FUZZ
    @given(layout=mutated(base_layout(game)), record=mutated(base_record(game)))
    def run(layout: str, record: str) -> None:
        check_layout_text(tmp_path, layout)
        check_record_text(tmp_path, record)

    run()


# -- the classes of the campaign, one example each ---------------------------------------------------------------
def test_caps_on_work_refuse_at_once_naming_the_cap(tmp_path):
    out = str(tmp_path / "out")
    cases = [
        (["balance", "mapgame", "--games", "1000000000"], "games cap"),
        (["play", "cointable", "--games", "10000000", "-o", out], "games cap"),
        (["balance", "cointable", "--max-turns", "0"], "--max-turns must be a whole number from 1"),
        (["play", "cointable", "--max-turns", "-1", "-o", out], "--max-turns must be a whole number from 1"),
        (["rules", "cointable", "--supply", "1" + "0" * 100, "-o", out + "/r.pdf"], "supply cap"),
        (["board", "coinage", "--copies", "0", "-o", out + "/c.pdf"], "--copies must be a whole number from 1"),
        (["board", "coinage", "--copies", "1000000000", "-o", out + "/c.pdf"], "copies cap"),
        (["board", "flick", "--paper", "100000x100000mm", "-o", out + "/f.pdf"], "paper cap"),
        (["board", "coinage", "--card", "0.01x0.01mm", "-o", out + "/c.pdf"], "card caps"),
        (["board", "coinage", "--card", "100000x100000mm", "-o", out + "/c.pdf"], "card caps"),
        (["board", "cointable", "--size", "13", "--hex", "500mm", "--paper", "a5", "-o", out + "/t.pdf"], "page cap"),
        (["balance", "coinage", "--layout", ""], "--layout is empty"),
        (["play", "cointable", "--seed", "9" * 150, "-o", out], "seed cap"),
        (["rules", "coinage", "--lang", "x" * 10000, "-o", out + "/r.pdf"], "not a language code"),
    ]
    for args, cap in cases:
        result, took = timed(*args)
        assert_clean(result, took, limit=5.0)
        assert result.code == 2 and cap in result.err, (args, result.err)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_play_and_balance_check_the_layout_first(tmp_path):
    result = run_cli("play", "mapgame", "--layout", "cointable:size=3", "--games", "1", "-o", str(tmp_path / "g"))
    assert result.code == 2 and "is a cointable layout, not mapgame" in result.err
    assert not (tmp_path / "g").exists()
    doc = base_layout("mapgame")
    doc["features"][0]["geometry"]["coordinates"][0].reverse()
    doc["features"][1]["geometry"]["coordinates"][0][:2] = doc["features"][1]["geometry"]["coordinates"][0][1::-1]
    bad = tmp_path / "bad.geojson"
    bad.write_text(json.dumps(doc))
    for args in (
        ["play", "mapgame", "--layout", str(bad), "-o", str(tmp_path / "g")],
        ["balance", "mapgame", "--layout", str(bad)],
    ):
        result = run_cli(*args, "--games", "2")
        assert_clean(result)
        assert result.code == 1 and "not a valid mapgame layout" in result.err, result.err
    assert not (tmp_path / "g").exists()


def test_json_edge_cases_are_refused_in_one_line(tmp_path):
    layout = base_layout("cointable")
    deep = "[" * 100_000 + "]" * 100_000
    coords = layout["features"][0]["geometry"]["coordinates"]
    texts = {
        "deep": json.dumps(layout).replace('"features"', f'"deep": {deep}, "features"'),
        "digits": json.dumps(layout).replace('"units": "mm"', '"units": ' + "9" * 5000),
        "400 digits": json.dumps(layout).replace(json.dumps(coords[0][0][0]), "1" * 400 + ".0", 1),
        "1e300": json.dumps(layout).replace(json.dumps(coords[0][0][0]), "1e300", 1),
        "nan": json.dumps(layout).replace(json.dumps(coords[0][0][0]), "NaN", 1),
        "surrogate id": json.dumps(layout).replace('"id": "a1"', '"id": "\\ud800"', 1),
    }
    for name, text in texts.items():
        path = tmp_path / f"{name}.geojson"
        path.write_text(text)
        result = run_cli("validate", "layout", str(path))
        assert_clean(result)
        assert result.code in (1, 2), name


def test_a_layout_far_over_the_point_cap_is_refused_before_it_is_parsed(tmp_path):
    layout = base_layout("mapgame")
    ring = [[float(i % 97), float(i // 97)] for i in range(450_000)]
    layout["features"][0]["geometry"]["coordinates"] = [ring + ring[:1]]
    path = tmp_path / "huge.geojson"
    path.write_text(json.dumps(layout))
    result, took = timed("validate", "layout", str(path))
    assert_clean(result, took, limit=10.0)
    assert result.code == 2 and "array cap" in result.err


def test_labels_that_xml_cannot_hold_are_refused_at_load(tmp_path):
    import xml.etree.ElementTree as ET

    for label in ["\x00", "a\x01b", "\x0c", "\ufffe"]:
        doc = base_layout("coinage")
        doc["features"][0]["properties"]["label"] = label
        path = tmp_path / "map.geojson"
        path.write_text(json.dumps(doc))
        result = run_cli("validate", "layout", str(path))
        assert result.code == 1 and "is not allowed" in result.out, result
    # What does load is drawn as XML that parses.
    from coinprint.layout import loads

    layout = loads(json.dumps(doc))
    from coinprint.render.board import layout_scene
    from coinprint.render.svg import scene_to_svg

    ET.fromstring(scene_to_svg(layout_scene(layout)))


def test_property_types_are_checked_at_load(tmp_path):
    from coinprint.layout import loads

    cases = [
        ("coinage", lambda d: d["features"][0]["properties"].update(region=["a"])),
        ("coinage", lambda d: d["features"][0]["properties"].update(region={"a": 1})),
        ("coinage", lambda d: d["features"][0]["properties"].update(region=3)),
        ("mapgame", lambda d: d["features"][-1]["properties"].update(start=["O"])),
        ("mapgame", lambda d: d["coinprint"].update(params=[1])),
        ("flick", lambda d: d["features"][-1]["properties"].update(player={"a": 1})),
        ("cointable", lambda d: d["features"][0]["geometry"].update(coordinates=[[{"x": 0, "y": 0}] * 4])),
        ("cointable", lambda d: d["features"][0].update(geometry={"type": "GeometryCollection", "geometries": []})),
        ("cointable", lambda d: d["features"][0].update(geometry=None)),
        ("cointable", lambda d: d["features"][0]["geometry"].update(type="MultiPolygon")),
    ]
    for game, change in cases:
        doc = base_layout(game)
        change(doc)
        path = tmp_path / "x.geojson"
        path.write_text(json.dumps(doc))
        result = run_cli("validate", "layout", str(path))
        assert_clean(result)
        assert result.code in (1, 2), (game, result)
        if result.code == 1:  # read: every space holds only what its type allows
            layout = loads(json.dumps(doc))
            for space in layout.spaces:
                assert all(isinstance(v, (str, type(None))) for v in (space.label, space.region, space.start))


def test_checkers_report_degenerate_layouts_and_never_raise():
    from coinprint.analysis import check_layout
    from coinprint.checks import overlap_problems
    from coinprint.layout import from_geojson

    assert overlap_problems([]) == []
    for game in GAMES.names():
        doc = base_layout(game)
        variants = [
            [],
            [{"type": "Feature", "id": "z", "geometry": None, "properties": {"role": "space"}}],
            [
                {
                    "type": "Feature",
                    "id": "z",
                    "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [2, 2], [0, 0]]]},
                    "properties": {"role": "space"},
                }
            ],
            [{**f, "geometry": {"type": "Point", "coordinates": [0, 0]}} for f in doc["features"]],
            [{**f, "geometry": None} for f in doc["features"]],
        ]
        for features in variants:
            layout = from_geojson({**doc, "features": features})
            problems = check_layout(layout)
            assert problems, (game, features[:1])


def test_many_stacked_spaces_are_reported_quickly(tmp_path):
    features = [
        {
            "type": "Feature",
            "id": f"s{i}",
            "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10 + i / 1000, 0], [10, 10], [0, 10], [0, 0]]]},
            "properties": {"role": "space", "region": "r"},
        }
        for i in range(2000)
    ]
    path = tmp_path / "stack.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "coinprint": {"game": "coinage"}, "features": features}))
    result, took = timed("validate", "layout", str(path))
    assert_clean(result, took, limit=25.0)
    assert result.code == 1 and "more overlapping spaces not listed" in result.out


# -- short writes, symbolic links, dying workers, the library API (issue 23) -----------------------------------
def _subprocess(*args: str, timeout: float = 120, **options) -> subprocess.CompletedProcess:
    """``coinprint ARGS`` in its own process; ``timeout`` bounds the wait (a hang fails)."""
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "coinprint", *args], timeout=timeout, **options)


def _one_error_line(stderr: bytes | str) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = text.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("coinprint: ") and "Traceback" not in text, text
    return lines[0]


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_slow_non_blocking_pipe_gets_the_whole_pdf(tmp_path, unbuffered):
    """Standard output set non-blocking (as some shells and pipelines leave it) and read only
    after a pause: writes come back short or "would block"; every byte must still arrive."""
    import fcntl

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    env = dict(os.environ, PYTHONUNBUFFERED=unbuffered)
    child = subprocess.Popen(
        [sys.executable, "-m", "coinprint", "rules", "flick", "-o", "-"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
    )
    # Read nothing until the child has filled the pipe: a pipe that polls as not writable is
    # full, and the child's next write comes back short or "would block". Seen through a
    # copy of the write end, closed before reading so the end of the output still shows.
    probe = os.dup(write_end)
    os.close(write_end)
    try:
        deadline = time.monotonic() + 120
        while select.select([], [probe], [], 0)[1] and child.poll() is None:
            assert time.monotonic() < deadline, "the child did not fill the pipe within 120 s"
            time.sleep(0.05)
    finally:
        os.close(probe)
    data = b""
    while chunk := os.read(read_end, 1 << 16):
        data += chunk
    os.close(read_end)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF") and len(data) > 1 << 16
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(data)).pages) >= 1


def test_a_full_disk_or_a_closed_standard_output_is_one_line_and_exit_2(tmp_path):
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            result = _subprocess("rules", "flick", "-o", "-", stdout=full, stderr=subprocess.PIPE, cwd=tmp_path)
        assert result.returncode == 2 and "No space left" in _one_error_line(result.stderr)
    closed = subprocess.run(
        [sys.executable, "-m", "coinprint", "board", "flick", "--format", "svg", "-o", "-"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),  # standard output closed, as `>&-` leaves it
        timeout=120,
        cwd=tmp_path,
    )
    assert closed.returncode == 2 and _one_error_line(closed.stderr) == (
        "coinprint: error: cannot write to standard output: it is closed"
    )
    assert b"<svg" not in closed.stderr  # never written to standard error instead
    assert files_in(tmp_path) == set()


def test_a_symlink_loop_is_refused_and_stays_a_link(tmp_path):
    (tmp_path / "self.svg").symlink_to("self.svg")
    (tmp_path / "a.pdf").symlink_to("b.pdf")
    (tmp_path / "b.pdf").symlink_to("a.pdf")
    for args in (["board", "flick", "-o", "self.svg"], ["rules", "flick", "-o", "a.pdf"]):
        result = _subprocess(*args, cwd=tmp_path)
        assert result.returncode == 2 and "symbolic link in a loop" in _one_error_line(result.stderr)
    assert all((tmp_path / name).is_symlink() for name in ("self.svg", "a.pdf", "b.pdf"))
    assert files_in(tmp_path) == {"self.svg", "a.pdf", "b.pdf"}


def test_play_never_follows_a_link_planted_in_its_folder(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("cointable-1.json", "cointable-2.html", "index.html"):
        (folder / name).symlink_to(outside)
    result = _subprocess(
        "play",
        "cointable",
        "--size",
        "2",
        "--games",
        "2",
        "--seed",
        "1",
        "--max-turns",
        "20",
        "--html",
        "-o",
        "games",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert outside.read_text() == "keep me"
    for name in ("cointable-1.json", "cointable-2.html", "index.html"):
        assert not (folder / name).is_symlink() and (folder / name).stat().st_size > 0
    assert validate_record_ok(folder / "cointable-1.json")


def test_play_refuses_a_folder_it_cannot_write_before_any_game(tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "a-file").write_text("x")
    for target, reason in (("loop", "symbolic link in a loop"), ("a-file/games", "a-file is a file, not a folder")):
        # Hours of montecarlo games: only a check before the first game answers within the timeout.
        result = _subprocess(
            "play",
            "coinage",
            "--heads",
            "montecarlo",
            "--tails",
            "montecarlo",
            "--games",
            "100000",
            "-o",
            target,
            cwd=tmp_path,
            timeout=60,
        )
        assert result.returncode == 2 and reason in _one_error_line(result.stderr)
    assert files_in(tmp_path) == {"loop", "a-file"}


def validate_record_ok(path: Path) -> bool:
    return run_cli("validate", "game", str(path)).code == 0


def test_analyse_refuses_a_bad_json_target_before_any_game(tmp_path):
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "loop.json").symlink_to("loop.json")
    for target, reason in (("a-file/figures.json", "is not a folder"), ("loop.json", "symbolic link in a loop")):
        # 100,000 montecarlo games would take hours: only a check before any game answers in time.
        result = _subprocess(
            "analyse",
            "coinage",
            "--agent",
            "montecarlo",
            "--games",
            "100000",
            "--json",
            target,
            cwd=tmp_path,
            timeout=60,
        )
        assert result.returncode == 2 and reason in _one_error_line(result.stderr)
        assert result.stdout == b""
    assert files_in(tmp_path) == {"a-file", "loop.json"}


TARGET_KINDS = [
    "loop",
    "dangling link",
    "link to a file",
    "link to a folder",
    "folder",
    "fifo",
    "file as a folder",
    "long name",
]


def _plant(folder: Path, kind: str) -> str:
    """A target of ``kind`` in ``folder``; returns its name relative to ``folder``."""
    if kind == "loop":
        (folder / "t.svg").symlink_to("t.svg")
    elif kind == "dangling link":
        (folder / "t.svg").symlink_to("nowhere/t.svg")
    elif kind == "link to a file":
        (folder / "real.svg").write_text("old")
        (folder / "t.svg").symlink_to("real.svg")
    elif kind == "link to a folder":
        (folder / "dir").mkdir()
        (folder / "t.svg").symlink_to("dir")
    elif kind == "folder":
        (folder / "t.svg").mkdir()
    elif kind == "fifo":
        os.mkfifo(folder / "t.svg")
    elif kind == "file as a folder":
        (folder / "f").write_text("x")
        return "f/t.svg"
    elif kind == "long name":
        return "x" * 300 + ".svg"
    return "t.svg"


@pytest.mark.parametrize(
    "command", [["board", "flick", "--format", "svg"], ["validate", "game", "--svg"], ["analyse", "cointable"]]
)
def test_every_kind_of_output_target_gets_a_clean_answer(tmp_path, command):
    record = tmp_path / "record.json"
    record.write_text(json.dumps(base_record("cointable")))

    @FUZZ
    @given(kind=st.sampled_from(TARGET_KINDS))
    def run(kind: str) -> None:
        folder = tmp_path / f"case-{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        target = _plant(folder, kind)
        before = {p.name: p.is_symlink() for p in folder.iterdir()}
        if command[0] == "validate":
            args = [*command[:2], str(record), "--svg", str(folder / target)]
        elif command[0] == "analyse":
            args = [*command, "--layout", "cointable:size=2", "--games", "2", "--skill-games", "0", "--workers", "1"]
            args += ["--json", str(folder / target)]
        else:
            args = [*command, "-o", str(folder / target)]
        result = run_cli(*args)  # in this process: many cases, no start-up cost each
        code, err = result.code, result.err
        assert code in (0, 1, 2) and "Traceback" not in err and "internal error" not in err, err
        if code == 2:
            _one_error_line(err)
        # A board's -o may name a folder (the board gets its default name there); the
        # others need a file. A link that reaches a file, or nothing yet, is followed.
        written = ("dangling link", "link to a file") + (
            ("link to a folder", "folder") if command[0] == "board" else ()
        )
        assert code == (0 if kind in written else 2), (kind, err)
        leftovers = [p for p in folder.rglob("*") if ".coinprint-" in p.name or p.name.endswith(".tmp")]
        assert not leftovers
        assert {p.name: p.is_symlink() for p in folder.iterdir() if p.name in before} == before  # links stay links

    run()


def _wait_for(ready, child: subprocess.Popen, what: str, seconds: float = 120) -> None:
    """Wait until ``ready()`` is true while ``child`` runs: fail, saying ``what`` was awaited,
    if ``child`` ends first or ``seconds`` pass (generous: the machine may be very busy)."""
    deadline = time.monotonic() + seconds
    while not ready():
        if child.poll() is not None:
            _, err = child.communicate()
            pytest.fail(f"the run ended (exit {child.returncode}) before {what}: {err!r}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {seconds:g} s")
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pytest.skip("needs /proc to find the worker processes")


def _playing_children(pid: int, ticks: int = 10) -> list[int]:
    """The children of ``pid`` that have used ``ticks`` clock ticks of CPU time (0.1 s at the
    usual 100 a second): workers playing games, not just forked (CPU time, unlike seconds on
    the clock, is not stretched by a busy machine)."""
    playing = []
    for child in _children(pid):
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rpartition(")")[2].split()
        except OSError:  # gone already
            continue
        if int(fields[11]) + int(fields[12]) >= ticks:  # utime + stime
            playing.append(child)
    return playing


def test_a_worker_killed_outright_ends_the_run_in_one_line(tmp_path):
    """kill -9 of one of two worker processes (what the out-of-memory killer does): the run
    ends at once, saying how many games finished, and those records are whole."""
    import signal

    command = [
        sys.executable,
        "-m",
        "coinprint",
        "play",
        "mapgame",
        "--games",
        "100000",
        "--workers",
        "2",
        "-o",
        "games",
    ]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        _wait_for(lambda: list(tmp_path.glob("games/*.json")), child, "a first record")
        workers = _children(child.pid)
        assert len(workers) == 2, f"expected the run's 2 worker processes, found {workers}"
        os.kill(workers[0], signal.SIGKILL)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 2
    line = _one_error_line(err)
    written = sorted((tmp_path / "games").iterdir())
    assert "a worker process died" in line and f"; {len(written)} of 100000 games had finished" in line
    assert all(p.suffix == ".json" and validate_record_ok(p) for p in written)
    assert not _children(child.pid) if Path(f"/proc/{child.pid}").exists() else True


# Dask: a real scheduler and worker, each its own process, so either can be killed outright.
DASK_TIMEOUT = "10"
"""--dask-timeout for the runs on the test cluster: how long a cluster without workers (or
without its scheduler) may stay so, and how long connecting may take on a busy machine."""


@pytest.fixture
def dask_cluster(tmp_path):
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")
    from distributed import Client

    file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
        + ["--no-dashboard", "--scheduler-file", str(file)],
        **quiet,
    )
    processes = [scheduler]
    try:
        _wait_for(lambda: _scheduler_address(file), scheduler, "scheduler file naming the scheduler's address")
        address = _scheduler_address(file)
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--no-nanny",
                "--nthreads",
                "1",
                "--no-dashboard",
            ],
            **quiet,
        )
        processes.append(worker)
        with Client(address, timeout=120, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=120)
        yield SimpleNamespace(address=address, scheduler=scheduler, worker=worker)
    finally:
        for process in processes:
            process.kill()
            process.wait(timeout=30)


def _scheduler_address(file: Path) -> str | None:
    """The address in the scheduler's file, once the file is there and written whole."""
    try:
        return json.loads(file.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


def _start_dask_run(address: str, folder: Path) -> subprocess.Popen:
    """``balance`` on the cluster, returned once it is connected and playing: the scheduler
    shows a batch of its games running on the worker (montecarlo Coin Age games take a
    while each, so the run is far from done)."""
    from distributed import Client

    command = [sys.executable, "-m", "coinprint", "balance", "coinage", "--agent", "montecarlo", "--games", "2000"]
    command += ["--dask", address, "--dask-timeout", DASK_TIMEOUT]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder)
    try:
        with Client(address, timeout=120, set_as_default=False) as watcher:
            _wait_for(lambda: any(watcher.processing().values()), child, "batch of games running on the worker")
    except BaseException:
        child.kill()
        child.communicate()
        raise
    return child


@pytest.mark.parametrize("victim", ["worker", "scheduler"])
def test_a_dask_cluster_that_loses_its_workers_or_scheduler_ends_in_one_line(tmp_path, dask_cluster, victim):
    import signal

    child = _start_dask_run(dask_cluster.address, tmp_path)
    getattr(dask_cluster, victim).send_signal(signal.SIGKILL)
    try:
        _, err = child.communicate(timeout=float(DASK_TIMEOUT) + 60)  # bounded by --dask-timeout
    finally:
        child.kill()
    assert child.returncode == 2
    line = _one_error_line(err)
    assert ("lost its scheduler" if victim == "scheduler" else f"has had no workers for {DASK_TIMEOUT} s") in line, line
    assert "games had finished" in line


@pytest.fixture
def plain_server():
    """A TCP server on 127.0.0.1 that is not Dask: it sends what ``reply`` holds, if anything,
    to each connection, then keeps it open without a word."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    # ``held``: for each connection, the seconds from its accept to the client closing it
    # (None while open), as this server sees them.
    state = SimpleNamespace(reply=b"", connections=[], held=[], port=server.getsockname()[1])

    def watch(connection: socket.socket, index: int, accepted: float) -> None:
        with contextlib.suppress(OSError):
            while connection.recv(4096):
                pass
            state.held[index] = time.monotonic() - accepted

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            accepted = time.monotonic()
            state.connections.append(connection)
            state.held.append(None)
            if state.reply:
                with contextlib.suppress(OSError):
                    connection.sendall(state.reply)
            threading.Thread(target=watch, args=(connection, len(state.held) - 1, accepted), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield state
    server.close()
    for connection in state.connections:
        connection.close()


def test_a_service_that_is_not_dask_is_refused_within_the_timeout(plain_server):
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")

    @settings(FUZZ, max_examples=6)
    @given(
        reply=st.one_of(st.just(b""), st.just(b"HTTP/1.1 400 Bad Request\r\n\r\n"), st.binary(min_size=1, max_size=64))
    )
    def run(reply: bytes) -> None:
        plain_server.reply = reply
        before = len(plain_server.held)
        result = _subprocess(
            "balance",
            "cointable",
            "--games",
            "2",
            "--dask",
            f"tcp://127.0.0.1:{plain_server.port}",
            "--dask-timeout",
            "3",
            timeout=120,
        )
        assert result.returncode == 2
        line = _one_error_line(result.stderr)
        assert "is not a Dask scheduler" in line or "no Dask scheduler answered" in line, line
        # Within the timeout: the server saw the one connection closed about 3 s after it was
        # accepted, at most (timed from the server's side, so starting Python, however slow on
        # a busy machine, does not count; the margin is for a late wake-up).
        deadline = time.monotonic() + 30
        while None in plain_server.held[before:] and time.monotonic() < deadline:
            time.sleep(0.05)
        held = plain_server.held[before:]
        assert len(held) == 1 and held[0] is not None and held[0] < 3 + 10, held

    run()


def test_tls_and_other_transports_are_refused_at_once(plain_server):
    pytest.importorskip("distributed", reason="Dask is optional: pip install 'coinprint[dask]'")
    for address in (f"tls://127.0.0.1:{plain_server.port}", f"ws://127.0.0.1:{plain_server.port}"):
        result = _subprocess(
            "balance", "cointable", "--games", "2", "--dask", address, "--dask-timeout", "3", timeout=60
        )
        assert result.returncode == 2 and "over tcp:// only" in _one_error_line(result.stderr)
    for value in ("0", "3601", "x"):
        result = run_cli("balance", "cointable", "--games", "2", "--dask", "tcp://127.0.0.1:1", "--dask-timeout", value)
        assert result.code == 2 and "--dask-timeout" in _one_error_line(result.err)


# The library API: every public function refuses a bad argument with a CoinprintError.
HOSTILE_ARGUMENTS = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            b"cointable",
            bytearray(b"x"),
            10**400,
            10**5000,
            -(10**400),
            float("nan"),
            float("inf"),
            "",
            "x" * 10_000,
            object(),
        ]
    ),
    st.sampled_from(HOSTILE_VALUES),
    st.recursive(
        st.one_of(st.none(), st.integers(), st.text(max_size=5)),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=8,
    ),
)


def _cycle() -> list:
    loop: list = []
    loop.append(loop)
    return loop


API_CALLS = {
    "build_board game": lambda c, v: c.build_board(v),
    "build_board param": lambda c, v: c.build_board("mapgame", countries=v),
    "load_layout": lambda c, v: c.load_layout(v),
    "load_layout game": lambda c, v: c.load_layout("cointable:size=2", game=v),
    "load_layout units": lambda c, v: c.load_layout("cointable:size=2", units=v),
    "rules_for": lambda c, v: c.rules_for(v),
    "rules_for options": lambda c, v: c.rules_for("cointable:size=2", v),
    "play_game rules": lambda c, v: c.play_game(v, {"heads": "random", "tails": "random"}),
    "play_game agents": lambda c, v: c.play_game(c.rules_for("cointable:size=2"), v),
    "play_game agent": lambda c, v: c.play_game(c.rules_for("cointable:size=2"), {"heads": v, "tails": "random"}),
    "play_game seed": lambda c, v: c.play_game(
        c.rules_for("cointable:size=2"), {"heads": "random", "tails": "random"}, seed=v, max_turns=5
    ),
    "play_game max_turns": lambda c, v: c.play_game(
        c.rules_for("cointable:size=2"), {"heads": "random", "tails": "random"}, max_turns=v
    ),
    "read_record": lambda c, v: c.read_record(v),
    "replay moves": lambda c, v: c.replay(c.rules_for("cointable:size=2"), v),
    "replay claimed": lambda c, v: c.replay(c.rules_for("cointable:size=2"), [], v),
    "Layout.space": lambda c, v: c.build_board("cointable", size=2).space(v),
}


@pytest.mark.parametrize("call", list(API_CALLS), ids=list(API_CALLS))
def test_every_public_function_refuses_bad_arguments_with_a_coinprint_error(call):
    import coinprint

    def attempt(value: object) -> None:
        try:
            API_CALLS[call](coinprint, value)
        except coinprint.CoinprintError as exc:
            assert str(exc) and "\n" not in str(exc)

    for value in (_cycle(), {"a": _cycle()}, {"O": "random", "X": "random"}, {"heads": "random"}, "x" * 300):
        attempt(value)

    @settings(max_examples=40, deadline=None)
    @given(value=HOSTILE_ARGUMENTS)
    def run(value: object) -> None:
        attempt(value)

    run()


def test_agents_must_name_exactly_the_players():
    import coinprint

    rules = coinprint.rules_for("cointable:size=2")
    for agents in (
        {"O": "random", "X": "random"},
        {"heads": "random"},
        {"heads": "random", "tails": "random", "x": "random"},
    ):
        with pytest.raises(coinprint.UsageError, match="agents must name exactly the players heads and tails"):
            coinprint.play_game(rules, agents)


def test_a_floating_point_warning_never_reaches_standard_error(tmp_path, monkeypatch):
    """numpy warns (on stderr) when a computation divides by zero or overflows; the command
    line keeps such warnings off the user's screen."""
    import numpy

    from coinprint import analysis

    real_check = analysis.check_layout

    def check_with_a_warning(layout, **options):
        numpy.float64(1.0) / numpy.float64(0.0)  # numpy: RuntimeWarning: divide by zero
        numpy.array([1e308]) * 10  # numpy: RuntimeWarning: overflow
        return real_check(layout, **options)

    with pytest.warns(RuntimeWarning):  # the computation does warn, outside the command line
        check_with_a_warning(analysis.builtin_layout("cointable:size=2"))
    monkeypatch.setattr(analysis, "check_layout", check_with_a_warning)
    path = tmp_path / "board.geojson"
    path.write_text(analysis.builtin_layout("cointable:size=2").dumps())
    result = run_cli("validate", "layout", str(path))
    assert result.code == 0 and "valid cointable layout" in result.out
    assert result.err == ""


# -- writing ---------------------------------------------------------------------------------------------------------
def test_writing_goes_through_devices_and_links_and_to_stdout(tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real.name)
    result = run_cli("board", "flick", "-o", str(link))
    assert result.code == 0 and link.is_symlink() and real.read_text().startswith("<svg")
    result = run_cli("board", "flick", "--format", "geojson", "-o", os.devnull)
    assert result.code == 0 and not Path(os.devnull).is_file()
    result = run_cli("board", "flick", "--format", "geojson", "-o", "-")
    assert result.code == 0 and json.loads(result.out)["type"] == "FeatureCollection"  # the data alone
    assert "wrote" in result.err
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result, took = timed("board", "flick", "--format", "svg", "-o", str(fifo))
    assert result.code == 2 and "no process is reading it" in result.err
    # Refused at once, not after waiting for a reader: a few ms of work, and far less than
    # 30 s on the clock, however busy the machine (a blocking open would never return).
    assert took.cpu < 5 and took.wall < 30, took
    assert fifo.is_fifo()
    result = run_cli("board", "flick", "-o", str(tmp_path / ("x" * 300 + ".svg")))
    assert_clean(result)
    assert result.code == 2
    assert files_in(tmp_path) == {"real.svg", "link.svg", "pipe"}


def test_stale_temporaries_of_dead_runs_go_on_the_next_write(tmp_path):
    import subprocess
    import sys

    from coinprint.fileio import write_atomic

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    stale = tmp_path / f".board.pdf.coinprint-{dead}-0123abcd.tmp"
    live = tmp_path / f".board.pdf.coinprint-{os.getppid()}-0123abcd.tmp"
    other = tmp_path / ".notes.txt.tmp"
    old_style = tmp_path / ".new.txt.k3j9x_2a.tmp"  # the older naming, an hour old
    fresh_old_style = tmp_path / ".new.txt.abcdefgh.tmp"  # the older naming, just written
    for path in (stale, live, other, old_style, fresh_old_style):
        path.write_text("half")
    an_hour_ago = time.time() - 3600
    os.utime(old_style, (an_hour_ago, an_hour_ago))
    write_atomic(tmp_path / "new.txt", "whole")
    assert files_in(tmp_path) == {live.name, other.name, fresh_old_style.name, "new.txt"}


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    from coinprint.fileio import write_atomic

    target = tmp_path / "private.svg"
    target.write_text("old")
    target.chmod(0o600)
    write_atomic(target, "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o600


def test_a_signal_during_a_write_leaves_no_temporary(tmp_path, monkeypatch):
    import signal

    from coinprint import fileio

    real_replace = os.replace

    def replace_then_terminated(src, dst):
        os.kill(os.getpid(), signal.SIGTERM)
        real_replace(src, dst)

    monkeypatch.setattr(fileio.os, "replace", replace_then_terminated)
    with pytest.raises(fileio.Interrupted) as stopped, fileio.handling_signals():
        fileio.write_atomic(tmp_path / "board.pdf", b"%PDF")
    assert stopped.value.exit_code == 128 + signal.SIGTERM
    assert files_in(tmp_path) == set()


@pytest.mark.parametrize(
    "command",
    [
        ["balance", "mapgame", "--games", "100000", "--workers", "2"],
        ["play", "mapgame", "--games", "100000", "--workers", "2", "-o", "g"],
    ],
)
def test_ctrl_c_during_a_long_run_exits_130_in_one_line(tmp_path, command):
    import signal
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "coinprint", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        # Interrupt once the run is under way, however busy the machine: both workers playing
        # (so the run is past starting them; balance writes nothing until the end), and for
        # play a record written.
        _wait_for(lambda: len(_playing_children(process.pid)) == 2, process, "2 workers playing")
        if command[0] == "play":
            _wait_for(lambda: list(tmp_path.glob("g/*.json")), process, "a first record")
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    # One line; a stopped play or balance also says how many games finished.
    assert err.startswith("coinprint: interrupted") and err.count("\n") == 1, err
    leftovers = [p for p in tmp_path.rglob("*") if p.name.startswith(".") or p.name.endswith(".tmp")]
    assert not leftovers


def _caught_signals(pid: int) -> int:
    """The signals ``pid`` has a handler of its own for (the SigCgt mask of /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


def _validating_from_stdin(tmp_path: Path, *, ignored: int | None) -> subprocess.Popen[str]:
    """``validate layout -`` started as a shell starts a job, with the signal ``ignored``
    ignored (SIGINT for a job put in the background, SIGHUP under ``nohup``), waiting for its layout on standard input once coinprint's own signal
    handlers are in place (SIGTERM caught: Python alone catches only SIGINT)."""
    import signal

    if not Path("/proc/self/status").read_text().count("SigCgt:"):
        pytest.skip("needs /proc/<pid>/status (Linux) to see which signals a process handles")

    def start_as_a_job() -> None:
        if ignored is not None:
            signal.signal(ignored, signal.SIG_IGN)

    process = subprocess.Popen(
        [sys.executable, "-m", "coinprint", "validate", "layout", "-", "--game", "coinage"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=start_as_a_job,
    )
    _wait_for(lambda: _caught_signals(process.pid) >> (signal.SIGTERM - 1) & 1, process, "coinprint's handlers")
    return process


def _coinage_layout() -> str:
    game = GAMES["coinage"]
    return game.layout(game.schema.defaults()).dumps()


@pytest.mark.parametrize("name", ["SIGINT", "SIGHUP"])
def test_a_job_started_with_a_signal_ignored_keeps_ignoring_it(tmp_path, name):
    # `coinprint validate layout - &` from a script: a Ctrl-C meant for the foreground job
    # reaches it too, and must not stop it (as Python itself leaves SIGINT ignored); nor
    # must a closed terminal stop a job under nohup.
    import signal

    ignored = getattr(signal, name)
    process = _validating_from_stdin(tmp_path, ignored=ignored)
    try:
        process.send_signal(ignored)  # while it waits for its input
        out, err = process.communicate(_coinage_layout(), timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "valid coinage layout with 10 spaces" in out and "interrupted" not in err


def test_ctrl_c_still_stops_a_job_started_with_it_heeded(tmp_path):
    import signal

    process = _validating_from_stdin(tmp_path, ignored=None)
    try:
        process.send_signal(signal.SIGINT)  # while it waits for its input
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert err == "coinprint: interrupted\n"


def test_standard_output_carries_the_file_alone(tmp_path):
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    def run(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "coinprint", *args]
        return subprocess.run(command, capture_output=True, cwd=tmp_path, timeout=120)

    svg = run("board", "coinage", "--format", "svg", "-o", "-")
    assert svg.returncode == 0 and ET.fromstring(svg.stdout).tag.endswith("svg")
    pdf = run("rules", "flick", "-o", "-")
    assert pdf.returncode == 0 and pdf.stdout.startswith(b"%PDF") and pdf.stdout.rstrip().endswith(b"%%EOF")
    refused = run("play", "cointable", "-o", "-")
    assert refused.returncode == 2 and refused.stderr.decode().count("\n") == 1
    assert files_in(tmp_path) == set()


# -- hostile drawings (SVG) --------------------------------------------------------------------------------------
def _drawing_answer(folder: Path, content: bytes | str, *extra: str) -> CliResult:
    path = folder / "drawing.svg"
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    before = files_in(folder)
    result, took = timed("validate", "layout", str(path), "--game", "coinage", *extra)
    assert_clean(result, took, limit=20.0)
    assert files_in(folder) == before
    return result


SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200mm" height="200mm" viewBox="0 0 200 200">'


def test_nested_clones_that_fan_out_are_refused_at_once(tmp_path):
    # 16 levels of a group holding two clones of the level below: 2^16 rectangles from 1.4 KB.
    levels = ['<g id="l0"><rect width="1" height="1"/></g>']
    levels += [f'<g id="l{n}"><use href="#l{n - 1}"/><use href="#l{n - 1}" x="1"/></g>' for n in range(1, 17)]
    svg = SVG_OPEN + "<defs>" + "".join(levels) + '</defs><use href="#l16"/></svg>'
    assert len(svg) < 1600
    result = _drawing_answer(tmp_path, svg)
    assert result.code == 2 and "MAX_DRAWING_ELEMENTS" in result.err and "clones" in result.err


def test_a_clone_of_itself_is_refused(tmp_path):
    result = _drawing_answer(
        tmp_path, SVG_OPEN + '<g id="loop"><rect width="9" height="9"/><use href="#loop"/></g></svg>'
    )
    assert result.code == 2 and "refers to itself" in result.err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_entities_are_refused_in_any_encoding(tmp_path, encoding):
    svg = (
        f'<?xml version="1.0" encoding="{encoding.removesuffix("-sig").upper()}"?>'
        '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        + SVG_OPEN
        + '<rect id="A1" width="40" height="40"/><text>&b;</text></svg>'
    )
    data = svg.encode(encoding)
    assert b"<!ENTITY" not in data or encoding == "utf-8-sig"
    result = _drawing_answer(tmp_path, data)
    # Refused before anything is expanded: for the declaration, or for an encoding the XML parser does not take.
    assert result.code == 2
    assert "declares XML entities" in result.err or ("encoding" in result.err or "XML is broken" in result.err)
    if encoding in ("utf-16", "utf-8-sig"):
        assert "declares XML entities" in result.err


def test_the_caps_on_elements_transforms_and_points_hold_for_drawings(tmp_path):
    from coinprint.caps import MAX_DRAWING_ELEMENTS, MAX_DRAWING_NUMBERS, MAX_TRANSFORM_STEPS

    many = SVG_OPEN + "<g/>" * (MAX_DRAWING_ELEMENTS + 1) + "</svg>"
    result = _drawing_answer(tmp_path, many)
    assert result.code == 2 and "MAX_DRAWING_ELEMENTS" in result.err
    steps = " ".join("translate(1,0)" for _ in range(MAX_TRANSFORM_STEPS + 1))
    result = _drawing_answer(tmp_path, SVG_OPEN + f'<rect id="A1" width="30" height="30" transform="{steps}"/></svg>')
    assert result.code == 2 and "MAX_TRANSFORM_STEPS" in result.err
    # A path under the cap, cloned until the copies hold more numbers than the cap allows.
    path = "M 0,0 " + " ".join(f"L {k % 7},{k % 5}" for k in range(200)) + " Z"
    copies = MAX_DRAWING_NUMBERS // 400 + 1
    uses = "".join(f'<use href="#p" x="{k % 50}"/>' for k in range(copies))
    result = _drawing_answer(tmp_path, SVG_OPEN + f'<defs><path id="p" d="{path}"/></defs>{uses}</svg>')
    assert result.code == 2 and "MAX_DRAWING_NUMBERS" in result.err


def test_a_drawing_obeys_the_space_cap(tmp_path):
    from coinprint.caps import MAX_FEATURES

    rects = "".join(
        f'<rect x="{(k % 50) * 4}" y="{(k // 50) * 4}" width="4" height="4"/>' for k in range(MAX_FEATURES + 1)
    )
    result = _drawing_answer(tmp_path, SVG_OPEN + rects + "</svg>")
    assert result.code == 2 and "features cap" in result.err and f"{MAX_FEATURES:,}" in result.err


@pytest.mark.parametrize(
    "label, why",
    [
        ("A1&#10;coinprint: valid coinage layout", "U+000A"),
        ("B&#13;2", "U+000D"),
        ("x" * 300, "over the 200-character cap"),
        ("A&#x80;1", "U+0080"),
    ],
)
def test_drawn_names_follow_the_label_rules(tmp_path, label, why):
    svg = (
        SVG_OPEN
        + f'<rect id="r1" inkscape:label="{label}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="40" height="40"/></svg>'
    )
    result = _drawing_answer(tmp_path, svg)
    assert result.code == 1 and why in result.out
    # No name forges a line of its own: every line is about the file.
    assert all(line.startswith(str(tmp_path / "drawing.svg")) for line in result.out.splitlines())
    assert all(len(line) < 600 for line in result.out.splitlines())


def test_a_drawing_coinprint_converts_is_read_back_by_coinprint(tmp_path):
    from tests.drawings import brick_card_svg

    # One word (moves name spaces word by word), but every character XML escapes.
    svg = brick_card_svg().replace('inkscape:label="A1"', 'inkscape:label="Ä1—“north”&amp;&lt;corner&gt;"')
    drawing = tmp_path / "card.svg"
    drawing.write_text(svg)
    out = tmp_path / "card.geojson"
    assert run_cli("board", "coinage", "--layout", str(drawing), "--format", "geojson", "-o", str(out)).code == 0
    again = run_cli("validate", "layout", str(out))
    assert again.code == 0, again.out + again.err
    assert "Ä1—“north”& <corner>".replace(" ", "") in out.read_text()


HOSTILE_SVG_VALUES = [
    "",
    " ",
    "x" * 300,
    "&#1;",
    "a&#10;b",
    "nan",
    "1e400",
    "-1e300",
    "translate(1e308,1e308) scale(1e308)",
    "rotate(nan)",
    "matrix(0,0,0,0,0,0)",
    "M 0,0 Z",
    "M nan,nan L 1,1 Z",
    "M 0 0 A 1e-300 1e-300 0 1 1 1 1 Z",
    "#nowhere",
    "display:none",
    "visibility:hidden",
    "0 0 0 0",
    "10furlongs",
    "-5mm",
]


@st.composite
def mutated_drawing(draw: st.DrawFn) -> str:
    """The brick card with one to three attributes (labels, ids, sizes, transforms, path data,
    styles, the viewBox) set to hostile values, and sometimes a clone or a style sheet added."""
    import re

    from tests.drawings import brick_card_svg

    text = brick_card_svg()
    attributes = sorted(set(re.findall(r' ((?:inkscape:)?[a-zA-Z]+)="', text)))
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from([*attributes, "transform", "d", "class", "href"]))
        value = draw(st.sampled_from(HOSTILE_SVG_VALUES))
        occurrences = text.count(f' {name}="')
        if occurrences:
            which = draw(st.integers(0, occurrences - 1))
            parts = text.split(f' {name}="')
            head, _, tail = parts[which + 1].partition('"')
            parts[which + 1] = value + '"' + tail
            text = f' {name}="'.join(parts)
        else:
            text = text.replace("<rect ", f'<rect {name}="{value}" ', 1)
    if draw(st.booleans()):
        text = text.replace("</svg>", '<use href="#rect100" x="5"/><style>.a{display:none}</style></svg>')
    return text


def test_mutated_drawings_get_a_clean_answer(tmp_path):
    @FUZZ
    @given(text=mutated_drawing())
    def run(text: str) -> None:
        _drawing_answer(tmp_path, text)

    run()


@pytest.mark.slow
def test_many_mutated_drawings(tmp_path):
    @SLOW_FUZZ
    @given(text=mutated_drawing())
    def run(text: str) -> None:
        _drawing_answer(tmp_path, text)

    run()


def _foreign_base() -> dict:
    from coinprint.games.coinage import board as coinage
    from tests.drawings import qgis_geojson

    return json.loads(qgis_geojson(coinage.build("classic"), crs=None))


def _foreign_answer(folder: Path, text: str) -> CliResult:
    path = folder / "qgis.geojson"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = files_in(folder)
    result, took = timed("validate", "layout", str(path), "--game", "coinage")
    assert_clean(result, took)
    assert files_in(folder) == before
    return result


@pytest.mark.parametrize("hole", [[], [[1, 1]], [[1, 1], [2, 2]], [[1, 1], [1, 1], [1, 1], [1, 1]]])
def test_foreign_polygons_with_degenerate_holes_get_a_clean_answer(tmp_path, hole):
    doc = _foreign_base()
    doc["features"][0]["geometry"]["coordinates"][0].append(hole)
    result = _foreign_answer(tmp_path, json.dumps(doc))
    assert result.code in (0, 1)


def test_mutated_foreign_geojson_gets_a_clean_answer(tmp_path):
    @FUZZ
    @given(text=mutated(_foreign_base()))
    def run(text: str) -> None:
        _foreign_answer(tmp_path, text)

    run()


@pytest.mark.slow
def test_many_mutated_foreign_geojson_files(tmp_path):
    @SLOW_FUZZ
    @given(text=mutated(_foreign_base()))
    def run(text: str) -> None:
        _foreign_answer(tmp_path, text)

    run()


def test_values_quoted_from_a_drawing_never_make_a_long_or_forged_line(tmp_path):
    doc = _foreign_base()
    doc["features"][0]["geometry"]["type"] = "Poly\ngon " + "x" * 5000
    result = _foreign_answer(tmp_path, json.dumps(doc))
    assert all(line.startswith(str(tmp_path)) and len(line) < 400 for line in result.out.splitlines())
    svg = SVG_OPEN.replace('width="200mm"', 'width="1' + "0" * 5000 + 'furlongs"') + "</svg>"
    result = _drawing_answer(tmp_path, svg)
    assert result.code == 2 and len(result.err) < 400 and "unit coinprint does not know" in result.err


# -- one space with more points than any board needs (issue 35) -------------------------------------------------
def _one_space_layout(points: int, *, wobble: float = 0.0) -> str:
    """A coinprint Map layout of one round country of ``points`` points (every other point
    ``wobble`` mm out, so simplifying cannot drop them)."""
    import math

    ring = [
        [
            (100 + wobble * (k % 2)) * math.cos(2 * math.pi * k / points),
            (100 + wobble * (k % 2)) * math.sin(2 * math.pi * k / points),
        ]
        for k in range(points)
    ]
    ring.append(ring[0])
    feature = {"type": "Feature", "id": "1", "properties": {"role": "space"}}
    feature["geometry"] = {"type": "Polygon", "coordinates": [ring]}
    return json.dumps({"type": "FeatureCollection", "coinprint": {"game": "mapgame"}, "features": [feature]})


def test_a_layout_space_over_the_point_cap_is_refused_in_one_line(tmp_path):
    from coinprint.caps import MAX_SPACE_POINTS

    path = tmp_path / "huge.geojson"
    path.write_text(_one_space_layout(248_000))
    result = run_cli("validate", "layout", str(path))
    # Refused by the scan before the JSON is parsed: the ring is one run of 248,001 arrays.
    assert result.code == 2 and result.out == ""
    assert "more than 25,000 arrays side by side" in result.err and "array run cap" in result.err
    assert len(result.err.strip().splitlines()) == 1
    # Under that, the point cap of one feature, counted before any geometry is built.
    path.write_text(_one_space_layout(12_000))
    result = run_cli("validate", "layout", str(path))
    assert result.code == 2 and result.out == ""
    assert f"1 has more than {MAX_SPACE_POINTS:,} points, over the {MAX_SPACE_POINTS:,}-point cap" in result.err
    # At the cap the space is read and checked.
    path.write_text(_one_space_layout(MAX_SPACE_POINTS - 1))
    assert "point cap" not in run_cli("validate", "layout", str(path)).err


def test_a_drawn_path_of_190k_segments_is_refused_before_it_is_parsed(tmp_path):
    steps = " ".join("0.001,0.001" if k % 2 else "0.001,-0.001" for k in range(190_000))
    result = _drawing_answer(tmp_path, SVG_OPEN + f'<path id="coast" d="M 0,100 l {steps} z"/></svg>')
    assert result.code == 2
    assert "coast has 380,002 numbers in its path data" in result.err and "MAX_SPACE_NUMBERS" in result.err


def _polygon_points(points: int, wobble: float) -> list[tuple[float, float]]:
    """A round shape of ``points`` corners 80 mm about (100, 100), every other one ``wobble`` out."""
    import math

    return [
        (
            round(100 + (80 + wobble * (k % 2)) * math.cos(2 * math.pi * k / points), 4),
            round(100 + (80 + wobble * (k % 2)) * math.sin(2 * math.pi * k / points), 4),
        )
        for k in range(points)
    ]


def _polygon_path(points: int, wobble: float) -> str:
    return "M " + " L ".join(f"{x:.4f},{y:.4f}" for x, y in _polygon_points(points, wobble)) + " Z"


def test_a_drawn_space_over_the_point_cap_is_simplified_within_a_hundredth_of_a_mm(tmp_path):
    import shapely

    from coinprint.caps import MAX_SPACE_POINTS
    from coinprint.source import read_layout_data

    svg = SVG_OPEN + f'<path id="land" d="{_polygon_path(20_000, 0.0)}"/></svg>'
    read = read_layout_data(svg.encode(), source="round.svg", game="mapgame")
    (space,) = read.layout.spaces
    assert len(space.rings[0]) <= MAX_SPACE_POINTS
    assert any("simplified 1 shape of more than 10,000 points within 0.01 mm" in note for note in read.notes)
    # The outline moved at most 0.01 mm (and the 0.0001 mm the path data is rounded to).
    drawn = shapely.Polygon(_polygon_points(20_000, 0.0))
    flipped = shapely.affinity.scale(drawn, 1.0, -1.0, origin=(0.0, 100.0))  # y up, page 200 mm high
    assert shapely.hausdorff_distance(space.polygon.exterior, flipped.exterior) <= 0.0102
    assert abs(space.polygon.area - flipped.area) <= 0.01 * flipped.length


def test_a_drawn_space_that_stays_over_the_point_cap_is_refused(tmp_path):
    svg = SVG_OPEN + f'<path id="saw" d="{_polygon_path(20_000, 1.0)}"/></svg>'
    result = _drawing_answer(tmp_path, svg)
    assert result.code == 2
    assert "saw has 20,000 points" in result.err and "MAX_SPACE_POINTS" in result.err


def test_a_foreign_geojson_space_far_over_the_point_cap_is_refused_up_front(tmp_path):
    doc = json.loads(_one_space_layout(13_000))
    del doc["coinprint"]
    ring = doc["features"][0]["geometry"]["coordinates"][0]
    hole = [[x / 2, y / 2] for x, y in reversed(ring)]
    doc["features"][0]["geometry"]["coordinates"].append(hole)  # two rings, 26,002 points in all
    path = tmp_path / "qgis.geojson"
    path.write_text(json.dumps(doc))
    result = run_cli("validate", "layout", str(path), "--game", "mapgame")
    assert result.code == 2 and "feature #1 has 26,002 points" in result.err and "MAX_SPACE_POINTS" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_a_foreign_geojson_space_over_the_point_cap_is_simplified(tmp_path):
    from tests.drawings import read_layout_file

    doc = json.loads(_one_space_layout(20_000))
    del doc["coinprint"]
    path = tmp_path / "qgis.geojson"
    path.write_text(json.dumps(doc))
    read = read_layout_file(path, game="mapgame")
    assert "simplified 1 feature of more than 10,000 points within 0.01 mm" in read.notes
    (space,) = read.layout.spaces
    assert len(space.rings[0]) <= 10_000


# -- control characters in labels, in every SVG and in the HTML report (issue 35) --------------------------------
LABEL_TEXT = st.text(st.characters(codec=None, categories=None), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=LABEL_TEXT)
def test_any_label_gives_an_svg_that_is_well_formed_xml(label):
    import xml.etree.ElementTree as ET

    from coinprint.checks import Problem
    from coinprint.layout import Layout, Space
    from coinprint.layout_report import layout_report_data
    from coinprint.render.svg import NOT_XML_TEXT

    square = (((0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0), (0.0, 0.0)),)
    layout = Layout("mapgame", [Space("1", square, label=label)])
    data = layout_report_data(layout, [Problem("1", f"the label {label} is wrong")], f"verdict {label}", "svg")
    text = data.decode("utf-8")  # a lone surrogate would not encode
    assert not NOT_XML_TEXT.search(text)
    ET.fromstring(data)  # well-formed: no control character, escaped or raw, breaks it


def test_the_html_report_replaces_lone_surrogates_and_controls():
    from coinprint.render.scene import Scene, Text
    from coinprint.report import _html

    scene = Scene(50.0, 20.0, title="chart \udc80")
    scene.add(Text((1.0, 1.0), "a\x01b\ud800c\x85d", 3.0, "start", "#000"))
    page = _html([], [scene])
    assert "\ud800" not in page and "\x01" not in page and "\x85" not in page
    assert "a\ufffdb\ufffdc\ufffdd" in page
    page.encode("utf-8")


def test_write_atomic_writes_a_lone_surrogate_as_the_replacement_character(tmp_path):
    from coinprint.fileio import write_atomic

    path = write_atomic(tmp_path / "out.html", "name \udcff.")
    assert path.read_text(encoding="utf-8") == "name \ufffd."


@pytest.mark.parametrize("suffix", ["svg", "pdf"])
def test_validate_writes_the_report_asked_for_when_labels_hold_controls(tmp_path, suffix):
    from tests.drawings import brick_card_svg

    svg = brick_card_svg().replace('inkscape:label="A1"', 'inkscape:label="A&#x85;1"')
    svg = svg.replace('inkscape:label="north"', 'inkscape:label="no&#x9b;rth&#x7f;"')
    drawing = tmp_path / "card.svg"
    drawing.write_text(svg)
    report = tmp_path / f"check.{suffix}"
    result = run_cli("validate", "layout", str(drawing), "--game", "coinage", "--report", str(report))
    assert result.code == 1 and "U+0085" in result.out and "U+009B" in result.out
    assert report.exists() and report.stat().st_size > 1000
    if suffix == "svg":
        import xml.etree.ElementTree as ET

        ET.parse(report)
