"""The Flick mat: a goal shaped as a regular polygon with a goal coin at every corner, each
player's line (an edge of the goal) and each player's starting zone outside it.

Geometry, in mm with y up and the goal's centre at the origin: side 1 is the bottom edge,
sides are numbered anticlockwise, corner ``k`` is where side ``k`` ends and side ``k+1``
begins (corner 0 = corner n). Players sit at sides spread evenly round the goal: with two
players Heads has side 1 and Tails the side opposite (or nearly opposite, for odd shapes).
With teams (more than two players) the players alternate Heads, Tails, Heads, … round the
table, each at their own side.

Layout features (docs/formats.md, Layouts): ``goal`` (the polygon through the goal coins' centres),
``goal-coin`` (``g1``…``gn``, circles as 128-gons whose corners lie on the true circle),
``line`` (property ``player``, also ``face``, ``seat``, ``side``) and ``zone`` (property
``player``, ``coins``, ``coin``, and ``spots``: where each score coin starts; with an arsenal,
``arsenal``: each spot's coin). A mat has no
spaces: Flick is not played on spaces.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coinprint.checks import Problem
from coinprint.errors import UsageError
from coinprint.layout import Feature, Layout, close_ring, polygon_geometry, round_point
from coinprint.units import Coin, Length, coin, parse_length

XY = tuple[float, float]

GAME = "flick"
MIN_SIDES, MAX_SIDES = 3, 8
STANDARD_SIDES = 4
STANDARD_WIDTH = "15cm"
STANDARD_GOAL_COIN = "dime"
STANDARD_SCORE_COIN = "quarter"
STANDARD_COINS = 2
MIN_COINS, MAX_COINS = 2, 12
"""The seed asks for "2+" score coins each; 12 keeps a zone a sensible size."""
MAX_WIDTH_MM = 1000.0
CIRCLE_VERTICES = 128
"""Corners of the polygon standing for a coin's circle; they lie on the circle, so the
polygon is at most r·(1 - cos(π/128)) ≈ 0.003 mm inside it for a dime."""
ZONE_GAP_MM = 3.0
"""Space between the goal coins' outlines and a starting zone, and between score coins."""
FACES = ("heads", "tails")


@dataclass(frozen=True)
class Seat:
    """A player at the mat: their name, the face they own, their turn order and their side."""

    player: str
    face: str
    seat: int
    side: int


