"""Reading a drawing (SVG from Inkscape, Illustrator, Affinity, …) into shapes in mm.

The XML is walked once with the standard library to learn what each element is (its own
name, the nearest enclosing group, whether it is hidden or inside ``<defs>``), and every
shape gets a private key attribute. svgelements then parses the same document (units,
viewBox, transforms) and each of its shapes is matched to the walk by that key. Curves and
arcs are flattened finely enough that areas come out right to better than 0.1 %.

Coordinates come out in mm with y up: the drawing's top edge is at y = page height.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass, field

from coinprint.caps import MAX_COORDINATE_MM, MAX_DRAWING_NUMBERS, MAX_DRAWING_SHAPES, MAX_FLATTENED_POINTS
from coinprint.errors import UnreadableInputError

PX_PER_INCH = 96.0
MM_PER_PX = 25.4 / PX_PER_INCH
KEY = "coinprintkey"
"""The attribute the walk adds to each element so svgelements' shapes can be matched to it."""
SHAPE_TAGS = {"path", "rect", "circle", "ellipse", "polygon", "polyline", "line"}
SKIPPED_TREES = {"defs", "clipPath", "mask", "marker", "pattern", "symbol", "metadata", "title", "desc"}
INKSCAPE_LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"
LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Z%]*)\s*$")
UNITS = ("", "px", "mm", "cm", "in", "pt", "pc", "%")
UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6}
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
CURVE_STEP_MM = 0.25
"""Flattened curves get a point at least every quarter millimetre …"""
CURVE_MIN_POINTS = 32
"""… and at least this many per curve segment (a quarter circle's area is then right to 0.02 %)."""
CURVE_POINTS_PER_RADIAN = 24
"""… and at least this many per radian the curve turns (a full circle gets 151 points: its
area comes out right to 0.03 %)."""
CURVE_MAX_POINTS = 4096


@dataclass(frozen=True)
class DrawnShape:
    """A closed shape from the drawing: its rings in mm (exterior first), its name (the
    ``inkscape:label``, else the ``id``), and the name of its nearest enclosing group."""

    name: str
    rings: tuple[tuple[tuple[float, float], ...], ...]
    group: str | None
    order: int
    problem: str | None = None
    """Why the shape cannot be used as drawn (several separate pieces, …), or None."""


@dataclass
class Drawing:
    """Every closed shape in document order, and how many things were ignored, by kind."""

    shapes: list[DrawnShape] = field(default_factory=list)
    ignored: dict[str, int] = field(default_factory=dict)
    size_mm: tuple[float, float] | None = None

    def ignore(self, kind: str, count: int = 1) -> None:
        if count:
            self.ignored[kind] = self.ignored.get(kind, 0) + count


@dataclass(frozen=True)
class _Entry:
    name: str | None
    group: str | None


def read_svg(data: bytes, *, source: str = "drawing") -> Drawing:
    """The closed shapes of the SVG document ``data`` (see the module docstring).

    Raises :class:`UnreadableInputError` with one line when the document is not SVG, uses
    a unit coinprint does not know, or is over a cap of :mod:`coinprint.caps`.
    """
    if b"<!ENTITY" in data:
        # Entities can expand a small file into gigabytes, and drawing programs never write them.
        raise UnreadableInputError(
            f"{source}: the SVG declares XML entities (<!ENTITY>), which coinprint does not read"
        )
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise UnreadableInputError(f"{source} is not an SVG drawing: the XML is broken ({exc})") from None
    if _tag(root) != "svg":
        raise UnreadableInputError(f"{source} is XML but not SVG: its root element is <{_tag(root)}>, not <svg>")
    _check_size_attributes(root, source)
    try:
        return _read(root, source)
    except RecursionError:
        raise UnreadableInputError(f"{source}: the SVG is nested too deeply to read") from None
    except (ValueError, TypeError, ArithmeticError, IndexError, AttributeError, KeyError) as exc:
        # svgelements meets malformed numbers, transforms and paths with many kinds of error.
        raise UnreadableInputError(f"{source}: the SVG cannot be read ({type(exc).__name__}: {exc})") from None


