"""The Map generator, checked by tests that do their own geometry (shapely directly), not by
the generator's helpers or its checker."""

from __future__ import annotations

import json

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.errors import UsageError
from coinprint.games.mapgame import board as mapgame
from coinprint.layout import loads
from coinprint.registry import GAMES
from coinprint.units import coin

BORDER_MM = 0.1  # docs/formats.md, Layouts: a border is a shared line longer than this


def shared_length(a, b) -> float:
    return float(a.exterior.intersection(b.exterior).length)


def assert_valid_map(layout, countries: int, max_neighbours: int, coin_radius: float) -> None:
    spaces = sorted(layout.spaces, key=lambda s: s.order)
    polygons = [s.polygon for s in spaces]
    assert [s.order for s in spaces] == list(range(1, countries + 1))
    assert all(p.is_valid and not p.interiors for p in polygons)
    # Borders built once: the countries form a valid coverage (no gaps between shared edges).
    assert bool(shapely.coverage_is_valid(polygons, gap_width=0.0))
    union = shapely.union_all(polygons)
    assert union.geom_type == "Polygon" and not union.interiors, "the map must be one region without holes"
    assert abs(union.area - sum(p.area for p in polygons)) < 0.01, "countries overlap"
    for space, polygon in zip(spaces, polygons):
        widest = shapely.maximum_inscribed_circle(polygon, 0.01).length
        assert widest >= coin_radius, f"country {space.label}: a disc of radius {widest:.2f} is the widest inside"
    # Replay the drawing: each new country is one arc on the outline, with 1..max neighbours.
    outline = polygons[0]
    for k in range(1, countries):
        new = polygons[k]
        assert new.intersection(outline).area < 0.01
        near = [j for j in range(k) if shared_length(new, polygons[j]) > BORDER_MM]
        assert 1 <= len(near) <= max_neighbours, f"country {k + 1} bordered {len(near)} when drawn"
        fresh = shapely.line_merge(new.exterior.difference(outline.exterior))
        assert fresh.geom_type == "LineString", f"country {k + 1} is not one new arc ({fresh.geom_type})"
        assert fresh.is_simple, f"country {k + 1}: its arc crosses itself"
        for end in (fresh.coords[0], fresh.coords[-1]):
            assert outline.exterior.distance(shapely.Point(end)) < 1e-6
        outline = shapely.union_all([outline, new])
        assert outline.geom_type == "Polygon" and not outline.interiors
    # Who drew what, and where the coins start.
    assert spaces[0].properties.get("drawn_by") is None
    assert all(s.properties["drawn_by"] == ("O" if s.order % 2 == 0 else "X") for s in spaces[1:])
    assert [(s.order, s.start) for s in spaces if s.start] == [(countries - 1, "O"), (countries, "X")]
    # Four colours, neighbours never alike.
    colour = {s.id: s.properties["color"] for s in spaces}
    assert set(colour.values()) <= {0, 1, 2, 3}
    for a, b in layout.graph.edges:
        assert colour[a] != colour[b], f"{a} and {b} border each other and share a colour"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_default_maps_are_valid(seed: int) -> None:
    layout = mapgame.build(21, seed)
    radius = coin("nickel").radius_mm + mapgame.COIN_MARGIN_MM - 0.01
    assert_valid_map(layout, 21, 4, radius)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    countries=st.sampled_from([3, 5, 9, 15, 31]),
    max_neighbours=st.integers(1, 5),
    coins=st.sampled_from([("dime", "dime"), ("penny", "nickel"), ("quarter", "eur-1c")]),
)
def test_maps_with_other_parameters_are_valid(seed, countries, max_neighbours, coins) -> None:
    layout = mapgame.build(countries, seed, max_neighbours, coins)
    radius = max(coin(c).radius_mm for c in coins) + mapgame.COIN_MARGIN_MM - 0.01
    assert_valid_map(layout, countries, max_neighbours, radius)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_many_default_maps_are_valid(seed: int) -> None:
    assert_valid_map(mapgame.build(21, seed), 21, 4, coin("nickel").radius_mm + mapgame.COIN_MARGIN_MM - 0.01)


def test_same_seed_same_map_and_geojson_round_trip() -> None:
    first, second = mapgame.build(21, 42), mapgame.build(21, 42)
    assert first.dumps() == second.dumps()
    assert first.dumps() != mapgame.build(21, 43).dumps()
    again = loads(first.dumps())
    assert again.dumps() == first.dumps()
    doc = json.loads(first.dumps())
    assert doc["coinprint"]["seed"] == 42 and doc["coinprint"]["params"]["countries"] == 21


def test_the_first_country_is_a_circle() -> None:
    circle = mapgame.build(21, 5).space("c1").polygon
    centre = circle.centroid
    distances = [shapely.Point(p).distance(centre) for p in circle.exterior.coords]
    assert max(distances) - min(distances) < 0.01


def test_named_layout_rebuilds_the_same_map() -> None:
    from coinprint.analysis import builtin_layout

    layout = mapgame.build(21, 3)
    name = mapgame.layout_name(layout)
    assert name == "mapgame:countries=21,seed=3,growth=packed,starts=apart,arcs=forward"
    assert builtin_layout(name).dumps() == layout.dumps()
    other = mapgame.build(7, 1, 3, ("dime", "quarter"), growth="sprawling")
    assert builtin_layout(mapgame.layout_name(other)).dumps() == other.dumps()


def test_a_spec_without_growth_means_the_sprawling_map() -> None:
    from coinprint.analysis import builtin_layout

    sprawling = mapgame.build(21, 3, growth="sprawling", starts="any", arcs="folded")
    assert builtin_layout("mapgame:countries=21,seed=3").dumps() == sprawling.dumps()
    assert builtin_layout("mapgame:countries=21,seed=3,growth=sprawling").dumps() == sprawling.dumps()
    assert sprawling.dumps() != mapgame.build(21, 3).dumps()


def test_large_map() -> None:
    layout = mapgame.build(101, 1)
    assert_valid_map(layout, 101, 4, coin("nickel").radius_mm + mapgame.COIN_MARGIN_MM - 0.01)


@pytest.mark.parametrize("countries", [0, 1, 2, 4, 20, 403, 10**6])
def test_bad_country_counts_are_refused(countries: int) -> None:
    with pytest.raises(UsageError, match=str(countries)):
        mapgame.build(countries)


@pytest.mark.parametrize(
    "params, words",
    [
        ({"countries": "x"}, "mapgame countries must be a whole number, not 'x'"),
        (
            {"size": "3"},
            "unknown mapgame layout parameter 'size'; use arcs, coin, countries, draw, growth, max_neighbours, seed, starts",
        ),
        ({"coin": "pebble"}, "unknown coin 'pebble'; use one of: dime, penny"),
        ({"max_neighbours": "0"}, "mapgame max_neighbours 0 is out of range; use 1 to 8"),
        ({"growth": "dense"}, "mapgame growth 'dense' is not one of: packed, sprawling"),
    ],
)
def test_bad_layout_names_are_refused(params, words) -> None:
    with pytest.raises(UsageError, match=words):
        GAMES["mapgame"].layout_from_spec(params)
