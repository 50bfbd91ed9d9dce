"""Rule sheets and other text documents set like a printed rulebook: headings, paragraphs,
lists, tables and figures flowed by reportlab's platypus (page templates, frames, keep-with-
next) into one, two or three columns, as scenes for the PDF backend.

Documents are written as a list of blocks, usually read from a template JSON file
(``templates/<game>.<lang>.json``) with :func:`blocks_from_json`::

    [{"h1": "Coin Age"},
     {"p": "Two players, ten spaces, {coins} coins each."},
     {"ul": ["first point", "second point"]},
     {"ol": ["first step", "second step"], "marker": "A"},
     {"table": [["Matches", "You may"], ["4", "place 2"]], "widths": [1, 3]},
     {"figure": "map", "caption": "The classic map", "height_mm": 60}]

``{name}`` in any text is replaced from the ``values`` given; a figure names a scene given
in ``figures``.

How the pages are set (sizes are the named styles of ``templates/styles.json``):

- the text is split into as many columns as keep a line of body text within the measure
  (``max_measure_chars``), so A3 gets three columns and A5 one rather than longer lines;
- a heading never ends a column: it moves on with the start of what follows it;
- a figure is scaled to the column and kept with its caption; any text in it is printed no
  smaller than ``figure_label_min``;
- a paragraph is split between columns only where both parts keep two lines;
- ``pagebreak`` blocks only ask for room (half a column), so no page is left mostly empty.

Platypus lays out on a recording canvas: each flowable places :mod:`coinprint.render.scene`
items, so the same pages go to PDF (and could go to SVG) like every other drawing.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, LayoutError, PageTemplate

from coinprint.errors import CoinprintError, UsageError
from coinprint.render.labels import fit_labels
from coinprint.render.pdf import _FONTS, ITALIC_FONT, Folio, folio_text, register_fonts
from coinprint.render.scene import Group, Item, Scene, Style, Text, compose, polyline, translate
from coinprint.render.style import TypeStyle, rule_sheet_setting, text_style
from coinprint.resources import template_path
from coinprint.units import PaperSize

INK = "#000000"
RULE = Style(stroke=INK, stroke_mm=0.2)
HEADING_STYLES = {1: "h1", 2: "h2", 3: "h3"}


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1


@dataclass(frozen=True)
class Paragraph:
    text: str
    bold: bool = False


@dataclass(frozen=True)
class ListBlock:
    """A bulleted (``marker`` "•"), numbered ("1") or lettered ("A"/"a") list."""

    items: tuple[str, ...]
    marker: str = "•"
    whole: bool = False
    """After a heading, moved on whole with it rather than split (a player aid)."""


@dataclass(frozen=True)
class Table:
    """Rows of cells; the first row is the header when ``header``. ``widths`` are relative."""

    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...] = ()
    header: bool = True


@dataclass(frozen=True)
class Figure:
    scene: Scene
    caption: str = ""
    height_mm: float = 70.0
    """The largest height the figure may take; it is also scaled to fit the column."""


@dataclass(frozen=True)
class Spacer:
    height_mm: float = 3.0


@dataclass(frozen=True)
class PageBreak:
    pass


Block = Heading | Paragraph | ListBlock | Table | Figure | Spacer | PageBreak


def _font(style: TypeStyle, bold: bool = False) -> str:
    register_fonts()
    if style.italic and not bold:
        return ITALIC_FONT
    return _FONTS[bold or style.bold]


FIELD = re.compile("\ue000(.)(.*?)\ue001")
"""A field in a text (:func:`field`): its number (a character from U+E100) and its text."""


def field(number: int, text: str) -> str:
    """``text`` as field ``number`` of a document: measured and set as ``text`` is, and filled
    in after the layout (:func:`fill_fields`) with words as wide (a kit's page numbers, known
    once its rule sheet is set)."""
    return f"\ue000{chr(0xE100 + number)}{text}\ue001"


def plain(text: str) -> str:
    """``text`` with its fields as their texts (what is measured)."""
    return FIELD.sub(r"\2", text) if "\ue000" in text else text


def fill_fields(pages: Sequence[Scene], words: Sequence[str]) -> list[Scene]:
    """``pages`` with field ``n`` of every text set to ``words[n]`` (see :func:`field`)."""

    def filled(item: Item) -> Item:
        if isinstance(item, Text) and "\ue000" in item.text:
            return replace(item, text=FIELD.sub(lambda found: words[ord(found.group(1)) - 0xE100], item.text))
        if isinstance(item, Group):
            return replace(item, items=tuple(filled(inner) for inner in item.items))
        return item

    return [replace(page, items=[filled(item) for item in page.items]) for page in pages]


def split_lines(text: str, width_mm: float, size_mm: float, font: str, max_chars: int | None = None) -> list[str]:
    """``text`` broken into lines no wider than ``width_mm`` and, with ``max_chars``, no
    longer than that many characters (a word too long stands alone); a newline in ``text``
    always breaks."""
    return list(_split_lines(text, width_mm, size_mm, font, max_chars))


@lru_cache(maxsize=8192)
def _split_lines(text: str, width_mm: float, size_mm: float, font: str, max_chars: int | None) -> tuple[str, ...]:
    # A sheet is set several times over (balanced columns, the kit's page numbers, with and
    # without its player aid), nearly always in the same columns: each text is measured once.
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            measured = plain(candidate)
            too_long = max_chars is not None and len(measured) > max_chars
            if line and (too_long or stringWidth(measured, font, size_mm) > width_mm):
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return tuple(lines)


def same_measure(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` have the same words, each as wide as the other's in
    every font a sheet is set in ("pages 3–4" and "pages 5–6"): a sheet set with one is set
    the same with the other, its words alone changed."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    words = list(zip(first.split(), second.split()))
    if len(words) != len(first.split()) or len(words) != len(second.split()):
        return False
    fonts = {*_FONTS.values(), ITALIC_FONT}
    return all(
        len(a) == len(b) and all(stringWidth(a, font, 10.0) == stringWidth(b, font, 10.0) for font in fonts)
        for a, b in words
        if a != b
    )


def wrap(text: str, width_mm: float, size_mm: float, bold: bool = False, max_chars: int | None = None) -> list[str]:
    """``text`` broken into lines no wider than ``width_mm`` (and no longer than
    ``max_chars``) in the regular (or bold) font."""

    register_fonts()
    return split_lines(text, width_mm, size_mm, _FONTS[bold], max_chars)


def _marker(style: str, index: int) -> str:
    if style == "1":
        return f"{index + 1}."
    if style in ("A", "a"):
        return f"{chr(ord(style) + index)}."
    return style


def _baseline(top: float, style: TypeStyle) -> float:
    """The baseline of a line whose box starts at ``top`` (the text centred in its leading)."""
    return top - (style.leading_mm - style.size_mm) / 2 - 0.76 * style.size_mm


Drawing = Callable[[], Sequence[Item]]
"""What a flowable placed on a page, drawn when called (into scene items)."""


class _Recorder(Canvas):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """A canvas that keeps, page by page, what our flowables placed on it. A sheet is set
    several times to find its best setting (balanced columns, smaller pictures), so a place is
    recorded as a :data:`Drawing` and only the setting kept is drawn."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(io.BytesIO(), pagesize=kwargs.get("pagesize"), invariant=1)
        self.pages: list[list[Drawing]] = [[]]
        self.spots: list[list[tuple[float, float]]] = [[]]
        """Where each drawing was placed: its left edge and its foot (points of the page)."""

    def record(self, drawing: Drawing, at: tuple[float, float] = (0.0, 0.0)) -> None:
        self.pages[-1].append(drawing)
        self.spots[-1].append(at)

    def showPage(self) -> None:
        self.pages.append([])
        self.spots.append([])
        super().showPage()


