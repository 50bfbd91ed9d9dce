"""The Map drawn together on the studio's table: arcs drawn by hand with pointer events in
headless Chromium (a mouse at 1366×900, a finger at 390×844), judged live (the would-be country
shaded, its neighbours and the coin's fit shown, a refused line in red with its reason, rubbed
out by drawing back, trimmed, taken back), the computer drawing its own, then the chase played
by pointing, and the game downloaded as one record that ``validate game`` accepts; over HTTP,
the live preview and hostile arcs."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install -e '.[test]')")

import httpx2 as httpx
import shapely

from tests.test_studio import run
from tests.test_studio_server import AUTH
from tests.test_studio_table import _game, _ready, _wait, needs_a_browser, play_by_pointing, table_in_a_browser  # noqa: F401

SMALL_DRAWN = "mapgame:countries=5,draw=1"
"""A drawn game kept short: O draws countries 2 and 4, X 3 and 5 (none can border more than four)."""
CLEARANCE_MM = 30.0
"""How far beyond the whole map the test's arcs swing round: room for the coin, and no crossing."""


def _start_drawing(driver, base: str, seat: str = "O", opponent: str = "greedy") -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver.get(f"{base}/play?game=mapgame&layout={quote(SMALL_DRAWN)}")
    _wait(driver).until(lambda d: d.find_element(By.ID, "setup").get_attribute("open"))
    # The set-up offers the map drawn together among its boards.
    offered = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "board-choice")).options]
    assert "mapgame:draw=1" in offered, offered
    Select(driver.find_element(By.ID, "seat")).select_by_value(seat)
    Select(driver.find_element(By.ID, "opponent")).select_by_value(opponent)
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)
    _wait(driver).until(lambda d: _drawing_ready(d) or (_game(d) and _game(d)["over"]))


def _drawing_ready(driver) -> bool:
    """A person is to draw and the table shows the board of the position."""
    if not _ready(driver):
        return False
    return bool(
        driver.execute_script(
            "return TABLE && TABLE_ID === `${GAME.id} ${GAME.board_key}` && TABLE.board.interaction === 'draw';"
        )
    )


