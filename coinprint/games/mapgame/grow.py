"""The Map's outline as it grows, and sprawling growth: one arc round a coin's spot.

Country 1 is a circle. Every next country is bounded by **one** new arc whose two ends lie on
the map's current outline, plus the stretch of outline between those ends (docs/formats.md,
How coinprint reads the seed rules). :class:`Outline` keeps the outline as a ring of points,
each outline edge tagged with the country it belongs to; :func:`add_country` is that one step,
whichever growth found the arc: the new country's polygon is the outline stretch (the very same
points as its neighbours' polygons) plus the new arc, so every border is built once and shared
exactly by both sides, and its neighbours when drawn are the owners of the stretch.

**Sprawling** growth (0.1.0's maps, and packed growth's fallback; :func:`sprawling_step`)
first finds a spot just outside the map where the coin will lie (at least the coin's radius
plus a margin from the whole outline), then a stretch of outline round it, then an arc from
one end of the stretch round the spot to the other. A candidate is rejected by the cheapest
test that fails: too many neighbours or a sliver of a border along the stretch, the page
frame, the country turned inside out, the arc crossing itself or touching the map anywhere
but its ends (:func:`arc_clear`: that would leave a hole), no room for the coin.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from coinprint.layout import MIN_BORDER_MM, round_point

if TYPE_CHECKING:
    import numpy

MIN_VISIBLE_BORDER_MM = 2.0
"""The generator never makes a border shorter than this (a player must see it is a border)."""
CIRCLE_POINTS = 48
BEND_WINDOW = 5
"""Outline points over which the generator measures how the outline bends."""
ARC_SPACING_MM = 3.5
"""Rough distance between the points of an arc: smooth in print, small polygons."""
ARCS_PER_SPOT = 2
"""Arcs tried round one coin spot (the second over a shorter stretch) before looking for
another spot."""
SPOT_STEPS_MM = tuple(k * 1.5 for k in range(-2, 16))
"""How far out from the outline (mm) the generator looks for a coin's spot."""

Point = tuple[float, float]


