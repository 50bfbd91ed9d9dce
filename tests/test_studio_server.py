"""coinprint studio as a running server: ``--watch`` pushes a new check when the file is saved,
Ctrl-C exits 130 and releases the port, and a real browser renders a preview and plays a move."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install -e '.[test]')")

import httpx
import uvicorn

from coinprint.registry import GAMES
from coinprint.studio.app import Studio, Watched, create_app
from tests import browser

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TOKEN = "server-test-token-0123456789"
AUTH = {"authorization": f"token {TOKEN}"}


@contextmanager
def running(studio: Studio) -> Iterator[str]:
    """The studio served by uvicorn in a thread on a free loopback port; its base address.
    The socket listens before the thread starts, so a request made at once waits, never fails."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_app(studio), log_level="warning", lifespan="off", ws="none"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def events(lines: Iterator[str]) -> Iterator[dict]:
    """The ``check`` events of a server-sent event stream, as JSON."""
    name = None
    for line in lines:
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: ") and name == "check":
            yield json.loads(line[len("data: ") :])


def save_as_an_editor_does(path: Path, data: bytes) -> None:
    """Write a new version beside the file and rename it over (as Inkscape and most editors save)."""
    temporary = path.with_name(f".{path.name}.saving")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def test_a_watched_drawing_is_checked_again_when_it_is_saved(tmp_path: Path) -> None:
    drawn = tmp_path / "card.svg"
    drawn.write_bytes((EXAMPLES / "coinage-card-mistakes.svg").read_bytes())
    with running(Studio(TOKEN, [Watched(drawn, "coinage")])) as base:
        # Generous: a slow machine waits; a working watcher answers within a fraction of a second.
        with httpx.stream("GET", f"{base}/api/watch/0/events", headers=AUTH, timeout=60) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            checks = events(stream.iter_lines())
            first = next(checks)
            assert first["valid"] is False and first["source"] == "card.svg"
            assert first["report_svg"].startswith("<svg")
            save_as_an_editor_does(drawn, (EXAMPLES / "coinage-card.svg").read_bytes())
            fixed = next(checks)
            while fixed["valid"] is False:  # a save may be seen in two steps; the last one counts
                fixed = next(checks)
            assert fixed["verdict"].startswith("valid coinage layout")
            drawn.write_bytes(b"<svg")  # a half-written file: said, not a crash
            broken = next(checks)
            assert broken["valid"] is False and broken.get("error")


def test_ctrl_c_exits_130_and_releases_the_port(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "coinprint", "studio", "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        assert process.stdout is not None
        address = process.stdout.readline().strip()
        assert address.startswith("http://127.0.0.1:") and "/?token=" in address
        port = int(address.split(":")[2].split("/")[0])
        token = address.split("token=")[1]
        assert (
            httpx.get(f"http://127.0.0.1:{port}/api/games", headers={"authorization": f"token {token}"}).status_code
            == 200
        )
        assert httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 403
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert err.strip().splitlines() == ["coinprint: interrupted"]
    released = socket.socket()
    released.bind(("127.0.0.1", port))  # nothing listens there any more
    released.close()


def test_the_help_does_not_load_the_web_stack() -> None:
    code = "import sys, coinprint.cli; assert not {'starlette', 'uvicorn', 'jinja2'} & set(sys.modules), sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- in a real browser ------------------------------------------------------------------------------------------
@pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))
def test_a_browser_previews_a_board_builds_every_form_and_plays_a_move() -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as seen
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with running(Studio(TOKEN)) as base, browser.chromium() as driver:
        wait = WebDriverWait(driver, 60)
        driver.get(f"{base}/?token={TOKEN}")
        wait.until(seen.presence_of_element_located((By.CSS_SELECTOR, "#board-preview svg")))
        assert driver.current_url.endswith("/print")
        # Every registered game gets its form from its schema: one labelled field per board parameter.
        choose = Select(driver.find_element(By.ID, "game"))
        assert [o.get_attribute("value") for o in choose.options] == list(GAMES.names())
        for name in GAMES.names():
            choose.select_by_value(name)
            wanted = [p.name for p in GAMES[name].schema.shown_in("board")]
            wait.until(lambda d, wanted=wanted: _fields(d) == wanted)
            for field in wanted:
                label = driver.find_element(By.CSS_SELECTOR, f'label[for="param-{field}"]')
                assert label.text
        # A changed option changes the preview (Coin Table with 3 cells a side: 19 labels).
        choose.select_by_value("cointable")
        wait.until(lambda d: _fields(d) == [p.name for p in GAMES["cointable"].schema.shown_in("board")])
        size = driver.find_element(By.ID, "param-size")
        size.clear()
        size.send_keys("3")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board-preview svg text")) >= 19)
        wait.until(lambda d: "size=3" in d.find_element(By.ID, "download-board").get_attribute("href"))
        # Play: a new game against the computer; one legal move chosen and played by keyboard.
        driver.get(f"{base}/play")
        wait.until(lambda d: len(Select(d.find_element(By.ID, "seat")).options) > 0)
        Select(driver.find_element(By.ID, "game")).select_by_value("cointable")
        driver.find_element(By.ID, "start").click()
        wait.until(lambda d: len(Select(d.find_element(By.ID, "legal")).options) > 0)
        legal = Select(driver.find_element(By.ID, "legal"))
        legal.select_by_index(0)
        driver.find_element(By.ID, "play-move").click()
        # The computer answers on its own: two moves in the list, and a person to move again.
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-moves") == "2")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#moves li")) == 2
        assert "heads to move" in driver.find_element(By.ID, "turn").text
        assert driver.find_element(By.ID, "status").text == ""
        # A click on a space of the board plays the one legal move there.
        before = len(driver.find_elements(By.CSS_SELECTOR, "#moves li"))
        target = _free_label(driver)
        target.click()
        wait.until(lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-moves")) >= before + 1)


def _fields(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.get_attribute("data-param") for e in driver.find_elements(By.CSS_SELECTOR, "#game-options [data-param]")]


def _free_label(driver):
    """A board label naming a space a legal move places on."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    legal = {o.get_attribute("value") for o in Select(driver.find_element(By.ID, "legal")).options}
    for text in driver.find_elements(By.CSS_SELECTOR, "#board svg text"):
        if f"place {text.text}" in legal:
            return text
    raise AssertionError("no label of a free space on the board")
