"""Packed growth, the Map's default: each country a band wrapped along the outline.

Each step lists stretches of the outline that border as many earlier countries as the limit
allows, deepest in the map first, and wraps a band-shaped arc along the best one
(:func:`packed_step`; docs/mapgame.md describes it). When none fits, the step falls back to a
sprawling arc (:mod:`~coinprint.games.mapgame.grow`). A wrapped country joins the map through
the same step as a sprawling one, :func:`~coinprint.games.mapgame.grow.add_country`.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coinprint.games.mapgame.grow import (
    MIN_VISIBLE_BORDER_MM,
    Grown,
    GrowthStats,
    Outline,
    add_country,
    arc_clear,
    owner_runs,
    signed_area,
)
from coinprint.layout import MIN_BORDER_MM

if TYPE_CHECKING:
    import numpy

WRAP_TRIES = 10
"""Stretches tried per step (most neighbours first, then the best) before the step falls back
to a sprawling arc."""
START_RUNS = 14
"""Runs of the outline (the deepest in the map) a wrapping country's stretch may start in."""
BAND_SLACK_MM = 1.5
"""How much thicker than the coin (with its margins) the band of a wrapping country is."""
END_PIECE_MM = 2.5
"""Least length of a neighbour's border the new country takes or leaves at either end of its
stretch: no sliver borders, and no four countries meeting at a point."""
ROOM_TOLERANCE_MM = 0.25
"""How far below the widest disc the generator's measure of a country's room may fall."""
WING = 0.4
"""Thickness of a wrapping country away from its coin, as a share of its full thickness."""
BULGE_REACH = 1.1
"""Half-width of the full-thickness bulge round the coin, in band thicknesses."""
STRETCH_LOW, STRETCH_HIGH = 4.5, 5.5
"""Length of the stretch a wrapping country aims for, in coin radii (with margin): room for
the coin between the arc's rising ends."""
STRETCH_MAX = 7.0
"""Longest stretch a wrapping country takes, in coin radii: no country rings the map."""
STRETCH_MAX_FULL = 12.0
"""Longest stretch of a country that borders as many countries as the limit allows."""
NEIGHBOUR_WEIGHT, DEPTH_WEIGHT, LENGTH_WEIGHT = 3.0, 4.0, 0.5
"""How a stretch is scored: each country it borders, how far it lies from the middle of the
map (relative to the outline's mean distance), each coin radius it is longer than wanted."""


@dataclass(frozen=True)
class _Stretch:
    """A candidate stretch of outline: lap indices ``first``…``end`` and the countries it borders."""

    first: int
    end: int
    neighbours: frozenset[int]
    score: float
    key: tuple[float, float, int] | None = None
    """Where the stretch starts (the first point of the run it starts in) and how many runs it
    covers: a stretch refused once is not tried again while that run is on the outline."""


def packed_step(
    outline: Outline,
    new: int,
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    refused: set[tuple[float, float, int]] | None = None,
    *,
    forward: bool = True,
) -> Grown | None:
    """The next country (index ``new``) as a band wrapped along the outline: over the stretch
    that borders the most earlier countries allowed and lies deepest in the map (bays first);
    None when none of the best WRAP_TRIES stretches gives a good arc. ``refused`` collects the
    keys of stretches refused, across steps, so that a narrow bay is not tried step after step.
    With ``forward`` (arcs ``forward``) the arc drops its points that run back against the
    stretch; without it they stay (arcs ``folded``, the maps before that was found)."""
    refused = set() if refused is None else refused
    stretches = [
        s for tier in _stretch_tiers(outline, max_neighbours, need, frame, rng) for s in tier if s.key not in refused
    ]
    stretches.sort(key=lambda s: -s.score)
    grown = _wrap_first(outline, new, stretches[:WRAP_TRIES], max_neighbours, need, frame, rng, stats, forward=forward)
    if grown is None:
        refused.update(s.key for s in stretches[:WRAP_TRIES] if s.key is not None)
    return grown


