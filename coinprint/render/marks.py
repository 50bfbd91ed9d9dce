"""Page furniture: what a page of a tiled board carries besides the board. The print note and
the page labels, the small grid showing where a tile goes among the others, registration
crosses and dashed trim lines where tiles overlap (only where no playing space lies), and the
backs of a page of cards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from coinprint import __version__
from coinprint.render.pdf import Folio, folio_text
from coinprint.render.scene import (
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
    polyline,
)
from coinprint.render.sheet import FIT_SLACK_MM, Box, Sheet, sheet_footprint
from coinprint.render.style import text_style
from coinprint.render.words import INK, localise_numbers, page_words

if TYPE_CHECKING:
    import shapely

    from coinprint.render.tiling import Plan


def page_labels(
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


def assembly_grid(plan: Plan, margin: float, column: int, row: int) -> list[Item]:
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


def alignment_marks(
    sheet: Sheet, plan: Plan, matrix: Matrix, margin: float, column: int, row: int, avoid: Any = None
) -> list[Item]:
    """On the page at ``column`` and ``row`` of ``plan``, whose content ``matrix`` places:
    registration crosses at the same place of the content on both pages of every overlap:
    inside the overlap band only where no playing space lies, and in the page margins at the
    band's ends (outside the drawn content); a dashed trim line on the edges that lie over a
    neighbour."""
    import shapely
    from shapely import affinity

    width, height = plan.page.width_mm, plan.page.height_mm
    window_w, window_h = width - 2 * margin, height - 2 * margin - plan.reserve
    bottom, top = margin + plan.reserve, height - margin
    a, b, c, d, e, f = matrix
    taken = affinity.affine_transform(sheet_footprint(sheet).buffer(CROSS_MM + 1.0), [a, c, b, d, e, f])
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
