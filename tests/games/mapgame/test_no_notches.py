"""The Map's countries have no notches: no narrow spike or inlet in a country's outline away
from its corners. Wrapping arcs used to fold back on themselves round a tight bend of the
outline (without crossing, so the loop cutter missed them); ``arcs=forward`` drops the
points that run back. A spec or record without ``arcs=`` still means the folded arcs, so old
records replay on the very map they were played on."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.games.mapgame import board as mapgame

NECK_MM = 1.5
"""A part of a country narrower than this (or a gap into it) is a spike (or an inlet)."""
LEAST_AREA_MM2 = 0.5
"""Smaller than this it does not show in print."""


def _corners(layout):
    """Each country's corners: where its border changes neighbour or meets the map's edge."""
    import shapely

    def ring(space):
        return [tuple(round(v, 3) for v in p) for p in space.polygon.exterior.coords]

    owners: dict[frozenset, set[str]] = {}
    for space in layout.spaces:
        points = ring(space)
        for a, b in zip(points, points[1:]):
            owners.setdefault(frozenset((a, b)), set()).add(space.id)
    corners = {}
    for space in layout.spaces:
        points = ring(space)
        labels = [frozenset(owners[frozenset((a, b))] - {space.id}) for a, b in zip(points, points[1:])]
        corners[space.id] = shapely.MultiPoint([points[k] for k in range(len(labels)) if labels[k] != labels[k - 1]])
    return corners


def notches(layout) -> list[tuple[str, str, float]]:
    """(country, ``spike`` or ``inlet``, area mm²) for every part of a country narrower than
    NECK_MM, or gap into it, that lies more than NECK_MM from the country's corners (an
    acute corner where three countries meet is a corner, not a notch)."""
    r = NECK_MM / 2
    corners = _corners(layout)
    found = []
    for space in layout.spaces:
        shape = space.polygon
        closed = shape.buffer(r, join_style="mitre").buffer(-r, join_style="mitre")
        opened = shape.buffer(-r, join_style="mitre").buffer(r, join_style="mitre")
        for kind, rest in (("inlet", closed.difference(shape)), ("spike", shape.difference(opened))):
            for part in getattr(rest, "geoms", [rest]):
                if part.area > LEAST_AREA_MM2 and part.distance(corners[space.id]) > NECK_MM:
                    found.append((space.name, kind, round(part.area, 2)))
    return found


def test_the_measure_finds_the_folds_of_the_old_arcs():
    # Seed 26's country 4 had a fold (an inlet), and country 13 the spike filling it.
    folded = notches(mapgame.build(21, 26, arcs="folded"))
    assert ("4", "inlet", 2.31) in folded and ("13", "spike", 2.31) in folded
    assert not notches(mapgame.build(21, 26))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), countries=st.sampled_from([9, 21, 31]))
def test_maps_have_no_notches(seed, countries):
    assert notches(mapgame.build(countries, seed)) == []


@pytest.mark.slow
def test_forty_maps_have_no_notches_where_the_folded_arcs_had_many():
    folded = sum(len(notches(mapgame.build(21, seed, arcs="folded"))) for seed in range(40))
    forward = sum(len(notches(mapgame.build(21, seed))) for seed in range(40))
    assert folded >= 10 and forward == 0, (folded, forward)


def test_a_spec_without_arcs_keeps_the_old_map():
    from coinprint.analysis import builtin_layout

    old = builtin_layout("mapgame:countries=21,seed=26,growth=packed,starts=apart")
    assert old.dumps() == mapgame.build(21, 26, arcs="folded").dumps()
    new = mapgame.build(21, 26)
    assert mapgame.layout_name(new).endswith(",arcs=forward")
    assert builtin_layout(mapgame.layout_name(new)).dumps() == new.dumps()


def test_bad_arcs_are_refused():
    from coinprint.errors import UsageError

    with pytest.raises(UsageError, match="arcs 'sideways' is not allowed; use forward or folded"):
        mapgame.build(21, 0, arcs="sideways")
