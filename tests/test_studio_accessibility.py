"""The studio's pages are usable without a mouse and pass axe-core in Chromium: every page is
checked by axe (vendored for the tests in tests/vendor/, not shipped) with no serious or
critical violation, and every control can be reached with the Tab key and has a name."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install -e '.[test]')")

from coinprint.studio.routes.site import PAGES
from coinprint.studio.state import Studio
from tests import browser
from tests.test_studio_server import TOKEN, running

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


@pytest.fixture(scope="module")
def studio_in_a_browser():
    if browser.missing() is not None:
        pytest.skip(str(browser.missing()))
    with running(Studio(TOKEN, [])) as base, browser.chromium() as driver:
        driver.get(f"{base}/?token={TOKEN}")
        yield base, driver


def _loaded(driver, page: str, base: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}/{page}")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # The forms are built from the games' schemas by the page's script: wait until it has run.
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.querySelectorAll('select, input, button').length > 0")
    )


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_has_no_serious_accessibility_violation(studio_in_a_browser, page: str) -> None:
    base, driver = studio_in_a_browser
    _loaded(driver, page, base)
    driver.set_script_timeout(120)
    # Injected through the browser's automation channel, which the page's CSP does not govern.
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map("
        "v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))));"
    )
    serious = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not serious, serious


@pytest.mark.parametrize("page", list(PAGES))
def test_every_control_is_reached_by_tab_and_has_a_name(studio_in_a_browser, page: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    base, driver = studio_in_a_browser
    _loaded(driver, page, base)
    controls = driver.execute_script(
        "return [...document.querySelectorAll('a[href], button, input, select, textarea')]"
        ".filter(e => !e.disabled && e.offsetParent !== null && e.type !== 'hidden')"
        # A folded section's controls are reached once it is opened (its summary is reached).
        ".filter(e => !e.closest('details:not([open])'))"
        ".map(e => e.id || e.name || e.textContent.trim().slice(0, 30));"
    )
    unnamed = driver.execute_script(
        "return [...document.querySelectorAll('button, input, select, textarea')]"
        ".filter(e => e.offsetParent !== null && e.type !== 'hidden')"
        ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')"
        " && !(e.tagName === 'BUTTON' && e.textContent.trim()) && !e.title)"
        ".map(e => e.outerHTML.slice(0, 80));"
    )
    assert not unnamed, unnamed
    body = driver.find_element("tag name", "body")
    body.click()
    reached = set()
    for _ in range(len(controls) * 2 + 5):  # Tab through the page, twice round at most
        ActionChains(driver).send_keys(Keys.TAB).perform()  # the key, not text typed into a file input
        active = driver.execute_script(
            "const e = document.activeElement; return e.id || e.name || e.textContent.trim().slice(0, 30);"
        )
        reached.add(active)
    missed = [c for c in controls if c not in reached]
    assert not missed, missed
