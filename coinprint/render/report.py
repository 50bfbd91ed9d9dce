"""A picture of a layout check: the layout at true size with every problem marked in red
and numbered, the numbered list of problems below. Knows no rules: it is given shapes
(shapely geometries in layout mm) and the words to print beside them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.render.board import Frame, label_items, region_border_items, space_items
from coinprint.render.scene import Circle, Item, Path, Style, Text
from coinprint.render.sheet import Sheet
from coinprint.render.style import palette

if TYPE_CHECKING:
    from coinprint.layout import Layout

DARK = {True: "#d0021b", False: "#c77700"}
"""Outline and badge colour of an error (True) and of a warning (False)."""
LIGHT = {True: "#f6b6bd", False: "#fbdca8"}
"""Fill of a marked area: light, so the drawing shows through."""
BADGE_MM = 2.6
BADGE_OFFSET_MM = 4.5
"""Badges sit this far above the marked place, clear of the space's label."""


@dataclass(frozen=True)
class Marked:
    """One thing to mark: where (a shapely geometry in layout mm, or None for nowhere in
    particular), what to say, and whether it is an error (red) or a warning (amber)."""

    geometry: Any
    text: str
    error: bool = True


def report_sheet(layout: Layout, marks: Sequence[Marked], title: str, verdict: str) -> Sheet:
    """The layout in outline with its labels, each mark drawn and numbered, and the list."""
    colours = palette("ink-saver")
    frame = Frame(layout, pad=6.0)
    scene = frame.scene(title=title)
    shown = [(n, m) for n, m in enumerate(marks, start=1) if m.geometry is not None and not m.geometry.is_empty]
    for _, mark in shown:  # light fills first, so outlines and labels stay readable on top
        scene.add(*_fill_items(mark.geometry, frame, LIGHT[mark.error]))
    scene.add(*space_items(layout, frame, colours))
    for feature in layout.features:
        scene.add(*_line_items(feature.shape, frame, Style(stroke="#888888", stroke_mm=0.3, dash_mm=(2.0, 1.0))))
    scene.add(*region_border_items(layout, frame, colours))
    scene.add(*label_items(layout, frame, colours, 3.0))
    taken: list[tuple[float, float]] = []
    for number, mark in shown:
        colour = DARK[mark.error]
        scene.add(*_line_items(mark.geometry, frame, Style(stroke=colour, stroke_mm=0.7)))
        x, y = frame.point(*_anchor(mark.geometry))
        y += BADGE_OFFSET_MM
        while any(math.dist((x, y), spot) < 2.2 * BADGE_MM for spot in taken):
            x += 2.2 * BADGE_MM  # two problems at one place: the badges sit side by side
        taken.append((x, y))
        scene.add(Circle((x, y), BADGE_MM, Style(fill=colour, stroke="#ffffff", stroke_mm=0.3)))
        scene.add(Text((x, y - BADGE_MM * 0.45), str(number), BADGE_MM * 1.2, "middle", "#ffffff", bold=True))
    lines = [verdict] + [f"{number}. {mark.text}" for number, mark in enumerate(marks, start=1)]
    return Sheet(scene, title, lines, footprint=None)


def _parts(geometry: Any) -> list[Any]:
    if geometry.geom_type in ("MultiPolygon", "MultiLineString", "MultiPoint", "GeometryCollection"):
        return [piece for part in geometry.geoms for piece in _parts(part)]
    return [geometry]


def _fill_items(geometry: Any, frame: Frame, fill: str) -> list[Item]:
    """The polygons of ``geometry`` filled with ``fill``."""
    return [
        Path(tuple(frame.ring(r.coords) for r in [p.exterior, *p.interiors]), Style(fill=fill, stroke=None))
        for p in _parts(geometry)
        if p.geom_type == "Polygon"
    ]


def _line_items(geometry: Any, frame: Frame, style: Style) -> list[Item]:
    """Polygon outlines and lines stroked (lines thick), points as small rings."""
    items: list[Item] = []
    for part in _parts(geometry):
        if part.geom_type == "Polygon":
            items.append(Path(tuple(frame.ring(r.coords) for r in [part.exterior, *part.interiors]), style))
        elif part.geom_type in ("LineString", "LinearRing"):
            thick = Style(stroke=style.stroke, stroke_mm=max(style.stroke_mm, 1.2), dash_mm=style.dash_mm)
            items.append(Path((frame.ring(part.coords),), thick, closed=False))
        elif part.geom_type == "Point":
            items.append(Circle(frame.point(part.x, part.y), 1.5, Style(stroke=style.stroke, stroke_mm=0.8)))
    return items


def _anchor(geometry: Any) -> tuple[float, float]:
    """Where a mark's number goes: inside a polygon, on a line, at a point."""
    point = geometry.representative_point() if geometry.geom_type != "Point" else geometry
    return (point.x, point.y)
