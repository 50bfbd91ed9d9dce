"""Checks every layout gets, whatever the game: ids, polygons, overlaps, shared borders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coinprint.layout import Layout, Space

OVERLAP_TOLERANCE_MM2 = 0.01
"""Area two spaces may share (rounding) before it counts as an overlap."""
MAX_OVERLAPS_REPORTED = 50
"""Overlaps listed before the check stops looking for more."""
DEFAULT_TOLERANCE_MM = 0.2
"""How far lengths a check compares may be off (a drawing rounded to 0.1 mm) by default."""


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
    """Names (labels, case-insensitively) used by more than one space: moves name spaces."""
    import shapely

    names = [s.name.lower() for s in layout.spaces]
    problems = []
    for name in sorted({n for n in names if names.count(n) > 1}):
        same = [s.polygon for s in layout.spaces if s.name.lower() == name]
        problems.append(
            Problem(
                name,
                f"the label is used by more than one space ({len(same)})",
                geometry=shapely.GeometryCollection(same),
            )
        )
    return problems


def overlap_problems(spaces: Sequence[Space]) -> list[Problem]:
    """Pairs of spaces whose interiors overlap by more than OVERLAP_TOLERANCE_MM2 (at most
    MAX_OVERLAPS_REPORTED of them, so a pile of stacked spaces is reported at once)."""
    import shapely

    from coinprint.spatial import contained_pairs, overlap_candidates

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
