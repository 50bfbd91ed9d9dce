"""Hand-made maps: the checker names the country and the rule each one breaks."""

from __future__ import annotations

import json

import pytest
import shapely
from click.testing import CliRunner

from coinprint.cli import cli
from coinprint.games.mapgame import board as mapgame
from coinprint.games.mapgame.check import check as check_map
from coinprint.layout import from_geojson


def box(x0, y0, x1, y1, *extra_on_edges):
    """An anticlockwise rectangle ring; ``extra_on_edges`` are extra corner points on its
    edges (so a neighbour's corner is also a corner here and borders match exactly)."""
    ring = shapely.Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    points = list(ring.exterior.coords)[:-1]
    for point in extra_on_edges:
        for i in range(len(points)):
            a, b = points[i], points[(i + 1) % len(points)]
            if shapely.LineString([a, b]).distance(shapely.Point(point)) < 1e-9 and point not in (a, b):
                points.insert(i + 1, point)
                break
    return [list(p) for p in points] + [list(points[0])]


def map_doc(rings, params=None):
    """A mapgame GeoJSON: rings in drawing order; the last two are the start countries."""
    n = len(rings)
    features = []
    for k, ring in enumerate(rings, start=1):
        props = {"role": "space", "label": str(k), "order": k}
        if k == n - 1:
            props["start"] = "O"
        if k == n:
            props["start"] = "X"
        features.append(
            {
                "type": "Feature",
                "id": f"c{k}",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": props,
            }
        )
    meta = {"format": 1, "game": "mapgame", "units": "mm", "params": params or {}}
    return {"type": "FeatureCollection", "coinprint": meta, "features": features}


def problems(doc) -> list[str]:
    return [str(p) for p in check_map(from_geojson(doc))]


# A good hand-made map: three 30 mm squares in a row (a nickel is 21.21 mm across).
GOOD = [box(0, 0, 30, 30), box(30, 0, 60, 30), box(60, 0, 90, 30)]


def test_a_good_hand_made_map_passes() -> None:
    assert problems(map_doc(GOOD)) == []


def test_generated_maps_pass() -> None:
    for seed in range(5):
        assert check_map(mapgame.build(21, seed)) == []


def test_a_country_too_small_for_the_coin() -> None:
    rings = [box(0, 0, 30, 30), box(30, 0, 45, 30), box(45, 0, 75, 30)]
    found = problems(map_doc(rings))
    assert len(found) == 1
    assert found[0].startswith("c2: country 2 breaks the rule 'holds the coin'")
    assert "15.00 mm across" in found[0] and "21.21 mm" in found[0]


def test_the_larger_coin_is_checked() -> None:
    rings = [box(0, 0, 30, 30), box(30, 0, 52, 30), box(52, 0, 82, 30)]  # 22 mm wide
    assert problems(map_doc(rings)) == []
    found = problems(map_doc(rings, {"coins": {"O": "penny", "X": "quarter"}}))
    assert len(found) == 1 and "c2: country 2" in found[0] and "US quarter" in found[0]


def test_a_fifth_neighbour_when_drawn() -> None:
    row = [box(30 * k, 0, 30 * k + 30, 30) for k in range(5)]
    top = box(0, 30, 150, 60, (30, 30), (60, 30), (90, 30), (120, 30))
    side = box(150, 0, 180, 30)
    found = problems(map_doc(row + [top, side]))
    assert found == [
        "c6: country 6 breaks the rule 'at most 4 neighbours when drawn': when drawn it bordered 5 countries (1, 2, 3, 4, 5)"
    ]
    # The same map is fine when five neighbours are allowed.
    assert problems(map_doc(row + [top, side], {"max_neighbours": 5})) == []


def test_two_arcs_and_the_hole_they_close_off() -> None:
    # Two squares apart on a long bar; the top country touches both and closes the gap.
    bar = box(0, 0, 90, 30, (30, 30), (60, 30))
    left, right = box(0, 30, 30, 60), box(60, 30, 90, 60)
    lid = box(0, 60, 90, 90, (30, 60), (60, 60))
    found = problems(map_doc([bar, left, right, lid, box(90, 0, 120, 30)]))
    assert any(line.startswith("no holes: the map encloses 1 hole(s)") for line in found)
    assert (
        "c4: country 4 breaks the rule 'one arc on the outline': it is drawn with 2 separate new lines, not one arc"
        in found
    )
    assert "c4: country 4 breaks the rule 'no holes': drawing it closed off a hole in the map" in found


