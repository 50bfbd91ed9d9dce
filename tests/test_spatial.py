"""The segment index behind the layout checks: its candidate pairs hold every pair the exact
pairwise test finds (checked against shapely, pair by pair, on random shapes with the
touching corners, shared sides and T-junctions that trip indexes up), and a fan of wedges that
all meet at one point is checked as quickly as a grid."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.checks import listing
from coinprint.spatial import (
    border_mismatches,
    boundary_contact_pairs,
    contained_pairs,
    overlap_candidates,
    widest_circle,
)

ROOT = Path(__file__).resolve().parent.parent


def exact_shared(polygons: list) -> set[tuple[int, int]]:
    found = set()
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            if polygons[i].boundary.intersection(polygons[j].boundary).length > 0:
                found.add((i, j))
    return found


def exact_overlapping(polygons: list) -> set[tuple[int, int]]:
    found = set()
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            if polygons[i].intersection(polygons[j]).area > 0:
                found.add((i, j))
    return found


# Small whole-number coordinates: corners land on each other's sides, sides run along each
# other, shapes touch at single corners; on a 1/3 grid, shapes far out test the rounding too.
corner = st.tuples(st.integers(0, 6), st.integers(0, 6))


@st.composite
def shapes(draw: st.DrawFn) -> list:
    offset = draw(st.sampled_from([0.0, 1 / 3, 123456.7]))
    scale = draw(st.sampled_from([1.0, 1 / 3, 10.0]))
    found = []
    for _ in range(draw(st.integers(2, 7))):
        if draw(st.booleans()):
            (x0, y0), (x1, y1) = draw(corner), draw(corner)
            if x0 == x1 or y0 == y1:
                continue
            shape = shapely.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        else:
            shape = shapely.Polygon([draw(corner) for _ in range(3)])
            if shape.area == 0:
                continue
        found.append(
            shapely.affinity.translate(shapely.affinity.scale(shape, scale, scale, origin=(0, 0)), offset, offset)
        )
    return found


@settings(max_examples=300, deadline=None)
@given(polygons=shapes())
def test_contact_candidates_hold_every_pair_sharing_a_line(polygons):
    assert exact_shared(polygons) <= boundary_contact_pairs(polygons)


@settings(max_examples=300, deadline=None)
@given(polygons=shapes())
def test_overlap_candidates_hold_every_overlapping_pair(polygons):
    found = list(overlap_candidates(polygons))
    assert len(found) == len(set(found)) and all(i < j for i, j in found)
    assert exact_overlapping(polygons) <= set(found)
    inside = {
        (i, j)
        for i, a in enumerate(polygons)
        for j, b in enumerate(polygons)
        if i < j and (a.contains(b) or b.contains(a))
    }
    assert inside <= contained_pairs(polygons)


@st.composite
def cut_rectangles(draw: st.DrawFn) -> list:
    """A rectangle cut in two again and again: no overlaps, and T-junctions where a cut ends
    on a side that a neighbour's cut did not split."""
    pieces = [(0, 0, 16, 16)]
    for _ in range(draw(st.integers(1, 9))):
        index = draw(st.integers(0, len(pieces) - 1))
        x0, y0, x1, y1 = pieces.pop(index)
        if draw(st.booleans()) and x1 - x0 > 1:
            x = draw(st.integers(x0 + 1, x1 - 1))
            pieces += [(x0, y0, x, y1), (x, y0, x1, y1)]
        elif y1 - y0 > 1:
            y = draw(st.integers(y0 + 1, y1 - 1))
            pieces += [(x0, y0, x1, y), (x0, y, x1, y1)]
        else:
            pieces.append((x0, y0, x1, y1))
    polygons = [shapely.box(*p) for p in pieces]
    # Sometimes add the T-junction's corner to the long side, making the borders match.
    if draw(st.booleans()):
        polygons = [shapely.segmentize(p, 1.0) for p in polygons]
    return polygons