def _read(root: ElementTree.Element, source: str) -> Drawing:
    drawing = Drawing()
    entries: dict[str, _Entry] = {}
    numbers = 0
    for element, entry, state in _walk(root, None, hidden=False, skipped=False):
        if state == "text":
            drawing.ignore("text")
            continue
        if state == "image":
            drawing.ignore("images and clones")
            continue
        if state == "hidden":
            drawing.ignore("shapes on hidden layers")
            continue
        if state == "defs":
            drawing.ignore("shapes inside <defs>")
            continue
        numbers += len(NUMBER.findall(element.get("d", "") + " " + element.get("points", "")))
        if numbers > MAX_DRAWING_NUMBERS:
            raise UnreadableInputError(
                f"{source}: the paths hold more than {MAX_DRAWING_NUMBERS:,} numbers "
                f"(cap MAX_DRAWING_NUMBERS, about {MAX_DRAWING_NUMBERS // 2:,} points); simplify the drawing"
            )
        if len(entries) >= MAX_DRAWING_SHAPES:
            raise UnreadableInputError(
                f"{source}: more than {MAX_DRAWING_SHAPES:,} shapes (cap MAX_DRAWING_SHAPES); a board has far fewer"
            )
        key = f"k{len(entries)}"
        element.set(KEY, key)
        entries[key] = entry
    return _shapes(root, entries, drawing, source)


def _walk(
    element: ElementTree.Element, group: str | None, *, hidden: bool, skipped: bool
) -> Iterator[tuple[ElementTree.Element, _Entry, str]]:
    """Each shape-like element with its entry and what it is: ``shape``, ``text``,
    ``image``, ``hidden`` or ``defs``."""
    for child in element:
        tag = _tag(child)
        is_hidden = hidden or _display_none(child)
        in_defs = skipped or tag in SKIPPED_TREES
        name = child.get(INKSCAPE_LABEL) or child.get("id")
        if tag in SHAPE_TAGS:
            state = "defs" if in_defs else "hidden" if is_hidden else "shape"
            yield child, _Entry(name, group), state
        elif tag in ("text", "flowRoot"):
            if not in_defs:
                yield child, _Entry(name, group), "text"
        elif tag in ("image", "use"):
            if not in_defs:
                yield child, _Entry(name, group), "image"
        elif tag in ("g", "a", "switch", "svg") or tag in SKIPPED_TREES:
            inner = name if tag == "g" and name else group
            yield from _walk(child, inner, hidden=is_hidden, skipped=in_defs)


