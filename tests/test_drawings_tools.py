"""Drawings made as designers make them, with the tools themselves (Inkscape, Scour, LibreOffice
Draw, GDAL's ogr2ogr), each with its verdict and the one line that explains it. A test whose
tool is not installed is skipped and says which package to install."""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest

from coinprint.games.coinage import board as coinage
from coinprint.games.mapgame import board as mapgame
from tests.drawings import (
    BRICK_REGIONS,
    BRICKS,
    brick_card_fodg,
    brick_card_svg,
    inkscape_saved,
    inkscape_svg,
    layer,
    layout_svg,
    libreoffice_svg,
    ogr2ogr,
    qgis_geojson,
    read_layout_file,
    scour,
)

NO_NAMES = "the shapes have no names: was it saved as plain SVG? label each space in Inkscape's Objects panel"


# -- Inkscape's plain and optimized saves ---------------------------------------------------------------------
def _one_line_for_every_command(cli, drawing, game: str, said: str, folder) -> None:
    """``validate``, ``board`` and ``play`` each refuse ``drawing`` with the one line ``said``,
    exit 1 (read, but invalid as a layout), and write nothing."""
    runs = {
        "validate": cli("validate", "layout", str(drawing), "--game", game),
        "board": cli("board", game, "--layout", str(drawing), "-o", str(folder / "board.pdf")),
        "play": cli("play", game, "--layout", str(drawing), "--games", "1", "-o", str(folder / "games")),
    }
    for command, result in runs.items():
        lines = (result.out + result.err).strip().splitlines()
        assert result.code == 1, f"{command}: {result.code} {lines}"
        assert len(lines) == 1 and said in lines[0], f"{command}: {lines}"
    assert not (folder / "board.pdf").exists() and not (folder / "games").exists()


def test_an_inkscape_plain_svg_save_is_explained_in_one_line(cli, tmp_path):
    plain = inkscape_saved(tmp_path, brick_card_svg(), plain=True, source="card.svg", name="plain.svg")
    assert "inkscape:label" not in plain.read_text()  # what a plain save does
    _one_line_for_every_command(cli, plain, "coinage", NO_NAMES, tmp_path)
    # The Inkscape SVG save of the same drawing is valid.
    assert cli("validate", "layout", str(tmp_path / "card.svg"), "--game", "coinage").code == 0


def test_an_optimized_svg_save_is_explained_in_one_line(cli, tmp_path):
    drawn = tmp_path / "card.svg"
    drawn.write_text(brick_card_svg())
    optimized = tmp_path / "optimized.svg"
    scour(drawn, optimized, "--enable-id-stripping")  # Inkscape's Optimized SVG: Scour, without editor data
    assert "inkscape:label" not in optimized.read_text()
    _one_line_for_every_command(cli, optimized, "coinage", NO_NAMES, tmp_path)
    # Scour keeping the editor's data keeps the names: the card is read as drawn.
    kept = tmp_path / "kept.svg"
    scour(drawn, kept, "--keep-editor-data")
    assert cli("validate", "layout", str(kept), "--game", "coinage").code == 0


def _framed(text: str, frame: str) -> str:
    """An Inkscape drawing with ``frame`` (an element) drawn first, under everything else."""
    head, rest = text.split('<defs id="defs2" />', 1)
    return head + '<defs id="defs2" />' + frame + rest


def _cards_and_frames():
    """A drawing of each game whose card or outline is named only by its Inkscape label:
    Coin Age (the card, spaces named by their ids, region groups kept), the Map (a frame
    circle around the countries) and Coin Table (a card around the cells)."""
    import shapely

    from coinprint.games.cointable import board as cointable
    from tests.drawings import hex_grid_svg

    coin_age = layout_svg(coinage.build("classic"), "coinage")
    countries = mapgame.build()
    minx, miny, _, _ = countries.bounds
    around = shapely.minimum_bounding_circle(shapely.union_all([s.polygon for s in countries.spaces]))
    x, y = around.centroid.x - minx + 10, 300 - (around.centroid.y - miny) - 10  # as layout_svg places it
    radius = shapely.minimum_bounding_radius(around) + 5
    the_map = _framed(
        layout_svg(countries, "mapgame"),
        f'<circle id="circle1" inkscape:label="outline" cx="{x:.3f}" cy="{y:.3f}" r="{radius:.3f}" style="fill:#fff" />',
    )
    table = _framed(
        hex_grid_svg(cointable.build(3)),
        '<rect id="rect1" inkscape:label="card" x="1" y="1" width="298" height="298" style="fill:#ffffff" />',
    )
    return {"coinage": coin_age, "mapgame": the_map, "cointable": table}


