"""Which pairs of polygons can share a border or overlap, found through an index of their
boundary segments, so the layout checks stay near-linear in the number of spaces.

An index of whole polygons pairs every two spaces whose outlines touch anywhere, and spaces
that all meet at one point (the wedges of a disc) then pair every one with every other:
2,000 wedges are two million pairs, each worth an exact intersection. Here each boundary
segment is looked up with its two ends cut back by :data:`END_CUT_MM`, so two segments that
only share an end (or touch at a corner) no longer meet, while segments that run along each
other, cross, or have a corner of the other on their inside still do.

The functions return *candidates*: a superset of the pairs the exact test (shapely on the
two polygons) accepts. Callers run that exact test on the few candidates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

END_CUT_MM = 1e-4
"""How far each end of a segment is cut back before the lookup. Segments shorter than four
times this are looked up whole, so a border made of tiny pieces is never missed."""
NEAR_MM = 1e-9
"""How close a cut-back segment must come to another segment to count as meeting it: room
for rounding, since a point moved along a segment is rarely exactly on it any more. Two
segments from one corner at an angle under NEAR_MM / END_CUT_MM (10⁻⁵ rad) still meet and
are sorted out by the exact test."""

Pairs = set[tuple[int, int]]


def boundary_segments(polygons: Sequence[Any]) -> tuple[Any, Any]:
    """Every boundary segment as rows ``x0, y0, x1, y1`` (ends in a fixed order, so a border
    drawn by both neighbours gives equal rows), and the index of its polygon."""
    import numpy
    import shapely

    rows, owners = [], []
    for index, polygon in enumerate(polygons):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        for ring in [polygon.exterior, *polygon.interiors]:
            points = shapely.get_coordinates(ring)
            if len(points) >= 2:
                rows.append(numpy.hstack([points[:-1], points[1:]]))
                owners.append(numpy.full(len(points) - 1, index, dtype=numpy.int64))
    if not rows:
        return numpy.zeros((0, 4)), numpy.zeros(0, dtype=numpy.int64)
    segments, owner = numpy.concatenate(rows), numpy.concatenate(owners)
    keep = numpy.any(segments[:, :2] != segments[:, 2:], axis=1)  # a repeated point is no segment
    segments, owner = segments[keep], owner[keep]
    swap = (segments[:, 0] > segments[:, 2]) | ((segments[:, 0] == segments[:, 2]) & (segments[:, 1] > segments[:, 3]))
    segments[swap] = segments[swap][:, [2, 3, 0, 1]]
    return segments, owner


def _lines(rows: Any) -> Any:
    import shapely

    return shapely.linestrings(rows.reshape(-1, 2, 2))


def _cut_back(rows: Any) -> Any:
    import numpy

    start, end = rows[:, :2], rows[:, 2:]
    length = numpy.hypot(*(end - start).T)
    cut = numpy.where(length > 4 * END_CUT_MM, END_CUT_MM / numpy.maximum(length, 1e-300), 0.0)[:, None]
    return numpy.hstack([start + (end - start) * cut, end - (end - start) * cut])


def _pairs_of(groups: dict[int, list[int]], left: Any, right: Any) -> Pairs:
    """Owner pairs (i < j) of every left/right pair of segment groups."""
    found: Pairs = set()
    for a, b in zip(left.tolist(), right.tolist()):
        if a > b:
            continue
        for i in groups[a]:
            for j in groups[b]:
                if i != j:
                    found.add((i, j) if i < j else (j, i))
    return found


def boundary_contact_pairs(polygons: Sequence[Any]) -> Pairs:
    """Pairs ``(i, j)``, ``i < j``, of polygons whose boundaries may share a line, cross, or
    have a corner of one on the inside of a segment of the other: every pair whose boundaries
    share a line of positive length is among them."""
    import numpy

    rows, owners = boundary_segments(polygons)
    if len(rows) == 0:
        return set()
    unique, which = numpy.unique(rows, axis=0, return_inverse=True)
    groups: dict[int, list[int]] = defaultdict(list)
    for segment, owner in zip(which.reshape(-1).tolist(), owners.tolist()):
        if not groups[segment] or groups[segment][-1] != owner:
            groups[segment].append(owner)
    left, right = _meeting_segments(unique)
    return _pairs_of(groups, left, right) | _pairs_of(groups, right, left)


_last_meeting: tuple[bytes, Any, Any] | None = None
"""The last lookup of :func:`_meeting_segments`: a layout's check asks twice (its borders,
then whether they match), and the lookup is the costly part."""


def _meeting_segments(unique: Any) -> tuple[Any, Any]:
    """Index pairs of the distinct segments ``unique`` that meet other than end to end."""
    import hashlib

    import shapely

    global _last_meeting
    key = hashlib.sha256(unique.tobytes()).digest()
    if _last_meeting is not None and _last_meeting[0] == key:
        return _last_meeting[1], _last_meeting[2]
    tree = shapely.STRtree(_lines(unique))
    left, right = tree.query(_lines(_cut_back(unique)), predicate="dwithin", distance=NEAR_MM)
    _last_meeting = (key, left, right)
    return left, right


def contained_pairs(polygons: Sequence[Any]) -> Pairs:
    """Pairs ``(i, j)``, ``i < j``, where one polygon's representative point (a point inside
    it) lies inside the other: every pair where one holds the other is among them."""
    import shapely

    usable = [i for i, p in enumerate(polygons) if p.geom_type == "Polygon" and not p.is_empty]
    if len(usable) < 2:
        return set()
    shapes = [polygons[i] for i in usable]
    inner, outer = shapely.STRtree(shapes).query(shapely.point_on_surface(shapes), predicate="within")
    return {tuple(sorted((usable[a], usable[b]))) for a, b in zip(inner.tolist(), outer.tolist()) if a != b}


def overlap_candidates(polygons: Sequence[Any]) -> Iterator[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, of valid polygons whose interiors may overlap, each once,
    found polygon by polygon so a caller that has seen enough can stop early (a pile of
    stacked spaces pairs every one with every other).

    When two interiors overlap, the boundaries cross or run along each other (a cut-back
    segment of one meets the other's boundary), or one polygon holds the other (its point on
    the surface is inside the other), or a segment of one runs through the inside of the
    other while the boundaries meet only at corners (its midpoint is inside the other; only
    segments that are not borders drawn by two polygons need looking up)."""
    import numpy
    import shapely

    rows, owners = boundary_segments(polygons)
    usable = [i for i, p in enumerate(polygons) if p.geom_type == "Polygon" and not p.is_empty]
    if len(rows) == 0 or len(usable) < 2:
        return
    segment_tree = shapely.STRtree(_lines(rows))
    polygon_tree = shapely.STRtree([polygons[i] for i in usable])
    cut = _lines(_cut_back(rows))
    _, which, counts = numpy.unique(rows, axis=0, return_inverse=True, return_counts=True)
    lone = counts[which.reshape(-1)] == 1
    midpoints = shapely.points((rows[:, :2] + rows[:, 2:]) / 2)
    order = numpy.argsort(owners, kind="stable")
    bounds = numpy.searchsorted(owners[order], numpy.arange(len(polygons) + 1))
    seen: set[tuple[int, int]] = set()
    for i in usable:
        mine = order[bounds[i] : bounds[i + 1]]
        _, touching = segment_tree.query(cut[mine], predicate="dwithin", distance=NEAR_MM)
        found = set(owners[touching].tolist())
        inside = mine[lone[mine]]
        if len(inside):
            _, holders = polygon_tree.query(midpoints[inside], predicate="within")
            found.update(usable[h] for h in holders.tolist())
        holders = polygon_tree.query(polygons[i].point_on_surface(), predicate="within")  # one point: one array
        found.update(usable[h] for h in holders.tolist())
        for j in sorted(found - {i}):
            pair = (i, j) if i < j else (j, i)
            if pair not in seen:
                seen.add(pair)
                yield pair


