"""Whole Map games in one record: the arcs drawn as moves, then the chase; records replayed by
``validate game``; refused arcs reported in one line naming the rule and its figure."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from coinprint.engine import replay
from coinprint.games.mapgame.board import circle_radius_mm
from coinprint.games.mapgame.check import check
from coinprint.games.mapgame.drawn import DrawRules
from coinprint.source import resolve_layout, rules_for

RADIUS = circle_radius_mm()


def random_game(seed: int, countries: int = 9) -> tuple[DrawRules, list[str]]:
    rules = rules_for(resolve_layout(f"mapgame:draw=1,countries={countries}", game="mapgame"), {})
    assert isinstance(rules, DrawRules)
    state, rng, moves = rules.initial_state(), random.Random(seed), []
    while not rules.is_over(state):
        move = rng.choice(rules.legal_moves(state))
        moves.append(rules.move_text(state, move))
        rules.apply(state, move)
        assert len(moves) < 2000
    return rules, moves


def write_record(folder: Path, moves: list[str], countries: int = 9) -> Path:
    path = folder / "drawn.json"
    record = {"format": "coinprint-record/1", "game": "mapgame", "layout": f"mapgame:draw=1,countries={countries}"}
    path.write_text(json.dumps(record | {"moves": moves}))
    return path


@pytest.mark.parametrize("seed", range(3))
def test_a_random_whole_game_replays_from_its_text_and_its_map_passes_the_checker(seed: int) -> None:
    rules, moves = random_game(seed)
    arcs = [m for m in moves if m.startswith("arc ")]
    assert len(arcs) == 8 and all(m.startswith("arc ") for m in moves[:8])
    assert all(m.startswith("move ") for m in moves[8:])
    done = replay(rules, moves)
    assert done.valid, done.report()
    state = rules.initial_state()
    for text in moves[:8]:
        rules.apply(state, rules.parse_move(state, text))
    assert rules.phase(state) == "chase"
    assert check(state.drawn.layout()) == []


def test_validate_game_reads_a_drawn_record(tmp_path: Path, cli) -> None:
    _, moves = random_game(1)
    done = cli("validate", "game", str(write_record(tmp_path, moves)))
    assert done.code == 0, done.err
    assert "valid" in done.out


def test_a_refused_arc_names_the_move_the_player_and_the_figure(tmp_path: Path, cli) -> None:
    _, moves = random_game(2)
    # Country 2, too small for the coin: a bump 3 mm high over 0.5 rad of the circle.
    bump = [
        (
            (RADIUS + 3 * math.sin(math.pi * k / 10)) * math.cos(0.05 * k),
            (RADIUS + 3 * math.sin(math.pi * k / 10)) * math.sin(0.05 * k),
        )
        for k in range(11)
    ]
    moves[0] = "arc " + " ".join(f"{x:.4f},{y:.4f}" for x, y in bump)
    done = cli("validate", "game", str(write_record(tmp_path, moves)))
    assert done.code == 1
    line = done.out.strip() + done.err.strip()
    assert "move 1 (O): arc" in line and "the coin does not fit" in line and "21.2 mm is needed" in line


@pytest.mark.parametrize(
    "arc, words",
    [
        ("arc 1,1", "2 to 2000 points, not 1"),
        ("arc nan,0 1,1", "is not an arc"),
        ("arc 15.0865,0 5000,0", "off the page"),
        ("arc 15.0865,0 -15.0865,0", "crosses or touches the map"),
        ("arc " + " ".join(["15.0865,0"] * 3000), "2 to 2000 points"),
        ("move 3", "is not an arc"),
    ],
)
def test_hostile_arcs_get_one_line(tmp_path: Path, cli, arc: str, words: str) -> None:
    done = cli("validate", "game", str(write_record(tmp_path, [arc])))
    assert done.code == 1, done.err
    text = (done.out + done.err).strip()
    assert words in text and "Traceback" not in text
    assert len(text.splitlines()) == 1


def test_the_position_picture_shows_the_map_drawn_so_far() -> None:
    from coinprint.registry import GAMES

    rules, moves = random_game(4)
    state = rules.initial_state()
    pictures = []
    for text in moves[:9]:
        rules.apply(state, rules.parse_move(state, text))
        pictures.append(GAMES["mapgame"].position_svg(rules, state).decode())
    # After k arcs the picture numbers countries 1 to k + 1 (each label once, as text).
    import re

    def labels(svg: str) -> set[str]:
        return set(re.findall(r">(\d+)</text>", svg))

    assert {"1", "2"} <= labels(pictures[0]) and "3" not in labels(pictures[0])
    assert {str(k) for k in range(1, 10)} <= labels(pictures[7])


def test_the_replay_draws_the_map_arc_by_arc_then_the_chase(tmp_path: Path) -> None:
    from coinprint.engine import read_record
    from coinprint.playback.page import scene_frames
    from coinprint.registry import GAMES
    from coinprint.render.scene import Text

    _, moves = random_game(5)
    path = write_record(tmp_path, moves)
    record = read_record(path.read_text())
    rules = rules_for(resolve_layout(record.layout, game="mapgame"), {})
    found = scene_frames(GAMES["mapgame"], record, rules, replay(rules, record.moves))
    assert found.board_layout is not None and len(found.board_layout.spaces) == 9
    # No setup frames: the first frame is the start (the circle alone), then one per move.
    assert len(found.frames) == len(moves) + 1
    labels = {i: item.text for i, item in enumerate(found.board) if isinstance(item, Text)}

    def shown(frame) -> set[str]:
        return {text for i, text in labels.items() if i not in frame.hidden and text.isdigit()}

    assert shown(found.frames[0]) == {"1"}
    for k in range(1, 9):
        assert shown(found.frames[k]) == {str(n) for n in range(1, k + 2)}
    # Each arc's frame tints the new country: one piece over the bare board.
    assert len(found.frames[3].pieces) == len(found.frames[0].pieces) + 1


def test_play_draw_plays_whole_games_drawn_then_chased_that_validate(cli, tmp_path) -> None:
    result = cli("play", "mapgame", "--draw", "--games", "2", "--seed", "3", "--workers", "1", "-o", str(tmp_path))
    assert result.code == 0, result.err
    records = sorted(tmp_path.glob("mapgame-*.json"))
    assert len(records) == 2
    for path in records:
        doc = json.loads(path.read_text())
        assert doc["layout"] == "mapgame:countries=21,draw=1"
        arcs = [m for m in doc["moves"] if m.startswith("arc ")]
        assert len(arcs) == 20 and doc["moves"][:20] == arcs  # countries 2 to 21, then the chase
        checked = cli("validate", "game", str(path))
        assert checked.code == 0 and ": valid:" in checked.out, checked.out + checked.err


def test_the_circle_of_a_drawn_game_is_named_by_the_spec_that_rebuilds_it() -> None:
    from coinprint.games.mapgame.board import blank_layout, layout_name
    from coinprint.source import resolve_layout

    for countries, neighbours in ((21, 4), (9, 3)):
        name = layout_name(blank_layout(max_neighbours=neighbours, countries=countries))
        rebuilt = resolve_layout(name)
        assert rebuilt.params["draw"] == {"countries": countries, "max_neighbours": neighbours}, name


def test_the_maps_design_questions_are_answered_by_play(cli, tmp_path) -> None:
    """Drawing together against a generated map, and the four-neighbour rule against eight,
    each over paired games; the rule's refusals of arcs drawn without it, counted."""
    target = tmp_path / "answers.json"
    result = cli("questions", "mapgame", "--games", "3", "--seed", "2", "--workers", "1", "--json", str(target))
    assert result.code == 0, result.err
    doc = json.loads(target.read_text())
    first, second, third = doc["answers"]
    assert [a["layout"] for a in first["arms"]] == ["mapgame", "mapgame:countries=21,draw=1"]
    # Drawing strategies: only O's drawer differs (the look-ahead chases as greedy does).
    assert [a["agents"]["O"] for a in third["arms"]] == ["greedy", "lookahead"]
    assert [a["layout"] for a in second["arms"]] == [
        "mapgame:countries=21,draw=1",
        "mapgame:countries=21,max_neighbours=8,draw=1",
    ]
    assert all(a["games"] == 3 for q in doc["answers"] for a in q["arms"])
    assert first["corners"] == {} and "physics" not in result.out.splitlines()[0]  # nothing to sweep
    assert "the rule refused" in second["facts"][0]


