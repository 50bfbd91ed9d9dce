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
from coinprint.fileio import check_file_target, write_atomic
from coinprint.metrics import LayoutReport
from coinprint.render.charts import ShareRow, heat_map, histogram, share_chart, stack, text_block
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.scene import Group, Scene
from coinprint.render.svg import scene_to_svg, xml_safe
from coinprint.source import game_named, game_of_spec, resolve_layout
from coinprint.stats import Share, Spread

JSON_FORMAT = "coinprint-analysis/1"
REPORT_FORMATS = ("html", "pdf", "svg")
PAGE_MM = (210.0, 297.0)
PAGE_MARGIN_MM = 15.0


# -- text ----------------------------------------------------------------------------------------
def _pct(share: Share) -> str:
    return f"{share.value:.0%} [{share.low:.0%}, {share.high:.0%}]" if share.total else "—"


def _band(value: float, limits: tuple[float, float], readings: tuple[str, str, str]) -> str:
    """The reading of ``value``: the first below ``limits[0]``, the last above ``limits[1]``,
    else the middle one."""
    low, high = limits
    return readings[0] if value < low else readings[2] if value > high else readings[1]


def _mean(spread: Spread, digits: int = 1) -> str:
    return f"{spread.mean:.{digits}f} ±{(spread.high - spread.low) / 2:.{digits}f}" if spread.n else "—"


def layout_words(spec: str) -> str:
    """A layout spec in words for a title: ``cointable:size=3`` → ``Coin Table (size 3)``; a
    file by its name."""

    game = game_of_spec(spec)
    if game is None:
        return Path(spec).name
    params = [part.replace("=", " ", 1) for part in spec.partition(":")[2].split(",") if part]
    return game.title + (f" ({', '.join(params)})" if params else "")


def readings(report: LayoutReport) -> list[tuple[str, str, str]]:
    """Each figure of one layout as (metric, value, a one-line reading of it). The readings
    follow fixed thresholds (docs/formats.md, Analysis figures), not judgement."""
    first, second = report.players
    rows: list[tuple[str, str, str]] = []
    share = report.first_share
    if not share.total:
        lean = "no game was decided"
    elif share.low <= 0.5 <= share.high:
        lean = "no clear edge: the interval holds 50 %"
    else:
        lean = f"{first}, moving first, is {'favoured' if share.low > 0.5 else 'behind'}"
    if report.sequential is not None:
        rows.append(("sequential test", "SPRT", report.sequential))
    rows.append(("first player's share", _pct(share), lean))
    ties = report.tie_share.value
    rows.append(
        (
            "drawishness (ties)",
            _pct(report.tie_share),
            "ties are rare" if ties < 0.05 else f"about {ties:.0%} of games tie",
        )
    )
    timeouts = report.timeout_share.value
    rows.append(
        (
            "timeouts",
            _pct(report.timeout_share),
            "every game ended"
            if not report.timeouts
            else f"{timeouts:.0%} of games hit the {report.max_turns}-move limit",
        )
    )
    rows.append(
        (
            "length",
            _mean(report.length),
            f"half the games last {report.length.p50:g} moves or fewer; 9 in 10 at most {report.length.p90:g}",
        )
    )
    per_move = report.lead_changes_per_move
    if per_move is not None and per_move.n:
        swing = _band(
            per_move.mean,
            (0.02, 0.1),
            ("the leader on the score rarely changes", "the lead changes now and then", "the lead changes hands often"),
        )
        rows.append(("lead changes per move", _mean(per_move, 3), swing))
    if report.drama is not None and report.drama.n:
        come_back = _band(
            report.drama.mean,
            (0.05, 0.2),
            ("the winner is nearly always ahead", "winners sometimes trail first", "winners often come from behind"),
        )
        rows.append(("drama (moves the winner trailed)", _mean(report.drama, 2), come_back))
    if report.decided_at.n:
        when = _band(report.decided_at.mean, (0.3, 0.7), ("decided early", "decided midway", "decided late"))
        rows.append(("decisiveness (share before the winner leads for good)", _mean(report.decided_at, 2), when))
    if report.margin is not None and report.margin.n:
        rows.append(
            (
                "winning margin (points)",
                _mean(report.margin),
                f"10/50/90 %: {report.margin.p10:g} / {report.margin.p50:g} / {report.margin.p90:g}",
            )
        )
    if report.repetition is not None and report.repetition.n:
        stall = report.repetition.mean
        rows.append(
            (
                "repetition (moves back to a seen position)",
                _mean(report.repetition, 3),
                "positions repeat a lot: play stalls" if stall > 0.1 else "little repetition",
            )
        )
    if report.branching.n and report.branching.mean:
        rows.append(("branching (choices a move)", _mean(report.branching), "a capture counts once"))
    if report.coverage.n and report.coverage.p10 < 1:
        rows.append(
            ("coverage (spaces ever held)", _mean(report.coverage, 2), "some spaces are never played in some games")
        )
    if report.move_kinds:
        usage = ", ".join(f"{kind} {share:.0%}" for kind, share in report.move_kinds.items())
        rows.append(("move types", usage, "share of every action played"))
    if report.first_moves:
        kind, often = next(iter(report.first_moves.items()))
        rows.append(("first move", f"{kind} {often:.0%}", f"the most common opening move of {first}"))
    if report.skill is not None:
        skill = report.skill
        rows.append(
            (
                "skill",
                _pct(skill.share),
                f"{skill.strong} beat {skill.weak} "
                + ("clearly: skill matters" if skill.share.low > 0.6 else "not clearly: luck weighs a lot"),
            )
        )
    del second
    return rows


