"""Putting a true-size drawing on paper: tiling over pages, the scale-check ruler, alignment
marks and page labels.

A :class:`Sheet` is what is printed: a content scene at true size plus its title and info
lines. :func:`paginate` tiles it over as few pages as it can (turning the content or the page
a quarter turn when that saves pages), centres it on the tiled area, labels every page,
draws alignment marks where tiles overlap (only where no playing space lies), and puts the
info block (title, info lines and a 100 mm / 4 in ruler) where the content leaves room, in a
strip reserved at the bottom, or on a page of its own — never dropped, never turned.
Every page says "print at 100 %" at a readable size; a tiled page carries a small grid
showing where it goes among the others. :func:`single_sheet` makes one scene of the whole
thing (for SVG). The words come from ``templates/pages.<lang>.json``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from coinprint import __version__
from coinprint.render.pdf import Folio, folio_text, text_width_mm
from coinprint.render.scene import (
    IDENTITY,
    Circle,
    Group,
    Item,
    Matrix,
    Path,
    Point,
    Scene,
    Style,
    Text,
    apply,
    compose,
    polyline,
    translate,
)
from coinprint.render.style import text_style
from coinprint.units import INCH_PAPERS, PAPER_SIZES, PaperSize

if TYPE_CHECKING:
    import shapely

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
    own_info: bool = False
    """The content carries its own title, info lines and scale bars (the Flick mat, in the
    corners outside its goal): the pages add no info block."""


@cache
def page_words(lang: str = "en") -> dict[str, str]:
    """The texts printed round a board (``templates/pages.<lang>.json``)."""
    from coinprint.render.document import load_template

    words: dict[str, str] = load_template(f"pages.{lang}.json")
    return words


def localise_numbers(text: str, lang: str = "en") -> str:
    """``text`` with the decimal points of its numbers, and inches, written as ``lang`` writes
    them (``24,26 mm``, ``1,25 tum`` in Swedish)."""
    import re

    words = page_words(lang)
    mark, inch = words.get("decimal_mark", "."), words.get("inch_unit", "in")
    if mark != ".":
        text = re.sub(r"(?<=\d)\.(?=\d)", mark, text)
    if inch != "in":  # "(1.25 in)" as the language writes inches
        text = re.sub(r"(?<=\d) in\b", f" {inch}", text)
    return text


def board_texts(game: str, lang: str = "en") -> dict[str, Any]:
    """The ``board`` part of ``game``'s template in ``lang``: title and info lines."""
    from coinprint.render.document import load_template

    texts: dict[str, Any] = load_template(f"{game}.{lang}.json")["board"]
    return texts


# -- the info block: title, lines, ruler ----------------------------------------------------------------
def ruler_items(x: float, y: float, lang: str = "en", bars: tuple[str, ...] = ("in", "mm")) -> list[Item]:
    """A 100 mm bar and a 4 in bar (or those of ``bars``), ticked and labelled, with their
    bottom-left at (x, y)."""
    words = page_words(lang)
    label_mm = text_style("ruler_label").size_mm
    thin = Style(stroke=INK, stroke_mm=0.2)
    bar = Style(fill=INK, stroke=None)
    items: list[Item] = []
    kinds = {"in": (RULER_IN_MM, 8, words["ruler_in"]), "mm": (RULER_MM, 10, words["ruler_mm"])}
    for row, (length, ticks, label) in enumerate(kinds[kind] for kind in bars):
        base = y + row * 6.5
        items.append(Path((((x, base), (x + length, base), (x + length, base + 1.2), (x, base + 1.2)),), bar))
        for tick in range(ticks + 1):
            tx = x + length * tick / ticks
            items.append(polyline([(tx, base), (tx, base + (2.6 if tick in (0, ticks) else 1.9))], thin))
        items.append(Text((x, base + 3.2), label, label_mm, "start", INK))
    return items


RULER_SIZE = (RULER_IN_MM + 0.1, 12.0)


@dataclass(frozen=True)
class InfoBlock:
    items: tuple[Item, ...]
    width: float
    height: float
    rulers: bool = True
    """Whether the block carries the scale-check bars."""


INFO_WIDTH_MM = 125.0
"""Info lines are wrapped to this width, so the block fits beside a board."""
INFO_CHARS = 85
"""And to this many characters, so a line of the info block stays easy to read."""


