"""Putting a true-size drawing on paper: tiling over pages, the scale-check ruler, alignment
marks and page labels.

A :class:`Sheet` is what is printed: a content scene at true size plus its title and info
lines. :func:`paginate` tiles it over as few pages as it can (turning the content or the page
a quarter turn when that saves pages), centres it on the tiled area, labels every page,
draws alignment marks where tiles overlap, and puts the info block (title, info lines and a
100 mm / 4 in ruler) where the content leaves room, or in a strip reserved at the bottom.
:func:`single_sheet` makes one scene of the whole thing (for SVG).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from coinprint import __version__
from coinprint.render.scene import (
    IDENTITY, Circle, Group, Item, Matrix, Path, Scene, Style, Text, compose, polyline, translate,
)
from coinprint.units import PaperSize

INK = "#000000"
RULER_MM = 100.0
RULER_IN_MM = 4 * 25.4
GAP_MM = 3.0
FIT_SLACK_MM = 1e-6


@dataclass
class Sheet:
    """Something to print at true size.

    ``content`` is drawn at 1:1 in mm from (0, 0); ``footprint`` (a shapely geometry in
    content coordinates, or None for the whole box) is where it puts ink, so the info block
    can use the empty parts; ``rotatable`` allows a quarter turn to save pages.
    """

    content: Scene
    title: str
    lines: list[str] = field(default_factory=list)
    footprint: Any = None
    rotatable: bool = True


# -- the info block: title, lines, ruler ----------------------------------------------------------------
def ruler_items(x: float, y: float) -> list[Item]:
    """A 100 mm bar and a 4 in bar, ticked and labelled, with their bottom-left at (x, y)."""
    thin = Style(stroke=INK, stroke_mm=0.2)
    bar = Style(fill=INK, stroke=None)
    items: list[Item] = []
    for row, (length, ticks, label) in enumerate(
        ((RULER_IN_MM, 8, "4 in — check: this bar measures 4 inches"), (RULER_MM, 10, "100 mm — check: this bar measures 10 cm"))
    ):
        base = y + row * 6.5
        items.append(Path((((x, base), (x + length, base), (x + length, base + 1.2), (x, base + 1.2)),), bar))
        for tick in range(ticks + 1):
            tx = x + length * tick / ticks
            items.append(polyline([(tx, base), (tx, base + (2.6 if tick in (0, ticks) else 1.9))], thin))
        items.append(Text((x, base + 3.2), label, 2.2, "start", INK))
    return items


RULER_SIZE = (RULER_IN_MM + 0.1, 12.0)


@dataclass(frozen=True)
class InfoBlock:
    items: tuple[Item, ...]
    width: float
    height: float


INFO_WIDTH_MM = 125.0
"""Info lines are wrapped to this width, so the block fits beside a board."""


def info_block(title: str, lines: list[str], *, compact: bool = False) -> InfoBlock:
    """The block printed on every page, drawn with its bottom-left at (0, 0)."""
    from coinprint.render.document import wrap
    from coinprint.render.pdf import text_width_mm

    shown = [] if compact else [part for line in lines for part in wrap(line, INFO_WIDTH_MM, 2.6)]
    items: list[Item] = list(ruler_items(0.0, 0.0))
    y = RULER_SIZE[1] + 1.5
    width = RULER_SIZE[0]
    for line in reversed(shown):
        items.append(Text((0.0, y), line, 2.6, "start", INK))
        width = max(width, text_width_mm(line, 2.6))
        y += 3.6
    items.append(Text((0.0, y + 0.5), title, 4.2, "start", INK, bold=True))
    width = max(width, text_width_mm(title, 4.2, bold=True))
    return InfoBlock(tuple(items), width, y + 0.5 + 4.2)


# -- tiling -----------------------------------------------------------------------------------------------------
def tiles_needed(length: float, window: float, overlap: float) -> int:
    """Pages needed along one direction to cover ``length`` with windows that overlap."""
    if length <= window + FIT_SLACK_MM:
        return 1
    return math.ceil((length - overlap) / (window - overlap) - FIT_SLACK_MM)


@dataclass(frozen=True)
class Plan:
    """How a sheet goes on paper: page size, a quarter turn or not, rows × columns."""

    page: PaperSize
    turned: bool
    columns: int
    rows: int
    reserve: float
    """Height kept free at the bottom of each page for the info block (0 when it floats)."""

    @property
    def pages(self) -> int:
        return self.columns * self.rows


def plans(sheet: Sheet, paper: PaperSize, margin: float, overlap: float, reserve: float) -> list[Plan]:
    """Every way to tile the sheet, fewest pages first (then unturned, then portrait)."""
    found = []
    for turned in (False, True) if sheet.rotatable else (False,):
        width, height = sheet.content.width_mm, sheet.content.height_mm
        if turned:
            width, height = height, width
        for page in (paper, paper.landscape()):
            window_w = page.width_mm - 2 * margin
            window_h = page.height_mm - 2 * margin - reserve
            if window_w <= overlap or window_h <= overlap:
                continue
            found.append(Plan(page, turned, tiles_needed(width, window_w, overlap), tiles_needed(height, window_h, overlap), reserve))
    return sorted(found, key=lambda p: (p.pages, p.turned, p.page.width_mm > p.page.height_mm))


def _content_matrix(sheet: Sheet, plan: Plan, margin: float, overlap: float, column: int, row: int) -> Matrix:
    """Content coordinates → page coordinates for one tile."""
    width, height = sheet.content.width_mm, sheet.content.height_mm
    turn = IDENTITY
    if plan.turned:  # a quarter turn clockwise: (x, y) → (y, width - x)
        turn = (0.0, -1.0, 1.0, 0.0, 0.0, width)
        width, height = height, width
    window_w = plan.page.width_mm - 2 * margin
    window_h = plan.page.height_mm - 2 * margin - plan.reserve
    cover_w = plan.columns * window_w - (plan.columns - 1) * overlap
    cover_h = plan.rows * window_h - (plan.rows - 1) * overlap
    # Centre the content on the covered area; row 0 is the top row of pages.
    x0 = (cover_w - width) / 2 - column * (window_w - overlap)
    top = (cover_h - height) / 2 - row * (window_h - overlap)  # gap above the content
    y0 = window_h - top - height
    return compose(translate(margin + x0, margin + plan.reserve + y0), turn)


def paginate(sheet: Sheet, paper: PaperSize, margin: float = 10.0, overlap: float = 10.0) -> list[Scene]:
    """The sheet on pages of ``paper`` (see the module docstring). Pages are in reading order:
    row by row from the top, left to right."""
    blocks = [info_block(sheet.title, sheet.lines), info_block(sheet.title, sheet.lines, compact=True)]
    floating = plans(sheet, paper, margin, overlap, 0.0)
    best = floating[0]
    for block in blocks:
        placements = _place_blocks(sheet, best, margin, overlap, block)
        if placements is not None:
            return _pages(sheet, best, margin, overlap, block, placements)
    block = blocks[0]
    reserved = plans(sheet, paper, margin, overlap, block.height + GAP_MM)
    plan = reserved[0]
    # The floating plans may still win with a different plan of the same page count.
    for candidate in floating:
        if candidate.pages > plan.pages:
            break
        for option in blocks:
            placements = _place_blocks(sheet, candidate, margin, overlap, option)
            if placements is not None:
                return _pages(sheet, candidate, margin, overlap, option, placements)
    spots = [(margin, margin, False)] * plan.pages
    return _pages(sheet, plan, margin, overlap, block, spots)


def _footprint(sheet: Sheet):
    import shapely

    if sheet.footprint is not None:
        return sheet.footprint
    return shapely.box(0, 0, sheet.content.width_mm, sheet.content.height_mm)


def _place_blocks(sheet: Sheet, plan: Plan, margin: float, overlap: float, block: InfoBlock) -> list[tuple[float, float, bool]] | None:
    """Where the info block fits on each page of ``plan`` (None if some page has no room)."""
    import numpy
    import shapely
    from shapely import affinity

    footprint = _footprint(sheet).buffer(2.0)
    spots = []
    for row in range(plan.rows):
        for column in range(plan.columns):
            a, b, c, d, e, f = _content_matrix(sheet, plan, margin, overlap, column, row)
            ink = affinity.affine_transform(footprint, [a, c, b, d, e, f])
            window = shapely.box(margin, margin, plan.page.width_mm - margin, plan.page.height_mm - margin)
            free = window.difference(ink)
            shapely.prepare(free)
            spot = None
            for upright, (w, h) in ((False, (block.width, block.height)), (True, (block.height, block.width))):
                xs = numpy.arange(margin, plan.page.width_mm - margin - w + 1e-9, 1.0)
                ys = numpy.arange(margin, plan.page.height_mm - margin - h + 1e-9, 1.0)
                if not len(xs) or not len(ys):
                    continue
                gx, gy = numpy.meshgrid(xs, ys)
                boxes = shapely.box(gx.ravel(), gy.ravel(), gx.ravel() + w, gy.ravel() + h)
                inside = numpy.flatnonzero(shapely.contains(free, boxes))
                if len(inside):
                    spot = (float(gx.ravel()[inside[0]]), float(gy.ravel()[inside[0]]), upright)
                    break
            if spot is None:
                return None
            spots.append(spot)
    return spots


def _pages(sheet: Sheet, plan: Plan, margin: float, overlap: float, block: InfoBlock, spots) -> list[Scene]:
    pages = []
    total = plan.pages
    for row in range(plan.rows):
        for column in range(plan.columns):
            number = row * plan.columns + column + 1
            page = Scene(plan.page.width_mm, plan.page.height_mm, title=f"{sheet.title} — page {number} of {total}")
            window = (margin, margin + plan.reserve, plan.page.width_mm - margin, plan.page.height_mm - margin)
            matrix = _content_matrix(sheet, plan, margin, overlap, column, row)
            page.add(Group(tuple(sheet.content.items), matrix, clip=window))
            if total > 1:
                page.add(*_alignment_marks(plan, margin, overlap, column, row))
            x, y, upright = spots[number - 1]
            if upright:  # turned a quarter turn anticlockwise, bottom-left corner at (x, y)
                place = (0.0, 1.0, -1.0, 0.0, x + block.height, y)
            else:
                place = translate(x, y)
            page.add(Group(block.items, place))
            page.add(_page_label(sheet, plan, margin, number, row, column))
            pages.append(page)
    return pages


def _page_label(sheet: Sheet, plan: Plan, margin: float, number: int, row: int, column: int) -> Text:
    where = f" — page {number} of {plan.pages} (row {row + 1}, column {column + 1})" if plan.pages > 1 else ""
    text = f"{sheet.title}{where} — print at 100% / actual size, not “fit to page” — coinprint {__version__}"
    baseline = plan.page.height_mm - max(3.5, margin / 2 + 1.0)
    return Text((margin, baseline), text, 2.4, "start", INK)


def _alignment_marks(plan: Plan, margin: float, overlap: float, column: int, row: int) -> list[Item]:
    """Registration crosses in the middle of every overlap band, at the same place on both
    pages, and a dashed trim line on the edges that lie over a neighbouring page."""
    width, height = plan.page.width_mm, plan.page.height_mm
    window_w, window_h = width - 2 * margin, height - 2 * margin - plan.reserve
    bottom = margin + plan.reserve
    items: list[Item] = []
    thin = Style(stroke=INK, stroke_mm=0.2)
    dashed = Style(stroke=INK, stroke_mm=0.25, dash_mm=(2.0, 1.5))
    along_y = [bottom + window_h * t for t in (0.2, 0.5, 0.8)]
    along_x = [margin + window_w * t for t in (0.2, 0.5, 0.8)]
    if column > 0:
        items += [_cross(margin + overlap / 2, y, thin) for y in along_y]
        items.append(polyline([(margin, bottom), (margin, height - margin)], dashed))
        items.append(Text((margin - 1.5, bottom + 2), "trim here, lay over the page to the left", 2.0, "start", INK, angle=90))
    if column < plan.columns - 1:
        items += [_cross(width - margin - overlap / 2, y, thin) for y in along_y]
    if row > 0:
        items += [_cross(x, height - margin - overlap / 2, thin) for x in along_x]
        items.append(polyline([(margin, height - margin), (width - margin, height - margin)], dashed))
    if row < plan.rows - 1:
        items += [_cross(x, bottom + overlap / 2, thin) for x in along_x]
    return items


def _cross(x: float, y: float, style: Style) -> Group:
    return Group((
        Circle((x, y), 1.8, style),
        polyline([(x - 3.5, y), (x + 3.5, y)], style),
        polyline([(x, y - 3.5), (x, y + 3.5)], style),
    ))


def single_sheet(sheet: Sheet, margin: float = 10.0) -> Scene:
    """The whole sheet as one scene at true size: the content above its info block."""
    block = info_block(sheet.title, sheet.lines)
    content = sheet.content
    width = max(content.width_mm, block.width) + 2 * margin
    height = content.height_mm + block.height + GAP_MM + 2 * margin
    scene = Scene(width, height, title=sheet.title)
    x0 = (width - content.width_mm) / 2
    scene.add(Group(tuple(content.items), translate(x0, margin + block.height + GAP_MM)))
    scene.add(Group(block.items, translate(margin, margin)))
    return scene