def what_to_look_at(report: LayoutReport) -> list[str]:
    """Findings a designer should look at, from the figures (fixed thresholds)."""
    first, second = report.players
    found: list[str] = []
    share = report.first_share
    if share.total and not share.low <= 0.5 <= share.high:
        found.append(
            f"{first} (moving first) wins {share.value:.0%} of decided games [{share.low:.0%}–{share.high:.0%}]"
        )
    for kind, often in report.first_moves.items():
        if kind in ("capture", "flip") and often >= 0.2:
            found.append(f"{first} makes a {kind} on move 1 in {often:.0%} of games")
    if report.timeouts and report.timeout_share.value >= 0.05:
        found.append(f"{report.timeout_share.value:.0%} of games hit the {report.max_turns}-move limit")
    if report.repetition is not None and report.repetition.n and report.repetition.mean > 0.1:
        found.append(f"{report.repetition.mean:.0%} of moves go back to a position seen before: play stalls")
    if report.tie_share.value >= 0.2:
        found.append(f"{report.tie_share.value:.0%} of games are ties")
    if report.drama is not None and report.drama.n and report.drama.mean < 0.05 and report.decided_at.mean < 0.3:
        found.append("the game is decided early and the leader almost never loses")
    for space, by in report.held.items():
        for player in (first, second):
            if by.get(player, 0.0) >= 0.9 and report.games >= 10:
                found.append(f"{player} holds space {report.space_name(space)} at the end of {by[player]:.0%} of games")
    if report.skill is not None and report.skill.share.total and report.skill.share.high < 0.7:
        found.append(f"{report.skill.strong} beats {report.skill.weak} only {report.skill.share.value:.0%} of the time")
    return found or ["nothing stands out at these thresholds"]


def describe(report: LayoutReport) -> list[str]:
    """The figures of one layout as lines of text (what the table on stdout shows)."""
    lines = [
        f"{report.layout}: {report.games} games, {report.agent} v {report.agent}"
        + (" (stopped early: decided)" if report.stopped_early else ""),
    ]
    if report.sequential is not None:
        lines.append(f"  {report.sequential}")
    after = " (interval read after stopping early: a guide)" if report.stopped_early else ""
    lines += [
        f"  {report.players[0]} (first) won {_pct(report.first_share)} of {report.decided} decided games{after}; "
        f"ties {report.ties}, timeouts {report.timeouts} (limit {report.max_turns} moves)",
        f"  length {_mean(report.length)} moves; sd {report.length.sd:.1f}; "
        f"10/50/90%: {report.length.p10:g}/{report.length.p50:g}/{report.length.p90:g}",
        f"  lead changes {_mean(report.lead_changes, 2)}; winner led for good after "
        f"{_mean(report.decided_at, 2)} of the game",
        f"  branching {_mean(report.branching)} choices a move (a capture counted once)"
        + (
            f"; coverage {_mean(report.coverage, 2)} of spaces"
            if report.coverage.n and report.coverage.p10 < 1
            else ""  # every game reaches every space: the figure says nothing
        ),
    ]
    if report.skill is not None:
        skill = report.skill
        lines.append(
            f"  skill: {skill.strong} beat {skill.weak} in {_pct(skill.share)} of {skill.share.total} decided games "
            f"({skill.games} played, both seatings; ties {skill.ties}, timeouts {skill.timeouts})"
        )
    extra = {"lead changes per move", "drama (moves the winner trailed)", "repetition (moves back to a seen position)"}
    extra |= {"winning margin (points)", "move types", "first move"}
    for name, value, reading in readings(report):
        if name in extra:
            lines.append(f"  {name}: {value} — {reading}")
    lines.append("  what to look at: " + "; ".join(what_to_look_at(report)))
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
REPORT_TITLE = "coinprint design report"


