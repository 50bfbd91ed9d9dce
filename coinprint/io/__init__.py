"""Reading boards people draw: SVG drawings, GeoJSON from QGIS, geojson.io or GDAL, and
coinprint's own GeoJSON, each into a :class:`coinprint.layout.Layout`.

Conventions for drawings and foreign GeoJSON (``docs/formats.md``, "Reading drawings"):

- every closed shape is a space, named by its ``inkscape:label``, else its ``<title>``, else
  an id the designer gave (not ``path12``), else the text drawn inside it;
- Coin Age: a space's region is the name of its nearest named enclosing group (or layer),
  but a layer holding named groups of spaces is none;
- a drawing that lost its labels to a plain or optimised save (a Coin Age drawing without any
  name; in any game, an unnamed shape holding every other, the card or outline) is refused
  in one line, exit 1;
- Map: a country's name is its number in drawing order (1 = the first shape drawn);
- a shape named ``card`` or ``outline`` is the card or map outline, not a space;
- clones are shapes in their own place; open paths, hidden shapes, images, ``<defs>``,
  lettering and unnamed guides inside spaces are ignored and counted;
- LibreOffice Draw's export is read one space per shape (:mod:`coinprint.io.libreoffice`);
- a drawn board is called by its file's name (``meta["name"]``);
- borders meant to be shared are joined (:func:`join_borders`).

coinprint's own GeoJSON is read by :func:`coinprint.layout.from_geojson` unchanged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coinprint.caps import (
    DEFAULT_TOLERANCE_MM,
    MAX_COORDINATE_MM,
    MAX_FEATURES,
    MAX_GEOJSON_FEATURES,
    MAX_SPACE_NUMBERS,
    MAX_SPACE_POINTS,
    MAX_TEXT_CHARS,
)
from coinprint.errors import InvalidInputError, UnreadableInputError, UsageError
from coinprint.fileio import parse_json
from coinprint.io.svg import DECORATION_SLACK_MM, OUTLINE_NAMES, SIMPLIFY_MM, read_svg, within_point_cap
from coinprint.layout import (
    Feature,
    Layout,
    SourceFrame,
    Space,
    bad_text,
    close_ring,
    from_geojson,
    polygon_geometry,
)
from coinprint.units import CARD_SIZES, PAPER_SIZES

"""Games whose boards can be drawn: Flick mats have no spaces and are read only as coinprint GeoJSON."""
UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "m": 1000.0}
MAP_PLAYERS = ("O", "X")
SNAP_MM = 0.005
"""Corners of different shapes closer than this are one corner (editors' rounding noise),
however small the tolerance."""
JOIN_MM = 0.02
"""Points of different shapes this close, or this close to the other's side, are one point
on one border: a corner at a T-junction, points of two shapes flattened from one curve
(a curve is flattened to within a few µm)."""
CORNER_DEGREES = 15.0
"""A point where the outline turns more than this is a corner, joined within the tolerance."""
UTF16_STARTS = (
    b"\xff\xfe<\x00",
    b"\xfe\xff\x00<",
    b"<\x00?\x00",
    b"\x00<\x00?",
    b"\xff\xfe\x00\x00",
    b"\x00\x00\xfe\xff",
)
"""How an XML file in UTF-16 or UTF-32 starts (with or without a byte-order mark)."""
SCALE_SLACK_MM = 0.5
"""A card drawn within this of twice a card size was drawn at twice its size."""
TOO_SMALL_MM = 7.0
"""A drawing whose widest space holds no disc this wide holds no coin at all (a dime is
17.91 mm): its unit is surely wrong."""


@dataclass(frozen=True)
class Conventions:
    """How drawings name one game's parts, as its :class:`~coinprint.game.Game` declares them:
    the readers know no game, only these conventions, handed in by the caller for every game
    a drawing can be read for."""

    outline_role: str = "outline"
    """What a shape named ``card`` or ``outline`` becomes (Coin Age: its ``card``)."""
    regions: bool = False
    """Spaces belong to the region named by their enclosing labelled group (Coin Age)."""
    numbered: bool = False
    """Spaces are countries numbered in drawing order, 1 = the first (the Map)."""


@dataclass
class ReadLayout:
    """A layout read from a file, and notes on what was left out of it ("2 text objects ignored")."""

    layout: Layout
    notes: list[str] = field(default_factory=list)


def parse_layout(
    data: bytes,
    *,
    source: str,
    conventions: Mapping[str, Conventions],
    game: str | None = None,
    units: str = "mm",
    tolerance_mm: float = DEFAULT_TOLERANCE_MM,
) -> ReadLayout:
    """The layout in the bytes of a file called ``source``: SVG, foreign GeoJSON or
    coinprint GeoJSON (the caller reads the file, once, at the edge).

    ``game`` says which game a drawing or foreign GeoJSON is for (a coinprint layout names
    its own; a different ``game`` is a usage error); ``conventions`` says, for every game a
    drawing can be read for, how its drawings name their parts. ``units`` is the length unit
    of foreign GeoJSON coordinates (mm, cm, in or m). Borders of a drawing are joined within
    ``tolerance_mm`` (see :func:`join_borders`). Raises :class:`UnreadableInputError` or
    :class:`UsageError` with one line when the bytes are not a layout.
    """
    if units not in UNIT_MM:
        raise UsageError(f"unknown --units '{units}'; use {', '.join(UNIT_MM)}")
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") or head[:4] in UTF16_STARTS or source.lower().endswith(".svg"):
        return _from_svg(data, source, _need_game(game, source, conventions), tolerance_mm)

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableInputError(f"{source} is neither SVG nor GeoJSON: it is not UTF-8 text") from None
    doc = parse_json(text, source=source)  # under the JSON caps: depth, digits, NaN, lone surrogates
    if isinstance(doc, dict) and "coinprint" in doc:
        layout = from_geojson(doc, source=source)
        if game is not None and layout.game != game:
            raise UsageError(f"{source} is a {layout.game} layout, not {game}")
        _refuse_degrees_layout(layout, source)
        return ReadLayout(layout)
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection" or not isinstance(doc.get("features"), list):
        raise UnreadableInputError(f"{source} is JSON but not a GeoJSON FeatureCollection")
    if game is None:
        raise UnreadableInputError(
            f'{source} is GeoJSON but not a coinprint layout (it has no "coinprint" member naming the game); '
            f"give --game ({', '.join(conventions)}) to read it as a drawing"
        )
    return _from_foreign_geojson(doc, source, _need_game(game, source, conventions), units, tolerance_mm)


def _need_game(game: str | None, source: str, conventions: Mapping[str, Conventions]) -> tuple[str, Conventions]:
    if game is None:
        raise UsageError(f"{source} does not say which game it is for; give --game ({', '.join(conventions)})")
    if game not in conventions:
        raise UsageError(f"a drawing can be read for {', '.join(conventions)}, not {game}")
    return game, conventions[game]


# -- SVG ----------------------------------------------------------------------------------------------------
def _from_svg(data: bytes, source: str, game: tuple[str, Conventions], tolerance_mm: float) -> ReadLayout:
    drawing = read_svg(data, source=source)
    pieces = [
        _Piece(shape.name, shape.rings, shape.group, shape.problem, handle=shape.element_id) for shape in drawing.shapes
    ]
    if not pieces:
        found = ", ".join(f"{n} {kind}" for kind, n in drawing.ignored.items()) or "nothing at all"
        raise UnreadableInputError(f"{source} has no closed shape to read as a space (found {found})")
    if 1 < len(pieces) <= MAX_FEATURES:  # the caps are said first
        _refuse_dropped_labels(pieces, source, game[1])
    frame = SourceFrame(drawing.unit, drawing.mm_per_unit, drawing.height_mm)
    layout = _assemble(game, pieces, source, {"source": "svg"}, frame, tolerance_mm)
    page = drawing.size_mm and (drawing.size_mm[0] / drawing.mm_per_unit, drawing.size_mm[1] / drawing.mm_per_unit)
    _check_size(layout, "svg", page or None)
    notes = drawing.notes + [f"ignored {count} {kind}" for kind, count in drawing.ignored.items()]
    notes += _scale_notes(layout)
    return ReadLayout(layout, notes)


DROPPED_LABELS = "(Plain and Optimized SVG drop the labels: save as Inkscape SVG)"


def _refuse_dropped_labels(pieces: list[_Piece], source: str, conventions: Conventions) -> None:
    """Say in one line, exit 1, that a drawing lost its labels to a plain or optimised SVG
    save, instead of a problem per space: one cause, said once. Two signs: a game whose
    spaces need names finds no name and no named group at all; or an unnamed shape holds
    every other shape (the card or outline, whose label was its name), in any game."""
    if conventions.regions and not any(p.name or p.group for p in pieces):
        raise InvalidInputError(
            f"{source}: the shapes have no names: was it saved as plain SVG? label each space in Inkscape's "
            f"Objects panel and its region's layer or group {DROPPED_LABELS}"
        )
    holder = _unnamed_holder(pieces)
    if holder is not None:
        role = conventions.outline_role
        shown = _short_text(holder.handle) if holder.handle and not bad_text(holder.handle) else "a shape"
        raise InvalidInputError(
            f"{source}: {shown} has no name and holds every other shape: was it saved as plain SVG? "
            f"name the {role} '{role}' in Inkscape's Objects panel {DROPPED_LABELS}"
        )


def _unnamed_holder(pieces: list[_Piece]) -> _Piece | None:
    """The largest shape when it has no name and every other shape lies inside it (within
    the slack a guide may poke out by), in a drawing of three shapes or more with no shape
    named card or outline; else None."""
    import shapely

    if len(pieces) < 3 or any((p.name or "").lower() in OUTLINE_NAMES for p in pieces):
        return None
    outlines = [shapely.Polygon(p.rings[0]) for p in pieces]
    largest = max(range(len(pieces)), key=lambda k: float(outlines[k].area))
    if pieces[largest].name is not None:
        return None
    around = outlines[largest].buffer(DECORATION_SLACK_MM)
    shapely.prepare(around)
    others = [shapely.multipoints(p.rings[0]) for k, p in enumerate(pieces) if k != largest]
    return pieces[largest] if bool(shapely.covers(around, others).all()) else None


# -- foreign GeoJSON ------------------------------------------------------------------------------------------
def _from_foreign_geojson(
    doc: Any, source: str, game: tuple[str, Conventions], units: str, tolerance_mm: float
) -> ReadLayout:
    features = doc["features"]
    if len(features) > MAX_GEOJSON_FEATURES:
        raise UnreadableInputError(
            f"{source} has {len(features):,} features; the cap MAX_GEOJSON_FEATURES is {MAX_GEOJSON_FEATURES:,}"
        )
    scale = UNIT_MM[units]
    pieces: list[_Piece] = []
    skipped: dict[str, int] = {}
    simplified = 0
    for index, raw in enumerate(features):
        piece = _foreign_piece(raw, index, scale, source)
        if isinstance(piece, str):
            skipped[piece] = skipped.get(piece, 0) + 1
        else:
            pieces.append(piece)
    if not pieces:
        raise UnreadableInputError(f"{source} has no Polygon feature to read as a space")
    _refuse_degrees(doc, pieces, source, scale)
    origin = _local_origin(pieces, source)
    for piece in pieces:
        piece.rings, changed = within_point_cap(piece.rings, piece.name or piece.handle, source)
        simplified += changed
    frame = SourceFrame(units, scale, origin_mm=origin)
    layout = _assemble(game, pieces, source, {"source": "geojson"}, frame, tolerance_mm)
    _check_size(layout, units)
    notes = [f"ignored {count} {kind}" for kind, count in skipped.items()] + _scale_notes(layout)
    if simplified:
        plural = "s" if simplified != 1 else ""
        notes.append(
            f"simplified {simplified} feature{plural} of more than {MAX_SPACE_POINTS:,} points within {SIMPLIFY_MM:g} mm"
        )
    return ReadLayout(layout, notes)


def _foreign_piece(raw: Any, index: int, scale: float, source: str) -> _Piece | str:
    if not isinstance(raw, dict) or raw.get("type") != "Feature":
        return "entries that are not GeoJSON Features"
    given = raw.get("properties")
    # GDAL writes every field of the layer on every feature, null where it is empty.
    props: dict[str, Any] = {k: v for k, v in given.items() if v is not None} if isinstance(given, dict) else {}
    name = next(
        (_text(props[k]) for k in ("label", "name", "id") if _text(props.get(k))),
        _text(raw.get("id")) or None,
    )
    role = _text(props.get("role"))
    if role in OUTLINE_NAMES:
        name = role  # coinprint's own card or outline, after a trip through a GIS format
    elif role and role != "space":
        return f"features with role {_short_text(role)} (not spaces)"
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
        shown = _short_text(kind) if isinstance(kind, str) and kind else "unknown"
        return f"{shown} features (only Polygons are spaces)"
    if not isinstance(coords, list):
        return "polygons with unreadable coordinates"
    points = sum(len(ring) if isinstance(ring, list) else 1 for ring in coords)
    if points > MAX_SPACE_NUMBERS // 2:
        # Counted before any point is read: far over the point cap, simplifying would take long.
        raise UnreadableInputError(
            f"{source}: feature #{index + 1} has {points:,} points, over the {MAX_SPACE_POINTS:,}-point cap "
            f"for one space (MAX_SPACE_POINTS); simplify it (QGIS: Vector ▸ Geometry Tools ▸ Simplify)"
        )
    try:
        rings = tuple(tuple((float(p[0]) * scale, float(p[1]) * scale) for p in ring) for ring in coords)
    except (TypeError, ValueError, IndexError, KeyError):  # a point that is no list of numbers
        return "polygons with unreadable coordinates"
    if not rings or len(rings[0]) < 3 or not all(math.isfinite(v) for r in rings for p in r for v in p):
        return "polygons with fewer than 3 corners or non-finite coordinates"
    region = _text(props.get("region"))
    order = props.get("order")
    if isinstance(order, float) and order.is_integer():
        order = int(order)  # a GeoPackage may keep whole numbers as reals
    return _Piece(
        name,
        rings,
        region or None,
        problem,
        order=order if isinstance(order, int) and not isinstance(order, bool) else None,
        start=_text(props.get("start")) or None,
        handle=f"feature #{index + 1}",
    )


def _local_origin(pieces: list[_Piece], source: str) -> tuple[float, float]:
    """Move a map that lies far from its CRS's origin (a projected CRS: Web Mercator, UTM,
    a national grid) to a local origin, its lower left corner, and return where that corner
    was, in mm; a map near the origin stays where it is, at (0, 0). The coordinate cap is
    on the map's extent, not on where it lies."""
    xs = [p[0] for piece in pieces for ring in piece.rings for p in ring]
    ys = [p[1] for piece in pieces for ring in piece.rings for p in ring]
    left, bottom = min(xs), min(ys)
    width, height = max(xs) - left, max(ys) - bottom
    if max(width, height) > MAX_COORDINATE_MM:
        raise UnreadableInputError(
            f"{source}: the features span {width:,.0f} × {height:,.0f} mm; a board is at most "
            f"{MAX_COORDINATE_MM:,.0f} mm across (the coordinate cap): check --units"
        )
    if all(abs(v) <= MAX_COORDINATE_MM for v in (left, bottom, left + width, bottom + height)):
        return (0.0, 0.0)
    for piece in pieces:
        piece.rings = tuple(tuple((x - left, y - bottom) for x, y in ring) for ring in piece.rings)
    return (left, bottom)