def _screen(driver, svg, points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """Points of the table (its mm) as offsets from the centre of the board's picture."""
    return driver.execute_script(
        "const svg = arguments[0]; const m = svg.getScreenCTM(); const box = svg.getBoundingClientRect();"
        "return arguments[1].map(([x, y]) => { const p = svg.createSVGPoint(); p.x = x; p.y = y;"
        "const q = p.matrixTransform(m); return [Math.round(q.x - box.left - box.width / 2), Math.round(q.y - box.top - box.height / 2)]; });",
        svg,
        [list(p) for p in points],
    )


def _stroke(driver, points: list[tuple[float, float]], touch: bool, *, release: bool = True) -> None:
    """Press at the first point (table mm), move through the others and let go at the last."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By

    svg = driver.find_element(By.CSS_SELECTOR, "#board svg")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", svg)
    offsets = _screen(driver, svg, points)
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    actions = ActionBuilder(driver, mouse=PointerInput(kind, "hand"), duration=10)
    actions.pointer_action.move_to(svg, *offsets[0]).pointer_down()
    for offset in offsets[1:]:
        actions.pointer_action.move_to(svg, *offset)
    if release:
        actions.pointer_action.pointer_up()
    actions.perform()


def _outline(driver) -> list[tuple[float, float]]:
    return [tuple(p) for p in driver.execute_script("return TABLE.board.facts.polygon;")]


def _centre(driver) -> tuple[float, float]:
    """The circle's centre on the table (the layout's 0, 0)."""
    board = driver.execute_script("return TABLE.board;")
    return board["shift"][0], board["height"] - board["shift"][1]


def _swing(driver, turn_degrees: float = 80.0) -> list[tuple[float, float]]:
    """An arc a person might draw: from a point of the outline straight out, round the whole
    map at CLEARANCE_MM beyond it, and back in to another point of the outline; both straight
    legs meet the map only at their ends."""
    outline = _outline(driver)
    cx, cy = _centre(driver)
    land = shapely.Polygon(outline)
    far = max(math.dist((cx, cy), p) for p in outline) + CLEARANCE_MM

    def leg(point: tuple[float, float]) -> tuple[float, float] | None:
        angle = math.atan2(point[1] - cy, point[0] - cx)
        out = (cx + far * math.cos(angle), cy + far * math.sin(angle))
        line = shapely.LineString([point, out])
        inside = line.intersection(land)
        return out if inside.length < 0.05 and line.intersection(land.exterior).length < 0.05 else None

    angles = {k: math.atan2(p[1] - cy, p[0] - cx) for k, p in enumerate(outline)}
    for first in sorted(range(len(outline)), key=lambda k: -math.dist((cx, cy), outline[k])):
        first_out = leg(outline[first])
        if first_out is None:
            continue
        want = angles[first] + math.radians(turn_degrees)
        ranked = sorted(angles, key=lambda k: abs(math.remainder(angles[k] - want, 2 * math.pi)))
        for second in ranked[:12]:
            second_out = leg(outline[second])
            if second_out is None or second == first:
                continue
            sweep = math.remainder(angles[second] - angles[first], 2 * math.pi)
            steps = max(4, int(abs(sweep) * far / 4))
            round_ = [
                (
                    cx + far * math.cos(angles[first] + sweep * k / steps),
                    cy + far * math.sin(angles[first] + sweep * k / steps),
                )
                for k in range(steps + 1)
            ]
            return [
                outline[first],
                *_line(outline[first], first_out),
                *round_,
                *_line(second_out, outline[second]),
                outline[second],
            ]
    raise AssertionError("no outline point has a clear way out")


def _line(a: tuple[float, float], b: tuple[float, float], step: float = 4.0) -> list[tuple[float, float]]:
    count = max(1, int(math.dist(a, b) / step))
    return [(a[0] + (b[0] - a[0]) * k / count, a[1] + (b[1] - a[1]) * k / count) for k in range(1, count + 1)]


def _draw_state(driver) -> str:
    return driver.execute_script("return document.getElementById('board').dataset.drawState;")


@needs_a_browser
def test_a_map_is_drawn_by_hand_then_chased_and_downloads_one_record_that_validates(
    table_in_a_browser,  # noqa: F811  (the fixture, imported above)
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By

    base, driver, touch = table_in_a_browser
    _start_drawing(driver, base)
    drawn = 0
    while not _game(driver)["over"] and _game(driver)["board_key"].startswith("draw"):
        before = len(_game(driver)["moves"])
        _stroke(driver, _swing(driver), touch)
        _wait(driver).until(
            lambda d, before=before: len(_game(d)["moves"]) > before or d.find_element(By.ID, "table-error").text
        )
        assert driver.find_element(By.ID, "table-error").text == ""
        drawn += 1
        _wait(driver).until(lambda d: _drawing_ready(d) or _game(d)["board_key"].startswith("pick"))
    game = _game(driver)
    arcs = [m for m in game["moves"] if str(m["move"]).startswith("arc")]
    assert drawn == 2 and len(arcs) == 4, game["moves"]
    assert [m["player"] for m in arcs] == ["O", "X", "O", "X"]
    # The chase, on the map drawn: pointed at country by country.
    _wait(driver).until(lambda d: _ready(d) and d.execute_script("return TABLE.board.interaction;") == "pick")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg .space")) == 5
    play_by_pointing(driver, touch, random.Random(5))
    game = _game(driver)
    assert game["over"]
    record = httpx.get(f"{base}/api/play/{game['id']}/record", headers=AUTH, timeout=120).json()
    assert record["layout"] == SMALL_DRAWN and record["players"] == {"O": "person", "X": "greedy"}
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(record))
    code, output = run("validate", "game", str(path))
    assert code == 0 and ": valid: " in output, output


@needs_a_browser
def test_a_line_is_judged_while_it_is_drawn_and_a_refused_one_can_be_rubbed_out_trimmed_and_taken_back(
    table_in_a_browser,  # noqa: F811
) -> None:
    from selenium.webdriver.common.by import By

    base, driver, touch = table_in_a_browser
    _start_drawing(driver, base, opponent="")  # a friend on the same screen
    swing = _swing(driver)
    # Half the swing, let go in the air: the would-be country (closed by a dashed line to the
    # outline) is judged live, and the line waits to be gone on with.
    _stroke(driver, swing[: len(swing) // 2], touch)
    _wait(driver).until(lambda d: _draw_state(d) in ("ok", "refused"))
    status = driver.find_element(By.ID, "draw-status").text
    assert "country 2 borders 1 of at most 4: 1" in status and "mm across" in status, status
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg .draw-country.ok")
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg .draw-closing")
    before = len(_game(driver)["moves"])
    assert before == 0
    driver.find_element(By.ID, "draw-clear").click()
    _wait(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#board svg .draw-stroke"))
    # A small bump on the circle: the coin cannot fit, the line turns red with the figure, and
    # nothing is played.
    cx, cy = _centre(driver)
    radius = math.dist((cx, cy), _outline(driver)[0])

    def at(degrees: float, reach: float) -> tuple[float, float]:
        return (cx + reach * math.cos(math.radians(degrees)), cy + reach * math.sin(math.radians(degrees)))

    bump = [at(a, radius + (0.0 if a in (0, 16) else 4.0)) for a in range(0, 17, 2)]
    _stroke(driver, [bump[0], *_line(bump[0], bump[1], 1.0), *bump[2:-1], *_line(bump[-2], bump[-1], 1.0)], touch)
    _wait(driver).until(lambda d: d.find_element(By.ID, "table-error").text)
    error = driver.find_element(By.ID, "table-error").text
    assert error.startswith("arc for country 2: the coin does not fit:") and "21.2 mm is needed" in error, error
    assert _draw_state(driver) == "refused"
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg .draw-stroke.refused")
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg .draw-country.refused")
    assert len(_game(driver)["moves"]) == 0
    # Trimmed, the line ends in the air again; taken back, it is gone.
    driver.find_element(By.ID, "draw-trim").click()
    _wait(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#board svg .draw-stroke.refused"))
    driver.find_element(By.ID, "draw-clear").click()
    _wait(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#board svg .draw-stroke"))
    # Drawing back along a line rubs it out to where the pointer came back to.
    start = at(0, radius)
    away, back = at(0, radius + 40.0), at(0, radius + 15.0)
    _stroke(driver, [start, *_line(start, away, 1.0), *_line(away, back, 1.0)], touch)
    reach = driver.execute_script(
        "const d = document.querySelector('#board svg .draw-stroke').getAttribute('d');"
        "return Math.max(...d.slice(1).split(' L').map((p) => Number(p.split(',')[0])));"
    )
    assert reach < cx + radius + 20.0, (reach, cx + radius)
    driver.find_element(By.ID, "draw-clear").click()
    # Then the whole swing is drawn and played, for O; X (the friend) is to draw next.
    _stroke(driver, swing, touch)
    _wait(driver).until(lambda d: len(_game(d)["moves"]) > 0 and _drawing_ready(d))
    game = _game(driver)
    assert game["moves"][0]["player"] == "O" and game["turn"] == "X"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg .space")) == 2


@needs_a_browser
def test_an_arc_is_drawn_from_the_keyboard(table_in_a_browser) -> None:  # noqa: F811
    """P shows an arc the computer would draw (judged, shaded), Enter draws it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base, driver, _ = table_in_a_browser
    _start_drawing(driver, base)
    before = len(_game(driver)["moves"])
    board = driver.find_element(By.ID, "board")
    driver.execute_script("arguments[0].focus();", board)
    ActionChains(driver).send_keys("p").perform()
    assert "the computer would draw" in driver.find_element(By.ID, "announce").text
    _wait(driver).until(lambda d: _draw_state(d) == "ok")
    proposed = _game(driver)["legal"][0]
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    _wait(driver).until(lambda d: len(_game(d)["moves"]) > before)
    assert _game(driver)["moves"][before]["move"] == proposed


