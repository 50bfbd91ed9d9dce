"""The Flick mat: geometry measured from the GeoJSON, the SVG and the PDF; options; checks;
the command line's error contract."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from coinprint.errors import UsageError
from coinprint.games.flick.board import build, check
from coinprint.layout import loads
from coinprint.registry import GAMES
from coinprint.units import coin
from tests.conftest import MM_PER_PT, SVG_NS

TOLERANCE = 0.05
DIME, QUARTER = 17.91, 24.26  # docs/formats.md, Facts: the US Mint's figures


# -- reading the drawings back ------------------------------------------------------------------------
def _matrix(text: str | None):
    if not text:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    match = re.fullmatch(r"matrix\(([^)]*)\)", text.strip())
    assert match, f"unexpected transform {text}"
    return tuple(float(v) for v in match.group(1).replace(",", " ").split())


def _compose(outer, inner):
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def svg_circles(path) -> list[tuple[float, float, float]]:
    """Every circle in the SVG as (x, y, r) in mm of the page, transforms applied."""
    root = ET.parse(path).getroot()
    found = []

    def walk(element, matrix):
        matrix = _compose(matrix, _matrix(element.get("transform")))
        for child in element:
            if child.tag == f"{{{SVG_NS['svg']}}}circle":
                x, y = float(child.get("cx")), float(child.get("cy"))
                a, b, c, d, e, f = matrix
                scale = math.sqrt(abs(a * d - b * c))
                found.append((a * x + c * y + e, b * x + d * y + f, float(child.get("r")) * scale))
            elif child.tag == f"{{{SVG_NS['svg']}}}g":
                walk(child, matrix)

    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return found


def pdf_circles(path) -> list[list[tuple[float, float, float, float]]]:
    """Every curved path on every page as (centre x, centre y, width, height) in mm."""
    import pdfplumber

    pages = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            shapes = []
            for curve in page.curves:
                ops = {op[0] for op in curve.get("path", [])}
                if "c" in ops:
                    x0, x1, top, bottom = (float(curve[k]) * MM_PER_PT for k in ("x0", "x1", "top", "bottom"))
                    shapes.append(((x0 + x1) / 2, (top + bottom) / 2, x1 - x0, bottom - top))
            pages.append(shapes)
    return pages


def neighbour_distances(centres: list[tuple[float, float]]) -> list[float]:
    """Distances between centres next to each other round their middle."""
    cx = sum(p[0] for p in centres) / len(centres)
    cy = sum(p[1] for p in centres) / len(centres)
    ordered = sorted(centres, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    return [math.dist(ordered[i - 1], ordered[i]) for i in range(len(ordered))]


# -- geometry of the layout ----------------------------------------------------------------------------
@pytest.mark.parametrize("sides", range(3, 9))
def test_goal_coins_sit_on_the_corners_one_side_apart(sides):
    layout = build(sides, "15cm")
    goal = layout.features_with_role("goal")[0]
    corners = goal.geometry["coordinates"][0][:-1]
    assert len(corners) == sides
    assert all(abs(d - 150.0) < 1e-3 for d in neighbour_distances([tuple(c) for c in corners]))
    goal_coins = layout.features_with_role("goal-coin")
    assert sorted(f.id for f in goal_coins) == sorted(f"g{k}" for k in range(1, sides + 1))
    for feature in goal_coins:
        ring = feature.geometry["coordinates"][0]
        assert len(ring) - 1 >= 64
        centre = feature.shape.centroid
        assert min(math.dist((centre.x, centre.y), c) for c in corners) < 1e-3
        radii = [math.dist((centre.x, centre.y), p) for p in ring]
        assert max(abs(r - DIME / 2) for r in radii) < 1e-3  # every corner on the true circle
        # and the polygon's area is within 0.05 mm of the circle's in equivalent diameter
        assert abs(2 * math.sqrt(feature.shape.area / math.pi) - DIME) < TOLERANCE
    assert check(layout) == []


def test_geojson_round_trips_and_measures_true(tmp_path):
    text = build().dumps()
    layout = loads(text)
    assert layout.game == "flick" and layout.spaces == []
    centres = [(f.shape.centroid.x, f.shape.centroid.y) for f in layout.features_with_role("goal-coin")]
    assert all(abs(d - 150.0) < TOLERANCE for d in neighbour_distances(centres))
    assert check(layout) == []
    assert json.loads(text)["coinprint"]["params"]["width_mm"] == 150.0


def test_lines_are_goal_edges_labelled_with_faces():
    layout = build()
    lines = {f.properties["player"]: f for f in layout.features_with_role("line")}
    assert set(lines) == {"heads", "tails"}
    heads, tails = lines["heads"].geometry["coordinates"], lines["tails"].geometry["coordinates"]
    assert math.dist(*heads) == pytest.approx(150.0) and math.dist(*tails) == pytest.approx(150.0)
    # Heads' and Tails' lines are opposite sides of the square.
    assert heads[0][1] == heads[1][1] == -tails[0][1]
    assert lines["heads"].properties["face"] == "heads" and lines["tails"].properties["face"] == "tails"


@pytest.mark.parametrize("sides,players", [(4, 4), (6, 3), (8, 8), (5, 2)])
def test_zones_lie_outside_the_goal_and_hold_the_score_coins(sides, players):
    layout = build(sides, "20cm", coins=3, players=players)
    goal = layout.features_with_role("goal")[0].shape
    zones = layout.features_with_role("zone")
    assert len(zones) == players == len(layout.features_with_role("line"))
    for zone in zones:
        assert zone.shape.intersection(goal).area == 0
        spots = zone.properties["spots"]
        assert len(spots) == 3
        import shapely

        for spot in spots:  # each score coin fits inside the zone, and they do not overlap
            disc = shapely.Point(spot).buffer(QUARTER / 2, quad_segs=64)
            assert zone.shape.buffer(1e-6).contains(disc)
        for a in range(3):
            for b in range(a + 1, 3):
                assert math.dist(spots[a], spots[b]) >= QUARTER
    assert check(layout) == []
    sides_taken = [f.properties["side"] for f in layout.features_with_role("line")]
    assert len(set(sides_taken)) == players  # one player per side


def test_team_players_alternate_faces_round_the_table():
    layout = build(4, players=4)
    lines = sorted(layout.features_with_role("line"), key=lambda f: f.properties["seat"])
    assert [f.properties["player"] for f in lines] == ["heads-1", "tails-1", "heads-2", "tails-2"]
    assert [f.properties["side"] for f in lines] == [1, 2, 3, 4]


def test_many_coins_wrap_into_rows_that_fit_beside_the_goal_coins():
    layout = build(3, "10cm", coins=7)

    for zone in layout.features_with_role("zone"):
        for other in layout.features_with_role("goal-coin"):
            assert zone.shape.intersection(other.shape).area == 0
        assert len(zone.properties["spots"]) == 7
    assert check(layout) == []


def test_layout_names_build_mats():
    layout = GAMES["flick"].layout_from_spec({"sides": "5", "width": "12cm", "goal-coin": "penny", "coins": "3"})
    assert layout.params["sides"] == 5 and layout.params["width_mm"] == 120.0
    assert layout.params["goal_coin"] == "penny" and layout.params["coins"] == 3
    with pytest.raises(
        UsageError,
        match="unknown flick layout parameter 'size'; use arsenal, coins, goal_coin, players, score_coin, sides, width",
    ):
        GAMES["flick"].layout_from_spec({"size": "4"})


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"sides": 2}, "sides 2 is out of range; use 3 to 8"),
        ({"sides": 9}, "sides 9 is out of range"),
        ({"sides": "four"}, "sides must be a whole number"),
        ({"width": "0cm"}, "must be a positive length"),
        ({"width": "wide"}, "is not a length"),
        ({"width": "4cm"}, "too small"),
        ({"width": "2m"}, "unknown unit"),
        ({"width": "120cm"}, "too large"),
        ({"goal_coin": "doubloon"}, "unknown coin 'doubloon'"),
        ({"score_coin": "doubloon"}, "unknown coin 'doubloon'"),
        ({"coins": 1}, "coins 1 is out of range"),
        ({"players": 5}, "players 5 is out of range; use 2 to 4"),
    ],
)
def test_bad_options_name_the_value(kwargs, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        build(**kwargs)


def test_any_catalogue_coin_is_drawn_at_its_size():
    layout = build(goal_coin="eur-2", score_coin="uk-50p")
    for feature in layout.features_with_role("goal-coin"):
        assert abs(2 * math.sqrt(feature.shape.area / math.pi) - 25.75) < TOLERANCE
    assert layout.features_with_role("zone")[0].properties["coin"] == "uk-50p"


# -- checking hand-made mats -----------------------------------------------------------------------------
def _edited(change) -> list[str]:
    doc = build().to_geojson()
    change(doc["features"])
    from coinprint.layout import from_geojson

    return [str(p) for p in check(from_geojson(doc))]


def test_check_reports_what_is_wrong_with_a_hand_made_mat():
    assert _edited(lambda f: None) == []

    def drop_goal_coin(features):
        features[:] = [f for f in features if f["id"] != "g2"]

    assert any("has no goal coin" in p for p in _edited(drop_goal_coin))

    def move_line(features):
        line = next(f for f in features if f["id"] == "line-tails")
        line["geometry"]["coordinates"] = [[-75.0, -75.0], [-75.0, 75.0]]
        line["geometry"]["coordinates"][1][1] = 70.0

    assert any("line-tails: the line is not an edge of the goal" in p for p in _edited(move_line))

    def zone_into_goal(features):
        zone = next(f for f in features if f["id"] == "zone-heads")
        zone["geometry"]["coordinates"] = [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]

    assert any("zone-heads: a starting zone must lie outside the goal" in p for p in _edited(zone_into_goal))

    def zone_as_line(features):
        zone = next(f for f in features if f["id"] == "zone-tails")
        zone["geometry"] = {"type": "LineString", "coordinates": [[0, 100], [10, 100]]}

    assert "zone-tails: a starting zone must be a Polygon, not a LineString" in _edited(zone_as_line)

    def concave_goal(features):
        features[0]["geometry"]["coordinates"] = [[[-75, -75], [75, -75], [0, 0], [75, 75], [-75, 75], [-75, -75]]]

    assert "goal: the goal must be convex" in _edited(concave_goal)

    def add_space(features):
        features.append(
            {
                "type": "Feature",
                "id": "s1",
                "properties": {"role": "space"},
                "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]},
            }
        )

    assert any("has no spaces" in p for p in _edited(add_space))

    def one_player(features):
        features[:] = [f for f in features if f["id"] not in ("line-tails", "zone-tails")]

    assert any("at least 2 players' lines" in p for p in _edited(one_player))

    def duplicate(features):
        features.append(dict(features[1]))

    assert any("g1: the id is used by 2 features" in p for p in _edited(duplicate))


def test_validate_layout_accepts_a_mat_and_rejects_a_broken_one(cli, tmp_path):
    path = tmp_path / "mat.geojson"
    assert cli("board", "flick", "-o", str(path)).code == 0
    done = cli("validate", "layout", str(path))
    assert done.code == 0, done.out + done.err
    doc = json.loads(path.read_text())
    doc["features"] = [f for f in doc["features"] if f["id"] != "g3"]
    path.write_text(json.dumps(doc))
    done = cli("validate", "layout", str(path))
    assert done.code == 1 and "has no goal coin" in done.out


# -- the printed mat, measured ----------------------------------------------------------------------------
def test_svg_goal_coins_are_150_mm_apart_and_dime_sized(cli, tmp_path):
    path = tmp_path / "mat.svg"
    assert cli("board", "flick", "-o", str(path)).code == 0
    root = ET.parse(path).getroot()
    assert root.get("viewBox").split()[2] == root.get("width")[:-2]  # 1 user unit = 1 mm
    circles = svg_circles(path)
    dimes = [(x, y) for x, y, r in circles if abs(2 * r - DIME) < TOLERANCE]
    quarters = [(x, y) for x, y, r in circles if abs(2 * r - QUARTER) < TOLERANCE]
    assert len(dimes) == 4 and len(quarters) == 4
    distances = neighbour_distances(dimes)
    assert all(abs(d - 150.0) < TOLERANCE for d in distances), distances


def test_svg_of_a_pentagon_12_cm(cli, tmp_path):
    path = tmp_path / "mat.svg"
    done = cli("board", "flick", "--sides", "5", "--width", "12cm", "-o", str(path))
    assert done.code == 0, done.err
    dimes = [(x, y) for x, y, r in svg_circles(path) if abs(2 * r - DIME) < TOLERANCE]
    assert len(dimes) == 5
    assert all(abs(d - 120.0) < TOLERANCE for d in neighbour_distances(dimes))


def test_pdf_a4_mat_puts_the_dimes_150_mm_apart(cli, tmp_path):
    path = tmp_path / "mat.pdf"
    done = cli("board", "flick", "-o", str(path))
    assert done.code == 0, done.err
    pages = pdf_circles(path)
    assert len(pages) == 1  # the standard mat fits one A4 page
    dimes = [(x, y) for x, y, w, h in pages[0] if abs(w - DIME) < TOLERANCE and abs(h - DIME) < TOLERANCE]
    quarters = [(x, y) for x, y, w, h in pages[0] if abs(w - QUARTER) < TOLERANCE and abs(h - QUARTER) < TOLERANCE]
    assert len(dimes) == 4 and len(quarters) == 4
    assert all(abs(d - 150.0) < TOLERANCE for d in neighbour_distances(dimes))
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        assert abs(float(page.width) * MM_PER_PT - 210) < 0.1 and abs(float(page.height) * MM_PER_PT - 297) < 0.1
        text = page.extract_text()
    assert "5 cm" in text and "Flick mat" in text  # the scale bar and the title


def test_pdf_pentagon_tiles_and_keeps_true_size(cli, tmp_path):
    path = tmp_path / "mat.pdf"
    done = cli("board", "flick", "--sides", "5", "--width", "12cm", "-o", str(path))
    assert done.code == 0, done.err
    pages = pdf_circles(path)
    assert len(pages) >= 2  # 212 mm across does not fit an A4 page
    for shapes in pages:
        dimes = [(x, y) for x, y, w, h in shapes if abs(w - DIME) < TOLERANCE]
        for a in range(len(dimes)):  # coins on one page are a whole number of sides apart
            for b in range(a + 1, len(dimes)):
                d = math.dist(dimes[a], dimes[b])
                assert min(abs(d - 120.0), abs(d - 120.0 * 2 * math.cos(math.radians(36)))) < TOLERANCE


def test_a_bigger_paper_takes_the_pentagon_on_one_page(cli, tmp_path):
    path = tmp_path / "mat.pdf"
    assert cli("board", "flick", "--sides", "5", "--width", "12cm", "--paper", "a3", "-o", str(path)).code == 0
    pages = pdf_circles(path)
    assert len(pages) == 1
    dimes = [(x, y) for x, y, w, h in pages[0] if abs(w - DIME) < TOLERANCE]
    assert all(abs(d - 120.0) < TOLERANCE for d in neighbour_distances(dimes))


def test_same_options_give_identical_bytes(cli, tmp_path):
    for fmt in ("pdf", "svg", "geojson"):
        a, b = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
        assert cli("board", "flick", "--sides", "6", "--players", "3", "-o", str(a)).code == 0
        assert cli("board", "flick", "--sides", "6", "--players", "3", "-o", str(b)).code == 0
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize(
    "args,message",
    [
        (["--sides", "2"], "sides 2 is out of range; use 3 to 8"),
        (["--sides", "9"], "sides 9 is out of range; use 3 to 8"),
        (["--width", "-3cm"], "must be a positive length"),
        (["--width", "fifteen"], "'fifteen' is not a length"),
        (["--goal-coin", "zloty"], "unknown coin 'zloty'"),
        (["--score-coin", "zloty"], "unknown coin 'zloty'"),
        (["--players", "7"], "players 7 is out of range; use 2 to 4"),
        (["--sides", "x"], "--sides must be a whole number, not 'x'"),
    ],
)
def test_cli_bad_options_one_line_exit_2_and_no_file(cli, tmp_path, args, message):
    path = tmp_path / "mat.pdf"
    done = cli("board", "flick", *args, "-o", str(path))
    assert done.code == 2
    assert message in done.err and done.err.count("\n") == 1
    assert "Traceback" not in done.err
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_coin_outlines_follow_the_catalogue():
    for name in ("dime", "penny", "uk-2", "eur-1c"):
        layout = build(goal_coin=name)
        feature = layout.features_with_role("goal-coin")[0]
        centre = feature.shape.centroid
        ring = feature.geometry["coordinates"][0]
        assert max(abs(math.dist((centre.x, centre.y), p) - coin(name).radius_mm) for p in ring) < 1e-3


# -- drawing a position --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,in_goal", [(2, {"h1", "t2"}), (4, {"h1", "h2", "t1", "t3", "t4"}), (4, set())])
def test_a_position_puts_goal_coins_inside_and_the_rest_outside_without_overlaps(players, in_goal):
    import shapely

    from coinprint.games.flick.draw import arrange, marks_sheet
    from coinprint.games.flick.rules import FlickRules
    from coinprint.games.flick.view import FlickView

    layout = build(4, players=players)
    rules = FlickRules(layout, {})
    view = FlickView(rules)
    state = rules.initial_state()
    for name in in_goal:
        state.in_goal[name] = True
    state.faces["h1"] = "tails"  # a coin that changed sides goes where its face's coins go
    # Where the coins lie is not known (a log without shot parameters): the drawing places them.
    marks = [replace(m, at=None) for m in view.marks(state)]
    dots = arrange(layout, marks)
    assert sorted(d.label for d in dots) == sorted(state.faces)
    goal = layout.features_with_role("goal")[0].shape
    for dot in dots:
        disc = shapely.Point(dot.at).buffer(QUARTER / 2)
        assert goal.contains(disc) == (dot.label in in_goal)
        assert dot.face == state.faces[dot.label]
        if dot.label not in in_goal:
            assert disc.intersection(goal).area == 0
    for a in range(len(dots)):
        for b in range(a + 1, len(dots)):
            assert math.dist(dots[a].at, dots[b].at) >= QUARTER
    assert marks_sheet(layout, marks).content.items


def test_a_coin_whose_place_is_known_is_drawn_where_it_lies():
    from coinprint.games.flick.draw import arrange
    from coinprint.games.flick.rules import FlickRules
    from coinprint.games.flick.view import FlickView

    rules = FlickRules(build(), {})
    state = rules.initial_state()
    assert state.scene is not None
    marks = FlickView(rules).marks(state)
    lying = {c.id: (c.x, c.y) for c in state.scene.coins}
    assert {m.text: m.at for m in marks} == lying
    moved = [replace(m, at=(12.5, -3.0)) if m.text == "h1" else m for m in marks]
    assert {d.label: d.at for d in arrange(build(), moved)}["h1"] == (12.5, -3.0)


def test_an_arsenal_gives_each_player_its_coins_in_turn():
    """The seed's note 2: a player's score coins of several kinds (quarter+penny), laid out for
    the widest, each spot holding its own kind; the physics plays each coin as its kind."""
    from coinprint.games.flick.physics import scene_of

    layout = build(coins=4, arsenal="quarter+penny")
    assert layout.params["arsenal"] == "quarter+penny"
    for zone in layout.features_with_role("zone"):
        assert zone.properties["arsenal"] == ["quarter", "penny", "quarter", "penny"]
    scene = scene_of(layout)
    kinds = {c.id: c.coin.name for c in scene.coins}
    assert kinds == {
        "h1": "quarter",
        "h2": "penny",
        "h3": "quarter",
        "h4": "penny",
        "t1": "quarter",
        "t2": "penny",
        "t3": "quarter",
        "t4": "penny",
    }
    # Laid out for the widest coin: neighbouring spots a quarter and a gap apart, as plain quarters.
    plain = build(coins=4).features_with_role("zone")[0].properties["spots"]
    assert layout.features_with_role("zone")[0].properties["spots"] == plain
    assert "arsenal" not in build(coins=4).params  # a mat without one is as before


@pytest.mark.parametrize("arsenal", ["quarter", "quarter+", "quarter+penny+dime+nickel+quarter", "quarter+doubloon"])
def test_a_bad_arsenal_is_refused_in_one_line(arsenal):
    with pytest.raises(UsageError) as refused:
        build(arsenal=arsenal)
    assert "\n" not in str(refused.value) and ("arsenal" in str(refused.value) or "unknown coin" in str(refused.value))
