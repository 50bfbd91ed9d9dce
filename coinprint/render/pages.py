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
    IDENTITY,
    Circle,
    Group,
    Item,
    Matrix,
    Path,
    Scene,
    Style,
    Text,
    compose,
    polyline,
    translate,
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


# -- the info block: title, lines, ruler ----------------------------------------------------------------
def ruler_items(x: float, y: float) -> list[Item]:
    """A 100 mm bar and a 4 in bar, ticked and labelled, with their bottom-left at (x, y)."""
    thin = Style(stroke=INK, stroke_mm=0.2)
    bar = Style(fill=INK, stroke=None)
    items: list[Item] = []
    for row, (length, ticks, label) in enumerate(
        (
            (RULER_IN_MM, 8, "4 in — check: this bar measures 4 inches"),
            (RULER_MM, 10, "100 mm — check: this bar measures 10 cm"),
        )
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


Box = tuple[float, float, float, float]


def window_starts(length: float, window: float, overlap: float, pieces: list[tuple[float, float]]) -> list[float]:
    """Where each page's window starts along one direction of the content.

    Windows overlap by at least ``overlap``; each next window starts no later than the first
    piece (an interval such as a cell's extent, which may reach a little past the content)
    that the previous window cut, so every piece lies whole in some window. The windows are
    centred on what they cover when that costs no page.
    """
    low = min([0.0, *(a for a, _ in pieces)])
    high = max([length, *(b for _, b in pieces)])
    if high - low <= window + FIT_SLACK_MM:
        return [low - (window - (high - low)) / 2]
    fitting = [(a, b) for a, b in pieces if b - a <= window - overlap]

    def cover(first: float) -> list[float]:
        starts = [first]
        while starts[-1] + window < high - FIT_SLACK_MM:
            end = starts[-1] + window
            cut = [a for a, b in fitting if b > end + FIT_SLACK_MM and a > starts[-1]]
            starts.append(min([end - overlap, *cut]))
        return starts

    plain = cover(low)
    slack = plain[-1] + window - high
    centred = cover(low - slack / 2)
    return centred if len(centred) == len(plain) else plain


@dataclass(frozen=True)
class Plan:
    """How a sheet goes on paper: page size, a quarter turn or not, and where each column's
    and row's window starts on the (turned) content (rows measured down from the top)."""

    page: PaperSize
    turned: bool
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    reserve: float
    """Height kept free at the bottom of each page for the info block (0 when it floats)."""

    @property
    def columns(self) -> int:
        return len(self.xs)

    @property
    def rows(self) -> int:
        return len(self.ys)

    @property
    def pages(self) -> int:
        return self.columns * self.rows


def _turned(sheet: Sheet, turned: bool) -> tuple[float, float, list[Box]]:
    """The content's width, height and pieces after an optional quarter turn clockwise."""
    width, height = sheet.content.width_mm, sheet.content.height_mm
    if not turned:
        return width, height, list(sheet.pieces)
    return height, width, [(y0, width - x1, y1, width - x0) for x0, y0, x1, y1 in sheet.pieces]


def plans(sheet: Sheet, paper: PaperSize, margin: float, overlap: float, reserve: float) -> list[Plan]:
    """Every way to tile the sheet, fewest pages first (then unturned, then portrait)."""
    found = []
    for turned in (False, True) if sheet.rotatable else (False,):
        width, height, pieces = _turned(sheet, turned)
        for page in (paper, paper.landscape()):
            window_w = page.width_mm - 2 * margin
            window_h = page.height_mm - 2 * margin - reserve
            if window_w <= overlap or window_h <= overlap:
                continue
            xs = window_starts(width, window_w, overlap, [(b[0], b[2]) for b in pieces])
            ys = window_starts(height, window_h, overlap, [(height - b[3], height - b[1]) for b in pieces])
            found.append(Plan(page, turned, tuple(xs), tuple(ys), reserve))
    return sorted(found, key=lambda p: (p.pages, p.turned, p.page.width_mm > p.page.height_mm))


def _content_matrix(sheet: Sheet, plan: Plan, margin: float, column: int, row: int) -> Matrix:
    """Content coordinates → page coordinates for one tile."""
    width, height = sheet.content.width_mm, sheet.content.height_mm
    turn = IDENTITY
    if plan.turned:  # a quarter turn clockwise: (x, y) → (y, width - x)
        turn = (0.0, -1.0, 1.0, 0.0, 0.0, width)
        width, height = height, width
    window_h = plan.page.height_mm - 2 * margin - plan.reserve
    # Row windows are measured down from the content's top edge.
    y0 = window_h - height + plan.ys[row]
    return compose(translate(margin - plan.xs[column], margin + plan.reserve + y0), turn)


def paginate(sheet: Sheet, paper: PaperSize, margin: float = 10.0, overlap: float = 10.0) -> list[Scene]:
    """The sheet on pages of ``paper`` (see the module docstring). Pages are in reading order:
    row by row from the top, left to right."""
    blocks = [info_block(sheet.title, sheet.lines), info_block(sheet.title, sheet.lines, compact=True)]
    floating = plans(sheet, paper, margin, overlap, 0.0)
    reserved = plans(sheet, paper, margin, overlap, blocks[0].height + GAP_MM)
    # A plan where the info block floats in free space wins if it needs no more pages.
    for candidate in floating:
        if candidate.pages > reserved[0].pages:
            break
        for block in blocks:
            placements = _place_blocks(sheet, candidate, margin, block)
            if placements is not None:
                return _pages(sheet, candidate, margin, block, placements)
    plan = reserved[0]
    return _pages(sheet, plan, margin, blocks[0], [(margin, margin, False)] * plan.pages)


def _footprint(sheet: Sheet):
    import shapely

    if sheet.footprint is not None:
        return sheet.footprint
    return shapely.box(0, 0, sheet.content.width_mm, sheet.content.height_mm)


def _place_blocks(sheet: Sheet, plan: Plan, margin: float, block: InfoBlock) -> list[tuple[float, float, bool]] | None:
    """Where the info block fits on each page of ``plan`` (None if some page has no room)."""
    import numpy
    import shapely
    from shapely import affinity

    footprint = _footprint(sheet).buffer(2.0)
    window = shapely.box(margin, margin, plan.page.width_mm - margin, plan.page.height_mm - margin)
    spots = []
    for row in range(plan.rows):
        for column in range(plan.columns):
            a, b, c, d, e, f = _content_matrix(sheet, plan, margin, column, row)
            free = window.difference(affinity.affine_transform(footprint, [a, c, b, d, e, f]))
            shapely.prepare(free)
            spot = None
            for upright, (w, h) in ((False, (block.width, block.height)), (True, (block.height, block.width))):
                xs = numpy.arange(margin, plan.page.width_mm - margin - w + 1e-9, 1.0)
                ys = numpy.arange(margin, plan.page.height_mm - margin - h + 1e-9, 1.0)
                if not len(xs) or not len(ys):
                    continue
                gx, gy = (g.ravel() for g in numpy.meshgrid(xs, ys))
                inside = numpy.flatnonzero(shapely.contains(free, shapely.box(gx, gy, gx + w, gy + h)))
                if len(inside):
                    spot = (float(gx[inside[0]]), float(gy[inside[0]]), upright)
                    break
            if spot is None:
                return None
            spots.append(spot)
    return spots


def _pages(sheet: Sheet, plan: Plan, margin: float, block: InfoBlock, spots) -> list[Scene]:
    pages = []
    total = plan.pages
    for row in range(plan.rows):
        for column in range(plan.columns):
            number = row * plan.columns + column + 1
            page = Scene(plan.page.width_mm, plan.page.height_mm, title=f"{sheet.title} — page {number} of {total}")
            window = (margin, margin + plan.reserve, plan.page.width_mm - margin, plan.page.height_mm - margin)
            matrix = _content_matrix(sheet, plan, margin, column, row)
            page.add(Group(tuple(sheet.content.items), matrix, clip=window))
            if total > 1:
                page.add(*_alignment_marks(plan, margin, column, row))
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


def _alignment_marks(plan: Plan, margin: float, column: int, row: int) -> list[Item]:
    """Registration crosses in the middle of every overlap band, at the same place of the
    content on both pages, and a dashed trim line on the edges that lie over a neighbour."""
    width, height = plan.page.width_mm, plan.page.height_mm
    window_w, window_h = width - 2 * margin, height - 2 * margin - plan.reserve
    bottom, top = margin + plan.reserve, height - margin
    items: list[Item] = []
    thin = Style(stroke=INK, stroke_mm=0.2)
    dashed = Style(stroke=INK, stroke_mm=0.25, dash_mm=(2.0, 1.5))
    along_y = [bottom + window_h * t for t in (0.2, 0.5, 0.8)]
    along_x = [margin + window_w * t for t in (0.2, 0.5, 0.8)]
    xs, ys = plan.xs, plan.ys
    if column > 0:  # overlap with the left neighbour: content [xs[c], xs[c-1] + window_w]
        middle = (xs[column - 1] + window_w - xs[column]) / 2
        items += [_cross(margin + middle, y, thin) for y in along_y]
        items.append(polyline([(margin, bottom), (margin, top)], dashed))
        items.append(
            Text((margin - 1.5, bottom + 2), "trim here, lay over the page to the left", 2.0, "start", INK, angle=90)
        )
    if column < plan.columns - 1:
        middle = (xs[column] + window_w - xs[column + 1]) / 2
        items += [_cross(width - margin - middle, y, thin) for y in along_y]
    if row > 0:  # overlap with the page above
        middle = (ys[row - 1] + window_h - ys[row]) / 2
        items += [_cross(x, top - middle, thin) for x in along_x]
        items.append(polyline([(margin, top), (width - margin, top)], dashed))
        items.append(Text((margin + 2, top + 1.2), "trim here, lay over the page above", 2.0, "start", INK))
    if row < plan.rows - 1:
        middle = (ys[row] + window_h - ys[row + 1]) / 2
        items += [_cross(x, bottom + middle, thin) for x in along_x]
    return items


def _cross(x: float, y: float, style: Style) -> Group:
    return Group(
        (
            Circle((x, y), 1.8, style),
            polyline([(x - 3.5, y), (x + 3.5, y)], style),
            polyline([(x, y - 3.5), (x, y + 3.5)], style),
        )
    )


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
