"""Flick on the studio's game table, in headless Chromium: the mat at its true proportions, a
shot made by pulling a coin back (a sling) with the mouse and with a finger, the coins sliding
as the physics moves them, the computer answering with its own shots, and the game downloaded
as a record that ``validate game`` accepts; the sling by keyboard; hostile shots over HTTP."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install -e '.[test]')")

import httpx2 as httpx

from coinprint.games.flick.board import build
from tests.test_studio import run
from tests.test_studio_server import AUTH
from tests.test_studio_table import _game, _ready, _wait, needs_a_browser, table_in_a_browser  # noqa: F401

GAIN = 4
"""The sling's pull: the coin would stop this many times the pull away (sling.js)."""


def _start_flick(driver, base: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver.get(f"{base}/play?game=flick")
    _wait(driver).until(lambda d: d.find_element(By.ID, "setup").get_attribute("open"))
    Select(driver.find_element(By.ID, "seat")).select_by_value("heads")
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)
    _wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .coin[data-coin]") and _settled(d))


def _settled(driver) -> bool:
    """The person is to move (or the game is over) and the last shot has slid to rest."""
    if not _ready(driver):
        return False
    animated = driver.execute_script("return document.getElementById('board').dataset.animated;")
    return animated == str(len(_game(driver)["moves"]))


def _screen_offset(driver, svg, x: float, y: float) -> tuple[int, int]:
    """A point of the table (its mm) as an offset from the centre of the board's picture."""
    return driver.execute_script(
        "const svg = arguments[0]; const p = svg.createSVGPoint(); p.x = arguments[1]; p.y = arguments[2];"
        "const q = p.matrixTransform(svg.getScreenCTM()); const box = svg.getBoundingClientRect();"
        "return [Math.round(q.x - box.left - box.width / 2), Math.round(q.y - box.top - box.height / 2)];",
        svg,
        x,
        y,
    )


def _sling(driver, touch: bool) -> dict:
    """Pull the person's first coin straight back from the goal's middle, as far as makes it
    stop there; the shot the page sent."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By

    game = _game(driver)
    board = driver.execute_script("return TABLE.board;")
    coin = next(p for p in game["pieces"] if p["side"] == game["turn"] and p["space"] != "goal" and "x" in p)
    goal = board["facts"]["polygon"]
    gx, gy = sum(p[0] for p in goal) / len(goal), sum(p[1] for p in goal) / len(goal)
    away = math.dist((coin["x"], coin["y"]), (gx, gy))
    ux, uy = (coin["x"] - gx) / away, (coin["y"] - gy) / away
    pull = away / GAIN
    svg = driver.find_element(By.CSS_SELECTOR, "#board svg")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", svg)
    start = _screen_offset(driver, svg, coin["x"], coin["y"])
    end = _screen_offset(driver, svg, coin["x"] + ux * pull, coin["y"] + uy * pull)
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    actions = ActionBuilder(driver, mouse=PointerInput(kind, "hand"))
    actions.pointer_action.move_to(svg, *start).pointer_down()
    for k in range(1, 6):  # a drag, not a jump
        actions.pointer_action.move_to(
            svg, start[0] + (end[0] - start[0]) * k // 5, start[1] + (end[1] - start[1]) * k // 5
        )
    actions.pointer_action.pointer_up()
    before = len(game["moves"])
    actions.perform()
    _wait(driver).until(lambda d: len(_game(d)["moves"]) > before or d.find_element(By.ID, "table-error").text)
    assert driver.find_element(By.ID, "table-error").text == ""
    made = _game(driver)["moves"][before]
    assert made["player"] == game["turn"]
    return made["move"]


@needs_a_browser
def test_flick_is_played_with_a_sling_and_downloads_a_record_that_validates(
    table_in_a_browser,  # noqa: F811  (the fixture, imported above)
    tmp_path: Path,
):
    from selenium.webdriver.common.by import By

    base, driver, touch = table_in_a_browser
    _start_flick(driver, base)
    board = driver.execute_script("return TABLE.board;")
    # The mat at its true proportions: the goal's sides as long as the mat says (the table is in mm).
    width = build().features_with_role("goal")[0].properties["width_mm"]
    goal = board["facts"]["polygon"]
    sides = [math.dist(goal[k], goal[(k + 1) % len(goal)]) for k in range(len(goal))]
    assert all(abs(side - width) < 0.01 for side in sides), (sides, width)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg .feature.goal-coin")) == 4
    shots = 0
    while not _game(driver)["over"] and shots < 12:
        shot = _sling(driver, touch)
        assert shot["shot"] == "heads" and {"at", "direction", "speed"} <= set(shot)
        shots += 1
        _wait(driver).until(_settled)
    game = _game(driver)
    assert shots >= 1 and any(m["player"] == "tails" for m in game["moves"]), "the computer shot too"
    record = httpx.get(f"{base}/api/play/{game['id']}/record", headers=AUTH, timeout=120).json()
    path = tmp_path / "flick.json"
    path.write_text(json.dumps(record))
    code, output = run("validate", "game", str(path))
    assert code == 0 and ": valid: " in output, output


# -- over HTTP ----------------------------------------------------------------------------------------
@pytest.fixture
def client():
    from starlette.testclient import TestClient

    from coinprint.studio.app import create_app
    from coinprint.studio.state import Studio
    from tests.test_studio import BASE, TOKEN

    app = create_app(Studio(TOKEN))
    return TestClient(app, base_url=BASE, headers={"authorization": f"token {TOKEN}"}, raise_server_exceptions=False)


def _flick(client) -> dict:
    start = client.post("/api/play", json={"game": "flick", "opponent": "aim", "seat": "heads", "seed": 3})
    assert start.status_code == 201, start.text
    return start.json()


def test_a_shot_is_played_through_and_slides_at_the_physics_pace(client) -> None:
    """A person's shot is the record's shot event with its parameters; the table's events after
    it are played by themselves; the page gets the coins' places every 40 ms of the shot."""
    from coinprint.games.flick.physics import Shot, scene_of, simulate

    state = _flick(client)
    shot = state["legal"][0]
    assert {"at", "direction", "speed"} <= set(shot)
    after = client.post(f"/api/play/{state['id']}/move", json={"move": shot})
    assert after.status_code == 200, after.text
    played = after.json()
    heads_moves = [m for m in played["moves"] if m["player"] == "heads"]
    assert heads_moves[0]["move"] == shot and heads_moves[-1]["move"] == {"stop": True}
    outcome = simulate(scene_of(build()), Shot(shot["coin"], *shot["at"], shot["direction"], shot["speed"]), "heads")
    assert [m["move"] for m in heads_moves] == outcome.events  # the physics' own log, whole
    assert len(played["motion"]) == outcome.steps // 40
    assert played["turn"] == "tails" and played["computer_to_move"]
    # Undo takes the whole shot back, the table's events with it.
    undone = client.post(f"/api/play/{state['id']}/undo").json()
    assert undone["moves"] == [] and undone["turn"] == "heads"


