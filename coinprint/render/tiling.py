"""Putting a true-size :class:`~coinprint.render.sheet.Sheet` on paper: :func:`paginate` tiles
it over as few pages as it can (turning the content or the page a quarter turn when that saves
pages), centres it on the tiled area, labels every page, has alignment marks drawn where tiles
overlap, and puts the info block where the content leaves room (the room the pages spare
gathered at the foot of the last page when centring leaves none big enough), in a strip
reserved at the bottom, or on a page of its own — never dropped, never turned. Every page says "print at
100 %" at a readable size; a tiled page carries a small grid showing where it goes among the
others (:mod:`coinprint.render.marks` draws them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coinprint.render.marks import alignment_marks, assembly_grid, page_labels
from coinprint.render.scene import (
    IDENTITY,
    Group,
    Item,
    Matrix,
    Scene,
    Text,
    apply,
    compose,
    translate,
)
from coinprint.render.sheet import FIT_SLACK_MM, Box, Sheet, sheet_footprint
from coinprint.render.words import (
    GAP_MM,
    INFO_WIDTH_MM,
    RULER_SIZE,
    InfoBlock,
    info_block,
    ruler_block,
)
from coinprint.units import INCH_PAPERS, PAPER_SIZES, PaperSize


def minimum_paper(margin: float) -> tuple[float, float]:
    """The smallest page (short side, long side) a board can be printed on with ``margin``:
    the 4 in ruler and the print note must fit across it either way up."""
    side = math.ceil(2 * margin + RULER_SIZE[0] + 4.0)
    return (side, side)


def window_starts(
    length: float, window: float, overlap: float, pieces: list[tuple[float, float]], *, flush: bool = False
) -> list[float]:
    """Where each page's window starts along one direction of the content.

    Windows overlap by at least ``overlap``; each next window starts no later than the first
    piece (an interval such as a cell's extent, which may reach a little past the content)
    that the previous window cut, so every piece lies whole in some window. The windows are
    centred on what they cover when that costs no page; with ``flush`` the first starts at
    the content's start, leaving the room the pages have to spare at the end of the last.
    """
    low = min([0.0, *(a for a, _ in pieces)])
    high = max([length, *(b for _, b in pieces)])
    if high - low <= window + FIT_SLACK_MM:
        return [low] if flush else [low - (window - (high - low)) / 2]
    fitting = [(a, b) for a, b in pieces if b - a <= window - overlap]

    def cover(first: float) -> list[float]:
        starts = [first]
        while starts[-1] + window < high - FIT_SLACK_MM:
            end = starts[-1] + window
            cut = [a for a, b in fitting if b > end + FIT_SLACK_MM and a > starts[-1]]
            starts.append(min([end - overlap, *cut]))
        return starts

    plain = cover(low)
    if flush:
        return plain
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


def flush_rows(sheet: Sheet, plan: Plan, margin: float, overlap: float) -> Plan:
    """``plan`` with its rows starting at the content's top, so that the room its pages have
    to spare lies in one piece at the foot of the last row (the same rows when they already
    start there)."""
    from dataclasses import replace

    _, height, pieces = _turned(sheet, plan.turned)
    window_h = plan.page.height_mm - 2 * margin - plan.reserve
    down = [(height - b[3], height - b[1]) for b in pieces]
    return replace(plan, ys=tuple(window_starts(height, window_h, overlap, down, flush=True)))


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


SLIM_WIDTHS_MM = (80.0, 70.0, 60.0, 45.0)
"""Widths of the info block's words set apart from its bars, for a board that leaves only
narrow corners free (the bars then go wherever a long strip is free)."""


def paginate(
    sheet: Sheet, paper: PaperSize, margin: float = 10.0, overlap: float = 10.0, *, kit: bool = False
) -> list[Scene]:
    """The sheet on pages of ``paper``: see :func:`paginate_with`."""
    return paginate_with(sheet, paper, margin, overlap, kit=kit)[0]


def paginate_with(
    sheet: Sheet,
    paper: PaperSize,
    margin: float = 10.0,
    overlap: float = 10.0,
    *,
    kit: bool = False,
    extra: Sequence[InfoBlock] = (),
) -> tuple[list[Scene], bool]:
    """The sheet on pages of ``paper`` (see the module docstring). Pages are in reading order:
    row by row from the top, left to right; an info page, when needed, comes last. The info
    block is printed once, on the first page with room; the other pages get the bars. With
    ``kit`` the pages belong to a kit: tiles say "board page k of n" and every page counts the
    kit's pages (see :class:`Folio`). ``extra`` (a block such as a player aid, set in one or
    more shapes) goes where a page has room left, in the first shape that finds some; the
    second value says whether it found room."""
    from coinprint.render.document import check_paper

    check_paper(paper, "board pages", minimum_paper(margin))
    sheet = _keeping_whole(sheet, paper, margin)
    across = min(paper.width_mm, paper.height_mm) - 2 * margin
    title = "" if sheet.own_info else sheet.title  # a sheet with its own title has only notes to add
    block = info_block(title, sheet.lines, sheet.lang, min(INFO_WIDTH_MM, across))
    strip = info_block(title, sheet.lines, sheet.lang, across)  # a strip may use the full width
    floating = plans(sheet, paper, margin, overlap, 0.0)
    if sheet.own_info and not sheet.lines:  # a note to say (no seamless mat here) needs a block
        return _pages(sheet, floating[0], margin, block, [None] * floating[0].pages, kit), False
    reserved = plans(sheet, paper, margin, overlap, strip.height + GAP_MM)
    # Fewest pages wins; at equal pages the block floats in free space, else sits in a strip
    # at the bottom, else its words float apart from its bars, else it goes on a page of its own.
    options: list[tuple[int, float, Plan, list[tuple[float, float] | None], InfoBlock]] = [
        (floating[0].pages + 1, 3, floating[0], [None] * floating[0].pages, strip)
    ]
    if reserved:
        options.append((reserved[0].pages, 1, reserved[0], _once([(margin, margin)] * reserved[0].pages), strip))
    # Where the usual block finds no room, a narrower one (as wide as the bars) may.
    narrow = info_block(title, sheet.lines, sheet.lang, RULER_SIZE[0])
    slims = [info_block(title, sheet.lines, sheet.lang, width, rulers=False) for width in SLIM_WIDTHS_MM]
    for candidate in floating:
        if candidate.pages > floating[0].pages + 1:
            break
        roomy = False
        for shape in (block, narrow):
            room = _place_blocks(sheet, candidate, margin, shape)
            if any(spot is not None for spot in room):
                # A tiling with room on every page is preferred (its pages look alike).
                rank = 0.0 if all(spot is not None for spot in room) else 2.0
                options.append((candidate.pages, rank, candidate, _once(room), shape))
                roomy = True
                if rank == 0:
                    break
        flush = flush_rows(sheet, candidate, margin, overlap)
        if not roomy and flush.ys != candidate.ys and flush.rows == candidate.rows:
            # The room the pages spare, gathered at the foot of the last page, may hold it.
            for shape in (block, narrow):
                room = _place_blocks(sheet, flush, margin, shape)
                if any(spot is not None for spot in room):
                    options.append((flush.pages, 2.0, flush, _once(room), shape))
                    roomy = True
                    break
        if not roomy:
            for slim in slims:
                placed = _slim_spots(sheet, candidate, margin, slim)
                if placed is not None:
                    options.append((candidate.pages, 1.5, candidate, placed, slim))
                    break
    # At equal pages, the board cut into fewer tiles wins; the info block is never left alone
    # on a page of its own while a strip under the board can hold it.
    pages, rank, plan, spots, chosen = min(options, key=lambda o: (o[0], o[1] == 3, o[2].pages, o[1]))
    scenes = _pages(sheet, plan, margin, chosen, spots, kit)
    taken = [_placed(spot, chosen) for spot in spots]
    for k, (scene, bars) in enumerate(zip(scenes, _bars(sheet, plan, margin, chosen, spots))):
        if bars:
            scene.add(bars[0])
            box = _placed(bars[1], bars[2])
            taken[k] = box if taken[k] is None else taken[k].union(box)
    found = False
    for shape in extra:  # the first of the shapes offered that finds room
        for scene, spot in zip(scenes, _once(_place_blocks(sheet, plan, margin, shape, taken))):
            if spot is not None:
                scene.add(Group(shape.items, translate(*spot)))
                found = True
        if found:
            break
    return (scenes + [_info_page(sheet, plan, margin, strip, kit)] if rank == 3 else scenes), found


def _once(spots: list[tuple[float, float] | None]) -> list[tuple[float, float] | None]:
    """Only the first of ``spots`` (the info block is printed once)."""
    first = next((k for k, spot in enumerate(spots) if spot is not None), None)
    return [spot if k == first else None for k, spot in enumerate(spots)]


def _placed(spot: tuple[float, float] | None, block: InfoBlock) -> Any:
    """The page box (shapely) a block takes at ``spot`` (None where it is not)."""
    import shapely

    if spot is None:
        return None
    return shapely.box(spot[0], spot[1], spot[0] + block.width, spot[1] + block.height)


def _slim_spots(sheet: Sheet, plan: Plan, margin: float, slim: InfoBlock) -> list[tuple[float, float] | None] | None:
    """Where the info block's words go apart from its bars: the first page where both they
    and some bars fit (None when no page has room for both)."""
    spots = _place_blocks(sheet, plan, margin, slim)
    for k, spot in enumerate(spots):
        if spot is None:
            continue
        avoid = [_placed(spot, slim) if j == k else None for j in range(plan.pages)]
        bars = _place_blocks(sheet, plan, margin, ruler_block(sheet.lang, ("mm",)), avoid)
        if bars[k] is not None:
            return [spot if j == k else None for j in range(plan.pages)]
    return None


def _bars(
    sheet: Sheet, plan: Plan, margin: float, chosen: InfoBlock, spots: Sequence[tuple[float, float] | None]
) -> list[tuple[()] | tuple[Item, tuple[float, float], InfoBlock]]:
    """The scale-check bars for each page that lacks them (no info block, or one without
    bars), where there is room: both bars, else the 10 cm one (with where they are)."""
    lacking = [spot is None or not chosen.rulers for spot in spots]
    avoid = [_placed(spot, chosen) for spot in spots]
    extras: list[tuple[()] | tuple[Item, tuple[float, float], InfoBlock]] = [() for _ in spots]
    for bars in (ruler_block(sheet.lang), ruler_block(sheet.lang, ("mm",))):
        wanted = [k for k, lack in enumerate(lacking) if lack and not extras[k]]
        if not wanted:
            break
        if plan.reserve >= bars.height:  # the strip kept under the board holds them
            bar_spots: list[tuple[float, float] | None] = [(margin, margin)] * len(spots)
        else:
            bar_spots = _place_blocks(sheet, plan, margin, bars, avoid)
        for k in wanted:
            spot = bar_spots[k]
            if spot is not None:
                extras[k] = (Group(bars.items, translate(*spot)), spot, bars)
    return extras


def _keeping_whole(sheet: Sheet, paper: PaperSize, margin: float) -> Sheet:
    """``sheet`` with its ``whole`` part kept from being cut (a piece) where the paper holds
    it, else with its note among the info lines."""
    from dataclasses import replace

    if sheet.whole is None:
        return sheet
    x0, y0, x1, y1 = sheet.whole.bounds
    if _holds(paper, margin, (x1 - x0, y1 - y0)):
        return replace(sheet, pieces=[*sheet.pieces, (x0, y0, x1, y1)])
    if not sheet.whole_note:
        return sheet
    size = (sheet.content.width_mm, sheet.content.height_mm)
    inch = paper.name in INCH_PAPERS
    fitting = [
        name
        for name, (w, h) in PAPER_SIZES.items()
        if (name in INCH_PAPERS) == inch and _holds(PaperSize(name, w, h), margin, size)
    ]
    holder = min(fitting, key=lambda name: PAPER_SIZES[name][0] * PAPER_SIZES[name][1], default="")
    shown = holder.title() if inch else holder.upper()
    return replace(sheet, lines=[*sheet.lines, sheet.whole_note.format(paper=shown)])


def _holds(paper: PaperSize, margin: float, size: tuple[float, float]) -> bool:
    """Whether a page of ``paper`` holds a ``size`` box inside its margins, either way up."""
    window = sorted((paper.width_mm - 2 * margin, paper.height_mm - 2 * margin))
    return all(s <= w + FIT_SLACK_MM for s, w in zip(sorted(size), window))


def _info_page(sheet: Sheet, plan: Plan, margin: float, block: InfoBlock, kit: bool = False) -> Scene:
    """A page with just the info block and the print note (when no board page has room)."""
    page = Scene(plan.page.width_mm, plan.page.height_mm, title=sheet.title)
    top = plan.page.height_mm - margin - block.height
    page.add(Group(block.items, translate(margin, top)))
    page.add(*page_labels(sheet, plan, margin, plan.pages + 1, -1, -1, kit))
    return page


PLACEMENT_STEPS = 48
"""Candidate positions tried across a page in each direction: the search costs the same on
any paper size."""


def _place_blocks(
    sheet: Sheet, plan: Plan, margin: float, block: InfoBlock, avoid: Sequence[Any] = ()
) -> list[tuple[float, float] | None]:
    """Where the info block fits, upright, on each page of ``plan`` (None where it does not),
    clear of ``avoid`` (a page box per page, or None, such as words already placed there)."""
    import numpy
    import shapely
    from shapely import affinity

    footprint = sheet_footprint(sheet).buffer(2.0)
    width, height = plan.page.width_mm, plan.page.height_mm
    window = shapely.box(margin, margin, width - margin, height - margin)
    spots: list[tuple[float, float] | None] = []
    xs = numpy.linspace(margin, width - margin - block.width, PLACEMENT_STEPS)
    ys = numpy.linspace(margin, height - margin - block.height - PRINT_NOTE_ROOM_MM, PLACEMENT_STEPS)
    if width - 2 * margin < block.width or len(ys) == 0 or ys[-1] < margin:
        return [None] * plan.pages
    gx, gy = (g.ravel() for g in numpy.meshgrid(xs, ys))
    boxes = shapely.box(gx, gy, gx + block.width, gy + block.height)
    for row in range(plan.rows):
        for column in range(plan.columns):
            a, b, c, d, e, f = _content_matrix(sheet, plan, margin, column, row)
            free = window.difference(affinity.affine_transform(footprint, [a, c, b, d, e, f]))
            # Never on a strip that is cut off or hidden under the next page.
            free = free.difference(shapely.union_all(overlap_bands(plan, margin, column, row)))
            taken = avoid[len(spots)] if len(avoid) > len(spots) else None
            if taken is not None:
                free = free.difference(taken.buffer(GAP_MM))
            shapely.prepare(free)
            inside = numpy.flatnonzero(shapely.contains(free, boxes))
            spots.append((float(gx[inside[0]]), float(gy[inside[0]])) if len(inside) else None)
    return spots


def overlap_bands(plan: Plan, margin: float, column: int, row: int) -> list[Any]:
    """The strips of this page (page mm, shapely boxes) that overlap a neighbouring page:
    trimmed off, or lying under the neighbour, once the pages are put together."""
    import shapely

    width, height = plan.page.width_mm, plan.page.height_mm
    window_w, window_h = width - 2 * margin, height - 2 * margin - plan.reserve
    bottom, top = margin + plan.reserve, height - margin
    xs, ys = plan.xs, plan.ys
    bands = []
    if column > 0:
        bands.append(shapely.box(0, 0, margin + xs[column - 1] + window_w - xs[column], height))
    if column < plan.columns - 1:
        bands.append(shapely.box(width - margin - (xs[column] + window_w - xs[column + 1]), 0, width, height))
    if row > 0:
        bands.append(shapely.box(0, top - (ys[row - 1] + window_h - ys[row]), width, height))
    if row < plan.rows - 1:
        bands.append(shapely.box(0, 0, width, bottom + (ys[row] + window_h - ys[row + 1])))
    return bands


PRINT_NOTE_ROOM_MM = 0.0
"""Room kept under the top margin for the print note (it lives in the margin itself)."""


def _pages(
    sheet: Sheet,
    plan: Plan,
    margin: float,
    block: InfoBlock,
    spots: Sequence[tuple[float, float] | None],
    kit: bool = False,
) -> list[Scene]:
    import shapely

    pages = []
    total = plan.pages
    for row in range(plan.rows):
        for column in range(plan.columns):
            number = row * plan.columns + column + 1
            page = Scene(plan.page.width_mm, plan.page.height_mm, title=f"{sheet.title} — {number}/{total}")
            window = (margin, margin + plan.reserve, plan.page.width_mm - margin, plan.page.height_mm - margin)
            matrix = _content_matrix(sheet, plan, margin, column, row)
            items = tuple(sheet.content.items)
            if total > 1:
                items = _within(items, matrix, window)
            page.add(Group(items, matrix, clip=window))
            if sheet.bleed_mm > 0 and sheet.pieces:
                page.trim, page.bleed_mm = _trim_box(sheet, matrix, window), sheet.bleed_mm
            spot = spots[number - 1]
            if total > 1:
                placed = None
                if spot is not None:
                    placed = shapely.box(spot[0], spot[1], spot[0] + block.width, spot[1] + block.height)
                elif plan.reserve:
                    placed = shapely.box(margin, margin, plan.page.width_mm - margin, margin + plan.reserve)
                page.add(*alignment_marks(sheet, plan, matrix, margin, column, row, placed))
                page.add(*assembly_grid(plan, margin, column, row))
            if spot is not None:
                page.add(Group(block.items, translate(*spot)))
            page.add(*page_labels(sheet, plan, margin, number, row, column, kit))
            pages.append(page)
    return pages


def _within(items: tuple[Item, ...], matrix: Matrix, window: Box) -> tuple[Item, ...]:
    """``items`` without the texts that ``matrix`` places wholly outside ``window``: the clip
    hides them on paper, but a PDF reader, a search or a copy would still find them on every
    tile. A text is kept when any of it may show (its extent is overestimated)."""
    kept: list[Item] = []
    for item in items:
        if isinstance(item, Group):
            inner = compose(matrix, item.transform)
            kept.append(Group(_within(item.items, inner, window), item.transform, item.clip))
        elif not isinstance(item, Text) or _may_show(item, matrix, window):
            kept.append(item)
    return tuple(kept)


def _may_show(text: Text, matrix: Matrix, window: Box) -> bool:
    x, y = apply(matrix, text.at)
    a, b, c, d = matrix[:4]
    reach = (len(text.text) + 2) * text.size_mm * math.sqrt(abs(a * d - b * c))
    return window[0] - reach <= x <= window[2] + reach and window[1] - reach <= y <= window[3] + reach


def _trim_box(sheet: Sheet, matrix: Matrix, window: Box) -> Box:
    """The box round the trimmed pieces on this page (page mm): the PDF TrimBox."""

    b = sheet.bleed_mm
    corners = [
        apply(matrix, (x, y)) for x0, y0, x1, y1 in sheet.pieces for x in (x0 + b, x1 - b) for y in (y0 + b, y1 - b)
    ]
    xs = [min(max(x, window[0]), window[2]) for x, _ in corners]
    ys = [min(max(y, window[1]), window[3]) for _, y in corners]
    return (min(xs), min(ys), max(xs), max(ys))
