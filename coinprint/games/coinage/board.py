"""Coin Age map cards: four built-in maps, random region maps, and the layout check.

A map is a card divided into spaces (6 to 20; the built-in maps have 10) that are grouped
into contiguous regions. Spaces look hand-drawn: the generator starts from a straight-edged
partition of the card (rows of bricks for the built-in maps, a relaxed Voronoi diagram for
random maps), nodes its edges into a planar line network, moves the inner corners a little,
bends every edge *once* with a smooth wobble, and rebuilds the faces with
``shapely.polygonize``. Because each border is one line used by both of its faces, the
spaces share their borders exactly (``shapely.coverage_is_valid`` holds).

Built-in maps (labels: row letter from the top, number from the left):

- ``classic``: rows of 3-4-3 bricks, regions of 4, 3, 2 and 1 spaces (docs/formats.md, Facts).
- ``terraces``: rows of 4-3-3, regions 3, 3, 2, 2.
- ``steps``: rows of 3-3-4, regions 5, 3, 2.
- ``patchwork``: rows of 4-2-4, five regions of 2.

Layout names in records: ``coinage:map=classic`` or
``coinage:map=random,regions=3-3-2-2,seed=5,card=a6``. Inside a name, commas separate the
parameters, so region sizes are joined by ``-`` (the command line accepts ``4,3,2,1`` too).

Cards are drawn landscape. The default card is A6 (148 × 105 mm) for up to 10 spaces, and
grows in area with the space count beyond that, so that a US quarter (24.26 mm) fits every
space with :data:`FIT_MARGIN_MM` to spare. A map drawn on another card is the same map
stretched to that card; on a small card coins overhang and the check warns.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.checks import (
    DEFAULT_TOLERANCE_MM,
    Problem,
    border_problems,
    common_problems,
    duplicate_label_problems,
    listing,
)
from coinprint.colouring import colour_regions
from coinprint.errors import UsageError
from coinprint.layout import Feature, Layout, Space, close_ring, polygon_geometry
from coinprint.spatial import widest_circle
from coinprint.units import PaperSize, card_size, coin

if TYPE_CHECKING:
    import networkx
    import shapely

GAME = "coinage"
MIN_SPACES = 6
MAX_SPACES = 20
DEFAULT_CARD = "a6"
CARD_MARGIN_MM = 3.0
"""Blank strip between the card edge and the map."""
FIT_COIN = "quarter"
FIT_MARGIN_MM = 1.0
"""A space must hold a quarter with this much room all round (inscribed radius ≥ r + margin)."""

XY = tuple[float, float]
Segment = tuple[XY, XY]
Box = tuple[float, float, float, float]
"""(minx, miny, maxx, maxy) in mm."""
BUILTIN_MAPS = ("classic", "terraces", "steps", "patchwork")
MAP_NAMES = BUILTIN_MAPS + ("random",)
DEFAULT_REGIONS = "4-3-2-1"
"""Region sizes of a random map when none are given (the classic map's)."""


@dataclass(frozen=True)
class RowsMap:
    """A built-in map: rows of bricks from the top. ``splits`` are the inner x positions of
    each row as fractions of the width; ``heights`` are relative row heights; ``regions``
    lists each region's space labels."""

    name: str
    splits: tuple[tuple[float, ...], ...]
    heights: tuple[float, ...]
    regions: tuple[tuple[str, ...], ...]
    seed: int

    @property
    def labels(self) -> list[list[str]]:
        return [[f"{chr(65 + r)}{i + 1}" for i in range(len(s) + 1)] for r, s in enumerate(self.splits)]


ROWS_MAPS: dict[str, RowsMap] = {
    m.name: m
    for m in (
        RowsMap(
            "classic",
            ((1 / 3, 2 / 3), (0.25, 0.5, 0.75), (1 / 3, 2 / 3)),
            (1, 1, 1),
            (("A1", "A2", "A3", "B1"), ("C1", "B2", "B3"), ("B4", "C3"), ("C2",)),
            11,
        ),
        RowsMap(
            "terraces",
            ((0.25, 0.5, 0.75), (0.30, 0.64), (0.36, 0.70)),
            (1, 1.05, 1),
            (("A1", "A2", "B1"), ("A3", "A4", "B3"), ("B2", "C1"), ("C2", "C3")),
            12,
        ),
        RowsMap(
            "steps",
            ((0.34, 0.68), (0.28, 0.60), (0.24, 0.47, 0.74)),
            (1.05, 1, 1),
            (("A1", "A2", "B1", "B2", "C1"), ("A3", "B3", "C4"), ("C2", "C3")),
            13,
        ),
        RowsMap(
            "patchwork",
            ((0.22, 0.50, 0.76), (0.43,), (0.27, 0.52, 0.78)),
            (1, 1.06, 1),
            (("A1", "B1"), ("A2", "A3"), ("A4", "B2"), ("C1", "C2"), ("C3", "C4")),
            14,
        ),
    )
}


# -- cards and fit ------------------------------------------------------------------------------------
def default_card(spaces: int) -> PaperSize:
    """The default card for ``spaces`` spaces: A6, scaled up in area beyond 10 spaces."""
    a6 = card_size(DEFAULT_CARD)
    if spaces <= 10:
        return a6
    scale = math.sqrt(spaces / 10)
    width, height = round(a6.width_mm * scale, 1), round(a6.height_mm * scale, 1)
    return PaperSize(f"{width:g}x{height:g}mm", width, height)


def map_box(card: PaperSize) -> Box:
    """The map area on a landscape card: (minx, miny, maxx, maxy) in mm."""
    long, short = card.height_mm, card.width_mm
    return (CARD_MARGIN_MM, CARD_MARGIN_MM, long - CARD_MARGIN_MM, short - CARD_MARGIN_MM)


def inscribed_radius(polygon: shapely.Polygon) -> float:
    """The radius of the largest circle inside ``polygon`` (to 0.01 mm)."""
    import shapely

    return float(shapely.maximum_inscribed_circle(polygon, tolerance=0.01).length)


def fit_radius(coin_name: str = FIT_COIN) -> float:
    """The inscribed radius a space needs to hold ``coin_name`` with the fit margin."""
    return coin(coin_name).radius_mm + FIT_MARGIN_MM


# -- the planar network: straight partition → wobbly faces -----------------------------------------
def _noded_segments(lines: shapely.Geometry) -> list[Segment]:
    """The line network split at every crossing, as 2-point segments in a stable order."""
    import shapely

    noded = shapely.set_precision(shapely.unary_union(shapely.set_precision(lines, 1e-6)), 1e-6)
    segments: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    for line in getattr(noded, "geoms", [noded]):
        coords = [(float(c[0]), float(c[1])) for c in line.coords]
        for a, b in zip(coords, coords[1:]):
            if a != b:
                segments.add((min(a, b), max(a, b)))
    return sorted(segments)


def _on_box(point: XY, box: Box) -> tuple[bool, bool]:
    """Whether ``point`` lies on a vertical / horizontal side of ``box``."""
    x, y = point
    return (abs(x - box[0]) < 1e-6 or abs(x - box[2]) < 1e-6, abs(y - box[1]) < 1e-6 or abs(y - box[3]) < 1e-6)


def _jitter_nodes(segments: list[Segment], box: Box, amount: float, rng: random.Random) -> dict[XY, XY]:
    """A new place for every node: inner nodes move freely by up to ``amount``, nodes on
    the card edge slide along it, corners stay."""
    nodes = sorted({p for s in segments for p in s})
    moved = {}
    for node in nodes:
        on_x, on_y = _on_box(node, box)
        dx = rng.uniform(-amount, amount)
        dy = rng.uniform(-amount, amount)
        moved[node] = (node[0] + (0.0 if on_x else dx), node[1] + (0.0 if on_y else dy))
    return moved


def _wobble(a: XY, b: XY, amplitude: float, rng: random.Random) -> list[XY]:
    """A hand-drawn-looking line from ``a`` to ``b``: two smooth random waves across the
    line, fading to nothing at both ends."""
    length = math.dist(a, b)
    steps = max(4, int(length / 1.2))
    amp = min(amplitude, 0.09 * length)
    waves = [(rng.choice((1, 2, 3)), rng.uniform(0, 2 * math.pi), rng.uniform(0.4, 1.0)) for _ in range(2)]
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    points = []
    for i in range(steps + 1):
        t = i / steps
        offset = amp * math.sin(math.pi * t) * sum(w * math.sin(k * math.pi * t + phase) for k, phase, w in waves) / 1.4
        points.append((a[0] + (b[0] - a[0]) * t + nx * offset, a[1] + (b[1] - a[1]) * t + ny * offset))
    points[0], points[-1] = a, b
    return points


def _faces(lines: shapely.Geometry) -> list[shapely.Polygon]:
    import shapely

    return list(shapely.polygonize(list(getattr(lines, "geoms", [lines]))).geoms)


def organic_faces(
    base_lines: shapely.Geometry,
    box: Box,
    cells: int,
    rng: random.Random,
    jitter: float,
    amplitude: float,
) -> list[shapely.Polygon] | None:
    """Wobbly faces for the straight partition ``base_lines`` (which includes the box
    outline), in the order of the straight faces sorted top row first, left to right.
    Returns None when the wobble broke the partition (the caller tries again)."""
    import shapely

    segments = _noded_segments(base_lines)
    straight = _faces(shapely.MultiLineString([list(s) for s in segments]))
    if len(straight) != cells:
        return None
    moved = _jitter_nodes(segments, box, jitter, rng)
    bent = []
    for a, b in segments:
        on_edge = any(x and y for x, y in zip(_on_box(a, box), _on_box(b, box)))
        pa, pb = moved[a], moved[b]
        bent.append([pa, pb] if on_edge else _wobble(pa, pb, amplitude, rng))
    faces = _faces(shapely.MultiLineString(bent))
    if len(faces) != cells:
        return None
    order = sorted(range(cells), key=lambda i: (-round(straight[i].centroid.y, 3), straight[i].centroid.x))
    matched = []
    for i in order:
        overlaps = [face.intersection(straight[i]).area for face in faces]
        best = max(range(cells), key=overlaps.__getitem__)
        if overlaps[best] < 0.6 * straight[i].area:
            return None
        matched.append(faces[best])
    if len({id(f) for f in matched}) != cells or not all(f.is_valid for f in matched):
        return None
    return matched


# -- built-in maps ------------------------------------------------------------------------------------
def _rows_lines(spec: RowsMap, box: Box) -> shapely.Geometry:
    import shapely

    x0, y0, x1, y1 = box
    total = sum(spec.heights)
    lines = [shapely.box(*box).exterior]
    top = y1
    for row, splits in enumerate(spec.splits):
        bottom = top - (y1 - y0) * spec.heights[row] / total
        if row < len(spec.splits) - 1:
            lines.append(shapely.LineString([(x0, bottom), (x1, bottom)]))
        for fraction in splits:
            x = x0 + (x1 - x0) * fraction
            lines.append(shapely.LineString([(x, bottom), (x, top)]))
        top = bottom
    return shapely.MultiLineString([list(line.coords) for line in lines])


def _fits(faces: Sequence[shapely.Polygon], need: float) -> bool:
    return all(inscribed_radius(face) >= need for face in faces)


def build_builtin(name: str, card: str | None = None) -> Layout:
    """The built-in map ``name`` (classic, terraces, steps, patchwork) on ``card``."""
    if name not in ROWS_MAPS:
        raise UsageError(f"unknown Coin Age map '{name}'; use one of: {', '.join(MAP_NAMES)}")
    spec = ROWS_MAPS[name]
    reference = map_box(default_card(10))
    rng = random.Random(spec.seed)
    faces = None
    for attempt in range(200):
        jitter = 2.4 if attempt < 100 else 1.2
        faces = organic_faces(_rows_lines(spec, reference), reference, 10, rng, jitter, 2.0)
        if faces is not None and _fits(faces, fit_radius()):
            break
    else:  # pragma: no cover - the built-in specs are tested to succeed
        raise RuntimeError(f"could not draw the {name} map")
    labels = [label for row in spec.labels for label in row]
    region_of = {label: f"r{i + 1}" for i, members in enumerate(spec.regions) for label in members}
    return _assemble(
        faces,
        labels,
        [region_of[label] for label in labels],
        reference,
        card,
        {"map": name, "regions": "-".join(str(len(r)) for r in spec.regions)},
        seed=None,
    )


# -- random maps --------------------------------------------------------------------------------------
def parse_regions(text: str | Sequence[int]) -> list[int]:
    """Region sizes from ``"4,3,2,1"`` or ``"4-3-2-1"``: whole numbers ≥ 1, 6 to 20 in all."""
    if isinstance(text, str):
        parts = [p for p in text.replace("-", ",").replace(" ", "").split(",") if p]
        try:
            sizes = [int(p) for p in parts]
        except ValueError:
            raise UsageError(f"region sizes '{text}' must be whole numbers, e.g. 4,3,2,1") from None
    else:
        sizes = list(text)
    if not sizes or any(s < 1 for s in sizes):
        raise UsageError(f"region sizes {text!r} must each be at least 1, e.g. 4,3,2,1")
    if not MIN_SPACES <= sum(sizes) <= MAX_SPACES:
        raise UsageError(
            f"region sizes {text!r} add up to {sum(sizes)} spaces; a map has {MIN_SPACES} to {MAX_SPACES} spaces"
        )
    return sizes


def _relaxed_points(count: int, box: Box, rng: random.Random) -> list[XY]:
    """Well-spread points: best-candidate sampling, then three Lloyd steps."""
    import shapely

    x0, y0, x1, y1 = box
    points: list[tuple[float, float]] = []
    while len(points) < count:
        candidates = [(rng.uniform(x0, x1), rng.uniform(y0, y1)) for _ in range(12)]
        points.append(max(candidates, key=lambda c: min((math.dist(c, p) for p in points), default=0.0)))
    area = shapely.box(*box)
    for _ in range(3):
        cells = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=area)
        centres = {}
        for cell in cells.geoms:
            clipped = cell.intersection(area)
            for i, p in enumerate(points):
                if i not in centres and cell.contains(shapely.Point(p)):
                    centres[i] = (clipped.centroid.x, clipped.centroid.y)
                    break
        points = [centres.get(i, p) for i, p in enumerate(points)]
    return points


