"""The Play page's game table in headless Chromium: whole games of Coin Table, Coin Age and the
Map played by pointing at the board and its trays only (no notation), with a mouse at
1366×900 and with touch at 390×844; a reload in the middle of a game and Back from its replay
page continue it; the board is drawn for play (labels readable, coins sized by denomination)."""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install -e '.[test]')")

import httpx2 as httpx

from coinprint.studio.state import Studio
from tests import browser
from tests.test_studio_server import AUTH, TOKEN, running

needs_a_browser = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))

SMALL = {
    "cointable": "cointable:size=3",
    "coinage": "",
    "mapgame": "mapgame:countries=7,seed=4",
}
"""Layouts that keep a whole game short."""
SCREENS = {"laptop": (1366, 900, False), "phone": (390, 844, True)}
"""Window sizes, and whether the board is tapped (touch events) rather than clicked."""


@pytest.fixture(scope="module", params=list(SCREENS))
def table_in_a_browser(request):
    if browser.missing() is not None:
        pytest.skip(str(browser.missing()))
    width, height, touch = SCREENS[request.param]
    with running(Studio(TOKEN, [])) as base, browser.chromium(width, height) as driver:
        if touch:
            browser.as_phone(driver, width, height)
        driver.get(f"{base}/?token={TOKEN}")
        assert driver.execute_script("return window.innerWidth;") == width
        yield base, driver, touch


def _wait(driver, seconds: float = 90):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds)


def _game(driver) -> dict | None:
    return driver.execute_script("return typeof GAME === 'undefined' ? null : GAME;")


def _ready(driver) -> bool:
    """A person is to move on the table (the computer has answered, nothing is pending), or
    the game is over."""
    game = _game(driver)
    if game is None:
        return False
    shown = driver.execute_script("return document.body.dataset.moves") == str(len(game["moves"]))
    busy = driver.execute_script("return BUSY;")
    return shown and not busy and (game["over"] or not game["computer_to_move"])


def _start(driver, base: str, game: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    layout = SMALL[game]
    driver.get(f"{base}/play?game={game}" + (f"&layout={quote(layout)}" if layout else ""))
    # With no game in the address the page opens its set-up once its script is ready.
    _wait(driver).until(lambda d: d.find_element(By.ID, "setup").get_attribute("open"))
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)  # a preview redrawn above cannot move it
    _wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .space") and _ready(d))


def _point_at_space(driver, space: str, touch: bool) -> None:
    """Click (or tap) the board where the space's label point is, as a person would."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By

    svg = driver.find_element(By.CSS_SELECTOR, "#board svg")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", svg)
    dx, dy = driver.execute_script(
        "const svg = arguments[0], s = TABLE.spaces.get(arguments[1]);"
        "const p = svg.createSVGPoint(); p.x = s.x; p.y = s.y;"
        "const q = p.matrixTransform(svg.getScreenCTM()); const box = svg.getBoundingClientRect();"
        "return [Math.round(q.x - box.left - box.width / 2), Math.round(q.y - box.top - box.height / 2)];",
        svg,
        space,
    )
    if touch:
        actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to(svg, dx, dy).pointer_down().pointer_up()
        actions.perform()
    else:
        ActionChains(driver).move_to_element_with_offset(svg, dx, dy).click().perform()


def _point_at(driver, pick: str, touch: bool) -> None:
    """Point at one pick: a space on the board, a coin of a tray, or a choice's button."""
    from selenium.webdriver.common.by import By

    if driver.execute_script("return TABLE.spaces.has(arguments[0]);", pick):
        _point_at_space(driver, pick, touch)
        return
    selector = f'#trays button[data-pick="{pick}"], #choices button[data-pick="{pick}"]'
    button = _wait(driver, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, selector))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def play_by_pointing(driver, touch: bool, rng: random.Random) -> int:
    """Play the person's moves of a whole game by pointing only; the number of moves played."""
    for _ in range(400):
        _wait(driver).until(_ready)
        game = _game(driver)
        if game["over"]:
            return len(game["moves"])
        index = rng.randrange(len(game["legal"]))
        _make_move(driver, touch, rng.choice(game["picks"][index]), len(game["moves"]))
    raise AssertionError("the game did not end in 400 turns")


