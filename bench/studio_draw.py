"""How fast the Play page answers a stroke on the Map drawn together, in headless Chromium.

    python bench/studio_draw.py [GAMES]

Two people on one screen draw a 21-country map (so no computer's thinking is timed), each arc
one the generator proposes, GAMES maps (2 by default). For every arc:

- preview: the live judging while a stroke is drawn, from the page's request to its answer
  (POST /api/play/{id}/preview: the arc read, judged, the would-be country sent back);
- stroke: from the stroke let go (the line sent) to the grown map drawn on the table (the move
  request, the engine, the new board fetched and drawn).

The target is a median of at most 100 ms for a stroke. Figures are printed, never asserted.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LAYOUT = "mapgame:countries=21,draw=1"

TIMED_PREVIEW = """
const move = arguments[0], done = arguments[arguments.length - 1];
const start = performance.now();
api("POST", `/api/play/${GAME.id}/preview`, { move }).then(() => done(performance.now() - start));
"""
"""One live judging of ``move``, timed as the page makes it."""

TIMED_STROKE = """
const move = arguments[0], done = arguments[arguments.length - 1];
const moves = document.body.dataset.moves;
INTERACTION.suggest(move);
const ready = () => document.getElementById('board').dataset.drawState === 'ok';
const send = () => {
  if (!ready()) { requestAnimationFrame(send); return; }
  const start = performance.now();
  INTERACTION.key(new KeyboardEvent('keydown', { key: 'Enter' }));
  const watch = () => {
    const drawn = document.body.dataset.moves !== moves && !BUSY && TABLE_ID === `${GAME.id} ${GAME.board_key}`;
    if (drawn) done(performance.now() - start);
    else requestAnimationFrame(watch);
  };
  watch();
};
send();
"""
"""Show ``move`` as the line drawn, wait until it is judged, then let it go and time the map
growing on the table."""


def measure(games: int) -> dict[str, list[float]]:
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from coinprint.studio.state import Studio
    from tests import browser
    from tests.test_studio_server import TOKEN, running
    from tests.test_studio_table import _game, _ready

    times: dict[str, list[float]] = {"preview": [], "stroke": []}
    with running(Studio(TOKEN)) as base, browser.chromium(1366, 900) as driver:
        wait = WebDriverWait(driver, 120)
        driver.set_script_timeout(120)
        driver.get(f"{base}/?token={TOKEN}")
        for _ in range(games):
            driver.get(f"{base}/play?game=mapgame&layout={quote(LAYOUT)}")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
            Select(driver.find_element(By.ID, "opponent")).select_by_value("")
            driver.find_element(By.ID, "start").click()
            while True:
                wait.until(
                    lambda d: _ready(d) and d.execute_script("return TABLE_ID === `${GAME.id} ${GAME.board_key}`;")
                )
                game = _game(driver)
                if not game["board_key"].startswith("draw") or not game["legal"]:
                    break
                arc = game["legal"][0]
                times["preview"].append(driver.execute_async_script(TIMED_PREVIEW, arc))
                times["stroke"].append(driver.execute_async_script(TIMED_STROKE, arc))
    return times


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for kind, values in measure(games).items():
        ordered = sorted(values)
        print(
            f"{kind:8} median {statistics.median(values):6.1f} ms, 95th {ordered[int(0.95 * (len(ordered) - 1))]:6.1f} ms, "
            f"max {max(values):6.1f} ms over {len(values)} arcs"
        )


if __name__ == "__main__":
    main()
