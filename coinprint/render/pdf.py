"""PDF backend: pages of :class:`Scene` s as a PDF at exact physical size.

Each page is exactly its scene's size (mm converted to points); drawing is done in mm under
a single scale. The viewer preference ``PrintScaling=None`` asks print dialogs for 100 %.
Output is deterministic: reportlab's invariant mode fixes dates and document ids.

Text is set in the Bitstream Vera fonts that ship with reportlab, embedded in the PDF (as
TrueType subsets), so a PDF prints the same everywhere. A character the font lacks is printed
as "?" (:func:`missing_glyphs` finds such characters, so tests can keep our own texts clean).
Every page carries a TrimBox (the page itself, or the ``trim`` box a scene asks for) and,
when the scene has a bleed, a BleedBox.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from coinprint.render.scene import Circle, Group, Item, Path, Scene, Style, Text
from coinprint.units import POINTS_PER_MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

FONT_FILES = {"CoinprintSans": "Vera.ttf", "CoinprintSans-Bold": "VeraBd.ttf", "CoinprintSans-Italic": "VeraIt.ttf"}
"""The embedded fonts (reportlab's own copies of Bitstream Vera) by the name we register."""
_FONTS = {False: "CoinprintSans", True: "CoinprintSans-Bold"}
ITALIC_FONT = "CoinprintSans-Italic"


@cache
def register_fonts() -> None:
    """Register the embedded TrueType fonts with reportlab (once per process)."""
    import os

    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for name, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(folder, filename)))


