"""The one data model for every board: spaces with polygons in mm, their adjacency graph,
extra features and metadata; GeoJSON in and out (docs/formats.md, Layouts).

Coordinates are millimetres, x to the right, y up. Two spaces are adjacent when their
boundaries share a line longer than :data:`MIN_BORDER_MM`; touching at a corner is not
adjacency.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from coinprint import __version__
from coinprint.errors import UnreadableInputError

if TYPE_CHECKING:  # the heavy libraries load on first use
    import networkx
    import shapely

FORMAT_VERSION = 1
MIN_BORDER_MM = 0.1
"""Shared boundary length above which two spaces count as neighbours."""
PRECISION = 4
"""Decimal places kept for coordinates (0.1 µm): enough for print, stable across runs."""

Point = tuple[float, float]
Ring = tuple[Point, ...]


def round_point(x: float, y: float) -> Point:
    """A point rounded to the layout precision; ``-0.0`` becomes ``0.0`` for stable output."""
    return (round(x, PRECISION) + 0.0, round(y, PRECISION) + 0.0)


def close_ring(points: Iterable[Sequence[float]]) -> Ring:
    """The points as a closed, rounded ring (first point repeated at the end)."""
    ring = [round_point(float(p[0]), float(p[1])) for p in points]
    if ring and ring[0] != ring[-1]:
        ring.append(ring[0])
    return tuple(ring)


@dataclass(frozen=True)
class Space:
    """A playable area: a hex cell, a Coin Age space, a Map country.

    ``rings`` holds the exterior ring then any holes, closed, in mm. ``properties`` keeps
    every GeoJSON property besides role/label/region/order/start, so reading and writing
    round-trips.
    """

    id: str
    rings: tuple[Ring, ...]
    label: str | None = None
    region: str | None = None
    order: int | None = None
    start: str | None = None
    properties: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def polygon(self) -> shapely.Polygon:
        import shapely

        exterior, *holes = self.rings
        return shapely.Polygon(exterior, holes)

    @property
    def name(self) -> str:
        """What a player calls the space: its label, else its id."""
        return self.label if self.label is not None else self.id

    @property
    def centroid(self) -> Point:
        point = self.polygon.centroid
        return (point.x, point.y)


@dataclass(frozen=True)
class Feature:
    """A non-playable feature: card outline, goal, goal coin, a player's line, a zone, …

    ``geometry`` is the GeoJSON geometry object as read or written (coordinates in mm).
    """

    id: str
    role: str
    geometry: dict[str, Any]
    properties: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def shape(self) -> shapely.Geometry:
        import shapely.geometry

        return shapely.geometry.shape(self.geometry)


def polygon_geometry(rings: Sequence[Ring]) -> dict[str, Any]:
    """A GeoJSON Polygon from closed rings, wound as RFC 7946 asks: the outer ring
    counter-clockwise, holes clockwise (x right, y up)."""
    wound = [ring if (_signed_area(ring) > 0) == (index == 0) else ring[::-1] for index, ring in enumerate(rings)]
    return {"type": "Polygon", "coordinates": [[list(p) for p in ring] for ring in wound]}


def _signed_area(ring: Sequence[Sequence[float]]) -> float:
    """Twice the signed area of a closed ring: positive when it runs counter-clockwise."""
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:]))


@dataclass
class Layout:
    """A board: spaces, extra features and metadata.

    ``meta`` is the GeoJSON ``coinprint`` member: ``format``, ``game``, ``units``,
    ``generator``, ``seed``, ``params`` (and anything else a generator records).
    """

    game: str
    spaces: list[Space]
    features: list[Feature] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    read_problems: list[str] = field(default_factory=list, compare=False)
    """Problems found while reading a file (a space without a polygon, …); checkers report them."""

    def __post_init__(self) -> None:
        self.meta = {
            "format": FORMAT_VERSION,
            "game": self.game,
            "units": "mm",
            "generator": f"coinprint {__version__}",
            **self.meta,
        }
        self.meta["game"] = self.game

    # -- looking things up ------------------------------------------------------------------
    @cached_property
    def _by_id(self) -> dict[str, Space]:
        return {space.id: space for space in self.spaces}

    @cached_property
    def _by_name(self) -> dict[str, Space]:
        return {space.name.lower(): space for space in self.spaces}

    def space(self, key: str) -> Space:
        """The space whose id or label is ``key`` (labels case-insensitively); KeyError if none."""
        if key in self._by_id:
            return self._by_id[key]
        return self._by_name[key.lower()]

    def __iter__(self) -> Iterator[Space]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def features_with_role(self, role: str) -> list[Feature]:
        return [f for f in self.features if f.role == role]

    @property
    def params(self) -> dict[str, Any]:
        return self.meta.get("params", {})

    # -- geometry -----------------------------------------------------------------------------
    @cached_property
    def graph(self) -> networkx.Graph:
        """Adjacency graph over space ids; edge attribute ``border_mm`` is the shared length."""
        import networkx

        graph = networkx.Graph()
        for space in self.spaces:
            graph.add_node(space.id, label=space.name, region=space.region)
        for a, b, length in shared_borders(self.spaces):
            graph.add_edge(a, b, border_mm=length)
        return graph

    def adjacent(self, a: str, b: str) -> bool:
        return self.graph.has_edge(self.space(a).id, self.space(b).id)

    def neighbours(self, key: str) -> list[str]:
        """Ids of the spaces adjacent to space ``key``, in layout order."""
        own = self.space(key).id
        near = set(self.graph.neighbors(own))
        return [s.id for s in self.spaces if s.id in near]

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """(minx, miny, maxx, maxy) over every space and feature, in mm."""
        import shapely

        shapes = [s.polygon for s in self.spaces] + [f.shape for f in self.features]
        if not shapes:
            return (0.0, 0.0, 0.0, 0.0)
        minx, miny, maxx, maxy = shapely.total_bounds(shapes).tolist()
        return (minx, miny, maxx, maxy)

    # -- GeoJSON --------------------------------------------------------------------------------
    def to_geojson(self) -> dict[str, Any]:
        features = [_space_feature(space) for space in self.spaces]
        features += [
            {
                "type": "Feature",
                "id": f.id,
                "geometry": f.geometry,
                "properties": {"role": f.role, **f.properties},
            }
            for f in self.features
        ]
        return {"type": "FeatureCollection", "coinprint": self.meta, "features": features}

    def dumps(self) -> str:
        """The layout as GeoJSON text: stable key order, one feature per line."""
        doc = self.to_geojson()
        head = json.dumps({k: v for k, v in doc.items() if k != "features"}, ensure_ascii=False)
        lines = [json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in doc["features"]]
        return head[:-1] + ', "features": [\n' + ",\n".join(lines) + "\n]}\n"

    def _repr_svg_(self) -> str:
        """Jupyter shows a layout as its board drawing."""
        from coinprint.render.board import layout_scene
        from coinprint.render.svg import scene_to_svg

        return scene_to_svg(layout_scene(self)).decode("utf-8")


def _space_feature(space: Space) -> dict[str, Any]:
    props: dict[str, Any] = {"role": "space"}
    for key in ("label", "region", "order", "start"):
        value = getattr(space, key)
        if value is not None:
            props[key] = value
    props.update(space.properties)
    return {"type": "Feature", "id": space.id, "geometry": polygon_geometry(space.rings), "properties": props}


def shared_borders(spaces: Sequence[Space]) -> Iterator[tuple[str, str, float]]:
    """Pairs of spaces whose boundaries share more than MIN_BORDER_MM, with that length."""
    import shapely

    polygons = [s.polygon for s in spaces]
    valid = [bool(p.is_valid) and not p.is_empty for p in polygons]
    tree = shapely.STRtree(polygons)
    left, right = tree.query(polygons, predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist()):
        if i >= j or not (valid[i] and valid[j]):
            continue
        common = polygons[i].boundary.intersection(polygons[j].boundary)
        length = float(common.length)
        if length > MIN_BORDER_MM:
            yield spaces[i].id, spaces[j].id, round(length, 3)


# -- reading --------------------------------------------------------------------------------------
def loads(text: str, *, source: str = "layout") -> Layout:
    """Read a layout from GeoJSON text. Raises :class:`UnreadableInputError` when the text is
    not JSON or not a coinprint layout at all; smaller faults go to ``read_problems``."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableInputError(f"{source} is not JSON: {exc.msg} at line {exc.lineno}") from None
    return from_geojson(doc, source=source)


