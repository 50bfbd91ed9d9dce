"""Shared test helpers: running the command line in-process, reading PDFs and SVGs back."""

from __future__ import annotations

import io
import math
import os
import re
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from coinprint.cli import main
from coinprint.registry import GAMES

# The paper a command prints on by default comes from the environment (COINPRINT_PAPER,
# PAPERSIZE, /etc/papersize): pin it, so the machine running the tests cannot change what
# they read back. Tests of that choice set the variables themselves.
os.environ["COINPRINT_PAPER"] = "a4"

SVG_NS = {"svg": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}
MM_PER_PT = 25.4 / 72


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    """Run ``coinprint ARGS`` in this process, as the console script would."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    return run_cli


def pdf_polygons(path: Path) -> list[list[list[tuple[float, float]]]]:
    """Every straight-edged closed path on every page, as points in mm (y down, as drawn)."""
    import pdfplumber

    pages = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            shapes = []
            for curve in page.curves:
                ops = [op[0] for op in curve.get("path", [])]
                if ops and set(ops) <= {"m", "l", "h"}:
                    shapes.append([(x * MM_PER_PT, y * MM_PER_PT) for x, y in curve["pts"]])
            pages.append(shapes)
    return pages


def pdf_page_sizes(path: Path) -> list[tuple[float, float]]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [(float(p.width) * MM_PER_PT, float(p.height) * MM_PER_PT) for p in pdf.pages]


def hexagon_flat_to_flat(points: list[tuple[float, float]]) -> float:
    """Flat-to-flat of a hexagon from its corners: twice the distance from the centre to a side."""
    corners = points[:-1] if points[0] == points[-1] else points
    cx = sum(p[0] for p in corners) / len(corners)
    cy = sum(p[1] for p in corners) / len(corners)
    apothems = []
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
        apothems.append(abs((x2 - x1) * (y1 - cy) - (x1 - cx) * (y2 - y1)) / math.dist((x1, y1), (x2, y2)))
    assert max(apothems) - min(apothems) < 1e-3  # coordinates are kept to 0.1 µm
    return 2 * sum(apothems) / len(apothems)


@dataclass
class SvgDoc:
    width_mm: float
    height_mm: float
    viewbox: tuple[float, float, float, float]
    root: ET.Element

    def defs_paths(self) -> dict[str, list[tuple[float, float]]]:
        shapes = {}
        for path in self.root.iterfind(".//svg:defs/svg:path", SVG_NS):
            shapes[path.get("id")] = parse_path_points(path.get("d"))
        return shapes

    def uses(self) -> list[tuple[str, float, float]]:
        found = []
        for use in self.root.iterfind(".//svg:use", SVG_NS):
            ref = use.get("{http://www.w3.org/1999/xlink}href") or use.get("href")
            found.append((ref.lstrip("#"), float(use.get("x", 0)), float(use.get("y", 0))))
        return found


def read_svg(path: Path) -> SvgDoc:
    root = ET.parse(path).getroot()
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    box = tuple(float(v) for v in root.get("viewBox").split())
    return SvgDoc(float(width[:-2]), float(height[:-2]), box, root)


def parse_path_points(d: str) -> list[tuple[float, float]]:
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[::2], numbers[1::2]))


def pdf_text_runs(path: Path, pages: slice = slice(None)) -> list[list[dict]]:
    """Each page's text runs (one per string drawn: consecutive characters on one baseline,
    left to right), in drawing order, as dicts with ``text``, ``size`` (pt), ``font``, ``x0``,
    ``top`` (pt); only the ``pages`` asked for."""
    import pdfplumber

    found = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[pages]:
            runs: list[dict] = []
            last = None
            for char in page.chars:
                same = (
                    last is not None
                    and abs(char["top"] - last["top"]) < 0.01
                    and char["x0"] >= last["x0"] - 0.01
                    and char["fontname"] == last["fontname"]
                    and abs(char["size"] - last["size"]) < 0.01
                )
                if same:
                    runs[-1]["text"] += char["text"]
                else:
                    runs.append(
                        {
                            "text": char["text"],
                            "size": char["size"],
                            "font": char["fontname"],
                            "x0": char["x0"],
                            "top": char["top"],
                        }
                    )
                last = char
            found.append(runs)
    return found


RULE_FOOTER = re.compile(r"— (page|sida) \d+ (of|av) \d+$")
"""The footer of a rule-sheet page ("… — page 2 of 3"); a board page's footer is not one."""


def rule_pages(path: Path) -> list[list[dict]]:
    """The text runs of the rule-sheet pages at the front of a kit."""
    pages = []
    for page in pdf_text_runs(path, slice(0, 6)):
        if not (page and RULE_FOOTER.search(page[-1]["text"])):
            break
        pages.append(page)
    return pages


def pdf_reading_text(path: Path, separator: str = " ") -> str:
    """The text of a PDF in drawing order (column by column on a rule sheet), lines joined
    by ``separator``: with a space, a sentence reads whole even where the page wraps it."""
    return separator.join(separator.join(r["text"] for r in page) for page in pdf_text_runs(path))


# -- what a game's texts offer ---------------------------------------------------------------------
# The print suites ask these, not a list of games, so a game added with English texts alone
# (CONTRIBUTING.md, "Adding a game") meets only the tests that fit it.


def game_languages(game: str) -> list[str]:
    """The languages ``game``'s rule sheet is written in (its ``<game>.<lang>.json`` texts)."""
    from coinprint.kit.rulesheet import languages

    return languages(GAMES[game])


def games_written_in(lang: str) -> list[str]:
    """The registered games whose rule sheet is written in ``lang``."""
    return [game for game in GAMES.names() if lang in game_languages(game)]


def games_with_an_appendix() -> list[str]:
    """The registered games whose English texts have an appendix (``rules --appendix``)."""
    from coinprint.kit.rulesheet import rule_sheet_template

    return [game for game in GAMES.names() if "appendix" in rule_sheet_template(GAMES[game], "en")]
