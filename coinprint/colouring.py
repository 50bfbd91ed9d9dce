"""Colouring a graph of regions so that neighbours never share a colour.

One search for every colouring in coinprint: Coin Age's regions, the Map's countries and the
hexes of a drawn Coin Table board. It colours the regions one at a time, each with the lowest
colour its coloured neighbours leave free, and backs up when a region has none left; the
``order`` says which region comes next:

- ``"degree"``: the regions with most neighbours first, in a fixed order;
- ``"saturation"`` (DSATUR): the region whose coloured neighbours already use the most
  different colours, then the one with most neighbours.

Either way ties go to the region listed first, so the same graph always gets the same colours.
The search keeps its own stack: a graph of thousands of regions needs no deeper recursion.

>>> colour_regions(["hub", "a", "b", "c"], [("hub", "a"), ("hub", "b"), ("hub", "c"), ("a", "b")])
{'hub': 0, 'a': 1, 'b': 2, 'c': 1}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Literal, TypeVar

MAX_COLOURS = 4
"""Colours enough for any map (the four colour theorem)."""

NO_COLOUR = -1
Region = TypeVar("Region", bound=Hashable)
Order = Literal["degree", "saturation"]


def colour_regions(
    regions: Sequence[Region],
    touching: Iterable[tuple[Region, Region]],
    limit: int = MAX_COLOURS,
    *,
    order: Order = "degree",
) -> dict[Region, int] | None:
    """A colouring of ``regions`` (colour numbers 0 to ``limit`` − 1) in which no two regions
    of a pair in ``touching`` share a colour, found in the given ``order`` (see the module);
    None when ``limit`` colours are not enough. Four always suffice on a map."""
    graph = _Graph(regions, touching, limit)
    pick = graph.most_neighbours_first if order == "degree" else graph.most_constrained
    first = pick()
    if first is None:
        return {}
    stack = [(first, graph.free_colours(first))]  # each region being tried, with its colours left
    while stack:
        region, choices = stack[-1]
        graph.uncolour(region)
        colour = next(choices, None)
        if colour is None:  # no colour left here: back up to the region before
            stack.pop()
            continue
        graph.colour(region, colour)
        following = pick()
        if following is None:
            return {regions[k]: c for k, c in enumerate(graph.colours)}
        stack.append((following, graph.free_colours(following)))
    return None


class _Graph:
    """The regions by position, their neighbours, and the colours given so far."""

    def __init__(self, regions: Sequence[Region], touching: Iterable[tuple[Region, Region]], limit: int) -> None:
        position = {region: k for k, region in enumerate(regions)}
        self.near: list[set[int]] = [set() for _ in regions]
        for a, b in touching:
            i, j = position[a], position[b]
            if i != j:
                self.near[i].add(j)
                self.near[j].add(i)
        self.limit = limit
        self.colours = [NO_COLOUR] * len(regions)
        self.uncoloured = set(range(len(regions)))
        # For each region, how many of its coloured neighbours have each colour.
        self.around: list[dict[int, int]] = [{} for _ in regions]
        self.by_degree = sorted(range(len(regions)), key=lambda k: (-len(self.near[k]), k))

    def most_neighbours_first(self) -> int | None:
        """The next region in the fixed order (most neighbours first), or None when all have
        a colour."""
        done = len(self.colours) - len(self.uncoloured)
        return self.by_degree[done] if done < len(self.by_degree) else None

    def most_constrained(self) -> int | None:
        """The region whose coloured neighbours use the most colours (then the one with most
        neighbours, then the first), or None when all have a colour."""
        if not self.uncoloured:
            return None
        return max(self.uncoloured, key=lambda k: (len(self.around[k]), len(self.near[k]), -k))

    def free_colours(self, region: int) -> Iterator[int]:
        """The colours none of ``region``'s neighbours has now, lowest first."""
        used = set(self.around[region])
        return (c for c in range(self.limit) if c not in used)

    def colour(self, region: int, colour: int) -> None:
        self.colours[region] = colour
        self.uncoloured.discard(region)
        for other in self.near[region]:
            self.around[other][colour] = self.around[other].get(colour, 0) + 1

    def uncolour(self, region: int) -> None:
        colour = self.colours[region]
        if colour == NO_COLOUR:
            return
        self.colours[region] = NO_COLOUR
        self.uncoloured.add(region)
        for other in self.near[region]:
            left = self.around[other][colour] - 1
            if left:
                self.around[other][colour] = left
            else:
                del self.around[other][colour]
