"""Reading boards people draw (SVG from Inkscape, GeoJSON from QGIS and GDAL), checking
them with a tolerance, drawing the verdict, printing them and playing on them."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import shapely

from coinprint.errors import InvalidInputError
from coinprint.games.coinage import board as coinage
from coinprint.games.cointable import board as cointable
from coinprint.games.mapgame import board as mapgame
from coinprint.registry import GAMES
from coinprint.source import read_layout_data as parse_layout
from tests.conftest import MM_PER_PT, SVG_NS, parse_path_points, pdf_page_sizes, pdf_polygons
from tests.drawings import (
    circle_area,
    group,
    hex_grid_svg,
    inkscape_svg,
    layer,
    layout_svg,
    qgis_geojson,
    read_layout_file,
    relative_path,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "coinage-card.svg"
MISTAKES = ROOT / "examples" / "coinage-card-mistakes.svg"


def read(text: str, game: str = "coinage", **options):
    return parse_layout(text.encode("utf-8"), source="test.svg", game=game, **options)


# -- SVG geometry: units, transforms, curves ---------------------------------------------------------------
SQUARE = "M 10,10 h 20 v 20 h -20 z"


@pytest.mark.parametrize(
    "width, viewbox, mm_per_user_unit",
    [
        ("100mm", "0 0 100 100", 1.0),
        ("10cm", "0 0 100 100", 1.0),
        ("4in", "0 0 400 400", 25.4 * 4 / 400),
        ("288pt", "0 0 288 288", 25.4 / 72),
        ("24pc", "0 0 24 24", 25.4 / 6),
        ("400px", "0 0 400 400", 25.4 / 96),
        ("400", "0 0 400 400", 25.4 / 96),
        ("200mm", "0 0 100 100", 2.0),
    ],
)
def test_document_units_give_true_millimetres(width, viewbox, mm_per_user_unit):
    svg = inkscape_svg(f'<path id="a" d="{SQUARE}" />', width=width, height=width, viewbox=viewbox)
    space = read(svg, "cointable").layout.spaces[0]
    # Coordinates are kept to 0.1 µm, so the area is right to that rounding.
    assert space.polygon.area == pytest.approx((20 * mm_per_user_unit) ** 2, rel=1e-4)


def test_a_px_file_without_viewbox_is_96_px_to_the_inch():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="960" height="960"><rect id="r" x="0" y="0" width="96" height="96"/></svg>'
    space = read(svg, "cointable").layout.spaces[0]
    assert space.polygon.area == pytest.approx(25.4**2, rel=1e-6)


def test_y_axis_is_flipped_so_the_top_of_the_page_is_up():
    svg = inkscape_svg(
        '<rect id="top" x="0" y="0" width="10" height="10" /><rect id="bottom" x="0" y="90" width="10" height="10" />',
        width="100mm",
        height="100mm",
        viewbox="0 0 100 100",
    )
    layout = read(svg, "cointable").layout
    assert layout.space("top").polygon.bounds == pytest.approx((0, 90, 10, 100))
    assert layout.space("bottom").polygon.bounds == pytest.approx((0, 0, 10, 10))


def test_layer_and_element_transforms_are_applied():
    inner = '<rect id="r" x="0" y="0" width="10" height="20" transform="rotate(90) scale(2)" />'
    svg = inkscape_svg(layer("L", group("g", inner), transform="translate(100,50)"))
    polygon = read(svg, "cointable").layout.space("r").polygon
    minx, miny, maxx, maxy = polygon.bounds
    assert polygon.area == pytest.approx(800.0, rel=1e-6)
    assert (maxx - minx, maxy - miny) == pytest.approx((40.0, 20.0))
    # rotate(90) sends x to y (down the page) and y to -x: the box spans x 60..100, y 50..70 (page).
    assert (minx, maxx) == pytest.approx((60.0, 100.0))
    assert 297 - maxy == pytest.approx(50.0) and 297 - miny == pytest.approx(70.0)


@pytest.mark.parametrize(
    "element, area",
    [
        ('<circle id="s" cx="50" cy="50" r="12.13" />', circle_area(12.13)),
        ('<ellipse id="s" cx="50" cy="50" rx="30" ry="8" />', math.pi * 30 * 8),
        ('<circle id="s" cx="50" cy="50" r="4" />', circle_area(4)),
        # Two relative arcs make a circle of radius 15.
        ('<path id="s" d="m 20,50 a 15,15 0 0 1 30,0 a 15,15 0 0 1 -30,0 z" />', circle_area(15)),
        # A relative cubic (the usual 4-arc circle approximation) and lines.
        ('<path id="s" d="m 0,0 h 40 c 0,11.046 -8.954,20 -20,20 c -11.046,0 -20,-8.954 -20,-20 z" />', None),
        ('<polygon id="s" points="0,0 30,0 30,10 0,10" />', 300.0),
        ('<polyline id="s" points="0,0 30,0 30,10 0,10 0,0" />', 300.0),
    ],
)
def test_shapes_and_curves_have_their_true_area_to_a_tenth_of_a_percent(element, area):
    svg = inkscape_svg(layer("L", element, transform="translate(20,20)"))
    polygon = read(svg, "cointable").layout.space("s").polygon
    if area is None:  # 40 mm × 20 mm half-disc bottom of a 40 × 0 strip: the half disc of radius 20
        area = circle_area(20) / 2
    assert polygon.is_valid
    assert polygon.area == pytest.approx(area, rel=1e-3)


def test_names_groups_and_ignored_things_follow_the_conventions():
    body = "\n".join(
        [
            layer(
                "Layer 1",
                "\n".join(
                    [
                        group("north", relative_path("A1", [(0, 0), (40, 0), (40, 40), (0, 40), (0, 0)])),
                        '<path id="path42" d="m 40,0 h 40 v 40 h -40 z" />',
                        '<text id="t1" x="3" y="4">title</text>',
                        '<path id="open" d="m 0,50 l 10,10" />',
                        '<rect id="card" x="-5" y="-5" width="100" height="60" />',
                    ]
                ),
                transform="translate(10,10)",
            ),
            layer("Sketch", '<rect id="hidden" width="5" height="5" />', hidden=True),
        ]
    )
    svg = inkscape_svg('<defs><rect id="in-defs" width="5" height="5" /></defs>' + body)
    read_back = read(svg, "coinage")
    layout = read_back.layout
    assert [s.name for s in layout.spaces] == ["A1", "path42"]
    # A layer holding a region group is no region itself: path42, drawn beside the group, is in none.
    assert layout.space("A1").region == "north" and layout.space("path42").region is None
    assert [f.role for f in layout.features] == ["card"]
    notes = " | ".join(read_back.notes)
    for expected in ("1 text", "1 open paths", "1 hidden shapes", "1 shapes inside <defs>"):
        assert expected in notes


def test_a_clone_is_a_shape_in_its_own_place_and_never_replaces_its_original():
    # The clone comes first in the document; the original keeps its own place and name.
    svg = inkscape_svg('<use href="#r" x="50" /><rect id="r" width="30" height="30"/>')
    read_back = read(svg, "cointable")
    layout = read_back.layout
    assert sorted(s.polygon.bounds[0] for s in layout.spaces) == pytest.approx([0.0, 50.0])
    assert [s.name for s in layout.spaces if s.polygon.bounds[0] == 0.0] == ["r"]
    assert "read 1 clone (<use>) as shapes in their own place" in read_back.notes


def test_a_shape_of_two_pieces_is_reported_and_a_hole_is_kept():
    holed = '<path id="ring" d="M 0,0 h 50 v 50 h -50 z M 10,10 h 10 v 10 h -10 z" />'
    apart = '<path id="apart" d="M 100,0 h 10 v 10 h -10 z M 150,0 h 10 v 10 h -10 z" />'
    layout = read(inkscape_svg(holed + apart), "cointable").layout
    assert layout.space("ring").polygon.area == pytest.approx(2500 - 100)
    assert any("apart: is drawn as 2 separate pieces" in p for p in layout.read_problems)


# -- the example drawing -------------------------------------------------------------------------------------------
def test_the_example_card_reads_as_a_valid_coin_age_map(cli):
    result = cli("validate", "layout", str(EXAMPLE), "--game", "coinage")
    assert result.code == 0, result.out + result.err
    assert "valid coinage layout with 10 spaces" in result.out
    layout = read_layout_file(EXAMPLE, game="coinage").layout
    # Every space and the card lie inside the 148 × 105 mm page; the map is 142 × 99 mm.
    union = shapely.union_all([s.polygon for s in layout.spaces])
    assert union.area == pytest.approx(142 * 99, rel=1e-3)
    assert union.bounds == pytest.approx((3, 3, 145, 102), abs=1e-6)
    assert sorted({s.region for s in layout.spaces}) == ["east", "north", "south", "west"]


def test_the_text_report_names_each_space_with_a_measurement(cli):
    result = cli("validate", "layout", str(MISTAKES), "--game", "coinage")
    assert result.code == 1
    lines = result.out.splitlines()
    fit = next(line for line in lines if "B4: a US quarter needs" in line)
    # B4 is drawn 17 mm wide: the widest circle inside is 17 mm.
    assert "the widest circle is 17.00 mm" in fit and "26.26 mm" in fit
    assert any("B2: the label is used by more than one space" in line for line in lines)
    assert any("region east (B4, C3) is not contiguous" in line for line in lines)


# -- the report picture ------------------------------------------------------------------------------------------
def _circles(root: ET.Element) -> list[tuple[float, float, float, str]]:
    return [
        (float(c.get("cx")), float(c.get("cy")), float(c.get("r")), c.get("fill") or "")
        for c in root.iterfind(".//svg:circle", SVG_NS)
    ]


def test_the_svg_report_marks_every_problem_at_true_size(cli, tmp_path):
    report = tmp_path / "report.svg"
    result = cli("validate", "layout", str(MISTAKES), "--game", "coinage", "--report", str(report))
    assert result.code == 1 and report.exists()
    root = ET.parse(report).getroot()
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    numbered = [t for t in texts if t[:2] in ("1.", "2.", "3.", "4.", "5.")]
    assert len(numbered) == 5 and any("B4" in t and "quarter" in t for t in numbered)
    badges = [c for c in _circles(root) if c[3] in ("#d0021b", "#c77700")]
    assert len(badges) >= 4  # every problem with a place is numbered on the drawing
    # The quarter that does not fit B4 is drawn at its true size (radius 12.13 mm).
    layout = read_layout_file(MISTAKES, game="coinage").layout
    b4 = layout.space("B4").polygon
    width_mm = float(root.get("width").removesuffix("mm"))
    assert width_mm > b4.bounds[2] - layout.bounds[0]
    shapes = {p.get("id"): p.get("d") for p in root.iterfind(".//svg:defs/svg:path", SVG_NS)}
    amber = [
        shapes[u.get("{http://www.w3.org/1999/xlink}href").lstrip("#")]
        for u in root.iterfind(".//svg:use", SVG_NS)
        if u.get("stroke") == "#c77700" and u.get("fill") == "none"
    ]
    amber += [p.get("d") for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("stroke") == "#c77700"]
    assert amber, "the warning's coin is outlined in amber"
    points = parse_path_points(amber[0])
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    assert (max(xs) - min(xs)) / 2 == pytest.approx(12.13, abs=0.02)
    assert (max(ys) - min(ys)) / 2 == pytest.approx(12.13, abs=0.02)


def test_the_pdf_report_is_true_size(cli, tmp_path):
    report = tmp_path / "report.pdf"
    assert cli("validate", "layout", str(MISTAKES), "--game", "coinage", "--report", str(report)).code == 1
    assert pdf_page_sizes(report)[0] == pytest.approx((210.0, 297.0), abs=0.5)


def test_a_report_needs_svg_or_pdf(cli, tmp_path):
    result = cli("validate", "layout", str(EXAMPLE), "--game", "coinage", "--report", str(tmp_path / "r.png"))
    assert result.code == 2 and "--report needs a file name ending in .svg or .pdf" in result.err


# -- tolerance: a hex grid rounded to 0.1 mm ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "side, hex_size, orientation", [(3, "30mm", "pointy"), (13, "20mm", "flat"), (5, "1.25in", "pointy")]
)
def test_a_hex_grid_rounded_to_a_tenth_of_a_millimetre_passes(cli, tmp_path, side, hex_size, orientation):
    board = cointable.build(side, hex_size, orientation=orientation)
    drawing = tmp_path / "hexes.svg"
    drawing.write_text(hex_grid_svg(board, page_mm=600.0))
    result = cli("validate", "layout", str(drawing), "--game", "cointable")
    assert result.code == 0, result.out
    assert f"valid cointable layout with {len(board)} spaces" in result.out
    if side != 3:
        return
    # The same drawing fails a check that allows no rounding at all.
    strict = cli("validate", "layout", str(drawing), "--game", "cointable", "--tolerance", "0.01mm")
    assert strict.code == 1 and "is not a regular hexagon (sides from" in strict.out


def test_nodes_along_the_sides_of_rounded_hexes_are_not_corners(cli, tmp_path):
    drawing = tmp_path / "hexes.svg"
    drawing.write_text(hex_grid_svg(cointable.build(4, "25mm"), midpoints=True))
    result = cli("validate", "layout", str(drawing), "--game", "cointable")
    assert result.code == 0, result.out


def test_a_real_mistake_in_a_rounded_hex_grid_still_fails(cli, tmp_path):
    board = cointable.build(3, "30mm")
    drawing = tmp_path / "hexes.svg"
    drawing.write_text(hex_grid_svg(board, grow={"a1": 1.03}))
    result = cli("validate", "layout", str(drawing), "--game", "cointable")
    assert result.code == 1
    assert "a1" in result.out


# -- foreign GeoJSON: QGIS and GDAL ------------------------------------------------------------------------------------
def test_a_qgis_layer_is_read_with_game_and_units(cli, tmp_path):
    board = cointable.build(3, "30mm")
    path = tmp_path / "qgis.geojson"
    path.write_text(qgis_geojson(board, scale=0.1))  # drawn in cm
    result = cli("validate", "layout", str(path), "--game", "cointable", "--units", "cm")
    assert result.code == 0, result.out + result.err
    layout = read_layout_file(path, game="cointable", units="cm").layout
    assert {s.name for s in layout.spaces} == {s.name for s in board.spaces}
    assert layout.space("a1").polygon.area == pytest.approx(board.space("a1").polygon.area, rel=1e-6)
    # Without --game the file is refused with one line saying what to do.
    refused = cli("validate", "layout", str(path))
    assert refused.code == 2 and "--game" in refused.err and len(refused.err.splitlines()) == 1


def test_names_come_from_label_name_id_or_the_feature_id():
    features = [
        {
            "type": "Feature",
            "id": f,
            "properties": props,
            "geometry": {"type": "Polygon", "coordinates": [[[x, 0], [x + 20, 0], [x + 20, 20], [x, 20], [x, 0]]]},
        }
        for f, props, x in [
            (1, {"label": "L", "name": "N"}, 0),
            (2, {"name": "N2", "id": "I"}, 30),
            (3, {"id": "I3"}, 60),
            ("feat", {}, 90),
        ]
    ]
    doc = json.dumps({"type": "FeatureCollection", "features": features}).encode()
    layout = parse_layout(doc, source="x.geojson", game="coinage").layout
    assert [s.name for s in layout.spaces] == ["L", "N2", "I3", "feat"]


def test_longitude_latitude_is_refused(cli, tmp_path):
    board = cointable.build(2, "30mm")
    path = tmp_path / "world.geojson"
    path.write_text(qgis_geojson(board, crs="urn:ogc:def:crs:OGC:1.3:CRS84", scale=0.0001))
    result = cli("validate", "layout", str(path), "--game", "cointable")
    assert result.code == 2 and "longitude/latitude" in result.err and len(result.err.splitlines()) == 1


def test_a_coinprint_layout_of_another_game_is_refused():
    text = cointable.build(2, "30mm").dumps().encode()
    with pytest.raises(Exception, match="is a cointable layout, not coinage"):
        parse_layout(text, source="x.geojson", game="coinage")


# -- bad input --------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "content, code, message",
    [
        (inkscape_svg('<path id="open" d="M 0,0 L 10,10" />'), 2, "has no closed shape"),
        (inkscape_svg('<text x="1" y="1">only words</text>'), 2, "has no closed shape"),
        (inkscape_svg("", width="10furlongs"), 2, "unit coinprint does not know"),
        (inkscape_svg("", viewbox="0 0 banana"), 2, "viewBox"),
        ("<svg", 2, "not an SVG drawing"),
        (inkscape_svg("<g>" * 5000 + '<rect id="r" width="30" height="30"/>' + "</g>" * 5000), 2, "nested too deeply"),
        (inkscape_svg('<rect id="r" width="1" height="1"/>', width="1e300mm", viewbox="0 0 1 1"), 2, "at most"),
        (
            '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
            + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 10}">' for p, n in zip("abcdefgh", "bcdefghi"))
            + ']><svg xmlns="http://www.w3.org/2000/svg"><text>&i;</text></svg>',
            2,
            "declares XML entities",
        ),
        ("<html></html>", 2, "not SVG"),
        # An internal entity that expands to path data is refused too, not read.
        (
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY d "M 0 0 L 30 0 L 30 30 Z">]>'
            '<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="100mm"><path id="A1" d="&d;"/></svg>',
            2,
            "declares XML entities",
        ),
        # A shape squashed flat by its transform has no area: not a space, and no crash.
        (inkscape_svg('<g transform="scale(0)"><rect id="r" width="30" height="30"/></g>'), 2, "no closed shape"),
        (
            inkscape_svg('<path id="bow" d="M 0,0 L 40,40 L 40,0 L 0,40 Z" />'),
            1,
            "bow: the polygon is invalid (Self-intersection",
        ),
    ],
)
def test_bad_drawings_get_one_clear_line(cli, tmp_path, content, code, message):
    path = tmp_path / "bad.svg"
    path.write_text(content)
    result = cli("validate", "layout", str(path), "--game", "cointable")
    assert result.code == code, result.out + result.err
    assert message in result.out + result.err
    if code == 2:
        assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


def test_a_path_of_a_million_points_is_refused_at_once(cli, tmp_path):
    steps = " ".join("1,0.001" for _ in range(1_000_000))
    path = tmp_path / "huge.svg"
    path.write_text(inkscape_svg(f'<path id="huge" d="m 0,0 l {steps} z" />'))
    result = cli("validate", "layout", str(path), "--game", "cointable")
    assert result.code == 2 and "huge has 2,000,002 numbers" in result.err and "MAX_SPACE_NUMBERS" in result.err


def test_paths_of_half_a_million_points_in_all_are_refused_at_once(cli, tmp_path):
    steps = " ".join("1,0.001" for _ in range(22_000))  # under the cap of one shape, over that of all
    path = tmp_path / "many.svg"
    path.write_text(inkscape_svg("".join(f'<path id="p{k}" d="m 0,{k} l {steps} z" />' for k in range(10))))
    result = cli("validate", "layout", str(path), "--game", "cointable")
    assert result.code == 2 and "MAX_DRAWING_NUMBERS" in result.err


def test_a_100_mb_file_is_refused_before_it_is_read(cli, tmp_path):
    path = tmp_path / "big.svg"
    with open(path, "wb") as handle:
        handle.truncate(100 * 1024 * 1024)  # sparse: no disk used
    result = cli("validate", "layout", str(path), "--game", "cointable")
    assert result.code == 2 and "cap" in result.err


def test_unknown_units_option_is_a_usage_error(cli):
    result = cli("validate", "layout", str(EXAMPLE), "--game", "coinage", "--units", "ft")
    assert result.code == 2


# -- printing: SVG → GeoJSON → PDF at true size -----------------------------------------------------------------------
def test_a_drawing_converts_to_geojson_and_prints_at_true_size(cli, tmp_path):
    geojson = tmp_path / "card.geojson"
    result = cli("board", "coinage", "--layout", str(EXAMPLE), "--format", "geojson", "-o", str(geojson))
    assert result.code == 0, result.out + result.err
    converted = json.loads(geojson.read_text())
    assert converted["coinprint"]["game"] == "coinage"
    spaces = [f for f in converted["features"] if f["properties"]["role"] == "space"]
    assert len(spaces) == 10 and all("color" in f["properties"] for f in spaces)
    pdf = tmp_path / "card.pdf"
    assert cli("board", "coinage", "--layout", str(geojson), "-o", str(pdf)).code == 0
    # Measure the printed card back: its outline is a 148 × 105 mm rectangle on the page.
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        rects = [(r["width"] * MM_PER_PT, r["height"] * MM_PER_PT) for r in document.pages[0].rects]
    assert any(w == pytest.approx(148.0, abs=0.01) and h == pytest.approx(105.0, abs=0.01) for w, h in rects)
    # …and every space keeps the width it was drawn with.
    printed = {round(max(p[0] for p in s) - min(p[0] for p in s), 1) for s in pdf_polygons(pdf)[0]}
    drawn = read_layout_file(EXAMPLE, game="coinage").layout
    assert {round(s.polygon.bounds[2] - s.polygon.bounds[0], 1) for s in drawn.spaces} <= printed
    # The region colours are a proper colouring: touching regions differ.
    layout = read_layout_file(geojson).layout
    for a, b in layout.graph.edges:
        sa, sb = layout.space(a), layout.space(b)
        if sa.region != sb.region:
            assert sa.properties["color"] != sb.properties["color"]


def test_a_drawn_hex_board_prints_like_the_built_in_one(cli, tmp_path):
    board = cointable.build(3, "30mm")
    drawing = tmp_path / "hexes.svg"
    drawing.write_text(hex_grid_svg(board))
    out = tmp_path / "board.svg"
    result = cli("board", "cointable", "--layout", str(drawing), "-o", str(out))
    assert result.code == 0, result.out + result.err
    text = out.read_text()
    # The hexes were rounded to 0.1 mm, so the measured size may be off by a hundredth.
    assert re.search(r"Each hex: 30\.0\d mm", text) and "19 hexes, 3 a side" in text
    pdf = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--layout", str(drawing), "-o", str(pdf)).code == 0
    hexes = [s for page in pdf_polygons(pdf) for s in page if len(s) in (6, 7)]
    widths = {round(max(p[0] for p in h) - min(p[0] for p in h), 1) for h in hexes}
    assert 30.0 in widths  # pointy hexes: 30 mm across the flats, left to right


def test_an_invalid_drawing_is_not_printed(cli, tmp_path):
    out = tmp_path / "card.pdf"
    result = cli("board", "coinage", "--layout", str(MISTAKES), "-o", str(out))
    assert result.code == 1 and not out.exists()
    assert "B4: borders no other space" in result.out


def test_a_kit_prints_the_rules_and_the_drawn_board(cli, tmp_path):
    out = tmp_path / "kit.pdf"
    result = cli("kit", "coinage", "--layout", str(EXAMPLE), "-o", str(out))
    assert result.code == 0, result.out + result.err
    builtin = tmp_path / "builtin.pdf"
    assert cli("kit", "coinage", "-o", str(builtin)).code == 0
    assert len(pdf_page_sizes(out)) == len(pdf_page_sizes(builtin))


# -- playing on a drawing ---------------------------------------------------------------------------------------------------
def test_play_and_validate_on_a_drawn_map(cli, tmp_path):
    folder = tmp_path / "games"
    result = cli("play", "coinage", "--layout", str(EXAMPLE), "--games", "2", "-o", str(folder))
    assert result.code == 0, result.out + result.err
    records = sorted(folder.glob("*.json"))
    record = json.loads(records[0].read_text())
    assert record["layout"] == os.path.relpath(EXAMPLE, folder).replace(os.sep, "/")
    assert cli("validate", "game", str(records[0])).code == 0
    # Moved together, the record still finds its drawing.
    moved = tmp_path / "moved"
    (moved / "games").mkdir(parents=True)
    (moved / "examples").mkdir()
    shutil.copy(EXAMPLE, moved / "examples" / EXAMPLE.name)
    record["layout"] = f"../examples/{EXAMPLE.name}"
    (moved / "games" / "g.json").write_text(json.dumps(record))
    assert cli("validate", "game", str(moved / "games" / "g.json")).code == 0


def test_play_and_balance_on_a_drawn_hex_board(cli, tmp_path):
    drawing = tmp_path / "hexes.svg"
    drawing.write_text(hex_grid_svg(cointable.build(3, "30mm")))
    folder = tmp_path / "games"
    result = cli("play", "cointable", "--layout", str(drawing), "--games", "1", "--max-turns", "60", "-o", str(folder))
    assert result.code == 0, result.out + result.err
    record = next(folder.glob("*.json"))
    assert cli("validate", "game", str(record)).code == 0
    result = cli("balance", "cointable", "--layout", str(drawing), "--games", "2", "--max-turns", "40")
    assert result.code == 0 and "decided games" in result.out


def test_a_drawn_map_numbers_countries_in_drawing_order_and_plays(cli, tmp_path):
    built = mapgame.build(9, 0)
    drawing = tmp_path / "map.svg"
    drawing.write_text(layout_svg(built, "mapgame"))
    read_back = read_layout_file(drawing, game="mapgame").layout
    assert [s.name for s in read_back.spaces] == [str(n) for n in range(1, 10)]
    assert [s.start for s in read_back.spaces][-2:] == ["O", "X"]
    result = cli("validate", "layout", str(drawing), "--game", "mapgame")
    assert result.code == 0, result.out
    folder = tmp_path / "games"
    assert cli("play", "mapgame", "--layout", str(drawing), "--games", "1", "-o", str(folder)).code == 0
    assert cli("validate", "game", str(next(folder.glob("*.json")))).code == 0
    out = tmp_path / "map.pdf"
    assert cli("board", "mapgame", "--layout", str(drawing), "-o", str(out)).code == 0


def test_a_layout_of_the_wrong_game_or_an_invalid_one_is_refused_for_play(cli, tmp_path):
    result = cli("play", "coinage", "--layout", str(MISTAKES), "--games", "1", "-o", str(tmp_path / "g"))
    assert result.code == 1 and "is not a valid coinage layout" in result.err


def test_a_coin_age_map_round_trips_through_a_drawing():
    built = coinage.build("classic")
    layout = read(layout_svg(built, "coinage"), "coinage").layout
    assert sorted(s.name for s in layout.spaces) == sorted(s.name for s in built.spaces)
    for space in layout.spaces:
        assert space.region == built.space(space.name).region
        assert space.polygon.area == pytest.approx(built.space(space.name).polygon.area, rel=1e-4)


# -- real tools: Inkscape and GDAL write the files -------------------------------------------------------------------
def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (Debian package {'inkscape' if name == 'inkscape' else 'gdal-bin'})")
    return found


def test_inkscape_saves_a_drawing_coinprint_reads_the_same(tmp_path):
    inkscape = _tool("inkscape")
    env = {**os.environ, "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    saved, plain = tmp_path / "saved.svg", tmp_path / "plain.svg"
    for options, target in ((["--export-type=svg"], saved), (["--export-plain-svg"], plain)):
        subprocess.run(
            [inkscape, str(EXAMPLE), *options, f"--export-filename={target}"],
            check=True,
            capture_output=True,
            timeout=120,
            env=env,
        )
    ours = read_layout_file(EXAMPLE, game="coinage").layout
    total = sum(s.polygon.area for s in ours.spaces)
    # Saved by Inkscape: the same spaces, names and regions, the same areas.
    again = read_layout_file(saved, game="coinage").layout
    assert [(s.name, s.region) for s in again.spaces] == [(s.name, s.region) for s in ours.spaces]
    assert sum(s.polygon.area for s in again.spaces) == pytest.approx(total, rel=1e-3)
    # A plain SVG drops inkscape:label: shapes are found by their (automatic) ids, the card
    # becomes a space, and groups with automatic ids (g129) are no regions.
    theirs = read_layout_file(plain, game="coinage").layout
    assert len(theirs) == len(ours) + 1
    assert _regions(theirs) == {None: [s.id for s in theirs.spaces]}
    assert theirs.space("path107").polygon.area == pytest.approx(ours.space("A1").polygon.area, rel=1e-3)


def _regions(layout) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for space in layout.spaces:
        found.setdefault(space.region, []).append(space.id)
    return found


def test_gdal_writes_geojson_coinprint_reads(cli, tmp_path):
    ogr2ogr = _tool("ogr2ogr")
    board = cointable.build(3, "30mm")
    source = tmp_path / "board.geojson"
    source.write_text(qgis_geojson(board, crs=None))
    written = tmp_path / "gdal.geojson"
    subprocess.run([ogr2ogr, "-f", "GeoJSON", str(written), str(source)], check=True, capture_output=True, timeout=60)
    result = cli("validate", "layout", str(written), "--game", "cointable")
    assert result.code == 0, result.out + result.err


# -- properties: any shape, any transform, any unit ------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6, "px": 25.4 / 96}


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["rect", "circle", "ellipse", "arc-path", "cubic-path"]),
    size=st.floats(3.0, 60.0),
    aspect=st.floats(0.3, 1.0),
    unit=st.sampled_from(sorted(UNIT_MM)),
    angle=st.floats(-180.0, 180.0),
    scale=st.floats(0.5, 3.0),
    dx=st.floats(-50.0, 50.0),
    dy=st.floats(-50.0, 50.0),
)
def test_any_shape_under_any_transform_keeps_its_true_area(kind, size, aspect, unit, angle, scale, dx, dy):
    """Area scales with the square of the transform's scale and the unit; rotation and
    translation change nothing; curves are flattened to within 0.1 %."""
    width, height = size, size * aspect
    shapes = {
        "rect": (f'<rect id="s" x="0" y="0" width="{width}" height="{height}" />', width * height),
        "circle": (f'<circle id="s" cx="0" cy="0" r="{width / 2}" />', math.pi * (width / 2) ** 2),
        "ellipse": (
            f'<ellipse id="s" cx="0" cy="0" rx="{width / 2}" ry="{height / 2}" />',
            math.pi * width * height / 4,
        ),
        # Two relative elliptical arcs: an ellipse.
        "arc-path": (
            f'<path id="s" d="m {-width / 2},0 a {width / 2},{height / 2} 0 0 1 {width},0 a {width / 2},{height / 2} 0 0 1 {-width},0 z" />',
            math.pi * width * height / 4,
        ),
        # A rectangle whose top edge is a cubic with both controls h above it: y(t) = 3t(1-t)h
        # over x = w·t adds w·h/2.
        "cubic-path": (
            f'<path id="s" d="m 0,0 c {width / 3},{-height} {2 * width / 3},{-height} {width},0 v {height} h {-width} z" />',
            width * height * 1.5,
        ),
    }
    element, area_user = shapes[kind]
    page = 1000.0
    svg = inkscape_svg(
        layer(
            "L",
            group("g", element),
            transform=f"translate({page / 2 + dx},{page / 2 + dy}) rotate({angle}) scale({scale})",
        ),
        width=f"{page}{unit}",
        height=f"{page}{unit}",
        viewbox=f"0 0 {page} {page}",
    )
    polygon = read(svg, "cointable").layout.space("s").polygon
    expected = area_user * (scale * UNIT_MM[unit]) ** 2
    assert polygon.is_valid
    # Coordinates are kept to 0.1 µm: allow that rounding along the perimeter besides the 0.1 %.
    assert polygon.area == pytest.approx(expected, rel=1e-3, abs=polygon.length * 1e-4)


def test_tolerance_and_kit_options_are_checked(cli, tmp_path):
    bad = cli("validate", "layout", str(EXAMPLE), "--game", "coinage", "--tolerance", "lots")
    assert bad.code == 2 and "'lots' is not a length" in bad.err
    assert cli("validate", "layout", str(EXAMPLE), "--game", "coinage", "--tolerance", "0").code == 0
    flick = cli("kit", "flick", "--layout", str(EXAMPLE), "-o", str(tmp_path / "k.pdf"))
    assert flick.code == 2 and "--layout prints one game's board" in flick.err
    wrong = cli("board", "cointable", "--layout", str(EXAMPLE), "-o", str(tmp_path / "b.pdf"))
    assert wrong.code == 1 and not (tmp_path / "b.pdf").exists()  # a Coin Age card is no hex board


# -- right verdicts on files made by the real tools (Inkscape, GDAL) ---------------------------------------------
from tests.drawings import brick_card_svg, inkscape_resave, ogr2ogr  # noqa: E402

CLASSIC_BORDERS = {
    frozenset(pair.split("-"))
    for pair in "A1-A2 A1-B1 A1-B2 A2-A3 A2-B2 A2-B3 A3-B3 A3-B4 B1-B2 B2-B3 B3-B4 "
    "C1-C2 C1-B1 C1-B2 C2-C3 C2-B2 C2-B3 C3-B3 C3-B4".split()
}


def _borders(layout) -> set[frozenset[str]]:
    return {frozenset((layout.space(a).name, layout.space(b).name)) for a, b in layout.graph.edges}


@pytest.mark.parametrize("actions", [(), ("select-all:all", "object-to-path")])
def test_a_brick_card_of_snapped_rects_with_t_junctions_is_valid(cli, tmp_path, actions):
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(brick_card_svg())
    saved = tmp_path / "bricks.svg"
    inkscape_resave(drawn, saved, *actions)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    assert "valid coinage layout with 10 spaces" in result.out
    # Every brick's corner lies inside a side of the row above or below, and still the card
    # has exactly the classic map's 19 borders.
    layout = read_layout_file(saved, game="coinage").layout
    assert _borders(layout) == CLASSIC_BORDERS
    assert bool(shapely.coverage_is_valid([s.polygon for s in layout.spaces]))


def test_a_real_gap_in_a_brick_card_is_reported_per_pair_with_its_place(cli, tmp_path):
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(brick_card_svg(gap_above_b_mm=0.3))
    saved = tmp_path / "gap.svg"
    inkscape_resave(drawn, saved)
    report = tmp_path / "report.svg"
    result = cli("validate", "layout", str(saved), "--game", "coinage", "--report", str(report))
    assert result.code == 1
    # Row B's top is drawn 0.3 mm below row A: page y = 10 + 30 = 40 mm (y down, as Inkscape shows it).
    line = next(line for line in result.out.splitlines() if "A1–B1:" in line)
    assert re.search(r"A1–B1: gap up to 0\.30 mm along 30\.\d mm near \(\d+\.\d, 40\.\d\) mm", line), line
    assert "A1–A2" not in result.out  # neighbours sharing their border are not named
    # The report draws only the gap: the marked A1–B1 stretch is a strip 0.3 mm high.
    from coinprint.analysis import check_layout

    problems = check_layout(read_layout_file(saved, game="coinage").layout)
    gap = next(p for p in problems if "A1–B1" in p.message)
    minx, miny, maxx, maxy = gap.geometry.bounds
    assert maxy - miny == pytest.approx(0.3, abs=0.02) and 30 <= maxx - minx <= 31
    assert report.exists() and "A1–B1: gap up to 0.30 mm" in report.read_text()
    # With a tolerance wider than the gap, the corners join the sides above them: valid.
    joined = cli("validate", "layout", str(saved), "--game", "coinage", "--tolerance", "0.4mm")
    assert joined.code == 0, joined.out


def _lune(cx: float, r: float, outer: float, start: float) -> str:
    """A country outside the circle (cx, 100, r) over the 120° from ``start`` (degrees, y
    down): an arc along the circle with points of its own, then a new arc of radius
    ``outer`` back outside it."""
    a0, a1 = math.radians(start), math.radians(start + 120)
    x0, y0 = cx + r * math.cos(a0), 100 + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), 100 + r * math.sin(a1)
    return f"M {x0:.6f},{y0:.6f} A {r},{r} 0 0 1 {x1:.6f},{y1:.6f} A {outer},{outer} 0 1 0 {x0:.6f},{y0:.6f} Z"


@pytest.mark.parametrize("actions", [(), ("select-all:all", "object-to-path")])
def test_curved_borders_several_countries_meet_are_valid(cli, tmp_path, actions):
    # Country 1 is a circle; countries 2 and 3 follow its curve with points of their own
    # (as arcs, or as Inkscape's Bézier circle after object-to-path).
    body = layer(
        "Map",
        "\n".join(
            [
                '<circle id="circle1" cx="100" cy="100" r="30" />',
                # Their ends fall between the circle's own points.
                f'<path id="path2" d="{_lune(100, 30, 34, -53)}" />',
                f'<path id="path3" d="{_lune(100, 30, 34, 127)}" />',
            ]
        ),
    )
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(inkscape_svg(body, width="200mm", height="200mm", viewbox="0 0 200 200"))
    saved = tmp_path / "map.svg"
    inkscape_resave(drawn, saved, *actions)
    result = cli("validate", "layout", str(saved), "--game", "mapgame")
    assert result.code == 0, result.out
    layout = read_layout_file(saved, game="mapgame").layout
    assert _borders(layout) == {frozenset(("1", "2")), frozenset(("1", "3"))}
    # Each border is the whole 120° arc between them (2π/3 × 30 mm).
    assert layout.graph.edges["1", "2"]["border_mm"] == pytest.approx(2 * math.pi / 3 * 30, rel=2e-3)


def test_a_map_with_an_even_number_of_countries_is_invalid(cli, tmp_path):
    built = mapgame.build(5, 0)
    four = type(built)(built.game, built.spaces[:4], meta=built.meta)
    drawing = tmp_path / "four.svg"
    drawing.write_text(layout_svg(four, "mapgame"))
    result = cli("validate", "layout", str(drawing), "--game", "mapgame")
    assert result.code == 1
    assert "the map has 4 countries; a Map has an odd number from 3 to 401" in result.out


def _grouped_card(tmp_path, *, unlabelled_layer: str | None = None) -> Path:
    """The brick card with automatic ids and no labels: each brick grouped with its typed
    name in Inkscape (Ctrl+G: a group g… with an automatic id) inside its region's layer."""
    text = brick_card_svg()
    names = re.findall(r'inkscape:label="([ABC]\d)"', text)
    text = re.sub(r' inkscape:label="[ABC]\d"', "", text)
    ids = re.findall(r'<rect id="(rect\d+)"', text)
    for rect_id, name in zip(ids, names):
        match = re.search(rf'<rect id="{rect_id}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', text)
        assert match
        x, y, w, h = map(float, match.groups())
        label = f'<text id="text{rect_id[4:]}" x="{x + w / 2 - 3:g}" y="{y + h / 2 + 2:g}" style="font-size:5px">{name}</text>'
        text = text.replace(match.group(0), label + "\n    " + match.group(0), 1)
    if unlabelled_layer:
        text = text.replace(f'inkscape:label="{unlabelled_layer}"', "")
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(text)
    saved = tmp_path / "grouped.svg"
    actions = []
    for rect_id in ids:
        actions += [f"select-by-id:{rect_id},text{rect_id[4:]}", "selection-group", "select-clear"]
    inkscape_resave(drawn, saved, *actions)
    assert saved.read_text().count("<g") >= 14  # 4 layers and 10 groups Inkscape made
    return saved


