"""Replay pages, read back without a browser: every frame's coins are where the rules engine
puts them, the Map is drawn country by country first, Coin Age turns show their throws,
Flick events their penalties, invalid records stop in red, and text from files stays text."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from coinprint.analysis import builtin_layout
from coinprint.playback.page import page_from_record, script_json
from coinprint.render.board import Frame
from tests.replaycheck import (
    NAME,
    coins_seen,
    expected_coins,
    first_point,
    page_data,
    positions,
    write_record,
)

SVG = "{http://www.w3.org/2000/svg}"


def frames_of(page: str) -> tuple[list[dict], list[ET.Element], list[ET.Element]]:
    """The page's frames with their full piece lists, its pieces and its board elements."""
    data = page_data(page)
    start, end = page.index('<svg id="board"'), page.index("</svg>", page.index('<g id="marks">')) + len("</svg>")
    svg = ET.fromstring(page[start:end])
    pieces = list(svg.find(f"{SVG}defs"))
    board = list(next(g for g in svg.iter(f"{SVG}g") if g.get("id") == "base"))
    frames, previous = [], []
    for frame in data["frames"]:
        head, tail, middle = frame["d"]
        current = previous[:head] + middle + previous[len(previous) - tail :]
        frames.append({**frame, "pieces": current})
        previous = current
    return frames, pieces, board


def circles(elements: list[ET.Element]) -> list[tuple[float, float, str]]:
    return [(float(e.get("cx")), float(e.get("cy")), e.get("fill", "")) for e in elements if e.tag == f"{SVG}circle"]


def same_points(seen: set, wanted: set) -> bool:
    """The same points, to the SVG's 0.001 mm rounding."""
    return len(seen) == len(wanted) and all(any(math.dist(p, q) < 0.002 for q in wanted) for p in seen)


def test_every_frame_shows_the_engines_coins(tmp_path):
    path = write_record(tmp_path, "cointable:size=3", seed=4)
    rules, states = positions(path)
    page = page_from_record(str(path))
    frames, pieces, _ = frames_of(page.html)
    assert len(frames) == len(states)
    for number, (frame, state) in enumerate(zip(frames, states)):
        shown = [pieces[k] for k in frame["pieces"]]
        assert coins_seen(rules, circles(shown)) == expected_coins(rules, state), f"frame {number}"
        assert frame["r"] == number - 1
    assert page.valid and page.moves == len(states) - 1


def test_the_move_list_is_the_records_notation_with_players(tmp_path):
    path = write_record(tmp_path, "cointable:size=3", seed=2)
    record = json.loads(path.read_text())
    rules, states = positions(path)
    rows = page_data(page_from_record(str(path)).html)["rows"]
    assert [r["t"] for r in rows] == record["moves"]
    assert [r["p"] for r in rows] == [rules.to_move(s) for s in states[:-1]]
    assert rows[-1]["note"] == rules.result(states[-1]).reason


def test_a_map_game_starts_with_the_map_drawn_country_by_country(tmp_path):
    path = write_record(tmp_path, "mapgame:countries=9,seed=3", seed=1, max_turns=30)
    rules, states = positions(path)
    layout = rules.layout
    page = page_from_record(str(path))
    frames, pieces, board = frames_of(page.html)
    countries = sorted(layout.spaces, key=lambda s: s.order)
    assert len(frames) == len(countries) + len(states)
    placement = Frame(layout)
    height = float(page.html.split('viewBox="0 0 ', 1)[1].split('"', 1)[0].split()[1])

    def corner(space) -> tuple[float, float]:
        x, y = placement.point(*space.rings[0][0])
        return (round(x, 3), round(height - y, 3))

    outlines = [e for e in board if e.tag == f"{SVG}path"]
    for step, frame in enumerate(frames[: len(countries)], start=1):
        visible = {
            first_point(e.get("d"))
            for i, e in enumerate(board)
            if e.tag == f"{SVG}path" and i not in frame.get("h", [])
        }
        assert same_points(visible, {corner(s) for s in countries[:step]}), f"after {step} countries"
        (newest,) = [pieces[k] for k in frame["pieces"]]
        assert same_points({first_point(newest.get("d"))}, {corner(countries[step - 1])})
        assert not circles([pieces[k] for k in frame["pieces"]])  # no coins while the map is drawn
    assert len(outlines) == len(countries)
    for frame, state in zip(frames[len(countries) :], states):
        assert not frame.get("h")
        assert coins_seen(rules, circles([pieces[k] for k in frame["pieces"]])) == expected_coins(rules, state)


def test_coin_age_turns_show_their_throw(tmp_path):
    path = write_record(tmp_path, "coinage", seed=3)
    rows = page_data(page_from_record(str(path)).html)["rows"]
    assert rows
    for row in rows:
        throw = row["t"].split(";")[0].split()[1:]
        matched = [t[0] for t in throw if t.endswith("+")]
        note = row["note"].split(";")[0]  # the last turn's note also says how the game ended
        if not matched:
            assert note == "no match", row
        else:
            assert note == f"{len(matched)} match{'es' if len(matched) > 1 else ''}: {', '.join(matched)}", row


