"""coinprint studio through its ASGI app: every endpoint, every refusal of the security contract,
the same bytes as the command line, and played games whose records validate."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the studio extra is not installed (pip install -e '.[test]')")

from click.testing import CliRunner
from starlette.testclient import TestClient

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.cli import cli
from coinprint.registry import GAMES
from coinprint.studio.app import create_app
from coinprint.studio.routes.site import PAGES
from coinprint.studio.security import cookie_name, csrf_token
from coinprint.studio.state import Studio

TOKEN = "test-token-0123456789"
BASE = "http://127.0.0.1:8770"
ORIGIN = {"origin": BASE}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MISTAKES = EXAMPLES / "coinage-card-mistakes.svg"
CARD = EXAMPLES / "coinage-card.svg"


@pytest.fixture
def client() -> TestClient:
    """A client that sends the token as a header (as a script would)."""
    app = create_app(Studio(TOKEN))
    return TestClient(app, base_url=BASE, headers={"authorization": f"token {TOKEN}"}, raise_server_exceptions=False)


@pytest.fixture
def browser_like() -> TestClient:
    """A client without the token header: it must come by ``?token=`` and then the cookie."""
    return TestClient(create_app(Studio(TOKEN)), base_url=BASE, raise_server_exceptions=False)


def run(*args: str) -> tuple[int, str]:
    """``coinprint ARGS`` through click's runner: the exit code (a command's own, as
    ``coinprint.cli.main`` turns it into one) and what it said."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, standalone_mode=False)
    code = result.return_value if isinstance(result.return_value, int) else result.exit_code
    return code, result.output


def one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert message and "\n" not in message and len(message) < 600
    return message


# -- the door: token, Host, Origin, CSRF, caps, CSP ------------------------------------------------------------
def test_every_request_needs_the_token(browser_like: TestClient) -> None:
    for path in ["/print", "/api/games", "/api/board/cointable.svg", "/static/studio.js"]:
        assert "token" in one_line_error(browser_like.get(path), 403)
    assert one_line_error(browser_like.get("/print?token=wrong"), 403)
    assert one_line_error(browser_like.get("/print", headers={"authorization": "token wrong"}), 403)
    first = browser_like.get(f"/print?token={TOKEN}")
    assert first.status_code == 200
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{cookie_name(8770)}={TOKEN}") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # The cookie the first visit set lets the page's later requests in without the token.
    assert browser_like.get("/api/games").status_code == 200
    browser_like.cookies.clear()
    assert browser_like.get("/api/games").status_code == 403
    assert browser_like.get("/api/games", headers={"authorization": f"token {TOKEN}"}).status_code == 200


def test_a_foreign_host_is_refused_even_with_the_token(client: TestClient) -> None:
    foreign = ["evil.example", "evil.example:8770", "127.0.0.1.evil.example", "10.0.0.1:8770"]
    # Malformed values whose part before the last colon (or the first) is a loopback name.
    malformed = ["127.0.0.1:1@evil.example", "127.0.0.1:8770:1", "127.0.0.1:80x", "localhost:", "[::1]x", "127.0.0.1 "]
    for host in [*foreign, *malformed]:
        assert "127.0.0.1" in one_line_error(client.get("/api/games", headers={"host": host}), 403), host
    assert client.get("/api/games", headers={"host": "[::1]:8770"}).status_code == 200
    assert client.get("/api/games", headers={"host": "localhost:8770"}).status_code == 200
    assert client.get("/api/games", headers={"host": "127.0.0.1"}).status_code == 200


def test_two_studios_keep_their_own_cookies() -> None:
    """Browsers send a cookie to every port of 127.0.0.1, so each studio names its cookie by
    its port: the second studio's first visit does not log the first out."""
    other_token = "other-token-9876543210"
    first = TestClient(create_app(Studio(TOKEN)), base_url=BASE, raise_server_exceptions=False)
    second = TestClient(
        create_app(Studio(other_token)), base_url="http://127.0.0.1:8771", raise_server_exceptions=False
    )
    first_cookie = first.get(f"/print?token={TOKEN}").headers["set-cookie"].split(";")[0]
    second_cookie = second.get(f"/print?token={other_token}").headers["set-cookie"].split(";")[0]
    assert first_cookie.split("=")[0] != second_cookie.split("=")[0]
    both = {"cookie": f"{first_cookie}; {second_cookie}"}  # what the browser sends to either port
    assert first.get("/api/games", headers=both).status_code == 200
    assert second.get("/api/games", headers=both).status_code == 200
    swapped = {"cookie": f"{cookie_name(8770)}={other_token}"}
    assert first.get("/api/games", headers=swapped).status_code == 403