def _voronoi_lines(points: Sequence[XY], box: Box) -> shapely.Geometry:
    import shapely

    area = shapely.box(*box)
    edges = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=area, only_edges=True)
    inside = edges.intersection(area)
    return shapely.union_all([inside, area.exterior])


def _short_edges(lines: shapely.Geometry, box: Box, minimum: float) -> bool:
    """Whether any inner edge of the straight partition is shorter than ``minimum``."""
    for a, b in _noded_segments(lines):
        on_edge = any(x and y for x, y in zip(_on_box(a, box), _on_box(b, box)))
        if not on_edge and math.dist(a, b) < minimum:
            return True
    return False


def grow_regions(
    graph: networkx.Graph, order: Sequence[str], sizes: Sequence[int], rng: random.Random, attempts: int = 400
) -> list[int] | None:
    """Region numbers (index into ``sizes``) for the nodes in ``order``, each region grown
    as a connected blob on ``graph``; None if no split was found in ``attempts`` tries."""
    by_size = sorted(range(len(sizes)), key=lambda i: -sizes[i])
    for _ in range(attempts):
        owner: dict[str, int] = {}
        ok = True
        for region in by_size:
            free = [n for n in order if n not in owner]
            start = rng.choice(free)
            owner[start] = region
            members = [start]
            while len(members) < sizes[region]:
                frontier = sorted({m for n in members for m in graph.neighbors(n) if m not in owner}, key=order.index)
                if not frontier:
                    ok = False
                    break
                pick = rng.choice(frontier)
                owner[pick] = region
                members.append(pick)
            if not ok:
                break
        if ok:
            return [owner[n] for n in order]
    return None