def _text(value: Any) -> str:
    """A property as text: whole numbers as GIS programs store them (``3.0`` is ``3``)."""
    if value is None or isinstance(value, (bool, dict, list)):
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _refuse_degrees(doc: dict[str, Any], pieces: list[_Piece], source: str, scale: float) -> None:
    """Refuse a map in longitude/latitude, or in metres read as mm: a board is drawn in
    lengths, not on the globe, and a board a fraction of a millimetre wide is in another unit."""
    crs = json.dumps(doc.get("crs", "")).lower()
    named_geographic = any(code in crs for code in ("crs84", "epsg::4326", "epsg:4326", "4326"))
    xs = [p[0] / scale for piece in pieces for ring in piece.rings for p in ring]
    ys = [p[1] / scale for piece in pieces for ring in piece.rings for p in ring]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    span = f"{width:.4g} × {height:.4g}"
    code = _crs_code(crs)
    if code and not named_geographic and scale < UNIT_MM["m"] and max(width, height) * scale < TOO_SMALL_MM:
        # A projected CRS (EPSG:3857, UTM, a national grid) measures in metres.
        raise UnreadableInputError(
            f"{source}: its crs {code} measures in metres and the whole board spans {span} units, "
            f"{width * UNIT_MM['m']:.4g} × {height * UNIT_MM['m']:.4g} mm in metres: give --units m"
        )
    # A board in metres is as small as one in degrees: --units m says which it is.
    if scale < UNIT_MM["m"] and looks_like_degrees(xs, ys):
        fits = [u for u in ("m", "in", "cm") if UNIT_MM[u] > scale and 30 <= max(width, height) * UNIT_MM[u] <= 3000]
        hint = (
            f"; in {fits[0]} it would be {width * UNIT_MM[fits[0]]:.4g} × {height * UNIT_MM[fits[0]]:.4g} mm: "
            f"give --units {fits[0]} if it was drawn in {fits[0]}"
            if fits
            else " (or give --units cm|in|m)"
        )
        raise UnreadableInputError(
            f"{source}: the coordinates look like longitude/latitude (the whole board spans {span} units); "
            f"it was reprojected to degrees: draw or export it in a projected CRS whose units are mm{hint}"
        )
    if named_geographic:
        # GDAL tags GeoJSON as CRS84 (RFC 7946) though the numbers are lengths: say how to drop the tag.
        raise UnreadableInputError(
            f"{source}: its crs says longitude/latitude (CRS84 / EPSG:4326) but the board spans {span} units; "
            'the numbers are lengths, so delete the "crs" member, or convert with ogr2ogr -a_srs None '
            "(GDAL adds the tag when a layer has no CRS of its own)"
        )