def _make_move(driver, touch: bool, way: list[str], before: int) -> None:
    """Point at each pick of ``way`` in turn (ending the turn when it could go on) until the
    table plays the move."""
    from selenium.webdriver.common.by import By

    body, board = driver.find_element(By.TAG_NAME, "body"), driver.find_element(By.ID, "board")

    def played(_driver=None) -> bool:
        return int(body.get_attribute("data-moves")) > before or bool(driver.execute_script("return BUSY;"))

    for count, pick in enumerate(way, start=1):
        if played():  # one move left: the table played it without the rest of the way
            break
        _point_at(driver, pick, touch)
        # A tap's click comes after the touch ends: wait until the table has taken the pick.
        _wait(driver).until(lambda d, count=count: played() or board.get_attribute("data-picks") == str(count))
    _wait(driver).until(lambda d: played() or d.find_elements(By.ID, "end-turn"))
    if not played():  # a turn that could go on (Coin Age): end it here
        driver.find_element(By.ID, "end-turn").click()
    _wait(driver).until(lambda d: int(body.get_attribute("data-moves")) > before)
    assert driver.find_element(By.ID, "table-error").text == ""


@needs_a_browser
@pytest.mark.slow
@pytest.mark.parametrize("game", list(SMALL))
def test_a_whole_game_is_played_by_pointing_at_the_board(table_in_a_browser, game: str, tmp_path: Path) -> None:
    from click.testing import CliRunner
    from selenium.webdriver.common.by import By

    from coinprint.cli import cli

    base, driver, touch = table_in_a_browser
    _start(driver, base, game)
    assert driver.find_element(By.ID, "notation").get_attribute("open") is None  # the notation stays folded
    moves = play_by_pointing(driver, touch, random.Random(game))
    assert moves > 0
    assert "The game is over" in driver.find_element(By.ID, "turn").text
    assert driver.find_element(By.ID, "rematch").is_displayed()
    record = httpx.get(driver.find_element(By.ID, "record").get_attribute("href"), headers=AUTH)
    path = tmp_path / "record.json"
    path.write_bytes(record.content)
    result = CliRunner().invoke(cli, ["validate", "game", str(path)], standalone_mode=False)
    assert result.return_value == 0 and ": valid: " in result.output
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


@needs_a_browser
def test_a_reload_and_back_from_the_replay_page_continue_the_game(table_in_a_browser) -> None:
    from selenium.webdriver.common.by import By

    base, driver, touch = table_in_a_browser
    _start(driver, base, "cointable")
    game = _game(driver)
    _point_at(driver, game["picks"][0][0][0], touch)  # a place: one pick plays it
    _wait(driver).until(lambda d: _ready(d) and len(_game(d)["moves"]) == 2)
    playing = _game(driver)["id"]
    driver.refresh()
    _wait(driver).until(lambda d: _ready(d) and _game(d)["id"] == playing and len(_game(d)["moves"]) == 2)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg .coin")) == 2
    driver.get(driver.find_element(By.ID, "replay").get_attribute("href"))
    _wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg#board"))
    driver.back()
    _wait(driver).until(lambda d: _ready(d) and _game(d)["id"] == playing and len(_game(d)["moves"]) == 2)
    driver.get(driver.find_element(By.ID, "replay").get_attribute("href"))  # the replay page has the menu
    _wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg#board"))
    driver.find_element(By.ID, "back-to-game").click()
    _wait(driver).until(lambda d: _ready(d) and _game(d)["id"] == playing and len(_game(d)["moves"]) == 2)
    driver.get(f"{base}/replay")  # the Replay page lists it to continue
    link = _wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#in-progress a"))
    assert playing in link.get_attribute("href")


@needs_a_browser
def test_the_board_is_drawn_for_play(table_in_a_browser) -> None:
    from selenium.webdriver.common.by import By

    base, driver, _ = table_in_a_browser
    _start(driver, base, "coinage")
    width = driver.execute_script("return window.innerWidth;")
    heights = driver.execute_script(
        "return [...document.querySelectorAll('#board svg text.label')].map(t => t.getBoundingClientRect().height);"
    )
    assert min(heights) >= (12 if width > 800 else 9), heights  # the review measured 8 px (2 px on a phone)
    board_top = driver.find_element(By.CSS_SELECTOR, "#board svg").rect["y"]
    assert board_top < driver.execute_script("return window.innerHeight;") / 2  # first on the page, phone too
    fills = set(
        driver.execute_script(
            "return [...document.querySelectorAll('#board .space')].map(p => p.getAttribute('fill'));"
        )
    )
    assert len(fills) >= 3  # the regions in their printed colours
    sizes = driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#trays button[data-pick] svg > g > circle:first-of-type')]"
        ".map(c => [c.closest('button').dataset.pick, c.getBoundingClientRect().width]));"
    )
    assert sizes["bank:Q"] > sizes["bank:N"] > sizes["bank:P"] > sizes["bank:D"]