def border_mismatches(polygons: Sequence[Any]) -> tuple[set[int], Any]:
    """Where neighbours do not share their borders exactly: the polygons with a boundary
    segment that meets another polygon's boundary other than as the very same segment or at
    a common corner (a corner on the other's side, sides that run along each other with
    different corners), and those segments (a shapely geometry, empty when there are none). For polygons that do
    not overlap this is what ``shapely.coverage_is_valid`` tells, without its pairwise cost
    where many polygons meet at one point."""
    import numpy
    import shapely

    rows, owners = boundary_segments(polygons)
    if len(rows) == 0:
        return set(), shapely.MultiLineString()
    unique, which = numpy.unique(rows, axis=0, return_inverse=True)
    which = which.reshape(-1)
    groups: dict[int, set[int]] = defaultdict(set)
    for segment, owner in zip(which.tolist(), owners.tolist()):
        groups[segment].add(owner)
    lines = _lines(unique)
    left, right = _meeting_segments(unique)
    apart = left != right
    left, right = left[apart], right[apart]
    # The exact test: the two segments meet somewhere other than at an end they share.
    meeting = shapely.intersection(lines[left], lines[right])
    ends = shapely.multipoints(numpy.stack([unique[left, :2], unique[left, 2:]], axis=1))
    bad = ~shapely.is_empty(meeting) & ~shapely.covered_by(meeting, ends)
    bad_segments: set[int] = set()
    for a, b in zip(left[bad].tolist(), right[bad].tolist()):
        if groups[a] != groups[b] or len(groups[a]) > 1:
            bad_segments.update((a, b))
    culprits = {owner for segment in bad_segments for owner in groups[segment]}
    return culprits, shapely.MultiLineString(list(lines[sorted(bad_segments)]))


def widest_circle(polygon: Any, need_mm: float, tolerance_mm: float = 0.01) -> Any:
    """``shapely.maximum_inscribed_circle`` of ``polygon`` (a line from the circle's centre to
    the nearest edge), or a circle of radius at least ``need_mm`` when one is found cheaply:
    first around the centroid and a point surely inside, then by a coarse search. The fine
    search, whose cost grows with the polygon's size over the tolerance (long thin spaces a
    kilometre out), runs only for a space where the coin may not fit."""
    import shapely

    for centre in (polygon.centroid, polygon.point_on_surface()):
        if polygon.contains(centre):
            line = shapely.shortest_line(centre, polygon.boundary)
            if line is not None and float(line.length) >= need_mm:  # None: GEOS could not tell
                return line
    coarse = shapely.maximum_inscribed_circle(polygon, max(tolerance_mm, need_mm / 8))
    if float(coarse.length) >= need_mm:
        return coarse
    return shapely.maximum_inscribed_circle(polygon, tolerance_mm)