def _wrap_first(
    outline: Outline,
    new: int,
    stretches: Sequence[_Stretch],
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    *,
    forward: bool = True,
) -> Grown | None:
    """Country ``new`` wrapped over the first of ``stretches`` that gives a good country: one
    that borders at most ``max_neighbours`` countries (counted again from the outline, not
    taken from the stretch), holds the coin, and whose arc meets the map only at its ends (no
    hole); None when none does."""
    for stretch in stretches:
        owners = owner_runs(
            outline.owner_laps[stretch.first : stretch.end], outline.edge_laps[stretch.first : stretch.end]
        )
        bordered = frozenset(owner for owner, length, _ in owners if length > MIN_BORDER_MM)
        if not 1 <= len(bordered) <= max_neighbours:
            stats.reject("neighbours")
            continue
        grown = _wrap_stretch(
            outline,
            new,
            _Stretch(stretch.first, stretch.end, bordered, stretch.score),
            need,
            frame,
            rng,
            stats,
            forward=forward,
        )
        if grown is not None:
            return grown
    return None


def _wrap_stretch(
    outline: Outline,
    new: int,
    stretch: _Stretch,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    *,
    forward: bool = True,
) -> Grown | None:
    """Country ``new`` wrapped over ``stretch``, or None when its arc is no good."""
    thickness = (2 * need + BAND_SLACK_MM) * rng.uniform(1.0, 1.1)
    for _ in range(2):  # a band a little short of room for the coin is tried once thicker
        stats.arcs_tried += 1
        arc, centres = _wrap_arc(outline, stretch.first, stretch.end, thickness, rng, forward=forward)
        room = _wrap_room(outline, stretch, arc, centres, need, frame, stats)
        if 0 < room < need:
            stats.reject("no coin room")
        if room >= need:
            return add_country(outline, new, stretch.first, stretch.end, arc, stretch.neighbours, frame)
        if room < 0.8 * need:
            break
        thickness *= 1.05 * need / room
    return None


def _runs(outline: Outline) -> list[tuple[int, int, int]]:
    """The outline's runs of one owner: (owner, first edge, edge count), the first run
    starting where the owner changes (a single run when one country makes the whole outline)."""
    import numpy as np

    owners, count = np.asarray(outline.owners), outline.count
    changes = np.flatnonzero(owners != np.roll(owners, 1))
    if not len(changes):
        return [(int(owners[0]), 0, count)]
    ends = np.append(changes[1:], changes[0] + count)
    return [(int(owners[a]), int(a), int(b - a)) for a, b in zip(changes, ends)]


