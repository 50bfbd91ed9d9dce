"""How fast the Play page's table answers a click, in headless Chromium.

    python bench/studio_table.py [MOVES]

For Coin Table (side 5), Coin Age and a 21-country Map, two people on one screen (so no
computer's thinking is timed), MOVES moves each (30 by default), every move made by pointing:

- highlight: from a click on a coin of a tray or a space to the legal targets outlined (the
  page's own work, no request);
- move: from the click that completes a move to the new position drawn (the request, the
  engine, the table's JSON and the drawing).

The target is a median of at most 100 ms. Figures are printed, never asserted (CONTRIBUTING.md:
speed is measured here, not in tests).
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = {"cointable": "", "coinage": "", "mapgame": "mapgame:countries=21,seed=3"}

TIMED_PICK = """
const pick = arguments[0], done = arguments[arguments.length - 1];
const moves = document.body.dataset.moves;
const start = performance.now();
INTERACTION.point(pick);
const drawn = performance.now() - start;
if (!BUSY) { done({kind: 'highlight', ms: drawn}); return; }
const watch = () => {
  if (document.body.dataset.moves !== moves && !BUSY) done({kind: 'move', ms: performance.now() - start});
  else requestAnimationFrame(watch);
};
watch();
"""
"""Point at ``pick`` as a click does, and time what the page does until it is drawn."""


def measure(moves: int) -> dict[str, dict[str, list[float]]]:
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from coinprint.studio.state import Studio
    from tests import browser
    from tests.test_studio_server import TOKEN, running
    from tests.test_studio_table import _game, _ready

    found: dict[str, dict[str, list[float]]] = {}
    with running(Studio(TOKEN)) as base, browser.chromium(1366, 900) as driver:
        wait = WebDriverWait(driver, 120)
        driver.set_script_timeout(120)
        driver.get(f"{base}/?token={TOKEN}")
        for name, layout in GAMES.items():
            driver.get(f"{base}/play?game={name}" + (f"&layout={quote(layout)}" if layout else ""))
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
            Select(driver.find_element(By.ID, "opponent")).select_by_value("")
            driver.find_element(By.ID, "start").click()
            rng = random.Random(name)
            times: dict[str, list[float]] = {"highlight": [], "move": []}
            for _ in range(moves):
                wait.until(_ready)
                game = _game(driver)
                if game["over"]:
                    break
                way = rng.choice(game["picks"][rng.randrange(len(game["legal"]))])
                for pick in way:
                    timed = driver.execute_async_script(TIMED_PICK, pick)
                    times[timed["kind"]].append(timed["ms"])
                    if timed["kind"] == "move":
                        break
                else:
                    if driver.find_elements(By.ID, "end-turn"):
                        driver.find_element(By.ID, "end-turn").click()
            found[name] = times
    return found


def main() -> None:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    for name, times in measure(moves).items():
        for kind, values in times.items():
            if values:
                print(
                    f"{name:10} {kind:9} median {statistics.median(values):6.1f} ms, "
                    f"max {max(values):6.1f} ms over {len(values)} clicks"
                )


if __name__ == "__main__":
    main()