# -- the growing map ------------------------------------------------------------------------------------
class Outline:
    """The map's outline, anticlockwise: ``points[k]`` → ``points[k+1]`` belongs to ``owners[k]``.

    The numpy arrays and the shapely polygon are made once per outline: every attempt at
    the next country reuses them.
    """

    def __init__(
        self,
        points: numpy.ndarray,
        owners: list[int],
        frame: tuple[float, float],
        closed: numpy.ndarray | None = None,
    ) -> None:
        import numpy as np
        import shapely

        self.points = points
        self.owners = owners
        self.count = len(points)
        # Three laps of the outline: a stretch round point k of the middle lap may run past
        # either end of the list.
        self.laps = np.concatenate((points, points, points))
        self.owner_laps = owners * 3
        ends = np.concatenate((points[1:], points[:1]))
        steps = ends - points
        self.steps = steps
        low, high = np.minimum(points, ends), np.maximum(points, ends)  # each edge's box
        self.low_x, self.low_y = low[:, 0].copy(), low[:, 1].copy()
        self.high_x, self.high_y = high[:, 0].copy(), high[:, 1].copy()
        self.x, self.y = points[:, 0].copy(), points[:, 1].copy()
        self.dx, self.dy = steps[:, 0].copy(), steps[:, 1].copy()
        self.step_length2 = np.maximum((steps * steps).sum(axis=1), 1e-12)
        edges = np.sqrt(self.step_length2)
        self.edge_laps = np.concatenate((edges, edges, edges))
        self.travelled = np.concatenate(([0.0], np.cumsum(self.edge_laps)))
        # Points found without room on an earlier outline stay without room: the map only grows.
        self.closed = np.zeros(self.count, dtype=bool) if closed is None else closed
        self.frame = frame
        self._weights: numpy.ndarray | None = None  # made when the sprawling step first picks
        self._cumulative: numpy.ndarray | None = None
        self.polygon = shapely.polygons(points)
        shapely.prepare(self.polygon)

    @property
    def weights(self) -> numpy.ndarray:
        """How likely each outline point is picked as the place to grow from (sprawling)."""
        if self._weights is None:
            self._weights = self._start_weights()
        return self._weights

    @property
    def cumulative(self) -> numpy.ndarray:
        if self._cumulative is None:
            import numpy as np

            self._cumulative = np.cumsum(self.weights)
        return self._cumulative

    def _start_weights(self) -> numpy.ndarray:
        import numpy as np

        points, steps, frame = self.points, self.steps, self.frame
        # Start near the middle of the map: the map grows round and compact.
        radii = np.hypot(points[:, 0] / frame[0], points[:, 1] / frame[1]) * frame[1]
        weights = 1.0 / (1.0 + ((radii - radii.min()) / 40.0) ** 2)
        # Grow only from where the outline bulges out (turning anticlockwise over a few
        # points, ~15 mm): in hollows and along flat stretches a coin seldom fits.
        following = np.concatenate((steps[1:], steps[:1]))
        turn = (steps[:, 0] * following[:, 1] - steps[:, 1] * following[:, 0]) / self.step_length2
        window = np.ones(BEND_WINDOW)
        bend = np.convolve(np.concatenate((turn[-BEND_WINDOW:], turn, turn[:BEND_WINDOW])), window, "same")[
            BEND_WINDOW:-BEND_WINDOW
        ]
        bulging = bend >= 0.05
        if bulging.any():
            weights[~bulging] = 0.0
        weights[self.closed] = 0.0
        return np.asarray(weights)

    def pick(self, rng: random.Random) -> int | None:
        """A point of the outline to grow from (the middle of the map first); None when no
        point is left."""
        import numpy as np

        total = float(self.cumulative[-1])
        if total <= 1e-12:
            return None
        return min(int(np.searchsorted(self.cumulative, rng.random() * total)), self.count - 1)

    def close(self, index: int, spread: int = 6) -> None:
        """Stop growing from around point ``index``: it has no room for a coin."""
        import numpy as np

        near = [(index + k) % self.count for k in range(-spread, spread + 1)]
        self.weights[near] = 0.0
        self.closed[near] = True
        self._cumulative = np.cumsum(self.weights)

    def reopen(self) -> None:
        """Forget the points found without room (they may have been shut by the frame)."""
        import numpy as np

        self.closed[:] = False
        self._weights = np.ones(self.count)
        self._cumulative = np.cumsum(self._weights)

    def normal(self, index: int) -> numpy.ndarray:
        """The outward unit normal at point ``index`` (the map lies left of its anticlockwise
        outline, so "out" is to the right of the way it runs)."""
        import numpy as np

        tangent = self.points[(index + 2) % self.count] - self.points[(index - 2) % self.count]
        return np.array([tangent[1], -tangent[0]]) / max(float(np.hypot(*tangent)), 1e-9)

    def distances(self, spots: numpy.ndarray, cap: float) -> numpy.ndarray:
        """Distance from each of ``spots`` (k × 2) to the outline, or ``cap`` where it is
        larger than ``cap`` (numpy, no shapely; only outline edges near the spots count)."""
        import numpy as np

        low, high = spots.min(axis=0) - cap, spots.max(axis=0) + cap
        near = np.flatnonzero(
            (self.low_x <= high[0]) & (self.high_x >= low[0]) & (self.low_y <= high[1]) & (self.high_y >= low[1])
        )
        if not len(near):
            return np.full(len(spots), cap)
        # x and y apart: numpy is slow at summing over an axis of length 2.
        sx, sy, dx, dy = self.x[near], self.y[near], self.dx[near], self.dy[near]
        rx = spots[:, 0, None] - sx[None, :]
        ry = spots[:, 1, None] - sy[None, :]
        along = np.minimum(np.maximum((rx * dx + ry * dy) / self.step_length2[near], 0.0), 1.0)
        gx, gy = rx - dx * along, ry - dy * along
        clearance: np.ndarray = np.minimum(np.sqrt((gx * gx + gy * gy).min(axis=1)), cap)
        return clearance


@dataclass
class Grown:
    """One step of the growth: the outline after it, the country's ring and its neighbours."""

    outline: Outline
    ring: list[Point]
    neighbours: frozenset[int]


