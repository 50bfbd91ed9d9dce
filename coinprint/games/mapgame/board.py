"""The Map game's map: grown one hand-drawn arc at a time, and the check for hand-made maps.

Country 1 is a circle. Every next country is bounded by **one** new arc whose two ends lie on
the map's current outline, plus the stretch of outline between those ends (docs/formats.md, How coinprint reads the seed rules).
The generator keeps the outline as a ring of points, each outline edge tagged with the
country it belongs to; a new country's polygon is the outline stretch (the very same points
as its neighbours' polygons) plus the new arc, so every border is built once and shared
exactly by both sides. Its neighbours when drawn are the owners of the stretch.

Two growths (GROWTHS). **Packed** (the default): each step lists stretches that border as
many earlier countries as the limit allows, deepest in the map first, and wraps a band-shaped
arc along the best one (``_try_packed``; docs/mapgame.md describes it); when none fits, the
step falls back to a sprawling arc. **Sprawling** (0.1.0's maps): each step first finds a spot
just outside the map where the coin will lie (at least the coin's radius plus a margin from
the whole outline), then a stretch of outline round it, then an arc from one end of the
stretch round the spot to the other (``_try_arc``). Either way a candidate is rejected by the
cheapest test that fails: too many neighbours or a sliver of a border along the stretch, the
page frame, the country turned inside out, the arc crossing itself or touching the map
anywhere but its ends (a hole), no room for the coin. A step that keeps failing takes back
the country before it and tries again.

>>> layout = build(countries=5, seed=1)
>>> [space.order for space in layout.spaces]
[1, 2, 3, 4, 5]
>>> [space.start for space in layout.spaces][-2:]
['O', 'X']
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from coinprint.checks import Problem, border_problems, common_problems, listing, place
from coinprint.errors import UsageError
from coinprint.layout import MIN_BORDER_MM, Layout, Space, round_point
from coinprint.spatial import boundary_contact_pairs, widest_circle
from coinprint.units import Coin, coin

if TYPE_CHECKING:
    import numpy

GAME = "mapgame"
PLAYERS = ("O", "X")
DEFAULT_COUNTRIES = 21
MIN_COUNTRIES = 3
MAX_COUNTRIES = 401
"""Largest map the generator makes (201 countries: about 0.2 s sprawling, about 1 s packed)."""
DEFAULT_MAX_NEIGHBOURS = 4
GROWTHS = ("packed", "sprawling")
"""How the map grows: ``packed`` wraps each arc along the outline (borders as many earlier
countries as the limit allows, fills the bays); ``sprawling`` is 0.1.0's (one arc round a
coin's spot, mostly one neighbour)."""
DEFAULT_GROWTH = "packed"
SPEC_GROWTH = "sprawling"
"""What a ``mapgame:`` layout spec without ``growth`` means: the map 0.1.0 built from it, so
records written before packed growth existed replay on the same map."""
STARTS = ("apart", "any")
"""Where the last country (X's start) may lie: ``apart`` (it never borders O's start, the
country before it: X draws it away from O's coin, as a player would) or ``any`` (0.1.0's
rule: anywhere the growth puts it)."""
DEFAULT_STARTS = "apart"
SPEC_STARTS = "any"
"""What a ``mapgame:`` layout spec without ``starts`` means: the rule before starts were kept
apart, so records written then replay on the same map."""
ARCS = ("forward", "folded")
"""How a wrapping arc (packed growth) is kept: ``forward`` drops every arc point that runs
back against the stretch it follows (an offset taken round a tight bend of the outline
folds back on itself without crossing, and the fold printed as a notch in one country and
a spike in its neighbour); ``folded`` keeps them (the maps before that was found)."""
DEFAULT_ARCS = "forward"
SPEC_ARCS = "folded"
"""What a ``mapgame:`` layout spec without ``arcs`` means: the folded arcs, so records
written before the fix replay on the same map."""
DEFAULT_COINS = ("penny", "nickel")
"""O's coin and X's coin; the larger one must fit in every country."""
COIN_MARGIN_MM = 1.0
"""Room the generator leaves around the coin on every side."""
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
TRIES_PER_STEP = 60
"""Failed arcs before the generator gives up on a step and backtracks one country."""
FRAME_GIVE_UP = 15
"""Backtracks after which a map that will not fit the one-page frame grows without it."""
ONE_PAGE_FRAME_MM = (92.0, 118.0)
"""Half-axes (across, up) of the ellipse a map of up to ONE_PAGE_COUNTRIES countries is grown
inside, so that it prints on one A4 or Letter page (190 × 259 mm inside 10 mm margins) with
room for its info block in a corner."""
ONE_PAGE_COUNTRIES = 25

Point = tuple[float, float]


