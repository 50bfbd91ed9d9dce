"""Drawn layouts (a drawing, a QGIS map, a GeoJSON file): the helpers games use to complete
one for print (:meth:`~coinprint.game.Game.printable`: colour numbers, properties), and the
check's report drawn on the layout (``validate layout --report``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from coinprint.colouring import colour_regions
from coinprint.fileio import write_atomic
from coinprint.kit import REPORT_SUFFIXES, PrintSettings, board_pages, require_suffix
from coinprint.layout import Layout
from coinprint.render.pages import single_sheet
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.report import Marked, report_sheet
from coinprint.render.svg import scene_to_svg

if TYPE_CHECKING:
    from pathlib import Path

    from coinprint.checks import Problem
    from coinprint.kit import PrintSettings
    from coinprint.layout import Layout


def with_properties(layout: Layout, extra: dict[str, dict[str, Any]], meta: dict[str, Any]) -> Layout:
    spaces = [replace(s, properties={**s.properties, **extra.get(s.id, {})}) for s in layout.spaces]
    return Layout(layout.game, spaces, list(layout.features), {**layout.meta, **meta})


def colouring(layout: Layout) -> dict[str, int]:
    """A proper colouring of the spaces (neighbours differ), with at most four colours
    (more only if the spaces' borders do not make a map)."""
    graph = layout.graph
    spaces, borders = list(graph.nodes), list(graph.edges)
    colours = colour_regions(spaces, borders, order="saturation")
    return colours if colours is not None else colour_regions(spaces, borders, len(spaces), order="saturation") or {}


def write_report(layout: Layout, problems: list[Problem], path: str, verdict: str, paper: str = "a4") -> Path:
    """Draw the verdict on ``layout`` (every error and warning marked and numbered) to
    ``path``, an .svg (one true-size sheet) or a .pdf (tiled at true size on ``paper``)."""

    suffix = require_suffix(path, "--report", REPORT_SUFFIXES).lower().rsplit(".", 1)[-1]
    return write_atomic(path, report_data(layout, problems, verdict, suffix, paper))


def report_data(layout: Layout, problems: list[Problem], verdict: str, fmt: str = "svg", paper: str = "a4") -> bytes:
    """The contents :func:`write_report` writes: the verdict drawn on ``layout`` as ``fmt``
    (``svg``: one true-size sheet, ``pdf``: tiled at true size on ``paper``)."""
    marks = [
        Marked(problem_geometry(layout, p), str(p), p.severity == "error")
        for p in problems
        if p.severity in ("error", "warning")
    ]
    sheet = report_sheet(layout, marks, f"{layout.game} layout check", verdict)
    if fmt == "svg":
        return scene_to_svg(single_sheet(sheet, 10.0))
    pages = board_pages(sheet, PrintSettings.parse(paper=paper))
    return pages_to_pdf(pages, title=sheet.title, keywords={"game": layout.game})


def problem_geometry(layout: Layout, problem: Problem) -> Any:
    """Where ``problem`` is on ``layout`` (a shapely geometry in layout mm), as the report
    draws it: the problem's own geometry, else the shape of the space or feature it names;
    None when it is about the layout as a whole."""
    if problem.geometry is not None:
        return problem.geometry
    if problem.feature is None:
        return None
    for space in layout.spaces:
        if problem.feature in (space.id, space.name) or problem.feature == space.name.lower():
            return space.polygon if space.polygon.is_valid else space.polygon.exterior
    for feature in layout.features:
        if feature.id == problem.feature:
            return feature.shape
    return None
