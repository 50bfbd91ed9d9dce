"""Headless Chromium for the tests and the README screenshot (Debian's ``chromium`` and
``chromium-driver`` with selenium). Nothing here downloads anything: the driver's path is
given, so selenium-manager never runs."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def missing() -> str | None:
    """Why a browser cannot be started here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).is_file():
            return f"{path} is missing (apt-get install {package})"
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 800) -> Iterator[Any]:
    """A selenium WebDriver on headless Chromium with a fresh profile, closed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="coinprint-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot(page: Path, png: Path, *, steps: int = 0, width: int = 1280, height: int = 760) -> None:
    """Open ``page`` and save a PNG of the window after pressing → ``steps`` times."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    with chromium(width, height) as driver:
        driver.get(page.resolve().as_uri())
        actions = ActionChains(driver)
        for _ in range(steps):
            actions.send_keys(Keys.ARROW_RIGHT)
        actions.perform()
        png.write_bytes(driver.get_screenshot_as_png())


def as_phone(driver: Any, width: int = 390, height: int = 844, scale: float = 3.0) -> None:
    """Make ``driver``'s page a phone's: a ``width``×``height`` CSS-pixel screen at ``scale``
    device pixels a pixel, with touch (a desktop window cannot be made narrower than 500 px)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": True},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
