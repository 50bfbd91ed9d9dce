"""Rule sheets and other text documents: headings, wrapped paragraphs, lists, tables and
figures flowed onto pages of a given paper size, as scenes for the PDF backend.

Documents are written as a list of blocks, usually read from a template JSON file
(``templates/<game>.<lang>.json``) with :func:`blocks_from_json`::

    [{"h1": "Coin Age"},
     {"p": "Two players, ten spaces, {coins} coins each."},
     {"ul": ["first point", "second point"]},
     {"ol": ["first step", "second step"], "marker": "A"},
     {"table": [["Matches", "You may"], ["4", "place 2"]], "widths": [1, 3]},
     {"figure": "map", "caption": "The classic map", "height_mm": 60}]

``{name}`` in any text is replaced from the ``values`` given; a figure names a scene given
in ``figures``. Figures are scaled to fit (their captions should say so when it matters).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from coinprint.errors import CoinprintError
from coinprint.render.scene import Group, Item, Scene, Style, Text, compose, polyline, translate
from coinprint.units import PaperSize

INK = "#000000"
LINE_SPACING = 1.3
HEADING_SIZES = {1: 7.0, 2: 5.0, 3: 4.2}


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
    """The largest height the figure may take; it is also scaled to fit the text width."""


@dataclass(frozen=True)
class Spacer:
    height_mm: float = 3.0


@dataclass(frozen=True)
class PageBreak:
    pass


Block = Heading | Paragraph | ListBlock | Table | Figure | Spacer | PageBreak


def wrap(text: str, width_mm: float, size_mm: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width_mm`` (long words stand alone)."""
    from coinprint.render.pdf import text_width_mm

    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width_mm(candidate, size_mm, bold) > width_mm:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def _marker(style: str, index: int) -> str:
    if style == "1":
        return f"{index + 1}."
    if style in ("A", "a"):
        return f"{chr(ord(style) + index)}."
    return style


@dataclass
class _Flow:
    """Places blocks on pages top to bottom, starting a new page when one is full."""

    paper: PaperSize
    margin: float
    title: str
    size: float
    pages: list[list[Item]] = field(default_factory=list)
    y: float = 0.0

    def __post_init__(self) -> None:
        self.new_page()

    @property
    def width(self) -> float:
        return self.paper.width_mm - 2 * self.margin

    def new_page(self) -> None:
        self.pages.append([])
        self.y = self.paper.height_mm - self.margin

    def room(self, height: float) -> None:
        """Start a new page unless ``height`` mm still fit on this one."""
        if self.y - height < self.margin + 6 and self.pages[-1]:
            self.new_page()

    def text_lines(self, lines: Sequence[str], size: float, x: float, bold: bool = False) -> None:
        step = size * LINE_SPACING
        for line in lines:
            self.room(step)
            self.y -= step
            self.pages[-1].append(Text((x, self.y + size * 0.25), line, size, "start", INK, bold))

    def add(self, block: Block) -> None:
        size = self.size
        left = self.margin
        if isinstance(block, Heading):
            heading = HEADING_SIZES.get(block.level, size)
            self.room(heading * 3 + size * 2)  # keep a heading with what follows
            self.y -= heading * 0.5
            self.text_lines(wrap(block.text, self.width, heading, True), heading, left, bold=True)
            self.y -= heading * 0.25
        elif isinstance(block, Paragraph):
            self.text_lines(wrap(block.text, self.width, size, block.bold), size, left, block.bold)
            self.y -= size * 0.6
        elif isinstance(block, ListBlock):
            indent = size * 2.2
            for index, item in enumerate(block.items):
                lines = wrap(item, self.width - indent, size)
                self.room(size * LINE_SPACING)
                self.pages[-1].append(
                    Text(
                        (left, self.y - size * LINE_SPACING + size * 0.25),
                        _marker(block.marker, index),
                        size,
                        "start",
                        INK,
                        True,
                    )
                )
                self.text_lines(lines, size, left + indent)
                self.y -= size * 0.25
            self.y -= size * 0.4
        elif isinstance(block, Table):
            self._table(block)
        elif isinstance(block, Figure):
            self._figure(block)
        elif isinstance(block, Spacer):
            self.y -= block.height_mm
        elif isinstance(block, PageBreak):
            self.new_page()

    def _table(self, table: Table) -> None:
        size = self.size * 0.95
        columns = max(len(r) for r in table.rows)
        weights = list(table.widths) or [1.0] * columns
        total = sum(weights)
        widths = [self.width * w / total for w in weights]
        rule = Style(stroke=INK, stroke_mm=0.2)
        pad = 1.2
        self.y -= 1.0
        for number, row in enumerate(table.rows):
            bold = table.header and number == 0
            cells = [wrap(cell, widths[i] - 2 * pad, size, bold) for i, cell in enumerate(row)]
            height = max(len(c) for c in cells) * size * LINE_SPACING + 2 * pad
            self.room(height)
            top = self.y
            x = self.margin
            for i, lines in enumerate(cells):
                for k, line in enumerate(lines):
                    base = top - pad - (k + 1) * size * LINE_SPACING + size * 0.25
                    self.pages[-1].append(Text((x + pad, base), line, size, "start", INK, bold))
                x += widths[i]
            self.y = top - height
            self.pages[-1].append(polyline([(self.margin, top), (self.margin + self.width, top)], rule))
            self.pages[-1].append(polyline([(self.margin, self.y), (self.margin + self.width, self.y)], rule))
        self.y -= self.size * 0.8

    def _figure(self, figure: Figure) -> None:
        scene = figure.scene
        scale = min(1.0, self.width / scene.width_mm, figure.height_mm / scene.height_mm)
        height = scene.height_mm * scale
        caption = wrap(figure.caption, self.width, self.size * 0.85) if figure.caption else []
        self.room(height + len(caption) * self.size + 3)
        x = self.margin + (self.width - scene.width_mm * scale) / 2
        self.y -= height + 1.5
        place = compose(translate(x, self.y), (scale, 0.0, 0.0, scale, 0.0, 0.0))
        self.pages[-1].append(Group(tuple(scene.items), place))
        if caption:
            self.text_lines(caption, self.size * 0.85, self.margin)
        self.y -= self.size * 0.8


def layout_document(
    blocks: Sequence[Block],
    paper: PaperSize,
    *,
    title: str,
    margin: float = 15.0,
    text_size_mm: float = 3.6,
) -> list[Scene]:
    """The blocks flowed onto pages; each page has a footer with the title and page number."""
    flow = _Flow(paper, margin, title, text_size_mm)
    for block in blocks:
        flow.add(block)
    pages = [items for items in flow.pages if items] or [[]]
    scenes = []
    for number, items in enumerate(pages, start=1):
        scene = Scene(paper.width_mm, paper.height_mm, list(items), title=title)
        footer = f"{title} — page {number} of {len(pages)}"
        scene.add(Text((paper.width_mm / 2, margin / 2), footer, 2.6, "middle", INK))
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
            blocks.append(ListBlock(items, entry.get("marker", "•" if "ul" in entry else "1")))
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


def load_template(name: str) -> Any:
    """The parsed JSON template ``templates/<name>`` (e.g. ``coinage.sv.json``)."""
    import json

    from coinprint.resources import template_path

    return json.loads(template_path(name).read_text(encoding="utf-8"))