@pytest.mark.parametrize(
    "change,why",
    [
        ({"speed": 1e9}, "speed must be above 0 and at most"),
        ({"speed": 0}, "speed must be above 0"),
        ({"at": [0.0, 0.0]}, "starts inside the goal"),
        ({"at": [0.0, -1e7]}, "off the table"),
        ({"direction": "north"}, "direction"),
        ({"at": "here"}, "at"),
    ],
)
def test_a_hostile_shot_gets_one_line(client, change: dict, why: str) -> None:
    from tests.test_studio import one_line_error

    state = _flick(client)
    shot = {**state["legal"][0], **change}
    message = one_line_error(client.post(f"/api/play/{state['id']}/move", json={"move": shot}), 422)
    assert why in message


def test_a_shot_onto_another_coin_gets_one_line(client) -> None:
    from tests.test_studio import one_line_error

    state = _flick(client)
    mine, other = state["pieces"][0], state["pieces"][1]
    board = client.get(f"/api/play/{state['id']}/table").json()
    dx, dy = board["shift"]
    at = [other["x"] - dx, board["height"] - other["y"] - dy]  # where h2 lies, in the layout's frame
    shot = {"shot": "heads", "coin": mine["text"], "at": at, "direction": 90.0, "speed": 1.0}
    assert "overlap" in one_line_error(client.post(f"/api/play/{state['id']}/move", json={"move": shot}), 422)


@needs_a_browser
def test_the_sling_works_from_the_keyboard(table_in_a_browser) -> None:  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base, driver, _ = table_in_a_browser
    _start_flick(driver, base)
    before = len(_game(driver)["moves"])
    board = driver.find_element(By.ID, "board")
    driver.execute_script("arguments[0].focus();", board)
    keys = ActionChains(driver).send_keys("c")
    for _ in range(10):
        keys = keys.send_keys(Keys.ARROW_UP)  # a longer pull: a faster shot
    keys.perform()
    said = driver.find_element(By.ID, "announce").text
    assert "m/s" in said and "aim" in said, said
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    _wait(driver).until(lambda d: len(_game(d)["moves"]) > before)
    shot = _game(driver)["moves"][before]["move"]
    assert shot["shot"] == "heads" and shot["speed"] > 0