@pytest.mark.parametrize("seed", range(12))
def test_a_drawn_maps_borders_as_drawn_are_its_layouts_adjacency(seed: int) -> None:
    """The chase on a drawn map takes each country's neighbours from the drawing (no geometry):
    they must be the layout's own borders, as the checker and printing read them."""
    from coinprint.games.mapgame.arcs import DrawnMap, propose_arc

    drawn, rng = DrawnMap(), random.Random(seed)
    while len(drawn) < 21:
        arc = propose_arc(drawn, rng)
        assert arc is not None
        drawn.draw(arc)
    layout = drawn.layout()
    assert drawn.neighbours() == {s.id: frozenset(layout.neighbours(s.id)) for s in layout.spaces}


def test_far_from_the_end_the_search_takes_the_proposal_and_near_it_plays_the_drawing_out() -> None:
    """Tree search weighs no arc it cannot see the chase from (one listed move); play-outs
    within LOOKAHEAD_ARCS finish the map and chase on it, and each value is a play-out's."""
    from coinprint.games.mapgame.search import LOOKAHEAD_ARCS, DrawSearch

    rules, moves = random_game(4, countries=9)
    search = DrawSearch(rules)
    state = rules.initial_state()
    assert len(search.scored_moves(state)) == 1  # 7 arcs to draw after this one: too far
    assert search.playout_total(state, rules.legal_moves(state)[0], "O", random.Random(1), 1000, 8) == 4.0
    while rules.countries - (len(state.drawn) + 1) > LOOKAHEAD_ARCS:
        rules.apply(state, rules.parse_move(state, moves[len(state.drawn) - 1]))
    listed = search.scored_moves(state)
    assert len(listed) == len(rules.legal_moves(state)) > 1
    values = [search.playout_total(state, m.move, "O", random.Random(k), 1000, 40) for k, m in enumerate(listed)]
    # Real play-outs: each a win, a tie or a loss (or cut and judged), not all even.
    assert all(0.0 <= v <= 40.0 for v in values) and any(v != 20.0 for v in values)
    before = rules.move_text(state, listed[0].move), len(state.drawn)
    search.playout_total(state, listed[0].move, "O", random.Random(9), 1000, 20)
    assert (rules.move_text(state, listed[0].move), len(state.drawn)) == before  # the position is left as it was


def test_the_lookahead_drawer_plays_whole_games_and_its_records_validate(cli, tmp_path) -> None:
    result = cli(
        "play",
        "mapgame",
        "--layout",
        "mapgame:countries=9,draw=1",
        "--o-agent",
        "lookahead:playouts=60",
        "--games",
        "2",
        "-o",
        str(tmp_path),
    )
    assert result.code == 0, result.err
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path in records:
        record = json.loads(path.read_text())
        assert record["players"]["O"] == "lookahead:playouts=60"
        checked = cli("validate", "game", str(path))
        assert checked.code == 0 and ": valid: " in checked.out, checked.out
