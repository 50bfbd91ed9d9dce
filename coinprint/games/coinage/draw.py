"""Drawing Coin Age map cards: spaces filled by region colour, thick region borders, space
labels, one badge per region giving its size, the card outline; several cards per page with
cut lines; and a card with coins on it for a game position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.caps import MAX_COPIES
from coinprint.errors import UsageError
from coinprint.games.coinage.board import fit_radius
from coinprint.layout import Layout as LayoutType
from coinprint.render.board import Frame, mark_items, space_items
from coinprint.render.pdf import text_width_mm
from coinprint.render.scene import Circle, Group, Item, Path, Scene, Style, Text, polyline, translate
from coinprint.render.sheet import Sheet
from coinprint.render.style import ink_on, palette
from coinprint.render.words import board_texts
from coinprint.units import PaperSize, coin, format_mm

if TYPE_CHECKING:
    from coinprint.layout import Layout, Mark, Space

CUT_MARK_MM = 6.0
"""How far cut lines run out beyond the cards."""
INFO_ROOM_MM = 34.0
"""Height kept free on a page of cards for the title, info lines and ruler."""


def _centre_and_radius(space: Space) -> tuple[float, float, float]:
    import shapely

    circle = shapely.maximum_inscribed_circle(space.polygon, tolerance=0.05)
    (x, y), _ = circle.coords
    return x, y, circle.length


def card_size_of(layout: Layout) -> tuple[float, float]:
    """The card's width and height (landscape), from its outline feature or the map's bounds."""
    cards = layout.features_with_role("card")
    if cards:
        minx, miny, maxx, maxy = cards[0].shape.bounds
        return maxx - minx, maxy - miny
    minx, miny, maxx, maxy = layout.bounds
    return maxx - minx, maxy - miny


def card_items(
    layout: Layout,
    style: str = "color",
    *,
    marks: Sequence[Mark] = (),
    players: Sequence[str] = (),
    bleed: float = 0.0,
) -> list[Item]:
    """One card at true size with its bottom-left corner at (0, 0); with a ``bleed``, the
    colours of the spaces along the edge run that far past it (to be trimmed off)."""

    colours = palette(style)
    layout = recoloured(layout)
    frame = Frame(layout)
    items: list[Item] = []
    width, height = card_size_of(layout)
    # With a bleed the colours run out past the trim, so no hairline marks the trim.
    edge = None if bleed > 0 and colours.filled else colours.space_stroke
    items.append(
        Path((((0, 0), (width, 0), (width, height), (0, height)),), Style(fill="#ffffff", stroke=edge, stroke_mm=0.2))
    )
    if bleed > 0 and colours.filled:
        items += _bleed_items(layout, frame, colours, width, height, bleed)
    items += space_items(layout, frame, colours, fill_by="color", regions=True)
    items += _region_outlines(layout, frame, colours.space_stroke, colours.region_stroke_mm)
    label_mm = max(2.2, min(3.6, height * 0.032))
    shown_regions: set[str] = set()
    for space in layout.spaces:
        x, y, radius = _centre_and_radius(space)
        x, y = frame.point(x, y)
        # The label sits near the top of the space, clear of a coin in its middle.
        baseline = y + max(radius - label_mm * 1.3, label_mm * 0.2)
        ink = ink_on(colours.region(space.properties.get("color")), colours.label)
        items.append(Text((x, baseline), space.name, label_mm, "middle", ink, bold=True))
        size = space.properties.get("region_size")
        if size is not None and space.region is not None and space.region not in shown_regions:
            # One badge per region, beside the label of its first space: the region's size.
            shown_regions.add(space.region)
            badge = label_mm * 0.75
            bx = x + text_width_mm(space.name, label_mm, bold=True) / 2 + badge * 1.6
            by = baseline + label_mm * 0.35
            items.append(Circle((bx, by), badge, Style(fill="#ffffff", stroke=colours.space_stroke, stroke_mm=0.3)))
            items.append(Text((bx, by - badge * 0.45), str(size), badge * 1.3, "middle", colours.label, bold=True))
    if marks:
        items += mark_items(layout, frame, marks, players)
    return items


def _bleed_items(layout: Layout, frame: Frame, colours: Any, width: float, height: float, bleed: float) -> list[Item]:
    """Each edge space's colour carried from the map's edge out to the bleed edge: the ground
    between the map and the bleed edge goes to the nearest space (Voronoi cells of points
    along the map's outline), so the colour reaches the cut from every space on the edge."""
    import shapely

    spaces = [shapely.affinity.translate(space.polygon, frame.dx, frame.dy) for space in layout.spaces]
    land = shapely.union_all(spaces)
    ground = shapely.box(-bleed, -bleed, width + bleed, height + bleed).difference(land)
    if ground.is_empty:
        return []
    owners: dict[tuple[float, float], int] = {}
    edge = land.boundary
    for number, shape in enumerate(spaces):
        ring = shape.exterior
        count = max(8, int(ring.length))  # a point a millimetre along the space's outline
        for k in range(count):
            point = ring.interpolate(k / count, normalized=True)
            if edge.distance(point) < 0.01:  # on the map's edge
                owners.setdefault((round(point.x, 3), round(point.y, 3)), number)
    if len(owners) < 2:
        return []
    points = list(owners)
    # A tiny fixed wobble keeps the points along a straight edge from being exactly in line,
    # which leaves GEOS's diagram with holes.
    wobbled = [(x + 0.001 * ((k * 7) % 5 - 2), y + 0.001 * ((k * 3) % 5 - 2)) for k, (x, y) in enumerate(points)]
    cells = shapely.voronoi_polygons(shapely.MultiPoint(wobbled), extend_to=ground.envelope.buffer(bleed + 10))
    # Each cell goes to the space of the point it holds (GEOS's own order is not to be trusted
    # for points on a straight edge).
    tree = shapely.STRtree([shapely.Point(p) for p in wobbled])
    parts: dict[int, list[Any]] = {}
    for cell in cells.geoms:
        held = tree.query(cell, predicate="intersects")
        if len(held):
            parts.setdefault(owners[points[int(held[0])]], []).append(cell)
    # Where GEOS's diagram leaves a hole, the nearest space takes it.
    missing = ground.difference(shapely.union_all([cell for pieces in parts.values() for cell in pieces]))
    for hole in getattr(missing, "geoms", [missing]):
        if not hole.is_empty and hole.area > 1e-9:
            nearest = min(range(len(spaces)), key=lambda n: spaces[n].distance(hole.representative_point()))
            parts.setdefault(nearest, []).append(hole)
    items: list[Item] = []
    for number, pieces in sorted(parts.items()):
        extra = shapely.union_all(pieces).intersection(ground).buffer(0.05).intersection(ground.buffer(0.05))
        fill = colours.region(layout.spaces[number].properties.get("color"))
        for part in getattr(extra, "geoms", [extra]):
            if part.geom_type == "Polygon" and not part.is_empty:
                rings = (tuple(part.exterior.coords), *(tuple(r.coords) for r in part.interiors))
                items.append(Path(rings, Style(fill=fill, stroke=None)))
    return items


def region_colours(layout: Layout) -> dict[str, int]:
    """A colour number for each region: every region its own colour while the palette's
    region fills last (eight), and beyond that neighbouring regions always different
    (greedy colouring in smallest-last order, which needs at most six colours on a map)."""
    regions: dict[str, int] = {}
    for space in layout.spaces:
        key = space.region or space.id
        regions[key] = regions.get(key, 0) + 1
    touching: dict[str, set[str]] = {name: set() for name in regions}
    region_of = {space.id: space.region or space.id for space in layout.spaces}
    for space in layout.spaces:
        for other in layout.neighbours(space.id):
            if region_of[other] != region_of[space.id]:
                touching[region_of[space.id]].add(region_of[other])
                touching[region_of[other]].add(region_of[space.id])
    count = len(palette("color").region_fill)
    if len(regions) <= count:  # largest regions take the first colours
        return {name: k for k, name in enumerate(sorted(regions, key=lambda r: (-regions[r], r)))}
    chosen: dict[str, int] = {}
    for name in reversed(_smallest_last(touching)):
        banned = {chosen[n] for n in touching[name] if n in chosen}
        chosen[name] = next(c for c in range(len(regions)) if c not in banned)
    return chosen


def _smallest_last(touching: dict[str, set[str]]) -> list[str]:
    """The regions, each taken away in turn while it has the fewest neighbours left."""
    left = {name: set(others) for name, others in touching.items()}
    order: list[str] = []
    while left:
        name = min(left, key=lambda r: (len(left[r]), r))
        order.append(name)
        for other in left.pop(name):
            left[other].discard(name)
    return order


def recoloured(layout: Layout) -> Layout:
    """``layout`` with each space's ``color`` its region's colour (see :func:`region_colours`)."""
    from dataclasses import replace

    colours = region_colours(layout)
    spaces = [replace(s, properties={**s.properties, "color": colours[s.region or s.id]}) for s in layout.spaces]
    return LayoutType(layout.game, spaces, list(layout.features), dict(layout.meta))


def _region_outlines(layout: Layout, frame: Frame, stroke: str, width_mm: float) -> list[Item]:
    """Each region's outline as closed rings (holes included), drawn thick."""
    import shapely

    regions: dict[str, list[Any]] = {}
    for space in layout.spaces:
        regions.setdefault(space.region or space.id, []).append(space.polygon)
    style = Style(fill=None, stroke=stroke, stroke_mm=width_mm)
    items: list[Item] = []
    for name in sorted(regions):
        union = shapely.union_all(regions[name])
        for polygon in getattr(union, "geoms", [union]):
            for ring in [polygon.exterior, *polygon.interiors]:
                items.append(Path((frame.ring(ring.coords),), style))
    return items


def card_scene(layout: Layout, style: str = "color") -> Scene:
    """One card as a scene (for pictures and the rule sheet's diagram)."""
    width, height = card_size_of(layout)
    scene = Scene(width, height, title=f"Coin Age map: {layout.params.get('map', 'custom')}")
    scene.add(*card_items(layout, style))
    return scene


def position_scene(layout: Layout, marks: Sequence[Mark], players: Sequence[str], style: str = "color") -> Scene:
    """A card with the coins of a position on it."""
    width, height = card_size_of(layout)
    scene = Scene(width, height, title="Coin Age position")
    scene.add(*card_items(layout, style, marks=marks, players=players))
    return scene


TIGHT_CUT_MARK_MM = 3.0
"""How far cut lines run out when the usual reach, with the room kept for the info block,
would leave no whole card on the page (an A6 card on A5): the info block then goes
wherever the page has room."""


@dataclass(frozen=True)
class CardGrid:
    """How cards lie on a page: columns, rows, a quarter turn or not, the cut lines' reach,
    and whether the grid was cut down to :data:`~coinprint.caps.MAX_COPIES` cards."""

    columns: int
    rows: int
    turned: bool
    cut_mm: float = CUT_MARK_MM
    capped: bool = False

    @property
    def count(self) -> int:
        return self.columns * self.rows


def cards_per_page(card: tuple[float, float], paper: PaperSize, margin: float, bleed: float = 0.0) -> CardGrid:
    """The grid with the most whole cards on one page of ``paper`` either way up, leaving
    room for the info block (or, when no card fits so, with shorter cut lines and the block
    wherever there is room); at least one card, at most :data:`~coinprint.caps.MAX_COPIES`
    (a huge page would otherwise take minutes and gigabytes filling it)."""
    return (
        _grid(card, paper, margin, bleed, CUT_MARK_MM, INFO_ROOM_MM)
        or _grid(card, paper, margin, bleed, TIGHT_CUT_MARK_MM, 0.0)
        or CardGrid(1, 1, False)
    )


def _grid(
    card: tuple[float, float], paper: PaperSize, margin: float, bleed: float, cut: float, room: float
) -> CardGrid | None:
    best: CardGrid | None = None
    for page_w, page_h in ((paper.width_mm, paper.height_mm), (paper.height_mm, paper.width_mm)):
        for turned in (False, True):
            w, h = (card[1], card[0]) if turned else card
            columns = int((page_w - 2 * margin - 2 * cut) // (w + 2 * bleed))
            rows = int((page_h - 2 * margin - 2 * cut - room) // (h + 2 * bleed))
            capped = columns * rows > MAX_COPIES
            if capped:  # the fullest grid within the cap
                columns, rows = max(
                    ((c, min(rows, MAX_COPIES // c)) for c in range(1, min(columns, MAX_COPIES) + 1)),
                    key=lambda grid: grid[0] * grid[1],
                )
            if columns * rows > 0 and (best is None or columns * rows > best.count):
                best = CardGrid(columns, rows, turned, cut, capped)
    return best


def cards_scene(
    layout: Layout,
    style: str,
    columns: int,
    rows: int,
    turned: bool,
    bleed: float = 0.0,
    cut: float = CUT_MARK_MM,
) -> Scene:
    """``columns`` × ``rows`` cards: edge to edge with dashed cut lines running out past them,
    or, with a ``bleed``, apart by twice the bleed, their colours running into it, and crop
    marks round the outside on every trim line; both reach ``cut`` past the cards."""
    card_w, card_h = card_size_of(layout)
    w, h = (card_h, card_w) if turned else (card_w, card_h)
    pad, pitch_w, pitch_h = cut + bleed, w + 2 * bleed, h + 2 * bleed
    scene = Scene(columns * pitch_w + 2 * pad, rows * pitch_h + 2 * pad, title="Coin Age map cards")
    card = tuple(card_items(layout, style, bleed=bleed))
    for x, y in _card_corners(columns, rows, w, h, bleed, cut):
        matrix = (0.0, 1.0, -1.0, 0.0, x + w, y) if turned else translate(x, y)
        scene.add(Group(card, matrix))
    xs = sorted(
        {x for x, _ in _card_corners(columns, rows, w, h, bleed, cut)}
        | {x + w for x, _ in _card_corners(columns, rows, w, h, bleed, cut)}
    )
    ys = sorted(
        {y for _, y in _card_corners(columns, rows, w, h, bleed, cut)}
        | {y + h for _, y in _card_corners(columns, rows, w, h, bleed, cut)}
    )
    if bleed <= 0:
        dashed = Style(stroke="#000000", stroke_mm=0.2, dash_mm=(2.0, 1.0))
        scene.add(*(polyline([(x, 0.0), (x, scene.height_mm)], dashed) for x in xs))
        scene.add(*(polyline([(0.0, y), (scene.width_mm, y)], dashed) for y in ys))
        return scene
    crop = Style(stroke="#000000", stroke_mm=0.2)
    reach = pad - bleed - 1.0  # from just outside the bleed to the scene's edge
    for x in xs:
        scene.add(
            polyline([(x, 0.0), (x, reach)], crop), polyline([(x, scene.height_mm - reach), (x, scene.height_mm)], crop)
        )
    for y in ys:
        scene.add(
            polyline([(0.0, y), (reach, y)], crop), polyline([(scene.width_mm - reach, y), (scene.width_mm, y)], crop)
        )
    return scene


def _card_corners(
    columns: int, rows: int, w: float, h: float, bleed: float, cut: float = CUT_MARK_MM
) -> list[tuple[float, float]]:
    """The bottom-left corner of each card's trim box in a sheet of cards."""
    pad = cut + bleed
    return [
        (pad + column * (w + 2 * bleed), pad + row * (h + 2 * bleed))
        for row in range(rows)
        for column in range(columns)
    ]


def board_sheet(
    layout: Layout,
    style: str = "color",
    *,
    paper: PaperSize | None = None,
    margin: float = 10.0,
    copies: int | None = None,
    texts: dict[str, Any] | None = None,
    bleed: float = 0.0,
    lang: str = "en",
) -> Sheet:
    """The printable map cards: as many as fit one page of ``paper`` (or ``copies``, at most
    that many), with cut lines (or crop marks and a ``bleed``); without ``paper``, one card.
    ``texts`` is the ``board`` part of a Coin Age template (default: English), ``lang`` the
    language of the page's own words."""
    card = card_size_of(layout)
    grid = CardGrid(1, 1, False) if paper is None else cards_per_page(card, paper, margin, bleed)
    columns, rows = grid.columns, grid.rows
    if copies is not None and paper is not None:
        if copies > grid.count:
            raise UsageError(
                f"--copies {copies}: {grid.count} card(s) fit one {paper.name} page; use 1 to {grid.count}"
            )
        while columns * rows > max(1, copies):
            if rows > 1 and (rows - 1) * columns >= copies:
                rows -= 1
            elif columns > 1:
                columns -= 1
            else:
                rows -= 1
    turned, cut = grid.turned, grid.cut_mm
    scene = cards_scene(layout, style, columns, rows, turned, bleed, cut)
    params = layout.params
    quarter = coin("quarter")
    name = params.get("map", "custom")
    words = texts or board_texts("coinage")
    values = {
        "map": words.get("maps", {}).get(name, name),
        "cut": words["cut_dashed"]
        if bleed <= 0
        else words.get("cut_marks_outline", words["cut_marks"])
        if not palette(style).filled
        else words["cut_marks"],
        "random": words["random_map"].format(regions=params.get("regions"), seed=params.get("seed"))
        if name == "random"
        else "",
        "card": f"{card[0]:.4g} × {card[1]:.4g} mm",
        "card_name": words.get("card_names", {}).get(params.get("card", "custom"), params.get("card", "custom")),
        "spaces": len(layout),
        "coin": quarter.title,
        "coin_said": words.get("coin_names", {}).get(quarter.name, quarter.title),
        "coin_mm": format_mm(quarter.diameter_mm),
    }
    lines = [line.format(**values) for line in words["lines"]]
    too_small = _too_small_for_the_coin(layout)
    if too_small and "coin_too_big" in words:
        names = ", ".join(too_small)
        lines.append(words["coin_too_big"].format(**values, count=len(too_small), names=names))
    if grid.capped and copies is None and "cards_capped" in words:
        lines.append(words["cards_capped"].format(cap=MAX_COPIES))
    w, h = (card[1], card[0]) if turned else card
    pieces = [
        (x - bleed, y - bleed, x + w + bleed, y + h + bleed) for x, y in _card_corners(columns, rows, w, h, bleed, cut)
    ]
    return Sheet(
        scene,
        words["title"],
        lines,
        footprint=None,
        rotatable=False,
        pieces=pieces,
        kind="cards",
        bleed_mm=bleed,
        lang=lang,
    )


def _too_small_for_the_coin(layout: Layout) -> list[str]:
    """The names of the spaces whose widest circle is smaller than a quarter with its margin
    (the layout check's warning, said on the page itself)."""
    import shapely

    need = fit_radius()
    return [
        space.name
        for space in layout.spaces
        if float(shapely.maximum_inscribed_circle(space.polygon, tolerance=0.01).length) < need
    ]