def seats(players: int, sides: int) -> list[Seat]:
    """Who sits where. Two players are ``heads`` and ``tails``; teams are ``heads-1``,
    ``tails-1``, ``heads-2``, … in turn order, spread evenly round the goal."""
    result = []
    for index in range(players):
        face = FACES[index % 2]
        name = face if players == 2 else f"{face}-{index // 2 + 1}"
        result.append(Seat(name, face, index + 1, index * sides // players + 1))
    return result


def corners(sides: int, width_mm: float) -> list[tuple[float, float]]:
    """The goal's corners, corner 0 first: side ``k`` runs from corner ``k-1`` to corner ``k``."""
    radius = width_mm / (2 * math.sin(math.pi / sides))
    start = -math.pi / 2 - math.pi / sides
    return [
        (radius * math.cos(start + 2 * math.pi * k / sides), radius * math.sin(start + 2 * math.pi * k / sides))
        for k in range(sides)
    ]


def circle_ring(cx: float, cy: float, radius: float, vertices: int = CIRCLE_VERTICES) -> tuple[XY, ...]:
    """A closed ring of ``vertices`` points on the circle."""
    return close_ring(
        (cx + radius * math.cos(2 * math.pi * k / vertices), cy + radius * math.sin(2 * math.pi * k / vertices))
        for k in range(vertices)
    )


def _parse_int(value: Any, what: str, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise UsageError(f"{what} must be a whole number from {low} to {high}, not {value!r}") from None
    if not low <= number <= high:
        raise UsageError(f"{what} {number} is out of range; use {low} to {high}")
    return number


def build(
    sides: int | str = STANDARD_SIDES,
    width: str | float | Length = STANDARD_WIDTH,
    goal_coin: str = STANDARD_GOAL_COIN,
    score_coin: str = STANDARD_SCORE_COIN,
    coins: int | str = STANDARD_COINS,
    players: int | str = 2,
    arsenal: str = "",
) -> Layout:
    """The Flick mat as a layout.

    ``sides`` (3 to 8) is the goal's shape; ``width`` its side length (``"15cm"``, or mm as
    a number), measured between the centres of neighbouring goal coins; ``goal_coin`` and
    ``score_coin`` name catalogue coins; ``coins`` (2 to 12) is each player's score coins;
    ``players`` (2 up to ``sides``) is how many sit at the mat, more than 2 being a team game;
    ``arsenal`` (e.g. ``quarter+penny``), when given, the coins each player's score coins are,
    in turn (the seed's note 2), instead of all ``score_coin``.
    Bad values raise :class:`UsageError` naming them.
    """
    side_count = _parse_int(sides, "sides", MIN_SIDES, MAX_SIDES)
    coin_count = _parse_int(coins, "coins", MIN_COINS, MAX_COINS)
    player_count = _parse_int(players, "players", 2, side_count)
    side_mm = width.mm if isinstance(width, Length) else parse_length(width)
    goal, score = coin(goal_coin), coin(score_coin)
    kinds = _arsenal(arsenal)
    if kinds:
        score = max(kinds, key=lambda c: c.diameter_mm)  # the mat is laid out for the widest
    narrowest = goal.diameter_mm + score.diameter_mm
    if side_mm <= narrowest:
        raise UsageError(
            f"goal width {width} is too small: a {score.title} ({score.diameter_mm} mm) must pass between two "
            f"{goal.title}s ({goal.diameter_mm} mm); use more than {narrowest:.2f} mm"
        )
    if side_mm > MAX_WIDTH_MM:
        raise UsageError(f"goal width {width} is too large; use at most {MAX_WIDTH_MM / 10:g} cm")
    points = corners(side_count, side_mm)
    features = [
        Feature(
            "goal", "goal", polygon_geometry([close_ring(points)]), {"sides": side_count, "width_mm": round(side_mm, 4)}
        )
    ]
    for number in range(1, side_count + 1):  # goal coin gk sits where side k ends (corner n is corner 0)
        x, y = points[number % side_count]
        features.append(
            Feature(
                f"g{number}",
                "goal-coin",
                polygon_geometry([circle_ring(x, y, goal.radius_mm)]),
                {"coin": goal.name, "center": list(round_point(x, y))},
            )
        )
    for seat in seats(player_count, side_count):
        start, end = points[seat.side - 1], points[seat.side % side_count]
        line = {"type": "LineString", "coordinates": [list(round_point(*start)), list(round_point(*end))]}
        props = {"player": seat.player, "face": seat.face, "seat": seat.seat, "side": seat.side}
        features.append(Feature(f"line-{seat.player}", "line", line, props))
        features.append(_zone(seat, start, end, goal, score, coin_count, kinds))
    params: dict[str, object] = {
        "sides": side_count,
        "width_mm": round(side_mm, 4),
        "goal_coin": goal.name,
        "score_coin": score.name,
        "coins": coin_count,
        "players": player_count,
    }
    if kinds:
        params["arsenal"] = "+".join(c.name for c in kinds)
    return Layout(GAME, [], features, meta={"params": params})


MAX_ARSENAL = 4
"""Most kinds of coin in an arsenal."""


def _arsenal(text: str) -> list[Coin]:
    """The coins of an arsenal (``quarter+penny``), in turn; none for ""."""
    if not text:
        return []
    names = [name.strip() for name in str(text).split("+")]
    if not 2 <= len(names) <= MAX_ARSENAL or not all(names):
        raise UsageError(f"arsenal {text!r}: give 2 to {MAX_ARSENAL} coins joined by +, e.g. quarter+penny")
    return [coin(name) for name in names]


def _zone(seat: Seat, start: XY, end: XY, goal: Coin, score: Coin, coins: int, kinds: list[Coin]) -> Feature:
    """The rectangle outside ``seat``'s side where their score coins start, in rows of as many
    coins as fit between the goal coins."""
    side_mm = math.dist(start, end)
    ux, uy = (end[0] - start[0]) / side_mm, (end[1] - start[1]) / side_mm  # along the side
    nx, ny = uy, -ux  # outward normal (corners run anticlockwise)
    pitch = score.diameter_mm + ZONE_GAP_MM
    room = side_mm - goal.diameter_mm - 2 * ZONE_GAP_MM
    per_row = max(1, min(coins, int((room - ZONE_GAP_MM) // pitch)))
    rows = math.ceil(coins / per_row)
    along = per_row * pitch + ZONE_GAP_MM
    depth = rows * pitch + ZONE_GAP_MM
    near = goal.radius_mm + ZONE_GAP_MM
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)

    def at(a: float, d: float) -> tuple[float, float]:
        return (mid[0] + ux * a + nx * d, mid[1] + uy * a + ny * d)

    ring = close_ring(
        [at(-along / 2, near), at(along / 2, near), at(along / 2, near + depth), at(-along / 2, near + depth)]
    )
    spots = []
    for index in range(coins):
        row, column = divmod(index, per_row)
        in_row = min(per_row, coins - row * per_row)
        a = (column - (in_row - 1) / 2) * pitch
        spots.append(list(round_point(*at(a, near + ZONE_GAP_MM + pitch * row + score.radius_mm))))
    props: dict[str, object] = {
        "player": seat.player,
        "face": seat.face,
        "coins": coins,
        "coin": score.name,
        "spots": spots,
    }
    if kinds:  # each spot's coin, the arsenal's kinds in turn
        props["arsenal"] = [kinds[k % len(kinds)].name for k in range(coins)]
    return Feature(f"zone-{seat.player}", "zone", polygon_geometry([ring]), props)


# -- checking hand-made mats -----------------------------------------------------------------------------
TOLERANCE_MM = 0.05


def check(layout: Layout, *, tolerance_mm: float = TOLERANCE_MM) -> list[Problem]:
    """Every problem with a Flick mat. A mat has no spaces, so the "no spaces" rule of other
    games does not apply; the rest is checked: ids, units, one convex goal of 3 to 8 corners,
    a goal coin centred on every corner, each player's line on an edge of the goal, zones
    outside the goal clear of the goal coins and of each other. Points may be ``tolerance_mm``
    from where they belong (a drawing's rounding)."""
    import shapely

    problems = [Problem(None, text) for text in layout.read_problems]
    if layout.meta.get("units", "mm") != "mm":
        problems.append(Problem(None, f'units must be "mm", not {layout.meta.get("units")!r}'))
    if layout.spaces:
        problems.append(
            Problem(layout.spaces[0].id, "a Flick mat has no spaces; use the roles goal, goal-coin, line and zone")
        )
    for fid, count in sorted(Counter([s.id for s in layout.spaces] + [f.id for f in layout.features]).items()):
        if count > 1:
            problems.append(Problem(fid, f"the id is used by {count} features; ids must be unique"))
    shapes: dict[str, Any] = {}
    for feature in layout.features:
        try:
            shape = feature.shape
        except Exception as exc:  # shapely raises several types for bad GeoJSON
            problems.append(Problem(feature.id, f"the geometry cannot be read ({exc})"))
            continue
        if not shape.is_valid or shape.is_empty:
            problems.append(Problem(feature.id, f"the geometry is invalid ({shapely.is_valid_reason(shape)})"))
            continue
        shapes[feature.id] = shape
    goals = [f for f in layout.features_with_role("goal") if f.id in shapes]
    if len(layout.features_with_role("goal")) != 1:
        return problems + [
            Problem(None, f"a mat needs exactly one goal feature, not {len(layout.features_with_role('goal'))}")
        ]
    if not goals:
        return problems
    goal = shapes[goals[0].id]
    if goal.geom_type != "Polygon":
        return problems + [Problem(goals[0].id, f"the goal must be a Polygon, not a {goal.geom_type}")]
    goal_corners = _corners_of(goal)
    if not MIN_SIDES <= len(goal_corners) <= MAX_SIDES:
        problems.append(
            Problem(goals[0].id, f"the goal has {len(goal_corners)} corners; use {MIN_SIDES} to {MAX_SIDES}")
        )
    if goal.convex_hull.area - goal.area > TOLERANCE_MM * goal.length:
        problems.append(Problem(goals[0].id, "the goal must be convex"))
    problems += _goal_coin_problems(layout, shapes, goal_corners, tolerance_mm)
    problems += _line_problems(layout, shapes, goal_corners, tolerance_mm)
    problems += _zone_problems(layout, shapes, goal)
    return problems


def _corners_of(polygon: Any) -> list[tuple[float, float]]:
    coords = list(polygon.exterior.coords)[:-1]
    found = []
    for i, point in enumerate(coords):
        a, c = coords[i - 1], coords[(i + 1) % len(coords)]
        cross = (point[0] - a[0]) * (c[1] - a[1]) - (point[1] - a[1]) * (c[0] - a[0])
        if abs(cross) > 1e-6 * max(1.0, math.dist(a, c) ** 2):
            found.append(point)
    return found


def _goal_coin_problems(
    layout: Layout, shapes: dict[str, Any], goal_corners: list[XY], tolerance_mm: float
) -> list[Problem]:
    problems = []
    covered: set[int] = set()
    for feature in layout.features_with_role("goal-coin"):
        shape = shapes.get(feature.id)
        if shape is None:
            continue
        if shape.geom_type != "Polygon":
            problems.append(
                Problem(feature.id, f"a goal coin must be a Polygon (its outline), not a {shape.geom_type}")
            )
            continue
        centre = shape.centroid
        distances = [math.dist((centre.x, centre.y), c) for c in goal_corners]
        nearest = min(range(len(distances)), key=distances.__getitem__) if distances else None
        if nearest is None or distances[nearest] > tolerance_mm:
            problems.append(Problem(feature.id, "is not centred on a corner of the goal"))
        elif nearest in covered:
            problems.append(Problem(feature.id, "a second goal coin on the same corner"))
        else:
            covered.add(nearest)
    for index, corner in enumerate(goal_corners):
        if index not in covered:
            problems.append(Problem(None, f"the goal corner at ({corner[0]:.1f}, {corner[1]:.1f}) mm has no goal coin"))
    return problems


def _line_problems(
    layout: Layout, shapes: dict[str, Any], goal_corners: list[XY], tolerance_mm: float
) -> list[Problem]:
    problems = []
    edges = [(goal_corners[i - 1], goal_corners[i]) for i in range(len(goal_corners))]
    players: list[str] = []
    for feature in layout.features_with_role("line"):
        player = feature.properties.get("player")
        if not isinstance(player, str) or not player:
            problems.append(Problem(feature.id, 'a line needs the player whose line it is (property "player")'))
            continue
        face = feature.properties.get("face", player.partition("-")[0])
        if face not in FACES:
            problems.append(Problem(feature.id, f'player {player!r} needs a face, heads or tails (property "face")'))
        if player in players:
            problems.append(Problem(feature.id, f"player {player!r} has a second line"))
        players.append(player)
        shape = shapes.get(feature.id)
        if shape is None:
            continue
        if shape.geom_type != "LineString" or len(shape.coords) != 2:
            problems.append(Problem(feature.id, "a line must be a LineString from one goal corner to the next"))
            continue
        ends = list(shape.coords)
        if not any(_same_edge(ends, edge, tolerance_mm) for edge in edges):
            problems.append(Problem(feature.id, "the line is not an edge of the goal"))
    if len(players) < 2:
        problems.append(Problem(None, f"a mat needs at least 2 players' lines, not {len(players)}"))
    faces = {
        f.properties.get("face", str(f.properties.get("player", "")).partition("-")[0])
        for f in layout.features_with_role("line")
    }
    if len(players) >= 2 and not set(FACES) <= faces:
        problems.append(Problem(None, "both faces must play: at least one heads and one tails line"))
    return problems


def _same_edge(ends: Sequence[XY], edge: Sequence[XY], tolerance_mm: float) -> bool:
    (a, b), (c, d) = ends, edge

    def close(p: XY, q: XY) -> bool:
        return math.dist(p, q) <= tolerance_mm

    return (close(a, c) and close(b, d)) or (close(a, d) and close(b, c))


def _zone_problems(layout: Layout, shapes: dict[str, Any], goal: Any) -> list[Problem]:
    problems = []
    line_players = {f.properties.get("player") for f in layout.features_with_role("line")}
    blockers = [(f.id, shapes[f.id]) for f in layout.features_with_role("goal-coin") if f.id in shapes]
    zones = [(f, shapes[f.id]) for f in layout.features_with_role("zone") if f.id in shapes]
    for index, (feature, shape) in enumerate(zones):
        if shape.geom_type != "Polygon":
            problems.append(Problem(feature.id, f"a starting zone must be a Polygon, not a {shape.geom_type}"))
        if feature.properties.get("player") not in line_players:
            problems.append(Problem(feature.id, f"the zone's player {feature.properties.get('player')!r} has no line"))
        if shape.intersection(goal).area > TOLERANCE_MM:
            problems.append(Problem(feature.id, "a starting zone must lie outside the goal"))
        for other_id, other in blockers:
            if shape.intersection(other).area > TOLERANCE_MM:
                problems.append(Problem(feature.id, f"overlaps goal coin {other_id}"))
        for other, other_shape in zones[index + 1 :]:
            if shape.intersection(other_shape).area > TOLERANCE_MM:
                problems.append(Problem(feature.id, f"overlaps zone {other.id}"))
    return problems
