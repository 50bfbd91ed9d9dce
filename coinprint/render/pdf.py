"""PDF backend: pages of :class:`Scene` s as a PDF at exact physical size.

Each page is exactly its scene's size (mm converted to points); drawing is done in mm under
a single scale. The viewer preference ``PrintScaling=None`` asks print dialogs for 100 %.
Output is deterministic: reportlab's invariant mode fixes dates and document ids.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from coinprint.render.scene import Circle, Group, Item, Path, Scene, Style, Text
from coinprint.units import POINTS_PER_MM

_FONTS = {False: "Helvetica", True: "Helvetica-Bold"}


def pages_to_pdf(
    pages: Sequence[Scene], *, title: str = "", subject: str = "", keywords: dict[str, Any] | None = None
) -> bytes:
    """The pages as PDF bytes. ``keywords`` (e.g. the seed) go into the document keywords."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    first = pages[0]
    canvas = Canvas(
        buffer,
        pagesize=(first.width_mm * POINTS_PER_MM, first.height_mm * POINTS_PER_MM),
        invariant=1,
        pageCompression=1,
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
        canvas.saveState()
        canvas.scale(POINTS_PER_MM, POINTS_PER_MM)
        for item in page.items:
            _draw(canvas, item)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw(canvas, item: Item) -> None:
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


def _paint(canvas, style: Style, *, closed: bool) -> bool:
    """Set up colours for ``style`` inside a saved state; False when nothing would be painted."""
    fill = style.fill if closed else None
    if fill is None and style.stroke is None:
        return False
    canvas.saveState()
    if fill is not None:
        canvas.setFillColor(fill)
    if style.stroke is not None:
        canvas.setStrokeColor(style.stroke)
        canvas.setLineWidth(style.stroke_mm)
        canvas.setLineJoin(1)
        if style.dash_mm:
            canvas.setDash(list(style.dash_mm))
    if style.opacity < 1.0:
        canvas.setFillAlpha(style.opacity)
        canvas.setStrokeAlpha(style.opacity)
    return True


def _path(canvas, path: Path) -> None:
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


def _text(canvas, text: Text) -> None:
    canvas.saveState()
    canvas.setFillColor(text.color)
    canvas.setFont(_FONTS[text.bold], text.size_mm)
    canvas.translate(*text.at)
    if text.angle:
        canvas.rotate(text.angle)
    draw = {"start": canvas.drawString, "middle": canvas.drawCentredString, "end": canvas.drawRightString}
    draw.get(text.anchor, canvas.drawString)(0, 0, text.text)
    canvas.restoreState()


def text_width_mm(text: str, size_mm: float, bold: bool = False) -> float:
    """How wide ``text`` is when set in the backend's font at ``size_mm``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, _FONTS[bold], size_mm)