def build_random(regions: str | Sequence[int], seed: int, card: str | None = None) -> Layout:
    """A random map with the given region sizes, the same for the same sizes and seed."""
    import networkx
    import shapely

    sizes = parse_regions(regions)
    count = sum(sizes)
    if not isinstance(seed, int) or seed < 0:
        raise UsageError(f"seed {seed!r} must be a whole number ≥ 0")
    reference = map_box(default_card(count))
    rng = random.Random(f"coinage-random-{seed}")
    for _ in range(500):
        points = _relaxed_points(count, reference, rng)
        lines = _voronoi_lines(points, reference)
        if _short_edges(lines, reference, 4.0):
            continue
        faces = organic_faces(lines, reference, count, rng, 0.0, 1.8)
        if faces is None or not _fits(faces, fit_radius()):
            continue
        ids = [f"s{i}" for i in range(count)]
        graph = networkx.Graph()
        graph.add_nodes_from(ids)
        tree = shapely.STRtree(faces)
        for i, j in zip(*tree.query(faces, predicate="intersects").tolist()):
            if i < j and faces[i].boundary.intersection(faces[j].boundary).length > 0.1:
                graph.add_edge(ids[i], ids[j])
        if min(dict(graph.degree).values()) < 2 or not networkx.is_connected(graph):
            continue
        owner = grow_regions(graph, ids, sizes, rng)
        if owner is None:
            continue
        labels = _reading_labels(faces, reference)
        params = {"map": "random", "regions": "-".join(map(str, sizes)), "seed": seed}
        return _assemble(faces, labels, [f"r{i + 1}" for i in owner], reference, card, params, seed=seed)
    raise UsageError(f"no map with regions {'-'.join(map(str, sizes))} was found for seed {seed}; try another seed")