def test_spaces_grouped_with_their_text_labels_keep_their_layers_regions(cli, tmp_path):
    saved = _grouped_card(tmp_path)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    layout = read_layout_file(saved, game="coinage").layout
    assert sorted(s.name for s in layout.spaces) == sorted({n for pair in CLASSIC_BORDERS for n in pair})
    assert {s.name: s.region for s in layout.spaces}["B1"] == "north"
    assert {s.name: s.region for s in layout.spaces}["C3"] == "east"
    assert "text" not in result.out  # every text named its space: none was ignored


def test_spaces_in_no_named_group_are_listed_once(cli, tmp_path):
    saved = _grouped_card(tmp_path, unlabelled_layer="north")
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 1
    # The layer keeps only its automatic id (layer1): no region, and one line names its spaces as drawn.
    assert "in no region: A1, A2, A3, B1;" in result.out
    assert result.out.count("in no region") == 1


def test_a_title_names_a_shape_and_an_automatic_id_never_does():
    svg = inkscape_svg(
        layer(
            "west",
            '<rect id="rect12" width="40" height="30"><title>A1</title></rect>'
            '<rect id="rect13" x="40" width="40" height="30" />'
            '<g id="g501"><rect id="named" x="80" width="40" height="30" /></g>',
        )
    )
    layout = read(svg, "coinage").layout
    assert [s.name for s in layout.spaces] == ["A1", "rect13", "named"]
    # rect13 keeps its id as a handle, but a nested automatic group (g501) is no region.
    assert [s.region for s in layout.spaces] == ["west", "west", "west"]


