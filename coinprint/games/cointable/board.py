"""The Coin Table board: a hexagon of hexagons, and the check for hand-made boards.

Cell names follow hexhex games such as Havannah: columns are letters ``a, b, c, …`` from
left to right, rows are numbers from 1 at the bottom. On the standard board (side 5) the
bottom row is ``a1 … e1``, the middle row ``a5 … i5``, the top row ``e9 … i9``, and the
centre is ``e5``. A cell ``(column, row)`` touches ``(column±1, row)``, ``(column, row±1)``,
``(column+1, row+1)`` and ``(column-1, row-1)``.

Internally a cell also has Red Blob Games axial coordinates ``q = column - (side-1)``,
``r = side - row``; the board holds the cells with ``max(|q|, |r|, |q+r|) <= side-1``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from string import ascii_lowercase
from typing import Any

from coinprint.checks import DEFAULT_TOLERANCE_MM, Problem, common_problems, duplicate_label_problems
from coinprint.errors import UsageError
from coinprint.layout import Layout, Space, close_ring
from coinprint.units import Length, coin, parse_length

GAME = "cointable"
STANDARD_SIDE = 5
MIN_SIDE = 2
MAX_SIDE = 13
"""Largest side: 25 columns use the letters a–y (469 cells)."""
STANDARD_HEX = "1.25in"
MEASURES = ("flat-to-flat", "corner-to-corner")
ORIENTATIONS = ("pointy", "flat")

# The six neighbour steps in (column, row) terms.
STEPS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
# Hex corners on an integer lattice (units of R·√3/2 across, R/2 up, pointy hexes): shared
# corners of neighbouring cells come out as the very same numbers, so borders match exactly.
_CORNERS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))


def cell_count(side: int) -> int:
    """Cells on a hexagon board of ``side`` (3n(n-1)+1: 61 for side 5)."""
    return 3 * side * (side - 1) + 1


def cell_name(column: int, row: int) -> str:
    """The name of the cell at 0-based ``column`` and 1-based ``row`` (``(4, 5)`` → ``e5``)."""
    return f"{ascii_lowercase[column]}{row}"


def on_board(column: int, row: int, side: int) -> bool:
    return 0 <= column <= 2 * side - 2 and 1 <= row <= 2 * side - 1 and abs(column - (row - 1)) <= side - 1


def cells(side: int) -> Iterator[tuple[int, int]]:
    """Every cell (column, row), bottom row first, left to right."""
    for row in range(1, 2 * side):
        for column in range(2 * side - 1):
            if on_board(column, row, side):
                yield column, row


def neighbours(column: int, row: int, side: int) -> list[tuple[int, int]]:
    """The cells next to (column, row) on a board of ``side``."""
    return [(column + dc, row + dr) for dc, dr in STEPS if on_board(column + dc, row + dr, side)]


@dataclass(frozen=True)
class HexSize:
    """A hexagon size: the circumradius, with both ways of measuring it."""

    radius_mm: float

    @classmethod
    def parse(cls, text: str | float | Length, measure: str = "flat-to-flat") -> HexSize:
        across = text.mm if isinstance(text, Length) else parse_length(text)
        if measure not in MEASURES:
            raise UsageError(f"unknown hex measure '{measure}'; use {' or '.join(MEASURES)}")
        return cls(across / math.sqrt(3) if measure == "flat-to-flat" else across / 2)

    @property
    def flat_to_flat_mm(self) -> float:
        return self.radius_mm * math.sqrt(3)


def build(
    side: int = STANDARD_SIDE,
    hex_size: str | float | Length = STANDARD_HEX,
    measure: str = "flat-to-flat",
    orientation: str = "pointy",
    guide_coin: str | None = "penny",
) -> Layout:
    """The Coin Table board as a layout.

    ``hex_size`` is a length (``"1.25in"``, or mm as a number) measured ``flat-to-flat``
    (default) or ``corner-to-corner``. ``orientation`` is ``pointy`` (rows run left to right)
    or ``flat`` (the same board turned a quarter turn clockwise). ``guide_coin`` names the
    coin whose faint outline the printed board shows in each cell (``None`` for none).
    """
    if not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
        raise UsageError(f"board size {side!r} is out of range; use a side from {MIN_SIDE} to {MAX_SIDE} hexes")
    if orientation not in ORIENTATIONS:
        raise UsageError(f"unknown orientation '{orientation}'; use {' or '.join(ORIENTATIONS)}")
    size = HexSize.parse(hex_size, measure)
    if not 5.0 <= size.flat_to_flat_mm <= 500.0:
        raise UsageError(f"hex size {hex_size} is out of range; use 5 mm to 500 mm")
    guide = coin(guide_coin) if guide_coin else None
    if guide and guide.diameter_mm > size.flat_to_flat_mm:
        raise UsageError(
            f"a {guide.title} ({guide.diameter_mm} mm) does not fit a hex {size.flat_to_flat_mm:.2f} mm flat-to-flat; "
            "choose a bigger hex or a smaller guide coin"
        )
    spaces = [
        Space(
            cell_name(c, k),
            (close_ring(_corners(c, k, side, size.radius_mm, orientation)),),
            label=cell_name(c, k),
            properties={"color": (c + k + 1) % 3},  # a proper 3-colouring of the hex grid
        )
        for c, k in cells(side)
    ]
    meta = {
        "params": {
            "size": side,
            "hex_mm": round(size.flat_to_flat_mm, 4),
            "measure": "flat-to-flat",
            "orientation": orientation,
            "coin": guide.name if guide else None,
        }
    }
    return Layout(GAME, spaces, meta=meta)


def _corners(column: int, row: int, side: int, radius: float, orientation: str) -> list[tuple[float, float]]:
    q, r = column - (side - 1), side - row
    cx, cy = 2 * q + r, -3 * r
    unit_x, unit_y = radius * math.sqrt(3) / 2, radius / 2
    points = [((cx + dx) * unit_x, (cy + dy) * unit_y) for dx, dy in _CORNERS]
    if orientation == "flat":  # a quarter turn clockwise: (x, y) → (y, -x)
        points = [(y, -x) for x, y in points]
    return points


def havannah_names(centres: list[tuple[float, float]]) -> list[str] | None:
    """Names for the cells of a drawn board from their centres, as :func:`build` names them
    (``a1`` bottom left), when the centres are a full hexagon of pointy or flat hexes on one
    grid; None otherwise (the check then says what is wrong)."""
    count = len(centres)
    side = next((n for n in range(1, MAX_SIDE * 4) if cell_count(n) >= count), 0)
    if count < 7 or cell_count(side) != count:
        return None
    cx = sum(x for x, _ in centres) / count
    cy = sum(y for _, y in centres) / count
    spacing = sorted(min(math.dist(p, q) for q in centres if q is not p) for p in centres[: min(count, 50)])[
        min(count, 50) // 2
    ]
    for turn in ("pointy", "flat"):
        names = []
        for x, y in centres:
            dx, dy = (x - cx, y - cy) if turn == "pointy" else (-(y - cy), x - cx)
            r = -dy / (spacing * math.sqrt(3) / 2)
            q = (dx / (spacing / 2) - r) / 2
            if abs(r - round(r)) > 0.25 or abs(q - round(q)) > 0.25:
                break
            column, row = round(q) + side - 1, side - round(r)
            if not on_board(column, row, side):
                break
            names.append(cell_name(column, row))
        else:
            if len(set(names)) == count:
                return names
    return None


def named_cells(layout: Layout) -> Layout:
    """``layout`` with its cells named as the built-in board names them (``a1`` bottom left),
    when none of them was given a name (a drawing of hexes with automatic ids, a hex tool's
    clones) and they lie on one grid; otherwise ``layout`` itself."""
    from dataclasses import replace

    if layout.game != GAME or not layout.spaces or any(s.label is not None for s in layout.spaces):
        return layout
    names = havannah_names([s.centroid for s in layout.spaces])
    if names is None:
        return layout
    spaces = [replace(s, id=name, label=name) for s, name in zip(layout.spaces, names)]
    named = Layout(layout.game, spaces, list(layout.features), dict(layout.meta), source_frame=layout.source_frame)
    named.read_problems.extend(layout.read_problems)
    return named


# -- checking hand-made boards -----------------------------------------------------------------------
def check(layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
    """Every problem with a Coin Table layout: the common ones, then regular hexagons of one
    size forming a true hexagon of side n with lattice adjacency. Lengths (sides, corner
    distances, sizes, grid positions) may be off by ``tolerance_mm`` (a drawing rounded to
    0.1 mm passes at the default 0.2 mm)."""
    problems = common_problems(layout)
    if problems:
        return problems
    problems = duplicate_label_problems(layout)
    radii: dict[str, float] = {}
    for space in layout.spaces:
        radius, why = regular_hexagon_radius(space.polygon, tolerance_mm)
        if radius is None:
            problems.append(Problem(space.id, f"is not a regular hexagon ({why})"))
        else:
            radii[space.id] = radius
    if problems:
        return problems
    reference = sorted(radii.values())[len(radii) // 2]
    for sid, radius in radii.items():
        if abs(radius - reference) * math.sqrt(3) > tolerance_mm:
            problems.append(
                Problem(
                    sid,
                    f"is {radius * math.sqrt(3):.2f} mm flat-to-flat; the other cells are {reference * math.sqrt(3):.2f} mm",
                )
            )
    if problems:
        return problems
    return _lattice_problems(layout, reference, tolerance_mm) + _coin_room(reference)


def _coin_room(radius: float) -> list[Problem]:
    """A warning when a US penny (the guide coin) is wider than the hexes: coins will overlap."""
    penny = coin("penny")
    across = radius * math.sqrt(3)
    if penny.diameter_mm <= across:
        return []
    return [
        Problem(
            None,
            f"a {penny.title} ({penny.diameter_mm} mm) does not fit a hex {across:.2f} mm flat-to-flat; "
            "coins on neighbouring cells will overlap (draw the hexes bigger)",
            severity="warning",
        )
    ]


def _corners_of(polygon: Any, tolerance_mm: float = 0.0) -> list[tuple[float, float]]:
    """The exterior's corners: points where the outline turns. Points along a side (within
    ``tolerance_mm`` of the line through their neighbours) are left out."""
    coords = list(polygon.exterior.coords)[:-1]
    return [
        coords[i]
        for i in range(len(coords))
        if not _collinear(coords[i - 1], coords[i], coords[(i + 1) % len(coords)], tolerance_mm)
    ]


def regular_hexagon_radius(polygon: Any, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> tuple[float | None, str]:
    """The circumradius if ``polygon`` is a regular hexagon (to ``tolerance_mm``), else (None, why)."""
    corners = _corners_of(polygon, tolerance_mm)
    if len(corners) != 6:
        return None, f"it has {len(corners)} corners"
    if polygon.interiors:
        return None, "it has a hole"
    cx, cy = polygon.centroid.x, polygon.centroid.y
    radii = [math.dist((cx, cy), p) for p in corners]
    sides = [math.dist(corners[i], corners[(i + 1) % 6]) for i in range(6)]
    mean = sum(radii) / 6
    if max(radii) - min(radii) > tolerance_mm or max(sides) - min(sides) > tolerance_mm:
        return None, (
            f"sides from {min(sides):.2f} to {max(sides):.2f} mm, corners {min(radii):.2f} to {max(radii):.2f} mm "
            f"from the centre; they may differ by {tolerance_mm:g} mm"
        )
    return mean, ""


def _collinear(a: Sequence[float], b: Sequence[float], c: Sequence[float], tolerance_mm: float = 0.0) -> bool:
    """Whether ``b`` lies on the line from ``a`` to ``c`` (to rounding, or within ``tolerance_mm``)."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    span = math.dist(a, c)
    return abs(cross) < 1e-6 * max(1.0, span**2) or (span > 0 and abs(cross) / span <= tolerance_mm / 2)


