"""Drawing the Coin Table board: the hexes, their names, the coin guides and the info lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.render.board import Frame, label_point, space_items
from coinprint.render.pages import Sheet, board_texts
from coinprint.render.scene import Circle, Style, Text
from coinprint.render.style import palette
from coinprint.units import coin, format_mm

if TYPE_CHECKING:
    from coinprint.layout import Layout


def board_scene(layout: Layout, style: str = "color"):
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
        if guide:
            radius = coin(guide).radius_mm
            scene.add(Circle((x, y), radius, Style(stroke=colours.guide, stroke_mm=0.2, dash_mm=(1.0, 1.0))))
            # The name sits below the coin's spot, so it stays readable next to a coin.
            scene.add(Text((x, y - hex_mm * 0.42), space.name, label_mm * 0.8, "middle", colours.label))
        else:
            scene.add(Text((x, y - label_mm * 0.35), space.name, label_mm, "middle", colours.label))
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
    lines = [line.format(**values) for line in words["lines"]]
    guide = layout.params.get("coin")
    if guide:
        lines.append(words["coin_line"].format(coin=coin(guide).title, coin_mm=coin(guide).diameter_mm))
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


SEAT_MM = 8.0
"""Room below and above the board for where each player sits."""


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
    """The board with a strip below it saying where Heads sits and one above for Tails
    (turned to face them), so players know which side is theirs."""
    from dataclasses import replace

    import shapely

    from coinprint.render.scene import Group, Scene, translate

    if not seats:
        return sheet
    content = sheet.content
    scene = Scene(content.width_mm, content.height_mm + 2 * SEAT_MM, title=content.title)
    scene.add(Group(tuple(content.items), translate(0.0, SEAT_MM)))
    size = 2.8  # under 8 pt: a turned note, not one of the page's own words
    middle = content.width_mm / 2
    scene.add(Text((middle, SEAT_MM / 2 - size * 0.35), seats["heads"], size, "middle", "#000000", bold=True))
    top = content.height_mm + 1.5 * SEAT_MM
    scene.add(Text((middle, top + size * 0.35), seats["tails"], size, "middle", "#000000", True, 180.0))
    moved = [(x0, y0 + SEAT_MM, x1, y1 + SEAT_MM) for x0, y0, x1, y1 in sheet.pieces]
    footprint = None if sheet.footprint is None else shapely.affinity.translate(sheet.footprint, 0.0, SEAT_MM)
    cells = [shapely.affinity.translate(cell, 0.0, SEAT_MM) for cell in sheet.cells]
    return replace(sheet, content=scene, pieces=moved, footprint=footprint, cells=cells)