@dataclass
class GrowthStats:
    """How hard the generator worked (for the bench)."""

    arcs_tried: int = 0
    backtracks: int = 0
    rejections: dict[str, int] = field(default_factory=dict)

    def reject(self, why: str) -> None:
        self.rejections[why] = self.rejections.get(why, 0) + 1


def circle(radius: float) -> list[Point]:
    """Country 1's outline: CIRCLE_POINTS points anticlockwise round the origin (open)."""
    return [
        round_point(
            radius * math.cos(2 * math.pi * k / CIRCLE_POINTS), radius * math.sin(2 * math.pi * k / CIRCLE_POINTS)
        )
        for k in range(CIRCLE_POINTS)
    ]


def sprawling_step(
    outline: Outline,
    new: int,
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
) -> Grown | None:
    """One attempt at the next country (index ``new``) by sprawling growth; None when this
    arc is rejected.

    First a spot for the coin just outside the outline, then the stretch of outline around
    it, then the arc round the spot. A point of the outline with no room for a coin is not
    tried again on this outline.
    """

    stats.arcs_tried += 1
    mouth = outline.pick(rng)
    if mouth is None:
        stats.reject("no room")
        return None
    normal = outline.normal(mouth)
    centre = _coin_spot(outline, outline.points[mouth], normal, need + 0.2, rng.randrange(3))
    if centre is None or (
        frame != (1.0, 1.0) and math.hypot(centre[0] / frame[0], centre[1] / frame[1]) * min(frame) > min(frame) - need
    ):
        outline.close(mouth)
        stats.reject("no coin spot")
        return None
    wanted = rng.uniform(1.4, 3.4) * need
    for _ in range(ARCS_PER_SPOT):
        found = _arc_round(outline, mouth, centre, normal, wanted, max_neighbours, need, frame, rng, stats)
        if found is not None:
            break
        wanted *= 0.7  # a smaller country round the same spot is less in the way
    else:
        return None
    first, end, _, arc, neighbours = found
    return add_country(outline, new, first, end, arc, neighbours, frame)


def add_country(
    outline: Outline,
    new: int,
    first: int,
    end: int,
    arc: numpy.ndarray,
    neighbours: frozenset[int],
    frame: tuple[float, float],
) -> Grown:
    """The step that adds country ``new``, whichever growth found its arc: the stretch
    ``first``…``end`` (lap indices) of the outline closed by ``arc`` (from the stretch's first
    point to its last, outside the map). The new outline runs round the old one to the
    stretch's first point, then along the arc.

    The arc is taken as judged: it meets the map only at its ends (:func:`arc_clear`), the
    country is not inside out (:func:`signed_area` of the stretch and the arc back is
    negative), and ``neighbours`` are the owners of the stretch (:func:`owner_runs`)."""
    import numpy as np

    count = outline.count
    stretch = outline.laps[first : end + 1]
    country = np.concatenate((stretch, arc[-2:0:-1]))
    # The new outline: from B round the old outline to A, then the arc from A to B.
    first, end = first % count, end % count
    if end < first:
        end += count
    new_points = np.concatenate((outline.laps[end : first + count + 1], arc[1:-1]))
    new_owners = outline.owner_laps[end : first + count] + [new] * (len(arc) - 1)
    closed = np.concatenate((np.tile(outline.closed, 3)[end : first + count + 1], np.zeros(len(arc) - 2, dtype=bool)))
    ring_points = [tuple(p) for p in country[::-1].tolist()]  # anticlockwise for GeoJSON
    ring_points.append(ring_points[0])
    return Grown(Outline(new_points, new_owners, frame, closed), ring_points, neighbours)


