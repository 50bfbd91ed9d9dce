"""The Coin Table board: cell counts, names, adjacency, and hexes measured on the printed page."""

import json
import math
from collections import Counter

import pytest

from coinprint.errors import UsageError
from coinprint.games.cointable import board as cointable
from coinprint.games.cointable.board import build, cell_count, check
from coinprint.layout import loads
from coinprint.registry import GAMES
from tests.conftest import hexagon_flat_to_flat, pdf_polygons, read_svg


@pytest.mark.parametrize("side", range(2, 9))
def test_cell_counts_and_degrees(side):
    layout = build(side)
    assert len(layout) == 3 * side * (side - 1) + 1 == cell_count(side)
    degrees = Counter(d for _, d in layout.graph.degree())
    # Corners have 3 neighbours, other edge cells 4, inner cells 6 (counted by hand on paper).
    assert (
        degrees == {3: 6, 4: 6 * (side - 2), 6: cell_count(side - 1) if side > 2 else 1}
        if side > 2
        else degrees == {3: 6, 6: 1}
    )
    # The derived graph equals the lattice rule, cell by cell.
    for c, k in cointable.cells(side):
        expected = {cointable.cell_name(*n) for n in cointable.neighbours(c, k, side)}
        assert set(layout.neighbours(cointable.cell_name(c, k))) == expected


def test_standard_board_names_like_havannah():
    layout = build()
    names = [s.name for s in layout.spaces]
    assert names[:5] == ["a1", "b1", "c1", "d1", "e1"]
    assert names[-5:] == ["e9", "f9", "g9", "h9", "i9"]
    assert set(layout.neighbours("e5")) == {"d5", "f5", "e4", "e6", "d4", "f6"}
    # d4 e4 e5 is a triangle: a castle site in the notation example.
    assert layout.adjacent("d4", "e4") and layout.adjacent("e4", "e5") and layout.adjacent("d4", "e5")
    # The centre sits at the middle of the board; a1 is at the bottom left.
    centre = layout.space("e5").centroid
    a1 = layout.space("a1").centroid
    assert centre == pytest.approx((0.0, 0.0), abs=1e-6)
    assert a1[0] < 0 and a1[1] < 0


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize(
    "hex_text, measure, flat_mm", [("1.25in", "flat-to-flat", 31.75), ("40mm", "corner-to-corner", 20 * math.sqrt(3))]
)
def test_layout_hexes_have_the_requested_size(orientation, hex_text, measure, flat_mm):
    layout = build(5, hex_text, measure, orientation, guide_coin=None)
    for space in layout.spaces:
        assert hexagon_flat_to_flat(list(space.polygon.exterior.coords)) == pytest.approx(flat_mm, abs=0.001)
    # Neighbours' centres are exactly one flat-to-flat apart.
    a, b = layout.space("e5").centroid, layout.space("e6").centroid
    assert math.dist(a, b) == pytest.approx(flat_mm, abs=0.001)


def test_standard_board_is_about_286_by_257_mm():
    minx, miny, maxx, maxy = build().bounds
    assert maxx - minx == pytest.approx(9 * 31.75, abs=0.01)
    assert maxy - miny == pytest.approx(14 * 31.75 / math.sqrt(3), abs=0.01)


def test_pdf_hexes_measure_what_the_label_says(tmp_path, cli):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", "a4", "-o", str(out)).code == 0
    pages = pdf_polygons(out)
    assert len(pages) == 2
    hexes = [shape for page in pages for shape in page if len(shape) == 7]
    assert len(hexes) >= 61
    for shape in hexes:
        assert hexagon_flat_to_flat(shape) == pytest.approx(31.75, abs=0.01)


@pytest.mark.parametrize("hex_text, expected", [("1in", 25.4), ("35mm", 35.0)])
def test_pdf_measures_other_sizes(tmp_path, cli, hex_text, expected):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--size", "3", "--hex", hex_text, "--coin", "dime", "-o", str(out)).code == 0
    hexes = [s for page in pdf_polygons(out) for s in page if len(s) == 7]
    assert hexes and all(hexagon_flat_to_flat(s) == pytest.approx(expected, abs=0.01) for s in hexes)


