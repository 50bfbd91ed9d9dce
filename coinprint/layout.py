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
from coinprint.caps import MAX_COORDINATE_MM, MAX_FEATURES, MAX_SPACE_POINTS, MAX_TEXT_CHARS, MAX_VERTICES
from coinprint.errors import UnknownSpaceError, UnreadableInputError
from coinprint.fileio import parse_json, read_text
from coinprint.spatial import boundary_contact_pairs

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


@dataclass(frozen=True)
class SourceFrame:
    """Where a layout read from a drawing came from: the drawing's own unit and which way
    its y axis runs, so a message can say where a problem is as the designer sees it."""

    unit: str
    mm_per_unit: float
    page_top_mm: float | None = None
    """An SVG page's height in mm (its y runs down from the top); None: y runs up."""
    origin_mm: tuple[float, float] = (0.0, 0.0)
    """Where the layout's (0, 0) lies in the file, in mm: a map far from its CRS's origin is
    moved to a local origin on reading, and places are said where the file has them."""

    def place(self, x: float, y: float) -> str:
        """``(x, y)`` in the drawing's unit: ``(12.5, 40.2) mm``."""
        if self.origin_mm != (0.0, 0.0):
            x, y = x + self.origin_mm[0], y + self.origin_mm[1]
        if self.page_top_mm is not None:
            y = self.page_top_mm - y
        return f"({x / self.mm_per_unit:.1f}, {y / self.mm_per_unit:.1f}) {self.unit}"


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
    source_frame: SourceFrame | None = field(default=None, compare=False)
    """The drawing a layout was read from, for places in messages; None: places in layout mm."""

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
        """The space whose id or label is ``key`` (labels case-insensitively); if none,
        :class:`UnknownSpaceError` (a KeyError too)."""

        if not isinstance(key, str):
            raise UnknownSpaceError(f"a space is named by text, not {type(key).__name__}")
        found = self._by_id.get(key)
        if found is None:
            found = self._by_name.get(key.lower())
        if found is None:
            shown = key if len(key) <= 40 else key[:40] + "…"
            raise UnknownSpaceError(f"the layout has no space {shown!r}")
        return found

    def __iter__(self) -> Iterator[Space]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def features_with_role(self, role: str) -> list[Feature]:
        return [f for f in self.features if f.role == role]

    @property
    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = self.meta.get("params", {})
        return params

    # -- geometry -----------------------------------------------------------------------------
    @cached_property
    def space_borders(self) -> tuple[tuple[str, str, float], ...]:
        """Each pair of spaces sharing a border, with its length (:func:`shared_borders`),
        found once for :attr:`adjacency` and :attr:`graph` alike."""
        return tuple(shared_borders(self.spaces))

    @cached_property
    def adjacency(self) -> dict[str, dict[str, float]]:
        """Each space's neighbours (id → the shared border's length in mm), spaces in layout
        order and each one's neighbours in the order their borders were found: the same
        order :attr:`graph` keeps, without importing networkx (printing needs no more)."""
        found: dict[str, dict[str, float]] = {space.id: {} for space in self.spaces}
        for a, b, length in self.space_borders:
            found[a][b] = length
            found[b][a] = length
        return found

    def border_pairs(self) -> Iterator[tuple[str, str]]:
        """Each pair of neighbours once, in the order :attr:`graph`'s edges run."""
        seen: set[str] = set()
        for node, near in self.adjacency.items():
            for other in near:
                if other not in seen:
                    yield node, other
            seen.add(node)

    @cached_property
    def graph(self) -> networkx.Graph:
        """Adjacency graph over space ids; edge attribute ``border_mm`` is the shared length."""
        import networkx

        graph = networkx.Graph()
        for space in self.spaces:
            graph.add_node(space.id, label=space.name, region=space.region)
        for a, b, length in self.space_borders:
            graph.add_edge(a, b, border_mm=length)
        return graph

    def adjacent(self, a: str, b: str) -> bool:
        return self.space(b).id in self.adjacency[self.space(a).id]

    def neighbours(self, key: str) -> list[str]:
        """Ids of the spaces adjacent to space ``key``, in layout order."""
        near = self.adjacency[self.space(key).id]
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
        from coinprint.render.board import layout_svg

        return layout_svg(self)


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

    polygons = [s.polygon for s in spaces]
    valid = [bool(p.is_valid) and not p.is_empty for p in polygons]
    # Candidates from an index of boundary segments: spaces that only meet at a corner are
    # never paired, so a thousand wedges meeting at one point cost no more than a grid.
    for i, j in sorted(boundary_contact_pairs(polygons)):
        if not (valid[i] and valid[j]):
            continue
        common = polygons[i].boundary.intersection(polygons[j].boundary)
        length = float(common.length)
        if length > MIN_BORDER_MM:
            yield spaces[i].id, spaces[j].id, round(length, 3)