@needs_a_browser
@pytest.mark.parametrize("game", list(SMALL))
def test_the_table_in_play_has_no_serious_accessibility_violation(table_in_a_browser, game: str) -> None:
    from tests.test_studio_accessibility import AXE

    base, driver, _ = table_in_a_browser
    _start(driver, base, game)
    driver.set_script_timeout(120)
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map("
        "v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))));"
    )
    serious = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not serious, serious


@needs_a_browser
def test_a_move_is_made_with_the_keyboard_and_announced(table_in_a_browser) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base, driver, _ = table_in_a_browser
    _start(driver, base, "mapgame")
    board = driver.find_element(By.ID, "board")
    targets = {way[0] for ways in _game(driver)["picks"] for way in ways}
    driver.execute_script("arguments[0].focus();", board)
    for _ in range(60):  # arrow keys walk the spaces until one a move goes to is in focus
        if driver.execute_script("return TABLE.focused;") in targets:
            break
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT if _ % 8 < 4 else Keys.ARROW_DOWN).perform()
    focused = driver.execute_script("return TABLE.focused;")
    assert focused in targets
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    _wait(driver).until(lambda d: _ready(d) and len(_game(d)["moves"]) >= 2)
    assert driver.find_element(By.ID, "announce").text.startswith("X played move")


@needs_a_browser
def test_stop_and_new_game_work_while_the_computer_thinks(table_in_a_browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    base, driver, _ = table_in_a_browser
    driver.get(f"{base}/play?game=coinage")
    # With no game in the address the page opens its set-up once its script is ready.
    _wait(driver).until(lambda d: d.find_element(By.ID, "setup").get_attribute("open"))
    Select(driver.find_element(By.ID, "opponent")).select_by_value("custom")
    summary = driver.find_element(By.CSS_SELECTOR, "#play-form details.advanced summary")
    summary.send_keys(Keys.ENTER)  # by keyboard: a layout shift under a busy machine cannot misplace it
    _wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#play-form details.advanced").get_attribute("open"))
    spec = _wait(driver).until(
        lambda d: d.find_element(By.ID, "agent-spec") if d.find_element(By.ID, "agent-spec").is_displayed() else None
    )
    spec.send_keys("mcts:iterations=1000000")  # minutes of thinking
    # Seed 4: Coin Age's first throw has four matches and 5,965 turns to weigh (a throw without a
    # match would be answered at once, leaving nothing to stop).
    driver.find_element(By.ID, "play-seed").send_keys("4")
    Select(driver.find_element(By.ID, "seat")).select_by_value("tails")
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)  # a preview redrawn above cannot move it
    stop = _wait(driver).until(
        lambda d: d.find_element(By.ID, "stop") if d.find_element(By.ID, "stop").is_displayed() else None
    )
    thinking = _game(driver)["id"]
    assert httpx.get(f"{base}/api/play/{thinking}/record", headers=AUTH, timeout=120).json()["seed"] == 4
    stop.send_keys(Keys.ENTER)  # by keyboard: a layout shift on a busy machine cannot misplace it
    _wait(driver).until(lambda d: not d.find_element(By.ID, "thinking").is_displayed())
    _wait(driver).until(lambda d: d.find_element(By.ID, "computer").is_enabled())
    assert "stopped" in driver.find_element(By.ID, "announce").text
    assert driver.find_element(By.ID, "table-error").text == ""
    # Thinking again, then a new game at once: the old thinking is stopped, the new game starts.
    driver.find_element(By.ID, "computer").send_keys(Keys.ENTER)
    _wait(driver).until(lambda d: d.find_element(By.ID, "thinking").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "#setup summary").send_keys(Keys.ENTER)
    Select(driver.find_element(By.ID, "opponent")).select_by_value("greedy")
    Select(driver.find_element(By.ID, "seat")).select_by_value("heads")
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)  # a preview redrawn above cannot move it
    _wait(driver).until(lambda d: _ready(d) and _game(d)["id"] != thinking)
    old = f"{base}/api/play/{thinking}"
    _wait(driver).until(lambda d: not httpx.get(old, headers=AUTH, timeout=120).json()["thinking"])
    assert httpx.get(old, headers=AUTH, timeout=120).json()["moves"] == []


@needs_a_browser
@pytest.mark.parametrize("page", ["maps", "print"])
def test_a_preview_fits_the_window(table_in_a_browser, page: str) -> None:
    from selenium.webdriver.common.by import By

    base, driver, _ = table_in_a_browser
    driver.get(f"{base}/{page}?game=mapgame")
    preview = _wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#board-preview svg"))
    drawn = driver.execute_script(
        "const b = arguments[0].getBoundingClientRect(); return [b.width, b.height];", preview
    )
    assert 0 < drawn[1] <= driver.execute_script("return window.innerHeight;")
    assert 0 < drawn[0] <= driver.execute_script("return window.innerWidth;")
