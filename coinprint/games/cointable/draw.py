"""Drawing the Coin Table board: the hexes, their names, the coin guides and the info lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.render.board import Frame, label_point, space_items
from coinprint.render.labels import text_box
from coinprint.render.scene import Circle, Scene, Style, Text
from coinprint.render.sheet import Sheet
from coinprint.render.style import ink_on, palette
from coinprint.render.words import board_texts
from coinprint.units import coin, format_mm

if TYPE_CHECKING:
    from coinprint.layout import Layout


def board_scene(layout: Layout, style: str = "color") -> Scene:
    """The board at true size: filled hexes, a faint coin outline in each, the cell names."""
    colours = palette(style)
    frame = Frame(layout)
    scene = frame.scene(title="Coin Table board")
    scene.add(*space_items(layout, frame, colours))
    hex_mm = float(layout.params.get("hex_mm", 31.75))
    guide = layout.params.get("coin")
    label_mm = max(2.0, min(4.0, hex_mm * 0.11))
    for space in layout.spaces:
        x, y = frame.point(*label_point(space))
        ink = ink_on(colours.fill(space.properties.get("color")), colours.label)  # white on a dark hex
        if guide:
            radius = coin(guide).radius_mm
            scene.add(Circle((x, y), radius, Style(stroke=colours.guide, stroke_mm=0.2, dash_mm=(1.0, 1.0))))
            # The name sits below the coin's spot, so it stays readable next to a coin.
            scene.add(Text((x, y - hex_mm * 0.42), space.name, label_mm * 0.8, "middle", ink))
        else:
            scene.add(Text((x, y - label_mm * 0.35), space.name, label_mm, "middle", ink))
    return scene


def board_sheet(layout: Layout, style: str = "color", texts: dict[str, Any] | None = None, lang: str = "en") -> Sheet:
    """The printable board: its scene, where it puts ink, its title and info lines.
    ``texts`` is the ``board`` part of a Coin Table template (default: ``lang``'s)."""
    import shapely

    words = texts or board_texts("cointable", lang)
    frame = Frame(layout)
    hexes = shapely.union_all([s.polygon for s in layout.spaces])
    footprint = shapely.affinity.translate(hexes, frame.dx, frame.dy)
    side = layout.params.get("size")
    hex_mm = float(layout.params.get("hex_mm", 0.0))
    values = {
        "flat": format_mm(hex_mm),
        "corner": format_mm(hex_mm * 2 / 3**0.5),
        "cells": len(layout),
        "side": side,
    }
    values["a1_where"] = words.get("where", {}).get(where_is(layout, "a1"), "")
    # A drawn board that keeps its own names says so instead of explaining a1 … (the built-in names).
    drawn = layout.params.get("names") == "drawn" and "lines_drawn" in words
    names = [s.name for s in layout.spaces[:3]]
    values["names"] = ", ".join(names) + (", …" if len(layout.spaces) > 3 else "")
    lines = [line.format(**values) for line in words["lines_drawn" if drawn else "lines"]]
    if palette(style).filled and "colour_line" in words:  # only where colours are printed
        lines.append(words["colour_line"])
    guide = layout.params.get("coin")
    if guide:
        said = words.get("coin_names", {}).get(coin(guide).name, coin(guide).title)  # "a penny"
        lines.append(words["coin_line"].format(coin=said, coin_mm=coin(guide).diameter_mm))
    pieces = [tuple(s.polygon.bounds) for s in layout.spaces]
    pad = 1.0  # keep each cell's outline stroke on the page too
    pieces = [
        (x0 + frame.dx - pad, y0 + frame.dy - pad, x1 + frame.dx + pad, y1 + frame.dy + pad)
        for x0, y0, x1, y1 in pieces
    ]
    cells = [shapely.affinity.translate(s.polygon, frame.dx, frame.dy) for s in layout.spaces]
    sheet = Sheet(
        board_scene(layout, style), words["title"], lines, footprint=footprint, pieces=pieces, lang=lang, cells=cells
    )
    return with_seats(sheet, words.get("seats", {}))


SEAT_MM = 2.8
"""The size of the words saying where each player sits."""


def where_is(layout: Layout, name: str) -> str:
    """Where the space called ``name`` lies on the printed board: ``bottom-left``, ``top``,
    ``centre`` … (thirds of the board's width and height), or "" when there is none."""
    space = next((s for s in layout.spaces if s.name == name), None)
    if space is None:
        return ""
    minx, miny, maxx, maxy = layout.bounds
    x, y = label_point(space)
    across = ("left", "", "right")[min(2, int(3 * (x - minx) / max(maxx - minx, 1e-9)))]
    up = ("bottom", "", "top")[min(2, int(3 * (y - miny) / max(maxy - miny, 1e-9)))]
    return "-".join(part for part in (up, across) if part) or "centre"


def with_seats(sheet: Sheet, seats: dict[str, str]) -> Sheet:
    """The board with where Heads sits written in its bottom-right corner, along the bottom
    edge, and where Tails sits in the top-left corner, turned to face them: in the empty
    corners of the board's box, so the board needs no more paper. Left out on a board too
    small to have room."""
    from dataclasses import replace

    import shapely

    if not seats or sheet.footprint is None:
        return sheet
    width, height = sheet.content.width_mm, sheet.content.height_mm
    heads = Text((width - 1.5, 1.5), seats["heads"], SEAT_MM, "end", "#000000", bold=True)
    tails = Text((1.5, height - 1.5), seats["tails"], SEAT_MM, "end", "#000000", True, 180.0)
    x0, y0, x1, y1 = text_box(replace(tails, angle=0.0))
    turned = shapely.box(2 * tails.at[0] - x1, 2 * tails.at[1] - y1, 2 * tails.at[0] - x0, 2 * tails.at[1] - y0)
    boxes = [shapely.box(*text_box(heads)), turned]
    if any(box.buffer(0.5).intersects(sheet.footprint) for box in boxes):
        return sheet
    content = Scene(width, height, list(sheet.content.items), title=sheet.content.title)
    content.add(heads, tails)
    # The words are ink too: the info block and the registration marks keep off them.
    return replace(sheet, content=content, footprint=shapely.union_all([sheet.footprint, *boxes]))
