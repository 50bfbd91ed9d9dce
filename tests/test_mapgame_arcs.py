"""Arcs drawn on the Map: each judged when drawn, the map they grow checked by the hand-made
map checker (independent code), hostile arcs refused in one line."""

from __future__ import annotations

import math
import random

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.caps import MAX_ARC_POINTS
from coinprint.games.mapgame.arcs import END_TOLERANCE_MM, DrawnMap, propose_arc
from coinprint.games.mapgame.board import circle_radius_mm
from coinprint.games.mapgame.check import check

RADIUS = circle_radius_mm()


def bump(a0: float, a1: float, out: float, n: int = 20, radius: float = RADIUS) -> list[list[float]]:
    """An arc from angle a0 to a1 on the circle, ``out`` mm beyond it at its middle."""
    points = []
    for k in range(n + 1):
        t = k / n
        angle = a0 + (a1 - a0) * t
        r = radius + out * math.sin(math.pi * t)
        points.append([r * math.cos(angle), r * math.sin(angle)])
    return points


def test_a_bump_on_the_circle_makes_country_2_holding_the_coin() -> None:
    drawn = DrawnMap()
    judged = drawn.draw(bump(0.0, 1.6, 26.0))
    assert judged.accepted, judged.refusal
    assert judged.neighbours == (1,)
    country = shapely.Polygon(judged.country)
    assert country.is_valid
    # The country lies outside the circle and shares a border with it.
    circle = shapely.Polygon(drawn.steps[0].ring)
    assert country.intersection(circle).area < 1e-4  # coordinates are kept to 0.1 µm
    assert country.intersection(circle.exterior).length > 10.0
    assert judged.coin_mm >= drawn.need_mm


def test_a_small_country_is_refused_with_its_size_and_the_coin_it_needs() -> None:
    judged = DrawnMap().judge(bump(0.0, 0.5, 3.0))
    assert judged.rule == "coin"
    assert "mm across where 21.2 mm is needed" in (judged.refusal or "")
    assert judged.country  # the preview still shades the would-be country


def test_an_arc_through_the_map_is_refused() -> None:
    drawn = DrawnMap()
    judged = drawn.judge([[RADIUS, 0.0], [-RADIUS, 0.0]])
    assert judged.rule == "crossing"


def test_an_end_off_the_outline_names_the_distance_and_the_tolerance() -> None:
    far = bump(0.0, 1.6, 26.0)
    far[0] = [RADIUS + 5.0, 0.0]
    judged = DrawnMap().judge(far)
    assert judged.rule == "ends"
    assert "5.0 mm" in (judged.refusal or "") and f"{END_TOLERANCE_MM} mm" in (judged.refusal or "")


def test_the_neighbour_limit_names_the_countries() -> None:
    drawn = DrawnMap(max_neighbours=1)
    assert drawn.draw(bump(0.0, 1.8, 26.0)).accepted
    # From the circle round the far side of country 2 back to the circle: it borders 1 and 2.
    judged = drawn.judge(bump(2.9, -1.1, 55.0, n=80))
    assert judged.rule == "neighbours"
    assert judged.neighbours == (1, 2)
    assert judged.refusal == "it borders 2: 1, 2; at most 1 are allowed when drawn"
    # The same arc under a limit of 2 is accepted.
    roomier = DrawnMap(max_neighbours=2)
    assert roomier.draw(bump(0.0, 1.8, 26.0)).accepted
    assert roomier.draw(bump(2.9, -1.1, 55.0, n=80)).accepted


@pytest.mark.parametrize(
    "points, rule",
    [
        ([[0.0, 0.0]], "arc"),
        ([[0.0, 0.0]] * (MAX_ARC_POINTS + 1), "arc"),
        ([[float("nan"), 0.0], [1.0, 1.0]], "arc"),
        ([[RADIUS, 0.0], [5000.0, 0.0]], "arc"),
        ("move 7", "arc"),
        ([[RADIUS, 0.0], [40.0, 40.0], [40.0, -40.0], [-40.0, 40.0], [-RADIUS, 0.0]], "crossing"),
        ([[RADIUS, 0.0], [70.0, 0.0], [0.0, 70.0], [-70.0, 0.0], [0.0, -70.0], [70.0, -0.5], [RADIUS, 0.0]], "ends"),
    ],
)
def test_hostile_arcs_are_refused_in_one_line(points: object, rule: str) -> None:
    judged = DrawnMap().judge(points)
    assert judged.rule == rule
    assert judged.refusal and "\n" not in judged.refusal


@pytest.mark.parametrize("seed", range(3))
def test_the_generators_arcs_are_accepted_and_the_drawn_map_passes_the_checker(seed: int) -> None:
    rng = random.Random(seed)
    drawn = DrawnMap()
    while len(drawn) < 21:
        arc = propose_arc(drawn, rng)
        assert arc is not None
        judged = drawn.draw(arc)
        assert judged.accepted, judged.refusal
    layout = drawn.layout()
    assert len(layout.spaces) == 21
    assert check(layout) == []
    assert [s.start for s in layout.spaces][-2:] == ["O", "X"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-80, 80), st.floats(-80, 80)), min_size=2, max_size=12))
def test_any_arc_is_judged_without_error_and_an_accepted_one_keeps_the_map_valid(
    points: list[tuple[float, float]],
) -> None:
    drawn = DrawnMap()
    judged = drawn.draw([list(p) for p in points])
    assert (judged.refusal is None) == (judged.rule == "ok")
    if judged.accepted:
        land = shapely.union_all([shapely.Polygon(s.ring) for s in drawn.steps])
        assert land.geom_type == "Polygon" and len(land.interiors) == 0
