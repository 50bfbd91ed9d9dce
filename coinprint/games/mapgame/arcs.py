"""Arcs the players draw: one arc judged against the map as it is now, and the map they grow.

The seed's drawing phase, as docs/formats.md reads it: each new country is bounded by one arc
whose two ends lie on the map's current outline, plus the stretch of outline between them. An
arc is judged at the moment it is drawn (:func:`judge_arc`), by the rules in this order, the
first that fails naming the figure that broke it:

1. **the arc**: 2 to MAX_ARC_POINTS points, every coordinate a number within MAX_ARC_REACH_MM
   of the circle's centre;
2. **ends on the outline**: each end within END_TOLERANCE_MM of the current outline (it is
   moved onto it);
3. **no crossing**: the arc does not cross itself, and meets the map only at its two ends (an
   arc through the map, or one that would leave a hole, is refused);
4. **one country**: the arc and the stretch between its ends close a country outside the map
   (an arc that goes round the whole map is refused: the ends must close it on one side);
5. **the coin fits**: the new country holds a disc of the larger coin's diameter;
6. **at most the limit of neighbours**: it borders (a shared line longer than MIN_BORDER_MM)
   at most ``max_neighbours`` countries.

An accepted arc becomes the new country by the generator's own step,
:func:`~coinprint.games.mapgame.grow.add_country`: one geometry grows generated maps and
judges drawn ones. :class:`DrawnMap` keeps the countries drawn so far and makes the finished
map a layout like a generated one. ``judge_arc`` is what a live preview calls while a stroke
is drawn: it returns the would-be country, its neighbours and the coin's fit even when the arc
is refused for its neighbours or its coin.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coinprint.caps import MAX_ARC_POINTS, MAX_ARC_REACH_MM
from coinprint.games.mapgame.board import (
    COIN_MARGIN_MM,
    DEFAULT_COINS,
    DEFAULT_MAX_NEIGHBOURS,
    GAME,
    PLAYERS,
    circle_radius_mm,
    country_colours,
)
from coinprint.games.mapgame.grow import (
    Grown,
    GrowthStats,
    Outline,
    Point,
    add_country,
    arc_clear,
    circle,
    owner_runs,
    signed_area,
    sprawling_step,
)
from coinprint.games.mapgame.packed import packed_step
from coinprint.layout import MIN_BORDER_MM, Layout, Space, round_point
from coinprint.units import coin

if TYPE_CHECKING:
    import numpy

END_TOLERANCE_MM = 1.5
"""How far from the current outline an end of a drawn arc may lie (it is moved onto it)."""
ON_POINT_MM = 0.05
"""An end this near a point of the outline is taken to be that point (no new point added)."""

NO_FRAME = (1.0, 1.0)
"""The outline's frame for drawn maps: none (players draw where they like, within the reach cap)."""


@dataclass(frozen=True)
class ArcJudgement:
    """What the rules say of one arc: ``refusal`` is None when it is accepted.

    ``country`` (the would-be country's ring, anticlockwise and closed), ``neighbours``
    (their numbers, as the map labels them) and ``coin_mm`` (the widest disc it holds,
    across) are filled as far as the judging got: a preview shades the country even when its
    coin does not fit."""

    refusal: str | None
    rule: str
    """The rule that refused the arc (``"arc"``, ``"ends"``, ``"crossing"``, ``"country"``,
    ``"coin"``, ``"neighbours"``), or ``"ok"``."""
    country: tuple[Point, ...] = ()
    neighbours: tuple[int, ...] = ()
    coin_mm: float = 0.0
    need_mm: float = 0.0
    grown: Grown | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


def _refused(rule: str, why: str, **found: object) -> ArcJudgement:
    return ArcJudgement(why, rule, **found)  # type: ignore[arg-type]