def flick_log(folder: Path, events: list[dict]) -> Path:
    path = folder / "flick-log.json"
    record = {"format": "coinprint-record/1", "game": "flick", "layout": "flick", "players": {}, "moves": events}
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_flick_shows_each_event_and_the_penalty_it_gave(tmp_path):
    events = [
        {"shot": "heads", "coin": "h1"},
        {"enter": "h1", "edge": "heads"},
        {"stop": True},
        {"shot": "tails", "coin": "t1"},
        {"goal-coin-moved": 2},
    ]
    page = page_from_record(str(flick_log(tmp_path, events)))
    data = page_data(page.html)
    assert [json.loads(r["t"]) for r in data["rows"]] == events
    assert "penalty G" in data["rows"][-1]["note"] and "tails loses" in data["rows"][-1]["note"]
    assert all("penalty" not in r.get("note", "") for r in data["rows"][:-1])
    frames, pieces, _ = frames_of(page.html)
    coins = [[e.text for e in (pieces[k] for k in f["pieces"]) if e.tag == f"{SVG}text"] for f in frames]
    assert all(sorted(c) == ["h1", "h2", "t1", "t2"] for c in coins)  # every coin is drawn in every frame


def test_an_invalid_record_replays_up_to_its_first_illegal_move(tmp_path, cli):
    path = write_record(tmp_path, "cointable:size=3", seed=5)
    record = json.loads(path.read_text())
    record["moves"][4] = record["moves"][0]  # place again on a taken space (or touch a wrong one)
    path.write_text(json.dumps(record))
    result = cli("replay", str(path), "-o", str(tmp_path / "bad.html"))
    assert result.code == 1 and "move 5" in result.out
    page = (tmp_path / "bad.html").read_text()
    frames, pieces, _ = frames_of(page)
    rows = page_data(page)["rows"]
    assert len(frames) == 1 + 4 + 1 and len(rows) == 5
    assert rows[-1]["t"] == record["moves"][0] and rows[-1]["error"]
    assert frames[-1]["bad"] == 1 and frames[-1]["c"].startswith("move 5 (")
    assert frames[-1]["pieces"] == frames[-2]["pieces"]  # the position before the illegal move
    assert 'id="result" class="bad"' in page


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.data: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.data.append(data)


def test_names_from_files_stay_text(tmp_path):
    layout = builtin_layout("cointable:size=3").to_geojson()
    label = "</script><img/src=x>"
    layout["features"][0]["properties"]["label"] = label
    (tmp_path / "board.geojson").write_text(json.dumps(layout))
    path = write_record(tmp_path, str(tmp_path / "board.geojson"), seed=1, players={"heads": NAME, "tails": "Bo\u2028"})
    page = page_from_record(str(path)).html
    parsed = _Elements()
    parsed.feed(page)
    assert parsed.tags.count("script") == 2 and "img" not in parsed.tags
    assert any(NAME in d for d in parsed.data)  # the name is shown as the text it is
    assert label in "".join(parsed.data)  # the space's label, on the board
    assert "\u2028" not in page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert page_data(page)  # and the data still parses


@pytest.mark.parametrize("value", ["</script><script>x()</script>", "<!--<script>", "a\u2028b\u2029c", "&amp;"])
def test_script_json_survives_html_parsing(value):
    text = script_json({"name": value})
    assert "<" not in text and ">" not in text and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"name": value}


def test_play_html_writes_a_page_per_game_and_an_index(tmp_path, cli):
    folder = tmp_path / "games"
    result = cli("play", "cointable", "--size", "3", "--games", "2", "--seed", "1", "--html", "-o", str(folder))
    assert result.code == 0, result.err
    index = (folder / "index.html").read_text()
    for seed in (1, 2):
        record = json.loads((folder / f"cointable-{seed}.json").read_text())
        page = page_from_record(str(folder / f"cointable-{seed}.json"))
        assert (folder / f"cointable-{seed}.html").read_text() == page.html
        assert f'href="cointable-{seed}.html"' in index
        winner = record["result"]["winner"]
        assert (f"{winner} wins" if winner else "a tie") in index


def test_bad_replay_usage_is_one_line(tmp_path, cli):
    missing = cli("replay", str(tmp_path / "none.json"))
    assert missing.code == 2 and missing.err.count("\n") == 1
    path = write_record(tmp_path, "cointable:size=3")
    wrong = cli("replay", str(path), "-o", str(tmp_path / "game.txt"))
    assert wrong.code == 2 and ".html" in wrong.err and wrong.err.count("\n") == 1
    assert not (tmp_path / "game.txt").exists()


def test_a_long_game_page_stays_small(tmp_path):
    path = write_record(tmp_path, "cointable", seed=3, max_turns=2000)
    page = page_from_record(str(path))
    assert page.moves >= 200
    assert len(page.html.encode()) < 2_000_000


def test_board_items_a_position_leaves_out_are_hidden_and_new_ones_added():
    from coinprint.playback.page import _Pieces
    from coinprint.render.scene import Text

    a, b, c, x = (Text((i, 0.0), name) for i, name in enumerate("abcx"))
    pieces = _Pieces([a, b, c, b])
    assert pieces.split([a, b, c, b, x]) == ([0], [])
    assert pieces.split([a, c, x, b]) == ([0], [3])  # one of the two equal b's is gone: the last is hidden
    extra, hidden = pieces.split([x, a])
    assert [pieces.items[k] for k in extra] == [x] and sorted(hidden) == [1, 2, 3]
