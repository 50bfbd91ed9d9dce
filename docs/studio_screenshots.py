"""Take docs/studio.md's screenshots of the studio's pages in headless Chromium, with the same
machinery as the browser tests (run from the repository root; needs chromium, chromium-driver,
selenium and the studio extra):

    python docs/studio_screenshots.py

Screenshots are not byte-stable, so no test compares them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


SETTLED = (
    "return document.readyState === 'complete'"
    " && Array.from(document.images).every(image => image.closest('[hidden]') || (image.complete && image.naturalWidth > 0))"
)
"""True in the browser once the page has loaded and every picture shown on it is decoded."""


def main(images: str = "docs/images") -> list[Path]:
    """Open each page with something on it and save a picture of it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from coinprint.studio.state import Studio
    from tests import browser
    from tests.test_studio_server import TOKEN, running

    reason = browser.missing()
    if reason:
        raise SystemExit(f"cannot take the screenshots: {reason}")
    folder = Path(images)
    written = []
    with running(Studio(TOKEN)) as base, browser.chromium(1400, 900) as driver:
        wait = WebDriverWait(driver, 60)

        def shot(name: str) -> None:
            driver.execute_script("window.scrollTo(0, 0)")
            # Not a fixed pause: wait until every picture on the page is decoded.
            wait.until(lambda d: d.execute_script(SETTLED))
            path = folder / f"studio-{name}.png"
            driver.save_screenshot(str(path))
            written.append(path)

        driver.get(f"{base}/?token={TOKEN}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#kit-preview img"))
        shot("print")
        driver.get(f"{base}/maps")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-preview svg"))
        shot("maps")
        driver.get(f"{base}/check")
        wait.until(lambda d: len(Select(d.find_element(By.ID, "check-game")).options) > 1)
        Select(driver.find_element(By.ID, "check-game")).select_by_value("coinage")
        driver.find_element(By.ID, "drawing-file").send_keys(str(ROOT / "examples" / "coinage-card-mistakes.svg"))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#problems button"))
        driver.find_elements(By.CSS_SELECTOR, "#problems button")[0].click()
        shot("check")
        driver.get(f"{base}/play?game=coinage")
        play_table(driver, wait)
        shot("play")
        driver.get(f"{base}/play?game=flick")
        flick_table(driver, wait)
        shot("flick")
        driver.get(f"{base}/play?game=mapgame&layout=mapgame%3Adraw%3D1")
        map_drawing(driver, wait)
        shot("draw")
    with running(Studio(TOKEN)) as base, browser.chromium(390, 844) as driver:
        browser.as_phone(driver, scale=1.5)  # a picture small enough for the docs
        wait = WebDriverWait(driver, 60)
        driver.get(f"{base}/play?game=coinage&token={TOKEN}")
        play_table(driver, wait)
        shot("play-phone")
    return written


def play_table(driver, wait) -> None:
    """Start Coin Age, play three turns by pointing at the table (the longest turn each time),
    and pick a bank coin so the spaces it may go to are outlined."""
    import random

    from selenium.webdriver.common.by import By

    from tests.test_studio_table import _game, _make_move, _ready

    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
    driver.find_element(By.ID, "start").click()
    rng = random.Random(45)
    for _ in range(3):
        wait.until(_ready)
        game = _game(driver)
        longest = max(len(ways[0]) for ways in game["picks"])
        index = rng.choice([i for i, ways in enumerate(game["picks"]) if len(ways[0]) == longest])
        _make_move(driver, False, game["picks"][index][0], len(game["moves"]))
    wait.until(_ready)
    bank = driver.find_elements(By.CSS_SELECTOR, "#trays button[data-pick]:not([disabled])")
    if bank:
        bank[0].click()


def flick_table(driver, wait) -> None:
    """Start Flick as Heads, shoot a coin into the goal with the sling, and hold the next pull
    (the pointer still down) so the sling and where the coin would stop show."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from tests.test_studio_sling import _screen_offset, _settled, _sling

    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
    Select(driver.find_element(By.ID, "seat")).select_by_value("heads")
    driver.find_element(By.ID, "start").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .coin[data-coin]") and _settled(d))
    _sling(driver, False)
    wait.until(_settled)
    game = driver.execute_script("return GAME")
    goal = driver.execute_script("return TABLE.board.facts.polygon")
    gx, gy = sum(p[0] for p in goal) / len(goal), sum(p[1] for p in goal) / len(goal)
    coin = next(p for p in game["pieces"] if p["side"] == "heads" and p["space"] != "goal" and "x" in p)
    svg = driver.find_element(By.CSS_SELECTOR, "#board svg")
    start = _screen_offset(driver, svg, coin["x"], coin["y"])
    end = _screen_offset(driver, svg, coin["x"] + (coin["x"] - gx) / 4 + 6, coin["y"] + (coin["y"] - gy) / 4)
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"))
    actions.pointer_action.move_to(svg, *start).pointer_down().move_to(svg, *end)
    actions.perform()


def map_drawing(driver, wait) -> None:
    """Start the Map drawn together by two friends, draw seven of the computer's arcs, and hold
    a hand-drawn stroke half-way round the map (the pointer still down) so the country it would
    make is shaded and its neighbours and the coin's fit show."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from tests.test_studio_draw import _drawing_ready, _stroke, _swing

    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
    Select(driver.find_element(By.ID, "opponent")).select_by_value("")
    driver.find_element(By.ID, "start").click()
    for drawn in range(7):
        wait.until(_drawing_ready)
        driver.execute_script("playMove(GAME.legal[0]);")
        wait.until(lambda d, drawn=drawn: len(d.execute_script("return GAME.moves")) > drawn)
    wait.until(_drawing_ready)
    swing = _swing(driver, 100.0)
    _stroke(driver, swing[: len(swing) * 3 // 4], False, release=False)
    wait.until(lambda d: d.find_element(By.ID, "board").get_attribute("data-draw-state") in ("ok", "refused"))


if __name__ == "__main__":
    for path in main():
        print(f"wrote {path}")
