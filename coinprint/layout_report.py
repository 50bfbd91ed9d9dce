"""The report of a layout check (``validate layout --report``): the verdict drawn on the
layout, every error and warning marked and numbered where it is, as one true-size SVG sheet or
a PDF tiled at true size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.fileio import write_atomic
from coinprint.kit.board import board_pages
from coinprint.kit.output import REPORT_SUFFIXES, require_suffix
from coinprint.printing import PrintSettings
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.report import Marked, report_sheet
from coinprint.render.sheet import single_sheet
from coinprint.render.svg import scene_to_svg
from coinprint.units import paper_size

if TYPE_CHECKING:
    from pathlib import Path

    from coinprint.checks import Problem
    from coinprint.layout import Layout


def write_layout_report(layout: Layout, problems: list[Problem], path: str, verdict: str, paper: str = "a4") -> Path:
    """Draw the verdict on ``layout`` (every error and warning marked and numbered) to
    ``path``, an .svg (one true-size sheet) or a .pdf (tiled at true size on ``paper``)."""

    suffix = require_suffix(path, "--report", REPORT_SUFFIXES).lower().rsplit(".", 1)[-1]
    return write_atomic(path, layout_report_data(layout, problems, verdict, suffix, paper))


def layout_report_data(
    layout: Layout, problems: list[Problem], verdict: str, fmt: str = "svg", paper: str = "a4"
) -> bytes:
    """The contents :func:`write_layout_report` writes: the verdict drawn on ``layout`` as ``fmt``
    (``svg``: one true-size sheet, ``pdf``: tiled at true size on ``paper``)."""
    marks = [
        Marked(problem_geometry(layout, p), str(p), p.severity == "error")
        for p in problems
        if p.severity in ("error", "warning")
    ]
    sheet = report_sheet(layout, marks, f"{layout.game} layout check", verdict)
    if fmt == "svg":
        return scene_to_svg(single_sheet(sheet, 10.0))
    pages = board_pages(sheet, PrintSettings.checked(paper_size(paper)))
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