def arc_points(points: object) -> list[Point] | str:
    """The arc's points as floats, or why they are not an arc (rule 1)."""
    if not isinstance(points, (list, tuple)):
        return "an arc is a list of points [x, y] in mm"
    if not 2 <= len(points) <= MAX_ARC_POINTS:
        return f"an arc has 2 to {MAX_ARC_POINTS} points, not {len(points)}"
    found: list[Point] = []
    for point in points:
        if (
            not isinstance(point, (list, tuple))
            or len(point) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
        ):
            return f"a point of an arc is [x, y] (two numbers in mm), not {str(point)[:40]}"
        x, y = float(point[0]), float(point[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            return "a point of the arc is not a number (NaN or infinite)"
        if math.hypot(x, y) > MAX_ARC_REACH_MM:
            return f"the arc runs off the page: a point lies {math.hypot(x, y):.0f} mm from the centre, at most {MAX_ARC_REACH_MM:.0f} mm is allowed"
        found.append((x, y))
    if len({round_point(*p) for p in found}) < 2:
        return "an arc needs two different points"
    return found


def judge_arc(
    outline: Outline,
    new: int,
    points: object,
    *,
    need_mm: float,
    max_neighbours: int = DEFAULT_MAX_NEIGHBOURS,
) -> ArcJudgement:
    """Judge an arc drawn on ``outline`` as country index ``new`` (0-based; its label is
    ``new + 1``); ``need_mm`` is the larger coin's diameter. See the module's rules."""
    import numpy as np

    read = arc_points(points)
    if isinstance(read, str):
        return _refused("arc", read)
    arc = np.asarray([round_point(*p) for p in read])
    # Drop repeated points (a pointer that stood still): they are no part of the line.
    keep = np.concatenate(([True], np.any(np.diff(arc, axis=0) != 0, axis=1)))
    arc = arc[keep]
    outline, start_foot = _onto_outline(outline, arc[0])
    if start_foot is None:
        why = f"the arc must start on the map's outline: it starts {_gap(outline, arc[0]):.1f} mm from it"
        return _refused("ends", f"{why}, at most {END_TOLERANCE_MM} mm is allowed")
    outline, finish_foot = _onto_outline(outline, arc[-1])
    if finish_foot is None:
        why = f"the arc must end on the map's outline: it ends {_gap(outline, arc[-1]):.1f} mm from it"
        return _refused("ends", f"{why}, at most {END_TOLERANCE_MM} mm is allowed")
    start, finish = _index_of(outline, start_foot), _index_of(outline, finish_foot)
    if start == finish:
        why = "the arc's two ends meet at one point of the outline"
        return _refused("ends", f"{why}: it must close a country against a stretch of the outline")
    arc[0], arc[-1] = outline.points[start], outline.points[finish]
    if len(arc) < 3 and _straight_on_outline(outline, arc):
        return _refused("crossing", "the arc runs along the outline: it must go outside the map")
    stats = GrowthStats()
    if not arc_clear(outline, arc, stats):
        why = (
            "the arc crosses itself"
            if "self-crossing" in stats.rejections
            else "the arc crosses or touches the map between its ends (it would cut a country or leave a hole)"
        )
        return _refused("crossing", why)
    # The country lies between the arc and the stretch running anticlockwise from the arc's
    # first end to its last; drawn the other way round, the stretch runs from its last end.
    first, end = _stretch(outline, start, finish)
    ring = np.concatenate((outline.laps[first : end + 1], arc[-2:0:-1]))
    if signed_area(ring) >= 0:
        arc = arc[::-1].copy()
        first, end = _stretch(outline, finish, start)
        ring = np.concatenate((outline.laps[first : end + 1], arc[-2:0:-1]))
        if signed_area(ring) >= 0:
            return _refused("country", "the arc does not close a country outside the map")
    closed = np.concatenate((ring, ring[:1]))
    country = tuple(tuple(p) for p in closed[::-1].tolist())
    runs = owner_runs(outline.owner_laps[first:end], outline.edge_laps[first:end])
    bordered = tuple(sorted({owner + 1 for owner, length, _ in runs if length > MIN_BORDER_MM}))
    coin_mm = 2 * _widest_room(closed)
    found = {"country": country, "neighbours": bordered, "coin_mm": coin_mm, "need_mm": need_mm}
    if coin_mm < need_mm:
        return _refused(
            "coin",
            f"the coin does not fit: the country is {coin_mm:.1f} mm across where {need_mm:.1f} mm is needed",
            **found,
        )
    if len(bordered) > max_neighbours:
        listed = ", ".join(str(n) for n in bordered)
        return _refused(
            "neighbours",
            f"it borders {len(bordered)}: {listed}; at most {max_neighbours} are allowed when drawn",
            **found,
        )
    grown = add_country(outline, new, first, end, arc, frozenset(n - 1 for n in bordered), NO_FRAME)
    return ArcJudgement(None, "ok", country, bordered, coin_mm, need_mm, grown)


def _widest_room(closed: object) -> float:
    """The radius of the widest disc inside the closed ring (0 when it is no polygon)."""
    import shapely

    polygon = shapely.polygons(closed)
    if not polygon.is_valid:
        return 0.0
    return float(shapely.maximum_inscribed_circle(polygon, 0.05).length)


def _stretch(outline: Outline, start: int, finish: int) -> tuple[int, int]:
    """Lap indices (middle lap) of the stretch running anticlockwise from ``start`` to ``finish``."""
    first = start + outline.count
    end = finish + outline.count
    if end <= first:
        end += outline.count
    return first, end


def _gap(outline: Outline, point: object) -> float:
    import shapely

    return float(shapely.distance(outline.polygon.exterior, shapely.points(point)))


def _index_of(outline: Outline, point: object) -> int:
    import numpy as np

    return int(np.argmin(np.hypot(*(outline.points - point).T)))


def _straight_on_outline(outline: Outline, arc: object) -> bool:
    """A two-point arc whose middle lies on the outline (it draws nothing new)."""
    import numpy as np
    import shapely

    middle = np.asarray(arc).mean(axis=0)
    return bool(shapely.distance(outline.polygon.exterior, shapely.points(middle)) < 1e-6)


def _onto_outline(outline: Outline, point: object) -> tuple[Outline, numpy.ndarray | None]:
    """The outline with ``point`` moved onto it and made one of its points: (outline, the
    point where it landed); None when ``point`` is farther than END_TOLERANCE_MM from it."""
    import numpy as np

    p = np.asarray(point, dtype=float)
    rx, ry = p[0] - outline.x, p[1] - outline.y
    along = np.clip((rx * outline.dx + ry * outline.dy) / outline.step_length2, 0.0, 1.0)
    gaps = np.hypot(rx - outline.dx * along, ry - outline.dy * along)
    edge = int(np.argmin(gaps))
    if gaps[edge] > END_TOLERANCE_MM:
        return outline, None
    x = outline.x[edge] + outline.dx[edge] * along[edge]
    y = outline.y[edge] + outline.dy[edge] * along[edge]
    foot = np.asarray(round_point(float(x), float(y)))
    for index in (edge, (edge + 1) % outline.count):
        if float(np.hypot(*(outline.points[index] - foot))) <= ON_POINT_MM:
            return outline, outline.points[index]
    points = np.insert(outline.points, edge + 1, foot, axis=0)
    owners = outline.owners[: edge + 1] + [outline.owners[edge]] + outline.owners[edge + 1 :]
    closed = np.insert(outline.closed, edge + 1, False)
    return Outline(points, owners, outline.frame, closed), foot


# -- the map the players draw --------------------------------------------------------------------------
class DrawnMap:
    """The countries drawn so far, from the circle: each one's ring and its neighbours when
    drawn, and the outline the next arc is judged against."""

    def __init__(self, coins: Sequence[str] = DEFAULT_COINS, max_neighbours: int = DEFAULT_MAX_NEIGHBOURS) -> None:
        import numpy as np

        self.coins = tuple(coin(name).name for name in coins)
        self.max_neighbours = max_neighbours
        self.need_mm = 2 * max(coin(name).radius_mm for name in self.coins)
        """The larger coin's diameter: the disc every drawn country must hold."""
        first = circle(circle_radius_mm(self.coins))
        self.steps: list[Grown] = [
            Grown(Outline(np.asarray(first), [0] * len(first), NO_FRAME), first + [first[0]], frozenset())
        ]
        self.arcs: list[list[Point]] = []

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def outline(self) -> Outline:
        return self.steps[-1].outline

    def judge(self, points: object) -> ArcJudgement:
        """Judge ``points`` as the next country's arc (the map is not changed)."""
        return judge_arc(
            self.outline, len(self.steps), points, need_mm=self.need_mm, max_neighbours=self.max_neighbours
        )

    def draw(self, points: object) -> ArcJudgement:
        """Judge ``points`` and, when accepted, add the country it closes."""
        judged = self.judge(points)
        if judged.grown is not None:
            self.steps.append(judged.grown)
            self.arcs.append([round_point(*p) for p in points])  # type: ignore[attr-defined]
        return judged

    def neighbours(self) -> dict[str, frozenset[str]]:
        """Each country's neighbours (ids, as :meth:`layout` names them): those it bordered
        when drawn and those drawn later against it. Borders never change once drawn, so this
        is the layout's own adjacency (a test compares them), known without any geometry."""
        found: dict[str, set[str]] = {f"c{k + 1}": set() for k in range(len(self.steps))}
        for index, step in enumerate(self.steps):
            for earlier in step.neighbours:
                found[f"c{index + 1}"].add(f"c{earlier + 1}")
                found[f"c{earlier + 1}"].add(f"c{index + 1}")
        return {sid: frozenset(near) for sid, near in found.items()}

    def layout(self) -> Layout:
        """The map drawn so far as a layout like a generated one: country ``k`` has id
        ``c{k}``, label ``k``, ``drawn_by`` and a colour; the last two carry the starts O and X
        once the map has at least three countries. Made once per map drawn so far (a table
        and its pictures ask for it many times)."""
        key = (len(self.steps), id(self.steps[-1]))
        kept = self.__dict__.get("_made_layout")
        if kept is not None and kept[0] == key:
            return kept[1]  # type: ignore[no-any-return]
        made = self._layout()
        self.__dict__["_made_layout"] = (key, made)
        return made

    def _layout(self) -> Layout:
        count = len(self.steps)
        colours = country_colours([s.neighbours for s in self.steps])
        spaces = []
        for index, step in enumerate(self.steps):
            order = index + 1
            properties: dict[str, object] = {"color": colours[index]}
            if order > 1:
                properties["drawn_by"] = PLAYERS[order % 2]
            start = None
            if count >= 3:
                start = "O" if order == count - 1 else "X" if order == count else None
            ring = tuple(round_point(*p) for p in step.ring)
            spaces.append(
                Space(f"c{order}", (ring,), label=str(order), order=order, start=start, properties=properties)
            )
        meta = {
            "params": {
                "countries": count,
                "max_neighbours": self.max_neighbours,
                "coins": {"O": self.coins[0], "X": self.coins[1]},
                "coin_margin_mm": COIN_MARGIN_MM,
                "growth": "drawn",
            },
        }
        return Layout(GAME, spaces, meta=meta)


# -- arcs the generator proposes -----------------------------------------------------------------------
PROPOSAL_TRIES = 60
"""Generator attempts before a drawer gives up on finding an arc (the map is then full)."""


def arc_of(grown: Grown, new: int) -> list[Point]:
    """The arc that closed country ``new`` in a step of the growth: its outline points owned by
    ``new`` (the arc's inner points), with the outline points either side (its ends)."""
    owners, points, count = grown.outline.owners, grown.outline.points, grown.outline.count
    mine = [k for k in range(count) if owners[k] == new]
    # The arc's edges run consecutively (possibly wrapping past the end of the ring).
    start = next(k for k in mine if owners[(k - 1) % count] != new)
    edges = len(mine)
    return [round_point(*points[(start + k) % count].tolist()) for k in range(edges + 1)]


def propose_arc(drawn: DrawnMap, rng: random.Random, *, growth: str = "packed") -> list[Point] | None:
    """An arc the generator would draw next on ``drawn`` (packed growth, then sprawling as
    its fallback), or None when it finds none in PROPOSAL_TRIES tries."""
    need = max(coin(name).radius_mm for name in drawn.coins) + COIN_MARGIN_MM
    stats, new, outline = GrowthStats(), len(drawn), drawn.outline
    # Sprawling growth shuts the points it found without room; a proposal must leave the
    # map as it was (copies of a game's state share its outline).
    kept = (outline.closed.copy(), outline._weights, outline._cumulative)
    try:
        for attempt in range(PROPOSAL_TRIES):
            grown = None
            if growth == "packed" and attempt == 0:
                grown = packed_step(outline, new, drawn.max_neighbours, need, NO_FRAME, rng, stats)
            if grown is None:
                grown = sprawling_step(outline, new, drawn.max_neighbours, need, NO_FRAME, rng, stats)
            if grown is not None:
                return arc_of(grown, new)
        return None
    finally:
        outline.closed[:] = kept[0]
        outline._weights, outline._cumulative = kept[1], kept[2]