HEX_POINTS = " ".join(
    f"{10 * math.cos(math.radians(30 + 60 * k)):.4f},{10 * math.sin(math.radians(30 + 60 * k)):.4f}" for k in range(6)
)


def _hex_tool_svg(side: int = 4) -> str:
    """What a hex-grid tool exports: one hexagon in <defs> and a <use> clone per cell."""
    step = 10 * math.sqrt(3)
    uses = []
    for q in range(-(side - 1), side):
        for r in range(-(side - 1), side):
            if abs(q + r) <= side - 1:
                x, y = 150 + step * (q + r / 2), 150 + 15 * r
                uses.append(f'<use xlink:href="#hex" x="{x:.4f}" y="{y:.4f}" />')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="300mm" height="300mm" viewBox="0 0 300 300">'
        f'<defs><polygon id="hex" points="{HEX_POINTS}" /></defs>' + "".join(uses) + "</svg>"
    )


def test_a_hex_tools_37_clones_are_a_valid_board_named_as_the_built_in_one(cli, tmp_path):
    drawn = tmp_path / "tool.svg"
    drawn.write_text(_hex_tool_svg())
    assert drawn.read_text().count("<use") == 37
    saved = tmp_path / "hexes.svg"
    inkscape_resave(drawn, saved)
    result = cli("validate", "layout", str(saved), "--game", "cointable")
    assert result.code == 0, result.out
    assert "valid cointable layout with 37 spaces" in result.out
    assert "read 37 clones (<use>) as shapes in their own place" in result.out
    layout = read_layout_file(saved, game="cointable").layout
    built = cointable.build(4, f"{10 * math.sqrt(3)}mm", guide_coin=None)
    assert sorted(s.name for s in layout.spaces) == sorted(s.name for s in built.spaces)
    # a1 is the bottom-left cell, as on the built-in board.
    a1 = layout.space("a1").polygon.centroid
    assert a1.y == pytest.approx(min(s.polygon.centroid.y for s in layout.spaces))