def info_block(
    title: str, lines: list[str], lang: str = "en", width: float = INFO_WIDTH_MM, *, rulers: bool = True
) -> InfoBlock:
    """The title, the info lines (wrapped to ``width``) and, with ``rulers``, the bars under
    them, drawn with the bottom-left at (0, 0)."""
    from coinprint.render.document import wrap

    info, heading = text_style("board_info"), text_style("board_title")
    measure = max(width, RULER_SIZE[0]) if rulers else width
    shown = [
        part
        for line in lines
        for part in wrap(localise_numbers(line, lang), measure, info.size_mm, max_chars=INFO_CHARS)
    ]
    title = localise_numbers(title, lang)
    width = max([RULER_SIZE[0] if rulers else 0.0, *(text_width_mm(line, info.size_mm) for line in shown)])
    y = (RULER_SIZE[1] + 1.5 if rulers else 1.0) + info.leading_mm * len(shown)
    # Drawn top down (title, lines, bars), so the page's text reads in order.
    items: list[Item] = [Text((0.0, y + 0.5), title, heading.size_mm, "start", INK, bold=True)]
    for number, line in enumerate(shown, start=1):
        items.append(Text((0.0, y - number * info.leading_mm), line, info.size_mm, "start", INK))
    if rulers:
        items += ruler_items(0.0, 0.0, lang)
    width = max(width, text_width_mm(title, heading.size_mm, bold=True))
    return InfoBlock(tuple(items), width, y + 0.5 + heading.size_mm, rulers)


AID_WIDTHS_MM = (110.0, 80.0, 62.0)
"""The measures a player aid set beside a board is tried in (wide and short first)."""


def aid_blocks(title: str, lines: list[str], lang: str = "en") -> list[InfoBlock]:
    """A player aid in each of :data:`AID_WIDTHS_MM` (see :func:`aid_block`)."""
    return [aid_block(title, lines, lang, width) for width in AID_WIDTHS_MM]


def aid_block(title: str, lines: list[str], lang: str = "en", measure: float = AID_WIDTHS_MM[0]) -> InfoBlock:
    """A player aid to set where a board leaves room: its title and its lines, each behind a
    bullet and wrapped to ``measure`` with a hanging indent, drawn with the bottom-left at
    (0, 0)."""
    from coinprint.render.document import wrap

    info, heading = text_style("board_info"), text_style("board_title")
    indent = info.size_mm * 1.2
    rows = [
        (k == 0, part)
        for line in lines
        for k, part in enumerate(wrap(localise_numbers(line, lang), measure - indent, info.size_mm))
    ]
    y = 1.0 + info.leading_mm * len(rows)
    items: list[Item] = [Text((0.0, y + 0.5), localise_numbers(title, lang), heading.size_mm, "start", INK, bold=True)]
    for number, (first, part) in enumerate(rows, start=1):
        base = y - number * info.leading_mm
        if first:  # the bullet before its line, so the text reads in order
            items.append(Text((0.0, base), "•", info.size_mm, "start", INK))
        items.append(Text((indent, base), part, info.size_mm, "start", INK))
    width = max([indent + text_width_mm(part, info.size_mm) for _, part in rows] or [0.0])
    width = max(width, text_width_mm(title, heading.size_mm, bold=True))
    return InfoBlock(tuple(items), width, y + 0.5 + heading.size_mm, rulers=False)


def minimum_paper(margin: float) -> tuple[float, float]:
    """The smallest page (short side, long side) a board can be printed on with ``margin``:
    the 4 in ruler and the print note must fit across it either way up."""
    side = math.ceil(2 * margin + RULER_SIZE[0] + 4.0)
    return (side, side)


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


def ruler_block(lang: str = "en", bars: tuple[str, ...] = ("in", "mm")) -> InfoBlock:
    """The scale-check bars alone (for a page that has no room for the whole info block)."""
    return InfoBlock(tuple(ruler_items(0.0, 0.0, lang, bars)), RULER_SIZE[0], 6.5 * (len(bars) - 1) + 5.5)


def _info_page(sheet: Sheet, plan: Plan, margin: float, block: InfoBlock, kit: bool = False) -> Scene:
    """A page with just the info block and the print note (when no board page has room)."""
    page = Scene(plan.page.width_mm, plan.page.height_mm, title=sheet.title)
    top = plan.page.height_mm - margin - block.height
    page.add(Group(block.items, translate(margin, top)))
    page.add(*_page_labels(sheet, plan, margin, plan.pages + 1, -1, -1, kit))
    return page


