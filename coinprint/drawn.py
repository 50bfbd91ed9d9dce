"""Drawn layouts (a drawing, a QGIS map, a GeoJSON file): the helpers a game's
:meth:`~coinprint.game.Game.printable` uses to complete one for print (extra properties of
its spaces, colour numbers)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from coinprint.colouring import colour_regions
from coinprint.layout import Layout


def with_properties(layout: Layout, extra: dict[str, dict[str, Any]], meta: dict[str, Any]) -> Layout:
    """``layout`` with the ``extra`` properties of its spaces (by id) and more ``meta``."""
    spaces = [replace(s, properties={**s.properties, **extra.get(s.id, {})}) for s in layout.spaces]
    return Layout(layout.game, spaces, list(layout.features), {**layout.meta, **meta})


def colouring(layout: Layout) -> dict[str, int]:
    """A proper colouring of the spaces (neighbours differ), with at most four colours
    (more only if the spaces' borders do not make a map)."""
    spaces, borders = list(layout.adjacency), list(layout.border_pairs())
    colours = colour_regions(spaces, borders, order="saturation")
    return colours if colours is not None else colour_regions(spaces, borders, len(spaces), order="saturation") or {}