# -- reading --------------------------------------------------------------------------------------
# Property types, checked when a layout is read so that no later layer meets a wrong type.
# A property of the wrong type is reported as a problem and dropped.
_NUMBER = (int, float)
PROPERTY_TYPES: dict[str, tuple[type, ...]] = {
    "player": (str,),
    "face": (str,),
    "coin": (str,),
    "side": (int,),
    "seat": _NUMBER,
    "sides": (int,),
    "coins": (int,),
    "size": (str,),
    "color": (int,),
    "region_size": (int,),
    "drawn_by": (str,),
    "spots": (list,),
    "center": (list,),
}
"""Types allowed for the feature properties coinprint reads (others are kept as they are)."""
POINT_PROPERTIES = {"center": 0, "spots": 1}
"""Properties that hold a point (0) or a list of points (1), in mm."""
PARAM_TYPES: dict[str, tuple[type, ...]] = {
    "hex_mm": _NUMBER,
    "width_mm": _NUMBER,
    "size": (int,),
    "sides": (int,),
    "countries": (int,),
    "coin": (str,),
    "score_coin": (str,),
    "goal_coin": (str,),
    "map": (str,),
    "card": (str,),
}
"""Types allowed for the ``coinprint.params`` entries coinprint reads."""
GEOMETRY_TYPES = ("Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon")
_NESTING = {"Point": 0, "MultiPoint": 1, "LineString": 1, "MultiLineString": 2, "Polygon": 2, "MultiPolygon": 3}


def loads(text: str, *, source: str = "layout") -> Layout:
    """Read a layout from GeoJSON text. Raises :class:`UnreadableInputError` when the text is
    not JSON or not a coinprint layout at all, or breaks a cap (``coinprint.caps``); smaller
    faults go to ``read_problems``."""

    return from_geojson(parse_json(text, source=source), source=source)


def load(path: str) -> Layout:
    """Read a layout from a GeoJSON file (see :func:`loads`)."""

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
    if bad_text(meta["game"]):
        raise UnreadableInputError(f'{source}: "coinprint.game" {bad_text(meta["game"])}')
    params = meta.get("params", {})
    if not isinstance(params, dict):
        raise UnreadableInputError(f'{source}: "coinprint.params" must be an object, not {_kind(params)}')
    raw_features = doc.get("features")
    if not isinstance(raw_features, list):
        raise UnreadableInputError(f'{source}: "features" must be a list')
    if len(raw_features) > MAX_FEATURES:
        raise UnreadableInputError(
            f"{source} has {len(raw_features):,} features, over the {MAX_FEATURES:,}-feature cap"
        )
    layout = Layout(game=meta["game"], spaces=[], meta=dict(meta))
    layout.meta["params"] = _typed(params, PARAM_TYPES, "coinprint.params", layout.read_problems)
    if not params and "params" not in meta:
        del layout.meta["params"]
    budget = MAX_VERTICES
    for index, raw in enumerate(raw_features):
        budget -= _read_feature(layout, raw, index, budget, source)
        if budget < 0:
            raise UnreadableInputError(
                f"{source} has more than {MAX_VERTICES:,} coordinate points, over the {MAX_VERTICES:,}-point cap"
            )
    return layout