def test_svg_is_true_size_and_hexes_measure_right(tmp_path, cli):
    out = tmp_path / "board.svg"
    assert cli("board", "cointable", "-o", str(out)).code == 0
    svg = read_svg(out)
    # One user unit is one millimetre.
    assert svg.viewbox[2] == pytest.approx(svg.width_mm) and svg.viewbox[3] == pytest.approx(svg.height_mm)
    shapes = svg.defs_paths()
    uses = svg.uses()
    hex_uses = [u for u in uses if len(set(shapes[u[0]])) == 6]
    assert len(hex_uses) == 61  # one shape in <defs>, placed 61 times
    (shape_id,) = {u[0] for u in hex_uses}
    assert hexagon_flat_to_flat(shapes[shape_id][:-1]) == pytest.approx(31.75, abs=0.01)
    # Placements are one flat-to-flat apart along a row.
    xs = sorted({round(u[1], 3) for u in hex_uses})
    assert min(b - a for a, b in zip(xs, xs[1:])) == pytest.approx(31.75 / 2, abs=0.01)


def test_geojson_output_validates(tmp_path, cli):
    out = tmp_path / "board.geojson"
    assert cli("board", "cointable", "--size", "4", "-o", str(out)).code == 0
    result = cli("validate", "layout", str(out))
    assert result.code == 0 and "valid cointable layout with 37 spaces" in result.out


def _doc(layout) -> dict:
    return json.loads(layout.dumps())


def _write(tmp_path, doc) -> str:
    path = tmp_path / "custom.geojson"
    path.write_text(json.dumps(doc))
    return str(path)


def test_check_accepts_every_built_board():
    for side in (2, 5, 8):
        for orientation in ("pointy", "flat"):
            assert check(build(side, "20mm", orientation=orientation, guide_coin=None)) == []


def test_check_reports_a_missing_cell(tmp_path, cli):
    doc = _doc(build(3))
    del doc["features"][4]
    result = cli("validate", "layout", _write(tmp_path, doc))
    assert result.code == 1
    assert "18 cells cannot form a true hexagon" in result.out


def test_check_reports_a_stretched_cell_by_id(tmp_path):
    doc = _doc(build(3))
    ring = doc["features"][2]["geometry"]["coordinates"][0]
    centre = [sum(p[i] for p in ring[:-1]) / 6 for i in (0, 1)]
    ring[1] = [
        ring[1][0] + (centre[0] - ring[1][0]) * 0.1,
        ring[1][1] + (centre[1] - ring[1][1]) * 0.1,
    ]  # pull a corner in
    problems = check(loads(json.dumps(doc)))
    assert problems and problems[0].feature == doc["features"][2]["id"]
    assert "regular hexagon" in problems[0].message


def test_check_reports_mixed_sizes_and_duplicates_and_overlaps(tmp_path):
    small = _doc(build(3, "30mm"))
    big = _doc(build(3, "31mm"))
    mixed = dict(small, features=small["features"][:-1] + big["features"][-1:])
    problems = check(loads(json.dumps(mixed)))
    assert any("flat-to-flat" in p.message or "grid" in p.message or "overlaps" in p.message for p in problems)
    duplicate = dict(small, features=small["features"] + small["features"][:1])
    problems = check(loads(json.dumps(duplicate)))
    assert any("used by 2 features" in p.message for p in problems)
    assert any("contains" in p.message or "overlaps" in p.message for p in problems)


def test_check_reports_cells_off_the_grid(tmp_path):
    doc = _doc(build(3, "30mm"))
    for point in doc["features"][0]["geometry"]["coordinates"][0]:
        point[0] -= 4.0  # slide a corner cell away: a gap opens, it leaves the lattice
    problems = check(loads(json.dumps(doc)))
    assert problems and problems[0].feature == doc["features"][0]["id"]


def test_check_reports_a_hexagon_of_the_wrong_shape(tmp_path):
    # 7 cells in a row are 7 hexes, a count that is 3n(n-1)+1 for n=2, but not a hexagon.
    doc = _doc(build(4, "30mm"))
    row = [f for f in doc["features"] if f["id"].endswith("4")][:7]
    problems = check(loads(json.dumps(dict(doc, features=row))))
    assert [str(p) for p in problems] == ["the 7 cells do not form a true hexagon of side 2"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"side": 1}, "out of range"),
        ({"side": 14}, "out of range"),
        ({"hex_size": "2mm"}, "out of range"),
        ({"hex_size": "0.7in", "guide_coin": "quarter"}, "does not fit"),
        ({"orientation": "sideways"}, "unknown orientation"),
        ({"measure": "diagonal"}, "unknown hex measure"),
    ],
)
def test_bad_board_parameters(kwargs, message):
    with pytest.raises(UsageError, match=message):
        build(**kwargs)


def test_layout_name_parameters():
    layout = GAMES["cointable"].layout_from_spec({"size": "3", "hex": "1in", "orientation": "flat"})
    assert len(layout) == 19 and layout.params["orientation"] == "flat"
    with pytest.raises(
        UsageError, match="unknown cointable layout parameter 'colour'; use coin, hex, measure, orientation, size"
    ):
        GAMES["cointable"].layout_from_spec({"colour": "red"})
