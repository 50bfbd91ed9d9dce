"""The design report of ``coinprint analyse``: a text table, the JSON of every figure, and
charts (HTML, PDF or SVG) drawn from :mod:`coinprint.metrics` results by our own renderer.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from coinprint import __version__
from coinprint.errors import UsageError
from coinprint.metrics import LayoutReport, Share, Spread
from coinprint.render.scene import Scene

JSON_FORMAT = "coinprint-analysis/1"
REPORT_FORMATS = ("html", "pdf", "svg")
PAGE_MM = (210.0, 297.0)
PAGE_MARGIN_MM = 15.0


# -- text ----------------------------------------------------------------------------------------
def _pct(share: Share) -> str:
    return f"{share.value:.0%} [{share.low:.0%}, {share.high:.0%}]" if share.total else "—"


def _mean(spread: Spread, digits: int = 1) -> str:
    return f"{spread.mean:.{digits}f} ±{(spread.high - spread.low) / 2:.{digits}f}" if spread.n else "—"


def describe(report: LayoutReport) -> list[str]:
    """The figures of one layout as lines of text (what the table on stdout shows)."""
    lines = [
        f"{report.layout}: {report.games} games, {report.agent} v {report.agent}"
        + (" (stopped early: decided)" if report.stopped_early else ""),
        f"  {report.players[0]} (first) won {_pct(report.first_share)} of {report.decided} decided games; "
        f"ties {report.ties}, timeouts {report.timeouts} (limit {report.max_turns} moves)",
        f"  length {_mean(report.length)} moves; sd {report.length.sd:.1f}; "
        f"10/50/90%: {report.length.p10:g}/{report.length.p50:g}/{report.length.p90:g}",
        f"  lead changes {_mean(report.lead_changes, 2)}; winner led for good after "
        f"{_mean(report.decided_at, 2)} of the game",
        f"  branching {_mean(report.branching)} legal moves per turn; coverage {_mean(report.coverage, 2)} of spaces",
    ]
    if report.skill is not None:
        skill = report.skill
        lines.append(
            f"  skill: {skill.strong} beat {skill.weak} in {_pct(skill.share)} of {skill.share.total} decided games "
            f"({skill.games} played, both seatings; ties {skill.ties}, timeouts {skill.timeouts})"
        )
    return lines


def table(reports: Sequence[LayoutReport]) -> str:
    """Every layout's figures; with several layouts, a ranking line per layout first."""
    out: list[str] = []
    if len(reports) > 1:
        width = max(len(r.layout) for r in reports)
        out.append(f"{'rank':>4}  {'layout':<{width}}  first-player share [95% interval]  decided  games")
        for rank, report in enumerate(reports, start=1):
            share = _pct(report.first_share)
            out.append(f"{rank:>4}  {report.layout:<{width}}  {share:<33}  {report.decided:>7}  {report.games:>5}")
        out.append("")
    for report in reports:
        out.extend(describe(report))
    return "\n".join(out)


def to_json(reports: Sequence[LayoutReport], settings: dict[str, Any]) -> str:
    """The ``--json`` document: the settings used and every layout's figures."""
    doc = {
        "format": JSON_FORMAT,
        "generator": f"coinprint {__version__}",
        "settings": settings,
        "layouts": [r.to_json() for r in reports],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# -- charts --------------------------------------------------------------------------------------------
def figures(reports: Sequence[LayoutReport], *, heat_maps: int = 3) -> list[Scene]:
    """The report's charts: the first-player share per layout, then for the first
    ``heat_maps`` layouts a game-length histogram and a heat map of the spaces."""
    from coinprint.render.charts import ShareRow, heat_map, histogram, share_chart
    from coinprint.source import resolve_layout

    rows = [ShareRow(r.layout, r.first_share.value, r.first_share.low, r.first_share.high) for r in reports]
    scenes = [share_chart(rows, "First player's share of decided games (95% interval)")]
    for report in reports[:heat_maps]:
        scenes.append(histogram(report.lengths, f"Game length: {report.layout}", "moves per game"))
        layout = resolve_layout(report.layout, game=report.game)
        scenes.append(
            heat_map(layout, report.held, report.players, f"Who holds each space at the end: {report.layout}")
        )
    return scenes


def check_report_path(path: str, name: str = "report path") -> str:
    """The report format ``path`` asks for (``html``, ``pdf`` or ``svg``, from its suffix);
    a :class:`UsageError` naming ``name`` for another suffix or an existing folder."""
    from coinprint.fileio import check_file_target

    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in REPORT_FORMATS:
        raise UsageError(f"{name} must end in .html, .pdf or .svg, not '{path}'")
    check_file_target(path)
    return suffix


def write_report(reports: Sequence[LayoutReport], path: str, *, details: int = 3) -> Path:
    """Write the charts (and, in HTML, the table) to ``path`` (.html, .pdf or .svg), with a
    histogram and a heat map for the first ``details`` layouts."""
    from coinprint.fileio import write_atomic

    suffix = check_report_path(path)
    if details < 0:
        raise UsageError(f"details must be 0 or more, not {details}")
    scenes = figures(reports, heat_maps=details)
    if suffix == "svg":
        from coinprint.render.charts import stack
        from coinprint.render.svg import scene_to_svg

        data: bytes | str = scene_to_svg(stack(scenes, "coinprint analysis"))
    elif suffix == "pdf":
        from coinprint.render.pdf import pages_to_pdf

        data = pages_to_pdf(_pages(scenes), title="coinprint analysis", keywords={"layouts": len(reports)})
    else:
        data = _html(reports, scenes)
    return write_atomic(path, data)


def _pages(scenes: Sequence[Scene]) -> list[Scene]:
    """A4 pages with the charts one under another, a new page when the next does not fit."""
    from coinprint.render.scene import Group

    width, height = PAGE_MM
    pages: list[Scene] = []
    page, y = Scene(width, height, title="coinprint analysis"), height - PAGE_MARGIN_MM
    for scene in scenes:
        scale = min(1.0, (width - 2 * PAGE_MARGIN_MM) / scene.width_mm, (height - 2 * PAGE_MARGIN_MM) / scene.height_mm)
        if y - scene.height_mm * scale < PAGE_MARGIN_MM and page.items:
            pages.append(page)
            page, y = Scene(width, height, title="coinprint analysis"), height - PAGE_MARGIN_MM
        y -= scene.height_mm * scale
        page.add(Group(tuple(scene.items), (scale, 0.0, 0.0, scale, PAGE_MARGIN_MM, y)))
        y -= 6.0
    pages.append(page)
    return pages


def _html(reports: Sequence[LayoutReport], scenes: Sequence[Scene]) -> str:
    from coinprint.render.svg import scene_to_svg

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>coinprint analysis</title>',
        "<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em;max-width:60em}"
        "pre{background:#f4f4f4;padding:1em;overflow-x:auto}figure{margin:1.5em 0}</style></head><body>",
        "<h1>coinprint analysis</h1>",
        f"<pre>{html.escape(table(reports))}</pre>",
    ]
    for scene in scenes:
        svg = scene_to_svg(scene).decode("utf-8")
        svg = svg[svg.index("<svg") :]
        parts.append(f"<figure>{svg}</figure>")  # the chart draws its own title
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