def _tag(element: ElementTree.Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def _display_none(element: ElementTree.Element) -> bool:
    if element.get("display", "").strip() == "none" or element.get("visibility", "").strip() == "hidden":
        return True
    style = element.get("style", "").replace(" ", "")
    return "display:none" in style or "visibility:hidden" in style


def _check_size_attributes(root: ElementTree.Element, source: str) -> None:
    for attribute in ("width", "height"):
        value = root.get(attribute)
        if value is None:
            continue
        match = LENGTH.match(value)
        if match is None or match.group(2) not in UNITS:
            raise UnreadableInputError(
                f"{source}: the document {attribute} {value!r} has a unit coinprint does not know; "
                "use mm, cm, in, pt, pc or px (96 px to the inch)"
            )
        if not math.isfinite(float(match.group(1))) or float(match.group(1)) <= 0:
            raise UnreadableInputError(f"{source}: the document {attribute} {value!r} must be a positive length")
    view_box = root.get("viewBox")
    if view_box is not None:
        parts = NUMBER.findall(view_box)
        if len(parts) != 4 or float(parts[2]) <= 0 or float(parts[3]) <= 0:
            raise UnreadableInputError(f"{source}: the viewBox {view_box!r} must be four numbers: x y width height")


def _shapes(root: ElementTree.Element, entries: dict[str, _Entry], drawing: Drawing, source: str) -> Drawing:
    import svgelements

    text = ElementTree.tostring(root)
    try:
        svg = svgelements.SVG.parse(io.BytesIO(text), reify=True, ppi=PX_PER_INCH)
    except Exception as exc:  # svgelements raises many kinds on malformed documents
        raise UnreadableInputError(f"{source}: the SVG cannot be read ({type(exc).__name__}: {exc})") from None
    scale = _mm_per_px(root, float(svg.width))
    height_mm = float(svg.height) * scale if root.get("height") or root.get("viewBox") else 0.0
    if height_mm:
        drawing.size_mm = (float(svg.width) * scale, height_mm)
    budget = [MAX_FLATTENED_POINTS]
    order = 0
    seen: set[str] = set()
    for element in svg.elements():
        if not isinstance(element, svgelements.Shape) or isinstance(element, svgelements.Text):
            continue
        key = str(element.values.get(KEY, ""))
        entry = entries.get(key)
        if entry is None or key in seen:  # a clone (<use>) of a shape carries its key again
            continue
        seen.add(key)
        rings, open_parts = _rings(svgelements.Path(element), height_mm, scale, budget, source)
        if not rings:
            drawing.ignore("open paths and lines")
            continue
        order += 1
        name = entry.name or f"shape{order}"
        rings_out, problem = _as_polygon(rings)
        drawing.shapes.append(DrawnShape(name, rings_out, entry.group, order, problem))
        drawing.ignore("open parts of paths", open_parts)
    return drawing


def _rings(
    path, height_mm: float, scale: float, budget: list[int], source: str
) -> tuple[list[list[tuple[float, float]]], int]:
    """The closed subpaths of ``path`` as rings in mm (y up), and how many were open."""
    import svgelements

    path = abs(path)  # applies the element's transform to its segments
    rings: list[list[tuple[float, float]]] = []
    open_count = 0
    for subpath in path.as_subpaths():
        points: list[tuple[float, float]] = []
        closed = False
        for segment in subpath:
            if isinstance(segment, svgelements.Move):
                if segment.end is not None:
                    points = [_mm(segment.end, height_mm, scale)]
                continue
            if isinstance(segment, svgelements.Close):
                closed = True
                continue
            if segment.end is None:
                continue
            if isinstance(segment, svgelements.Line):
                points.append(_mm(segment.end, height_mm, scale))
            else:
                points.extend(_flatten(segment, height_mm, scale))
            if len(points) > budget[0]:
                raise UnreadableInputError(
                    f"{source}: flattening the curves gives more than {MAX_FLATTENED_POINTS:,} points "
                    "(cap MAX_FLATTENED_POINTS); simplify the drawing"
                )
        budget[0] -= len(points)
        # A shape squashed flat (a zero scale, repeated points) has no area: not a space.
        points = [p for k, p in enumerate(points) if k == 0 or math.dist(p, points[k - 1]) >= 1e-6]
        if len(points) >= 2 and math.dist(points[0], points[-1]) < 1e-6:
            closed = True
            points.pop()
        if closed and len(points) >= 3:
            rings.append(points)
        elif len(points) >= 2:
            open_count += 1
    return rings, open_count


def _mm(point, height_mm: float, scale: float) -> tuple[float, float]:
    x, y = float(point[0]) * scale, height_mm - float(point[1]) * scale
    if not (abs(x) < MAX_COORDINATE_MM and abs(y) < MAX_COORDINATE_MM):
        raise ValueError(
            f"a point lies {max(abs(x), abs(y)):.3g} mm away; a board is at most {MAX_COORDINATE_MM:g} mm across"
        )
    return (x, y)


def _mm_per_px(root: ElementTree.Element, width_px: float) -> float:
    """Millimetres per svgelements pixel: exact from the document width when it has a
    physical unit (svgelements rounds its unit factors), else 25.4 / 96."""
    match = LENGTH.match(root.get("width") or "")
    if match is None or match.group(2) not in UNIT_MM or width_px <= 0:
        return MM_PER_PX
    return float(match.group(1)) * UNIT_MM[match.group(2)] / width_px


def _flatten(segment, height_mm: float, scale: float) -> list[tuple[float, float]]:
    """Points along a curve segment (its start left out), evenly spaced in its parameter.

    The count depends only on the curve's length, so a border drawn in the other direction
    by the neighbouring shape is flattened to the very same points.
    """
    import numpy

    coarse = numpy.asarray(segment.npoint(numpy.linspace(0.0, 1.0, 33)), dtype=float)
    steps = numpy.diff(coarse, axis=0)
    length_mm = float(numpy.hypot(*steps.T).sum()) * scale
    headings = numpy.unwrap(numpy.arctan2(steps[:, 1], steps[:, 0]))
    turning = float(numpy.abs(numpy.diff(headings)).sum())
    count = max(CURVE_MIN_POINTS, math.ceil(length_mm / CURVE_STEP_MM), math.ceil(turning * CURVE_POINTS_PER_RADIAN))
    count = min(CURVE_MAX_POINTS, count)
    t = numpy.linspace(0.0, 1.0, count + 1)[1:]
    return [_mm(p, height_mm, scale) for p in segment.npoint(t)]


def _as_polygon(
    rings: list[list[tuple[float, float]]],
) -> tuple[tuple[tuple[tuple[float, float], ...], ...], str | None]:
    """One polygon from a shape's closed subpaths: the largest is the outline, the others
    must lie inside it (holes); a shape of separate pieces is reported."""
    import shapely

    ordered = sorted(rings, key=lambda ring: -abs(_signed_area(ring)))
    outline = shapely.Polygon(ordered[0])
    problem = None
    holes = []
    for ring in ordered[1:]:
        if outline.contains(shapely.Polygon(ring).representative_point()):
            holes.append(ring)
        else:
            problem = f"is drawn as {len(rings)} separate pieces; a space must be one piece"
    return tuple(tuple(r) for r in [ordered[0], *holes]), problem


def _signed_area(ring: list[tuple[float, float]]) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))