def test_a_browser_without_the_token_gets_a_page_that_says_what_to_do(browser_like: TestClient) -> None:
    opened = browser_like.get("/print", headers={"accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert opened.status_code == 403 and opened.headers["content-type"].startswith("text/html")
    text = re.sub(r"<[^>]+>", "", opened.text)
    assert "Open the address" in text and "?token=…" in text and "\\u" not in opened.text
    assert "<script" not in opened.text
    # A script (no HTML in its Accept) still gets one line of JSON, in UTF-8 rather than escapes.
    scripted = browser_like.get("/api/games")
    assert "…" in one_line_error(scripted, 403) and "\\u2026" not in scripted.text


def test_a_cross_origin_change_is_refused(browser_like: TestClient) -> None:
    browser_like.get(f"/print?token={TOKEN}")  # the cookie, as a browser holds it
    body = {"game": "cointable", "opponent": None}
    foreign = browser_like.post("/api/play", json=body, headers={"origin": "http://evil.example"})
    assert "another site" in one_line_error(foreign, 403)
    other_port = browser_like.post("/api/play", json=body, headers={"origin": "http://127.0.0.1:9999"})
    one_line_error(other_port, 403)
    cross_site = browser_like.post("/api/play", json=body, headers={**ORIGIN, "sec-fetch-site": "cross-site"})
    one_line_error(cross_site, 403)
    # With the cookie alone (no Origin, no CSRF token) a change is refused ...
    assert "CSRF" in one_line_error(browser_like.post("/api/play", json=body), 403)
    # ... the studio's own page (its Origin) or its CSRF token lets it through.
    assert browser_like.post("/api/play", json=body, headers=ORIGIN).status_code == 201
    csrf = {"x-csrf-token": csrf_token(TOKEN)}
    assert browser_like.post("/api/play", json=body, headers=csrf).status_code == 201
    assert one_line_error(browser_like.post("/api/play", json=body, headers={"x-csrf-token": "forged"}), 403)


def test_every_page_has_a_policy_without_inline_script(client: TestClient) -> None:
    for name in PAGES:
        response = client.get(f"/{name}")
        assert response.status_code == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        html = response.text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        assert scripts and all('src="/static/' in attrs and not body.strip() for attrs, body in scripts)
        assert not re.search(r"\son[a-z]+\s*=", html), "no inline event handlers"
        assert "http://" not in html.replace(BASE, "") and "https://" not in html, "no CDN"
        assert csrf_token(TOKEN) in html
    assert client.get("/").status_code == 200  # follows the redirect to the Print page
    assert client.get("/static/studio.js").headers["content-type"].startswith("text/javascript")
    assert one_line_error(client.get("/static/..%2F..%2Fapp.py"), 404)
    assert one_line_error(client.get("/static/app.py"), 404)


def test_an_upload_over_the_input_cap_is_refused_with_413(client: TestClient) -> None:
    big = b" " * (MAX_INPUT_BYTES + 1)
    assert "cap" in one_line_error(client.post("/api/check?game=coinage", content=big), 413)

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(MAX_INPUT_BYTES // (1 << 20) + 1):
            yield b" " * (1 << 20)

    assert "cap" in one_line_error(client.post("/api/check?game=coinage", content=chunks()), 413)


# -- the schema and the forms ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES.names())
def test_every_game_is_listed_with_its_schema(client: TestClient, name: str) -> None:
    listed = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    game = GAMES[name]
    described = listed[name]
    assert described["title"] == game.title
    assert [p["name"] for p in described["params"]] == [p.name for p in game.schema]
    for shown, param in zip(described["params"], game.schema):
        assert (shown["kind"], shown["low"], shown["high"]) == (param.kind, param.low, param.high)
        assert shown["choices"] == list(param.choices) and shown["default"] == param.text(param.default)
    assert described["board"] == [p.name for p in game.schema.shown_in("board")]
    assert [s["player"] for s in described["seats"]] == list(game.players)
    assert described["generated"] == (None if game.generated is None else {"asks": dict(game.generated.asks)})


@pytest.mark.parametrize("name", GAMES.names())
def test_every_game_prints_from_its_form_defaults(client: TestClient, name: str) -> None:
    # What the Print page sends for a form left at its defaults: the values as the schema gives them.
    game = GAMES[name]
    fields = {p.name: p.text(p.default) for p in game.schema.shown_in("board") if p.default is not None}
    fields = {key: value for key, value in fields.items() if value != ""} | seeded(name)
    response = client.get(f"/api/board/{name}.svg", params=fields)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/svg+xml" and response.content.startswith(b"<svg")
    assert client.get(f"/api/board/{name}.svg", params=seeded(name)).content == response.content


# -- the same bytes as the command line ----------------------------------------------------------------------
def seeded(name: str) -> dict[str, str]:
    """A seed for each seed parameter of a game whose default layout is generated (given none,
    both the command line and the studio draw a fresh one)."""
    game = GAMES[name]
    if game.generated is None or not game.generated.of(game.schema.defaults()):
        return {}
    return {p.name: "1234" for p in game.schema.shown_in("board") if p.kind == "seed"}


BOARD_CHOICES = [(name, fmt, seeded(name)) for name in GAMES.names() for fmt in ("pdf", "svg", "geojson")] + [
    ("cointable", "pdf", {"size": "4", "paper": "letter", "style": "ink-saver", "hex": "30mm"}),
    ("mapgame", "pdf", {"countries": "15", "seed": "7", "paper": "a5", "margin": "5mm"}),
    ("coinage", "pdf", {"map": "random", "regions": "5,5", "seed": "11", "copies": "2", "bleed": "3mm"}),
    ("cointable", "svg", {"size": "3", "lang": "sv"}),
    ("cointable", "pdf", {"lang": "sv", "paper": "letter"}),
    ("coinage", "pdf", {"lang": "sv", "copies": "2"}),
]


def test_the_board_is_printed_in_the_language_chosen(client: TestClient) -> None:
    swedish = client.get("/api/board/cointable.svg", params={"lang": "sv"})
    assert swedish.status_code == 200, swedish.text
    assert "Krona sitter här" in swedish.text and "Heads sits here" not in swedish.text
    assert "Heads sits here" in client.get("/api/board/cointable.svg").text
    assert "language code" in one_line_error(client.get("/api/board/cointable.svg", params={"lang": "s v"}), 400)


@pytest.mark.parametrize("name,fmt,fields", BOARD_CHOICES, ids=lambda v: v if isinstance(v, str) else None)
def test_board_bytes_equal_the_command_lines(client: TestClient, tmp_path: Path, name, fmt, fields) -> None:
    target = tmp_path / f"board.{fmt}"
    options = [arg for key, value in fields.items() for arg in (f"--{key.replace('_', '-')}", value)]
    code, output = run("board", name, *options, "-o", str(target))
    assert code == 0, output
    response = client.get(f"/api/board/{name}.{fmt}", params=fields)
    assert response.status_code == 200, response.text
    assert response.content == target.read_bytes()


@pytest.mark.parametrize("name", GAMES.names())
def test_kit_bytes_equal_the_command_lines(client: TestClient, tmp_path: Path, name: str) -> None:
    target = tmp_path / "kit.pdf"
    assert run("kit", name, "-o", str(target))[0] == 0
    assert client.get(f"/api/kit/{name}.pdf").content == target.read_bytes()


def test_kit_choices_and_rule_sheet_bytes_equal_the_command_lines(client: TestClient, tmp_path: Path) -> None:
    kit = tmp_path / "kit.pdf"
    assert run("kit", "cointable", "--paper", "letter", "--lang", "sv", "--style", "ink-saver", "-o", str(kit))[0] == 0
    response = client.get("/api/kit/cointable.pdf", params={"paper": "letter", "lang": "sv", "style": "ink-saver"})
    assert response.content == kit.read_bytes()
    rules = tmp_path / "rules.pdf"
    assert run("rules", "cointable", "--size", "4", "--paper", "a5", "-o", str(rules))[0] == 0
    assert client.get("/api/rules/cointable.pdf", params={"size": "4", "paper": "a5"}).content == rules.read_bytes()


def test_the_kit_follows_the_print_pages_layout_options(client: TestClient, tmp_path: Path) -> None:
    kit = tmp_path / "kit.pdf"
    assert run("kit", "cointable", "--size", "3", "--paper", "letter", "-o", str(kit))[0] == 0
    response = client.get("/api/kit/cointable.pdf", params={"size": "3", "paper": "letter"})
    assert response.status_code == 200 and response.content == kit.read_bytes()
    assert response.content != client.get("/api/kit/cointable.pdf", params={"paper": "letter"}).content
    # The preview is that kit: its board is one page, not the standard board's two tiles.
    assert client.get("/api/kit-pages/cointable", params={"size": "3"}).json()["pages"] == 2
    assert client.get("/api/kit-pages/cointable").json()["pages"] == 3
    one_line_error(client.get("/api/kit/cointable.pdf", params={"size": "99"}), 400)
    one_line_error(client.get("/api/kit/mapgame.pdf", params={"blank": "true"}), 400)


def test_the_kit_preview_has_every_page(client: TestClient) -> None:
    count = client.get("/api/kit-pages/mapgame").json()["pages"]
    assert count >= 2
    for number in range(1, count + 1):
        page = client.get(f"/api/kit-page/mapgame/{number}.svg")
        assert page.status_code == 200 and page.content.startswith(b"<svg")
    one_line_error(client.get(f"/api/kit-page/mapgame/{count + 1}.svg"), 404)


def test_a_map_given_no_seed_gets_a_fresh_one_and_names_it(client: TestClient) -> None:
    for name in GAMES.names():
        if seeded(name):
            response = client.get(f"/api/board/{name}.geojson")
            seed = int(response.headers["x-coinprint-seed"])
            assert f"seed{seed}" in response.headers["content-disposition"]
            again = client.get(f"/api/board/{name}.geojson", params={"seed": str(seed)})
            assert again.content == response.content
            assert isinstance(client.get(f"/api/board-info/{name}").json()["seed"], int)


def test_a_new_map_names_its_seed(client: TestClient) -> None:
    info = client.get("/api/board-info/mapgame", params={"seed": "424242"}).json()
    assert info["seed"] == 424242 and info["spec"].startswith("mapgame:") and "seed=424242" in info["spec"]
    assert info["lines"][0].startswith("seed 424242: ")
    card = client.get("/api/board-info/coinage", params={"map": "random", "seed": "5"}).json()
    assert card["seed"] == 5 and "seed=5" in card["spec"]


# -- refusals: unknown game, out of range, a path, bad input ---------------------------------------------------
@pytest.mark.parametrize(
    "request_args,status,words",
    [
        (("GET", "/api/board/nosuchgame.svg"), 404, "unknown game"),
        (("GET", "/api/kit/nosuchgame.pdf"), 404, "unknown game"),
        (("GET", "/api/rules/nosuchgame.pdf"), 404, "unknown game"),
        (("GET", "/api/board-info/nosuchgame"), 404, "unknown game"),
        (("GET", "/api/board/cointable.svg?size=99"), 400, "out of range"),
        (("GET", "/api/board/mapgame.svg?countries=2"), 400, "out of range"),
        (("GET", "/api/board/mapgame.svg?seed=" + "9" * 30), 400, "seed"),
        (("GET", "/api/board/coinage.pdf?copies=1000"), 400, "copies"),
        (("GET", "/api/board/cointable.svg?size=five"), 400, "whole number"),
        (("GET", "/api/board/cointable.exe"), 400, ".pdf"),
        (("GET", "/api/board/cointable.svg?layout=/etc/passwd"), 400, "takes no layout"),
        (("GET", "/api/board/cointable.svg?paper=../../etc/passwd"), 400, "paper"),
        (("GET", "/api/kit/cointable.pdf?lang=../../etc"), 400, "lang"),
        (("GET", "/api/kit/cointable.pdf?output=/tmp/x.pdf"), 400, "takes no output"),
        (("GET", "/api/board/cointable.svg?size=3&size=4"), 400, "twice"),
        (("GET", "/api/board/cointable.pdf?drawing=nope"), 400, "no such checked drawing"),
        (("GET", "/api/board/flick.svg?bleed=3mm"), 400, "bleed"),
        (("GET", "/api/drawing/nope/report.svg"), 404, "no such"),
        (("GET", "/api/play/nope"), 404, "no such game"),
        (("GET", "/replay/nope"), 404, "no such record"),
        (("GET", "/api/watch/0/events"), 404, "no watched file"),
    ],
)
def test_a_bad_request_is_a_clear_4xx_in_one_line(client: TestClient, request_args, status, words) -> None:
    method, url = request_args
    assert words in one_line_error(client.request(method, url), status)


@pytest.mark.parametrize(
    "body,status,words",
    [
        ({"game": "nosuchgame"}, 404, "unknown game"),
        ({"game": "cointable", "layout": "/etc/passwd"}, 400, "reads no file"),
        ({"game": "cointable", "layout": "../examples/coinage-card.svg"}, 400, "reads no file"),
        ({"game": "cointable", "layout": "coinage:map=classic"}, 400, "not a cointable layout"),
        ({"game": "cointable", "layout": "cointable:size=99"}, 400, "out of range"),
        ({"game": "cointable", "layout": "drawing:nope"}, 400, "no such checked drawing"),
        ({"game": "cointable", "opponent": "wizard"}, 400, "unknown agent"),
        ({"game": "cointable", "opponent": "mcts:iterations=0"}, 400, "iterations"),
        ({"game": "cointable", "seat": "dealer"}, 400, "seat"),
        ({"game": "cointable", "options": {"supply": 0}}, 400, "supply"),
        ({"game": "cointable", "options": {"size": 3}}, 400, "takes no option"),
        ({"game": "cointable", "cheat": True}, 400, "takes no cheat"),
    ],
)
def test_a_bad_game_request_is_refused(client: TestClient, body, status, words) -> None:
    assert words in one_line_error(client.post("/api/play", json=body), status)
    assert one_line_error(client.post("/api/play", content=b"{not json"), 400)


def test_a_malformed_drawing_is_refused_in_one_line(client: TestClient) -> None:
    for body in [b"<svg", b'{"type": ', b"\xff\xfe\x00garbage", b"[1, 2]"]:
        one_line_error(client.post("/api/check?game=coinage", content=body), 400)
    one_line_error(client.post("/api/check?game=coinage", content=b""), 400)
    assert "unknown game" in one_line_error(client.post("/api/check?game=nosuchgame", content=b"<svg/>"), 404)
    assert "takes no path" in one_line_error(client.post("/api/check?path=/etc/passwd", content=b"<svg/>"), 400)


# -- checking a drawing ---------------------------------------------------------------------------------------
def test_a_drawing_with_mistakes_gets_the_command_lines_verdict_and_picture(client: TestClient, tmp_path: Path) -> None:
    report = tmp_path / "report.svg"
    code, output = run("validate", "layout", str(MISTAKES), "--game", "coinage", "--report", str(report))
    assert code == 1
    response = client.post("/api/check?game=coinage&name=coinage-card-mistakes.svg", content=MISTAKES.read_bytes())
    assert response.status_code == 200, response.text
    checked = response.json()
    assert checked["valid"] is False and checked["game"] == "coinage"
    said = [line.replace(str(MISTAKES), MISTAKES.name) for line in output.splitlines() if not line.startswith("wrote")]
    assert checked["lines"] == said
    assert f"{MISTAKES.name}: {checked['verdict']}" in said
    errors = [p for p in checked["problems"] if p["severity"] == "error"]
    assert errors and all(p["message"] for p in errors)
    assert [p["number"] for p in checked["problems"] if p["number"] is not None] == list(
        range(1, 1 + sum(p["severity"] in ("error", "warning") for p in checked["problems"]))
    )
    assert any(p["place"] is not None and len(p["place"]) == 4 for p in checked["problems"])
    picture = client.get(checked["report"])
    assert picture.content == report.read_bytes()
    one_line_error(client.get(f"/api/board/coinage.pdf?drawing={checked['id']}"), 400)


def test_a_valid_drawing_prints_and_plays(client: TestClient, tmp_path: Path) -> None:
    form = {"drawing": ("my card.svg", CARD.read_bytes(), "image/svg+xml")}
    checked = client.post("/api/check?game=coinage", files=form).json()
    assert checked["valid"] is True and checked["source"] == "my card.svg"
    board = tmp_path / "board.pdf"
    assert run("board", "coinage", "--layout", str(CARD), "-o", str(board))[0] == 0
    assert client.get(f"/api/board/coinage.pdf?drawing={checked['id']}").content == board.read_bytes()
    kit = tmp_path / "kit.pdf"
    assert run("kit", "coinage", "--layout", str(CARD), "-o", str(kit))[0] == 0
    assert client.get(f"/api/kit/coinage.pdf?drawing={checked['id']}").content == kit.read_bytes()
    game = client.post(
        "/api/play", json={"game": "coinage", "layout": f"drawing:{checked['id']}", "opponent": "random"}
    )
    assert game.status_code == 201, game.text
    record = play_out(client, game.json())
    assert isinstance(record["layout"], dict)  # the drawn layout travels inline
    assert_validates(record, tmp_path)
    assert one_line_error(
        client.post("/api/play", json={"game": "cointable", "layout": f"drawing:{checked['id']}"}), 400
    )


# -- playing ---------------------------------------------------------------------------------------------------
def play_out(client: TestClient, state: dict, *, limit: int = 3000) -> dict:
    """Play a game to its end: the person plays the first legal move, the computer answers."""
    for _ in range(limit):
        if state["over"]:
            break
        if state["computer_to_move"]:
            response = client.post(f"/api/play/{state['id']}/computer")
        else:
            response = client.post(f"/api/play/{state['id']}/move", json={"move": state["legal"][0]})
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["over"] and state["legal"] == []
    return client.get(f"/api/play/{state['id']}/record").json()


def assert_validates(record: dict, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, output = run("validate", "game", str(path))
    assert code == 0 and ": valid: " in output, output


@pytest.mark.parametrize("name", GAMES.simulated())
def test_a_game_against_the_computer_saves_a_record_that_validates(client: TestClient, tmp_path: Path, name) -> None:
    start = client.post("/api/play", json={"game": name, "opponent": "greedy", "seed": 5})
    assert start.status_code == 201, start.text
    state = start.json()
    assert state["turn"] == GAMES[name].players[0] and state["legal"]
    record = play_out(client, state)
    assert record["game"] == name and record["result"] is not None and record["seed"] == 5
    assert sorted(record["players"].values()) == ["greedy", "person"]
    assert_validates(record, tmp_path)
    board = client.get(f"/api/play/{state['id']}/board.svg")
    assert board.status_code == 200 and board.content.startswith(b"<svg")


def test_coin_age_shows_the_throw_and_refuses_an_illegal_turn_with_the_engines_reason(client: TestClient) -> None:
    state = client.post("/api/play", json={"game": "coinage", "opponent": None, "seed": 9}).json()
    assert state["agents"] == {}
    throw = state["legal"][0].split(";")[0]
    matched = [t[0] for t in throw.split()[1:] if t.endswith("+")]
    assert state["chance"] == (
        f"{len(matched)} match{'es' if len(matched) > 1 else ''}: {', '.join(matched)}" if matched else "no match"
    )
    assert all(turn.split(";")[0] == throw for turn in state["legal"])  # whole turns of this throw
    wrong = "throw Q+ N+ P+ D+; place Q a1" if throw != "throw Q+ N+ P+ D+" else "throw Q- N- P- D-; place Q a1"
    refused = client.post(f"/api/play/{state['id']}/move", json={"move": wrong})
    assert "thrown as" in one_line_error(refused, 422)
    assert "throw" in one_line_error(client.post(f"/api/play/{state['id']}/move", json={"move": "fly away"}), 422)
    assert "person" in one_line_error(client.post(f"/api/play/{state['id']}/computer"), 422)
    # Two people at one screen: both seats are played by moves, undo brings back the very throw.
    after = client.post(f"/api/play/{state['id']}/move", json={"move": state["legal"][-1]}).json()
    assert after["turn"] == "tails" and len(after["moves"]) == 1
    undone = client.post(f"/api/play/{state['id']}/undo").json()
    assert undone["turn"] == "heads" and undone["legal"] == state["legal"] and undone["chance"] == state["chance"]
    assert "no move" in one_line_error(client.post(f"/api/play/{state['id']}/undo"), 422)


def test_undo_against_the_computer_takes_back_its_answer_too(client: TestClient) -> None:
    state = client.post("/api/play", json={"game": "cointable", "opponent": "random", "seat": "heads"}).json()
    moved = client.post(f"/api/play/{state['id']}/move", json={"move": state["legal"][0]}).json()
    answered = client.post(f"/api/play/{state['id']}/computer").json()
    assert len(answered["moves"]) == 2 and answered["turn"] == "heads"
    undone = client.post(f"/api/play/{state['id']}/undo").json()
    assert undone["moves"] == [] and undone["turn"] == "heads"
    assert moved["computer_to_move"] is True
    assert "send the move" in one_line_error(client.post(f"/api/play/{state['id']}/move", json={}), 400)


def test_the_person_may_take_the_second_seat_on_a_generated_map(client: TestClient, tmp_path: Path) -> None:
    state = client.post(
        "/api/play",
        json={"game": "mapgame", "layout": "mapgame:seed=8,countries=11", "opponent": "random", "seat": "X"},
    ).json()
    assert state["computer_to_move"] is True and state["layout"].startswith("mapgame:") and "seed=8" in state["layout"]
    record = play_out(client, state)
    assert record["players"] == {"O": "random", "X": "person"}
    assert_validates(record, tmp_path)


def test_a_game_opens_in_the_replay_page(client: TestClient, tmp_path: Path) -> None:
    state = client.post("/api/play", json={"game": "cointable", "layout": "cointable:size=3", "opponent": "greedy"})
    record = play_out(client, state.json())
    page = client.get(f"/replay/play/{state.json()['id']}")
    assert page.status_code == 200 and 'id="replay-data"' in page.text
    policy = page.headers["content-security-policy"]
    assert "'sha256-" in policy and "unsafe-inline" not in policy
    uploaded = client.post("/api/replay", content=json.dumps(record).encode())
    assert uploaded.status_code == 201
    shown = client.get(uploaded.json()["url"])
    assert shown.status_code == 200 and without_downloads(shown.text) == without_downloads(page.text)
    # A record that names its layout by a path would make the studio read that file: refused.
    pathed = {**record, "layout": "../../etc/passwd"}
    assert "reads no file" in one_line_error(client.post("/api/replay", content=json.dumps(pathed).encode()), 400)
    assert one_line_error(client.post("/api/replay", content=b"not a record"), 400)


def without_downloads(page: str) -> str:
    """A replay page without its download links (which name the page's own address)."""
    return re.sub(r'<p id="download">.*?</p>', "", page, flags=re.S)


def test_the_replay_page_offers_the_time_lapse_the_command_line_writes(client: TestClient, tmp_path: Path) -> None:
    pytest.importorskip("PIL", reason="time-lapses need the video extra")
    state = client.post("/api/play", json={"game": "cointable", "layout": "cointable:size=3", "opponent": "greedy"})
    record = play_out(client, state.json())
    url = client.post("/api/replay", content=json.dumps(record).encode()).json()["url"]
    page = client.get(url).text
    links = re.findall(r'<a href="([^"]+)" download>', page)
    assert f"{url}/timelapse.gif" in links
    (tmp_path / "game.json").write_text(json.dumps(record), encoding="utf-8")
    assert run("replay", str(tmp_path / "game.json"), "-o", str(tmp_path / "game.gif"), "-q")[0] == 0
    for link in links:  # the uploaded record's and the game's own, in every format offered
        got = client.get(link)
        assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
        if link.endswith(".gif"):
            assert got.headers["content-type"] == "image/gif"
            assert got.content == (tmp_path / "game.gif").read_bytes()
    session = client.get(f"/replay/play/{state.json()['id']}/timelapse.gif")
    assert session.status_code == 200 and session.content[:6] == b"GIF89a"
    assert "use one of: gif" in one_line_error(client.get(f"{url}/timelapse.txt"), 400)
    assert "no such record" in one_line_error(client.get("/replay/nope/timelapse.gif"), 404)


def test_a_time_lapse_over_the_frame_cap_is_refused_in_one_line(client: TestClient, monkeypatch) -> None:
    pytest.importorskip("PIL", reason="time-lapses need the video extra")
    from coinprint.playback import timelapse

    state = client.post("/api/play", json={"game": "cointable", "layout": "cointable:size=3", "opponent": "greedy"})
    record = play_out(client, state.json())
    url = client.post("/api/replay", content=json.dumps(record).encode()).json()["url"]
    monkeypatch.setattr(timelapse, "MAX_TIMELAPSE_FRAMES", len(record["moves"]))
    assert "-frame cap" in one_line_error(client.get(f"{url}/timelapse.gif"), 400)


def test_text_from_a_record_is_escaped_in_the_replay_page(client: TestClient) -> None:
    state = client.post("/api/play", json={"game": "cointable", "layout": "cointable:size=2", "opponent": "random"})
    record = play_out(client, state.json())
    record["players"] = {"heads": "<script>alert(1)</script>", "tails": "<img src=x onerror=alert(2)>"}
    page = client.get(client.post("/api/replay", content=json.dumps(record).encode()).json()["url"]).text
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)" in page


def test_the_watch_list_names_only_the_files_given(tmp_path: Path) -> None:
    from coinprint.studio.state import Watched

    drawn = tmp_path / "card.svg"
    drawn.write_bytes(CARD.read_bytes())
    app = create_app(Studio(TOKEN, [Watched(drawn, "coinage")]))
    client = TestClient(app, base_url=BASE, headers={"authorization": f"token {TOKEN}"})
    assert client.get("/api/watch").json() == {"files": [{"number": 0, "name": "card.svg", "game": "coinage"}]}
    assert "card.svg" in client.get("/check").text
    state = client.post("/api/play", json={"game": "coinage", "layout": "watch:0", "opponent": "random"})
    assert state.status_code == 201 and state.json()["layout"] == "card.svg"


def sse(text: str) -> list[tuple[str, dict]]:
    """The events of a finished server-sent event stream: (name, JSON data)."""
    found = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_the_fair_search_streams_its_progress_and_finds_what_board_fair_finds(client: TestClient, tmp_path) -> None:
    choices = ["--seed", "3", "--countries", "11", "--candidates", "3", "--fair-games", "40"]
    code, output = run("board", "mapgame", *choices, "--fair", "-o", str(tmp_path / "fair.pdf"))
    assert code == 0
    fields = {"seed": "3", "countries": "11", "candidates": "3", "fair_games": "40"}
    response = client.get("/api/fair/mapgame/events", params=fields)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    events = sse(response.text)
    progress = [doc for name, doc in events if name == "progress"]
    done = [doc["done"] for doc in progress]
    assert done == sorted(set(done)) and len(done) > 2
    assert progress[-1]["done"] == progress[-1]["total"]
    name, found = events[-1]
    assert name == "done" and found["line"] in output.splitlines()
    assert found["spec"].startswith("mapgame:") and f"seed={found['seed']}" in found["spec"]
    assert (
        client.get("/api/board-info/mapgame", params={"countries": "11", "seed": str(found["seed"])}).status_code == 200
    )


def test_a_fair_search_that_cannot_be_made_is_refused_before_it_starts(client: TestClient) -> None:
    assert "fixed" in one_line_error(client.get("/api/fair/cointable/events"), 400)
    assert "map=random" in one_line_error(client.get("/api/fair/coinage/events"), 400)
    assert "candidates" in one_line_error(client.get("/api/fair/mapgame/events?candidates=1000"), 400)
    assert "agent" in one_line_error(client.get("/api/fair/mapgame/events?agent=wizard"), 400)
    assert one_line_error(client.get("/api/fair/nosuchgame/events"), 404)


def test_watching_a_file_that_is_not_there_is_refused_in_one_line(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    refused = run_cli("studio", "--no-browser", "--watch", str(tmp_path / "nothing.svg"))
    assert refused.code == 2 and refused.out == ""
    assert refused.err.count("\n") == 1 and "no such file" in refused.err


def test_the_table_describes_the_board_and_the_picks_of_every_legal_move(client: TestClient) -> None:
    game = client.post("/api/play", json={"game": "coinage", "opponent": None, "seed": 1}).json()
    board = client.get(f"/api/play/{game['id']}/table").json()
    assert {space["id"] for space in board["spaces"]} == {
        f"{r}{c}" for r, c in ("A1 A2 A3 B1 B2 B3 B4 C1 C2 C3".split())
    }
    assert len({space["fill"] for space in board["spaces"]}) >= 3  # regions in their printed colours
    assert len(game["picks"]) == len(game["legal"])
    banks = [tray for tray in game["trays"] if tray["player"] == "heads"]
    assert {coin["pick"] for coin in banks[0]["coins"]} == {"bank:Q", "bank:N", "bank:P", "bank:D"}
    for text, ways in zip(game["legal"], game["picks"]):
        places = [a.split()[1:] for a in text.split("; ")[1:] if a.startswith("place")]
        assert ways[0] == [pick for place in places for pick in (f"bank:{place[0]}", place[1].upper())]
        for way in ways:  # the same places, in any order the rules allow: a bank coin, then its space
            pairs = [[p.removeprefix("bank:"), s.lower()] for p, s in zip(way[0::2], way[1::2])]
            assert sorted(pairs) == sorted(places)


def test_games_in_progress_are_listed_newest_first(client: TestClient) -> None:
    first = client.post("/api/play", json={"game": "cointable", "opponent": None}).json()
    second = client.post("/api/play", json={"game": "mapgame", "opponent": None}).json()
    listed = [game["id"] for game in client.get("/api/play").json()]
    assert listed.index(second["id"]) < listed.index(first["id"])


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/play/nosuchgame/table"),
        ("POST", "/api/play/nosuchgame/hint"),
        ("POST", "/api/play/nosuchgame/stop"),
    ],
)
def test_the_table_endpoints_refuse_an_unknown_game_in_one_line(client: TestClient, method: str, path: str) -> None:
    assert "no such game" in one_line_error(client.request(method, path, headers=ORIGIN), 404)


def test_a_hint_names_a_legal_move_and_is_refused_once_the_game_is_over(client: TestClient) -> None:
    game = client.post(
        "/api/play", json={"game": "mapgame", "layout": "mapgame:countries=5,seed=1", "opponent": None}
    ).json()
    hint = client.post(f"/api/play/{game['id']}/hint", headers=ORIGIN).json()
    assert hint["move"] in game["legal"]
    assert hint["picks"] in game["picks"][game["legal"].index(hint["move"])]
    while not game["over"]:
        game = client.post(f"/api/play/{game['id']}/move", json={"move": game["legal"][0]}).json()
    assert "over" in one_line_error(client.post(f"/api/play/{game['id']}/hint", headers=ORIGIN), 422)


def test_stopping_the_computer_ends_its_thinking() -> None:
    from coinprint.studio.play import RefusedMove

    studio = Studio(TOKEN)
    client = TestClient(create_app(studio), base_url=BASE, headers={"authorization": f"token {TOKEN}"})
    game = client.post(
        # Seed 4 throws four matches first (5,965 turns to weigh); a throw with one legal turn
        # (no match) would be answered at once, with nothing to stop.
        "/api/play",
        json={"game": "coinage", "opponent": "mcts:iterations=1000000", "seat": "tails", "seed": 4},
    ).json()
    session = studio.sessions.get(game["id"])
    outcome: list[BaseException] = []

    def think() -> None:
        try:
            session.computer()
        except RefusedMove as exc:
            outcome.append(exc)

    thinking = threading.Thread(target=think, daemon=True)
    thinking.start()
    while not session.thinking and thinking.is_alive():
        thinking.join(0.01)
    assert client.post(f"/api/play/{game['id']}/stop", headers=ORIGIN).json() == {"stopped": True}
    thinking.join(120)  # a million iterations would take many minutes
    assert not thinking.is_alive()
    assert "stopped" in str(outcome[0])
    assert client.get(f"/api/play/{game['id']}").json()["moves"] == []