def test_inkscape_clones_of_a_drawn_hexagon_are_spaces_in_their_own_places(cli, tmp_path):
    drawn = tmp_path / "one.svg"
    drawn.write_text(inkscape_svg(f'<polygon id="first" points="{HEX_POINTS}" transform="translate(100,100)" />'))
    saved = tmp_path / "cloned.svg"
    step = 10 * math.sqrt(3)
    # Inkscape moves a selection in px (96 to the inch).
    inkscape_resave(drawn, saved, "select-by-id:first", "clone", f"transform-translate:{step * 96 / 25.4},0")
    assert "<use" in saved.read_text()
    layout = read_layout_file(saved, game="cointable").layout
    xs = sorted(round(s.polygon.centroid.x, 2) for s in layout.spaces)
    assert len(xs) == 2 and xs[1] - xs[0] == pytest.approx(step, abs=0.01)
    assert "first" in [s.name for s in layout.spaces]


# -- GDAL ------------------------------------------------------------------------------------------------------------
def test_a_coinprint_layout_after_a_geopackage_round_trip_is_valid(cli, tmp_path):
    source = tmp_path / "card.geojson"
    source.write_text(coinage.build("classic").dumps())
    ogr2ogr("-f", "GPKG", str(tmp_path / "card.gpkg"), str(source))
    back = tmp_path / "back.geojson"
    ogr2ogr("-f", "GeoJSON", str(back), str(tmp_path / "card.gpkg"))
    text = back.read_text()
    assert '"id": "A1"' in text and "null" in text  # ids became a field, empty fields null
    result = cli("validate", "layout", str(back))
    assert result.code == 0, result.out + result.err
    assert "valid coinage layout with 10 spaces" in result.out


