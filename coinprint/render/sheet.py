"""The print contract: a :class:`Sheet` is what a game's ``draw`` returns to be printed, a
content scene at true size plus its title and info lines. :func:`single_sheet` makes one scene
of the whole thing (for SVG); :func:`ink_footprint` says where a scene puts ink.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coinprint.render.pdf import text_width_mm
from coinprint.render.scene import (
    IDENTITY,
    Circle,
    Group,
    Item,
    Matrix,
    Path,
    Scene,
    Text,
    apply,
    compose,
    translate,
)
from coinprint.render.words import GAP_MM, info_block

if TYPE_CHECKING:
    import shapely

FIT_SLACK_MM = 1e-6
"""How far a length may pass a bound and still count as fitting (rounding, not paper)."""

Box = tuple[float, float, float, float]


@dataclass
class Sheet:
    """Something to print at true size.

    ``content`` is drawn at 1:1 in mm from (0, 0); ``footprint`` (a shapely geometry in
    content coordinates, or None for the whole box) is where it puts ink, so the info block
    can use the empty parts; ``rotatable`` allows a quarter turn to save pages; ``pieces``
    are kept whole on some page.
    """

    content: Scene
    title: str
    lines: list[str] = field(default_factory=list)
    footprint: Any = None
    rotatable: bool = True
    pieces: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Boxes (minx, miny, maxx, maxy in content mm) such as board cells: tiling cuts pages
    so that each piece is drawn whole on at least one page."""
    lang: str = "en"
    """The language of the page texts (``templates/pages.<lang>.json``)."""
    cells: list[Any] = field(default_factory=list)
    """The playing cells as shapely polygons in content mm: tiled pages are trimmed along
    their edges."""
    kind: str = "board"
    """``board`` or ``cards`` (cards are cut out: they may have crop marks and a bleed)."""
    bleed_mm: float = 0.0
    """How far the pieces' printing runs past their trim lines (their boxes include it)."""
    whole: Any = None
    """A part played on (a shapely geometry in content mm, such as a goal) that pages are not
    cut through where the paper can hold it, and that nothing else is put on."""
    whole_note: str = ""
    """Said among the info lines when the paper cannot hold ``whole`` (``{paper}``: the
    smallest standard paper that holds the whole sheet)."""
    brief: bool = False
    """The content prints the game's rules in brief (the Map's blank sheet): in a kit it
    stands for the player aid when no page has room for the aid itself."""
    own_info: bool = False
    """The content carries its own title, info lines and scale bars (the Flick mat, in the
    corners outside its goal): the pages add no info block."""


def sheet_footprint(sheet: Sheet) -> shapely.Geometry:
    """Where ``sheet`` puts ink or is played on (content mm): its footprint (the whole box when
    it has none) with its ``whole`` part."""
    import shapely

    footprint = sheet.footprint
    if footprint is None:
        footprint = shapely.box(0, 0, sheet.content.width_mm, sheet.content.height_mm)
    return footprint if sheet.whole is None else footprint.union(sheet.whole)


def ink_footprint(scene: Scene) -> Any:
    """Where ``scene`` puts ink (a shapely geometry in its mm): each shape's outline with its
    stroke, each circle, each line of text's box. A board whose free room lies between its
    parts (beside a Flick zone) gives this as its footprint, so words can go there."""
    import shapely

    shapes: list[Any] = []

    def walk(items: Sequence[Item], matrix: Matrix) -> None:
        for item in items:
            if isinstance(item, Group):
                walk(item.items, compose(matrix, item.transform))
            elif isinstance(item, Path):
                for ring in item.rings:
                    points = [apply(matrix, p) for p in ring]
                    reach = (item.style.stroke_mm if item.style.stroke else 0.0) / 2 + 0.01
                    if item.closed and len(points) > 2:
                        shapes.append(shapely.Polygon(points).buffer(reach))
                    elif len(points) > 1:
                        shapes.append(shapely.LineString(points).buffer(reach))
            elif isinstance(item, Circle):
                x, y = apply(matrix, item.center)
                scale = math.hypot(matrix[0], matrix[1])
                shapes.append(shapely.Point(x, y).buffer(item.radius * scale + item.style.stroke_mm / 2))
            elif isinstance(item, Text):
                width = text_width_mm(item.text, item.size_mm, bold=item.bold)
                left = {"start": 0.0, "middle": -width / 2, "end": -width}.get(item.anchor, 0.0)
                x0, y0 = item.at
                box = [(x0 + left, y0 - 0.3 * item.size_mm), (x0 + left + width, y0 + item.size_mm)]
                corners = [(box[i][0], box[j][1]) for i, j in ((0, 0), (1, 0), (1, 1), (0, 1))]
                if item.angle:
                    turn = math.radians(item.angle)
                    cos, sin = math.cos(turn), math.sin(turn)
                    corners = [
                        (x0 + (x - x0) * cos - (y - y0) * sin, y0 + (x - x0) * sin + (y - y0) * cos) for x, y in corners
                    ]
                shapes.append(shapely.Polygon([apply(matrix, p) for p in corners]))

    walk(scene.items, IDENTITY)
    return shapely.union_all(shapes)


def single_sheet(sheet: Sheet, margin: float = 10.0) -> Scene:
    """The whole sheet as one scene at true size: the content above its info block."""
    block = info_block(sheet.title, sheet.lines, sheet.lang)
    content = sheet.content
    width = max(content.width_mm, block.width) + 2 * margin
    height = content.height_mm + block.height + GAP_MM + 2 * margin
    scene = Scene(width, height, title=sheet.title)
    x0 = (width - content.width_mm) / 2
    scene.add(Group(tuple(content.items), translate(x0, margin + block.height + GAP_MM)))
    scene.add(Group(block.items, translate(margin, margin)))
    return scene