# -- over HTTP ----------------------------------------------------------------------------------------
@pytest.fixture
def client():
    from starlette.testclient import TestClient

    from coinprint.studio.app import create_app
    from coinprint.studio.state import Studio
    from tests.test_studio import BASE, TOKEN

    app = create_app(Studio(TOKEN))
    return TestClient(app, base_url=BASE, headers={"authorization": f"token {TOKEN}"}, raise_server_exceptions=False)


def _drawn_game(client) -> dict:
    start = client.post("/api/play", json={"game": "mapgame", "layout": SMALL_DRAWN, "opponent": None, "seed": 2})
    assert start.status_code == 201, start.text
    return start.json()


def _polygon(d: str) -> shapely.Polygon:
    """An SVG path of one closed ring (``M x,y L x,y … Z``) as a polygon."""
    points = [tuple(float(v) for v in pair.split(",")) for pair in d.removeprefix("M").removesuffix(" Z").split(" L")]
    return shapely.Polygon(points)


def test_the_preview_shows_the_country_an_arc_draws_and_the_table_grows_by_it(client) -> None:
    state = _drawn_game(client)
    board = client.get(f"/api/play/{state['id']}/table").json()
    assert board["interaction"] == "draw" and len(board["spaces"]) == 1
    facts = board["facts"]
    # The outline to draw from is the circle: every point at one distance from its centre.
    centre = (board["shift"][0], board["height"] - board["shift"][1])
    radii = [math.dist(centre, p) for p in facts["polygon"]]
    assert max(radii) - min(radii) < 0.01 and facts["need_mm"] == 21.21 and facts["max_neighbours"] == 4
    arc = state["legal"][0]
    shown = client.post(f"/api/play/{state['id']}/preview", json={"move": arc})
    assert shown.status_code == 200, shown.text
    preview = shown.json()
    assert preview["ok"] and preview["refusal"] is None and preview["spaces"] == ["c1"]
    assert preview["lines"][0] == "country 2 borders 1 of at most 4: 1" and "the coin fits" in preview["lines"][1]
    # The preview is not a move: nothing was played.
    assert client.get(f"/api/play/{state['id']}").json()["moves"] == []
    played = client.post(f"/api/play/{state['id']}/move", json={"move": arc}).json()
    assert played["board_key"] != state["board_key"] and played["last"]["picks"] == ["c2"]
    assert played["last"]["words"] == "draws country 2" and played["moves"][0]["words"] == "draws country 2"
    grown = client.get(f"/api/play/{state['id']}/table").json()
    drawn = next(space for space in grown["spaces"] if space["id"] == "c2")
    # The country drawn is the one the preview shaded, in the same place on the table.
    shaded, country = _polygon(preview["d"]), _polygon(drawn["d"])
    assert grown["width"] == board["width"] and grown["shift"] == board["shift"]
    assert shaded.symmetric_difference(country).area < 0.01 * country.area
    assert country.intersection(_polygon(board["spaces"][0]["d"])).area < 0.01  # outside the circle


