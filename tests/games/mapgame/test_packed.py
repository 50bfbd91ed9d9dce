"""Packed growth, judged by the layout's own adjacency graph and the independent checker, and
the wrap step's refusals checked with shapely on hand-made outlines."""

from __future__ import annotations

import json
import random
import statistics

import numpy as np
import pytest
import shapely
from click.testing import CliRunner

from coinprint.cli import cli
from coinprint.games.mapgame import board as mapgame
from coinprint.games.mapgame import grow, packed
from coinprint.games.mapgame.check import check as check_map
from coinprint.registry import GAMES

BORDER_MM = 0.1


def earlier_neighbours(layout) -> dict[int, int]:
    """For each country (by drawing order), how many earlier countries it borders, from the
    layout's adjacency graph (shared border longer than 0.1 mm)."""
    graph = layout.graph
    order = {space.id: space.order for space in layout.spaces}
    return {order[node]: sum(1 for other in graph[node] if order[other] < order[node]) for node in graph}


def measures(layout) -> dict[str, float]:
    graph = layout.graph
    earlier = earlier_neighbours(layout)
    land = shapely.union_all([space.polygon for space in layout.spaces])
    return {
        "mean_earlier": statistics.mean(count for order, count in earlier.items() if order >= 3),
        "borders": graph.number_of_edges(),
        "dead_ends": sum(1 for node in graph if graph.degree(node) == 1),
        "tree": graph.number_of_edges() == len(layout.spaces) - 1,
        "has_four": 4 in earlier.values(),
        "solidity": land.area / land.convex_hull.area,
    }


def test_packed_maps_are_dense_and_valid() -> None:
    rows = []
    for seed in range(5):
        layout = mapgame.build(21, seed)
        assert check_map(layout) == [], f"seed {seed}"
        rows.append(measures(layout))
    assert not any(row["tree"] for row in rows)
    assert statistics.mean(row["borders"] for row in rows) >= 40
    assert statistics.mean(row["mean_earlier"] for row in rows) >= 2.3
    assert statistics.mean(row["solidity"] for row in rows) >= 0.88


@pytest.mark.slow
def test_packed_density_targets_over_300_seeds() -> None:
    rows = []
    for seed in range(300):
        layout = mapgame.build(21, seed)
        problems = check_map(layout)
        assert problems == [], f"seed {seed}: {problems[0]}"
        assert max(earlier_neighbours(layout).values()) <= 4
        rows.append(measures(layout))
    assert statistics.mean(row["mean_earlier"] for row in rows) >= 2.3
    assert statistics.mean(row["borders"] for row in rows) >= 40
    assert statistics.mean(row["dead_ends"] for row in rows) <= 1
    assert not any(row["tree"] for row in rows)
    assert sum(row["has_four"] for row in rows) >= 0.9 * len(rows)
    assert statistics.mean(row["solidity"] for row in rows) >= 0.88
    for seed in (0, 150, 299):
        assert mapgame.build(21, seed).dumps() == mapgame.build(21, seed).dumps()


def test_the_limit_binds_for_other_limits() -> None:
    for limit in (2, 3):
        layout = mapgame.build(21, 7, max_neighbours=limit)
        assert check_map(layout) == []
        assert max(earlier_neighbours(layout).values()) == limit


def test_sprawling_growth_is_the_old_map() -> None:
    layout = mapgame.build(21, 0, growth="sprawling")
    assert measures(layout)["tree"], "0.1.0's seed 0 map is a tree"
    assert check_map(layout) == []


# -- the wrap step on hand-made outlines -------------------------------------------------------------
def densified(corners: list[tuple[float, float]], spacing: float = 2.0) -> list[tuple[float, float]]:
    points = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        steps = max(1, int(np.hypot(x1 - x0, y1 - y0) / spacing))
        points += [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps)]
    return points


def nearest(points: np.ndarray, target: tuple[float, float]) -> int:
    return int(np.argmin(np.hypot(points[:, 0] - target[0], points[:, 1] - target[1])))


