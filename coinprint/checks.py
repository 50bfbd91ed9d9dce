"""Checks every layout gets, whatever the game: ids, polygons, overlaps, shared borders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coinprint.caps import DEFAULT_TOLERANCE_MM as DEFAULT_TOLERANCE_MM  # how far lengths may be off by default
from coinprint.layout import MIN_BORDER_MM, Layout, Space
from coinprint.spatial import border_mismatches, contained_pairs, overlap_candidates

OVERLAP_TOLERANCE_MM2 = 0.01
"""Area two spaces may share (rounding) before it counts as an overlap."""
MAX_OVERLAPS_REPORTED = 50
"""Overlaps listed before the check stops looking for more."""
NARROW_GAP_MM = 1.0
"""Spaces this close that do not share their border were meant to: the gap (or the sliver
where they overlap) is reported. Wider gaps are drawn on purpose."""
LISTED = 8
"""Names a message lists before it says how many more there are."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a layout. ``feature`` is the space or feature id it concerns."""

    feature: str | None
    message: str
    severity: str = "error"
    """``error`` makes the layout invalid; ``warning`` and ``info`` are reported but allowed."""
    geometry: Any = field(default=None, compare=False)
    """Where the problem is, as a shapely geometry in layout mm (the overlap, the coin that
    does not fit, the border too many), so a picture can mark it; None: the whole feature."""

    def __str__(self) -> str:
        where = f"{self.feature}: " if self.feature else ""
        tag = {"warning": "warning: ", "info": "note: "}.get(self.severity, "")
        return f"{tag}{where}{self.message}"


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


def common_problems(layout: Layout) -> list[Problem]:
    """Problems any layout can have: read faults, units, duplicate ids, invalid polygons,
    overlapping spaces. Later checks may assume polygons are valid when this list is empty."""
    import shapely

    problems = [Problem(None, text) for text in layout.read_problems]
    if layout.meta.get("units", "mm") != "mm":
        problems.append(Problem(None, f'units must be "mm", not {layout.meta.get("units")!r}'))
    if not layout.spaces:
        problems.append(Problem(None, 'the layout has no spaces (features with role "space")'))
    spaced = [s.name for s in layout.spaces if any(c.isspace() for c in s.name)]
    if spaced:
        # Moves name spaces word by word (``place a1``): a name of two words cannot be played.
        problems.append(
            Problem(
                None,
                f"names with spaces: {listing([repr(n) for n in spaced])}; a space's name is one word "
                "(moves name spaces): write 'big_hill' or 'BigHill'",
                geometry=shapely.GeometryCollection([s.polygon for s in layout.spaces if s.name in spaced]),
            )
        )
    ids = Counter([s.id for s in layout.spaces] + [f.id for f in layout.features])
    for fid, count in sorted(ids.items()):
        if count > 1:
            problems.append(Problem(fid, f"the id is used by {count} features; ids must be unique"))
    valid = []
    for space in layout.spaces:
        polygon = space.polygon
        if not polygon.is_valid:
            reason = shapely.is_valid_reason(polygon)
            problems.append(Problem(space.id, f"the polygon is invalid ({reason})", geometry=_reason_point(reason)))
        elif polygon.area <= 0:
            problems.append(Problem(space.id, "the polygon has no area"))
        else:
            valid.append(space)
    problems += overlap_problems(valid)
    return problems


def duplicate_label_problems(layout: Layout) -> list[Problem]:
    """Names (labels, case-insensitively) used by more than one space: moves name spaces.
    Each is quoted as it was first drawn (``A1``, not ``a1``)."""
    import shapely

    drawn: dict[str, list[Space]] = {}
    for space in layout.spaces:
        drawn.setdefault(space.name.lower(), []).append(space)
    problems = []
    for key in sorted(k for k, same in drawn.items() if len(same) > 1):
        same = drawn[key]
        problems.append(
            Problem(
                same[0].name,
                f"the label is used by more than one space ({len(same)})",
                geometry=shapely.GeometryCollection([s.polygon for s in same]),
            )
        )
    return problems