def test_a_country_not_touching_the_map_when_drawn() -> None:
    rings = [
        box(0, 0, 30, 30),
        box(60, 0, 90, 30),
        box(
            30,
            0,
            60,
            30,
        ),
    ]
    found = problems(map_doc(rings))
    assert "c2: country 2 breaks the rule 'one arc on the outline': it does not border the map drawn before it" in found


def test_overlapping_countries() -> None:
    rings = [box(0, 0, 30, 30), box(20, 0, 50, 30), box(50, 0, 80, 30)]
    found = problems(map_doc(rings))
    assert any(line.startswith("c1: overlaps c2 by 300.00 mm²") for line in found)


def test_borders_that_do_not_match_exactly() -> None:
    # c2's left edge has a corner at (30, 15) that c1's right edge lacks: the two shapes
    # meet along the line but do not share the same points.
    rings = [box(0, 0, 30, 30), [[30, 0], [60, 0], [60, 30], [30, 30], [30.0, 15.0], [30, 0]], box(60, 0, 90, 30)]
    found = problems(map_doc(rings))
    # One line for the pair, naming both countries as drawn, how long the stretch is and where.
    assert found == [
        "1–2: the border is drawn with different corners on each side along 30.0 mm near (30.0, 15.0) mm; "
        "neighbours must share their border exactly"
    ]


def test_missing_orders_and_starts() -> None:
    doc = map_doc(GOOD)
    del doc["features"][0]["properties"]["order"]
    del doc["features"][2]["properties"]["start"]
    found = problems(doc)
    assert 'c1: has no "order" property (the drawing order, 1 = the circle)' in found
    assert 'no country has start "X" (O starts in country N-1, X in country N)' in found


def test_validate_layout_command(tmp_path) -> None:
    good, bad = tmp_path / "good.geojson", tmp_path / "bad.geojson"
    good.write_text(json.dumps(map_doc(GOOD)))
    bad.write_text(json.dumps(map_doc([box(0, 0, 30, 30), box(30, 0, 45, 30), box(45, 0, 75, 30)])))
    runner = CliRunner()
    # The command returns its exit code (coinprint.cli.main exits with it).
    ok = runner.invoke(cli, ["validate", "layout", str(good)], standalone_mode=False)
    assert ok.return_value == 0 and "valid mapgame layout with 3 spaces" in ok.output
    failed = runner.invoke(cli, ["validate", "layout", str(bad)], standalone_mode=False)
    assert failed.return_value == 1
    assert "c2: country 2 breaks the rule 'holds the coin'" in failed.output


@pytest.mark.parametrize(
    "params, words",
    [
        ({"coins": {"O": "penny", "X": "pebble"}}, "params.coins: unknown coin 'pebble'"),
        ({"coins": {"O": "penny"}}, "params.coins must name both coins"),
        ({"coins": 7}, "params.coins must name O's and X's coins"),
        ({"max_neighbours": "four"}, "params.max_neighbours must be a whole number"),
    ],
)
def test_bad_params_in_a_hand_made_map(params, words) -> None:
    found = problems(map_doc(GOOD, params))
    assert len(found) == 1 and words in found[0]


def test_a_generated_map_shrunk_too_small_names_each_country() -> None:
    from shapely import affinity

    doc = json.loads(mapgame.build(9, 4).dumps())
    for feature in doc["features"]:
        shape = affinity.scale(shapely.geometry.shape(feature["geometry"]), 0.5, 0.5, origin=(0, 0))
        feature["geometry"] = shapely.geometry.mapping(shape)
    found = problems(doc)
    named = {line.split(":")[0] for line in found if "'holds the coin'" in line}
    assert named == {f"c{k}" for k in range(1, 10)}