def stretch(outline, start: tuple[float, float], end: tuple[float, float]):
    first = nearest(outline.points, start) + outline.count
    last = nearest(outline.points, end) + outline.count
    if last <= first:
        last += outline.count
    return packed._Stretch(first, last, frozenset(), 0.0)


def wrap(outline, candidates, max_neighbours: int = 4):
    stats = grow.GrowthStats()
    need = mapgame.MapParams().coin_radius_mm + mapgame.COIN_MARGIN_MM
    grown = packed._wrap_first(outline, 99, candidates, max_neighbours, need, (1.0, 1.0), random.Random(1), stats)
    return grown, stats


def test_a_stretch_with_a_fifth_border_is_refused_and_another_found() -> None:
    # A disc of six countries, each a sector; the outline's owners are the sectors.
    count = 96
    angles = 2 * np.pi * np.arange(count) / count
    points = np.round(np.stack((60 * np.cos(angles), 60 * np.sin(angles)), axis=1), 4)
    owners = [k * 6 // count for k in range(count)]
    sectors = [
        shapely.Polygon(
            [(0.0, 0.0), *points[k * 16 : k * 16 + 17].tolist()]
            if k < 5
            else [(0.0, 0.0), *points[80:].tolist(), points[0].tolist()]
        )
        for k in range(6)
    ]
    outline = grow.Outline(points, owners, (1.0, 1.0))
    five = stretch(outline, tuple(points[8]), tuple(points[72]))  # sectors 0, 1, 2, 3, 4
    three = stretch(outline, tuple(points[8]), tuple(points[40]))  # sectors 0, 1, 2
    grown, stats = wrap(outline, [five, three])
    assert grown is not None and stats.rejections.get("neighbours") == 1
    country = shapely.Polygon(grown.ring)
    bordered = [
        k for k, sector in enumerate(sectors) if country.exterior.intersection(sector.exterior).length > BORDER_MM
    ]
    assert bordered == [0, 1, 2]
    assert grown.neighbours == frozenset(bordered)
    # With a limit of five the first stretch is taken.
    grown, _ = wrap(outline, [five, three], max_neighbours=5)
    assert grown is not None and len(grown.neighbours) == 5


def test_an_arc_that_would_close_a_hole_is_refused_and_another_found() -> None:
    # A block with a bay 15 mm wide: a band wrapped along the bay's wall would cross the bay
    # and shut part of it off from the outside.
    corners = [
        (0.0, 0.0),
        (120.0, 0.0),
        (120.0, 70.0),
        (70.0, 70.0),
        (70.0, 20.0),
        (55.0, 20.0),
        (55.0, 70.0),
        (0.0, 70.0),
    ]
    points = np.round(np.asarray(densified(corners)), 4)
    outline = grow.Outline(points, [0] * len(points), (1.0, 1.0))
    land = shapely.Polygon(points)
    across = stretch(outline, (70.0, 66.0), (70.0, 24.0))  # down the bay's right wall
    below = stretch(outline, (15.0, 0.0), (105.0, 0.0))  # along the bottom
    arc, _ = packed._wrap_arc(outline, across.first, across.end, 25.0, random.Random(1))
    assert shapely.LineString(arc[1:-1]).intersects(land), "the refused arc really crosses the map"
    grown, stats = wrap(outline, [across, below], max_neighbours=1)
    assert grown is not None and stats.rejections.get("touches map", 0) + stats.rejections.get("self-crossing", 0) >= 1
    country = shapely.Polygon(grown.ring)
    assert country.is_valid and country.intersection(land).area < 0.01
    merged = shapely.union_all([land, country])
    assert merged.geom_type == "Polygon" and not merged.interiors
    assert country.centroid.y < 0, "the country lies below the block, along the bottom"


# -- layout specs and records written before packed growth ----------------------------------------------
RECORD_0_1_0 = {
    "format": "coinprint-record/1",
    "game": "mapgame",
    "layout": "mapgame:countries=21,seed=0",
    "options": {},
    "players": {"O": "Ada", "X": "Bo"},
    "seed": 0,
    "moves": [
        "move 16",
        "move 8",
        "move 8 send 13",
        "move 12",
        "move 7",
        "move 10",
        "move 3",
        "move 1",
        "move 1 send 15",
    ],
}
"""A record as coinprint 0.1.0 wrote it: its layout spec names no growth (0.1.0 had only the
sprawling map). On the sprawling seed-0 map O starts in 20 (next to 16), X in 21 (next to 8)."""


def test_a_record_written_by_0_1_0_still_validates(tmp_path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(RECORD_0_1_0, indent=2))
    result = CliRunner().invoke(cli, ["validate", "game", str(path)], standalone_mode=False)
    assert result.exception is None and result.return_value == 0, result.output
    assert "valid: 9 moves" in result.output
    # The spec it names is still the sprawling map (a tree), not the packed one.
    from coinprint.analysis import builtin_layout

    assert measures(builtin_layout(RECORD_0_1_0["layout"]))["tree"]


def test_records_written_now_name_the_growth(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["play", "mapgame", "--games", "1", "-o", str(tmp_path)], standalone_mode=False)
    assert result.exception is None, result.output
    (record,) = tmp_path.glob("*.json")
    assert (
        json.loads(record.read_text())["layout"]
        == "mapgame:countries=21,seed=0,growth=packed,starts=apart,arcs=forward"
    )
    again = CliRunner().invoke(cli, ["validate", "game", str(record)], standalone_mode=False)
    assert again.return_value == 0, again.output


def test_layout_names_always_say_the_growth() -> None:
    for growth in mapgame.GROWTHS:
        layout = mapgame.build(9, 2, growth=growth)
        assert mapgame.layout_name(layout).endswith(f",growth={growth},starts=apart,arcs=forward")
    old = json.loads(mapgame.build(9, 2, growth="sprawling", starts="any").dumps())
    del old["coinprint"]["params"]["growth"]  # a file written by 0.1.0
    del old["coinprint"]["params"]["starts"]
    del old["coinprint"]["params"]["arcs"]
    from coinprint.layout import from_geojson

    assert mapgame.layout_name(from_geojson(old)).endswith(",growth=sprawling,starts=any,arcs=folded")


# -- the summary line -----------------------------------------------------------------------------------
def test_board_and_validate_print_the_summary_line(tmp_path) -> None:
    out = tmp_path / "map.geojson"
    board = CliRunner().invoke(cli, ["board", "mapgame", "--seed", "4", "-o", str(out)], standalone_mode=False)
    assert board.exception is None, board.output
    layout = mapgame.build(21, 4)
    m = measures(layout)
    line = (
        f"21 countries, {m['borders']} borders, {m['dead_ends']} dead ends, "
        f"max earlier neighbours {max(earlier_neighbours(layout).values())}, solidity {m['solidity']:.2f}"
    )
    assert f"seed 4: {line}" in board.output
    checked = CliRunner().invoke(cli, ["validate", "layout", str(out)], standalone_mode=False)
    assert checked.return_value == 0 and f"{out}: {line}" in checked.output
    sprawling = CliRunner().invoke(
        cli,
        ["board", "mapgame", "--growth", "sprawling", "--seed", "0", "-o", str(tmp_path / "s.geojson")],
        standalone_mode=False,
    )
    assert "seed 0: 21 countries, 20 borders" in sprawling.output
    assert json.loads((tmp_path / "s.geojson").read_text())["coinprint"]["params"]["growth"] == "sprawling"


def test_a_bad_growth_in_a_layout_spec_is_a_usage_error() -> None:
    from coinprint.errors import UsageError

    with pytest.raises(UsageError, match="mapgame growth 'dense' is not one of: packed, sprawling"):
        GAMES["mapgame"].layout_from_spec({"growth": "dense"})