def listing(names: Sequence[str], limit: int = LISTED) -> str:
    """``A1, B2, C3`` — at most ``limit`` names, then how many more, so a message stays one
    short line however many things it is about."""
    shown = ", ".join(names[:limit])
    return shown if len(names) <= limit else f"{shown} and {len(names) - limit:,} more"


def place(layout: Layout, x: float, y: float) -> str:
    """Where a point is, as the designer sees it: in the drawing's own unit with y down for
    an SVG drawing, else in layout mm."""
    if layout.source_frame is not None:
        return layout.source_frame.place(x, y)
    return f"({x:.1f}, {y:.1f}) mm"


def border_problems(layout: Layout, gap_width: float = NARROW_GAP_MM) -> list[Problem]:
    """Neighbours whose borders do not match, one problem for each pair of spaces, saying
    how wide the gap (or overlap) is at most, how long, and where: ``A–B: gap up to 0.30 mm
    along 34.0 mm near (40.0, 12.5) mm``. Its geometry is only that stretch, for the report.

    Two kinds are found: borders that touch or cross without running through the same
    points, and gaps narrower than ``gap_width`` between spaces that share no border (0:
    none; a Map's coast comes close to itself in narrow bays). Assumes valid polygons (see
    :func:`common_problems`)."""
    return _unmatched_borders(layout) + (_narrow_gaps(layout, gap_width) if gap_width > 0 else [])


def _unmatched_borders(layout: Layout) -> list[Problem]:
    import numpy
    import shapely

    spaces = layout.spaces
    polygons = [s.polygon for s in spaces]
    # The segment index finds the spaces whose borders do not match without pairing every
    # two spaces that meet (2,000 wedges meeting at one point); shapely then describes only
    # those, with the spaces around them.
    culprits, _ = border_mismatches(polygons) if len(polygons) >= 2 else (set(), None)
    if not culprits:
        return []
    tree = shapely.STRtree(polygons)
    around = sorted(
        {int(j) for i in culprits for j in tree.query(polygons[i], predicate="dwithin", distance=MIN_BORDER_MM)}
    )
    invalid = [None] * len(polygons)
    for index, edges in zip(around, shapely.coverage_invalid_edges([polygons[i] for i in around], gap_width=0.0)):
        invalid[index] = edges
    found: dict[tuple[int, int], tuple[float, float, Any]] = {}
    for i, edges in enumerate(invalid):
        if edges is None or edges.is_empty:
            continue
        for j in tree.query(edges, predicate="dwithin", distance=MIN_BORDER_MM).tolist():
            if j == i:
                continue
            stretch = edges.intersection(polygons[j].buffer(MIN_BORDER_MM, quad_segs=4))
            if stretch.is_empty or stretch.length <= MIN_BORDER_MM:
                continue
            points = shapely.get_coordinates(shapely.segmentize(stretch, 0.1))
            inside = shapely.contains_xy(polygons[j], points[:, 0], points[:, 1])
            depth = float(
                numpy.max(numpy.where(inside, shapely.distance(shapely.points(points), polygons[j].boundary), 0))
            )
            pair = (min(i, j), max(i, j))
            if pair not in found or depth > found[pair][0]:
                found[pair] = (depth, stretch.length, stretch)
    problems = []
    for (i, j), (depth, length, stretch) in sorted(found.items()):
        line = shapely.line_merge(stretch) if stretch.geom_type == "MultiLineString" else stretch
        line = max(getattr(line, "geoms", [line]), key=lambda part: part.length)
        middle = line.interpolate(0.5, normalized=True)
        what = (
            f"overlap up to {depth:.2f} mm"
            if depth >= 0.005
            else "the border is drawn with different corners on each side"
        )
        problems.append(
            Problem(
                None,
                f"{spaces[i].name}–{spaces[j].name}: {what} along {length:.1f} mm near "
                f"{place(layout, middle.x, middle.y)}; neighbours must share their border exactly",
                geometry=stretch,
            )
        )
    return problems