# -- parameters ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MapParams:
    """What a map is grown from (see :func:`build`)."""

    countries: int = DEFAULT_COUNTRIES
    seed: int = 0
    max_neighbours: int = DEFAULT_MAX_NEIGHBOURS
    coins: tuple[str, str] = DEFAULT_COINS
    growth: str = DEFAULT_GROWTH
    starts: str = DEFAULT_STARTS
    arcs: str = DEFAULT_ARCS

    def validated(self) -> MapParams:
        """These parameters, checked; raises UsageError naming a bad value."""
        n = self.countries
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_COUNTRIES <= n <= MAX_COUNTRIES or n % 2 == 0:
            raise UsageError(
                f"countries {n!r} is not allowed; use an odd number from {MIN_COUNTRIES} to {MAX_COUNTRIES} "
                "(each player draws the same number of countries after the circle)"
            )
        if (
            isinstance(self.max_neighbours, bool)
            or not isinstance(self.max_neighbours, int)
            or not 1 <= self.max_neighbours <= 8
        ):
            raise UsageError(f"max neighbours {self.max_neighbours!r} is out of range; use 1 to 8")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise UsageError(f"seed must be a whole number, not {self.seed!r}")
        if self.growth not in GROWTHS:
            raise UsageError(f"growth {self.growth!r} is not allowed; use {' or '.join(GROWTHS)}")
        if self.starts not in STARTS:
            raise UsageError(f"starts {self.starts!r} is not allowed; use {' or '.join(STARTS)}")
        if self.arcs not in ARCS:
            raise UsageError(f"arcs {self.arcs!r} is not allowed; use {' or '.join(ARCS)}")
        names = tuple(coin(name).name for name in self.coins)
        return MapParams(n, self.seed, self.max_neighbours, names, self.growth, self.starts, self.arcs)  # type: ignore[arg-type]

    @property
    def coin_radius_mm(self) -> float:
        """Radius of the larger coin: the disc every country must hold."""
        return max(coin(name).radius_mm for name in self.coins)