def _arc_round(
    outline: Outline,
    mouth: int,
    centre: numpy.ndarray,
    normal: numpy.ndarray,
    wanted: float,
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
) -> tuple[int, int, numpy.ndarray, numpy.ndarray, frozenset[int]] | None:
    """A stretch of about ``wanted`` mm round point ``mouth`` and an arc over it round the
    coin's spot: (first, end, stretch, arc, neighbours), or None with the reason counted."""
    import numpy as np

    count = outline.count
    share = rng.uniform(0.35, 0.65)
    middle = mouth + count  # in the middle lap, so the stretch may start before it
    first = int(np.searchsorted(outline.travelled, outline.travelled[middle] - wanted * share))
    end = int(np.searchsorted(outline.travelled, outline.travelled[middle] + wanted * (1 - share)))
    if end - first >= count - 2:
        stats.reject("stretch")
        return None
    owners, edges = outline.owner_laps, outline.edge_laps
    trimmed, end = _trim_stretch(owners, edges, first, end)
    if trimmed is None:
        stats.reject("short border")
        return None
    first = trimmed
    runs = owner_runs(owners[first:end], edges[first:end])
    neighbours = frozenset(owner for owner, length, _ in runs if length > MIN_BORDER_MM)
    if not 1 <= len(neighbours) <= max_neighbours:
        stats.reject("neighbours")
        return None
    stretch = outline.laps[first : end + 1]
    arc = _hand_drawn_arc(stretch, centre, normal, need, rng)
    if arc is None:
        stats.reject("arc near coin")
        return None
    if frame != (1.0, 1.0) and np.hypot(arc[:, 0] / frame[0], arc[:, 1] / frame[1]).max() > 1.0:
        stats.reject("frame")
        return None
    country = np.concatenate((stretch, arc[-2:0:-1]))  # stretch A→B, then the arc back to A
    if signed_area(country) >= 0:  # clockwise when it lies outside the map
        stats.reject("inside out")
        return None
    if not arc_clear(outline, arc, stats):
        return None
    return first, end, stretch, arc, neighbours


def _trim_stretch(owners: list[int], edges: numpy.ndarray, first: int, end: int) -> tuple[int | None, int]:
    """Drop a sliver of a country at either end of the stretch (the arc then starts at the
    corner between two countries); None when a sliver is left in the middle."""
    runs = owner_runs(owners[first:end], edges[first:end])
    if len(runs) > 1 and runs[0][1] < MIN_VISIBLE_BORDER_MM:
        first += runs[0][2]
        runs = runs[1:]
    if len(runs) > 1 and runs[-1][1] < MIN_VISIBLE_BORDER_MM:
        end -= runs[-1][2]
        runs = runs[:-1]
    if any(length < MIN_VISIBLE_BORDER_MM for _, length, _ in runs):
        return None, end
    return first, end


def owner_runs(owners: Sequence[int], edges: numpy.ndarray) -> list[tuple[int, float, int]]:
    """Consecutive edges of one owner: (owner, length, edge count)."""
    runs: list[tuple[int, float, int]] = []
    for owner, length in zip(owners, edges.tolist()):
        if runs and runs[-1][0] == owner:
            runs[-1] = (owner, runs[-1][1] + length, runs[-1][2] + 1)
        else:
            runs.append((owner, length, 1))
    return runs