def _stretch_tiers(
    outline: Outline, max_neighbours: int, need: float, frame: tuple[float, float], rng: random.Random
) -> Iterator[list[_Stretch]]:
    """The candidate stretches, most bordering runs first: one list per number of runs covered
    (``max_neighbours`` down to 2), each sorted best first. A stretch starts inside one run,
    covers whole runs and ends inside another (while the map is the circle alone, or when the
    limit is 1, it lies inside one run)."""
    import numpy as np

    runs, count = _runs(outline), outline.count
    travelled = outline.travelled.tolist()
    # Depth is measured from the middle of the page frame, in its proportions: the map grows
    # to fill the frame (or, without a frame, round its own middle).
    scale = np.asarray(frame) / max(frame)
    centre = outline.points.mean(axis=0) if frame == (1.0, 1.0) else np.zeros(2)
    radii = np.hypot(*((outline.points - centre) / scale).T)
    mean_radius = float(radii.mean())
    summed = np.concatenate(([0.0], np.cumsum(np.tile(radii, 3)))).tolist()

    def scored(
        first: int, end: int, neighbours: frozenset[int], key: tuple[float, float, int] | None = None
    ) -> _Stretch | None:
        if end - first >= count - 2 or end - first < 3:
            return None
        # How deep in the map the stretch lies: its points' mean distance from the middle.
        depth = (summed[end + 1] - summed[first]) / (end + 1 - first) / mean_radius
        length = (travelled[end] - travelled[first]) / need
        if length > (STRETCH_MAX_FULL if len(neighbours) == max_neighbours else STRETCH_MAX):
            return None
        score = (
            NEIGHBOUR_WEIGHT * len(neighbours)
            - DEPTH_WEIGHT * depth
            - LENGTH_WEIGHT * max(0.0, length - STRETCH_HIGH)
            + rng.uniform(0.0, 1.0)
        )
        return _Stretch(first, end, neighbours, score, key)

    def best_first(found: list[_Stretch | None]) -> list[_Stretch]:
        return sorted((s for s in found if s is not None), key=lambda s: -s.score)

    if len(runs) == 1 or max_neighbours == 1:
        found = []
        for _ in range(8):
            first = count + rng.randrange(count)
            end = bisect.bisect_left(travelled, travelled[first] + rng.uniform(4.0, 6.0) * need)
            inside = frozenset(outline.owner_laps[first:end])
            if len(inside) == 1:
                found.append(scored(first, end, inside))
        yield best_first(found)
        return
    lengths = [travelled[start % count + count + edges] - travelled[start % count + count] for _, start, edges in runs]
    # Start only from the runs deepest in the map (on a large map most of the outline is far
    # out, and scoring every run would cost more than the arcs).
    depths = [
        (summed[start % count + count + edges] - summed[start % count + count]) / edges for _, start, edges in runs
    ]
    starts = sorted(range(len(runs)), key=depths.__getitem__)[:START_RUNS]
    tiers: dict[int, list[_Stretch | None]] = {}
    longest = STRETCH_MAX_FULL * need
    for a in starts:
        a_start, a_edges = runs[a][1] % count + count, runs[a][2]
        covered, middle, edges = [runs[a][0]], 0.0, a_edges  # owners, length, edges so far
        for k in range(2, min(max_neighbours, len(runs)) + 1):
            b = (a + k - 1) % len(runs)
            if k > 2:  # the run before b is now covered whole
                inner = (b - 1) % len(runs)
                if lengths[inner] < MIN_VISIBLE_BORDER_MM:
                    break
                middle += lengths[inner]
                edges += runs[inner][2]
            if middle + 2 * END_PIECE_MM > longest:
                break
            covered.append(runs[b][0])
            neighbours = frozenset(covered)
            if len(neighbours) < 2:
                continue
            # Take from the end runs what the stretch lacks to hold the coin (a band needs
            # about five coin radii of outline), no more: the country stays small.
            lacking = max(0.0, rng.uniform(STRETCH_LOW, STRETCH_HIGH) * need - middle)
            share = rng.uniform(0.3, 0.7)
            cut_a = _cut(travelled, a_start, a_edges, max(END_PIECE_MM, lacking * share), from_end=True)
            cut_b = _cut(
                travelled, a_start + edges, runs[b][2], max(END_PIECE_MM, lacking * (1 - share)), from_end=False
            )
            if cut_a is not None and cut_b is not None:
                key = (float(outline.laps[a_start, 0]), float(outline.laps[a_start, 1]), k)
                tiers.setdefault(k, []).append(scored(cut_a, cut_b, neighbours, key))
    for k in sorted(tiers, reverse=True):
        yield best_first(tiers[k])


def _cut(travelled: list[float], start: int, edges: int, taken: float, *, from_end: bool) -> int | None:
    """A point inside the run of ``edges`` edges from lap point ``start`` that takes about
    ``taken`` mm of it into the stretch (its tail when ``from_end``, else its head), leaving at
    least END_PIECE_MM on each side; None when the run is too short to cut."""
    low, high = travelled[start], travelled[start + edges]
    if high - low < 2 * END_PIECE_MM:
        return None
    first = max(bisect.bisect_left(travelled, low + END_PIECE_MM, start + 1, start + edges), start + 1)
    last = min(bisect.bisect_right(travelled, high - END_PIECE_MM, start, start + edges) - 1, start + edges - 1)
    if first > last:
        return None
    target = high - taken if from_end else low + taken
    at = min(max(bisect.bisect_left(travelled, target, first, last + 1), first), last)
    if at > first and target - travelled[at - 1] < travelled[at] - target:
        at -= 1  # the nearer of the two points round the target
    return at


