"""Raster backend: a :class:`Scene` as pixels (a Pillow image), the third backend beside SVG
and PDF, drawing exactly the same items.

A scene is drawn at ``supersample`` times the asked size and reduced by averaging (a box
filter), so edges are antialiased while a flat area keeps its colour exactly: the inside of a
coin is the scene's ``#rrggbb``, byte for byte. Text is set in the Bitstream Vera fonts the
PDFs embed (reportlab's copies). Pillow is imported when a scene is drawn, never before.

Coordinates: the scene is in mm, y up; pixels are y down, ``scale`` pixels per mm.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

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
)

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 2
"""How many pixels a side each output pixel is drawn from (2: four samples a pixel)."""

_FONT_FILES = {False: "Vera.ttf", True: "VeraBd.ttf"}


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as (r, g, b)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@cache
def _font(bold: bool, italic: bool, size_px: int) -> ImageFont.FreeTypeFont:
    import reportlab
    from PIL import ImageFont

    name = "VeraIt.ttf" if italic and not bold else _FONT_FILES[bold]
    return ImageFont.truetype(os.path.join(os.path.dirname(reportlab.__file__), "fonts", name), size_px)


class Canvas:
    """Draws scene items onto an RGB image ``scale`` pixels per mm (already supersampled)
    for a scene ``height_mm`` high."""

    def __init__(self, image: Image.Image, scale: float, height_mm: float, offset: tuple[int, int] = (0, 0)) -> None:
        from PIL import ImageDraw

        self.image = image
        self.scale = scale
        self.height_mm = height_mm
        self.offset = offset
        """Where the image's top-left corner is in the whole drawing's pixels (a tile of it)."""
        self.draw: ImageDraw.ImageDraw = ImageDraw.Draw(image)

    def px(self, matrix: Matrix, point: Point) -> tuple[float, float]:
        x, y = apply(matrix, point)
        return (x * self.scale - self.offset[0], (self.height_mm - y) * self.scale - self.offset[1])

    def items(self, items: Iterable[Item], matrix: Matrix = IDENTITY) -> None:
        for item in items:
            self.item(item, matrix)

    def item(self, item: Item, matrix: Matrix = IDENTITY) -> None:
        if isinstance(item, Group):
            self._group(item, matrix)
            return
        style = item.style if isinstance(item, (Path, Circle)) else None
        if style is not None and style.opacity < 1.0:
            self._translucent(item, matrix, style.opacity)
        elif isinstance(item, Path):
            self._path(item, matrix)
        elif isinstance(item, Circle):
            self._circle(item, matrix)
        elif isinstance(item, Text):
            self._text(item, matrix)
        else:  # pragma: no cover - the scene model is closed
            raise TypeError(f"cannot draw {item!r}")

    # -- shapes ----------------------------------------------------------------------------------
    def _path(self, path: Path, matrix: Matrix) -> None:
        rings = [[self.px(matrix, p) for p in ring] for ring in path.rings if ring]
        if not rings:
            return
        style = path.style
        if path.closed and style.fill is not None:
            fill = hex_rgb(style.fill)
            if len(rings) == 1:
                if len(rings[0]) >= 3:
                    self.draw.polygon(rings[0], fill=fill)
            else:
                self._even_odd(rings, fill)
        if style.stroke is not None:
            width = self._width(style.stroke_mm, matrix)
            for ring in rings:
                line = ring + [ring[0]] if path.closed else ring
                self._line(line, hex_rgb(style.stroke), width, style.dash_mm, matrix)

    def _even_odd(self, rings: list[list[tuple[float, float]]], fill: tuple[int, int, int]) -> None:
        """A polygon with holes, filled even-odd: each ring flips the pixels it covers."""
        from PIL import Image, ImageChops, ImageDraw

        xs = [x for ring in rings for x, _ in ring]
        ys = [y for ring in rings for _, y in ring]
        x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
        x1, y1 = min(self.image.width, math.ceil(max(xs)) + 1), min(self.image.height, math.ceil(max(ys)) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = Image.new("1", (x1 - x0, y1 - y0), 0)
        for ring in rings:
            if len(ring) < 3:
                continue
            layer = Image.new("1", mask.size, 0)
            ImageDraw.Draw(layer).polygon([(x - x0, y - y0) for x, y in ring], fill=1)
            mask = ImageChops.logical_xor(mask, layer)
        self.image.paste(fill, (x0, y0, x1, y1), mask)

    def _width(self, stroke_mm: float, matrix: Matrix) -> int:
        a, b, c, d, _, _ = matrix
        factor = math.sqrt(abs(a * d - b * c)) or 1.0
        return max(1, round(stroke_mm * factor * self.scale))

    def _line(
        self,
        points: list[tuple[float, float]],
        colour: tuple[int, int, int],
        width: int,
        dash_mm: tuple[float, ...] | None,
        matrix: Matrix,
    ) -> None:
        if len(points) < 2:
            return
        pieces = [points] if not dash_mm else _dashes(points, [self._length(v, matrix) for v in dash_mm])
        for piece in pieces:
            self.draw.line(piece, fill=colour, width=width, joint="curve")
            if width > 2:  # round ends, as the SVG and PDF join lines round
                r = width / 2
                for x, y in (piece[0], piece[-1]):
                    self.draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    def _length(self, mm: float, matrix: Matrix) -> float:
        a, b, c, d, _, _ = matrix
        return mm * (math.sqrt(abs(a * d - b * c)) or 1.0) * self.scale

    def _circle(self, circle: Circle, matrix: Matrix) -> None:
        x, y = self.px(matrix, circle.center)
        r = self._length(circle.radius, matrix)
        style = circle.style
        box = (x - r, y - r, x + r, y + r)
        if style.fill is not None:
            self.draw.ellipse(box, fill=hex_rgb(style.fill))
        if style.stroke is not None:
            width = self._width(style.stroke_mm, matrix)
            outer = (x - r - width / 2, y - r - width / 2, x + r + width / 2, y + r + width / 2)
            if style.dash_mm:
                steps = max(24, round(2 * math.pi * r / 2))
                ring = [
                    (x + r * math.cos(2 * math.pi * i / steps), y + r * math.sin(2 * math.pi * i / steps))
                    for i in range(steps + 1)
                ]
                self._line(ring, hex_rgb(style.stroke), width, style.dash_mm, matrix)
            else:
                self.draw.ellipse(outer, outline=hex_rgb(style.stroke), width=width)

    def _text(self, text: Text, matrix: Matrix) -> None:
        if not text.text:
            return
        a, b, c, d, _, _ = matrix
        factor = math.sqrt(abs(a * d - b * c)) or 1.0
        size = max(1, round(text.size_mm * factor * self.scale))
        bold = text.bold or text.font.endswith("-Bold")
        font = _font(bold, text.font.endswith("-Italic"), size)
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}.get(text.anchor, "ls")
        x, y = self.px(matrix, text.at)
        colour = hex_rgb(text.color)
        angle = text.angle + math.degrees(math.atan2(b, a))
        if abs(angle) < 1e-9:
            self.draw.text((x, y), text.text, fill=colour, font=font, anchor=anchor)
            return
        from PIL import Image, ImageDraw

        # Rotated text: set upright on a square mask about the anchor, turned, then painted.
        side = 2 * math.ceil(font.getlength(text.text) + size)
        mask = Image.new("L", (side, side), 0)
        ImageDraw.Draw(mask).text((side / 2, side / 2), text.text, fill=255, font=font, anchor=anchor)
        mask = mask.rotate(angle, resample=Image.Resampling.BILINEAR, center=(side / 2, side / 2))
        self.image.paste(colour, (round(x - side / 2), round(y - side / 2)), mask)

    # -- groups and translucency -----------------------------------------------------------------
    def _group(self, group: Group, matrix: Matrix) -> None:
        inner = compose(matrix, group.transform)
        if group.clip is None:
            self.items(group.items, inner)
            return
        minx, miny, maxx, maxy = group.clip
        corners = [self.px(matrix, p) for p in ((minx, miny), (maxx, maxy), (minx, maxy), (maxx, miny))]
        box = (
            max(0, math.floor(min(x for x, _ in corners))),
            max(0, math.floor(min(y for _, y in corners))),
            min(self.image.width, math.ceil(max(x for x, _ in corners))),
            min(self.image.height, math.ceil(max(y for _, y in corners))),
        )
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        kept = self.image.copy()
        self.items(group.items, inner)
        clipped = self.image.crop(box)
        self.image.paste(kept)
        self.image.paste(clipped, box[:2])

    def _translucent(self, item: Item, matrix: Matrix, opacity: float) -> None:
        from PIL import Image

        box = item_box(item, self.scale, self.height_mm) if matrix == IDENTITY else None
        if box is None:
            area = (0, 0, self.image.width, self.image.height)
        else:  # only the rectangle the item covers is blended
            x0, y0 = self.offset
            area = (
                max(0, math.floor(box[0]) - x0),
                max(0, math.floor(box[1]) - y0),
                min(self.image.width, math.ceil(box[2]) - x0),
                min(self.image.height, math.ceil(box[3]) - y0),
            )
            if area[2] <= area[0] or area[3] <= area[1]:
                return
        before = self.image.crop(area)
        self.item(_opaque(item), matrix)
        self.image.paste(Image.blend(before, self.image.crop(area), opacity), area[:2])


def _opaque(item: Item) -> Item:
    from dataclasses import replace

    if isinstance(item, (Path, Circle)):
        style: Style = replace(item.style, opacity=1.0)
        return replace(item, style=style)
    return item


def _dashes(points: Sequence[tuple[float, float]], pattern: Sequence[float]) -> list[list[tuple[float, float]]]:
    """The drawn pieces of a polyline dashed by ``pattern`` (on, off, … lengths in pixels)."""
    if not pattern or sum(pattern) <= 0:
        return [list(points)]
    pieces: list[list[tuple[float, float]]] = []
    index, left, on = 0, pattern[0], True
    current: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.dist((x0, y0), (x1, y1))
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(point)
                pieces.append(current)
            current = [point]
            on = not on
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= length - done
        current.append((x1, y1))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def item_box(item: Item, scale: float, height_mm: float) -> tuple[float, float, float, float] | None:
    """A box (x0, y0, x1, y1) in pixels, ``scale`` a mm, that holds everything ``item`` paints
    (generously: antialiasing and round joins included); None when it is not worked out (a
    group), so the caller draws everything again."""

    def flip(x: float, y: float) -> tuple[float, float]:
        return x * scale, (height_mm - y) * scale

    if isinstance(item, Path):
        points = [flip(x, y) for ring in item.rings for x, y in ring]
        if not points:
            return (0.0, 0.0, 0.0, 0.0)
        margin = (item.style.stroke_mm * scale if item.style.stroke else 0.0) + 2
        xs, ys = [x for x, _ in points], [y for _, y in points]
        return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
    if isinstance(item, Circle):
        x, y = flip(*item.center)
        r = (item.radius + (item.style.stroke_mm if item.style.stroke else 0.0)) * scale + 2
        return (x - r, y - r, x + r, y + r)
    if isinstance(item, Text):
        if item.angle:
            return None
        x, y = flip(*item.at)
        size = item.size_mm * scale
        width = _font(
            item.bold or item.font.endswith("-Bold"), item.font.endswith("-Italic"), max(1, round(size))
        ).getlength(item.text)
        left = {"start": x, "middle": x - width / 2, "end": x - width}.get(item.anchor, x)
        return (left - size * 0.3 - 2, y - size * 1.3 - 2, left + width + size * 0.3 + 2, y + size * 0.5 + 2)
    return None


def pixel_scale(scene: Scene, width_px: int) -> float:
    """Pixels per mm that make ``scene`` ``width_px`` wide."""
    return width_px / scene.width_mm


def draw_items(
    items: Iterable[Item],
    size_px: tuple[int, int],
    scale: float,
    height_mm: float,
    *,
    background: str = "#ffffff",
    supersample: int = SUPERSAMPLE,
    base: Image.Image | None = None,
    offset: tuple[int, int] = (0, 0),
) -> Image.Image:
    """``items`` drawn (supersampled, not yet reduced) on ``base`` (a supersampled image to
    draw over, copied) or on a blank ``size_px`` image of ``background``; ``offset`` is where
    the image's corner is in the supersampled drawing (when it is one tile of it)."""
    from PIL import Image

    if base is None:
        image = Image.new("RGB", (size_px[0] * supersample, size_px[1] * supersample), hex_rgb(background))
    else:
        image = base.copy()
    Canvas(image, scale * supersample, height_mm, offset).items(items)
    return image