@pytest.mark.parametrize("game", ["coinage", "mapgame", "cointable"])
@pytest.mark.parametrize("save", ["plain", "optimized"])
def test_a_card_or_outline_that_lost_its_label_is_explained_in_one_line_in_every_game(cli, tmp_path, game, save):
    drawn = tmp_path / f"{game}.svg"
    drawn.write_text(_cards_and_frames()[game])
    assert cli("validate", "layout", str(drawn), "--game", game).code == 0  # as drawn, in Inkscape SVG
    saved = tmp_path / "saved.svg"
    if save == "plain":
        inkscape_saved(tmp_path, drawn.read_text(), plain=True, source="again.svg", name="saved.svg")
    else:
        scour(drawn, saved)  # Inkscape's Optimized SVG keeping ids and groups: labels go
    text = saved.read_text()
    assert "inkscape:label" not in text and "<g" in text
    said = "has no name and holds every other shape: was it saved as plain SVG? name the"
    _one_line_for_every_command(cli, saved, game, said, tmp_path)


def test_a_hex_board_without_names_is_still_read_with_the_built_in_names(cli, tmp_path):
    # Coin Table names unnamed cells itself: the diagnosis is for drawings that need names.
    from coinprint.games.cointable import board as cointable
    from tests.drawings import hex_grid_svg

    plain = inkscape_saved(
        tmp_path,
        hex_grid_svg(cointable.build(3)).replace(' inkscape:label="', ' data-label="'),
        plain=True,
        source="hex.svg",
        name="plain.svg",
    )
    result = cli("validate", "layout", str(plain), "--game", "cointable")
    assert result.code == 0, result.out + result.err


# -- regions ------------------------------------------------------------------------------------------------------
def test_a_space_outside_every_region_group_is_in_no_region(cli, tmp_path):
    text = brick_card_svg()
    # The four region layers become groups inside one layer "Map"; C2 is moved out of its
    # group "south" into the layer itself, beside the groups.
    text = text.replace('inkscape:groupmode="layer" ', "")
    c2 = re.search(r'\s*<rect [^>]*inkscape:label="C2"[^>]*/>', text)
    assert c2
    text = text.replace(c2.group(0), "")
    start = text.index("<g ")
    end = text.rindex("</g>") + len("</g>")
    inner = text[start:end] + c2.group(0)
    text = text[:start] + f'<g inkscape:groupmode="layer" id="layer9" inkscape:label="Map">{inner}</g>' + text[end:]
    saved = inkscape_saved(tmp_path, text)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 1
    assert "in no region: C2;" in result.out
    assert "Map: 1" not in result.out and "Map" not in re.sub(r"\S*saved\.svg", "", result.out)
    layout = read_layout_file(saved, game="coinage").layout
    assert {s.name: s.region for s in layout.spaces}["A1"] == "north"
    assert {s.name: s.region for s in layout.spaces}["C2"] is None


# -- advice ------------------------------------------------------------------------------------------------------
def _scaled(text: str, transform: str) -> str:
    """An Inkscape drawing with everything in one group under ``transform``."""
    head, rest = text.split('<defs id="defs2" />', 1)
    return head + f'<defs id="defs2" /><g transform="{transform}">' + rest.replace("\n</svg>", "</g>\n</svg>")


def test_a_drawn_space_too_small_for_a_quarter_is_told_how_much_wider_to_be(cli, tmp_path):
    # The brick card squashed to 80 %: every row is 24 mm high, and a quarter needs 26.26 mm.
    saved = inkscape_saved(tmp_path, _scaled(brick_card_svg(), "scale(1,0.8)"), source="squashed.svg")
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert "B4: warning: " in result.out or "warning: B4: " in result.out
    assert "make B4 wider (by 2.3 mm)" in result.out, result.out
    assert "bigger card" not in result.out
    # A card coinprint made keeps the advice that fits it: a bigger card.
    small = coinage.build("classic", card="credit")
    assert any("print on a bigger card" in str(p) for p in coinage.check(small))
    assert not any("wider" in str(p) for p in coinage.check(small))