def _crs_code(crs: str) -> str | None:
    """The EPSG code a GeoJSON ``crs`` member names (``EPSG:3857``), or None."""
    import re

    found = re.search(r"epsg:+(\d+)", crs)
    return f"EPSG:{found.group(1)}" if found else None


def looks_like_degrees(xs: list[float], ys: list[float]) -> bool:
    """Whether coordinates look like longitude/latitude: a board less than 5 units across,
    inside ±180 × ±90, with fractions (a board in whole mm is not in degrees)."""
    if not xs:
        return False
    small = max(xs) - min(xs) < 5 and max(ys) - min(ys) < 5
    in_range = all(-180 <= x <= 180 for x in xs) and all(-90 <= y <= 90 for y in ys)
    return small and in_range and any(x % 1 or y % 1 for x, y in zip(xs, ys))


def _refuse_degrees_layout(layout: Layout, source: str) -> None:
    """A coinprint layout a GIS program reprojected to degrees (its numbers are no longer mm)."""
    xs = [p[0] for s in layout.spaces for ring in s.rings for p in ring]
    ys = [p[1] for s in layout.spaces for ring in s.rings for p in ring]
    if looks_like_degrees(xs, ys):
        raise UnreadableInputError(
            f"{source}: the coordinates look like longitude/latitude (the whole board spans "
            f"{max(xs) - min(xs):.4g} × {max(ys) - min(ys):.4g} units, not mm): it was reprojected; "
            "use the file from before the reprojection (coinprint layouts are in mm in a local plane)"
        )


