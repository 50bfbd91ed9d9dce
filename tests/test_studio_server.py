"""coinprint studio as a running server: ``--watch`` pushes a new check when the file is saved,
Ctrl-C exits 130 and releases the port, and a real browser renders a preview and plays a move."""

from __future__ import annotations

import json
import os
import re
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

import httpx2 as httpx
import uvicorn

from coinprint.registry import GAMES
from coinprint.studio.app import create_app
from coinprint.studio.server import bind
from coinprint.studio.state import Studio, Watched
from tests import browser

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
MISTAKES_SVG = EXAMPLES / "coinage-card-mistakes.svg"
TOKEN = "server-test-token-0123456789"
AUTH = {"authorization": f"token {TOKEN}"}


@contextmanager
def running(studio: Studio) -> Iterator[str]:
    """The studio served by uvicorn in a thread on a free loopback port; its base address.
    The socket listens before the thread starts, so a request made at once waits, never fails."""
    sock = bind(0)
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


def test_ctrl_c_ends_a_studio_whose_computer_is_thinking(tmp_path: Path) -> None:
    """The computer's thinking is stopped when the studio ends: no process left computing."""
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
        base, token = address.split("/?token=")
        headers = {"authorization": f"token {token}"}
        patient = 120  # the thinking thread holds the interpreter most of the time: answers are slow
        body = {"game": "coinage", "opponent": "mcts:iterations=1000000", "seat": "tails"}
        game = httpx.post(f"{base}/api/play", json=body, headers=headers, timeout=patient).json()
        thinking = threading.Thread(
            target=lambda: httpx.post(f"{base}/api/play/{game['id']}/computer", headers=headers, timeout=600),
            daemon=True,
        )
        thinking.start()
        for _ in range(600):  # until the server says the computer is thinking
            if httpx.get(f"{base}/api/play/{game['id']}", headers=headers, timeout=patient).json()["thinking"]:
                break
            thinking.join(0.05)
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)  # a million iterations would take many minutes
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130


def test_the_help_does_not_load_the_web_stack() -> None:
    code = "import sys, coinprint.cli; assert not {'starlette', 'uvicorn', 'jinja2'} & set(sys.modules), sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- in a real browser ------------------------------------------------------------------------------------------
needs_a_browser = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@pytest.fixture(scope="module")
def watched_file(tmp_path_factory) -> Path:
    drawn = tmp_path_factory.mktemp("watched") / "card.svg"
    drawn.write_bytes((EXAMPLES / "coinage-card-mistakes.svg").read_bytes())
    return drawn


@pytest.fixture(scope="module")
def studio_in_a_browser(watched_file: Path):
    """The studio (watching one drawing) and a headless Chromium that has opened its address."""
    if browser.missing() is not None:
        pytest.skip(str(browser.missing()))
    with running(Studio(TOKEN, [Watched(watched_file, "coinage")])) as base, browser.chromium() as driver:
        driver.get(f"{base}/?token={TOKEN}")
        yield base, driver


def _wait(driver, seconds: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds)