def _footprint(sheet: Sheet) -> shapely.Geometry:
    import shapely

    footprint = sheet.footprint
    if footprint is None:
        footprint = shapely.box(0, 0, sheet.content.width_mm, sheet.content.height_mm)
    return footprint if sheet.whole is None else footprint.union(sheet.whole)


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

    footprint = _footprint(sheet).buffer(2.0)
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
                page.add(*_alignment_marks(sheet, plan, margin, column, row, placed))
                page.add(*_assembly_grid(plan, margin, column, row))
            if spot is not None:
                page.add(Group(block.items, translate(*spot)))
            page.add(*_page_labels(sheet, plan, margin, number, row, column, kit))
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


def _page_labels(
    sheet: Sheet, plan: Plan, margin: float, number: int, row: int, column: int, kit: bool = False
) -> list[Item]:
    """The print note at the top (in the board-page style's size) and the page's title,
    number, place and trimming notes at the bottom, wrapped to the page; in a ``kit`` the
    words count the kit's pages (a :class:`Folio`)."""
    from coinprint.render.document import wrap

    words = page_words(sheet.lang)
    note, info = text_style("print_note"), text_style("page_info")
    width = plan.page.width_mm - 2 * margin
    total = plan.pages + (1 if row < 0 else 0)
    title = folio_text(sheet.title) if kit else sheet.title
    tiled = plan.pages > 1 and row >= 0
    key = ("page_info" if tiled else "page_info_single") + ("_kit" if kit else "")
    text = words[key].format(
        title=title,
        page=number,
        pages=total,
        row=row + 1,
        column=column + 1,
        version=__version__,
        kit_page="{kit_page}",
        kit_pages="{kit_pages}",
    )
    trims = [words["trim_left"]] * (column > 0) + [words["trim_above"]] * (row > 0)
    # The page info keeps clear of the registration crosses below the overlap bands.
    inset = _band_inset(plan, margin, column) if tiled else 0.0
    lines = wrap(" — ".join([text, *trims]), width - 2 * inset, info.size_mm)
    items: list[Item] = []
    top = plan.page.height_mm - max(1.5, (margin - note.size_mm) / 2) - note.size_mm * 0.76
    items.append(
        Text((margin, top), wrap(words["print_note"], width, note.size_mm, True)[0], note.size_mm, "start", INK, True)
    )
    base = max(1.0, margin / 2 - info.leading_mm * (len(lines) - 1) / 2 - info.size_mm * 0.3)
    for k, line in enumerate(reversed(lines)):
        at = (margin + inset, base + k * info.leading_mm)
        if kit and "{kit_page" in line:
            items.append(Folio(at, line, info.size_mm, "start", INK))
        else:
            items.append(
                Text(at, line.replace("{{", "{").replace("}}", "}") if kit else line, info.size_mm, "start", INK)
            )
    return items


def _band_inset(plan: Plan, margin: float, column: int) -> float:
    """How far from the page's sides the crosses under this page's overlap bands reach."""
    window_w = plan.page.width_mm - 2 * margin
    reach = [0.0]
    if column > 0:
        reach.append(margin + (plan.xs[column - 1] + window_w - plan.xs[column]) / 2)
    if column < plan.columns - 1:
        reach.append(margin + (plan.xs[column] + window_w - plan.xs[column + 1]) / 2)
    return max(reach) + CROSS_MM + 1.5 - margin if max(reach) else 0.0


def _assembly_grid(plan: Plan, margin: float, column: int, row: int) -> list[Item]:
    """A small picture of the sheets in the top-right margin, this page filled in."""
    cell_h = max(0.8, min(3.0, (margin - 2.5) / plan.rows))
    cell_w = cell_h * 1.4
    right = plan.page.width_mm - margin
    top = plan.page.height_mm - (margin - cell_h * plan.rows) / 2
    items: list[Item] = []
    for r in range(plan.rows):
        for c in range(plan.columns):
            x0 = right - (plan.columns - c) * cell_w
            y1 = top - r * cell_h
            filled = (r, c) == (row, column)
            style = Style(fill=INK if filled else None, stroke=INK, stroke_mm=0.15)
            items.append(Path((((x0, y1 - cell_h), (x0 + cell_w, y1 - cell_h), (x0 + cell_w, y1), (x0, y1)),), style))
    return items


