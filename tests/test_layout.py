"""The layout model: adjacency from shared borders, GeoJSON that round-trips, tolerant reading."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.errors import UnreadableInputError
from coinprint.games.cointable.board import build
from coinprint.layout import Layout, Space, close_ring, loads


def square(sid: str, x: float, y: float, size: float = 10.0, **kw) -> Space:
    return Space(sid, (close_ring([(x, y), (x + size, y), (x + size, y + size), (x, y + size)]),), **kw)


def test_adjacency_needs_a_shared_line_not_a_corner():
    layout = Layout("test", [square("a", 0, 0), square("b", 10, 0), square("c", 10, 10), square("far", 50, 50)])
    assert layout.adjacent("a", "b")
    assert layout.adjacent("b", "c")
    assert not layout.adjacent("a", "c")  # they only touch at (10, 10)
    assert layout.neighbours("far") == []
    assert layout.graph.edges["a", "b"]["border_mm"] == pytest.approx(10.0)


def test_a_border_of_a_tenth_of_a_millimetre_is_not_enough():
    layout = Layout("test", [square("a", 0, 0), square("b", 10, 9.95), square("c", 10, -9.8)])
    assert not layout.adjacent("a", "b")  # shares 0.05 mm
    assert layout.adjacent("a", "c")  # shares 0.2 mm


def test_spaces_are_found_by_id_or_label_case_insensitively():
    layout = Layout("test", [square("s1", 0, 0, label="E5")])
    assert layout.space("s1").id == "s1"
    assert layout.space("e5").id == "s1"
    with pytest.raises(KeyError):
        layout.space("nope")


def test_geojson_round_trip_is_exact():
    layout = build(4, "30mm")
    text = layout.dumps()
    again = loads(text)
    assert again.dumps() == text
    assert again.spaces == layout.spaces
    assert again.meta == layout.meta
    assert sorted(again.graph.edges) == sorted(layout.graph.edges)


def test_geojson_follows_the_contract():
    doc = json.loads(build().dumps())
    assert doc["type"] == "FeatureCollection"
    assert doc["coinprint"]["format"] == 1 and doc["coinprint"]["game"] == "cointable"
    assert doc["coinprint"]["units"] == "mm"
    feature = doc["features"][0]
    assert feature["properties"]["role"] == "space"
    assert feature["geometry"]["type"] == "Polygon"
    ring = feature["geometry"]["coordinates"][0]
    assert ring[0] == ring[-1]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        # Points on a 0.01 mm grid, so no two distinct points round to the same one.
        st.tuples(
            st.integers(-(10**6), 10**6).map(lambda v: v / 100), st.integers(-(10**6), 10**6).map(lambda v: v / 100)
        ),
        min_size=3,
        max_size=12,
        unique=True,
    ),
    st.dictionaries(st.sampled_from(["note", "color", "x"]), st.integers(0, 9), max_size=3),
)
def test_any_space_round_trips(points, extra):
    layout = Layout(
        "test", [Space("p", (close_ring(points),), label="P", region="r", order=3, properties=extra)], meta={"seed": 5}
    )
    again = loads(layout.dumps())
    assert again.dumps() == layout.dumps()
    assert again.spaces[0].properties == extra and again.spaces[0].order == 3


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a GeoJSON FeatureCollection"),
        ('{"type": "FeatureCollection", "features": []}', "not a coinprint layout"),
        ('{"type": "FeatureCollection", "coinprint": {"game": "x"}, "features": 3}', "must be a list"),
    ],
)
def test_what_is_not_a_layout_cannot_be_read(text, message):
    with pytest.raises(UnreadableInputError, match=message):
        loads(text)


def test_smaller_faults_are_kept_as_problems_not_raised():
    doc = {
        "type": "FeatureCollection",
        "coinprint": {"game": "cointable"},
        "features": [
            {"type": "Feature", "properties": {"role": "space"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
            {
                "type": "Feature",
                "id": "q",
                "properties": {"role": "space"},
                "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0]]]},
            },
            "junk",
        ],
    }
    layout = loads(json.dumps(doc))
    assert layout.spaces == []
    assert len(layout.read_problems) == 4  # no id; not a polygon; too few corners; not a feature
    assert any("#1" in p and "Polygon" in p for p in layout.read_problems)
    assert any(p.startswith("q:") for p in layout.read_problems)


def test_a_layout_draws_itself_in_jupyter():
    import xml.etree.ElementTree as ET

    svg = build(2)._repr_svg_()
    root = ET.fromstring(svg)
    assert root.get("width").endswith("mm")
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sorted(texts) == sorted(s.name for s in build(2).spaces)
