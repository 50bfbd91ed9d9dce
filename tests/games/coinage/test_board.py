"""Coin Age map cards: the classic graph, the built-in maps, random maps (checked here with
shapely directly, not with the generator's helpers), colouring, card sizes, the checker."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.checks import errors
from coinprint.errors import UsageError
from coinprint.games.coinage import board as coinage
from coinprint.layout import loads
from coinprint.registry import GAMES

QUARTER_RADIUS = 24.26 / 2

CLASSIC_BORDERS = """A1-A2 A1-B1 A1-B2 A2-A3 A2-B2 A2-B3 A3-B3 A3-B4 B1-B2 B2-B3 B3-B4
C1-C2 C1-B1 C1-B2 C2-C3 C2-B2 C2-B3 C3-B3 C3-B4""".split()
CLASSIC_REGIONS = [{"A1", "A2", "A3", "B1"}, {"C1", "B2", "B3"}, {"B4", "C3"}, {"C2"}]


def borders_by_geometry(layout) -> set[frozenset[str]]:
    """Pairs of spaces sharing more than 0.1 mm of boundary, measured here with shapely."""
    found = set()
    spaces = layout.spaces
    for i, a in enumerate(spaces):
        for b in spaces[i + 1 :]:
            if a.polygon.boundary.intersection(b.polygon.boundary).length > 0.1:
                found.add(frozenset((a.name, b.name)))
    return found


def connected(nodes: set[str], edges: set[frozenset[str]]) -> bool:
    nodes = set(nodes)
    if not nodes:
        return True
    start = next(iter(nodes))
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for edge in edges:
            if here in edge:
                (other,) = edge - {here}
                if other in nodes and other not in seen:
                    seen.add(other)
                    todo.append(other)
    return seen == nodes


def assert_valid_map(layout, sizes: list[int] | None = None) -> None:
    polygons = [s.polygon for s in layout.spaces]
    assert all(p.is_valid for p in polygons)
    assert shapely.coverage_is_valid(polygons)
    card = layout.features_with_role("card")[0].shape
    union = shapely.union_all(polygons)
    assert card.contains(union)
    # the spaces tile the map area: no gaps inside their outer rectangle
    assert abs(union.area - union.envelope.area) < 0.5
    edges = borders_by_geometry(layout)
    names = {s.name for s in layout.spaces}
    assert connected(names, edges)
    for name in names:
        assert sum(name in e for e in edges) >= 2, name
    regions: dict[str, set[str]] = {}
    for space in layout.spaces:
        assert space.region
        regions.setdefault(space.region, set()).add(space.name)
    for members in regions.values():
        assert connected(members, {e for e in edges if e <= members})
    if sizes is not None:
        assert sorted(len(m) for m in regions.values()) == sorted(sizes)
    # a quarter fits every space with room to spare (polylabel, then distance to the edge)
    for space in layout.spaces:
        centre = shapely.ops.polylabel(space.polygon, tolerance=0.05)
        assert space.polygon.exterior.distance(centre) >= QUARTER_RADIUS + 0.5, space.name
    # neighbouring regions never share a colour; at most 4 colours
    colour = {s.name: s.properties["color"] for s in layout.spaces}
    region = {s.name: s.region for s in layout.spaces}
    assert set(colour.values()) <= {0, 1, 2, 3}
    for edge in edges:
        a, b = tuple(edge)
        if region[a] != region[b]:
            assert colour[a] != colour[b], edge
        else:
            assert colour[a] == colour[b]


import shapely.ops  # noqa: E402


def test_classic_graph_is_exactly_the_19_borders():
    layout = coinage.build("classic")
    expected = {frozenset(b.split("-")) for b in CLASSIC_BORDERS}
    assert len(expected) == 19
    assert borders_by_geometry(layout) == expected
    graph_edges = {frozenset((layout.space(a).name, layout.space(b).name)) for a, b in layout.graph.edges}
    assert graph_edges == expected
    regions: dict[str, set[str]] = {}
    for space in layout.spaces:
        regions.setdefault(space.region, set()).add(space.name)
    assert sorted(map(sorted, regions.values())) == sorted(map(sorted, CLASSIC_REGIONS))


@pytest.mark.parametrize("name", coinage.BUILTIN_MAPS)
def test_builtin_maps_are_valid(name):
    layout = coinage.build(name)
    assert len(layout) == 10
    assert_valid_map(layout)
    problems = coinage.check(layout)
    assert [p for p in problems if p.severity != "info"] == []


def test_builtin_maps_have_different_region_sizes():
    sizes = {}
    for name in coinage.BUILTIN_MAPS:
        layout = coinage.build(name)
        counts: dict[str, int] = {}
        for s in layout.spaces:
            counts[s.region] = counts.get(s.region, 0) + 1
        sizes[name] = tuple(sorted(counts.values(), reverse=True))
    assert sizes["classic"] == (4, 3, 2, 1)
    assert len(set(sizes.values())) == 4


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    sizes=st.lists(st.integers(1, 5), min_size=1, max_size=6).filter(lambda s: 6 <= sum(s) <= 20),
)
def test_random_maps_meet_every_constraint(seed, sizes):
    layout = coinage.build("random", regions=sizes, seed=seed)
    assert len(layout) == sum(sizes)
    assert_valid_map(layout, sizes)
    assert layout.meta["seed"] == seed


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    sizes=st.lists(st.integers(1, 8), min_size=1, max_size=10).filter(lambda s: 6 <= sum(s) <= 20),
)
def test_random_maps_meet_every_constraint_many(seed, sizes):
    layout = coinage.build("random", regions=sizes, seed=seed)
    assert_valid_map(layout, sizes)


def test_same_seed_same_map_and_different_seed_different_map():
    a = coinage.build("random", regions="3,3,2,2", seed=5).dumps()
    b = GAMES["coinage"].layout_from_spec({"map": "random", "regions": "3-3-2-2", "seed": "5"}).dumps()
    c = coinage.build("random", regions="3,3,2,2", seed=6).dumps()
    assert a == b
    assert a != c


def test_geojson_round_trip_keeps_regions_and_graph():
    layout = coinage.build("terraces")
    again = loads(layout.dumps())
    assert [s.region for s in again.spaces] == [s.region for s in layout.spaces]
    assert set(again.graph.edges) == set(layout.graph.edges)
    assert [p for p in coinage.check(again) if p.severity != "info"] == []


@pytest.mark.parametrize("card", ["poker", "credit", "70x50mm"])
def test_small_cards_warn_that_coins_overhang(card):
    layout = coinage.build("classic", card=card)
    problems = coinage.check(layout)
    assert errors(problems) == []
    warnings = [p for p in problems if p.severity == "warning"]
    assert warnings and all("overhang" in p.message for p in warnings)
    # the map is the same map, only smaller
    assert borders_by_geometry(layout) == borders_by_geometry(coinage.build("classic"))


def test_default_card_grows_with_space_count():
    layout = coinage.build("random", regions="5,5,4,3,2,1", seed=3)
    width = layout.features_with_role("card")[0].shape.bounds[2]
    assert width > 148
    assert_valid_map(layout, [5, 5, 4, 3, 2, 1])


def test_colouring_needs_backtracking_and_stays_within_four():
    # A wheel of 5 around a hub: greedy in a bad order can need 5 colours; 4 suffice.
    rim = ["a", "b", "c", "d", "e"]
    touching = [(rim[i], rim[(i + 1) % 5]) for i in range(5)] + [("hub", r) for r in rim]
    colours = coinage.colour_regions(["hub", *rim], touching)
    assert colours is not None and max(colours.values()) <= 3
    assert all(colours[a] != colours[b] for a, b in touching)
    # K5 has no 4-colouring
    k5 = [(a, b) for i, a in enumerate(rim) for b in rim[i + 1 :]]
    assert coinage.colour_regions(rim, k5) is None


@pytest.mark.parametrize(
    "params, words",
    [
        ({"map": "nowhere"}, "coinage map 'nowhere' is not one of: classic, terraces, steps, patchwork, random"),
        ({"map": "random", "regions": "2-2", "seed": "1"}, "6 to 20"),
        ({"map": "random", "regions": "9-9-9", "seed": "1"}, "6 to 20"),
        ({"map": "random", "regions": "3-x", "seed": "1"}, "whole numbers"),
        ({"map": "random", "regions": "3-0-3-3", "seed": "1"}, "at least 1"),
        ({"map": "random", "regions": "4-3-3", "seed": "z"}, "coinage seed must be a whole number, not 'z'"),
        ({"map": "classic", "size": "3"}, "unknown coinage layout parameter 'size'; use card, map, regions, seed"),
        ({"map": "classic", "seed": "3"}, "for the random map"),
        ({"map": "classic", "card": "huge"}, "unknown card"),
    ],
)
def test_bad_parameters_say_what_is_allowed(params, words):
    with pytest.raises(UsageError, match=words):
        GAMES["coinage"].layout_from_spec(params)


def _with_spaces(layout, change):
    import json

    doc = json.loads(layout.dumps())
    change(doc["features"])
    return loads(json.dumps(doc))


def test_check_finds_broken_regions_and_missing_region():
    layout = coinage.build("classic")

    def split_region(features):
        for f in features:
            if f["id"] == "C3":
                f["properties"]["region"] = "r1"  # r1 is A1 A2 A3 B1: C3 is far away
            if f["id"] == "B4":
                f["properties"].pop("region")

    problems = coinage.check(_with_spaces(layout, split_region))
    text = " | ".join(map(str, errors(problems)))
    assert "region r1" in text and "not contiguous" in text
    assert "in no region: B4;" in text


def test_check_finds_a_disconnected_map_and_gaps():
    layout = coinage.build("classic")

    def drop_middle(features):
        features[:] = [f for f in features if f["id"] not in ("B2", "B3", "A2", "C2")]

    problems = coinage.check(_with_spaces(layout, drop_middle))
    text = " | ".join(map(str, errors(problems)))
    assert "separate parts" in text


def test_check_reports_region_sizes():
    problems = coinage.check(coinage.build("steps"))
    info = [p.message for p in problems if p.severity == "info"]
    assert info == ["region sizes r1: 5, r2: 3, r3: 2"]


def test_layout_name_round_trips():
    layout = coinage.build("random", regions="4,3,2,1", seed=9, card="poker")
    name = coinage.layout_name(layout)
    assert name == "coinage:map=random,regions=4-3-2-1,seed=9,card=poker"
    from coinprint.analysis import builtin_layout

    assert builtin_layout(name).dumps() == layout.dumps()
    assert coinage.layout_name(coinage.build("classic")) == "coinage:map=classic"


def test_check_finds_borders_that_are_not_shared_exactly():
    layout = coinage.build("classic")

    def nudge(features):
        for f in features:
            if f["id"] == "B2":
                ring = f["geometry"]["coordinates"][0]
                middle = len(ring) // 2
                ring[middle] = [ring[middle][0] + 0.3, ring[middle][1] + 0.3]

    problems = coinage.check(_with_spaces(layout, nudge))
    assert any("share their borders exactly" in p.message or "overlaps" in p.message for p in errors(problems))


def test_check_finds_duplicate_labels_and_wrong_space_count():
    layout = coinage.build("classic")

    def relabel(features):
        for f in features:
            if f["id"] == "C3":
                f["properties"]["label"] = "c2"

    text = " | ".join(map(str, errors(coinage.check(_with_spaces(layout, relabel)))))
    assert "C2: the label is used by more than one space" in text

    def keep_five(features):
        features[:] = [f for f in features if f["id"] in ("A1", "A2", "B1", "B2", "C1", "card")]

    text = " | ".join(map(str, errors(coinage.check(_with_spaces(layout, keep_five)))))
    assert "5 spaces" in text