@dataclass
class _Column:
    """Where the text is being set: whether the column is the page's last (a break there
    is a page break), and its height when empty."""

    last: bool = False
    height: float = 0.0


_COLUMN = _Column()
"""The column being filled (set as each column begins; platypus tells a flowable only the
room it has)."""

SENTENCE_END = re.compile(r"[.!?:;][)\"”’]?$")
"""A line that ends a sentence: a paragraph is split at a page break only after one."""


class _Sheets(BaseDocTemplate):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """A document whose page number ``last_page`` is set with ``last_template`` (the last
    page, whose columns are balanced)."""

    last_page: int = 0
    last_template: PageTemplate | None = None
    _doSave = 0  # the pages are recorded as scenes: reportlab's own PDF of them is never written

    def handle_pageBegin(self) -> None:
        if self.last_template is not None and self.page + 1 == self.last_page:
            self.pageTemplate = self.last_template
        super().handle_pageBegin()

    def handle_frameBegin(self, *args: Any, **kwargs: Any) -> None:
        super().handle_frameBegin(*args, **kwargs)
        frames = self.pageTemplate.frames
        _COLUMN.last = self.frame is frames[-1]
        _COLUMN.height = self.frame._aH


class _Lines(Flowable):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """Wrapped text in one style: a paragraph, a caption, a heading or a list item (with its
    marker hanging in the ``indent``). Splits between lines, keeping two on each side."""

    def __init__(
        self,
        text: str,
        style: TypeStyle,
        *,
        bold: bool = False,
        marker: str = "",
        indent: float = 0.0,
        lines: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.text, self.style, self.bold, self.marker, self.indent = text, style, bold, marker, indent
        self.font = _font(style, bold)
        self.fixed = lines
        self.tail = False
        self.lines: list[str] = lines or []
        self.spaceBefore, self.spaceAfter = style.before_mm, style.after_mm

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self.fixed is None:
            self.lines = split_lines(self.text, availWidth - self.indent, self.style.size_mm, self.font)
        self.width, self.height = availWidth, len(self.lines) * self.style.leading_mm
        return self.width, self.height

    def min_height(self, width: float) -> float:
        """The least height this block can start a column with (in a page's last column,
        down to the end of its first sentence: it is split there or not at all)."""
        self.wrap(width, 1e9)
        if len(self.lines) < 4:
            return self.height
        if _COLUMN.last:
            ends = (k for k in range(2, len(self.lines) - 1) if SENTENCE_END.search(plain(self.lines[k - 1])))
            return next(ends, len(self.lines)) * self.style.leading_mm
        return 2 * self.style.leading_mm

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self.wrap(availWidth, availHeight)
        fit = min(int((availHeight + 1e-6) / self.style.leading_mm), len(self.lines) - 2)
        if _COLUMN.last and availHeight < _COLUMN.height - 1e-6:
            # At a page break a sentence is not cut: the page ends after a whole one, or the
            # paragraph starts on the next page (where, at the top, any split is allowed).
            fit = next((k for k in range(fit, 1, -1) if SENTENCE_END.search(plain(self.lines[k - 1]))), 0)
        if fit < 2:
            return []
        piece = type(self)  # a caption's pieces are a caption's
        first = piece(
            self.text, self.style, bold=self.bold, marker=self.marker, indent=self.indent, lines=self.lines[:fit]
        )
        rest = piece(self.text, self.style, bold=self.bold, indent=self.indent, lines=self.lines[fit:])
        first.spaceAfter, rest.spaceBefore = 0.0, 0.0
        first.tail = rest.tail = self.tail
        return [first, rest]

    def drawOn(self, canvas: _Recorder, x: float, y: float, _sW: float = 0) -> None:
        canvas.record(partial(self._items, x, y + self.height, self.lines), (x, y))

    def _items(self, x: float, top: float, lines: list[str]) -> list[Item]:
        items: list[Item] = []
        size = self.style.size_mm
        if self.marker:  # first, so the text reads in order
            items.append(
                Text((x, _baseline(top, self.style)), self.marker, size, "start", INK, font=_font(self.style, True))
            )
        for number, line in enumerate(lines):
            base = _baseline(top - number * self.style.leading_mm, self.style)
            items.append(Text((x + self.indent, base), line, size, "start", INK, font=self.font))
        return items


class _Table(Flowable):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """Rows of wrapped cells between thin rules; splits between rows, repeating the header."""

    def __init__(self, table: Table, style: TypeStyle, rows: tuple[tuple[str, ...], ...] | None = None) -> None:
        super().__init__()
        self.table, self.style = table, style
        self.rows = rows if rows is not None else table.rows
        self.pad = 1.0
        self.spaceBefore, self.spaceAfter = 1.0, text_style("body").after_mm + 1.0

    def _layout(self, width: float) -> None:
        self.widths = self._column_widths(width)
        self.cells: list[list[list[str]]] = []
        self.heights: list[float] = []
        for number, row in enumerate(self.rows):
            font = _font(self.style, self._is_header(number))
            cells = [
                split_lines(cell, self.widths[i] - 2 * self.pad, self.style.size_mm, font) for i, cell in enumerate(row)
            ]
            self.cells.append(cells)
            self.heights.append(max(len(c) for c in cells) * self.style.leading_mm + 2 * self.pad)

    def _column_widths(self, width: float) -> list[float]:
        """The columns' widths: shared by the template's weights, but never narrower than the
        column's longest word and a gap (so "Matches" never runs into "You may")."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        columns = max(len(r) for r in self.table.rows)
        weights = list(self.table.widths) or [1.0] * columns
        least = [0.0] * columns
        for number, row in enumerate(self.table.rows):
            font = _font(self.style, self.table.header and number == 0)
            for i, cell in enumerate(row):
                words = cell.split() or [""]
                longest = max(stringWidth(word, font, self.style.size_mm) for word in words)
                least[i] = max(least[i], longest + 2 * self.pad + self.style.size_mm * 0.5)
        widths = [width * w / sum(weights) for w in weights]
        for _ in range(columns):  # widen the narrow columns, taking the room from the others
            short = [i for i in range(columns) if widths[i] < least[i] - 1e-9]
            if not short:
                break
            need = sum(least[i] - widths[i] for i in short)
            rest = [i for i in range(columns) if i not in short]
            spare = sum(widths[i] - least[i] for i in rest)
            if not rest or spare <= need:
                break
            for i in short:
                widths[i] = least[i]
            total = sum(widths[i] for i in rest)
            for i in rest:
                widths[i] -= need * widths[i] / total
        return widths

    def _is_header(self, number: int) -> bool:
        return self.table.header and number == 0 and self.rows[0] == self.table.rows[0]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._layout(availWidth)
        self.width, self.height = availWidth, sum(self.heights)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self.wrap(availWidth, availHeight)
        header = 1 if self.table.header and self._is_header(0) else 0
        used, fit = 0.0, 0
        for height in self.heights:
            if used + height > availHeight:
                break
            used, fit = used + height, fit + 1
        if fit <= header or fit >= len(self.rows):
            return []
        rest = ((self.table.rows[0],) if self.table.header else ()) + self.rows[fit:]
        first, second = _Table(self.table, self.style, self.rows[:fit]), _Table(self.table, self.style, rest)
        first.spaceAfter = 0.0
        return [first, second]

    def drawOn(self, canvas: _Recorder, x: float, y: float, _sW: float = 0) -> None:
        canvas.record(
            partial(self._items, x, y + self.height, self.width, self.widths, self.cells, self.heights), (x, y)
        )

    def _items(
        self, x: float, top: float, width: float, widths: list[float], rows: list[list[list[str]]], heights: list[float]
    ) -> list[Item]:
        items: list[Item] = []
        for number, (cells, height) in enumerate(zip(rows, heights)):
            font = _font(self.style, self._is_header(number))
            left = x
            for column, lines in zip(widths, cells):
                for k, line in enumerate(lines):
                    base = _baseline(top - self.pad - k * self.style.leading_mm, self.style)
                    items.append(Text((left + self.pad, base), line, self.style.size_mm, "start", INK, font=font))
                left += column
            items.append(polyline([(x, top), (x + width, top)], RULE))
            top -= height
        items.append(polyline([(x, top), (x + width, top)], RULE))
        return items


class _Picture(Flowable):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """A scene scaled to the column (never above 1:1 or ``max_height``), centred, with its
    text enlarged where needed to stay legible at print size."""

    def __init__(self, scene: Scene, max_height: float) -> None:
        super().__init__()
        self.scene, self.max_height = scene, max_height
        self.spaceBefore, self.spaceAfter = 1.5, 1.5

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        scene = self.scene
        self.scale = min(1.0, availWidth / scene.width_mm, self.max_height / scene.height_mm)
        self.width, self.height = availWidth, scene.height_mm * self.scale
        return self.width, self.height

    def drawOn(self, canvas: _Recorder, x: float, y: float, _sW: float = 0) -> None:
        left = x + (self.width - self.scene.width_mm * self.scale) / 2
        canvas.record(partial(self._items, left, y, self.scale), (x, y))

    def _items(self, left: float, y: float, scale: float) -> list[Item]:
        place = compose(translate(left, y), (scale, 0.0, 0.0, scale, 0.0, 0.0))
        minimum = text_style("figure_label_min").size_mm
        # Labels are placed once their printed size is known, so enlarged ones keep off coins.
        bounds = (0.0, 0.0, self.scene.width_mm, self.scene.height_mm)
        return [Group(fit_labels(self.scene.items, scale, minimum, bounds), place)]


class _Caption(_Lines):
    """A picture's caption (told apart from text: a page of pictures and captions alone is
    worth smaller pictures)."""


class _RoomFor(CondPageBreak):  # type: ignore[misc]  # reportlab has no type stubs: its classes are Any
    """Moves to the next column unless the heading and the start of what follows it fit (with
    ``whole``, all of it)."""

    def __init__(self, following: Sequence[Flowable], cap: float, whole: bool = False) -> None:
        super().__init__(0.0)
        self.following, self.cap, self.whole = list(following), cap, whole

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        needed = 0.0
        for flowable in self.following:
            if isinstance(flowable, _Lines) and flowable is not self.following[0] and not self.whole:
                needed += flowable.min_height(availWidth) + flowable.spaceBefore
            else:
                needed += flowable.wrap(availWidth, 1e9)[1] + flowable.getSpaceBefore() + flowable.getSpaceAfter()
        self.height = min(needed, self.cap)
        size: tuple[float, float] = super().wrap(availWidth, availHeight)
        return size


def _list_flowables(block: ListBlock) -> list[Flowable]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    style = text_style("list")
    markers = [_marker(block.marker, i) for i in range(len(block.items))]
    indent = max(stringWidth(m, _font(style, True), style.size_mm) for m in markers) + style.size_mm * 0.8
    flows: list[Flowable] = [_Lines(item, style, marker=m, indent=indent) for item, m in zip(block.items, markers)]
    if flows:
        flows[-1].spaceAfter = text_style("body").after_mm
    return flows


def _block_flowables(block: Block, column_height: float) -> list[Flowable]:
    from reportlab.platypus import Spacer as Gap

    if isinstance(block, Heading):
        return [_Lines(block.text, text_style(HEADING_STYLES.get(block.level, "h3")))]
    if isinstance(block, Paragraph):
        return [_Lines(block.text, text_style("body"), bold=block.bold)]
    if isinstance(block, ListBlock):
        return _list_flowables(block)
    if isinstance(block, Table):
        return [_Table(block, text_style("table"))]
    if isinstance(block, Figure):
        parts: list[Flowable] = [_Picture(block.scene, block.height_mm)]
        if block.caption:
            parts.append(_Caption(block.caption, text_style("caption")))
        return [KeepTogether(parts)]
    if isinstance(block, Spacer):
        return [Gap(0, block.height_mm)]
    return [CondPageBreak(column_height / 2)]


def story(blocks: Sequence[Block], column_height: float, tail_from: int | None = None) -> list[Flowable]:
    """The platypus flowables for ``blocks``; every heading first asks for room for itself
    and the start of what follows it (so it never ends a column). The flowables of the blocks
    from ``tail_from`` on are marked ``tail`` (a player aid at a sheet's end)."""
    parts = [_block_flowables(block, column_height) for block in blocks]
    for flows in parts[tail_from:] if tail_from is not None else []:
        for flowable in flows:
            flowable.tail = True
    flowables: list[Flowable] = []
    for index, (block, flows) in enumerate(zip(blocks, parts)):
        after = blocks[index + 1] if index + 1 < len(blocks) else None
        if isinstance(block, Heading) and isinstance(after, ListBlock) and after.whole:
            # A list kept whole (a player aid) moves on with its heading rather than split.
            flowables.append(_RoomFor([flows[0], *parts[index + 1]], column_height, whole=True))
        elif isinstance(block, Heading):
            following = next((p[0] for p in parts[index + 1 :] if p), None)
            flowables.append(_RoomFor([flows[0], *([following] if following else [])], column_height * 0.6))
        flowables += flows
    return flowables


def columns_for(text_width: float) -> int:
    """How many columns keep a line of body text within the measure."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    style = text_style("body")
    sample = "Place a coin, your face up, on any empty space of the board next to yours."
    average = stringWidth(sample, _font(style), style.size_mm) / len(sample)
    measure: float = rule_sheet_setting("max_measure_chars") * average
    gap: float = rule_sheet_setting("column_gap_mm")
    return max(1, math.ceil((text_width + gap) / (measure + gap)))


def check_paper(paper: PaperSize, what: str, minimum: tuple[float, float]) -> None:
    """Refuse paper smaller than ``minimum`` (either way up), naming the smallest allowed."""
    small, large = sorted((paper.width_mm, paper.height_mm))
    need_small, need_large = sorted(minimum)
    if small < need_small - 1e-6 or large < need_large - 1e-6:
        raise UsageError(
            f"paper {paper.width_mm:g} × {paper.height_mm:g} mm is too small for {what}; "
            f"use at least {need_small:g} × {need_large:g} mm"
        )


LAST_PAGE_SCRAP = 0.3
"""A last page holding less than this share of its columns is a scrap: smaller pictures
(:data:`SMALLER_PICTURES`) are tried first, to bring what it holds back onto the pages before."""
SMALLER_PICTURES = (0.9, 0.8, 0.75)
"""The scales a scrap's pictures are tried at, largest first: up to a quarter smaller (a
worked example 62 mm high still 47 mm, its labels never below ``figure_label_min``)."""
SMALLER_PICTURES_ALONE = (*SMALLER_PICTURES, 0.7, 0.65, 0.6)
"""The scales tried when the last page holds nothing but a sheet's one picture and its
caption (a worked example pushed off a small page): a page for it alone is worth a picture
up to two fifths smaller (a 75 mm example still 45 mm, its labels never below
``figure_label_min``)."""


def _owner(drawing: Drawing) -> Any:
    """The flowable that recorded ``drawing``."""
    return getattr(getattr(drawing, "func", None), "__self__", None)


def _pictures_only(page: Sequence[Drawing]) -> bool:
    """Whether a page holds nothing but pictures and their captions."""
    owners = [_owner(drawing) for drawing in page]
    return bool(owners) and all(isinstance(owner, _Picture | _Caption) for owner in owners)


@dataclass
class WithoutTail:
    """What setting a document tells of it without its tail (the blocks from ``tail_from``):
    ``pages``, how many pages it would take, or None where only setting it would tell."""

    pages: int | None = None


def layout_document(
    blocks: Sequence[Block],
    paper: PaperSize,
    *,
    title: str,
    footer: str = "{title} — {page}/{pages}",
    folio: bool = False,
    tail_from: int | None = None,
    without_tail: WithoutTail | None = None,
) -> list[Scene]:
    """The blocks set on pages of ``paper``; each page has a footer made from ``footer``
    (``{title}``, ``{page}``, ``{pages}``); with ``folio`` the page numbers are those of the
    document the pages go into (a kit: see :class:`~coinprint.render.pdf.Folio`). With
    ``tail_from`` and ``without_tail``, the latter is told how many pages the blocks before
    ``tail_from`` would take on their own (a rule sheet without its player aid), where the
    setting shows it."""
    minimum = tuple(rule_sheet_setting("min_paper_mm"))
    check_paper(paper, "rule sheets", (minimum[0], minimum[1]))
    margin = float(rule_sheet_setting("margin_mm"))
    gap = float(rule_sheet_setting("column_gap_mm"))
    footer_style = text_style("footer")
    bottom = margin + footer_style.leading_mm * 1.5
    width, height = paper.width_mm - 2 * margin, paper.height_mm - margin - bottom
    count = columns_for(width)
    column = (width - gap * (count - 1)) / count

    def frames(tall: float) -> list[Frame]:  # top-aligned columns ``tall`` high
        top = bottom + height
        return [
            Frame(margin + k * (column + gap), top - tall, column, tall, 0, 0, 0, 0, id=f"column{k + 1}")
            for k in range(count)
        ]

    def build(
        last_page: int = 0, last_height: float = height, figure_scale: float = 1.0
    ) -> tuple[list[list[Drawing]], float]:
        """The pages (what is placed on each), and how much column height the last page used
        (all of it when the last page holds only pictures: see :func:`_pictures_only`)."""
        doc = _Sheets(io.BytesIO(), pagesize=(paper.width_mm, paper.height_mm), invariant=1, title=title)
        doc.addPageTemplates([PageTemplate(id="sheet", frames=frames(height), pagesize=doc.pagesize)])
        last = PageTemplate(id="last", frames=frames(last_height), pagesize=doc.pagesize)
        doc.last_page, doc.last_template = last_page, last
        recorders: list[_Recorder] = []

        def recorder(*args: Any, **kwargs: Any) -> _Recorder:
            recorders.append(_Recorder(*args, **kwargs))
            return recorders[-1]

        shown = [Figure(b.scene, b.caption, b.height_mm * figure_scale) if isinstance(b, Figure) else b for b in blocks]
        doc.build(story(shown, height, tail_from), canvasmaker=recorder)
        final = doc.pageTemplate.frames
        used = sum(f._y1 + f._height - f._y for f in final)  # platypus keeps each frame's fill level
        if without_tail is not None and tail_from is not None and last_page == 0 and figure_scale == 1.0:
            without_tail.pages = _pages_before_tail(recorders[-1], blocks[:tail_from], bottom + height, column + gap)
        return [items for items in recorders[-1].pages if items] or [[]], used

    def _pages_before_tail(recorded: _Recorder, body: Sequence[Block], top: float, pitch: float) -> int | None:
        """The pages the body alone takes, read from the first setting (platypus sets the body
        the same with or without what follows it): the page of its last drawing, unless that
        page is nearly empty or holds only its one picture (the body alone would then try
        smaller pictures: only setting it tells)."""
        last = 0
        for number, drawings in enumerate(recorded.pages, start=1):
            if any(not getattr(_owner(drawing), "tail", False) for drawing in drawings):
                last = number
        if not last or (body and isinstance(body[-1], Heading)):
            return None  # a heading would look on into the tail for room: the body sets differently
        if last == 1:
            return 1
        drawings = recorded.pages[last - 1]
        mine = [(d, at) for d, at in zip(drawings, recorded.spots[last - 1]) if not getattr(_owner(d), "tail", False)]
        if sum(isinstance(b, Figure) for b in body) == 1 and _pictures_only([d for d, _ in mine]):
            return None
        feet: dict[int, float] = {}
        for _, (x, y) in mine:
            index = round((x - margin) / pitch)
            feet[index] = min(feet.get(index, top), y)
        filled = sum(top - foot for foot in feet.values())  # at most what platypus counts as used
        return last if filled >= LAST_PAGE_SCRAP * height * count else None

    pages, used = build()
    figure_scale = 1.0
    # A sheet's one picture (a worked example) pushed onto a page of its own may be made
    # smaller still: among many pictures, every one would be.
    alone = len(pages) > 1 and sum(isinstance(b, Figure) for b in blocks) == 1 and _pictures_only(pages[-1])
    if len(pages) > 1 and (alone or used < LAST_PAGE_SCRAP * height * count):
        # A few lines (or a picture and a player aid, filling one column of two, or a picture
        # alone) spilled onto a page of their own: smaller pictures may take them back.
        for smaller in SMALLER_PICTURES_ALONE if alone else SMALLER_PICTURES:
            fewer, fewer_used = build(figure_scale=smaller)
            if len(fewer) < len(pages):
                pages, used, figure_scale = fewer, fewer_used, smaller
                break
    if count > 1 and len(pages) > 0:
        # Balance the last page's columns: the shortest equal columns that keep the page count.
        tall = max(used / count, text_style("body").leading_mm * 2)
        while tall < height:
            try:
                balanced, _ = build(len(pages), tall, figure_scale)
            except LayoutError:  # a block that cannot be split is taller than these columns
                balanced = []
            if len(balanced) == len(pages):
                pages = balanced
                break
            tall += max(2.0, (height - tall) / 8)
    scenes = []
    for number, drawings in enumerate(pages, start=1):
        items = [item for drawing in drawings for item in drawing()]
        scene = Scene(paper.width_mm, paper.height_mm, items, title=title)
        base = max(4.0, margin / 2 - footer_style.size_mm / 3)
        if folio:
            text = footer.format(title=folio_text(title), page="{kit_page}", pages="{kit_pages}")
            scene.add(Folio((paper.width_mm / 2, base), text, footer_style.size_mm, "middle", INK))
        else:
            text = footer.format(title=title, page=number, pages=len(pages))
            scene.add(Text((paper.width_mm / 2, base), text, footer_style.size_mm, "middle", INK))
        scenes.append(scene)
    return scenes


def blocks_from_json(
    doc: Sequence[dict[str, Any]],
    *,
    values: dict[str, Any] | None = None,
    figures: dict[str, Scene] | None = None,
    source: str = "template",
) -> list[Block]:
    """Blocks from a template's JSON list (see the module docstring)."""
    values = values or {}
    figures = figures or {}

    def text(value: Any) -> str:
        try:
            return str(value).format(**values)
        except (KeyError, IndexError) as exc:
            raise CoinprintError(f"{source}: the text '{value}' names an unknown value {exc}") from None

    blocks: list[Block] = []
    for entry in doc:
        if not isinstance(entry, dict):
            raise CoinprintError(f"{source}: every block must be an object, not {entry!r}")
        if "h1" in entry or "h2" in entry or "h3" in entry:
            level = 1 if "h1" in entry else 2 if "h2" in entry else 3
            blocks.append(Heading(text(entry[f"h{level}"]), level))
        elif "p" in entry:
            blocks.append(Paragraph(text(entry["p"]), bool(entry.get("bold", False))))
        elif "ul" in entry or "ol" in entry:
            items = tuple(text(i) for i in entry.get("ul", entry.get("ol", [])))
            blocks.append(
                ListBlock(items, entry.get("marker", "•" if "ul" in entry else "1"), bool(entry.get("whole")))
            )
        elif "table" in entry:
            rows = tuple(tuple(text(c) for c in row) for row in entry["table"])
            blocks.append(Table(rows, tuple(entry.get("widths", ())), bool(entry.get("header", True))))
        elif "figure" in entry:
            name = entry["figure"]
            if name not in figures:
                raise CoinprintError(f"{source}: figure '{name}' is not one of: {', '.join(figures) or 'none'}")
            blocks.append(Figure(figures[name], text(entry.get("caption", "")), float(entry.get("height_mm", 70.0))))
        elif "space" in entry:
            blocks.append(Spacer(float(entry["space"])))
        elif "pagebreak" in entry:
            blocks.append(PageBreak())
        else:
            raise CoinprintError(
                f"{source}: unknown block {sorted(entry)}; use h1, h2, h3, p, ul, ol, table, figure, space, pagebreak"
            )
    return blocks


def load_template(name: str, folder: Path | None = None) -> Any:
    """The parsed JSON template ``templates/<name>`` (e.g. ``coinage.sv.json``), or ``name`` in
    ``folder`` (a game that keeps its texts elsewhere)."""
    import json

    path = template_path(name) if folder is None else folder / name
    return json.loads(path.read_text(encoding="utf-8"))
