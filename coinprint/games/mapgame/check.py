"""The check for hand-made Maps: every rule a map breaks, each naming the country.

The common checks first (valid, non-overlapping polygons), then exact shared borders, one
region without holes and the coin in every country; then the drawing order is replayed, each
country checked to be one arc on the outline, bordering at most ``max_neighbours`` countries
when drawn.
"""

from __future__ import annotations

from typing import Any

from coinprint.checks import Problem, border_problems, common_problems, listing, place
from coinprint.errors import UsageError
from coinprint.games.mapgame.board import (
    DEFAULT_MAX_NEIGHBOURS,
    MAX_COUNTRIES,
    MIN_COUNTRIES,
    PLAYERS,
    coins_of,
    parse_coins,
)
from coinprint.layout import MIN_BORDER_MM, Layout, Space
from coinprint.spatial import boundary_contact_pairs, widest_circle
from coinprint.units import coin

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