def _reading_labels(faces: Sequence[shapely.Polygon], box: Box) -> list[str]:
    """Labels in reading order: rows (letters from the top) by centroid height, then numbers
    from the left."""
    rows = max(1, round(math.sqrt(len(faces) * (box[3] - box[1]) / (box[2] - box[0]))))
    band = (box[3] - box[1]) / rows
    keyed = []
    for index, face in enumerate(faces):
        c = face.centroid
        keyed.append((min(rows - 1, int((box[3] - c.y) / band)), c.x, index))
    labels = [""] * len(faces)
    counters: dict[int, int] = {}
    for row, _, index in sorted(keyed):
        counters[row] = counters.get(row, 0) + 1
        labels[index] = f"{chr(65 + row)}{counters[row]}"
    return labels


# -- assembling the layout ----------------------------------------------------------------------------
def _assemble(
    faces: Sequence[shapely.Polygon],
    labels: list[str],
    regions: list[str],
    reference: Box,
    card: str | None,
    params: dict[str, Any],
    seed: int | None,
) -> Layout:
    """The layout: faces stretched from the reference box to ``card``'s map box, labelled,
    coloured by region, with the card outline as a feature."""
    from shapely import affinity

    count = len(faces)
    target_card = card_size(card) if card else default_card(count)
    target = map_box(target_card)
    sx = (target[2] - target[0]) / (reference[2] - reference[0])
    sy = (target[3] - target[1]) / (reference[3] - reference[1])
    stretched = [
        affinity.affine_transform(f, [sx, 0, 0, sy, target[0] - reference[0] * sx, target[1] - reference[1] * sy])
        for f in faces
    ]
    sizes = {r: regions.count(r) for r in regions}
    polys: dict[str, list[Any]] = {r: [] for r in sizes}
    for face, region in zip(stretched, regions):
        polys[region].append(face)
    touching = []
    for i in range(count):
        for j in range(i + 1, count):
            if regions[i] != regions[j] and stretched[i].boundary.intersection(stretched[j].boundary).length > 0.1:
                touching.append((regions[i], regions[j]))
    colours = colour_regions(sorted(sizes), touching)
    if colours is None:  # pragma: no cover - planar maps are 4-colourable
        raise RuntimeError("no 4-colouring of the regions was found")
    spaces = [
        Space(
            label,
            (close_ring(face.exterior.coords),),
            label=label,
            region=region,
            properties={"color": colours[region], "region_size": sizes[region]},
        )
        for face, label, region in zip(stretched, labels, regions)
    ]
    spaces.sort(key=lambda s: (s.name[0], int(s.name[1:])))
    long, short = target_card.height_mm, target_card.width_mm
    outline = Feature(
        "card",
        "card",
        polygon_geometry([close_ring([(0, 0), (long, 0), (long, short), (0, short)])]),
        {"size": target_card.name},
    )
    meta = {"params": {**params, "card": target_card.name}, "seed": seed}
    return Layout(GAME, spaces, [outline], meta=meta)