def load(path: str) -> Layout:
    """Read a layout from a GeoJSON file (see :func:`loads`)."""
    from coinprint.fileio import read_text

    return loads(read_text(path), source=path)


def from_geojson(doc: Any, *, source: str = "layout") -> Layout:
    """Build a layout from a parsed GeoJSON ``FeatureCollection`` (see :func:`loads`)."""
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        raise UnreadableInputError(f"{source} is not a GeoJSON FeatureCollection")
    meta = doc.get("coinprint")
    if not isinstance(meta, dict) or not isinstance(meta.get("game"), str):
        raise UnreadableInputError(
            f'{source} is GeoJSON but not a coinprint layout: it needs a "coinprint" member naming the game'
        )
    raw_features = doc.get("features")
    if not isinstance(raw_features, list):
        raise UnreadableInputError(f'{source}: "features" must be a list')
    layout = Layout(game=meta["game"], spaces=[], meta=dict(meta))
    for index, raw in enumerate(raw_features):
        _read_feature(layout, raw, index)
    return layout


def _read_feature(layout: Layout, raw: Any, index: int) -> None:
    problems = layout.read_problems
    if not isinstance(raw, dict) or raw.get("type") != "Feature":
        problems.append(f"feature #{index + 1}: not a GeoJSON Feature")
        return
    fid = raw.get("id")
    props = raw.get("properties") or {}
    geometry = raw.get("geometry")
    if not isinstance(props, dict):
        problems.append(f"feature #{index + 1}: properties must be an object")
        return
    if fid is None:
        problems.append(f"feature #{index + 1}: has no id")
        fid = f"#{index + 1}"
    fid = str(fid)
    props = dict(props)
    role = props.pop("role", None)
    if role != "space":
        if not isinstance(geometry, dict):
            problems.append(f"{fid}: has no geometry")
            return
        layout.features.append(Feature(fid, str(role or "unknown"), geometry, props))
        return
    rings = _polygon_rings(geometry)
    if rings is None:
        problems.append(f"{fid}: a space needs a Polygon geometry with at least 3 corners")
        return
    fields = {key: props.pop(key, None) for key in ("label", "region", "order", "start")}
    if fields["label"] is not None:
        fields["label"] = str(fields["label"])
    if fields["order"] is not None and not isinstance(fields["order"], int):
        problems.append(f"{fid}: order must be a whole number, not {fields['order']!r}")
        fields["order"] = None
    layout.spaces.append(Space(fid, rings, properties=props, **fields))


def _polygon_rings(geometry: Any) -> tuple[Ring, ...] | None:
    if not isinstance(geometry, dict) or geometry.get("type") != "Polygon":
        return None
    coords = geometry.get("coordinates")
    if not isinstance(coords, (list, tuple)):
        return None
    try:
        rings = tuple(close_ring(ring) for ring in coords)
    except (TypeError, ValueError, IndexError):
        return None
    if not rings or len(rings[0]) < 4 or any(not all(map(math.isfinite, p)) for r in rings for p in r):
        return None
    return rings


@dataclass(frozen=True)
class Mark:
    """Something on a space in a picture of a position, as a rules engine describes it.

    ``space`` is the id of the space the coin is on (on a board without spaces, such as a
    Flick mat, the id of the feature it is in, e.g. ``goal``, or "" for off the board).
    Renderers draw marks without knowing the rules: ``text`` is printed on a coin drawn in
    ``side``'s colour (``side`` is a player name, or "" for a neutral coin); ``stack`` coins
    sit there; ``ring`` draws a ring around the space's coin (a castle, a safe coin, …).
    """

    space: str
    text: str = ""
    side: str = ""
    stack: int = 1
    ring: str = ""
    """A short word for what the ring means ("castle", "safe"), or "" for no ring."""
