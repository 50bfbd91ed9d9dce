"""The Coin Table rule sheet's values (the words are ``templates/cointable.<lang>.json``; its
example positions are replayed from the template's move lists) and drawn boards completed
for print."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint.drawn import colouring, with_properties
from coinprint.game import RuleSheetParts
from coinprint.games.cointable.board import cell_count, cell_name, havannah_names, regular_hexagon_radius
from coinprint.games.cointable.draw import where_is
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.layout import Layout


def rule_sheet_parts(template: Mapping[str, Any], layout: Layout, supply: int = 100, side: int = 5) -> RuleSheetParts:
    """The values of the Coin Table sheet for ``layout`` (a board of ``side`` hexes a side):
    the board's size, the supply, the centre cell, where cell a1 is."""

    board_command = "coinprint board cointable" + ("" if side == 5 else f" --size {side}")
    values: dict[str, Any] = {
        "supply": supply,
        "side": side,
        "cells": cell_count(side),
        "centre": cell_name(side - 1, side),
        "board_command": board_command,
        "a1_where": dict(template["board"]).get("where", {}).get(where_is(layout, "a1"), ""),
    }
    return RuleSheetParts(values, {}, {})


GUIDE_COIN = "penny"
"""The coin outlined in each hex of a drawn Coin Table board, when it fits."""


def printable(layout: Layout) -> Layout:
    """A drawn board completed for print: its hex size and side, the coin guide, and colours
    (neighbouring hexes differ)."""
    import math
    import statistics

    radii = [r for r, _ in (regular_hexagon_radius(s.polygon, 1.0) for s in layout.spaces) if r is not None]
    hex_mm = round(statistics.median(radii) * math.sqrt(3), 2) if radii else 0.0
    side = next((n for n in range(1, 200) if cell_count(n) >= len(layout)), 0)
    guide = GUIDE_COIN if coin(GUIDE_COIN).diameter_mm <= hex_mm else None
    builtin_names = havannah_names([s.centroid for s in layout.spaces])
    names = "havannah" if builtin_names == [s.name for s in layout.spaces] else "drawn"
    params = {
        **layout.params,
        "size": side,
        "hex_mm": hex_mm,
        "measure": "flat-to-flat",
        "coin": guide,
        "names": names,
    }
    colours = colouring(layout)
    return with_properties(layout, {sid: {"color": c} for sid, c in colours.items()}, {"params": params})