def test_a_coinprint_layout_reprojected_to_degrees_is_refused(cli, tmp_path):
    source = tmp_path / "card.geojson"
    source.write_text(coinage.build("classic").dumps())
    degrees = tmp_path / "degrees.geojson"
    ogr2ogr("-f", "GeoJSON", "-s_srs", "EPSG:3857", "-t_srs", "EPSG:4326", str(degrees), str(source))
    result = cli("validate", "layout", str(degrees))
    assert result.code == 2
    assert "coordinates look like longitude/latitude" in result.err and len(result.err.splitlines()) == 1


def test_a_crs84_tag_gdal_added_is_explained_and_removable(cli, tmp_path):
    source = tmp_path / "card.geojson"
    source.write_text(coinage.build("classic").dumps())
    ogr2ogr(str(tmp_path / "card.shp"), str(source))
    tagged = tmp_path / "tagged.geojson"
    ogr2ogr("-f", "GeoJSON", str(tagged), str(tmp_path / "card.shp"))
    assert "CRS84" in tagged.read_text()
    result = cli("validate", "layout", str(tagged), "--game", "coinage")
    assert result.code == 2 and len(result.err.splitlines()) == 1
    assert "-a_srs None" in result.err and 'delete the "crs" member' in result.err and "--units" not in result.err
    # Done as the message says, the file is read: spaces by their id field, the card by its role.
    untagged = tmp_path / "untagged.geojson"
    ogr2ogr("-f", "GeoJSON", "-a_srs", "None", str(untagged), str(tmp_path / "card.shp"))
    fixed = cli("validate", "layout", str(untagged), "--game", "coinage")
    assert fixed.code == 0, fixed.out + fixed.err
    assert read_layout_file(untagged, game="coinage").layout.features_with_role("card")


