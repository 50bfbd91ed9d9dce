"""SVG backend: a :class:`Scene` as an SVG document at true size.

``width``/``height`` are in mm and the ``viewBox`` is in mm, so one user unit is one
millimetre. Shapes that repeat (every hex cell of a board) are written once in ``<defs>``
and placed with ``<use>``. Coordinates are rounded to 1 µm so output is byte-stable.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from coinprint.render.scene import Circle, Group, Item, Matrix, Path, Point, Scene, Style, Text

if TYPE_CHECKING:
    from svgwrite.base import BaseElement

_ShapeKey = tuple[Point, ...]
"""A closed ring's shape relative to its first point (empty for paths that are not one)."""

FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"
"""Vera first: the PDFs embed it, and DejaVu has the same metrics."""


NOT_XML_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters XML does not allow (controls, lone surrogates, U+FFFE, U+FFFF) or that print as
nothing (DEL and the C1 controls)."""


def xml_safe(text: str) -> str:
    """``text`` with every character of :data:`NOT_XML_TEXT` replaced by U+FFFD, so a label
    from a file (a name, a file name that is not UTF-8) can never break the document."""
    return NOT_XML_TEXT.sub("\ufffd", text)


def num(value: float) -> str:
    """A coordinate with at most 3 decimals and no trailing zeros (``-0`` becomes ``0``)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _Writer:
    def __init__(self, scene: Scene) -> None:
        import svgwrite

        self.height = scene.height_mm
        self.drawing = svgwrite.Drawing(
            size=(f"{num(scene.width_mm)}mm", f"{num(scene.height_mm)}mm"),
            viewBox=f"0 0 {num(scene.width_mm)} {num(scene.height_mm)}",
            profile="full",
            debug=False,
        )
        if scene.title:
            self.drawing.set_desc(title=xml_safe(scene.title))
        self.shapes = self._repeated_shapes(scene.items)
        self.clips = 0

    # Shapes (single closed rings) that appear at least twice are defined once.
    def _repeated_shapes(self, items: list[Item]) -> dict[_ShapeKey, str]:
        counts: Counter[_ShapeKey] = Counter()
        first: dict[_ShapeKey, Path] = {}
        for path in _paths(items):
            key = _shape_key(path)
            counts[key] += 1
            first.setdefault(key, path)
        names: dict[_ShapeKey, str] = {}
        for key, count in counts.items():
            if key and count >= 2:
                name = f"shape{len(names) + 1}"
                names[key] = name
                ring = first[key].rings[0]
                x0, y0 = ring[0]
                d = "M" + " L".join(f"{num(x - x0)},{num(y0 - y)}" for x, y in ring) + " Z"
                self.drawing.defs.add(self.drawing.path(d=d, id=name))
        return names

    def flip(self, point: Point) -> tuple[str, str]:
        return num(point[0]), num(self.height - point[1])

    def add(self, parent: BaseElement, item: Item) -> None:
        if isinstance(item, Path):
            self._path(parent, item)
        elif isinstance(item, Circle):
            cx, cy = self.flip(item.center)
            parent.add(self.drawing.circle(center=(cx, cy), r=num(item.radius), **_paint(item.style)))
        elif isinstance(item, Text):
            self._text(parent, item)
        elif isinstance(item, Group):
            self._group(parent, item)
        else:  # pragma: no cover - the scene model is closed
            raise TypeError(f"cannot draw {item!r}")

    def _path(self, parent: BaseElement, path: Path) -> None:
        key = _shape_key(path)
        if key in self.shapes:
            x, y = self.flip(path.rings[0][0])
            parent.add(self.drawing.use(f"#{self.shapes[key]}", x=x, y=y, **_paint(path.style)))
            return
        parts = []
        for ring in path.rings:
            coords = " L".join(",".join(self.flip(p)) for p in ring)
            parts.append("M" + coords + (" Z" if path.closed else ""))
        paint = _paint(path.style)
        if not path.closed:
            paint["fill"] = "none"
        elif len(path.rings) > 1:
            paint["fill_rule"] = "evenodd"
        parent.add(self.drawing.path(d=" ".join(parts), **paint))

    def _text(self, parent: BaseElement, text: Text) -> None:
        x, y = self.flip(text.at)
        attrs = {
            "insert": (x, y),
            "font_size": num(text.size_mm),
            "font_family": FONT_FAMILY,
            "text_anchor": text.anchor,
            "fill": text.color,
        }
        if text.bold or text.font.endswith("-Bold"):
            attrs["font_weight"] = "bold"
        if text.font.endswith("-Italic"):
            attrs["font_style"] = "italic"
        element = self.drawing.text(xml_safe(text.text), **attrs)
        if text.angle:
            element["transform"] = f"rotate({num(-text.angle)} {x} {y})"
        parent.add(element)

    def _group(self, parent: BaseElement, group: Group) -> None:
        outer = parent
        if group.clip is not None:
            self.clips += 1
            clip = self.drawing.defs.add(self.drawing.clipPath(id=f"clip{self.clips}"))
            minx, miny, maxx, maxy = group.clip
            x, y = self.flip((minx, maxy))
            clip.add(self.drawing.rect(insert=(x, y), size=(num(maxx - minx), num(maxy - miny))))
            outer = parent.add(self.drawing.g(clip_path=f"url(#clip{self.clips})"))
        element = outer.add(self.drawing.g())
        if group.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            element["transform"] = "matrix(" + " ".join(num(v) for v in self._flipped(group.transform)) + ")"
        for item in group.items:
            self.add(element, item)

    def _flipped(self, m: Matrix) -> Matrix:
        # The same transform seen in SVG's y-down frame: F·M·F with F(x, y) = (x, H - y).
        a, b, c, d, e, f = m
        h = self.height
        return (a, -b, -c, d, e + c * h, h - f - d * h)


