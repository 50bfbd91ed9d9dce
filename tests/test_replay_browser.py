"""Replay pages in a real browser (headless Chromium): keys, buttons and the slider step
through the game and the board shows the engine's coins after every step; nothing leaves the
page; a hostile player name stays text. One browser for the whole module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import browser
from tests.replaycheck import NAME, coins_seen, expected_coins, positions, write_record

reason = browser.missing()
pytestmark = pytest.mark.skipif(reason is not None, reason=f"no headless Chromium: {reason}")

READ_COINS = (
    "return Array.from(document.querySelectorAll('#marks circle'))"
    ".map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy')), c.getAttribute('fill')]);"
)


@pytest.fixture(scope="module")
def driver():
    with browser.chromium() as chrome:
        yield chrome


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A Coin Table game with a hostile name, its page, and the engine's positions."""
    folder = tmp_path_factory.mktemp("replay")
    path = write_record(folder, "cointable:size=3", seed=6, players={"heads": NAME, "tails": "Bo"})
    page = folder / "game.html"
    from coinprint.playback.page import write_replay

    write_replay(str(path), str(page))
    rules, states = positions(path)
    return page, rules, states


def open_page(driver, page: Path) -> None:
    driver.get(page.resolve().as_uri())
    assert driver.execute_script("return document.body.dataset.frame") == "0"


def frame(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.frame"))


def check_board(driver, rules, states, number: int) -> None:
    assert frame(driver) == number
    seen = coins_seen(rules, [tuple(c) for c in driver.execute_script(READ_COINS)])
    assert seen == expected_coins(rules, states[number]), f"frame {number}"
    current = driver.find_elements("css selector", "#moves li.current")
    if number == 0:
        assert not current
    else:
        (row,) = current
        assert row.find_element("css selector", ".n").text == str(number)


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_keys_buttons_and_slider_step_through_the_game(driver, game):
    from selenium.webdriver.common.keys import Keys

    page, rules, states = game
    last = len(states) - 1
    assert last >= 6
    open_page(driver, page)
    check_board(driver, rules, states, 0)
    for number in (1, 2, 3):
        press(driver, Keys.ARROW_RIGHT)
        check_board(driver, rules, states, number)
    steps = [("forward", 4), ("forward", 5), ("back", 4), ("last", last), ("back", last - 1), ("first", 0)]
    for button, number in steps:
        driver.find_element("id", button).click()
        check_board(driver, rules, states, number)
    for key, number in ((Keys.END, last), (Keys.ARROW_LEFT, last - 1), (Keys.HOME, 0), (Keys.ARROW_LEFT, 0)):
        press(driver, key)
        check_board(driver, rules, states, number)
    middle = last // 2
    driver.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];s.dispatchEvent(new Event('input'));",
        middle,
    )
    check_board(driver, rules, states, middle)


# The page's steps are timers: this notes the interval each one is started with, so the speed
# is checked in what the page asks for, not in seconds a busy machine stretches.
NOTE_INTERVALS = """
window.intervals = [];
const start = window.setInterval;
window.setInterval = function (handler, ms) { window.intervals.push(ms); return start.apply(this, arguments); };
"""


def test_play_runs_to_the_end_at_the_chosen_speed(driver, game):
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.wait import WebDriverWait

    page, rules, states = game
    open_page(driver, page)
    driver.execute_script(NOTE_INTERVALS)
    # Space plays and pauses, at 1× (80 frames: over a minute left to pause before the end,
    # however late the pause arrives on a busy machine).
    press(driver, " ")
    assert driver.execute_script("return document.body.dataset.playing") == "1"
    WebDriverWait(driver, 120, 0.05).until(lambda d: frame(d) >= 3, "the page did not reach frame 3 within 120 s")
    press(driver, " ")
    stopped = frame(driver)
    assert driver.execute_script("return document.body.dataset.playing") == "0"
    assert stopped < len(states) - 1
    check_board(driver, rules, states, stopped)
    # The play button runs it to the end at the speed chosen, 32× the 1× step.
    Select(driver.find_element("id", "speed")).select_by_value("32")
    driver.find_element("id", "play").click()
    WebDriverWait(driver, 120, 0.05).until(
        lambda d: d.execute_script("return document.body.dataset.playing") == "0",
        "the page did not play to the end within 120 s",
    )
    check_board(driver, rules, states, len(states) - 1)
    one, fast = driver.execute_script("return window.intervals")
    assert fast * 32 == one, (one, fast)


def test_nothing_leaves_the_page_and_the_name_stays_text(driver, game):
    from selenium.common.exceptions import NoAlertPresentException

    page, _, _ = game
    open_page(driver, page)
    driver.find_element("id", "last").click()
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
    policy = driver.execute_script(
        "return document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content"
    )
    assert policy.startswith("default-src 'none'")
    assert driver.execute_script("return document.querySelectorAll('[src], link, iframe, object').length") == 0
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018 - reading it is what raises
    assert driver.execute_script("return document.scripts.length") == 2
    assert NAME in driver.find_element("id", "players").text
    assert NAME in driver.title


def test_an_invalid_record_ends_in_red_with_the_reason(driver, tmp_path):
    import json

    path = write_record(tmp_path, "cointable:size=3", seed=8)
    record = json.loads(path.read_text())
    record["moves"][3] = record["moves"][1]
    path.write_text(json.dumps(record))
    from coinprint.playback.page import write_replay

    written, page = write_replay(str(path), str(tmp_path / "bad.html"))
    rules, states = positions_before(path, 3)
    open_page(driver, written)
    driver.find_element("id", "last").click()
    assert frame(driver) == 4
    seen = coins_seen(rules, [tuple(c) for c in driver.execute_script(READ_COINS)])
    assert seen == expected_coins(rules, states[-1])  # the position before the illegal move
    row = driver.find_element("css selector", "#moves li.current")
    assert "bad" in row.get_attribute("class").split()
    assert row.value_of_css_property("color") == "rgba(176, 0, 32, 1)"
    assert page.report.split(" — ", 1)[1] in row.text
    assert driver.find_element("id", "caption").value_of_css_property("color") == "rgba(176, 0, 32, 1)"


def positions_before(path: Path, moves: int):
    """The engine's positions over the first ``moves`` moves of a record (the rest unread)."""
    import json

    doc = json.loads(path.read_text())
    cut = path.with_name("cut.json")
    cut.write_text(json.dumps({**doc, "moves": doc["moves"][:moves], "result": None}))
    return positions(cut)


def test_a_map_is_drawn_before_the_chase(driver, tmp_path):
    from selenium.webdriver.common.keys import Keys

    path = write_record(tmp_path, "mapgame:countries=7,seed=2", seed=1, max_turns=12)
    from coinprint.playback.page import write_replay

    written, _ = write_replay(str(path), str(tmp_path / "map.html"))
    rules, states = positions(path)
    countries = len(rules.layout.spaces)
    open_page(driver, written)
    visible = (
        "return Array.from(document.querySelectorAll('#base path')).filter(p => p.style.display !== 'none').length"
    )
    for step in range(1, countries + 1):
        assert driver.execute_script(visible) == step
        assert not driver.execute_script(READ_COINS)
        press(driver, Keys.ARROW_RIGHT)
    for number in range(len(states)):
        assert driver.execute_script(visible) == countries
        seen = coins_seen(rules, [tuple(c) for c in driver.execute_script(READ_COINS)])
        assert seen == expected_coins(rules, states[number])
        press(driver, Keys.ARROW_RIGHT)
