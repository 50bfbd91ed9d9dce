"""The one graph colouring: proper colourings within the budget, the same colours as the searches
it replaced (Coin Age's fixed order, the Map's most-constrained-first, networkx's DSATUR for
drawn boards), and no recursion however large the graph."""

from __future__ import annotations

import random
import sys

import networkx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.colouring import colour_regions


def fixed_order_reference(regions: list[str], touching: list[tuple[str, str]], limit: int = 4) -> dict[str, int] | None:
    """Coin Age's colouring as ``layout.colour_regions`` wrote it: recursive backtracking over
    the regions with most neighbours first (ties by name)."""
    near: dict[str, set[str]] = {r: set() for r in regions}
    for a, b in touching:
        if a != b:
            near[a].add(b)
            near[b].add(a)
    order = sorted(near, key=lambda r: (-len(near[r]), r))
    colour: dict[str, int] = {}

    def place(index: int) -> bool:
        if index == len(order):
            return True
        region = order[index]
        used = {colour[n] for n in near[region] if n in colour}
        for c in range(limit):
            if c not in used:
                colour[region] = c
                if place(index + 1):
                    return True
                del colour[region]
        return False

    return dict(colour) if place(0) else None


def most_constrained_reference(neighbours: list[set[int]]) -> list[int] | None:
    """The Map's colouring as ``four_colouring`` wrote it: recursive backtracking, next the
    country whose neighbours use most colours, then most neighbours, then the first."""
    count = len(neighbours)
    colours: list[int | None] = [None] * count

    def choose() -> int | None:
        best, best_key = None, None
        for k in range(count):
            if colours[k] is None:
                used = {colours[j] for j in neighbours[k]} - {None}
                key = (len(used), len(neighbours[k]), -k)
                if best_key is None or key > best_key:
                    best, best_key = k, key
        return best

    def solve() -> bool:
        k = choose()
        if k is None:
            return True
        used = {colours[j] for j in neighbours[k]}
        for colour in range(4):
            if colour not in used:
                colours[k] = colour
                if solve():
                    return True
        colours[k] = None
        return False

    return [int(c) for c in colours if c is not None] if solve() else None


def random_graph(seed: int, count: int, density: float) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(i, j) for i in range(count) for j in range(i + 1, count) if rng.random() < density]


def is_proper(colours: dict[int, int], edges: list[tuple[int, int]], limit: int) -> bool:
    return all(colours[a] != colours[b] for a, b in edges) and all(0 <= c < limit for c in colours.values())


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 16), density=st.floats(0.05, 0.6))
def test_the_fixed_order_gives_coin_age_s_colours(seed: int, count: int, density: float) -> None:
    names = [f"r{k:02d}" for k in range(count)]
    touching = [(names[i], names[j]) for i, j in random_graph(seed, count, density)]
    assert colour_regions(names, touching) == fixed_order_reference(names, touching)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 16), density=st.floats(0.05, 0.6))
def test_most_constrained_first_gives_the_map_s_colours(seed: int, count: int, density: float) -> None:
    edges = random_graph(seed, count, density)
    neighbours: list[set[int]] = [set() for _ in range(count)]
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    found = colour_regions(range(count), edges, order="saturation")
    expected = most_constrained_reference(neighbours)
    assert (None if found is None else [found[k] for k in range(count)]) == expected
    if found is not None:
        assert is_proper(found, edges, 4)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 40), density=st.floats(0.02, 0.3))
def test_most_constrained_first_is_networkx_dsatur_while_that_needs_four_colours(
    seed: int, count: int, density: float
) -> None:
    # Drawn Coin Table boards were coloured by networkx's DSATUR: the shared search makes the
    # same choices, so wherever DSATUR alone stays within four colours the colours are its own.
    edges = random_graph(seed, count, density)
    graph = networkx.Graph()
    graph.add_nodes_from(range(count))
    graph.add_edges_from(edges)
    greedy = networkx.greedy_color(graph, strategy="DSATUR")
    found = colour_regions(list(graph.nodes), list(graph.edges), order="saturation")
    if max(greedy.values()) < 4:
        assert found == greedy
    unlimited = colour_regions(list(graph.nodes), list(graph.edges), count, order="saturation")
    assert unlimited == greedy  # with colours enough it never backs up: DSATUR itself


@pytest.mark.parametrize("order", ["degree", "saturation"])
def test_no_four_colouring_is_none_and_five_colours_do(order: str) -> None:
    rim = ["a", "b", "c", "d", "e"]
    k5 = [(a, b) for i, a in enumerate(rim) for b in rim[i + 1 :]]
    assert colour_regions(rim, k5, order=order) is None
    five = colour_regions(rim, k5, 5, order=order)
    assert five is not None and sorted(five.values()) == [0, 1, 2, 3, 4]


def test_a_graph_deeper_than_the_recursion_limit_is_coloured_and_the_limit_untouched() -> None:
    limit = sys.getrecursionlimit()
    count = limit * 3
    path = [(k, k + 1) for k in range(count - 1)]
    for order in ("degree", "saturation"):
        colours = colour_regions(range(count), path, order=order)
        assert colours is not None and is_proper(colours, path, 2)
    assert sys.getrecursionlimit() == limit


def test_nothing_to_colour() -> None:
    assert colour_regions([], []) == {}