def _console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@needs_a_browser
def test_the_print_page_builds_every_form_previews_and_downloads_the_command_lines_bytes(
    studio_in_a_browser, tmp_path: Path
) -> None:
    from click.testing import CliRunner
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from coinprint.cli import cli

    base, driver = studio_in_a_browser
    driver.get(f"{base}/print")
    wait = _wait(driver)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-preview svg"))
    # Every registered game gets its form from its schema: one labelled field per board parameter.
    choose = Select(driver.find_element(By.ID, "game"))
    assert [o.get_attribute("value") for o in choose.options] == list(GAMES.names())
    for name in GAMES.names():
        choose.select_by_value(name)
        wanted = [p.name for p in GAMES[name].schema.shown_in("board")]
        wait.until(lambda d, wanted=wanted: _fields(d) == wanted)
        for field in wanted:
            assert driver.find_element(By.CSS_SELECTOR, f'label[for="param-{field}"]').text
    # A changed option changes the preview (Coin Table with 3 cells a side: 19 labels) and the download.
    choose.select_by_value("cointable")
    wait.until(lambda d: _fields(d) == [p.name for p in GAMES["cointable"].schema.shown_in("board")])
    size = driver.find_element(By.ID, "param-size")
    size.clear()
    size.send_keys("3")
    Select(driver.find_element(By.ID, "paper")).select_by_value("letter")
    wait.until(lambda d: "size=3" in d.find_element(By.ID, "download-board").get_attribute("href"))
    wait.until(lambda d: "paper=letter" in d.find_element(By.ID, "download-board").get_attribute("href"))
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board-preview svg text")) >= 19)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#kit-preview img"))
    href = driver.find_element(By.ID, "download-board").get_attribute("href")
    target = tmp_path / "board.pdf"
    CliRunner().invoke(cli, ["board", "cointable", "--size", "3", "--paper", "letter", "-o", str(target)])
    assert httpx.get(href, headers=AUTH).content == target.read_bytes()
    # The kit follows the same options: its download is kit --size 3's bytes, its preview that kit.
    wait.until(lambda d: "size=3" in d.find_element(By.ID, "download-kit").get_attribute("href"))
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#kit-preview img")) == 2)  # standard: 3
    kit = tmp_path / "kit.pdf"
    CliRunner().invoke(cli, ["kit", "cointable", "--size", "3", "--paper", "letter", "-o", str(kit)])
    href = driver.find_element(By.ID, "download-kit").get_attribute("href")
    assert httpx.get(href, headers=AUTH).content == kit.read_bytes()
    # The language chosen prints the board's words in it too (as board --lang does).
    Select(driver.find_element(By.ID, "lang")).select_by_value("sv")
    wait.until(lambda d: "lang=sv" in d.find_element(By.ID, "download-board").get_attribute("href"))
    wait.until(lambda d: "Krona sitter här" in d.find_element(By.ID, "board-preview").get_attribute("innerHTML"))
    swedish = tmp_path / "board-sv.pdf"
    CliRunner().invoke(
        cli, ["board", "cointable", "--size", "3", "--paper", "letter", "--lang", "sv", "-o", str(swedish)]
    )
    href = driver.find_element(By.ID, "download-board").get_attribute("href")
    assert httpx.get(href, headers=AUTH).content == swedish.read_bytes()
    assert _console_errors(driver) == []