def figures(
    reports: Sequence[LayoutReport], *, heat_maps: int = 3, units: str = "mm", tolerance_mm: float | None = None
) -> list[Scene]:
    """The report's pages of charts: a title block (what was played), the first-player share
    per layout, then for the first ``heat_maps`` layouts the figures with a one-line reading
    each and what to look at, a game-length histogram and a heat map of the spaces (a layout
    file read again with the ``units`` and ``tolerance_mm`` it was analysed with)."""

    games = sorted({game_named(report.game).title for report in reports})
    head = [
        f"{len(reports)} layout(s) of {', '.join(games)}; {reports[0].agent} against itself, "
        f"{reports[0].games} games a layout from seed {reports[0].seed}"
        if reports
        else "no layouts"
    ]
    scenes = [text_block(f"{REPORT_TITLE}: {', '.join(games)}", head)]
    rows = [
        ShareRow(layout_words(r.layout), r.first_share.value, r.first_share.low, r.first_share.high) for r in reports
    ]
    scenes.append(share_chart(rows, "How often the first player wins (share of decided games, 95% interval)"))
    for report in reports[:heat_maps]:
        words = layout_words(report.layout)
        lines = [f"# Figures: {words}"] + [f"{name}: {value} — {reading}" for name, value, reading in readings(report)]
        lines += ["# What to look at"] + [f"• {finding}" for finding in what_to_look_at(report)]
        scenes.append(text_block(f"What the games show: {words}", lines))
        scenes.append(histogram(report.lengths, f"How long games last: {words}", "moves per game"))
        layout = resolve_layout(report.layout, game=report.game, units=units, tolerance_mm=tolerance_mm)
        scenes.append(heat_map(layout, report.held, report.players, f"Who holds each space at the end: {words}"))
    return scenes


def check_report_path(path: str, name: str = "report path") -> str:
    """The report format ``path`` asks for (``html``, ``pdf`` or ``svg``, from its suffix);
    a :class:`UsageError` naming ``name`` for another suffix or an existing folder."""

    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in REPORT_FORMATS:
        raise UsageError(f"{name} must end in .html, .pdf or .svg, not '{path}'")
    check_file_target(path)
    return suffix


def write_report(
    reports: Sequence[LayoutReport],
    path: str,
    *,
    details: int = 3,
    units: str = "mm",
    tolerance_mm: float | None = None,
) -> Path:
    """Write the charts (and, in HTML, the table) to ``path`` (.html, .pdf or .svg), with a
    histogram and a heat map for the first ``details`` layouts (a layout file is read with
    ``units`` and ``tolerance_mm``, as it was analysed)."""

    suffix = check_report_path(path)
    if details < 0:
        raise UsageError(f"details must be 0 or more, not {details}")
    scenes = figures(reports, heat_maps=details, units=units, tolerance_mm=tolerance_mm)
    if suffix == "svg":
        data: bytes | str = scene_to_svg(stack(scenes, REPORT_TITLE))
    elif suffix == "pdf":
        data = pages_to_pdf(_pages(scenes), title=REPORT_TITLE, keywords={"layouts": len(reports)})
    else:
        data = _html(reports, scenes)
    return write_atomic(path, data)


def _pages(scenes: Sequence[Scene]) -> list[Scene]:
    """A4 pages with the charts one under another, a new page when the next does not fit."""

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
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{REPORT_TITLE}</title>',
        "<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em;max-width:60em}"
        "pre{background:#f4f4f4;padding:1em;overflow-x:auto}figure{margin:1.5em 0}"
        "td,th{text-align:left;padding:0.2em 0.8em 0.2em 0;vertical-align:top}</style></head><body>",
        f"<h1>{REPORT_TITLE}</h1>",
        f"<pre>{html.escape(table(reports))}</pre>",
    ]
    for report in reports:
        parts.append(f"<h2>{html.escape(layout_words(report.layout))}</h2>")
        parts.append("<table><tr><th>figure</th><th>value</th><th>reading</th></tr>")
        for name, value, reading in readings(report):
            parts.append(
                f"<tr><td>{html.escape(name)}</td><td>{html.escape(value)}</td><td>{html.escape(reading)}</td></tr>"
            )
        parts.append("</table><h3>What to look at</h3><ul>")
        parts.extend(f"<li>{html.escape(finding)}</li>" for finding in what_to_look_at(report))
        parts.append("</ul>")
    # The charts (the text blocks are the table and lists above); each SVG's ids get the
    # chart's number in front, so no two charts on the page share an id.
    for number, scene in enumerate(scenes, start=1):
        if scene.title.startswith((REPORT_TITLE, "What the games show")):
            continue
        svg = scene_to_svg(scene).decode("utf-8")
        svg = unique_ids(svg[svg.index("<svg") :], f"chart{number}-")
        parts.append(f"<figure>{svg}</figure>")  # the chart draws its own title
    parts.append("</body></html>")
    return xml_safe("\n".join(parts) + "\n")  # a layout's name may hold controls or lone surrogates


def unique_ids(svg: str, prefix: str) -> str:
    """``svg`` with every ``id`` and every reference to one (``#id`` in ``href`` and ``url()``)
    given ``prefix``: SVGs inlined in one HTML page share one id space, and a repeated id
    makes a ``<use>`` in one chart draw another chart's shape."""
    import re

    ids = set(re.findall(r'\sid="([^"]+)"', svg))
    if not ids:
        return svg

    def renamed(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"{match.group(1)}{prefix}{name}{match.group(3)}" if name in ids else match.group(0)

    svg = re.sub(r'(\sid=")([^"]+)(")', renamed, svg)
    svg = re.sub(r'(href="#)([^"]+)(")', renamed, svg)
    return re.sub(r"(url\(#)([^)]+)(\))", renamed, svg)