# -- assembling a layout -----------------------------------------------------------------------------------
@dataclass
class _Piece:
    name: str | None
    """The name the designer gave the shape; None when it has none."""
    rings: tuple[tuple[tuple[float, float], ...], ...]
    group: str | None
    problem: str | None = None
    order: int | None = None
    start: str | None = None
    handle: str | None = None
    """How to find an unnamed shape in the file (its element id, ``feature #3``)."""


def _short_text(text: str, limit: int = 40) -> str:
    """A name from a file, safe to print in a one-line message: no control characters, short."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return repr(clean if len(clean) <= limit else clean[: limit - 1] + "…")


def _assemble(
    reading: tuple[str, Conventions],
    pieces: list[_Piece],
    source: str,
    meta: dict[str, Any],
    frame: SourceFrame | None = None,
    tolerance_mm: float = DEFAULT_TOLERANCE_MM,
) -> Layout:
    """A layout of the game ``reading`` names, from named shapes by its conventions."""

    game, conventions = reading
    layout = Layout(game, [], meta={"params": {"source": meta["source"]}}, source_frame=frame)
    stem = Path(source).stem
    if stem and not bad_text(stem):
        layout.meta["name"] = stem  # a drawn board is called by its file's name (a printed title)
    problems = layout.read_problems
    for index, piece in enumerate(pieces, start=1):
        for what in ("name", "group", "start"):
            value = getattr(piece, what)
            why = bad_text(value) if value is not None else None
            if why:
                shown = piece.handle if piece.handle and not bad_text(piece.handle) else f"shape #{index}"
                label = {"name": "its name", "group": "its group's name", "start": "its start"}[what]
                problems.append(f"{shown}: {label} {why}")
                setattr(piece, what, None)
        if piece.handle is not None and bad_text(piece.handle):
            piece.handle = None
    outlines = [p for p in pieces if (p.name or "").lower() in OUTLINE_NAMES]
    for piece in outlines:
        role = conventions.outline_role
        layout.features.append(Feature(role, role, polygon_geometry([close_ring(r) for r in piece.rings])))
    spaces = [p for p in pieces if (p.name or "").lower() not in OUTLINE_NAMES]
    if len(spaces) + len(outlines) > MAX_FEATURES:
        raise UnreadableInputError(
            f"{source} has {len(spaces):,} shapes to read as spaces; a layout has at most {MAX_FEATURES:,} "
            f"features (the features cap)"
        )
    join_borders(spaces, max(tolerance_mm, SNAP_MM))
    spaces = [piece for piece in spaces if _keep_rings(piece, problems)]
    if conventions.numbered:
        _number_countries(spaces)
    seen: dict[str, int] = {}
    for index, piece in enumerate(spaces, start=1):
        # A shape without a name is found by its handle (its element id); its label stays
        # empty, so the board's own naming can name it (Coin Table: a1 …).
        name = piece.name or piece.handle or f"shape{index}"
        # Ids stay unique; a name drawn twice is reported by the check as a duplicate label.
        seen[name] = seen.get(name, 0) + 1
        suffix = "" if seen[name] == 1 else f" ({seen[name]})"
        sid = name[: MAX_TEXT_CHARS - len(suffix)] + suffix  # within the label rules, as every id
        if piece.problem:
            problems.append(f"{name}: {piece.problem}")
        rings = tuple(close_ring(ring) for ring in piece.rings)
        region = piece.group if conventions.regions else None
        given = name if piece.name is not None else None
        layout.spaces.append(Space(sid, rings, label=given, region=region, order=piece.order, start=piece.start))
    if not layout.spaces:
        raise UnreadableInputError(f"{source} has only an outline and no space")
    return layout


def _keep_rings(piece: _Piece, problems: list[str]) -> bool:
    """Drop the rings of ``piece`` that have fewer than 3 corners (a hole drawn as a dot, an
    outline whose corners were all joined into one), reporting each; False when nothing of
    the shape is left to be a space."""
    name = piece.name or piece.handle or "a shape"
    kept = tuple(ring for ring in piece.rings if len(set(ring)) >= 3)
    if not kept or len(set(piece.rings[0])) < 3:
        problems.append(f"{name}: has fewer than 3 corners once its corners are joined; it is not read as a space")
        return False
    if len(kept) < len(piece.rings):
        problems.append(f"{name}: a hole with fewer than 3 corners was left out")
    piece.rings = kept
    return True


def _check_size(layout: Layout, unit: str, page: tuple[float, float] | None = None) -> None:
    """A drawing whose spaces hold no coin at all was read in the wrong unit: say which."""
    import shapely

    widest = max(
        (
            2 * float(shapely.maximum_inscribed_circle(s.polygon, 0.01).length)
            for s in layout.spaces
            if s.polygon.is_valid
        ),
        default=None,
    )
    if widest is None or widest >= TOO_SMALL_MM or widest <= 0:
        return
    if unit == "svg":
        w, h = page or (210, 297)
        hint = (
            "did you draw in cm or inches? the document's width and height give its size: give them with their "
            f'unit (e.g. width="{w:g}cm" height="{h:g}cm")'
        )
    else:
        hint = f"in cm it would be {widest * 10:.0f} mm, in inches {widest * 25.4:.0f} mm: did you mean --units cm or --units in?"
    layout.read_problems.append(
        f"the spaces are far too small for a coin: the widest holds a disc of {widest:.2f} mm (a US dime is 17.91 mm); {hint}"
    )


def _scale_notes(layout: Layout) -> list[str]:
    """A card or outline drawn at twice (or half) a card or paper size: it was scaled by
    mistake (a zoom, a page set to double size), and prints at that size."""
    notes = []
    for feature in layout.features:
        minx, miny, maxx, maxy = feature.shape.bounds
        drawn = sorted((maxx - minx, maxy - miny))
        sizes = {**CARD_SIZES, **PAPER_SIZES}
        if any(all(abs(d - s) <= SCALE_SLACK_MM for d, s in zip(drawn, size)) for size in sizes.values()):
            continue  # a size of its own: drawn as meant
        scaled = [
            (name.upper() if name[1:].isdigit() else name.title(), size, factor, word)
            for name, size in sizes.items()
            for factor, word in ((2.0, "twice"), (0.5, "half"))
            if all(abs(d - s * factor) <= SCALE_SLACK_MM for d, s in zip(drawn, size))
        ]
        for shown, size, factor, word in scaled[:1]:
            notes.append(
                f"the {feature.role} is {drawn[1]:.1f} × {drawn[0]:.1f} mm, {word} {shown} "
                f"({size[1]:g} × {size[0]:g} mm): if it was meant to be {shown}, scale the drawing "
                f"by {100 / factor:g} % (it prints at the size drawn)"
            )
    return notes


def join_borders(pieces: list[_Piece], tolerance_mm: float) -> None:
    """Make borders meant to be shared exactly shared.

    Drawn shapes meet without sharing corners: a snapped rectangle's side runs past its
    neighbour's corner (a T-junction), two shapes follow one curve each with points of its
    own, a corner drawn by hand lands a little off. So: a point of a shape within
    JOIN_MM of a point of an earlier shape becomes that point, and so does a corner within
    ``tolerance_mm`` of a corner; then every point of a shape lying within JOIN_MM of a side
    of another shape (a corner: within ``tolerance_mm``) is added to that side, so both
    sides of a border run through the same points in the same order. Points along curves
    are joined only at the fine distance, so curves that part at a junction stay apart."""
    import numpy
    import shapely

    owners: list[int] = []
    coords: list[tuple[float, float]] = []
    corner_flags: list[bool] = []
    for k, piece in enumerate(pieces):
        for ring in piece.rings:
            coords.extend(ring)
            owners.extend([k] * len(ring))
            corner_flags.extend(_corners(ring))
    if not coords:
        return
    points = numpy.asarray(coords, dtype=float)
    owner = numpy.asarray(owners)
    corner = numpy.asarray(corner_flags)
    reach = max(tolerance_mm, JOIN_MM)
    # 1. points: each moves to the nearest point of an earlier shape it may join.
    geometries = shapely.points(points)
    near_i, near_j = shapely.STRtree(geometries).query(geometries, predicate="dwithin", distance=reach)
    gaps = numpy.hypot(*(points[near_i] - points[near_j]).T)
    keep = (owner[near_j] < owner[near_i]) & ((gaps <= JOIN_MM) | (corner[near_i] & corner[near_j]))
    near_i, near_j, gaps = near_i[keep], near_j[keep], gaps[keep]
    order = numpy.lexsort((gaps, near_i))
    movers, nearest = numpy.unique(near_i[order], return_index=True)
    target = numpy.arange(len(points))
    target[movers] = near_j[order][nearest]
    for _ in range(len(pieces)):  # follow chains to the first shape's point (each step goes to an earlier shape)
        following = target[target]
        if numpy.array_equal(following, target):
            break
        target = following
    snapped = points[target]
    if len(movers):
        geometries = shapely.points(snapped)
    # 2. sides: add the other shapes' points that lie on (within reach of) a side.
    starts, ends, side_owner, ring_bounds = [], [], [], []
    offset = 0
    for k, piece in enumerate(pieces):
        for ring in piece.rings:
            n = len(ring)
            ring_points = snapped[offset : offset + n]
            ring_bounds.append((k, offset, n))
            starts.append(ring_points)
            ends.append(numpy.roll(ring_points, -1, axis=0))
            side_owner.extend([k] * n)
            offset += n
    a, b = numpy.concatenate(starts), numpy.concatenate(ends)
    sides = shapely.linestrings(numpy.stack([a, b], axis=1))
    side_index, point_index = shapely.STRtree(geometries).query(sides, predicate="dwithin", distance=reach)
    mask = numpy.asarray(side_owner)[side_index] != owner[point_index]
    side_index, point_index = side_index[mask], point_index[mask]
    inserts: dict[int, list[tuple[float, tuple[float, float]]]] = {}
    if len(side_index):
        p = snapped[point_index]
        start, end = a[side_index], b[side_index]
        d = end - start
        length2 = (d * d).sum(axis=1)
        t = numpy.where(length2 > 0, ((p - start) * d).sum(axis=1) / numpy.where(length2 > 0, length2, 1.0), -1.0)
        foot = start + d * t[:, None]
        off = numpy.hypot(*(p - foot).T)
        distinct = (numpy.abs(p - start).max(axis=1) > 1e-9) & (numpy.abs(p - end).max(axis=1) > 1e-9)
        ok = (t > 0) & (t < 1) & distinct & ((off <= JOIN_MM) | corner[point_index])
        for s, tt, (x, y) in zip(side_index[ok].tolist(), t[ok].tolist(), p[ok].tolist()):
            inserts.setdefault(s, []).append((tt, (x, y)))
    rings_of: dict[int, list[tuple[tuple[float, float], ...]]] = {}
    for k, first, n in ring_bounds:
        joined: list[tuple[float, float]] = []
        for i in range(first, first + n):
            point = (float(snapped[i][0]), float(snapped[i][1]))
            if not joined or joined[-1] != point:
                joined.append(point)
            for _, extra in sorted(set(inserts.get(i, ()))):
                if joined[-1] != extra:
                    joined.append(extra)
        while len(joined) > 1 and joined[0] == joined[-1]:
            joined.pop()
        rings_of.setdefault(k, []).append(tuple(joined))
    for k, piece in enumerate(pieces):
        piece.rings = tuple(rings_of.get(k, ()))


def _corners(ring: tuple[tuple[float, float], ...]) -> list[bool]:
    """Which points of a ring are corners (the outline turns there by more than
    CORNER_DEGREES), not points along a flattened curve or a straight side."""
    import numpy

    if len(ring) < 3:
        return [True] * len(ring)
    here = numpy.asarray(ring, dtype=float)
    before = here - numpy.roll(here, 1, axis=0)
    after = numpy.roll(here, -1, axis=0) - here
    turn = numpy.abs(
        numpy.arctan2(before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0], (before * after).sum(axis=1))
    )
    corners: list[bool] = (turn > math.radians(CORNER_DEGREES)).tolist()
    return corners


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