def test_a_card_drawn_at_twice_its_size_gets_a_note(cli, tmp_path):
    text = layout_svg(coinage.build("classic"), "coinage", page_mm=400)
    saved = inkscape_saved(tmp_path, _scaled(text, "scale(2)"), source="twice.svg")
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    assert "note: the card is 296.0 × 210.0 mm, twice A6 (148 × 105 mm)" in result.out
    assert "scale the drawing by 50 %" in result.out
    # At its true size, no note.
    true = tmp_path / "true.svg"
    true.write_text(text)
    assert "twice A6" not in cli("validate", "layout", str(true), "--game", "coinage").out


# -- decorations and clones ---------------------------------------------------------------------------------------
def _guided_card(tmp_path) -> str:
    """The brick card with a coin-guide circle in every space, each a ``<use>`` clone of one
    unfilled ``<symbol>``, and each space's name typed onto it, then converted to paths."""
    text = brick_card_svg()
    symbol = (
        '<defs id="defs2"><symbol id="guide"><circle cx="0" cy="0" r="12.13" '
        'style="fill:none;stroke:#999;stroke-width:0.2;stroke-dasharray:1,1" /></symbol></defs>'
    )
    text = text.replace('<defs id="defs2" />', symbol)
    for name, (x, y, w) in BRICKS.items():
        rect = re.search(rf'<rect [^>]*inkscape:label="{name}"[^>]*/>', text)
        assert rect
        cx, cy = x + 15 + w / 2, y + 10 + 15
        extra = (
            f'<use href="#guide" x="{cx:g}" y="{cy:g}" />'
            f'<text id="text{name}" x="{cx - 3:g}" y="{cy + 2:g}" style="font-size:5px;fill:#000">{name}</text>'
        )
        text = text.replace(rect.group(0), rect.group(0) + extra, 1)
    return text


def test_guides_cloned_from_a_symbol_and_labels_as_paths_are_ignored_with_a_note(cli, tmp_path):
    saved = inkscape_saved(tmp_path, _guided_card(tmp_path), "select-by-element:text", "object-to-path")
    written = saved.read_text()
    assert "<text" not in written and "aria-label" in written  # Inkscape made the texts paths
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out + result.err
    assert "valid coinage layout with 10 spaces" in result.out
    assert "note: ignored 10 unnamed shapes inside spaces (guides, decorations)" in result.out
    assert "note: ignored" in result.out and "shapes of text converted to paths" in result.out
    assert "contains" not in result.out


def test_unfilled_guide_circles_drawn_in_each_space_are_not_spaces(cli, tmp_path):
    text = _guided_card(tmp_path)
    # The guides drawn as circles of their own, not clones, and the names left as text.
    for match in re.finditer(r'<use href="#guide" x="([\d.]+)" y="([\d.]+)" />', text):
        circle = f'<circle cx="{match.group(1)}" cy="{match.group(2)}" r="12.13" style="fill:none;stroke:#999" />'
        text = text.replace(match.group(0), circle, 1)
    saved = inkscape_saved(tmp_path, text)
    result = cli("validate", "layout", str(saved), "--game", "coinage")
    assert result.code == 0, result.out
    assert "ignored 10 unnamed shapes inside spaces" in result.out
    # Each space has its label and its name typed onto it too: the texts name nothing new.
    assert "ignored 10 text" in result.out


def test_a_clone_placed_before_its_original_is_read_where_it_is_drawn(cli, tmp_path):
    # Three countries of a Map: the third a clone of the second, written before it.
    body = layer(
        "Map",
        '<use href="#second" x="80" y="0" inkscape:label="third" />'
        '<rect id="first" x="0" y="0" width="40" height="30" />'
        '<rect id="second" x="40" y="0" width="40" height="30" />',
    )
    xmlns = 'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"'
    saved = inkscape_saved(tmp_path, inkscape_svg(body).replace("<use ", f"<use {xmlns} ", 1))
    layout = read_layout_file(saved, game="mapgame").layout
    boxes = sorted(tuple(round(v, 3) for v in s.polygon.bounds) for s in layout.spaces)
    # The clone's x moves the original's place: 40 + 80 mm.
    assert boxes == [(0.0, 267.0, 40.0, 297.0), (40.0, 267.0, 80.0, 297.0), (120.0, 267.0, 160.0, 297.0)]
    # Drawing order is document order: the clone, drawn first, is country 1.
    assert layout.space("1").polygon.bounds[0] == pytest.approx(120.0)