def reduce(image: Image.Image, supersample: int = SUPERSAMPLE) -> Image.Image:
    """A supersampled drawing at its output size: each pixel the mean of its samples."""
    return image if supersample == 1 else image.reduce(supersample)


def scene_to_image(
    scene: Scene, width_px: int, *, background: str = "#ffffff", supersample: int = SUPERSAMPLE
) -> Image.Image:
    """The whole scene as an RGB image ``width_px`` wide (the height keeps its proportions)."""
    scale = pixel_scale(scene, width_px)
    height_px = max(1, round(scene.height_mm * scale))
    drawn = draw_items(
        scene.items, (width_px, height_px), scale, scene.height_mm, background=background, supersample=supersample
    )
    return reduce(drawn, supersample)


def scene_colours(items: Iterable[Item]) -> list[str]:
    """Every colour the items paint with (fills, strokes, text), in first-use order."""
    seen: dict[str, None] = {}
    for item in items:
        if isinstance(item, Group):
            for colour in scene_colours(item.items):
                seen.setdefault(colour, None)
            continue
        if isinstance(item, Text):
            seen.setdefault(item.color.lower(), None)
            continue
        for paint in (item.style.fill, item.style.stroke):
            if paint is not None:
                seen.setdefault(paint.lower(), None)
    return list(seen)
