"""Drawing any layout: spaces filled by colour number, region borders, labels, features, and
marks for a game position. A game's ``draw.py`` adds its own decorations.

Every function returns scenes in the layout's own millimetres shifted so that the layout's
bounding box starts at (0, 0) plus ``pad``; :func:`to_scene` gives that shift.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from coinprint.render.scene import Circle, Item, Path, Scene, Style, Text
from coinprint.render.sheet import Sheet
from coinprint.render.style import Palette, greyed, ink_on, palette
from coinprint.render.svg import scene_to_svg
from coinprint.render.words import page_words

if TYPE_CHECKING:
    import shapely

    from coinprint.layout import Layout, Mark, Space
    from coinprint.render.sheet import Sheet

SIDE_COLOURS = ("#c9a227", "#7a8fa6", "#b5553c", "#4f7f4f")
"""Coin colours for the first, second, … player in position drawings."""
INK_SAVER_SIDES = ("#ffffff", "#8c8c8c", "#d2d2d2", "#4d4d4d")
"""The same coins printed in ink-saver: white, mid grey, light grey, dark grey."""


def ink_saver_page(scene: Scene) -> Scene:
    """A page as the ink-saver kit prints it: what was drawn in the colour palette (a rule
    sheet's figures) in the ink-saver palette's outlines (fills white, lines and letters
    black, guides grey), the players' coins told apart by :data:`INK_SAVER_SIDES` (the
    words name them so, see a template's ``style_words``), any other colour grey."""
    colour, ink = palette("color"), palette("ink-saver")
    chosen = {fill: "#ffffff" for fill in (*colour.space_fill, *colour.region_fill, *colour.zone_fill)}
    chosen.update({colour.space_stroke: ink.space_stroke, colour.guide: ink.guide, colour.accent: ink.accent})
    chosen.update(zip(SIDE_COLOURS, INK_SAVER_SIDES))
    # Letters made white to read on a dark fill are black on the white one.
    return greyed(scene, chosen, {"#ffffff": ink.label})


class Frame:
    """Maps layout millimetres to scene millimetres: a shift so the layout (or ``bounds``,
    when given: minx, miny, maxx, maxy) starts at ``pad``."""

    def __init__(
        self, layout: Layout, pad: float = 0.0, bounds: tuple[float, float, float, float] | None = None
    ) -> None:
        minx, miny, maxx, maxy = layout.bounds if bounds is None else bounds
        self.dx, self.dy = pad - minx, pad - miny
        self.width, self.height = maxx - minx + 2 * pad, maxy - miny + 2 * pad

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (x + self.dx, y + self.dy)

    def ring(self, ring: Sequence[Sequence[float]]) -> tuple[tuple[float, float], ...]:
        return tuple(self.point(x, y) for x, y in ring)

    def scene(self, title: str = "") -> Scene:
        return Scene(self.width, self.height, title=title)


def label_point(space: Space) -> tuple[float, float]:
    """Where a space's label goes: the centroid of a convex space, else the centre of the
    largest circle inside it."""
    # Cached on the (immutable) space: a replay draws the same board once per move, and
    # polylabel is most of the cost of drawing a position.
    cached = space.__dict__.get("_label_point")
    if cached is None:
        cached = _label_point(space)
        object.__setattr__(space, "_label_point", cached)
    return cached


def _label_point(space: Space) -> tuple[float, float]:
    from shapely.ops import polylabel

    polygon = space.polygon
    if not polygon.is_valid or polygon.convex_hull.area - polygon.area < 1e-6 * polygon.area:
        c = polygon.centroid
        return (c.x, c.y)
    point = polylabel(polygon, tolerance=0.05)
    return (point.x, point.y)


def space_items(
    layout: Layout, frame: Frame, colours: Palette, *, fill_by: str = "color", regions: bool = False
) -> list[Item]:
    """One filled, outlined path per space; the fill is the space's ``fill_by`` property,
    a number in the palette's space fills (its region fills with ``regions``)."""
    stroke = Style(fill=None, stroke=colours.space_stroke, stroke_mm=colours.space_stroke_mm)
    fills = colours.region if regions else colours.fill
    items: list[Item] = []
    for space in layout.spaces:
        fill = fills(space.properties.get(fill_by))
        style = Style(fill=fill, stroke=stroke.stroke, stroke_mm=stroke.stroke_mm)
        items.append(Path(tuple(frame.ring(r) for r in space.rings), style))
    return items


def region_border_items(layout: Layout, frame: Frame, colours: Palette) -> list[Item]:
    """Thick lines along region boundaries (spaces with different ``region``)."""
    import shapely

    regions: dict[str, list[shapely.Polygon]] = {}
    for space in layout.spaces:
        if space.region is not None and space.polygon.is_valid:
            regions.setdefault(space.region, []).append(space.polygon)
    style = Style(fill=None, stroke=colours.space_stroke, stroke_mm=colours.region_stroke_mm)
    items: list[Item] = []
    for name in sorted(regions):
        outline = shapely.union_all(regions[name]).boundary
        for line in getattr(outline, "geoms", [outline]):
            items.append(Path((frame.ring(line.coords),), style, closed=False))
    return items


def label_items(layout: Layout, frame: Frame, colours: Palette, size_mm: float) -> list[Item]:
    """Each space's label at its label point."""
    items: list[Item] = []
    for space in layout.spaces:
        x, y = frame.point(*label_point(space))
        ink = ink_on(colours.fill(space.properties.get("color")), colours.label)  # white on a dark fill
        items.append(Text((x, y - size_mm * 0.35), space.name, size_mm, "middle", ink))
    return items


def layout_scene(layout: Layout, style: str = "color", *, pad: float = 0.0, label_mm: float = 3.5) -> Scene:
    """The plain drawing of a layout: spaces, region borders, labels."""
    colours = palette(style)
    frame = Frame(layout, pad)
    scene = frame.scene(title=f"{layout.game} layout")
    scene.add(*space_items(layout, frame, colours))
    scene.add(*region_border_items(layout, frame, colours))
    scene.add(*label_items(layout, frame, colours, label_mm))
    return scene


def mark_items(layout: Layout, frame: Frame, marks: Sequence[Mark], players: Sequence[str]) -> list[Item]:
    """Coins for a position: a disc in the side's colour with its text, stack counts, rings."""
    items: list[Item] = []
    for mark in marks:
        space = layout.space(mark.space)
        x, y = frame.point(*label_point(space))
        radius = min(9.0, 0.42 * _inradius(space))
        if not mark.side and not mark.ring and mark.text:
            # No coin, just a player's letter (a claimed Map country): drawn as written.
            items.append(Text((x, y - radius * 0.35), mark.text, radius, "middle", "#111111", bold=True))
            continue
        items.extend(coin_items(mark, (x, y), radius, players))
    return items


def side_colour(side: str, players: Sequence[str]) -> str:
    """The colour of ``side``'s coins (:data:`SIDE_COLOURS` in the order of ``players``);
    light grey for a neutral coin."""
    return SIDE_COLOURS[players.index(side) % len(SIDE_COLOURS)] if side in players else "#dddddd"


def tint(colour: str, share: float = 0.5) -> str:
    """``colour`` mixed with white: ``share`` of the colour is kept."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in (r, g, b))


CLAIM_OPACITY = 0.55
"""How strongly a claimed space is tinted over the drawn board (its name still shows)."""


def held_items(layout: Layout, frame: Frame, held: Mapping[str, str], players: Sequence[str]) -> list[Item]:
    """A tint over each space in ``held`` (space id → player) in that player's colour: who
    claimed a space stays visible with any coin on it."""
    items: list[Item] = []
    for space in layout.spaces:
        player = held.get(space.id, "")
        if player in players:
            style = Style(fill=tint(side_colour(player, players)), stroke=None, opacity=CLAIM_OPACITY)
            items.append(Path(tuple(frame.ring(r) for r in space.rings), style))
    return items


def coin_items(mark: Mark, centre: tuple[float, float], radius: float, players: Sequence[str]) -> list[Item]:
    """One mark's coin at ``centre``: a disc in its side's colour, its text, its ring and
    its stack count."""
    x, y = centre
    colour = side_colour(mark.side, players)
    items: list[Item] = [Circle((x, y), radius, Style(fill=colour, stroke="#222222", stroke_mm=0.4))]
    if mark.ring:  # a castle gets a solid ring, anything else (a safe coin) a dashed one
        dash = None if mark.ring == "castle" else (1.0, 1.0)
        items.append(Circle((x, y), radius + 1.6, Style(fill=None, stroke="#222222", stroke_mm=0.8, dash_mm=dash)))
    if mark.text:
        items.append(Text((x, y - radius * 0.35), mark.text, radius, "middle", "#111111", bold=True))
    if mark.stack > 1:
        items.append(Text((x + radius, y + radius * 0.7), f"×{mark.stack}", radius * 0.6, "start", "#111111"))
    return items


ASIDE_RADIUS = 8.0
"""Radius (mm) of the coins shown beside a board (a turn's throw)."""
ASIDE_GAP = 4.0


def aside_width(count: int) -> float:
    """How much wider a picture gets with ``count`` coins shown beside it (0 for none)."""
    return 2 * (ASIDE_RADIUS + ASIDE_GAP) + 1.6 if count else 0.0


def aside_items(marks: Sequence[Mark], players: Sequence[str], left: float, top: float) -> list[Item]:
    """Coins shown beside a board (a turn's throw), in a column from ``top`` down, the column's
    left edge at ``left`` (scene millimetres, y up)."""
    x = left + ASIDE_GAP + ASIDE_RADIUS + 0.8
    items: list[Item] = []
    for index, mark in enumerate(marks):
        y = top - ASIDE_GAP - ASIDE_RADIUS - 0.8 - index * (2 * ASIDE_RADIUS + ASIDE_GAP)
        items.extend(coin_items(mark, (x, y), ASIDE_RADIUS, players))
    return items


def room(space: Space) -> float:
    """The radius (mm) of the largest circle round a space's label point inside it: how large
    a coin drawn there may be."""
    return _inradius(space)


def _inradius(space: Space) -> float:
    import shapely

    cached = space.__dict__.get("_inradius")
    if cached is None:
        x, y = label_point(space)
        cached = float(space.polygon.exterior.distance(shapely.Point(x, y)))
        object.__setattr__(space, "_inradius", cached)
    return cached


def position_sheet(
    layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = "", lang: str = "en"
) -> Sheet:
    """A picture of a game position: the layout in ink-saver style, each space's name low in
    the space so the coin on it leaves it readable, and the marks."""

    colours = palette("ink-saver")
    frame = Frame(layout)
    scene = frame.scene(title=title or layout.game)
    scene.add(*space_items(layout, frame, colours))
    scene.add(*region_border_items(layout, frame, colours))
    for space in layout.spaces:
        x, y = frame.point(*label_point(space))
        scene.add(Text((x, y - 0.8 * _inradius(space)), space.name, 2.2, "middle", colours.label))
    scene.add(*mark_items(layout, frame, marks, players))

    words = page_words(lang)
    colours_named = words["colours"]
    legend = "; ".join(
        words["position_sides"].format(player=p, colour=colours_named[i % len(colours_named)])
        for i, p in enumerate(players)
    )
    rings = sorted({m.ring for m in marks if m.ring})
    if rings:
        named = [words["ring_castle"] if r == "castle" else words["ring_other"].format(ring=r) for r in rings]
        legend += "; " + ", ".join(named)
    return Sheet(scene, title or layout.game, [legend], footprint=None, lang=lang)


def layout_svg(layout: Layout) -> str:
    """A layout's drawing as an SVG document (how a notebook shows a layout)."""

    return scene_to_svg(layout_scene(layout)).decode("utf-8")