# -- a drawn Map's title -------------------------------------------------------------------------------------------
def test_a_drawn_map_is_printed_with_its_files_name(cli, tmp_path):
    saved = inkscape_saved(
        tmp_path,
        layout_svg(mapgame.build(countries=9, seed=3), "mapgame"),
        source="Islands of Ymer.svg",
        name="islands-of-ymer.svg",
    )
    out = tmp_path / "board.pdf"
    result = cli("board", "mapgame", "--layout", str(saved), "-o", str(out))
    assert result.code == 0, result.out + result.err
    with pdfplumber.open(out) as pdf:
        lines = [line for page in pdf.pages for line in (page.extract_text() or "").splitlines()]
    assert "islands-of-ymer" in lines  # the title, a line of its own
    assert not any(line.startswith("Map") for line in lines)
    assert read_layout_file(saved, game="mapgame").layout.meta["name"] == "islands-of-ymer"


# -- LibreOffice Draw ----------------------------------------------------------------------------------------------
def test_a_libreoffice_draw_export_is_read_as_drawn(cli, tmp_path):
    exported = libreoffice_svg(brick_card_fodg(round_b1=True), tmp_path)
    text = exported.read_text()
    assert 'class="BoundingBox"' in text and "com.sun.star.drawing" in text  # what LibreOffice writes
    result = cli("validate", "layout", str(exported), "--game", "coinage")
    layout = read_layout_file(exported, game="coinage").layout
    # One space per shape: not its bounding box, not the copy of its outline for the stroke.
    assert sorted(s.name for s in layout.spaces) == sorted(BRICKS)
    assert {s.name: s.region for s in layout.spaces} == {
        name: region for region, names in BRICK_REGIONS.items() for name in names
    }
    ignored = re.findall(r"ignored (\S+) (.*)", result.out)
    assert not ignored  # the shapes' texts named them; no "ignored -20 text"
    assert "note: read as a LibreOffice Draw export" in result.out
    # B1 drawn as an ellipse in its brick: a space of its own, too narrow for a quarter.
    assert result.code == 0, result.out
    assert "make B1 wider (by 12.3 mm)" in result.out
    assert "contains" not in result.out and "overlaps" not in result.out


@pytest.mark.parametrize("text_box", [None, "A2", "B4"])
def test_a_libreoffice_draw_export_of_the_brick_card_is_valid(cli, tmp_path, text_box):
    exported = libreoffice_svg(brick_card_fodg(text_box=text_box), tmp_path)
    result = cli("validate", "layout", str(exported), "--game", "coinage")
    assert result.code == 0, result.out + result.err
    assert "valid coinage layout with 10 spaces" in result.out
    assert "ignored" not in result.out  # fonts, bullets, clips and the master slide are no part of it
    # A text box drawn over a space names it, as a typed text does; its frame is no space.
    assert sorted(s.name for s in read_layout_file(exported, game="coinage").layout.spaces) == sorted(BRICKS)


# -- names with spaces ---------------------------------------------------------------------------------------------
def test_a_name_with_spaces_is_refused_alike_by_validate_board_and_play(cli, tmp_path):
    drawing = tmp_path / "card.svg"
    drawing.write_text(brick_card_svg().replace('inkscape:label="A1"', 'inkscape:label="big hill"'))
    said = "names with spaces: 'big hill'; a space's name is one word"
    checked = cli("validate", "layout", str(drawing), "--game", "coinage")
    assert checked.code == 1 and said in checked.out
    printed = cli("board", "coinage", "--layout", str(drawing), "-o", str(tmp_path / "card.pdf"))
    assert printed.code == 1 and said in printed.out and not (tmp_path / "card.pdf").exists()
    played = cli("play", "coinage", "--layout", str(drawing), "--games", "1", "-o", str(tmp_path / "games"))
    assert played.code != 0 and said in played.out + played.err
    assert len((played.out + played.err).strip().splitlines()) == 1


# -- QGIS / GDAL units -----------------------------------------------------------------------------------------------
def test_a_gdal_file_in_metres_gets_a_units_hint_up_front(cli, tmp_path):
    metres = tmp_path / "metres.geojson"
    metres.write_text(qgis_geojson(coinage.build("classic"), crs=None, scale=0.001))
    tagged = tmp_path / "board-3857.geojson"
    ogr2ogr("-f", "GeoJSON", "-a_srs", "EPSG:3857", str(tagged), str(metres))
    assert "3857" in json.dumps(json.loads(tagged.read_text()).get("crs"))
    result = cli("validate", "layout", str(tagged), "--game", "coinage")
    assert result.code == 2
    assert "its crs EPSG:3857 measures in metres" in result.err and "give --units m" in result.err
    assert len(result.err.strip().splitlines()) == 1
    right = cli("validate", "layout", str(tagged), "--game", "coinage", "--units", "m")
    assert right.code == 0, right.out + right.err


