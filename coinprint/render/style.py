"""Print styles, read from ``templates/styles.json``: colour palettes (``color``,
``ink-saver``) and named typography (sizes in points, so a printed sheet can be checked
against them) used by every page we draw.

The ``color`` palette's fills are dark enough that every coin a game names (a copper penny,
a silver dime or quarter) keeps a contrast of 3:1 or more against the space it lies on, in
colour and printed in grey (:data:`MIN_COIN_CONTRAST`); ``region_fill`` gives Coin Age's
regions eight distinct colours for the quarter alone. ``ink-saver`` draws outlines only, in
black and grey (:func:`greyed` makes any scene so).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from coinprint.errors import UsageError
from coinprint.render.scene import Circle, Item, Path, Scene, Style, Text
from coinprint.resources import template_path
from coinprint.units import POINTS_PER_MM

MM_PER_POINT = 1.0 / POINTS_PER_MM


@dataclass(frozen=True)
class Palette:
    name: str
    space_fill: tuple[str, ...]
    region_fill: tuple[str, ...]
    zone_fill: tuple[str, ...]
    """The first, second … player's starting zone (Flick's), dark enough for a quarter."""
    space_stroke: str
    space_stroke_mm: float
    region_stroke_mm: float
    label: str
    guide: str
    accent: str
    filled: bool

    def fill(self, index: int | None) -> str | None:
        """The fill for colour number ``index`` (None: the first colour); None in ink-saver."""
        if not self.filled:
            return None
        return self.space_fill[(index or 0) % len(self.space_fill)]

    def region(self, index: int | None) -> str | None:
        """The fill of region colour number ``index`` (:attr:`region_fill`); None in ink-saver."""
        if not self.filled:
            return None
        return self.region_fill[(index or 0) % len(self.region_fill)]


@dataclass(frozen=True)
class TypeStyle:
    """A named text style: size in points, line spacing as a multiple of the size."""

    name: str
    size_pt: float
    leading: float = 1.25
    bold: bool = False
    italic: bool = False
    space_before_pt: float = 0.0
    space_after_pt: float = 0.0

    @property
    def size_mm(self) -> float:
        return self.size_pt * MM_PER_POINT

    @property
    def leading_mm(self) -> float:
        return self.size_mm * self.leading

    @property
    def before_mm(self) -> float:
        return self.space_before_pt * MM_PER_POINT

    @property
    def after_mm(self) -> float:
        return self.space_after_pt * MM_PER_POINT


@cache
def _styles() -> dict[str, Any]:
    styles: dict[str, Any] = json.loads(template_path("styles.json").read_text(encoding="utf-8"))
    return styles


def palette_names() -> list[str]:
    """The names ``--style`` accepts."""
    return list(_styles()["palettes"])


@cache
def palette(name: str) -> Palette:
    """The palette called ``name`` (``color`` or ``ink-saver``)."""
    styles = _styles()["palettes"]
    if name not in styles:
        raise UsageError(f"unknown style '{name}'; use one of: {', '.join(styles)}")
    values = dict(styles[name])
    values["space_fill"] = tuple(values["space_fill"])
    values["region_fill"] = tuple(values["region_fill"])
    values["zone_fill"] = tuple(values["zone_fill"])
    return Palette(name=name, **values)


@cache
def text_style(name: str) -> TypeStyle:
    """The typography style called ``name`` (``body``, ``h1``, ``caption``, ``print_note`` …)."""
    return TypeStyle(name=name, **_styles()["typography"][name])


def rule_sheet_setting(name: str) -> Any:
    """A rule-sheet page setting (``margin_mm``, ``column_gap_mm``, ``max_measure_chars`` …)."""
    return _styles()["rule_sheet"][name]


def lightness(colour: str) -> float:
    """CIELAB lightness L* (0 black … 100 white) of ``#rrggbb``."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    f = y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116
    return 116 * f - 16


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance (0 black … 1 white) of ``#rrggbb``."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


MIN_CONTRAST = 4.5
"""Text on a fill keeps at least this contrast (WCAG AA for normal text)."""


def ink_on(fill: str | None, ink: str) -> str:
    """``ink`` when it reads well on ``fill`` (a contrast of 4.5:1 or more), else white or
    black, whichever contrasts more: numbers on a dark country stay readable."""
    if fill is None or not fill.startswith("#") or len(fill) != 7 or contrast(ink, fill) >= MIN_CONTRAST:
        return ink
    return max(("#ffffff", "#111111"), key=lambda candidate: contrast(candidate, fill))


MIN_COIN_CONTRAST = 3.0
"""A coin keeps at least this contrast against the fill of the space it lies on (WCAG's
3:1 for a graphical object), in colour and in grey."""


def coin_colour(name: str) -> str:
    """The colour of the coin called ``name`` (a catalogue name such as ``penny``): copper,
    gold (Nordic gold) or silver (the rest, cupronickel)."""
    colours = _styles()["coin_colours"]
    for metal in ("copper", "gold"):
        if name in colours[f"{metal}_coins"]:
            return str(colours[metal])
    return str(colours["silver"])


def grey(colour: str) -> str:
    """``#rrggbb`` as the grey a printer prints it in greyscale (luma: 0.299 R + 0.587 G +
    0.114 B)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    value = round(0.299 * r + 0.587 * g + 0.114 * b)
    return f"#{value:02x}{value:02x}{value:02x}"


def greyed(scene: Scene, chosen: dict[str, str] | None = None, texts: dict[str, str] | None = None) -> Scene:
    """``scene`` with every colour printed as grey (:func:`grey`): the ink-saver kit, whose
    figures and badges are drawn in colour elsewhere. A colour in ``chosen`` becomes the
    colour given there instead (the colour palette's fills white, players' coins white and
    mid grey); a text's colour in ``texts`` (white letters of a dark fill: black)."""
    table = {k.lower(): v for k, v in (chosen or {}).items()}
    letters = {**table, **{k.lower(): v for k, v in (texts or {}).items()}}

    def ink(colour: str | None, inks: dict[str, str] = table) -> str | None:
        if colour is None or not colour.startswith("#") or len(colour) != 7:
            return colour
        return inks.get(colour.lower()) or grey(colour)

    def style(value: Style) -> Style:
        return replace(value, fill=ink(value.fill), stroke=ink(value.stroke))

    def item(value: Item) -> Item:
        if isinstance(value, (Path, Circle)):
            return replace(value, style=style(value.style))
        if isinstance(value, Text):
            return replace(value, color=ink(value.color, letters) or value.color)
        return replace(value, items=tuple(item(inner) for inner in value.items))

    out = Scene(scene.width_mm, scene.height_mm, [item(i) for i in scene.items], scene.title, scene.trim)
    out.bleed_mm = scene.bleed_mm
    return out
