"""A picture of a layout check: the layout at true size with every problem marked in red
and numbered, the numbered list of problems below. Knows no rules: it is given shapes
(shapely geometries in layout mm) and the words to print beside them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.render.board import Frame, label_items, region_border_items, space_items
from coinprint.render.pages import Sheet
from coinprint.render.scene import Circle, Item, Path, Style, Text
from coinprint.render.style import palette

if TYPE_CHECKING:
    from coinprint.layout import Layout

RED = "#d0021b"
AMBER = "#e08a00"
MARK_FILL_OPACITY = 0.35
BADGE_MM = 2.6


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
    scene.add(*space_items(layout, frame, colours))
    for feature in layout.features:
        scene.add(*_shape_items(feature.shape, frame, Style(stroke="#888888", stroke_mm=0.3, dash_mm=(2.0, 1.0))))
    scene.add(*region_border_items(layout, frame, colours))
    scene.add(*label_items(layout, frame, colours, 3.0))
    lines = [verdict]
    for number, mark in enumerate(marks, start=1):
        colour = RED if mark.error else AMBER
        lines.append(f"{number}. {mark.text}")
        if mark.geometry is None or mark.geometry.is_empty:
            continue
        style = Style(fill=colour, stroke=colour, stroke_mm=0.8, opacity=MARK_FILL_OPACITY)
        scene.add(*_shape_items(mark.geometry, frame, style, outline=Style(stroke=colour, stroke_mm=0.6)))
        x, y = frame.point(*_anchor(mark.geometry))
        scene.add(Circle((x, y), BADGE_MM, Style(fill=colour, stroke="#ffffff", stroke_mm=0.3)))
        scene.add(Text((x, y - BADGE_MM * 0.45), str(number), BADGE_MM * 1.2, "middle", "#ffffff", bold=True))
    return Sheet(scene, title, lines, footprint=None)


def _shape_items(geometry: Any, frame: Frame, style: Style, *, outline: Style | None = None) -> list[Item]:
    """Polygons filled (and outlined), lines stroked thick, points as small rings."""
    items: list[Item] = []
    kind = geometry.geom_type
    if kind in ("MultiPolygon", "MultiLineString", "MultiPoint", "GeometryCollection"):
        for part in geometry.geoms:
            items += _shape_items(part, frame, style, outline=outline)
    elif kind == "Polygon":
        rings = tuple(frame.ring(r.coords) for r in [geometry.exterior, *geometry.interiors])
        items.append(Path(rings, Style(fill=style.fill, stroke=None, opacity=style.opacity)))
        items.append(Path(rings, outline or Style(stroke=style.stroke, stroke_mm=style.stroke_mm)))
    elif kind in ("LineString", "LinearRing"):
        line = Style(stroke=style.stroke, stroke_mm=max(style.stroke_mm, 1.2))
        items.append(Path((frame.ring(geometry.coords),), line, closed=False))
    elif kind == "Point":
        items.append(Circle(frame.point(geometry.x, geometry.y), 1.5, Style(stroke=style.stroke, stroke_mm=0.8)))
    return items


def _anchor(geometry: Any) -> tuple[float, float]:
    """Where a mark's number goes: inside a polygon, on a line, at a point."""
    point = geometry.representative_point() if geometry.geom_type != "Point" else geometry
    return (point.x, point.y)