def test_a_gdal_file_in_degrees_says_so(cli, tmp_path):
    metres = tmp_path / "metres.geojson"
    metres.write_text(qgis_geojson(coinage.build("classic"), crs="EPSG:3857", scale=1000.0))
    degrees = tmp_path / "degrees.geojson"
    ogr2ogr("-f", "GeoJSON", "-s_srs", "EPSG:3857", "-t_srs", "EPSG:4326", str(degrees), str(metres))
    result = cli("validate", "layout", str(degrees), "--game", "coinage")
    assert result.code == 2 and "look like longitude/latitude" in result.err


def _web_mercator_card_in_degrees(layout, east_m: float, north_m: float) -> str:
    """``layout`` (mm) as a map in longitude/latitude (EPSG:4326) that Web Mercator
    (EPSG:3857) puts in metres at (``east_m``, ``north_m``) plus the layout's own mm read as
    metres ÷ 1000: what a card drawn in QGIS in metres near Stockholm is once
    ``ogr2ogr -t_srs EPSG:3857`` writes it."""
    import math

    radius = 6378137.0  # the sphere EPSG:3857 projects onto

    def degrees(x_mm: float, y_mm: float) -> list[float]:
        x, y = east_m + x_mm / 1000, north_m + y_mm / 1000
        return [math.degrees(x / radius), math.degrees(2 * math.atan(math.exp(y / radius)) - math.pi / 2)]

    features = [
        {
            "type": "Feature",
            "properties": {"name": space.name, "region": space.region},
            "geometry": {"type": "Polygon", "coordinates": [[degrees(x, y) for x, y in ring] for ring in space.rings]},
        }
        for space in layout.spaces
    ]
    return json.dumps({"type": "FeatureCollection", "features": features})


def test_a_qgis_card_in_web_mercator_far_from_the_origin_is_read_at_a_local_origin(cli, tmp_path):
    drawn = coinage.build("classic")
    source = tmp_path / "card-4326.geojson"
    source.write_text(_web_mercator_card_in_degrees(drawn, 2_010_000.0, 8_250_000.0))
    card = tmp_path / "card-3857.geojson"
    ogr2ogr("-f", "GeoJSON", "-s_srs", "EPSG:4326", "-t_srs", "EPSG:3857", str(card), str(source))
    written = json.loads(card.read_text())
    assert "3857" in json.dumps(written.get("crs"))
    first = written["features"][0]["geometry"]["coordinates"][0][0]
    first = first[0] if isinstance(first[0], list) else first  # a MultiPolygon's first ring
    assert 2_009_999 < first[0] < 2_010_001 and 8_249_999 < first[1] < 8_250_001  # metres, far from (0, 0)

    read = read_layout_file(card, game="coinage", units="m").layout
    assert sorted(s.name for s in read.spaces) == sorted(s.name for s in drawn.spaces)
    by_name = {s.name: s for s in read.spaces}
    for space in drawn.spaces:  # the same card, moved to a local origin: same sizes, same shapes
        assert by_name[space.name].polygon.area == pytest.approx(space.polygon.area, rel=1e-6)
        assert by_name[space.name].region == space.region
    assert min(s.polygon.bounds[0] for s in read.spaces) == pytest.approx(0.0, abs=1e-9)

    checked = cli("validate", "layout", str(card), "--game", "coinage", "--units", "m")
    assert checked.code == 0, checked.out + checked.err
    assert f"valid coinage layout with {len(drawn.spaces)} spaces" in checked.out
    printed = cli("board", "coinage", "--layout", str(card), "--units", "m", "-o", str(tmp_path / "card.pdf"))
    assert printed.code == 0 and (tmp_path / "card.pdf").exists(), printed.out + printed.err
    played = cli("play", "coinage", "--layout", str(card), "--units", "m", "--games", "1", "-o", str(tmp_path / "g"))
    assert played.code == 0, played.out + played.err
    # Without --units m the metres are read as mm: the board is told to be a fraction of a mm.
    for command in (
        ("validate", "layout", str(card), "--game", "coinage"),
        ("board", "coinage", "--layout", str(card), "-o", str(tmp_path / "mm.pdf")),
    ):
        result = cli(*command)
        assert result.code == 2 and "its crs EPSG:3857 measures in metres" in result.err, result.err
        assert "give --units m" in result.err and len(result.err.strip().splitlines()) == 1
