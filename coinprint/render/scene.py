"""A device-independent drawing in millimetres, y up, origin at the bottom-left.

A :class:`Scene` is a list of items: :class:`Path` (polygons with holes, polylines),
:class:`Circle`, :class:`Text` and :class:`Group` (an affine transform and an optional clip
rectangle around more items). Both backends (SVG and PDF) draw exactly these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
"""Affine transform (a, b, c, d, e, f): x' = a·x + c·y + e, y' = b·x + d·y + f (PDF's order)."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Style:
    """How a shape is painted. Colours are ``#rrggbb`` or ``None`` for no paint."""

    fill: str | None = None
    stroke: str | None = "#000000"
    stroke_mm: float = 0.3
    dash_mm: tuple[float, ...] | None = None
    opacity: float = 1.0


@dataclass(frozen=True)
class Path:
    """Closed rings (a polygon and its holes, filled even-odd) or one open polyline."""

    rings: tuple[tuple[Point, ...], ...]
    style: Style
    closed: bool = True


@dataclass(frozen=True)
class Circle:
    center: Point
    radius: float
    style: Style


@dataclass(frozen=True)
class Text:
    """One line of text; ``anchor`` is start, middle or end; ``size_mm`` is the font size."""

    at: Point
    text: str
    size_mm: float = 3.5
    anchor: str = "middle"
    color: str = "#000000"
    bold: bool = False
    angle: float = 0.0
    """Rotation in degrees, anticlockwise, about ``at``."""
    font: str = ""
    """A font the backend knows by name (empty: the regular or bold sans)."""


@dataclass(frozen=True)
class Group:
    items: tuple[Item, ...]
    transform: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None
    """Clip rectangle (minx, miny, maxx, maxy) in the group's outer coordinates."""


Item = Path | Circle | Text | Group


@dataclass
class Scene:
    """A drawing of ``width_mm`` × ``height_mm``; items are drawn in list order."""

    width_mm: float
    height_mm: float
    items: list[Item] = field(default_factory=list)
    title: str = ""
    trim: tuple[float, float, float, float] | None = None
    """The finished size (minx, miny, maxx, maxy) when it is not the whole scene (PDF TrimBox)."""
    bleed_mm: float = 0.0
    """How far printing runs past ``trim`` (PDF BleedBox)."""

    def add(self, *items: Item) -> Scene:
        self.items.extend(items)
        return self


def polygon(points: Iterable[Sequence[float]], style: Style) -> Path:
    return Path((tuple((float(x), float(y)) for x, y in points),), style)


def polyline(points: Iterable[Sequence[float]], style: Style) -> Path:
    return Path((tuple((float(x), float(y)) for x, y in points),), style, closed=False)


def translate(dx: float, dy: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def rotate(degrees: float) -> Matrix:
    """Anticlockwise rotation about the origin; exact for multiples of 90°."""
    quarter = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
    turn = round(degrees) % 360
    if turn in quarter and turn == degrees % 360:
        cos, sin = quarter[turn]
    else:
        cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return (cos, sin, -sin, cos, 0.0, 0.0)


def compose(outer: Matrix, inner: Matrix) -> Matrix:
    """The transform that applies ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(matrix: Matrix, point: Point) -> Point:
    a, b, c, d, e, f = matrix
    x, y = point
    return (a * x + c * y + e, b * x + d * y + f)
