"""Printing any valid layout (a drawing, a QGIS map, a GeoJSON file) exactly like a built-in
board: the game's own sheet drawer, after filling in what that drawer shows and a drawing
does not say (colour numbers, region sizes, the hex size and coin guide, the card outline).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from coinprint.boards.checks import Problem
    from coinprint.kit import PrintSettings
    from coinprint.layout import Layout
    from coinprint.render.pages import Sheet

GUIDE_COIN = "penny"
"""The coin outlined in each hex of a custom Coin Table board, when it fits."""


def printable(layout: Layout) -> Layout:
    """A copy of a valid ``layout`` with the properties its game's printed sheet uses."""
    complete = {"cointable": _cointable, "coinage": _coinage}.get(layout.game)
    return complete(layout) if complete else layout


def sheet_values(layout: Layout) -> dict[str, Any]:
    """What the rule sheet printed with a valid ``layout`` says of its board: a Map's number
    of countries, a Coin Table board's side."""
    if layout.game == "mapgame":
        return {"countries": len(layout)}
    if layout.game == "cointable":
        return {"side": printable(layout).params["size"]}
    return {}


def board_sheet(layout: Layout, settings: PrintSettings, *, copies: int | None = None, for_pdf: bool = True) -> Sheet:
    """The printable sheet of a valid layout of any game, drawn by that game's renderer."""
    layout = printable(layout)
    if layout.game == "cointable":
        from coinprint.render.cointable import board_sheet as cointable_sheet

        return cointable_sheet(layout, settings.style)
    if layout.game == "coinage":
        from coinprint.render.coinage import board_sheet as coinage_sheet

        paper = settings.paper if for_pdf else None
        return coinage_sheet(layout, settings.style, paper=paper, margin=settings.margin_mm, copies=copies)
    if layout.game == "mapgame":
        from coinprint.render.mapgame import map_sheet

        return map_sheet(layout, settings.style)
    from coinprint.render.flick import mat_sheet

    return mat_sheet(layout, settings.style)


def _with_properties(layout: Layout, extra: dict[str, dict[str, Any]], meta: dict[str, Any]) -> Layout:
    from coinprint.layout import Layout

    spaces = [replace(s, properties={**s.properties, **extra.get(s.id, {})}) for s in layout.spaces]
    return Layout(layout.game, spaces, list(layout.features), {**layout.meta, **meta})


def _colouring(layout: Layout) -> dict[str, int]:
    """A proper colouring of the spaces (neighbours differ), with at most four colours."""
    import networkx

    from coinprint.boards.coinage import colour_regions

    graph = layout.graph
    colours = networkx.greedy_color(graph, strategy="DSATUR")
    if max(colours.values(), default=0) < 4:
        return colours
    exact = colour_regions(list(graph.nodes), graph.edges)
    return exact if exact is not None else colours


def _cointable(layout: Layout) -> Layout:
    import math
    import statistics

    from coinprint.boards.cointable import cell_count, havannah_names, regular_hexagon_radius
    from coinprint.units import coin

    radii = [r for r, _ in (regular_hexagon_radius(s.polygon, 1.0) for s in layout.spaces) if r is not None]
    hex_mm = round(statistics.median(radii) * math.sqrt(3), 2) if radii else 0.0
    side = next((n for n in range(1, 200) if cell_count(n) >= len(layout)), 0)
    guide = GUIDE_COIN if coin(GUIDE_COIN).diameter_mm <= hex_mm else None
    builtin_names = havannah_names([s.centroid for s in layout.spaces])
    names = "havannah" if builtin_names == [s.name for s in layout.spaces] else "drawn"
    params = {
        **layout.params,
        "size": side,
        "hex_mm": hex_mm,
        "measure": "flat-to-flat",
        "coin": guide,
        "names": names,
    }
    colours = _colouring(layout)
    return _with_properties(layout, {sid: {"color": c} for sid, c in colours.items()}, {"params": params})


def _coinage(layout: Layout) -> Layout:
    import shapely

    from coinprint.boards.coinage import CARD_MARGIN_MM, colour_regions
    from coinprint.layout import Feature, close_ring, polygon_geometry

    region_of = {s.id: s.region or s.id for s in layout.spaces}
    sizes: dict[str, int] = {}
    for region in region_of.values():
        sizes[region] = sizes.get(region, 0) + 1
    touching = [(region_of[a], region_of[b]) for a, b in layout.graph.edges if region_of[a] != region_of[b]]
    colours = colour_regions(sorted(sizes), touching) or {r: i for i, r in enumerate(sorted(sizes))}
    extra = {sid: {"color": colours[r], "region_size": sizes[r]} for sid, r in region_of.items()}
    features = list(layout.features)
    if not layout.features_with_role("card"):
        box = shapely.union_all([s.polygon for s in layout.spaces]).buffer(CARD_MARGIN_MM, join_style="mitre").envelope
        features.append(Feature("card", "card", polygon_geometry([close_ring(box.exterior.coords)])))
    card = [f for f in features if f.role == "card"][0].shape.bounds
    params = {"map": "custom", **layout.params, "card": f"{card[2] - card[0]:.1f}x{card[3] - card[1]:.1f}mm"}
    coloured = _with_properties(layout, extra, {"params": params})
    coloured.features = features
    return coloured


def write_report(layout: Layout, problems: list[Problem], path: str, verdict: str, paper: str = "a4") -> Path:
    """Draw the verdict on ``layout`` (every error and warning marked and numbered) to
    ``path``, an .svg (one true-size sheet) or a .pdf (tiled at true size on ``paper``)."""
    from coinprint.fileio import write_atomic
    from coinprint.kit import REPORT_SUFFIXES, require_suffix
    from coinprint.render.report import Marked, report_sheet

    suffix = require_suffix(path, "--report", REPORT_SUFFIXES).lower().rsplit(".", 1)[-1]
    marks = [
        Marked(_where(layout, p), str(p), p.severity == "error") for p in problems if p.severity in ("error", "warning")
    ]
    sheet = report_sheet(layout, marks, f"{layout.game} layout check", verdict)
    if suffix == "svg":
        from coinprint.render.pages import single_sheet
        from coinprint.render.svg import scene_to_svg

        return write_atomic(path, scene_to_svg(single_sheet(sheet, 10.0)))
    from coinprint.kit import PrintSettings, board_pages
    from coinprint.render.pdf import pages_to_pdf

    pages = board_pages(sheet, PrintSettings.parse(paper=paper))
    return write_atomic(path, pages_to_pdf(pages, title=sheet.title, keywords={"game": layout.game}))


def _where(layout: Layout, problem: Problem) -> Any:
    """The problem's own geometry, else the shape of the space or feature it names."""
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