@settings(max_examples=200, deadline=None)
@given(polygons=cut_rectangles())
def test_border_mismatches_agree_with_shapely_coverage_validation(polygons):
    culprits, edges = border_mismatches(polygons)
    invalid = shapely.coverage_invalid_edges(polygons)
    assert bool(culprits) == (not shapely.coverage_is_valid(polygons))
    assert culprits == {i for i, e in enumerate(invalid) if not e.is_empty}
    assert edges.is_empty == (not culprits)


def test_widest_circle_is_a_lower_bound_and_exact_where_the_coin_may_not_fit():
    rng = random.Random(3)
    for _ in range(40):
        points = [(rng.uniform(0, 80), rng.uniform(0, 50)) for _ in range(8)]
        polygon = shapely.convex_hull(shapely.MultiPoint(points))
        exact = float(shapely.maximum_inscribed_circle(polygon, 0.01).length)
        for need in (1.0, exact - 0.5, exact + 0.5):
            found = widest_circle(polygon, need)
            centre = shapely.get_point(found, 0)
            assert polygon.contains(centre) or polygon.boundary.distance(centre) < 1e-9
            assert float(found.length) <= exact + 0.011  # a real circle inside
            assert float(found.length) >= min(need, exact - 0.011)  # wide enough, or the exact one


def fan_layout(count: int, game: str) -> dict:
    features = []
    for k in range(count):
        a = 2 * math.pi * k / count
        b = 2 * math.pi * (k + 1) / count
        ring = [
            [0.0, 0.0],
            [20000 * math.cos(a), 20000 * math.sin(a)],
            [20000 * math.cos(b), 20000 * math.sin(b)],
            [0.0, 0.0],
        ]
        properties = {"role": "space", "label": str(k + 1), "order": k + 1, "region": "r"}
        if k >= count - 2:
            properties["start"] = "OX"[k - count + 2]
        features.append(
            {
                "type": "Feature",
                "id": f"w{k + 1}",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": properties,
            }
        )
    return {"type": "FeatureCollection", "coinprint": {"format": 1, "game": game, "units": "mm"}, "features": features}