def build(
    map_name: str = "classic",
    *,
    regions: str | Sequence[int] | None = None,
    seed: int | None = None,
    card: str | None = None,
) -> Layout:
    """Any Coin Age map: a built-in one by name, or ``random`` with ``regions`` (default
    4-3-2-1) and ``seed`` (default 0)."""
    if map_name == "random":
        return build_random(DEFAULT_REGIONS if regions is None else regions, 0 if seed is None else seed, card)
    if regions is not None or seed is not None:
        raise UsageError(f"regions and seed are for the random map; the {map_name} map is fixed")
    return build_builtin(map_name, card)


def layout_name(layout: Layout) -> str:
    """The record name of a generated map (``coinage:map=random,regions=3-3-2-2,seed=5``)."""
    params = layout.params
    parts = [f"map={params.get('map', 'classic')}"]
    if params.get("map") == "random":
        parts += [f"regions={params['regions']}", f"seed={params['seed']}"]
    card = params.get("card")
    if card and card != default_card(len(layout)).name:
        parts.append(f"card={card}")
    return f"{GAME}:" + ",".join(parts)


# -- the check ---------------------------------------------------------------------------------------
def check(layout: Layout, *, tolerance_mm: float = DEFAULT_TOLERANCE_MM) -> list[Problem]:
    """Every problem with a Coin Age map: the common ones; exactly shared borders; 6–20
    spaces; unique labels; every space in one region; regions contiguous; the map
    connected; a quarter fits every space (a warning; the room may be short by
    ``tolerance_mm``); and the region sizes (as info)."""
    import networkx
    import shapely

    problems = common_problems(layout)
    if problems:
        return problems
    count = len(layout)
    if not MIN_SPACES <= count <= MAX_SPACES:
        problems.append(Problem(None, f"the map has {count} spaces; a Coin Age map has {MIN_SPACES} to {MAX_SPACES}"))
    problems += border_problems(layout)
    problems += duplicate_label_problems(layout)
    members: dict[str, list[str]] = {}
    for space in layout.spaces:
        if space.region:
            members.setdefault(space.region, []).append(space.id)
    homeless = [s for s in layout.spaces if not s.region]
    if homeless:
        problems.append(
            Problem(
                None,
                f"in no region: {listing([s.name for s in homeless])}; put each space in a named group or layer "
                '(a drawing) or give it a "region" property',
                geometry=shapely.GeometryCollection([s.polygon for s in homeless]),
            )
        )
    graph = layout.graph
    if count and not networkx.is_connected(graph):
        components = sorted(networkx.connected_components(graph), key=len)
        parts = [len(c) for c in components]
        apart = [layout.space(sid).polygon for c in components[:-1] for sid in sorted(c)]
        problems.append(
            Problem(
                None,
                f"the map falls into {len(parts)} separate parts ({listing([str(p) for p in parts])} spaces)",
                geometry=shapely.GeometryCollection(apart),
            )
        )
    for region, ids in sorted(members.items()):
        if not networkx.is_connected(graph.subgraph(ids)):
            shapes = shapely.GeometryCollection([layout.space(i).polygon for i in ids])
            names = [layout.space(i).name for i in ids]
            problems.append(Problem(ids[0], f"region {region} ({listing(names)}) is not contiguous", geometry=shapes))
    for space in layout.spaces:
        if graph.degree(space.id) < 1:
            problems.append(Problem(space.id, "borders no other space"))
    need = fit_radius()
    quarter = coin(FIT_COIN)
    for space in layout.spaces:
        circle = widest_circle(space.polygon, need - tolerance_mm / 2)
        radius = float(circle.length)
        if radius + tolerance_mm / 2 < need:
            centre = shapely.get_point(circle, 0)
            problems.append(
                Problem(
                    space.id,
                    f"a {quarter.title} needs {2 * need:.2f} mm ({quarter.diameter_mm} mm and {FIT_MARGIN_MM:g} mm all round), "
                    f"the widest circle is {2 * radius:.2f} mm; the coin will overhang — "
                    + (
                        f"make {space.name} wider (by {2 * (need - radius):.1f} mm)"
                        if layout.source_frame is not None  # the user's own drawing, not a generated card
                        else "print on a bigger card"
                    ),
                    severity="warning",
                    geometry=centre.buffer(quarter.radius_mm, quad_segs=32),
                )
            )
    if members:
        summary = ", ".join(f"{r}: {len(ids)}" for r, ids in sorted(members.items()))
        problems.append(Problem(None, f"region sizes {summary}", severity="info"))
    return problems