def _alignment_marks(sheet: Sheet, plan: Plan, margin: float, column: int, row: int, avoid: Any = None) -> list[Item]:
    """Registration crosses at the same place of the content on both pages of every overlap:
    inside the overlap band only where no playing space lies, and in the page margins at the
    band's ends (outside the drawn content); a dashed trim line on the edges that lie over a
    neighbour."""
    import shapely
    from shapely import affinity

    width, height = plan.page.width_mm, plan.page.height_mm
    window_w, window_h = width - 2 * margin, height - 2 * margin - plan.reserve
    bottom, top = margin + plan.reserve, height - margin
    a, b, c, d, e, f = _content_matrix(sheet, plan, margin, column, row)
    taken = affinity.affine_transform(_footprint(sheet).buffer(CROSS_MM + 1.0), [a, c, b, d, e, f])
    if avoid is not None:  # the info block
        taken = taken.union(avoid.buffer(CROSS_MM + 1.0))
    frame = shapely.box(margin, bottom, width - margin, top)
    items: list[Item] = []
    thin = Style(stroke=INK, stroke_mm=0.2)
    dashed = Style(stroke=INK, stroke_mm=0.25, dash_mm=(2.0, 1.5))
    xs, ys = plan.xs, plan.ys
    free_margin = margin >= 2 * CROSS_MM + 1.0

    def band(points: list[tuple[float, float]]) -> list[Item]:
        clear = [p for p in points if not taken.intersects(shapely.Point(p))]
        return [_cross(x, y, thin) for x, y in _spread(clear, 4 * CROSS_MM)]

    def along(low: float, high: float) -> list[float]:
        return [low + (high - low) * (k + 0.5) / 24 for k in range(24)]

    vertical: list[float] = []
    if column > 0:  # overlap with the left neighbour: content [xs[c], xs[c-1] + window_w]
        vertical.append(margin + (xs[column - 1] + window_w - xs[column]) / 2)
        items += _trim_line(
            sheet, (a, b, c, d, e, f), frame, ((margin, bottom), (margin, top)), 0, margin, vertical[-1], dashed
        )
    if column < plan.columns - 1:
        vertical.append(width - margin - (xs[column] + window_w - xs[column + 1]) / 2)
    for x in vertical:
        crosses = band([(x, y) for y in along(bottom + CROSS_MM, top - CROSS_MM)])
        if len(crosses) < 2 and free_margin and plan.reserve == 0:  # none clear: one below the window
            crosses.append(_cross(x, margin / 2, thin))
        items += crosses
    horizontal: list[float] = []
    if row > 0:  # overlap with the page above
        horizontal.append(top - (ys[row - 1] + window_h - ys[row]) / 2)
        items += _trim_line(
            sheet, (a, b, c, d, e, f), frame, ((margin, top), (width - margin, top)), 1, top, horizontal[-1], dashed
        )
    if row < plan.rows - 1:
        horizontal.append(bottom + (ys[row] + window_h - ys[row + 1]) / 2)
    for y in horizontal:
        crosses = band([(x, y) for x in along(margin + CROSS_MM, width - margin - CROSS_MM)])
        if len(crosses) < 2 and free_margin:  # too few clear: in the side margins
            crosses += [_cross(margin / 2, y, thin), _cross(width - margin / 2, y, thin)]
        items += crosses
    return items