def _lattice_problems(layout: Layout, radius: float, tolerance_mm: float) -> list[Problem]:
    """Cells on one hex lattice forming a hexagon of side n, neighbours sharing borders."""
    first = layout.spaces[0].polygon
    centre = first.centroid
    # Lattice basis: neighbouring centres are √3·R apart, at the corner angle ± 30°. The
    # corner angle is averaged over every corner of every cell (angles taken six-fold), so a
    # drawing rounded to 0.1 mm still gives a grid true across the whole board.
    sin_sum = cos_sum = 0.0
    for space in layout.spaces:
        c = space.polygon.centroid
        for x, y in _corners_of(space.polygon, tolerance_mm):
            phi = 6 * math.atan2(y - c.y, x - c.x)
            sin_sum, cos_sum = sin_sum + math.sin(phi), cos_sum + math.cos(phi)
    angle = math.atan2(sin_sum, cos_sum) / 6 + math.pi / 6
    step = radius * math.sqrt(3)
    e1 = (step * math.cos(angle), step * math.sin(angle))
    e2 = (step * math.cos(angle + math.pi / 3), step * math.sin(angle + math.pi / 3))
    det = e1[0] * e2[1] - e1[1] * e2[0]
    positions: dict[tuple[int, int], str] = {}
    problems: list[Problem] = []
    for space in layout.spaces:
        c = space.polygon.centroid
        dx, dy = c.x - centre.x, c.y - centre.y
        a = (dx * e2[1] - dy * e2[0]) / det
        b = (e1[0] * dy - e1[1] * dx) / det
        cell = (round(a), round(b))
        off = math.hypot((a - cell[0]) * step, (b - cell[1]) * step)
        if off > tolerance_mm * 4:
            problems.append(
                Problem(
                    space.id, f"is not on the same hex grid as the other cells: its centre is {off:.2f} mm off the grid"
                )
            )
        elif cell in positions:
            problems.append(Problem(space.id, f"sits on the same grid position as {positions[cell]}"))
        else:
            positions[cell] = space.id
    if problems:
        return problems
    count = len(layout.spaces)
    side = next((n for n in range(1, 200) if cell_count(n) >= count), 0)
    if cell_count(side) != count:
        return [
            Problem(
                None,
                f"{count} cells cannot form a true hexagon; a hexagon of side n has 3n(n-1)+1 cells (37, 61, 91, …)",
            )
        ]
    centre_cell = _hexagon_centre(positions)
    if centre_cell is None:
        return [Problem(None, f"the {count} cells do not form a true hexagon of side {side}")]
    lattice = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    for (a, b), sid in sorted(positions.items()):
        for da, db in lattice:
            other = positions.get((a + da, b + db))
            if other and sid < other and not layout.graph.has_edge(sid, other):
                problems.append(Problem(sid, f"should share a border with {other}, its neighbour on the grid"))
    return problems


def _hexagon_centre(positions: dict[tuple[int, int], str]) -> tuple[int, int] | None:
    """The centre cell if the positions are exactly a hexagon, else None."""
    count = len(positions)
    side = next(n for n in range(1, 200) if cell_count(n) >= count)
    for ca, cb in positions:
        if all(max(abs(a - ca), abs(b - cb), abs((a - ca) + (b - cb))) <= side - 1 for a, b in positions):
            return ca, cb
    return None