@needs_a_browser
def test_a_drawing_with_mistakes_shows_its_problems_on_it(studio_in_a_browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, driver = studio_in_a_browser
    driver.get(f"{base}/check")
    wait = _wait(driver)
    wait.until(lambda d: len(Select(d.find_element(By.ID, "check-game")).options) > 1)
    Select(driver.find_element(By.ID, "check-game")).select_by_value("coinage")
    driver.find_element(By.ID, "drawing-file").send_keys(str(EXAMPLES / "coinage-card-mistakes.svg"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#problems button"))
    assert "invalid coinage layout" in driver.find_element(By.ID, "verdict").text
    problems = driver.find_elements(By.CSS_SELECTOR, "#problems button")
    assert any("B2" in button.text for button in problems)
    badges = driver.find_elements(By.CSS_SELECTOR, '#report svg text[fill="#ffffff"]')
    assert {b.text for b in badges} >= {"1", "2"}
    problems[0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#report svg .highlight"))
    assert driver.find_element(By.ID, "check-actions").is_displayed() is False
    assert _console_errors(driver) == []


@needs_a_browser
def test_an_svg_asks_for_its_game_once_and_is_checked_when_it_is_chosen_or_chosen_again(studio_in_a_browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, driver = studio_in_a_browser
    driver.get(f"{base}/check")
    wait = _wait(driver)
    wait.until(lambda d: len(Select(d.find_element(By.ID, "check-game")).options) > 1)
    assert Select(driver.find_element(By.ID, "check-game")).first_selected_option.get_attribute("value") == ""
    file_input = driver.find_element(By.ID, "drawing-file")
    file_input.send_keys(str(MISTAKES_SVG))
    wait.until(lambda d: "Choose the game" in d.find_element(By.ID, "verdict").text)
    said = driver.find_element(By.ID, "verdict").text
    assert "coinage-card-mistakes.svg" in said and "--game" not in said
    assert driver.find_element(By.ID, "status").text == "", "the reason is shown once, as the verdict"
    assert driver.switch_to.active_element.get_attribute("id") == "check-game"
    # Choosing the game checks the file already chosen.
    Select(driver.find_element(By.ID, "check-game")).select_by_value("coinage")
    wait.until(lambda d: "invalid coinage layout" in d.find_element(By.ID, "verdict").text)
    items = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#problems button")]
    assert items and not any(text.startswith(("·", ".")) for text in items), items
    numbered = [text for text in items if text[:1].isdigit()]
    assert len(numbered) < len(items), "the drawing has a note without a number"
    assert [int(text.split(".")[0]) for text in numbered] == list(range(1, len(numbered) + 1))
    # The same file chosen again (saved since, perhaps) is checked again.
    driver.execute_script("document.getElementById('verdict').textContent = '';")
    file_input.send_keys(str(MISTAKES_SVG))
    wait.until(lambda d: "invalid coinage layout" in d.find_element(By.ID, "verdict").text)
    assert _console_errors(driver) == []


@needs_a_browser
def test_a_watched_drawing_turns_valid_in_the_page_when_it_is_fixed(studio_in_a_browser, watched_file: Path) -> None:
    from selenium.webdriver.common.by import By

    base, driver = studio_in_a_browser
    driver.get(f"{base}/check")
    wait = _wait(driver)
    watch = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "button.watch"))
    watch.click()
    wait.until(lambda d: "invalid coinage layout" in d.find_element(By.ID, "verdict").text)
    save_as_an_editor_does(watched_file, (EXAMPLES / "coinage-card.svg").read_bytes())
    wait.until(lambda d: "card.svg: valid coinage layout" in d.find_element(By.ID, "verdict").text)
    assert driver.find_element(By.ID, "check-actions").is_displayed()
    assert _console_errors(driver) == []


@needs_a_browser
@pytest.mark.parametrize("game", ["coinage", "mapgame"])
def test_a_whole_game_against_the_computer_saves_a_record_that_validates(studio_in_a_browser, tmp_path, game) -> None:
    from click.testing import CliRunner
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from coinprint.cli import cli

    base, driver = studio_in_a_browser
    driver.get(f"{base}/play")
    wait = _wait(driver)
    wait.until(lambda d: len(Select(d.find_element(By.ID, "seat")).options) > 0)
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "opponent")).select_by_value("greedy")
    if game == "mapgame":  # a small generated map keeps the game short
        # By keyboard: a layout shift on a busy machine cannot misplace it.
        driver.find_element(By.CSS_SELECTOR, "#play-form details.advanced summary").send_keys(Keys.ENTER)
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#play-form details.advanced").get_attribute("open"))
        layout = wait.until(
            lambda d: d.find_element(By.ID, "layout") if d.find_element(By.ID, "layout").is_displayed() else None
        )
        layout.clear()
        layout.send_keys("mapgame:countries=7,seed=4")
    driver.find_element(By.ID, "start").send_keys(Keys.ENTER)  # a preview redrawn above cannot move it
    body = driver.find_element(By.TAG_NAME, "body")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    driver.find_element(By.CSS_SELECTOR, "#notation summary").click()  # the notation, unfolded
    for _ in range(1000):
        wait.until(lambda d: _settled(d))
        if "over" in driver.find_element(By.ID, "turn").text:
            break
        moves = int(body.get_attribute("data-moves") or 0)
        if game == "coinage":
            assert re.fullmatch(r"no match|\d match(es)?: [PNDQ](, [PNDQ])*", driver.find_element(By.ID, "chance").text)
        legal = driver.find_element(By.ID, "legal")
        Select(legal).select_by_index(0)
        legal.send_keys(Keys.ENTER)  # by keyboard: Enter on the chosen move plays it
        wait.until(lambda d, moves=moves: int(body.get_attribute("data-moves")) > moves)
    assert driver.find_element(By.ID, "result").text
    record = httpx.get(driver.find_element(By.ID, "record").get_attribute("href"), headers=AUTH)
    path = tmp_path / "record.json"
    path.write_bytes(record.content)
    result = CliRunner().invoke(cli, ["validate", "game", str(path)], standalone_mode=False)
    assert result.return_value == 0 and ": valid: " in result.output
    driver.get(driver.find_element(By.ID, "replay").get_attribute("href"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg#board"))
    assert _console_errors(driver) == []


def _settled(driver) -> bool:
    """The page shows a person to move (or the end), the computer has answered."""
    from selenium.webdriver.common.by import By

    turn = driver.find_element(By.ID, "turn").text
    return ("over" in turn or ("to move" in turn and "computer" not in turn)) and bool(
        driver.find_elements(By.CSS_SELECTOR, "#legal option") or "over" in turn
    )


@needs_a_browser
def test_a_click_on_a_space_plays_the_move_there(studio_in_a_browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, driver = studio_in_a_browser
    driver.get(f"{base}/play")
    wait = _wait(driver)
    wait.until(lambda d: len(Select(d.find_element(By.ID, "seat")).options) > 0)
    Select(driver.find_element(By.ID, "game")).select_by_value("cointable")
    driver.find_element(By.ID, "start").click()
    wait.until(
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#board svg text") and d.find_elements(By.CSS_SELECTOR, "#legal option")
        )
    )
    driver.find_element(By.CSS_SELECTOR, "#notation summary").click()  # the legal moves, unfolded
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(_free_label(driver)).click().perform()  # the space under the label
    body = driver.find_element(By.TAG_NAME, "body")
    wait.until(lambda d: body.get_attribute("data-moves") == "2")  # the click, and the computer's answer
    assert "heads to move" in driver.find_element(By.ID, "turn").text
    assert driver.find_element(By.ID, "status").text == ""
    for page in ("maps", "replay"):
        driver.get(f"{base}/{page}")
        wait.until(lambda d: d.find_element(By.ID, "status"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-preview svg") or True)
    assert _console_errors(driver) == []


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


@needs_a_browser
def test_two_studios_in_one_browser_stay_open_and_a_missing_token_gets_a_page() -> None:
    """Chromium sends a cookie to every port of 127.0.0.1: the second studio's first visit must
    not log the first out, and a page opened without the token says what to do, in words."""
    from selenium.webdriver.common.by import By

    other = "second-studio-token-0123456789"
    with running(Studio(TOKEN)) as first, running(Studio(other)) as second, browser.chromium() as driver:
        driver.get(f"{first}/print?token={TOKEN}")
        assert driver.title == "Print · coinprint studio"
        driver.get(f"{second}/print?token={other}")
        assert driver.title == "Print · coinprint studio"
        for base in (first, second):  # both by their cookies alone
            driver.get(f"{base}/check")
            assert driver.title == "Check a drawing · coinprint studio", base
        driver.delete_all_cookies()
        driver.get(f"{first}/check")
        said = driver.find_element(By.TAG_NAME, "body").text
        assert "Open the address coinprint studio printed" in said and "?token=…" in said
        assert "\\u" not in driver.page_source and "{" not in said


def test_the_studio_answers_each_request_at_once_on_a_kept_connection() -> None:
    """The studio's socket is named TCP, so asyncio turns Nagle's algorithm off on every
    connection it accepts: a response written in parts is not held back until the browser's
    delayed acknowledgement (40 ms on every request after the first of a connection)."""
    import asyncio

    async def accepted_nodelay() -> int:
        found: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport) -> None:  # type: ignore[no-untyped-def]
                sock = transport.get_extra_info("socket")
                found.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        sock = bind(0)
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        _, writer = await asyncio.open_connection("127.0.0.1", sock.getsockname()[1])
        try:
            return await asyncio.wait_for(found, 60)
        finally:
            writer.close()
            server.close()
            sock.close()

    listening = bind(0)
    assert listening.proto == socket.IPPROTO_TCP
    listening.close()
    assert asyncio.run(accepted_nodelay()) == 1