def _paths(items: Iterable[Item]) -> list[Path]:
    found: list[Path] = []
    for item in items:
        if isinstance(item, Path):
            found.append(item)
        elif isinstance(item, Group):
            found.extend(_paths(item.items))
    return found


def _shape_key(path: Path) -> _ShapeKey:
    """The ring's shape relative to its first point, to 0.01 mm: equal keys are the same
    shape (layouts keep 0.1 µm, so true copies differ only by rounding noise)."""
    if not path.closed or len(path.rings) != 1:
        return ()
    ring = path.rings[0]
    x0, y0 = ring[0]
    return tuple((round(x - x0, 2) + 0.0, round(y - y0, 2) + 0.0) for x, y in ring)


def _paint(style: Style) -> dict[str, str]:
    attrs = {"fill": style.fill or "none", "stroke": style.stroke or "none"}
    if style.stroke:
        attrs["stroke_width"] = num(style.stroke_mm)
        attrs["stroke_linejoin"] = "round"
        if style.dash_mm:
            attrs["stroke_dasharray"] = ",".join(num(v) for v in style.dash_mm)
    if style.opacity < 1.0:
        attrs["opacity"] = num(style.opacity)
    return attrs


def scene_to_svg(scene: Scene) -> bytes:
    """The scene as SVG bytes at true size (1 user unit = 1 mm)."""
    writer = _Writer(scene)
    for item in scene.items:
        writer.add(writer.drawing, item)
    text: str = writer.drawing.tostring()
    return (xml_safe(text) + "\n").encode("utf-8")


def svg_elements(items: list[Item], height_mm: float) -> list[str]:
    """Each item as one standalone SVG element (text), y flipped in a drawing ``height_mm``
    high, for pages that show and hide items one by one (a replay's frames). Shapes are
    written out in full (no shared ``<defs>``); clipped groups are not supported."""
    writer = _Writer(Scene(0.0, height_mm))
    elements: list[str] = []
    for item in items:
        holder = writer.drawing.g()
        writer.add(holder, item)
        elements.extend(xml_safe(element.tostring()) for element in holder.elements)
    if writer.clips:
        raise ValueError("svg_elements cannot draw clipped groups")
    return elements