@pytest.mark.parametrize("unit, scale", [("cm", 0.1), ("in", 1 / 25.4), ("m", 0.001)])
def test_a_layer_drawn_in_another_unit_says_which_units_to_give(cli, tmp_path, unit, scale):
    path = tmp_path / "qgis.geojson"
    path.write_text(qgis_geojson(coinage.build("classic"), crs=None, scale=scale))
    if unit != "m":
        wrong = cli("validate", "layout", str(path), "--game", "coinage")
        assert wrong.code == 1
        assert "far too small for a coin" in wrong.out and "did you mean --units cm or --units in?" in wrong.out
    right = cli("validate", "layout", str(path), "--game", "coinage", "--units", unit)
    assert right.code == 0, right.out + right.err


def test_a_viewbox_without_width_and_height_notes_the_unit_it_assumed(cli, tmp_path):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">'
        + "".join(
            f'<rect id="{n}" x="{x}" y="0" width="100" height="100"/>' for n, x in (("A", 0), ("B", 100), ("C", 200))
        )
        + "</svg>"
    )
    path = tmp_path / "nosize.svg"
    path.write_text(svg)
    result = cli("validate", "layout", str(path), "--game", "mapgame")
    assert "note: the document has a viewBox but no width and height: its units were read as px" in result.out