def _wrap_arc(
    outline: Outline,
    first: int,
    end: int,
    thickness: float,
    rng: random.Random,
    *,
    forward: bool = True,
) -> tuple[numpy.ndarray, numpy.ndarray]:
    """An arc from the stretch's first point to its last, running along the stretch at about
    ``thickness`` out from it (rising steeply from each end, full only round the coin's place),
    with the loops an offset makes in a bay cut away: the country is a band round the map that
    fills the bays it passes. Also the likely places for the coin (half way up the bulge).
    With ``forward``, the points where the arc runs back against the stretch are dropped
    (see ARCS)."""
    import numpy as np

    laps = outline.laps
    stretch = laps[first : end + 1]
    tangents = laps[first + 2 : end + 3] - laps[first - 2 : end - 1]  # over four edges: smooth enough
    normals = np.stack((tangents[:, 1], -tangents[:, 0]), axis=1)
    normals /= np.maximum(np.hypot(normals[:, 0], normals[:, 1]), 1e-9)[:, None]
    along = outline.travelled[first : end + 1] - outline.travelled[first]
    total = float(along[-1])
    ramp = min(0.45 * thickness, 0.25 * total)
    rise = np.sin(0.5 * np.pi * np.minimum(np.minimum(along, total - along) / ramp, 1.0))
    # Full thickness only round the coin's place (somewhere along the middle); thinner wings
    # elsewhere keep the country small while it wraps along its neighbours.
    reach = BULGE_REACH * thickness
    spot = rng.uniform(min(ramp + 0.5 * reach, 0.5 * total), max(total - ramp - 0.5 * reach, 0.5 * total))
    bulge = np.cos(0.5 * np.pi * np.minimum(np.abs(along - spot) / reach, 1.0)) ** 2
    height = thickness * (WING + (1.0 - WING) * bulge)
    ripple = 1.0 + 0.04 * np.sin(2 * np.pi * along / rng.uniform(25.0, 45.0) + rng.uniform(0, 2 * np.pi))
    lift = height * rise * ripple
    arc = stretch + lift[:, None] * normals
    arc[0], arc[-1] = stretch[0], stretch[-1]
    full = bulge * rise > 0.6
    centres = np.concatenate([(stretch + share * lift[:, None] * normals)[full] for share in (0.4, 0.5, 0.6)])
    if forward:
        arc = _forward(arc, tangents)
    arc = _untangle(arc)
    arc[1:-1] = 0.5 * arc[1:-1] + 0.25 * (arc[:-2] + arc[2:])  # round the corners the cuts left
    return np.round(arc, 4) + 0.0, centres


def _forward(arc: numpy.ndarray, tangents: numpy.ndarray) -> numpy.ndarray:
    """``arc`` (one point per stretch point, ``tangents`` along the stretch) without the
    points that lie behind the last point kept, seen along their own stretch point's
    tangent: round a tight bend an offset folds back on itself, and the fold need not cross
    (so :func:`_untangle` cannot see it); the last point always stays."""
    import numpy as np

    kept = [0]
    for k in range(1, len(arc) - 1):
        if float(np.dot(arc[k] - arc[kept[-1]], tangents[k])) > 0.0:
            kept.append(k)
    kept.append(len(arc) - 1)
    return arc[kept]


