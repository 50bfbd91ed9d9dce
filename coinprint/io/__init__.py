"""Reading boards people draw: SVG drawings, GeoJSON from QGIS, geojson.io or GDAL, and
coinprint's own GeoJSON, each into a :class:`coinprint.layout.Layout`.

Conventions for drawings and foreign GeoJSON (``docs/formats.md``, "Reading drawings"):

- every closed shape is a space, named by its ``inkscape:label``, else its ``id``;
- Coin Age: a space's region is the name of its nearest enclosing group (or layer);
- Map: a country's name is its number in drawing order (1 = the first shape drawn);
- a shape named ``card`` or ``outline`` is the card or map outline, not a space;
- text, open paths, hidden layers and ``<defs>`` are ignored and counted.

coinprint's own GeoJSON is read by :func:`coinprint.layout.from_geojson` unchanged.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coinprint.errors import UnreadableInputError, UsageError
from coinprint.layout import Feature, Layout, Space, close_ring, from_geojson, polygon_geometry

GAMES_READ = ("cointable", "coinage", "mapgame")
"""Games whose boards can be drawn: Flick mats have no spaces and are read only as coinprint GeoJSON."""
UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}
OUTLINE_NAMES = ("card", "outline")
MAP_PLAYERS = ("O", "X")
SNAP_MM = 0.005
"""Corners of different shapes closer than this are one corner (editors' rounding noise)."""


@dataclass
class ReadLayout:
    """A layout read from a file, and notes on what was left out of it ("2 text objects ignored")."""

    layout: Layout
    notes: list[str] = field(default_factory=list)


def read_layout(path: str | Path, *, game: str | None = None, units: str = "mm") -> ReadLayout:
    """The layout in the file at ``path``: SVG, foreign GeoJSON or coinprint GeoJSON.

    ``game`` says which game a drawing or foreign GeoJSON is for (a coinprint layout names
    its own; a different ``game`` is a usage error). ``units`` is the length unit of foreign
    GeoJSON coordinates (mm, cm or in). Raises :class:`UnreadableInputError` or
    :class:`UsageError` with one line when the file cannot be had.
    """
    from coinprint.fileio import read_bytes

    data = read_bytes(path)
    return parse_layout(data, source=str(path), game=game, units=units)


def parse_layout(data: bytes, *, source: str, game: str | None = None, units: str = "mm") -> ReadLayout:
    """Like :func:`read_layout`, for the bytes of a file called ``source``."""
    if units not in UNIT_MM:
        raise UsageError(f"unknown --units '{units}'; use mm, cm or in")
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") or source.lower().endswith(".svg"):
        return _from_svg(data, source, game)
    from coinprint.fileio import parse_json

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableInputError(f"{source} is neither SVG nor GeoJSON: it is not UTF-8 text") from None
    doc = parse_json(text, source=source)  # under the JSON caps: depth, digits, NaN, lone surrogates
    if isinstance(doc, dict) and "coinprint" in doc:
        layout = from_geojson(doc, source=source)
        if game is not None and layout.game != game:
            raise UsageError(f"{source} is a {layout.game} layout, not {game}")
        return ReadLayout(layout)
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection" or not isinstance(doc.get("features"), list):
        raise UnreadableInputError(f"{source} is JSON but not a GeoJSON FeatureCollection")
    if game is None:
        raise UnreadableInputError(
            f'{source} is GeoJSON but not a coinprint layout (it has no "coinprint" member naming the game); '
            f"give --game ({', '.join(GAMES_READ)}) to read it as a drawing"
        )
    return _from_foreign_geojson(doc, source, _need_game(game, source), UNIT_MM[units])


def _need_game(game: str | None, source: str) -> str:
    if game is None:
        raise UsageError(f"{source} does not say which game it is for; give --game ({', '.join(GAMES_READ)})")
    if game not in GAMES_READ:
        raise UsageError(f"a drawing can be read for {', '.join(GAMES_READ)}, not {game}")
    return game


# -- SVG ----------------------------------------------------------------------------------------------------
def _from_svg(data: bytes, source: str, game: str | None) -> ReadLayout:
    from coinprint.io.svg import read_svg

    game = _need_game(game, source)
    drawing = read_svg(data, source=source)
    pieces = [_Piece(shape.name, shape.rings, shape.group, shape.problem) for shape in drawing.shapes]
    if not pieces:
        found = ", ".join(f"{n} {kind}" for kind, n in drawing.ignored.items()) or "nothing at all"
        raise UnreadableInputError(f"{source} has no closed shape to read as a space (found {found})")
    layout = _assemble(game, pieces, source, {"source": "svg"})
    notes = [f"ignored {count} {kind}" for kind, count in drawing.ignored.items()]
    return ReadLayout(layout, notes)


# -- foreign GeoJSON ------------------------------------------------------------------------------------------
def _from_foreign_geojson(doc: Any, source: str, game: str, scale: float) -> ReadLayout:
    from coinprint.caps import MAX_GEOJSON_FEATURES

    features = doc["features"]
    if len(features) > MAX_GEOJSON_FEATURES:
        raise UnreadableInputError(
            f"{source} has {len(features):,} features; the cap MAX_GEOJSON_FEATURES is {MAX_GEOJSON_FEATURES:,}"
        )
    pieces: list[_Piece] = []
    skipped: dict[str, int] = {}
    for index, raw in enumerate(features):
        piece = _foreign_piece(raw, index, scale)
        if isinstance(piece, str):
            skipped[piece] = skipped.get(piece, 0) + 1
        else:
            pieces.append(piece)
    if not pieces:
        raise UnreadableInputError(f"{source} has no Polygon feature to read as a space")
    _refuse_degrees(doc, pieces, source)
    layout = _assemble(game, pieces, source, {"source": "geojson"})
    return ReadLayout(layout, [f"ignored {count} {kind}" for kind, count in skipped.items()])


def _foreign_piece(raw: Any, index: int, scale: float) -> _Piece | str:
    if not isinstance(raw, dict) or raw.get("type") != "Feature":
        return "entries that are not GeoJSON Features"
    given = raw.get("properties")
    props: dict[str, Any] = given if isinstance(given, dict) else {}
    name = next(
        (str(props[k]) for k in ("label", "name", "id") if props.get(k) not in (None, "")),
        str(raw["id"]) if raw.get("id") is not None else f"#{index + 1}",
    )
    geometry = raw.get("geometry")
    if not isinstance(geometry, dict):
        return "features without geometry"
    kind, coords = geometry.get("type"), geometry.get("coordinates")
    problem = None
    if kind == "MultiPolygon" and isinstance(coords, list) and len(coords) == 1:
        kind, coords = "Polygon", coords[0]
    elif kind == "MultiPolygon" and isinstance(coords, list) and coords:
        problem, kind, coords = (
            f"is a MultiPolygon of {len(coords)} pieces; a space must be one piece",
            "Polygon",
            coords[0],
        )
    if kind != "Polygon":
        return f"{kind or 'unknown'} features (only Polygons are spaces)"
    if not isinstance(coords, list):
        return "polygons with unreadable coordinates"
    try:
        rings = tuple(tuple((float(p[0]) * scale, float(p[1]) * scale) for p in ring) for ring in coords)
    except (TypeError, ValueError, IndexError):
        return "polygons with unreadable coordinates"
    if not rings or len(rings[0]) < 3 or not all(math.isfinite(v) for r in rings for p in r for v in p):
        return "polygons with fewer than 3 corners or non-finite coordinates"
    region = props.get("region")
    order = props.get("order")
    return _Piece(
        name,
        rings,
        None if region is None else str(region),
        problem,
        order=order if isinstance(order, int) and not isinstance(order, bool) else None,
        start=str(props["start"]) if props.get("start") is not None else None,
    )


def _refuse_degrees(doc: dict[str, Any], pieces: list[_Piece], source: str) -> None:
    """Refuse a map in longitude/latitude: a board is drawn in lengths, not on the globe."""
    crs = json.dumps(doc.get("crs", "")).lower()
    named_geographic = any(code in crs for code in ("crs84", "epsg::4326", "epsg:4326", "4326"))
    xs = [p[0] for piece in pieces for ring in piece.rings for p in ring]
    ys = [p[1] for piece in pieces for ring in piece.rings for p in ring]
    small = max(xs) - min(xs) < 5 and max(ys) - min(ys) < 5
    in_range = all(-180 <= x <= 180 for x in xs) and all(-90 <= y <= 90 for y in ys)
    if named_geographic or (small and in_range and any(x % 1 or y % 1 for x, y in zip(xs, ys))):
        raise UnreadableInputError(
            f"{source} looks like longitude/latitude (the whole board spans {max(xs) - min(xs):.4g} × "
            f"{max(ys) - min(ys):.4g} units{' and its crs is geographic' if named_geographic else ''}); "
            "draw the board in a projected, unitless CRS whose units are mm (or give --units cm|in)"
        )


# -- assembling a layout -----------------------------------------------------------------------------------
@dataclass
class _Piece:
    name: str
    rings: tuple[tuple[tuple[float, float], ...], ...]
    group: str | None
    problem: str | None = None
    order: int | None = None
    start: str | None = None


def _assemble(game: str, pieces: list[_Piece], source: str, meta: dict[str, Any]) -> Layout:
    """A layout of ``game`` from named shapes by the reading conventions."""
    layout = Layout(game, [], meta={"params": {"source": meta["source"]}})
    outlines = [p for p in pieces if p.name.lower() in OUTLINE_NAMES]
    for piece in outlines:
        role = "card" if game == "coinage" else "outline"
        layout.features.append(Feature(role, role, polygon_geometry([close_ring(r) for r in piece.rings])))
    _snap(pieces)
    spaces = [p for p in pieces if p.name.lower() not in OUTLINE_NAMES]
    if game == "mapgame":
        _number_countries(spaces)
    seen: dict[str, int] = {}
    for piece in spaces:
        # Ids stay unique; a name drawn twice is reported by the check as a duplicate label.
        seen[piece.name] = seen.get(piece.name, 0) + 1
        sid = piece.name if seen[piece.name] == 1 else f"{piece.name} ({seen[piece.name]})"
        if piece.problem:
            layout.read_problems.append(f"{piece.name}: {piece.problem}")
        rings = tuple(close_ring(ring) for ring in piece.rings)
        region = piece.group if game == "coinage" else None
        layout.spaces.append(Space(sid, rings, label=piece.name, region=region, order=piece.order, start=piece.start))
    if not layout.spaces:
        raise UnreadableInputError(f"{source} has only an outline and no space")
    return layout


def _snap(pieces: list[_Piece], distance: float = SNAP_MM) -> None:
    """Make corners that are meant to be one point exactly one point: editors write
    relative coordinates whose rounding leaves a shared corner a few µm apart in the two
    shapes that share it, and shared borders must match exactly."""
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for piece in pieces:
        rings = []
        for ring in piece.rings:
            snapped: list[tuple[float, float]] = []
            for x, y in ring:
                cx, cy = math.floor(x / distance), math.floor(y / distance)
                near = (
                    q
                    for dx in (-1, 0, 1)
                    for dy in (-1, 0, 1)
                    for q in cells.get((cx + dx, cy + dy), ())
                    if abs(q[0] - x) <= distance and abs(q[1] - y) <= distance
                )
                point = next(near, None)
                if point is None:
                    point = (x, y)
                    cells.setdefault((cx, cy), []).append(point)
                if not snapped or snapped[-1] != point:
                    snapped.append(point)
            rings.append(tuple(snapped))
        piece.rings = tuple(rings)


def _number_countries(pieces: list[_Piece]) -> None:
    """Map countries are named by their number in drawing order; O starts in country N-1,
    X in country N, unless the file says otherwise."""
    if any(p.order is None for p in pieces):
        for number, piece in enumerate(pieces, start=1):
            piece.order = number
    pieces.sort(key=lambda p: p.order or 0)
    for piece in pieces:
        piece.name = str(piece.order)
    if not any(p.start for p in pieces) and len(pieces) >= 2:
        pieces[-2].start, pieces[-1].start = MAP_PLAYERS
