"""The Map game's map: its parameters, the growth that builds it, its name and its summary.

A map is grown one hand-drawn arc at a time from country 1, a circle (:func:`build`). Two
growths (GROWTHS): **packed** (the default, :mod:`~coinprint.games.mapgame.packed`) wraps each
country along the outline; **sprawling** (0.1.0's maps, :mod:`~coinprint.games.mapgame.grow`)
puts each one round a coin's spot just outside the map. A step that keeps failing takes back
the country before it and tries again. Hand-made maps are checked in
:mod:`~coinprint.games.mapgame.check`.

>>> layout = build(countries=5, seed=1)
>>> [space.order for space in layout.spaces]
[1, 2, 3, 4, 5]
>>> [space.start for space in layout.spaces][-2:]
['O', 'X']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from coinprint.colouring import colour_regions
from coinprint.errors import UsageError
from coinprint.games.mapgame.grow import Grown, GrowthStats, Outline, Point, circle, sprawling_step
from coinprint.games.mapgame.packed import packed_step
from coinprint.layout import Layout, Space
from coinprint.units import Coin, coin

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
TRIES_PER_STEP = 60
"""Failed arcs before the generator gives up on a step and backtracks one country."""
FRAME_GIVE_UP = 15
"""Backtracks after which a map that will not fit the one-page frame grows without it."""
ONE_PAGE_FRAME_MM = (92.0, 118.0)
"""Half-axes (across, up) of the ellipse a map of up to ONE_PAGE_COUNTRIES countries is grown
inside, so that it prints on one A4 or Letter page (190 × 259 mm inside 10 mm margins) with
room for its info block in a corner."""
ONE_PAGE_COUNTRIES = 25


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


# -- the map ---------------------------------------------------------------------------------------------
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
    colours = country_colours(neighbours)
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


def country_colours(neighbours: Sequence[Iterable[int]]) -> list[int]:
    """Colour numbers 0–3 for countries 0, 1, …, bordering countries different, the countries
    most hemmed in by colours coloured first (``neighbours[k]`` holds countries k borders;
    a border counts whichever side lists it)."""
    touching = [(k, other) for k, near in enumerate(neighbours) for other in near]
    count = len(neighbours)
    colours = colour_regions(range(count), touching, order="saturation")
    if colours is None:  # cannot happen for a map (four colour theorem); keep a safe answer
        return [k % 4 for k in range(count)]
    return [colours[k] for k in range(count)]


def circle_radius_mm(coins: Sequence[str] = DEFAULT_COINS) -> float:
    """Radius of country 1, the circle, for these coins."""
    return round((max(coin(name).radius_mm for name in coins) + COIN_MARGIN_MM) * 1.3, 4)


def blank_layout(
    coins: Sequence[str] = DEFAULT_COINS, max_neighbours: int | None = None, countries: int | None = None
) -> Layout:
    """A map with only country 1, the circle: what players start drawing from. Given
    ``max_neighbours`` and ``countries``, the layout a drawn game starts from (``mapgame:draw=1``):
    its params say so (``draw``), and the rules then take arcs as moves."""
    ring = circle(circle_radius_mm(coins))
    space = Space("c1", (tuple(ring + [ring[0]]),), label="1", order=1, properties={"color": 0})
    names = [coin(name).name for name in coins]
    params: dict[str, object] = {"countries": 1, "coins": {"O": names[0], "X": names[1]}}
    if countries is not None and max_neighbours is not None:
        MapParams(countries, 0, max_neighbours, tuple(names)).validated()  # type: ignore[arg-type]
        params["draw"] = {"countries": countries, "max_neighbours": max_neighbours}
    return Layout(GAME, [space], meta={"params": params})


def layout_name(layout: Layout) -> str:
    """The built-in name that rebuilds ``layout``
    (``mapgame:countries=21,seed=3,growth=packed,starts=apart``; the circle of a drawn game,
    ``mapgame:countries=21,draw=1``).

    The growth and the starts rule are always named: a spec without them means the sprawling
    map (SPEC_GROWTH) and starts anywhere (SPEC_STARTS). A layout whose params do not say its
    growth (or starts) was made before that parameter existed."""
    params = layout.params
    draw = params.get("draw")
    if isinstance(draw, dict):  # the circle a drawn game starts from
        parts = [f"countries={draw['countries']}"]
        if draw["max_neighbours"] != DEFAULT_MAX_NEIGHBOURS:
            parts.append(f"max_neighbours={draw['max_neighbours']}")
        o, x = coins_of(layout)
        if (o.name, x.name) != DEFAULT_COINS:
            parts.append(f"coin={o.name}/{x.name}")
        return "mapgame:" + ",".join([*parts, "draw=1"])
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


# -- growth --------------------------------------------------------------------------------------------
def grow(params: MapParams, stats: GrowthStats) -> tuple[list[list[Point]], list[frozenset[int]]]:
    """The countries' rings (anticlockwise, closed) and each one's neighbours when drawn
    (0-based indices). Never fails: a step that keeps failing backtracks one country."""
    import numpy as np

    rng = random.Random(params.seed)
    need = params.coin_radius_mm + COIN_MARGIN_MM
    frame = ONE_PAGE_FRAME_MM if params.countries <= ONE_PAGE_COUNTRIES else (1.0, 1.0)
    first = circle(circle_radius_mm(params.coins))
    steps: list[Grown] = [Grown(Outline(np.asarray(first), [0] * len(first), frame), first + [first[0]], frozenset())]
    failures = [0]
    refused: set[tuple[float, float, int]] = set()  # stretches refused (packed growth)
    backtracks_before = stats.backtracks
    while len(steps) < params.countries:
        grown = None
        if params.growth == "packed" and failures[-1] == 0:
            grown = packed_step(
                steps[-1].outline,
                len(steps),
                params.max_neighbours,
                need,
                frame,
                rng,
                stats,
                refused,
                forward=params.arcs == "forward",
            )
        if grown is None:
            # Sprawling growth; for packed growth the fallback when no wrapping arc fits.
            grown = sprawling_step(steps[-1].outline, len(steps), params.max_neighbours, need, frame, rng, stats)
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

    adjacency = layout.adjacency
    order = {space.id: space.order if space.order is not None else index for index, space in enumerate(layout.spaces)}
    earlier = [sum(1 for other in near if order[other] < order[node]) for node, near in adjacency.items()]
    land = shapely.union_all([space.polygon for space in layout.spaces])
    hull = land.convex_hull.area
    return MapSummary(
        countries=len(layout.spaces),
        borders=sum(len(near) for near in adjacency.values()) // 2,
        dead_ends=sum(1 for near in adjacency.values() if len(near) == 1),
        most_earlier=max(earlier, default=0),
        solidity=land.area / hull if hull > 0 else 0.0,
    )