def _untangle(line: numpy.ndarray, rounds: int = 8) -> numpy.ndarray:
    """``line`` with its loops cut away: where two of its segments cross, everything between
    them is replaced by the crossing point (the widest loop first)."""
    import numpy as np
    import shapely

    for _ in range(rounds):
        if shapely.is_simple(shapely.linestrings(line)):
            break
        p, r = line[:-1], line[1:] - line[:-1]
        n = len(p)
        if n < 3:
            break
        qp = p[None, :, :] - p[:, None, :]  # q_j - p_i
        cross = r[:, None, 0] * r[None, :, 1] - r[:, None, 1] * r[None, :, 0]
        safe = np.where(np.abs(cross) < 1e-12, 1e-12, cross)
        t = (qp[..., 0] * r[None, :, 1] - qp[..., 1] * r[None, :, 0]) / safe
        u = (qp[..., 0] * r[:, None, 1] - qp[..., 1] * r[:, None, 0]) / safe
        hits = (t > 0) & (t < 1) & (u > 0) & (u < 1) & (np.abs(cross) >= 1e-12)
        hits &= np.triu(np.ones((n, n), dtype=bool), 2)
        pairs = np.argwhere(hits)
        if not len(pairs):
            break
        i = int(pairs[:, 0].min())
        j = int(pairs[pairs[:, 0] == i, 1].max())
        point = p[i] + t[i, j] * r[i]
        line = np.concatenate((line[: i + 1], point[None, :], line[j + 1 :]))
    return line


def _wrap_room(
    outline: Outline,
    stretch: _Stretch,
    arc: numpy.ndarray,
    centres: numpy.ndarray,
    need: float,
    frame: tuple[float, float],
    stats: GrowthStats,
) -> float:
    """How wide a disc the wrapped country holds (its radius: at least ``need`` when a disc
    about one of ``centres`` fits, else the widest disc's), or 0 when the country is no good:
    inside out, outside the page frame, or its arc meets the map elsewhere than at its ends
    (that would make a hole, or borders other than the stretch's)."""
    import numpy as np

    ring = np.concatenate((outline.laps[stretch.first : stretch.end + 1], arc[-2:0:-1]))
    if signed_area(ring) >= 0:
        stats.reject("inside out")
        return 0.0
    if frame != (1.0, 1.0) and np.hypot(arc[:, 0] / frame[0], arc[:, 1] / frame[1]).max() > 1.0:
        stats.reject("frame")
        return 0.0
    if not arc_clear(outline, arc, stats):
        return 0.0
    closed = np.concatenate((ring, ring[:1]))
    if len(centres):
        # Cheap first: the coin's likely places, measured with numpy.
        room = _ring_distances(centres, closed)
        best = int(np.argmax(room))
        if room[best] >= need:
            import shapely

            if shapely.contains_xy(shapely.polygons(closed), *centres[best]):
                return float(room[best])
    return _widest_room(closed)


def _widest_room(closed: numpy.ndarray) -> float:
    """The radius of a disc inside the closed ring ``closed`` within ROOM_TOLERANCE_MM of the
    widest (never wider: it is the clearance of a point found inside); 0 when the ring is not
    a valid polygon."""
    import shapely

    polygon = shapely.polygons(closed)
    if not polygon.is_valid:
        return 0.0
    # The line runs from the centre found to the nearest point of the boundary.
    return float(shapely.maximum_inscribed_circle(polygon, ROOM_TOLERANCE_MM).length)


def _ring_distances(points: numpy.ndarray, ring: numpy.ndarray) -> numpy.ndarray:
    """Distance from each of ``points`` to the closed polyline ``ring``."""
    import numpy as np

    start, step = ring[:-1], ring[1:] - ring[:-1]
    length2 = np.maximum((step * step).sum(axis=1), 1e-12)
    rx = points[:, 0, None] - start[None, :, 0]
    ry = points[:, 1, None] - start[None, :, 1]
    along = np.clip((rx * step[:, 0] + ry * step[:, 1]) / length2, 0.0, 1.0)
    gx, gy = rx - step[:, 0] * along, ry - step[:, 1] * along
    nearest: np.ndarray = np.sqrt((gx * gx + gy * gy).min(axis=1))
    return nearest