def bad_text(text: str) -> str | None:
    """Why ``text`` cannot be an id, label, region or role (None when it can): too long, or
    holding characters that are not allowed in XML or print as nothing (controls, U+FFFE)."""

    if len(text) > MAX_TEXT_CHARS:
        return f"is {len(text):,} characters long, over the {MAX_TEXT_CHARS}-character cap"
    for char in text:
        code = ord(char)
        if code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000 or code in (0xFFFE, 0xFFFF):
            return f"holds the character U+{code:04X}, which is not allowed"
    return None


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _typed(
    values: dict[str, Any], types: dict[str, tuple[type, ...]], where: str, problems: list[str]
) -> dict[str, Any]:
    """``values`` without the entries whose type is wrong (each reported in ``problems``)."""
    kept = {}
    for key, value in values.items():
        allowed = types.get(key)
        if allowed is not None and (
            isinstance(value, bool)
            or not isinstance(value, allowed)
            or (isinstance(value, str) and bad_text(value))
            or (key in POINT_PROPERTIES and _points_problem(value, POINT_PROPERTIES[key]))
        ):
            names = {int: "a whole number", float: "a number", str: "text", list: "a list"}
            wanted = " or ".join(names.get(t, t.__name__) for t in allowed)
            if key in POINT_PROPERTIES:
                wanted = ["a point [x, y]", "a list of points [x, y]"][POINT_PROPERTIES[key]]
            problems.append(f"{where}: {key} must be {wanted}, not {_shown_value(value)}")
            continue
        kept[key] = value
    return kept


def _shown_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:30] + "…"


def _read_feature(layout: Layout, raw: Any, index: int, budget: int, source: str = "layout") -> int:
    """Add one feature to ``layout`` (or a problem); returns how many points it has (more
    than ``budget`` means it has too many and was not read)."""
    problems = layout.read_problems
    if not isinstance(raw, dict) or raw.get("type") != "Feature":
        problems.append(f"feature #{index + 1}: not a GeoJSON Feature")
        return 0
    fid = raw.get("id")
    props = raw.get("properties") or {}
    geometry = raw.get("geometry")
    if not isinstance(props, dict):
        problems.append(f"feature #{index + 1}: properties must be an object")
        return 0
    # GDAL writes every field on every feature (null where empty) and keeps a text id as a
    # field ``id`` when it passes through a format without text ids (GeoPackage, Shapefile).
    props = {key: value for key, value in props.items() if value is not None}
    if fid is None and isinstance(props.get("id"), (str, int)) and not isinstance(props.get("id"), bool):
        fid = props.pop("id")
    if fid is None:
        problems.append(f"feature #{index + 1}: has no id")
        fid = f"#{index + 1}"
    elif isinstance(fid, bool) or not isinstance(fid, (str, int)):
        problems.append(f"feature #{index + 1}: the id must be text or a whole number, not {_kind(fid)}")
        return 0
    fid = str(fid)
    why = bad_text(fid)
    if why:
        problems.append(f"feature #{index + 1}: the id {why}")
        return 0
    props = dict(props)
    role = props.pop("role", None)
    if role is not None and (not isinstance(role, str) or bad_text(role)):
        problems.append(f"{fid}: role must be text such as space, card or goal, not {_shown_value(role)}")
        return 0
    props = _typed(props, PROPERTY_TYPES, fid, problems)
    points, why = geometry_points(geometry, min(budget, MAX_SPACE_POINTS))
    if points > MAX_SPACE_POINTS:
        # Counted before any geometry is built: such a shape would take minutes to check.
        raise UnreadableInputError(
            f"{source}: {fid} has more than {MAX_SPACE_POINTS:,} points, over the {MAX_SPACE_POINTS:,}-point cap "
            "for one feature; simplify it (a board needs a few hundred)"
        )
    if points > budget:
        return points
    if why:
        problems.append(f"{fid}: {why}")
        return points
    if role != "space":
        assert isinstance(geometry, dict)  # geometry_points found no problem with it
        feature = Feature(fid, str(role or "unknown"), geometry, props)
        try:
            empty = feature.shape.is_empty  # shapely refuses, e.g., a line of one point
        except Exception as exc:  # shapely raises ValueError, TypeError or GEOSException
            problems.append(f"{fid}: the geometry cannot be read ({' '.join(str(exc).split())})")
            return points
        if empty:
            problems.append(f"{fid}: the geometry is empty")
            return points
        layout.features.append(feature)
        return points
    rings = _polygon_rings(geometry)
    if rings is None:
        problems.append(f"{fid}: a space needs a Polygon geometry with at least 3 corners")
        return points
    fields = {key: props.pop(key, None) for key in ("label", "region", "order", "start")}
    for key in ("label", "region", "start"):
        value = fields[key]
        if value is None:
            continue
        if isinstance(value, int) and not isinstance(value, bool) and key != "start":
            value = fields[key] = str(value)
        if not isinstance(value, str) or bad_text(value):
            reason = bad_text(value) if isinstance(value, str) else f"must be text, not {_shown_value(value)}"
            problems.append(f"{fid}: {key} {reason}")
            fields[key] = None
    if fields["order"] is not None and (isinstance(fields["order"], bool) or not isinstance(fields["order"], int)):
        problems.append(f"{fid}: order must be a whole number, not {_shown_value(fields['order'])}")
        fields["order"] = None
    layout.spaces.append(Space(fid, rings, properties=props, **fields))
    return points