@cache
def _glyphs(font: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


def missing_glyphs(text: str, bold: bool = False) -> set[str]:
    """The characters of ``text`` that the font it would be printed in does not have."""
    have = _glyphs(_FONTS[bold])
    return {ch for ch in text if ord(ch) not in have and not ch.isspace()}


def printable(text: str, bold: bool = False) -> str:
    """``text`` with every character the font lacks replaced by "?"."""
    missing = missing_glyphs(text, bold)
    return "".join("?" if ch in missing else ch for ch in text) if missing else text


@dataclass(frozen=True)
class Folio(Text):
    """A page's words that count the pages of the whole document (a kit): ``text`` is a
    format string with ``{kit_page}`` and ``{kit_pages}``, filled in by :func:`number_pages`
    once every page is known."""


def number_pages(pages: Sequence[Scene]) -> list[Scene]:
    """``pages`` with each :class:`Folio` filled in with its page's number and the count."""
    numbered = []
    for number, page in enumerate(pages, start=1):
        items = [
            Text(**{**vars(item), "text": item.text.format(kit_page=number, kit_pages=len(pages))})
            if isinstance(item, Folio)
            else item
            for item in page.items
        ]
        numbered.append(replace(page, items=items))
    return numbered


def folio_text(text: str) -> str:
    """``text`` (free of page counts) made safe to stand in a :class:`Folio`."""
    return text.replace("{", "{{").replace("}", "}}")


def pages_to_pdf(
    pages: Sequence[Scene], *, title: str = "", subject: str = "", keywords: dict[str, Any] | None = None
) -> bytes:
    """The pages as PDF bytes. ``keywords`` (e.g. the seed) go into the document keywords."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    # Compressed streams stay binary: ASCII85 on top of them only makes files a quarter
    # larger and slower to write (every printer and viewer reads binary streams).
    rl_config.useA85 = 0
    register_fonts()
    buffer = io.BytesIO()
    first = pages[0]
    canvas = Canvas(
        buffer,
        pagesize=(first.width_mm * POINTS_PER_MM, first.height_mm * POINTS_PER_MM),
        invariant=1,
        pageCompression=1,
        initialFontName=_FONTS[False],
    )
    canvas.setTitle(title or first.title)
    canvas.setAuthor("coinprint")
    canvas.setCreator("coinprint")
    canvas.setSubject(subject)
    if keywords:
        canvas.setKeywords(" ".join(f"{k}={v}" for k, v in keywords.items()))
    canvas.setViewerPreference("PrintScaling", "None")
    for page in pages:
        canvas.setPageSize((page.width_mm * POINTS_PER_MM, page.height_mm * POINTS_PER_MM))
        _boxes(canvas, page)
        canvas.saveState()
        canvas.scale(POINTS_PER_MM, POINTS_PER_MM)
        for item in page.items:
            _draw(canvas, item)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _boxes(canvas: Canvas, page: Scene) -> None:
    """TrimBox (and BleedBox when the page has a bleed) in points."""
    trim = page.trim or (0.0, 0.0, page.width_mm, page.height_mm)
    canvas.setTrimBox(tuple(round(v * POINTS_PER_MM, 4) for v in trim))
    if page.bleed_mm > 0:
        x0, y0, x1, y1 = trim
        b = page.bleed_mm
        bleed = (max(0.0, x0 - b), max(0.0, y0 - b), min(page.width_mm, x1 + b), min(page.height_mm, y1 + b))
        canvas.setBleedBox(tuple(round(v * POINTS_PER_MM, 4) for v in bleed))


def _draw(canvas: Canvas, item: Item) -> None:
    if isinstance(item, Path):
        _path(canvas, item)
    elif isinstance(item, Circle):
        if _paint(canvas, item.style, closed=True):
            fill, stroke = item.style.fill is not None, item.style.stroke is not None
            canvas.circle(item.center[0], item.center[1], item.radius, stroke=int(stroke), fill=int(fill))
            canvas.restoreState()
    elif isinstance(item, Text):
        _text(canvas, item)
    elif isinstance(item, Group):
        canvas.saveState()
        if item.clip is not None:
            minx, miny, maxx, maxy = item.clip
            clip = canvas.beginPath()
            clip.rect(minx, miny, maxx - minx, maxy - miny)
            canvas.clipPath(clip, stroke=0, fill=0)
        if item.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            canvas.transform(*item.transform)
        for child in item.items:
            _draw(canvas, child)
        canvas.restoreState()
    else:  # pragma: no cover - the scene model is closed
        raise TypeError(f"cannot draw {item!r}")


def _paint(canvas: Canvas, style: Style, *, closed: bool) -> bool:
    """Set up colours for ``style`` inside a saved state; False when nothing would be painted."""
    fill = style.fill if closed else None
    if fill is None and style.stroke is None:
        return False
    canvas.saveState()
    if fill is not None:
        canvas.setFillColor(_colour(fill))
    if style.stroke is not None:
        canvas.setStrokeColor(_colour(style.stroke))
        canvas.setLineWidth(style.stroke_mm)
        canvas.setLineJoin(1)
        if style.dash_mm:
            canvas.setDash(list(style.dash_mm))
    if style.opacity < 1.0:
        canvas.setFillAlpha(style.opacity)
        canvas.setStrokeAlpha(style.opacity)
    return True


def _path(canvas: Canvas, path: Path) -> None:
    if not _paint(canvas, path.style, closed=path.closed):
        return
    shape = canvas.beginPath()
    for ring in path.rings:
        shape.moveTo(*ring[0])
        for point in ring[1:]:
            shape.lineTo(*point)
        if path.closed:
            shape.close()
    fill = path.closed and path.style.fill is not None
    canvas.drawPath(
        shape, stroke=int(path.style.stroke is not None), fill=int(fill), fillMode=1 if len(path.rings) < 2 else 0
    )
    canvas.restoreState()


def _text(canvas: Canvas, text: Text) -> None:
    canvas.saveState()
    canvas.setFillColor(_colour(text.color))
    canvas.setFont(text.font or _FONTS[text.bold], text.size_mm)
    canvas.translate(*text.at)
    if text.angle:
        canvas.rotate(text.angle)
    draw = {"start": canvas.drawString, "middle": canvas.drawCentredString, "end": canvas.drawRightString}
    draw.get(text.anchor, canvas.drawString)(0, 0, printable(text.text, text.bold))
    canvas.restoreState()


@cache
def _colour(name: str) -> Any:
    """reportlab's colour for ``name`` (``#rrggbb``), read once: reportlab reads a colour
    given as text afresh each time it is set, slowly, and a page sets a few over and over."""
    from reportlab.lib.colors import toColor

    return toColor(name)


def text_width_mm(text: str, size_mm: float, bold: bool = False) -> float:
    """How wide ``text`` is when set in the backend's font at ``size_mm``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    width: float = stringWidth(text, _FONTS[bold], size_mm)
    return width