def _spread(points: list[tuple[float, float]], apart: float) -> list[tuple[float, float]]:
    """Up to three of ``points`` (in order along a line), the first, the last and the one
    nearest the middle, no two closer than ``apart``."""
    import math

    if not points:
        return []
    chosen = [points[0]]
    for candidate in (points[-1], points[len(points) // 2]):
        if all(math.dist(candidate, p) >= apart for p in chosen):
            chosen.append(candidate)
    return chosen


def _trim_line(
    sheet: Sheet,
    matrix: Matrix,
    window: Any,
    edge: tuple[Point, Point],
    axis: int,
    at: float,
    middle: float,
    style: Style,
) -> list[Item]:
    """The dashed line to cut this page along before laying it over its neighbour (to the
    left when ``axis`` is 0, above when 1): along the window's edge (``at``) where no cell
    lies, and along cell edges through the overlap band (whose middle is ``middle``), so
    every cell is kept whole from one page or the other."""
    import shapely
    from shapely import affinity

    straight = shapely.LineString(edge)
    if not sheet.cells:
        return [polyline(edge, style)]
    a, b, c, d, e, f = matrix
    cells = [affinity.affine_transform(cell, [a, c, b, d, e, f]) for cell in sheet.cells]
    sign = 1 if axis == 0 else -1  # which way is "into this page"

    def inside(cell: shapely.Polygon) -> bool:  # the cell lies whole on this page's side of the edge
        bounds: Box = cell.bounds
        low, high = (bounds[axis], bounds[axis + 2])
        return sign * ((low if sign > 0 else high) - at) >= -1e-6

    def here(cell: shapely.Polygon) -> bool:
        centre: float = cell.centroid.coords[0][axis]
        return inside(cell) and (sign * (centre - middle) >= 0 or not _other_side(cell, axis, at, middle, sign))

    mine = [cell for cell in cells if here(cell)]
    theirs = [cell for cell in cells if not here(cell)]
    if not mine or not theirs:
        return [polyline(edge, style)]
    shared = shapely.union_all(mine).boundary.intersection(shapely.union_all(theirs).boundary)
    shared = shapely.line_merge(shapely.union_all([g for g in getattr(shared, "geoms", [shared]) if g.length > 0]))
    shared = shared.intersection(window)
    rest = straight.difference(shapely.union_all(cells).buffer(0.01))
    items: list[Item] = []
    for line in [*getattr(shared, "geoms", [shared]), *getattr(rest, "geoms", [rest])]:
        if line.geom_type == "LineString" and line.length > 0:
            items.append(polyline(line.coords, style))
    return items


def _other_side(cell: shapely.Polygon, axis: int, at: float, middle: float, sign: int) -> bool:
    """Whether ``cell`` also lies whole on the neighbour's page (it ends before the band's
    far edge, which is as far past ``middle`` as ``at`` is before it)."""
    far = 2 * middle - at
    bounds: Box = cell.bounds
    low, high = bounds[axis], bounds[axis + 2]
    return sign * ((high if sign > 0 else low) - far) <= 1e-6


CROSS_MM = 3.5
"""Half the length of a registration cross's arms."""


def _cross(x: float, y: float, style: Style) -> Group:
    return Group(
        (
            Circle((x, y), 1.8, style),
            polyline([(x - CROSS_MM, y), (x + CROSS_MM, y)], style),
            polyline([(x, y - CROSS_MM), (x, y + CROSS_MM)], style),
        )
    )


def card_backs(sheet: Sheet, front: Scene, title: str, lines: list[str]) -> Scene:
    """The back of ``front`` (a page of ``sheet``'s cards, as :func:`paginate` set it) for
    a double-sided printer turning the sheet on its long edge: each card whole on the front
    gets, right behind it, its outline and ``title`` with ``lines`` wrapped to it."""
    from coinprint.render.document import wrap

    content = next(item for item in front.items if isinstance(item, Group) and item.clip is not None)
    x_min, y_min, x_max, y_max = content.clip or (0.0, 0.0, front.width_mm, front.height_mm)
    back = Scene(front.width_mm, front.height_mm, title=title)
    info, heading = text_style("body"), text_style("board_title")
    outline = Style(stroke=INK, stroke_mm=0.2, dash_mm=(2.0, 1.0))
    b = sheet.bleed_mm
    for x0, y0, x1, y1 in sheet.pieces:
        corners = [apply(content.transform, (x, y)) for x in (x0 + b, x1 - b) for y in (y0 + b, y1 - b)]
        left, right = min(x for x, _ in corners), max(x for x, _ in corners)
        low, high = min(y for _, y in corners), max(y for _, y in corners)
        if left < x_min - FIT_SLACK_MM or right > x_max + FIT_SLACK_MM or low < y_min - FIT_SLACK_MM:
            continue
        if high > y_max + FIT_SLACK_MM:
            continue
        # Turned on its long edge, the sheet's short side runs the other way: mirror along it.
        if front.width_mm <= front.height_mm:
            left, right = front.width_mm - right, front.width_mm - left
        else:
            low, high = front.height_mm - high, front.height_mm - low
        box = ((left, low), (right, low), (right, high), (left, high))
        back.add(Path((box,), outline))
        pad = 5.0
        y = high - pad - heading.size_mm
        back.add(Text((left + pad, y), localise_numbers(title, sheet.lang), heading.size_mm, "start", INK, bold=True))
        y -= heading.size_mm * 0.6
        for line in lines:
            for k, part in enumerate(
                wrap(localise_numbers(line, sheet.lang), right - left - 2 * pad - 3.0, info.size_mm)
            ):
                y -= info.leading_mm
                if y < low + pad:
                    break
                if k == 0:  # the bullet first, so the back's text reads in order
                    back.add(Text((left + pad, y), "•", info.size_mm, "start", INK))
                back.add(Text((left + pad + 3.0, y), part, info.size_mm, "start", INK))
            y -= info.leading_mm * 0.3
    return back


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