def geometry_points(geometry: Any, budget: int) -> tuple[int, str | None]:
    """How many points a GeoJSON geometry has, and why it cannot be used (None if it can):
    a known type, coordinates nested as the type says, every point two or three finite
    numbers within ``MAX_COORDINATE_MM``. A GeometryCollection is not allowed. Counting
    stops once past ``budget`` points."""
    if not isinstance(geometry, dict):
        return 0, "has no geometry"
    kind = geometry.get("type")
    if kind not in GEOMETRY_TYPES:
        return 0, f"the geometry type {_shown_value(kind)} is not one of {', '.join(GEOMETRY_TYPES)}"
    coords = geometry.get("coordinates")
    count = 0
    stack: list[tuple[Any, int]] = [(coords, _NESTING[kind])]
    while stack:
        value, depth = stack.pop()
        if depth == 0:
            why = _point_problem(value)
            if why:
                return count, f"the {kind} geometry has a bad point: {why}"
            count += 1
            if count > budget:
                return count, None
            continue
        if not isinstance(value, (list, tuple)):
            return count, f"the {kind} geometry's coordinates are not nested as GeoJSON says"
        stack.extend((item, depth - 1) for item in value)
    return count, None


def _point_problem(value: Any) -> str | None:
    if type(value) is list and len(value) == 2:  # the common case, checked fast
        x, y = value
        if type(x) is float and type(y) is float and -MAX_COORDINATE_MM <= x <= MAX_COORDINATE_MM:
            if -MAX_COORDINATE_MM <= y <= MAX_COORDINATE_MM:
                return None
    if not isinstance(value, (list, tuple)) or len(value) not in (2, 3):
        return f"{_shown_value(value)} is not [x, y]"
    for number in value:
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            return f"{_shown_value(number)} is not a number"
        if not -MAX_COORDINATE_MM <= number <= MAX_COORDINATE_MM:  # False for NaN too
            return f"{_shown_value(number)} is over the {MAX_COORDINATE_MM:,.0f} mm coordinate cap"
    return None


def _points_problem(value: Any, nesting: int) -> str | None:
    if nesting == 0:
        return _point_problem(value)
    if not isinstance(value, list) or len(value) > 10_000:
        return "not a list of points"
    return next((why for item in value if (why := _point_problem(item))), None)


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
    if not rings or len(rings[0]) < 4 or any(len(ring) < 4 for ring in rings):
        return None
    if any(not all(map(math.isfinite, p)) for r in rings for p in r):
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
    at: tuple[float, float] | None = None
    """Where the coin's centre lies, in mm in the layout's frame, on a board where coins lie
    anywhere (a Flick mat: where the physics left it); None where the space says where."""