def test_a_refused_arc_is_previewed_with_its_reason_and_refused_as_a_move(client) -> None:
    state = _drawn_game(client)
    board = client.get(f"/api/play/{state['id']}/table").json()
    outline = board["facts"]["polygon"]
    dx, dy, height = board["shift"][0], board["shift"][1], board["height"]
    layout = [(x - dx, height - y - dy) for x, y in outline]  # the circle in the layout's frame
    r = math.dist((0, 0), layout[0])

    def at(degrees: float, reach: float) -> str:
        a = math.radians(degrees)
        return f"{reach * math.cos(a):.4f},{reach * math.sin(a):.4f}"

    bump = "arc " + " ".join(at(a, r + (0 if a in (0, 20) else 3)) for a in range(0, 21, 4))
    preview = client.post(f"/api/play/{state['id']}/preview", json={"move": bump}).json()
    assert (
        not preview["ok"]
        and preview["d"]
        and preview["refusal"].startswith("arc for country 2: the coin does not fit: ")
    )
    assert "21.2 mm is needed" in preview["refusal"]
    from tests.test_studio import one_line_error

    message = one_line_error(client.post(f"/api/play/{state['id']}/move", json={"move": bump}), 422)
    assert "the coin does not fit" in message


@pytest.mark.parametrize(
    "arc,why",
    [
        ("arc 20,0", "an arc has 2 to 2000 points, not 1"),
        ("arc " + " ".join(f"{k % 90},{k % 7}" for k in range(1_000_000)), "an arc has 2 to 2000 points"),
        ("arc nan,0 30,30", "is not an arc"),
        ("arc 1e999,0 30,30", "not a number"),
        ("arc 15.09,0 40,10 40,-10 30,10 15.09,5", "crosses itself"),
        ("arc 15.09,0 5000,0 15.09,3", "runs off the page"),
        ("arc 15.0,0 25,0 0,25 -25,0 0,-25 15,-1", "crosses or touches the map"),
        ("arc 15.0865,0 45,0 0,45 -45,0 0,-45 15.0865,0", "two ends meet at one point"),  # encloses the map
        ("arc 0,0 40,40", "must start on the map's outline"),
        (7, "an arc is text"),
    ],
)
def test_a_hostile_arc_gets_one_line_and_never_a_traceback(client, arc, why: str) -> None:
    from tests.test_studio import one_line_error

    state = _drawn_game(client)
    message = one_line_error(client.post(f"/api/play/{state['id']}/move", json={"move": arc}), 422)
    assert why in message
    preview = client.post(f"/api/play/{state['id']}/preview", json={"move": arc})
    if preview.status_code == 200:  # read as an arc: judged, and refused with the same words
        assert not preview.json()["ok"] and preview.json()["refusal"] in message
    else:
        assert why in one_line_error(preview, 422)
    assert client.get(f"/api/play/{state['id']}").json()["moves"] == []


def test_the_chase_follows_the_drawing_on_the_same_table(client) -> None:
    """Both seats draw (friends at one screen); once the map is whole the table is the chase's:
    pointed at, with the map drawn, and the record holds both phases and validates."""
    state = _drawn_game(client)
    while state["board_key"].startswith("draw"):
        state = client.post(f"/api/play/{state['id']}/move", json={"move": state["legal"][0]}).json()
    board = client.get(f"/api/play/{state['id']}/table").json()
    assert board["interaction"] == "pick" and len(board["spaces"]) == 5 and board["facts"] == {}
    assert state["picks"] and all(way for ways in state["picks"] for way in ways)
    assert client.post(f"/api/play/{state['id']}/preview", json={"move": state["legal"][0]}).status_code == 422
    while not state["over"]:
        state = client.post(f"/api/play/{state['id']}/move", json={"move": state["legal"][0]}).json()
    record = client.get(f"/api/play/{state['id']}/record").json()
    assert [m.startswith("arc") for m in record["moves"][:4]] == [True] * 4
    assert not record["moves"][4].startswith("arc")