@pytest.mark.parametrize("game,count", [("mapgame", 401), ("coinage", 1999)])
def test_a_fan_of_wedges_at_the_feature_cap_is_checked_in_bounded_time(tmp_path, game, count):
    # The Map's own cap is 401 countries (a larger map is invalid before any geometry is
    # looked at); other layouts go to the 2,000-feature cap.
    path = tmp_path / "fan.geojson"
    path.write_text(json.dumps(fan_layout(count, game)))
    # A bound on the wait, not a speed figure (bench/validate_caps.py measures): this took
    # minutes while every pair of wedges was intersected.
    done = subprocess.run(
        [sys.executable, "-m", "coinprint", "validate", "layout", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    if game == "mapgame":  # every wedge borders the one drawn before it: a valid map
        assert done.returncode == 0, done.stdout + done.stderr
        assert "401 countries, 401 borders" in done.stdout
    else:  # far more than 20 spaces, but every wedge was found to border two others
        assert done.returncode == 1 and "a Coin Age map has 6 to 20" in done.stdout
        assert "borders no other space" not in done.stdout


def test_the_layout_graph_matches_pairwise_intersection_on_a_small_fan():
    from coinprint.layout import from_geojson

    layout = from_geojson(fan_layout(40, "mapgame"))
    polygons = [s.polygon for s in layout.spaces]
    expected = {(layout.spaces[i].id, layout.spaces[j].id) for i, j in exact_shared(polygons)}
    assert {tuple(sorted(e)) for e in layout.graph.edges} == {tuple(sorted(e)) for e in expected}
    assert len(expected) == 40


def replay_against_the_whole_outline(layout) -> list[tuple[str | None, str]]:
    """The Map replay as coinprint 0.1 wrote it: every step against the union of every country
    drawn before it, every earlier country tested for a border. Slow (each step costs the
    whole map) but plain: the reference the indexed replay must agree with, problem for problem."""
    from coinprint.games.mapgame.check import RULE_HOLE, RULE_NEIGHBOURS, RULE_ONE_ARC, _neighbour_limit
    from coinprint.layout import MIN_BORDER_MM

    limit = _neighbour_limit(layout)
    ordered = sorted(layout.spaces, key=lambda s: s.order or 0)
    found = []
    drawn = [ordered[0]]
    outline = ordered[0].polygon
    for space in ordered[1:]:
        polygon = space.polygon
        boundary = polygon.exterior
        shared = boundary.intersection(outline.exterior)
        new_line = shapely.line_merge(boundary.difference(outline.exterior))
        pieces = list(getattr(new_line, "geoms", [new_line])) if not new_line.is_empty else []
        name = f"country {space.name}"
        if shared.length <= MIN_BORDER_MM:
            found.append(
                (space.id, f"{name} breaks the rule '{RULE_ONE_ARC}': it does not border the map drawn before it")
            )
        elif len(pieces) != 1:
            found.append(
                (
                    space.id,
                    f"{name} breaks the rule '{RULE_ONE_ARC}': it is drawn with {len(pieces)} separate new lines, not one arc",
                )
            )
        else:
            arc = pieces[0]
            ends = [shapely.Point(arc.coords[0]), shapely.Point(arc.coords[-1])]
            if arc.is_ring or any(outline.exterior.distance(p) > 1e-6 for p in ends):
                found.append(
                    (
                        space.id,
                        f"{name} breaks the rule '{RULE_ONE_ARC}': its new line does not end on the map's outline at both ends",
                    )
                )
            elif polygon.intersection(outline).area > 0.01:
                found.append(
                    (space.id, f"{name} breaks the rule '{RULE_ONE_ARC}': it lies over countries drawn before it")
                )
        near = [d for d in drawn if boundary.intersection(d.polygon.exterior).length > MIN_BORDER_MM]
        if len(near) > limit:
            names = listing([d.name for d in near])  # the message's way of listing, not under test
            rule = RULE_NEIGHBOURS.format(max=limit)
            found.append(
                (space.id, f"{name} breaks the rule '{rule}': when drawn it bordered {len(near)} countries ({names})")
            )
        drawn.append(space)
        merged = shapely.union_all([outline, polygon])
        if merged.geom_type == "Polygon" and merged.interiors:
            found.append((space.id, f"{name} breaks the rule '{RULE_HOLE}': drawing it closed off a hole in the map"))
            merged = shapely.Polygon(merged.exterior)
        if merged.geom_type != "Polygon":
            merged = shapely.union_all([merged.convex_hull])
        outline = merged
    return found


@st.composite
def redrawn_maps(draw: st.DrawFn) -> dict:
    """A generated map whose drawing order is shuffled in part and some of whose countries are
    taken away: holes, pieces, countries drawn with several new lines or bordering too many."""
    from coinprint.analysis import builtin_layout

    countries = draw(st.sampled_from([7, 11, 15]))
    growth = draw(st.sampled_from(["packed", "sprawling"]))
    doc = json.loads(
        builtin_layout(f"mapgame:countries={countries},seed={draw(st.integers(0, 20))},growth={growth}").dumps()
    )
    spaces = [f for f in doc["features"] if f["properties"].get("role") == "space"]
    orders = list(range(1, len(spaces) + 1))
    if draw(st.booleans()):
        i, j = draw(st.integers(1, len(orders) - 1)), draw(st.integers(1, len(orders) - 1))
        orders[i], orders[j] = orders[j], orders[i]
    for feature, order in zip(spaces, orders):
        feature["properties"]["order"] = order
    gone = draw(st.sets(st.integers(2, len(spaces)), max_size=3))
    kept = [f for f in spaces if f["properties"]["order"] not in gone]
    kept.sort(key=lambda f: f["properties"]["order"])
    for number, feature in enumerate(kept, start=1):
        feature["properties"]["order"] = number
    doc["features"] = kept + [f for f in doc["features"] if f["properties"].get("role") != "space"]
    return doc


@settings(max_examples=60, deadline=None)
@given(doc=redrawn_maps())
def test_the_map_replay_agrees_with_the_replay_against_the_whole_outline(doc):
    from coinprint.games.mapgame.check import _replay_problems
    from coinprint.layout import from_geojson

    layout = from_geojson(doc)
    found = [(p.feature, p.message) for p in _replay_problems(layout)]
    assert found == replay_against_the_whole_outline(layout)