def test_css_visibility_hidden_hides_a_shape_like_display_none(cli, tmp_path):
    # Helpers the designer hid by a class rule and by a style: they would overlap the bricks.
    body = brick_card_svg().replace(
        "</svg>",
        "<style>.sketch { visibility: hidden }</style>"
        '<rect class="sketch" id="helper" x="20" y="20" width="60" height="60" />'
        '<rect style="visibility:hidden" id="helper2" x="60" y="20" width="60" height="60" />\n</svg>',
    )
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(body)
    saved = tmp_path / "hidden.svg"
    inkscape_resave(drawn, saved)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    assert "note: ignored 2 hidden shapes" in result.out


def test_a_penny_that_does_not_fit_a_hex_is_a_warning(cli, tmp_path):
    drawing = tmp_path / "small.svg"
    drawing.write_text(hex_grid_svg(cointable.build(3, "15mm", guide_coin=None)))
    result = cli("validate", "layout", str(drawing), "--game", "cointable")
    assert result.code == 0, result.out
    assert "warning: a US penny (19.05 mm) does not fit a hex 15.0" in result.out


# -- the same reading options on every command that takes a layout file --------------------------------------------
LAYOUT_COMMANDS = [
    ("validate", "layout"),
    ("board", "cointable"),
    ("board", "coinage"),
    ("board", "mapgame"),
    ("kit", "coinage"),
    ("play", "cointable"),
    ("play", "coinage"),
    ("play", "mapgame"),
    ("balance", "coinage"),
    ("analyse", "coinage"),
]


@pytest.mark.parametrize("command", LAYOUT_COMMANDS, ids=["-".join(c) for c in LAYOUT_COMMANDS])
def test_every_command_that_takes_a_layout_file_reads_it_the_same_way(cli, command):
    text = cli(*command, "--help").out
    assert "--units [mm|cm|in|m]" in text and "--tolerance LENGTH" in text
    drawn = "|".join(game.name for game in GAMES if game.drawing is not None)  # the games a drawing is read for
    assert (f"--game [{drawn}]" in text) == (command == ("validate", "layout"))
    target = [str(EXAMPLE)] if command[0] == "validate" else ["--layout", str(EXAMPLE)]
    bad = cli(*command, *target, "--tolerance", "5mm")
    assert bad.code == 2 and "--tolerance must be from 0 to 2 mm (the tolerance cap), not 5 mm" in bad.err


def test_play_balance_and_analyse_read_a_cm_layer_with_units_and_records_replay(cli, tmp_path):
    path = tmp_path / "qgis.geojson"
    path.write_text(qgis_geojson(coinage.build("classic"), crs=None, scale=0.1))
    # Read as mm, the layer is far too small: play refuses it, naming the unit to give.
    refused = cli("play", "coinage", "--layout", str(path), "--games", "1", "-o", str(tmp_path / "no"))
    assert refused.code == 1 and "--units cm" in refused.err
    folder = tmp_path / "games"
    played = cli("play", "coinage", "--layout", str(path), "--units", "cm", "--games", "1", "-o", str(folder))
    assert played.code == 0, played.out + played.err
    record = next(folder.glob("*.json"))
    # The record holds the layout as read (in mm), so it replays without the option.
    assert isinstance(json.loads(record.read_text())["layout"], dict)
    assert cli("validate", "game", str(record)).code == 0
    balanced = cli("balance", "coinage", "--layout", str(path), "--units", "cm", "--games", "2", "--workers", "1")
    assert balanced.code == 0 and "decided games" in balanced.out
    analysed = cli(
        "analyse",
        "coinage",
        "--layout",
        str(path),
        "--units",
        "cm",
        "--games",
        "2",
        "--skill-games",
        "0",
        "--workers",
        "1",
    )
    assert analysed.code == 0, analysed.out + analysed.err


# -- printing a drawn board says what was drawn ----------------------------------------------------------------------
def _svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [" ".join("".join(t.itertext()).split()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_a_drawn_hex_board_prints_the_names_it_was_given_and_says_so(cli, tmp_path):
    board = cointable.build(3, "30mm")
    drawing = hex_grid_svg(board)
    for space in board.spaces:  # the designer named the cells their own way
        drawing = drawing.replace(f'inkscape:label="{space.name}"', f'inkscape:label="{space.name.upper()}x"')
    path = tmp_path / "named.svg"
    path.write_text(drawing)
    out = tmp_path / "board.svg"
    assert cli("board", "cointable", "--layout", str(path), "-o", str(out)).code == 0
    texts = _svg_texts(out)
    assert {f"{s.name.upper()}x" for s in board.spaces} <= set(texts)
    caption = " ".join(texts)  # the caption's lines are wrapped into text elements
    assert "they keep the names they were drawn with (A1x," in caption and "B1x, C1x, …)." in caption
    assert "a1 is at the bottom left" not in caption


def test_a_drawn_hex_board_without_names_prints_the_built_in_names(cli, tmp_path):
    drawn = tmp_path / "tool.svg"
    drawn.write_text(_hex_tool_svg(3))
    out = tmp_path / "board.svg"
    assert cli("board", "cointable", "--layout", str(drawn), "-o", str(out)).code == 0
    texts = _svg_texts(out)
    assert {s.name for s in cointable.build(3, "20mm", guide_coin=None).spaces} <= set(texts)
    assert "a1 is at the bottom left" in " ".join(texts)


def test_a_map_kit_for_a_drawn_map_of_n_countries_says_n(cli, tmp_path):
    drawing = tmp_path / "map.svg"
    drawing.write_text(layout_svg(mapgame.build(9, 0), "mapgame"))
    out = tmp_path / "kit.pdf"
    result = cli("kit", "mapgame", "--layout", str(drawing), "-o", str(out))
    assert result.code == 0, result.out + result.err
    import pdfplumber

    with pdfplumber.open(out) as document:
        text = " ".join((page.extract_text() or "") for page in document.pages)
    text = " ".join(text.split())
    assert "draw a map of 9 countries together" in text and "Stop after country 9." in text
    assert "21 countries" not in text


def test_a_drawing_in_cm_without_units_says_what_to_give(cli, tmp_path):
    # Three countries drawn in cm in a document with a viewBox but no width and height: read
    # at 96 px to the inch they are a few mm wide.
    rects = "".join(f'<rect id="c{k}" x="{1 + 4 * k}" y="1" width="4" height="3"/>' for k in range(3))
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 15 11">{rects}</svg>')
    saved = tmp_path / "cm.svg"
    inkscape_resave(drawn, saved)
    result = cli("validate", "layout", str(saved), "--game", "mapgame")
    assert result.code == 1
    assert "note: the document has a viewBox but no width and height" in result.out
    assert "did you draw in cm or inches?" in result.out and 'width="15cm" height="11cm"' in result.out
    # Given its size as the message says, the same drawing is read at its true size.
    sized = saved.read_text().replace('viewBox="0 0 15 11"', 'viewBox="0 0 15 11" width="15cm" height="11cm"', 1)
    saved.write_text(sized)
    layout = read_layout_file(saved, game="mapgame").layout
    assert layout.space("1").polygon.area == pytest.approx(40 * 30, rel=1e-6)


def _rose_card_svg() -> str:
    """A Coin Age card of nine spaces: a round space in the middle (a <circle>) and eight
    sectors round it, each bounded by two straight lines, the card's edge and an arc of the
    circle drawn with its own points. The sectors' corners fall between the circle's points:
    curved T-junctions."""
    cx = cy = 80.0
    r = 30.0

    def on_circle(a: float) -> tuple[float, float]:
        return cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))

    def on_edge(a: float) -> tuple[float, float]:
        dx, dy = math.cos(math.radians(a)), math.sin(math.radians(a))
        t = min(80 / abs(dx) if abs(dx) > 1e-12 else math.inf, 80 / abs(dy) if abs(dy) > 1e-12 else math.inf)
        return cx + dx * t, cy + dy * t

    paths = []
    for k in range(8):
        a0, a1 = 10 + 45 * k, 55 + 45 * k
        corners = [on_edge(c) for c in (45, 135, 225, 315, 405) if a0 < c < a1]
        outline = [on_circle(a0), on_edge(a0), *corners, on_edge(a1), on_circle(a1)]
        d = "M " + " L ".join(f"{x:.6f},{y:.6f}" for x, y in outline)
        x0, y0 = on_circle(a0)
        d += f" A {r},{r} 0 0 0 {x0:.6f},{y0:.6f} Z"
        paths.append(f'    <path id="path{k + 10}" inkscape:label="S{k + 1}" d="{d}" />')
    regions = {"north": paths[0:3], "south": paths[3:6], "east": paths[6:8]}
    layers = [layer(name, "\n".join(items)) for name, items in regions.items()]
    layers.append(layer("middle", f'<circle id="circle9" inkscape:label="M" cx="{cx}" cy="{cy}" r="{r}" />'))
    return inkscape_svg("\n".join(layers), width="160mm", height="160mm", viewbox="0 0 160 160")


