"""Drawn layouts (a drawing, a QGIS map, a GeoJSON file): the helpers a game's
:meth:`~coinprint.game.Game.printable` uses to complete one for print (extra properties of
its spaces, colour numbers)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from coinprint.layout import Layout, colour_regions


def with_properties(layout: Layout, extra: dict[str, dict[str, Any]], meta: dict[str, Any]) -> Layout:
    """``layout`` with the ``extra`` properties of its spaces (by id) and more ``meta``."""
    spaces = [replace(s, properties={**s.properties, **extra.get(s.id, {})}) for s in layout.spaces]
    return Layout(layout.game, spaces, list(layout.features), {**layout.meta, **meta})


def colouring(layout: Layout) -> dict[str, int]:
    """A proper colouring of the spaces (neighbours differ), with at most four colours."""
    import networkx

    graph = layout.graph
    colours: dict[str, int] = networkx.greedy_color(graph, strategy="DSATUR")
    if max(colours.values(), default=0) < 4:
        return colours
    exact = colour_regions(list(graph.nodes), graph.edges)
    return exact if exact is not None else colours