def _hand_drawn_arc(
    stretch: numpy.ndarray, centre: numpy.ndarray, outward: numpy.ndarray, need: float, rng: random.Random
) -> numpy.ndarray | None:
    """A smooth, slightly wobbly arc from the stretch's first point to its last, round the
    coin's spot ``centre`` on the ``outward`` side; None if it would pass too near the spot.

    The spot is at least ``need`` from the whole outline and the arc never comes nearer to
    it than ``need`` (plus the sag of a chord between arc points), so a disc of radius
    ``need`` about the spot lies inside the new country.
    """
    import numpy as np

    a, b = stretch[0], stretch[-1]
    start_angle = math.atan2(a[1] - centre[1], a[0] - centre[0])
    end_angle = math.atan2(b[1] - centre[1], b[0] - centre[0])
    out_angle = math.atan2(outward[1], outward[0])
    sweep = (end_angle - start_angle) % (2 * math.pi)
    if (out_angle - start_angle) % (2 * math.pi) > sweep:
        sweep -= 2 * math.pi  # go round clockwise instead, still through the outward side
    near_a = math.hypot(a[0] - centre[0], a[1] - centre[1])
    near_b = math.hypot(b[0] - centre[0], b[1] - centre[1])
    body = need + 0.3 + rng.uniform(0.0, 0.2) * need  # the radius the arc settles to round C
    reach = rng.uniform(0.2, 0.4)  # how soon (as a share of the arc) it settles
    stretchy, stretch_angle = rng.uniform(0.0, 0.12), rng.uniform(0, math.pi)
    ripple, ripple_phase = rng.uniform(0.15, 0.45), rng.uniform(0, 2 * math.pi)
    length = abs(sweep) * (body + 0.3 * (near_a + near_b))
    n = max(12, min(60, int(length / ARC_SPACING_MM)))
    t, middle, sin5, cos5 = _arc_steps(n)
    angle = start_angle + sweep * t
    # Leave each end round C (no sudden turn), then settle to the body radius.
    radius = body + (near_a - body) * _ease_out(t / reach) + (near_b - body) * _ease_out((1 - t) / reach)
    wobble = body * stretchy * np.cos(2 * (angle - stretch_angle)) + ripple * (
        sin5 * math.cos(ripple_phase) + cos5 * math.sin(ripple_phase)
    )
    radius = radius + middle * wobble
    # Keep clear of the coin (need, plus the sag of a chord between arc points).
    radius = np.maximum(radius, need + 0.2)
    arc = np.empty((n, 2))
    arc[:, 0] = centre[0] + radius * np.cos(angle)
    arc[:, 1] = centre[1] + radius * np.sin(angle)
    arc = np.round(arc, 4) + 0.0
    arc[0], arc[-1] = a, b
    return arc


@cache
def _arc_steps(n: int) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """For an arc of ``n`` points: t from 0 to 1, sin²(πt) (0 at both ends), sin 5πt, cos 5πt."""
    import numpy as np

    t = np.linspace(0.0, 1.0, n)
    return t, np.sin(np.pi * t) ** 2, np.sin(5 * np.pi * t), np.cos(5 * np.pi * t)


def _ease_out(x: numpy.ndarray) -> numpy.ndarray:
    """1 at 0, falling smoothly (flat at both ends) to 0 at 1 and beyond."""
    import numpy as np

    x = np.minimum(x, 1.0)  # x >= 0 here
    eased: np.ndarray = 1.0 - x * x * (3.0 - 2.0 * x)
    return eased


def _coin_spot(
    outline: Outline, mouth: numpy.ndarray, normal: numpy.ndarray, room: float, extra: int
) -> numpy.ndarray | None:
    """Out from ``mouth`` along ``normal``: a point outside the map at least ``room`` from
    its outline — the first such, or up to ``extra`` steps further; None if there is none."""
    import numpy as np
    import shapely

    spots = mouth + normal * np.asarray(SPOT_STEPS_MM)[:, None]
    roomy = np.flatnonzero(outline.distances(spots, room) >= room)
    if not len(roomy):
        return None
    outside = roomy[~shapely.contains_xy(outline.polygon, spots[roomy, 0], spots[roomy, 1])]
    if not len(outside):
        return None
    spot: np.ndarray = spots[int(outside[min(extra, len(outside) - 1)])]
    return spot


def signed_area(ring: numpy.ndarray) -> float:
    """Shoelace area of an open ring: positive when anticlockwise."""
    import numpy as np

    x, y = ring[:, 0], ring[:, 1]
    return 0.5 * float(np.dot(x[:-1], y[1:]) - np.dot(x[1:], y[:-1]) + x[-1] * y[0] - x[0] * y[-1])


def arc_clear(outline: Outline, arc: numpy.ndarray, stats: GrowthStats) -> bool:
    """The arc does not cross itself and meets the map only at its two ends."""
    import shapely

    line = shapely.linestrings(arc)
    if not shapely.is_simple(line):
        stats.reject("self-crossing")
        return False
    # The arc without its end points, starting and ending a hair away from the outline.
    inner = arc.copy()
    inner[0] = arc[0] + 1e-3 * (arc[1] - arc[0])
    inner[-1] = arc[-1] + 1e-3 * (arc[-2] - arc[-1])
    if shapely.intersects(outline.polygon, shapely.linestrings(inner)):
        stats.reject("touches map")
        return False
    return True