@pytest.mark.parametrize("actions", [(), ("select-all:all", "object-to-path")])
def test_a_round_space_that_eight_spaces_meet_is_valid(cli, tmp_path, actions):
    drawn = tmp_path / "drawn.svg"
    drawn.write_text(_rose_card_svg())
    saved = tmp_path / "rose.svg"
    inkscape_resave(drawn, saved, *actions)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    layout = read_layout_file(saved, game="coinage").layout
    # The round space borders all eight sectors along a 45° arc each (π/4 × 30 mm).
    assert sorted(layout.neighbours("M")) == [f"S{k}" for k in range(1, 9)]
    for k in range(1, 9):
        assert layout.graph.edges["M", f"S{k}"]["border_mm"] == pytest.approx(math.pi / 4 * 30, rel=2e-3)


def test_an_illustrator_export_is_read_by_its_layer_ids_texts_and_classes(cli, tmp_path):
    # As Illustrator exports: layers as groups whose id is the layer's name, helper groups
    # with XMLID ids, typed names placed by a transform matrix, a style sheet of classes.
    bricks = brick_card_svg()
    body = []
    for region, names in {
        "north": ["A1", "A2", "A3", "B1"],
        "west": ["C1", "B2", "B3"],
        "east": ["B4", "C3"],
        "south": ["C2"],
    }.items():
        items = []
        for name in names:
            match = re.search(
                rf'inkscape:label="{name}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', bricks
            )
            assert match
            x, y, w, h = map(float, match.groups())
            items.append(
                f'<g id="XMLID_{len(body)}{len(items)}_"><rect x="{x}" y="{y}" class="st0" width="{w}" height="{h}"/>'
                f'<text transform="matrix(1 0 0 1 {x + 3} {y + h / 2})" class="st1">{name}</text></g>'
            )
        body.append(f'<g id="{region}">{"".join(items)}</g>')
    svg = (
        '<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In -->\n'
        '<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" x="0px" y="0px" width="150mm" height="110mm" '
        'viewBox="0 0 150 110" xml:space="preserve"><style type="text/css">.st0{fill:#F2E6C9;stroke:#000000;}'
        ".st1{font-size:5px;} .st2{display:none;}</style>"
        + "".join(body)
        + '<rect class="st2" x="0" y="0" width="150" height="110"/></svg>'
    )
    path = tmp_path / "illustrator.svg"
    path.write_text(svg)
    result = cli("validate", "layout", str(path), "--game", "coinage")
    assert result.code == 0, result.out
    layout = read_layout_file(path, game="coinage").layout
    assert {s.name: s.region for s in layout.spaces}["B2"] == "west"
    assert _borders(layout) == CLASSIC_BORDERS
    assert "note: ignored 1 hidden shapes" in result.out


def test_unnamed_guides_are_dropped_but_unfilled_cells_on_a_background_are_not():
    cells = "".join(
        f'<rect id="rect{k}" x="{10 + 40 * k}" y="10" width="40" height="40" style="fill:none;stroke:#000" />'
        for k in range(3)
    )
    guides = "".join(f'<circle id="circle{k}" cx="{30 + 40 * k}" cy="30" r="12" style="fill:none" />' for k in range(3))
    guided = read(inkscape_svg(layer("Board", cells.replace("fill:none", "fill:#eee") + guides)), "cointable")
    assert [s.id for s in guided.layout.spaces] == ["rect0", "rect1", "rect2"]
    assert "ignored 3 unnamed shapes inside spaces (guides, decorations)" in guided.notes
    # Unfilled cells drawn on an unnamed background: the background holds several, so it is
    # no space with guides in it, and nothing is dropped; it holds every cell, so it is the
    # outline whose name was lost, said in one line (exit 1), not an overlap per cell.
    background = '<rect id="rect9" x="0" y="0" width="140" height="60" style="fill:#fff" />'
    with pytest.raises(InvalidInputError, match=r"'rect9' has no name and holds every other shape: .* 'outline'"):
        read(inkscape_svg(layer("Board", background + cells)), "cointable")
    named = read(
        inkscape_svg(layer("Board", background.replace("<rect ", '<rect inkscape:label="outline" ') + cells)),
        "cointable",
    )
    assert len(named.layout.spaces) == 3 and not any("inside spaces" in note for note in named.notes)


def test_guides_unfilled_by_a_style_sheet_class_are_dropped_as_illustrator_writes_them():
    sheet = "<style>.st0{fill:#F2E6C9;stroke:#000} .st3, .guide{fill:none;stroke:#999}</style>"
    cells = "".join(f'<rect class="st0" x="{10 + 40 * k}" y="10" width="40" height="40"/>' for k in range(3))
    guides = "".join(f'<circle class="st3" cx="{30 + 40 * k}" cy="30" r="12"/>' for k in range(3))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="150mm" height="60mm" viewBox="0 0 150 60">{sheet}{cells}{guides}</svg>'
    read_back = read(svg, "cointable")
    assert len(read_back.layout.spaces) == 3
    assert "ignored 3 unnamed shapes inside spaces (guides, decorations)" in read_back.notes
    # Filled by their class, the same circles are spaces (they overlap the cells: reported).
    filled = read(svg.replace(".st3, .guide{fill:none", ".st3{fill:#fff"), "cointable")
    assert len(filled.layout.spaces) == 6