def parse_coins(text: str) -> tuple[str, str]:
    """``"penny"`` (both players) or ``"penny/nickel"`` (O's coin, X's coin) → catalogue names."""
    parts = [p for p in text.replace(",", "/").split("/")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise UsageError(f"coin '{text}' must be one coin name or two joined by '/', e.g. penny/nickel")
    return coin(parts[0]).name, coin(parts[1]).name


def coins_of(layout: Layout) -> tuple[Coin, Coin]:
    """The coins a layout is meant for (its ``params["coins"]``; default penny and nickel)."""
    stored = layout.params.get("coins")
    try:
        if isinstance(stored, dict):
            return coin(str(stored["O"])), coin(str(stored["X"]))
        if isinstance(stored, str):
            o, x = parse_coins(stored)
            return coin(o), coin(x)
    except (UsageError, KeyError):
        pass
    return coin(DEFAULT_COINS[0]), coin(DEFAULT_COINS[1])


# -- the growing map ------------------------------------------------------------------------------------
class _Outline:
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
class _Grown:
    """One step of the growth: the outline after it, the country's ring and its neighbours."""

    outline: _Outline
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


def build(
    countries: int = DEFAULT_COUNTRIES,
    seed: int = 0,
    max_neighbours: int = DEFAULT_MAX_NEIGHBOURS,
    coins: Sequence[str] = DEFAULT_COINS,
    stats: GrowthStats | None = None,
    growth: str = DEFAULT_GROWTH,
    starts: str = DEFAULT_STARTS,
    arcs: str = DEFAULT_ARCS,
) -> Layout:
    """A valid map of ``countries`` countries grown from ``seed`` (``growth`` packed or
    sprawling, see GROWTHS; ``starts`` apart or any, see STARTS; ``arcs`` forward or
    folded, see ARCS).

    Every country holds a disc of the larger coin's diameter plus COIN_MARGIN_MM all round,
    bordered between 1 and ``max_neighbours`` countries when drawn, and the map never has a
    hole. Same arguments ⇒ the same map. Country ``k`` has id ``c{k}``, label ``"k"``,
    ``order`` k, property ``drawn_by`` (``"O"`` for even k, ``"X"`` for odd k > 1) and colour
    number ``color`` (0–3, neighbours differ); the last two carry ``start`` O and X.
    """
    params = MapParams(countries, seed, max_neighbours, tuple(coins), growth, starts, arcs).validated()  # type: ignore[arg-type]
    rings, neighbours = grow(params, stats or GrowthStats())
    colours = four_colouring(neighbours, len(rings))
    spaces = []
    for index, ring in enumerate(rings):
        order = index + 1
        properties: dict[str, object] = {"color": colours[index]}
        if order > 1:
            properties["drawn_by"] = PLAYERS[order % 2]
        start = "O" if order == params.countries - 1 else "X" if order == params.countries else None
        spaces.append(
            Space(f"c{order}", (tuple(ring),), label=str(order), order=order, start=start, properties=properties)
        )
    meta = {
        "seed": params.seed,
        "params": {
            "countries": params.countries,
            "max_neighbours": params.max_neighbours,
            "coins": {"O": params.coins[0], "X": params.coins[1]},
            "coin_margin_mm": COIN_MARGIN_MM,
            "growth": params.growth,
            "starts": params.starts,
            "arcs": params.arcs,
        },
    }
    return Layout(GAME, spaces, meta=meta)


def circle_radius_mm(coins: Sequence[str] = DEFAULT_COINS) -> float:
    """Radius of country 1, the circle, for these coins."""
    return round((max(coin(name).radius_mm for name in coins) + COIN_MARGIN_MM) * 1.3, 4)


def blank_layout(coins: Sequence[str] = DEFAULT_COINS) -> Layout:
    """A map with only country 1, the circle: what players start drawing from."""
    ring = _circle(circle_radius_mm(coins))
    space = Space("c1", (tuple(ring + [ring[0]]),), label="1", order=1, properties={"color": 0})
    names = [coin(name).name for name in coins]
    return Layout(GAME, [space], meta={"params": {"countries": 1, "coins": {"O": names[0], "X": names[1]}}})


def layout_name(layout: Layout) -> str:
    """The built-in name that rebuilds ``layout``
    (``mapgame:countries=21,seed=3,growth=packed,starts=apart``).

    The growth and the starts rule are always named: a spec without them means the sprawling
    map (SPEC_GROWTH) and starts anywhere (SPEC_STARTS). A layout whose params do not say its
    growth (or starts) was made before that parameter existed."""
    params = layout.params
    parts = [f"countries={params.get('countries', DEFAULT_COUNTRIES)}", f"seed={layout.meta.get('seed', 0)}"]
    if params.get("max_neighbours", DEFAULT_MAX_NEIGHBOURS) != DEFAULT_MAX_NEIGHBOURS:
        parts.append(f"max_neighbours={params['max_neighbours']}")
    o, x = coins_of(layout)
    if (o.name, x.name) != DEFAULT_COINS:
        parts.append(f"coin={o.name}/{x.name}")
    parts.append(f"growth={params.get('growth', SPEC_GROWTH)}")
    parts.append(f"starts={params.get('starts', SPEC_STARTS)}")
    parts.append(f"arcs={params.get('arcs', SPEC_ARCS)}")
    return "mapgame:" + ",".join(parts)


def spec(
    countries: int = DEFAULT_COUNTRIES,
    seed: int = 0,
    max_neighbours: int = DEFAULT_MAX_NEIGHBOURS,
    growth: str = DEFAULT_GROWTH,
    starts: str = DEFAULT_STARTS,
    arcs: str = DEFAULT_ARCS,
) -> str:
    """The layout spec of a map with these parameters, naming its growth, starts rule and
    arcs (``mapgame:countries=21,seed=0,growth=packed,starts=apart,arcs=forward``)."""
    extra = f",max_neighbours={max_neighbours}" if max_neighbours != DEFAULT_MAX_NEIGHBOURS else ""
    return f"mapgame:countries={countries},seed={seed}{extra},growth={growth},starts={starts},arcs={arcs}"


def grow(params: MapParams, stats: GrowthStats) -> tuple[list[list[Point]], list[frozenset[int]]]:
    """The countries' rings (anticlockwise, closed) and each one's neighbours when drawn
    (0-based indices). Never fails: a step that keeps failing backtracks one country."""
    import numpy as np

    rng = random.Random(params.seed)
    need = params.coin_radius_mm + COIN_MARGIN_MM
    frame = ONE_PAGE_FRAME_MM if params.countries <= ONE_PAGE_COUNTRIES else (1.0, 1.0)
    circle = _circle(circle_radius_mm(params.coins))
    steps: list[_Grown] = [
        _Grown(_Outline(np.asarray(circle), [0] * len(circle), frame), circle + [circle[0]], frozenset())
    ]
    failures = [0]
    refused: set[tuple[float, float, int]] = set()  # stretches refused (packed growth)
    backtracks_before = stats.backtracks
    while len(steps) < params.countries:
        grown = None
        if params.growth == "packed" and failures[-1] == 0:
            grown = _try_packed(
                steps[-1].outline, len(steps), params.max_neighbours, need, frame, rng, stats, refused, params.arcs
            )
        if grown is None:
            # Sprawling growth; for packed growth the fallback when no wrapping arc fits.
            grown = _try_arc(steps[-1].outline, len(steps), params.max_neighbours, need, frame, rng, stats)
        if grown is not None and params.starts == "apart" and len(steps) == params.countries - 1:
            # The last country is X's start: X draws it away from O's start (the one before).
            if len(steps) - 1 in grown.neighbours:
                stats.reject("X's start borders O's")
                grown = None
        if grown is not None:
            steps.append(grown)
            failures.append(0)
            continue
        failures[-1] += 1
        if failures[-1] >= TRIES_PER_STEP and len(steps) > 1:
            # Stuck: take back the last country and try that step again.
            steps.pop()
            failures.pop()
            failures[-1] = TRIES_PER_STEP // 2
            stats.backtracks += 1
            refused.clear()  # the map changed behind the outline: try every stretch again
            if stats.backtracks - backtracks_before >= FRAME_GIVE_UP and frame != (1.0, 1.0):
                # The page frame is too tight for these coins: grow on without it (the map
                # then tiles over more pages, but generation never fails).
                frame = (1.0, 1.0)
                for step in steps:
                    step.outline.reopen()
    return [s.ring for s in steps], [s.neighbours for s in steps]


def _circle(radius: float) -> list[Point]:
    return [
        round_point(
            radius * math.cos(2 * math.pi * k / CIRCLE_POINTS), radius * math.sin(2 * math.pi * k / CIRCLE_POINTS)
        )
        for k in range(CIRCLE_POINTS)
    ]


def _try_arc(
    outline: _Outline,
    new: int,
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
) -> _Grown | None:
    """One attempt at the next country (index ``new``); None when this arc is rejected.

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
    return _grown(outline, new, first, end, arc, neighbours, frame)


def _grown(
    outline: _Outline,
    new: int,
    first: int,
    end: int,
    arc: numpy.ndarray,
    neighbours: frozenset[int],
    frame: tuple[float, float],
) -> _Grown:
    """The step that adds country ``new``: the stretch ``first``…``end`` (lap indices) of the
    outline closed by ``arc`` (from the stretch's first point to its last, outside the map)."""
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
    return _Grown(_Outline(new_points, new_owners, frame, closed), ring_points, neighbours)


# -- packed growth: arcs that wrap along the outline ----------------------------------------------------
WRAP_TRIES = 10
START_RUNS = 14
"""Runs of the outline (the deepest in the map) a wrapping country's stretch may start in."""
"""Stretches tried per step (most neighbours first, then the best) before the step falls back
to a sprawling arc."""
BAND_SLACK_MM = 1.5
"""How much thicker than the coin (with its margins) the band of a wrapping country is."""
END_PIECE_MM = 2.5
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
"""Least length of a neighbour's border the new country takes or leaves at either end of its
stretch: no sliver borders, and no four countries meeting at a point."""


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


def _try_packed(
    outline: _Outline,
    new: int,
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    refused: set[tuple[float, float, int]] | None = None,
    arcs: str = DEFAULT_ARCS,
) -> _Grown | None:
    """The next country (index ``new``) as a band wrapped along the outline: over the stretch
    that borders the most earlier countries allowed and lies deepest in the map (bays first);
    None when none of the best WRAP_TRIES stretches gives a good arc. ``refused`` collects the
    keys of stretches refused, across steps, so that a narrow bay is not tried step after step."""
    refused = set() if refused is None else refused
    stretches = [
        s for tier in _stretch_tiers(outline, max_neighbours, need, frame, rng) for s in tier if s.key not in refused
    ]
    stretches.sort(key=lambda s: -s.score)
    grown = _wrap_first(outline, new, stretches[:WRAP_TRIES], max_neighbours, need, frame, rng, stats, arcs)
    if grown is None:
        refused.update(s.key for s in stretches[:WRAP_TRIES] if s.key is not None)
    return grown


def _wrap_first(
    outline: _Outline,
    new: int,
    stretches: Sequence[_Stretch],
    max_neighbours: int,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    arcs: str = DEFAULT_ARCS,
) -> _Grown | None:
    """Country ``new`` wrapped over the first of ``stretches`` that gives a good country: one
    that borders at most ``max_neighbours`` countries (counted again from the outline, not
    taken from the stretch), holds the coin, and whose arc meets the map only at its ends (no
    hole); None when none does."""
    for stretch in stretches:
        owners = _owner_runs(
            outline.owner_laps[stretch.first : stretch.end], outline.edge_laps[stretch.first : stretch.end]
        )
        bordered = frozenset(owner for owner, length, _ in owners if length > MIN_BORDER_MM)
        if not 1 <= len(bordered) <= max_neighbours:
            stats.reject("neighbours")
            continue
        grown = _wrap_stretch(
            outline, new, _Stretch(stretch.first, stretch.end, bordered, stretch.score), need, frame, rng, stats, arcs
        )
        if grown is not None:
            return grown
    return None


def _wrap_stretch(
    outline: _Outline,
    new: int,
    stretch: _Stretch,
    need: float,
    frame: tuple[float, float],
    rng: random.Random,
    stats: GrowthStats,
    arcs: str = DEFAULT_ARCS,
) -> _Grown | None:
    """Country ``new`` wrapped over ``stretch``, or None when its arc is no good."""
    thickness = (2 * need + BAND_SLACK_MM) * rng.uniform(1.0, 1.1)
    for _ in range(2):  # a band a little short of room for the coin is tried once thicker
        stats.arcs_tried += 1
        arc, centres = _wrap_arc(outline, stretch.first, stretch.end, thickness, rng, forward=arcs == "forward")
        room = _wrap_room(outline, stretch, arc, centres, need, frame, stats)
        if 0 < room < need:
            stats.reject("no coin room")
        if room >= need:
            return _grown(outline, new, stretch.first, stretch.end, arc, stretch.neighbours, frame)
        if room < 0.8 * need:
            break
        thickness *= 1.05 * need / room
    return None


def _runs(outline: _Outline) -> list[tuple[int, int, int]]:
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
    outline: _Outline, max_neighbours: int, need: float, frame: tuple[float, float], rng: random.Random
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
    outline: _Outline,
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
    outline: _Outline,
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
    if _signed_area(ring) >= 0:
        stats.reject("inside out")
        return 0.0
    if frame != (1.0, 1.0) and np.hypot(arc[:, 0] / frame[0], arc[:, 1] / frame[1]).max() > 1.0:
        stats.reject("frame")
        return 0.0
    if not _arc_clear(outline, arc, stats):
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


def _arc_round(
    outline: _Outline,
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
    runs = _owner_runs(owners[first:end], edges[first:end])
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
    if _signed_area(country) >= 0:  # clockwise when it lies outside the map
        stats.reject("inside out")
        return None
    if not _arc_clear(outline, arc, stats):
        return None
    return first, end, stretch, arc, neighbours


def _trim_stretch(owners: list[int], edges: numpy.ndarray, first: int, end: int) -> tuple[int | None, int]:
    """Drop a sliver of a country at either end of the stretch (the arc then starts at the
    corner between two countries); None when a sliver is left in the middle."""
    runs = _owner_runs(owners[first:end], edges[first:end])
    if len(runs) > 1 and runs[0][1] < MIN_VISIBLE_BORDER_MM:
        first += runs[0][2]
        runs = runs[1:]
    if len(runs) > 1 and runs[-1][1] < MIN_VISIBLE_BORDER_MM:
        end -= runs[-1][2]
        runs = runs[:-1]
    if any(length < MIN_VISIBLE_BORDER_MM for _, length, _ in runs):
        return None, end
    return first, end


def _owner_runs(owners: Sequence[int], edges: numpy.ndarray) -> list[tuple[int, float, int]]:
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


SPOT_STEPS_MM = tuple(k * 1.5 for k in range(-2, 16))
"""How far out from the outline (mm) the generator looks for a coin's spot."""


def _coin_spot(
    outline: _Outline, mouth: numpy.ndarray, normal: numpy.ndarray, room: float, extra: int
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


def _signed_area(ring: numpy.ndarray) -> float:
    """Shoelace area of an open ring: positive when anticlockwise."""
    import numpy as np

    x, y = ring[:, 0], ring[:, 1]
    return 0.5 * float(np.dot(x[:-1], y[1:]) - np.dot(x[1:], y[:-1]) + x[-1] * y[0] - x[0] * y[-1])


def _arc_clear(outline: _Outline, arc: numpy.ndarray, stats: GrowthStats) -> bool:
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


def four_colouring(neighbours: Sequence[frozenset[int]], count: int) -> list[int]:
    """Colour numbers 0–3, neighbours different, by backtracking (most constrained first).

    ``neighbours[k]`` holds the earlier countries country k borders; borders are symmetric.
    """
    adjacent: list[set[int]] = [set() for _ in range(count)]
    for k, near in enumerate(neighbours):
        for other in near:
            adjacent[k].add(other)
            adjacent[other].add(k)
    colours: list[int | None] = [None] * count

    def choose() -> int | None:
        best, best_key = None, None
        for k in range(count):
            if colours[k] is None:
                used = {colours[j] for j in adjacent[k]} - {None}
                key = (len(used), len(adjacent[k]), -k)
                if best_key is None or key > best_key:
                    best, best_key = k, key
        return best

    def solve() -> bool:
        k = choose()
        if k is None:
            return True
        used = {colours[j] for j in adjacent[k]}
        for colour in range(4):
            if colour not in used:
                colours[k] = colour
                if solve():
                    return True
        colours[k] = None
        return False

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, count * 4 + 100))
    try:
        if not solve():  # cannot happen for a map (four colour theorem); keep a safe answer
            return [k % 4 for k in range(count)]
    finally:
        sys.setrecursionlimit(limit)
    return [int(c) for c in colours]  # type: ignore[arg-type]


# -- how a map is built ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MapSummary:
    """What a player sees of a map's shape, from its adjacency graph and its outline."""

    countries: int
    borders: int
    dead_ends: int
    """Countries with exactly one neighbour."""
    most_earlier: int
    """The largest number of earlier countries (by drawing order) one country borders: what
    the four-neighbour rule limits."""
    solidity: float
    """Area of the map over the area of its convex hull (1 for a convex map)."""

    def describe(self) -> str:
        return (
            f"{self.countries} countries, {self.borders} borders, {self.dead_ends} dead ends, "
            f"max earlier neighbours {self.most_earlier}, solidity {self.solidity:.2f}"
        )


def summary(layout: Layout) -> MapSummary:
    """Countries, borders and dead ends of ``layout``'s adjacency graph, the most earlier
    neighbours of one country, and the map's solidity."""
    import shapely

    graph = layout.graph
    order = {space.id: space.order if space.order is not None else index for index, space in enumerate(layout.spaces)}
    earlier = [sum(1 for other in graph[node] if order[other] < order[node]) for node in graph]
    land = shapely.union_all([space.polygon for space in layout.spaces])
    hull = land.convex_hull.area
    return MapSummary(
        countries=len(layout.spaces),
        borders=graph.number_of_edges(),
        dead_ends=sum(1 for node in graph if graph.degree(node) == 1),
        most_earlier=max(earlier, default=0),
        solidity=land.area / hull if hull > 0 else 0.0,
    )


# -- checking hand-made maps -------------------------------------------------------------------------------
RULE_COIN = "holds the coin"
RULE_ONE_ARC = "one arc on the outline"
RULE_NEIGHBOURS = "at most {max} neighbours when drawn"
RULE_HOLE = "no holes"
COIN_TOLERANCE_MM = 0.05


def check(layout: Layout, *, tolerance_mm: float = COIN_TOLERANCE_MM) -> list[Problem]:
    """Every problem with a Map layout, each naming the country and the rule it breaks:
    the common checks (valid, non-overlapping polygons), exact shared borders, one region
    without holes, the coin fits every country, orders 1…N, start countries, and — replaying
    the drawing order — each country added by one arc on the outline, bordering at most
    ``max_neighbours`` (4) countries when drawn."""
    import shapely

    problems = common_problems(layout)
    if problems:
        return problems
    spaces = layout.spaces
    count = len(spaces)
    if count % 2 == 0 or not MIN_COUNTRIES <= count <= MAX_COUNTRIES:
        # Reported first, whatever else is wrong: the players draw alternately after the circle.
        problems.append(
            Problem(
                None,
                f"the map has {count} countries; a Map has an odd number from {MIN_COUNTRIES} to {MAX_COUNTRIES} "
                "(country 1, then the same number drawn by each player)",
            )
        )
    problems += _order_problems(layout)
    polygons = [s.polygon for s in spaces]
    for space in spaces:
        if space.polygon.interiors:
            problems.append(Problem(space.id, f"country {space.name} has a hole; a country is one piece without holes"))
    if problems:
        return problems
    # The coast of a map comes close to itself in narrow bays: only borders that touch must match.
    problems += border_problems(layout, gap_width=0.0)
    union = shapely.union_all(polygons)
    if union.geom_type != "Polygon":
        problems.append(Problem(None, f"{RULE_HOLE}: the map is not one connected region ({len(union.geoms)} pieces)"))
    elif union.interiors:
        where = listing([place(layout, r.centroid.x, r.centroid.y) for r in union.interiors], 3)
        holes = shapely.MultiPolygon([shapely.Polygon(r) for r in union.interiors])
        problems.append(
            Problem(None, f"{RULE_HOLE}: the map encloses {len(union.interiors):,} hole(s) at {where}", geometry=holes)
        )
    problems += _coin_problems(layout, tolerance_mm)
    return problems + _replay_problems(layout)


def _neighbour_limit(layout: Layout) -> int:
    value = layout.params.get("max_neighbours", DEFAULT_MAX_NEIGHBOURS)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else DEFAULT_MAX_NEIGHBOURS


def _param_problems(layout: Layout) -> list[Problem]:
    """Bad ``params`` a hand-made map may carry (coins, max_neighbours)."""
    problems = []
    value = layout.params.get("max_neighbours", DEFAULT_MAX_NEIGHBOURS)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        problems.append(Problem(None, f"params.max_neighbours must be a whole number of at least 1, not {value!r}"))
    stored = layout.params.get("coins")
    if stored is not None:
        try:
            if isinstance(stored, dict):
                coin(str(stored["O"])), coin(str(stored["X"]))
            elif isinstance(stored, str):
                parse_coins(stored)
            else:
                raise UsageError(
                    f'params.coins must name O\'s and X\'s coins, e.g. {{"O": "penny", "X": "nickel"}}, not {stored!r}'
                )
        except KeyError:
            problems.append(Problem(None, 'params.coins must name both coins, e.g. {"O": "penny", "X": "nickel"}'))
        except UsageError as exc:
            problems.append(Problem(None, f"params.coins: {exc}"))
    return problems


def _order_problems(layout: Layout) -> list[Problem]:
    problems = _param_problems(layout)
    orders = [s.order for s in layout.spaces]
    for space in layout.spaces:
        if space.order is None:
            problems.append(Problem(space.id, 'has no "order" property (the drawing order, 1 = the circle)'))
    given = sorted(o for o in orders if o is not None)
    if len(given) == len(orders) and given != list(range(1, len(orders) + 1)):
        problems.append(
            Problem(
                None,
                f'the "order" properties must be 1 to {len(orders)}, each once; found {listing([str(o) for o in given], 12)}',
            )
        )
    starts = {s.start: s for s in layout.spaces if s.start is not None}
    for space in layout.spaces:
        if space.start is not None and space.start not in PLAYERS:
            problems.append(Problem(space.id, f'start must be "O" or "X", not {space.start!r}'))
    for player in PLAYERS:
        if sum(1 for s in layout.spaces if s.start == player) > 1:
            problems.append(Problem(None, f'more than one country has start "{player}"'))
        elif player not in starts:
            problems.append(Problem(None, f'no country has start "{player}" (O starts in country N-1, X in country N)'))
    return problems


def _coin_problems(layout: Layout, tolerance_mm: float = COIN_TOLERANCE_MM) -> list[Problem]:
    import shapely

    o, x = coins_of(layout)
    big = max((o, x), key=lambda c: c.diameter_mm)
    problems = []
    for space in layout.spaces:
        circle = widest_circle(space.polygon, (big.diameter_mm - tolerance_mm) / 2)
        room = 2 * float(circle.length)
        if room + tolerance_mm < big.diameter_mm:
            problems.append(
                Problem(
                    space.id,
                    f"country {space.name} breaks the rule '{RULE_COIN}': the widest disc inside it is {room:.2f} mm across, "
                    f"a {big.title} needs {big.diameter_mm} mm",
                    geometry=shapely.get_point(circle, 0).buffer(big.radius_mm, quad_segs=32),
                )
            )
    return problems


def _replay_problems(layout: Layout) -> list[Problem]:
    """Add the countries in drawing order and check each was one arc on the outline,
    bordering 1 to max_neighbours countries then.

    While the map drawn so far stays one piece without holes, each step is judged from the
    earlier countries the new one touches (found once, through an index of boundary segments),
    so a map of 2,000 countries costs no more per country than a map of 20. From the first
    step that leaves the map in pieces or with a hole, the replay goes on against the whole
    outline, as it always did."""

    ordered = sorted(layout.spaces, key=lambda s: s.order or 0)
    position = {space.id: index for index, space in enumerate(ordered)}
    polygons = [space.polygon for space in ordered]
    touching: dict[int, list[int]] = {index: [] for index in range(len(ordered))}
    for i, j in boundary_contact_pairs(polygons):
        touching[max(i, j)].append(min(i, j))  # each country keeps the earlier ones it touches
    first_owner: dict[tuple[float, ...], int] = {}
    for index, polygon in enumerate(polygons):
        for corner in polygon.exterior.coords:
            first_owner.setdefault(corner, index)
    graph = layout.graph  # borders longer than MIN_BORDER_MM
    limit = _neighbour_limit(layout)
    problems: list[Problem] = []
    for index in range(1, len(ordered)):
        near_map = _one_stretch_map(polygons, index, touching[index], first_owner)
        if near_map is None:  # the map drawn so far would not stay one piece without holes
            import shapely

            outline = shapely.union_all(polygons[:index])  # what the replay had at this step
            return problems + _replay_against_outline(ordered, position, index, outline, graph, limit)
        problems += _step_problems(ordered, position, index, near_map, graph, limit, whole_map=False)[0]
    return problems


def _one_stretch_map(
    polygons: list[Any], index: int, touching: list[int], first_owner: dict[tuple[float, ...], int]
) -> Any:
    """The union of the earlier countries that country ``index`` touches, when it touches the
    map drawn before it along one stretch of its outline only, longer than MIN_BORDER_MM, and
    nowhere else (not even at a corner): then adding it keeps the map one piece without holes,
    and the countries it touches are all the map a check of this step needs. Else None."""
    import shapely

    if not touching:
        return None
    near_map = shapely.union_all([polygons[i] for i in touching])
    boundary = polygons[index].exterior
    shared = shapely.get_parts(boundary.intersection(near_map.boundary))
    lines = shared[shapely.get_type_id(shared) == 1]
    stretches = shapely.get_parts(shapely.line_merge(shapely.MultiLineString(list(lines)))) if len(lines) else []
    if len(stretches) != 1 or stretches[0].length <= MIN_BORDER_MM:
        return None
    stretch = stretches[0]
    corners = [c for c in boundary.coords if first_owner.get(c, index) < index]
    points = list(shared[shapely.get_type_id(shared) == 0]) + list(shapely.points(corners) if corners else [])
    if points and float(shapely.distance(stretch, points).max()) > 1e-9:
        return None  # it also touches the map at a corner away from the stretch: a pinched hole
    return near_map


def _step_problems(
    ordered: list[Space],
    position: dict[str, int],
    index: int,
    outline: Any,
    graph: Any,
    limit: int,
    *,
    whole_map: bool = True,
) -> tuple[list[Problem], Any]:
    """The problems of drawing country ``index`` onto ``outline``, and the map with the
    country added. ``outline`` is the whole map drawn before it, or (``whole_map`` False) the
    countries it touches, when :func:`_one_stretch_map` found it touches the map along one
    stretch only: the new map is then not needed (None) and no hole can have closed."""
    import shapely

    space = ordered[index]
    polygon = space.polygon
    boundary = polygon.exterior
    problems = []
    # The map's outline; the countries a new one touches may meet only at a corner (two pieces).
    edge = outline.exterior if outline.geom_type == "Polygon" else outline.boundary
    if whole_map:
        # Only the outline around the new country matters to the tests below (its borders, its
        # ends within 1e-6 mm, what it lies over): cut the rest away, which costs a quarter
        # million points' pass rather than an overlay of them, step after step.
        x0, y0, x1, y1 = polygon.bounds
        margin = 1.0 + 1e-6 * max(abs(x0), abs(y0), abs(x1), abs(y1))
        window = (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
        edge, outline_near = shapely.clip_by_rect(edge, *window), shapely.clip_by_rect(outline, *window)
    else:
        outline_near = outline
    shared = boundary.intersection(edge)
    new_line = shapely.line_merge(boundary.difference(edge))
    pieces = list(getattr(new_line, "geoms", [new_line])) if not new_line.is_empty else []
    name = f"country {space.name}"
    if shared.length <= MIN_BORDER_MM:
        problems.append(
            Problem(space.id, f"{name} breaks the rule '{RULE_ONE_ARC}': it does not border the map drawn before it")
        )
    elif len(pieces) != 1:
        problems.append(
            Problem(
                space.id,
                f"{name} breaks the rule '{RULE_ONE_ARC}': it is drawn with {len(pieces)} separate new lines, not one arc",
            )
        )
    else:
        arc = pieces[0]
        ends = [shapely.Point(arc.coords[0]), shapely.Point(arc.coords[-1])]
        if arc.is_ring or any(edge.distance(p) > 1e-6 for p in ends):
            problems.append(
                Problem(
                    space.id,
                    f"{name} breaks the rule '{RULE_ONE_ARC}': its new line does not end on the map's outline at both ends",
                )
            )
        elif polygon.intersection(outline_near).area > 0.01:
            problems.append(
                Problem(space.id, f"{name} breaks the rule '{RULE_ONE_ARC}': it lies over countries drawn before it")
            )
    earlier = sorted(position[n] for n in graph.neighbors(space.id) if position[n] < index)
    near = [ordered[i] for i in earlier]
    if len(near) > limit:
        names = listing([d.name for d in near])
        problems.append(
            Problem(
                space.id,
                f"{name} breaks the rule '{RULE_NEIGHBOURS.format(max=limit)}': when drawn it bordered {len(near)} countries ({names})",
                geometry=shapely.union_all([boundary.intersection(d.polygon.exterior) for d in near]),
            )
        )
    if not whole_map:  # one stretch onto a map in one piece without holes: it stays so
        return problems, None
    merged = shapely.union_all([outline, polygon])
    if merged.geom_type == "Polygon" and merged.interiors:
        problems.append(
            Problem(space.id, f"{name} breaks the rule '{RULE_HOLE}': drawing it closed off a hole in the map")
        )
        merged = shapely.Polygon(merged.exterior)
    if merged.geom_type != "Polygon":
        merged = shapely.union_all([merged.convex_hull])  # keep replaying; the problem is already reported
    return problems, merged


def _replay_against_outline(
    ordered: list[Space], position: dict[str, int], start: int, outline: Any, graph: Any, limit: int
) -> list[Problem]:
    """The replay from country ``start`` on, each step against the whole map drawn before it."""
    problems = []
    for index in range(start, len(ordered)):
        found, outline = _step_problems(ordered, position, index, outline, graph, limit)
        problems += found
    return problems