def _narrow_gaps(layout: Layout, gap_width: float) -> list[Problem]:
    """Gaps narrower than ``gap_width`` between spaces that do not border each other: where
    closing the map by the gap width fills it, for each pair of spaces on its two sides."""
    import shapely

    spaces = layout.spaces
    polygons = [s.polygon for s in spaces]
    if len(polygons) < 2:
        return []
    union = shapely.union_all(polygons)
    closed = union.buffer(gap_width / 2, join_style="mitre").buffer(-gap_width / 2, join_style="mitre")
    gaps = closed.difference(union)
    parts = [g for g in getattr(gaps, "geoms", [gaps]) if g.geom_type == "Polygon" and g.area > OVERLAP_TOLERANCE_MM2]
    if not parts:
        return []
    tree = shapely.STRtree(polygons)
    graph = layout.graph
    problems = []
    reported: set[tuple[int, int]] = set()
    for gap in parts:
        width = 2 * float(shapely.maximum_inscribed_circle(gap, 0.005).length)
        near = sorted(tree.query(gap, predicate="dwithin", distance=0.001).tolist())
        for a in near:
            for b in near:
                if b <= a or (a, b) in reported or graph.has_edge(spaces[a].id, spaces[b].id):
                    continue
                reach = width + 0.01
                piece = gap.intersection(polygons[a].buffer(reach)).intersection(polygons[b].buffer(reach))
                if piece.is_empty or piece.area <= OVERLAP_TOLERANCE_MM2:
                    continue
                box = piece.minimum_rotated_rectangle
                corners = list(box.exterior.coords) if box.geom_type == "Polygon" else [(0, 0), (0, 0), (0, 0)]
                length = max(
                    shapely.Point(corners[0]).distance(shapely.Point(corners[1])),
                    shapely.Point(corners[1]).distance(shapely.Point(corners[2])),
                )
                widest = 2 * float(shapely.maximum_inscribed_circle(piece, 0.005).length)
                centre = piece.centroid if piece.contains(piece.centroid) else piece.representative_point()
                reported.add((a, b))
                problems.append(
                    Problem(
                        None,
                        f"{spaces[a].name}–{spaces[b].name}: gap up to {widest:.2f} mm along {length:.1f} mm near "
                        f"{place(layout, centre.x, centre.y)}; neighbours must share their border exactly",
                        geometry=piece,
                    )
                )
    return problems


def overlap_problems(spaces: Sequence[Space]) -> list[Problem]:
    """Pairs of spaces whose interiors overlap by more than OVERLAP_TOLERANCE_MM2 (at most
    MAX_OVERLAPS_REPORTED of them, so a pile of stacked spaces is reported at once)."""
    import shapely

    polygons = [s.polygon for s in spaces]
    if len(polygons) < 2:
        return []
    # The areas add up to the union's when no two spaces overlap by more than the tolerance
    # (the excess is at least every pair's overlap): then only a space wholly inside another
    # is left to find. Otherwise the pairs an index of boundary segments suggests are tested.
    excess = sum(p.area for p in polygons) - shapely.union_all(polygons).area
    candidates: Iterable[tuple[int, int]]
    if excess <= OVERLAP_TOLERANCE_MM2:
        candidates = sorted(contained_pairs(polygons))
    else:
        candidates = overlap_candidates(polygons)
    problems = []
    for i, j in candidates:
        for outer, inner in ((i, j), (j, i)):
            if polygons[outer].contains(polygons[inner]):
                problems.append(
                    Problem(
                        spaces[outer].id,
                        f"contains {spaces[inner].id}; spaces must not overlap",
                        geometry=polygons[inner],
                    )
                )
                break
        else:
            common = polygons[i].intersection(polygons[j])
            if common.area > OVERLAP_TOLERANCE_MM2:
                problems.append(
                    Problem(spaces[i].id, f"overlaps {spaces[j].id} by {common.area:.2f} mm²", geometry=common)
                )
        if len(problems) >= MAX_OVERLAPS_REPORTED:
            problems.append(
                Problem(None, f"more overlapping spaces not listed (the first {MAX_OVERLAPS_REPORTED} are)")
            )
            return problems
    return problems


def _reason_point(reason: str) -> Any:
    """The point shapely names in an invalidity reason ("Self-intersection[12.5 3]"), or None."""
    import re

    import shapely

    match = re.search(r"\[([-+\d.eE]+) ([-+\d.eE]+)\]", reason)
    return shapely.Point(float(match.group(1)), float(match.group(2))) if match else None
