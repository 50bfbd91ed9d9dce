"""Flick played by agents: every simulated game is a record the referee re-simulates and
accepts; a log that parts from the physics is refused at the event where it parts; a hand's
noise has the spread its skill level says; the shots the agents try start behind their line,
outside the goal; the same seed plays the same game."""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import replace

import pytest

from coinprint.agents import make_agent
from coinprint.engine import InvalidMoveError, replay
from coinprint.games.flick.board import build
from coinprint.games.flick.rules import SKILLS, Event, FlickRules
from coinprint.games.flick.search import FlickSearch, scene_centre
from coinprint.search import play_game


def _engines(**options: object) -> tuple[FlickRules, FlickSearch]:
    rules = FlickRules(build(), dict(options))
    return rules, FlickSearch(rules)


def _game(seed: int, heads: str = "random", tails: str = "aim:repeats=2") -> tuple[FlickRules, list[object]]:
    rules, search = _engines()
    agents = {"heads": make_agent(heads), "tails": make_agent(tails)}
    outcome = play_game(search, agents, random.Random(seed), 200)
    return rules, outcome.moves


@pytest.mark.parametrize("seed", range(6))
def test_a_played_game_is_a_record_the_referee_re_simulates_and_accepts(seed: int) -> None:
    rules, moves = _game(seed)
    shots = [m for m in moves if isinstance(m, dict) and "shot" in m]
    assert shots and all({"at", "direction", "speed"} <= set(shot) for shot in shots)
    state = rules.initial_state()
    for text in moves:  # checked: each event against the physics
        rules.apply(state, rules.parse_move(state, text))
    assert rules.is_over(state)
    assert state.scene is not None, "the referee followed every shot"


def test_a_log_that_parts_from_the_physics_is_refused_where_it_parts() -> None:
    rules, moves = _game(1)
    first_after_shot = 1
    event = dict(moves[first_after_shot])  # type: ignore[arg-type]
    wrong = {"goal-coin-moved": 1} if "goal-coin-moved" not in event else {"stop": True}
    tampered = [*moves[:first_after_shot], wrong, *moves[first_after_shot + 1 :]]
    found = replay(rules, tampered)
    assert found.error is not None and found.error.startswith("move 2 (")
    assert "the physics says" in found.error and "\n" not in found.error


def test_a_shot_the_table_cannot_take_is_refused_in_one_line() -> None:
    rules, _ = _engines()
    state = rules.initial_state()
    inside = {"shot": "heads", "coin": "h1", "at": [0.0, 0.0], "direction": 90.0, "speed": 1.0}
    with pytest.raises(InvalidMoveError, match="starts inside the goal") as refused:
        rules.apply(state, rules.parse_move(state, inside))
    assert "\n" not in str(refused.value)


def test_old_logs_without_shot_parameters_are_judged_as_before() -> None:
    rules, _ = _engines()
    log = [{"shot": "heads", "coin": "h1"}, {"enter": "h1", "edge": "heads"}, {"stop": True}]
    state = replay(rules, log).state
    assert state.in_goal["h1"] and state.scene is None  # no longer known where the coins lie


def test_a_shot_planned_in_another_position_is_set_up_where_the_hand_can_play_it() -> None:
    """Tree search replays a planned line of shots after other noisy shots: the coin it meant
    may have gone into the goal, and a coin may now lie where the shot was to start."""
    rules, search = _engines()
    state = rules.initial_state()
    meant = search.candidates(state)[0]
    assert meant.aim is not None and state.scene is not None
    start = meant.aim[:2]
    other = next(c for c in state.scene.coins if c.id.startswith("t"))
    state.scene = replace(
        state.scene,
        coins=tuple(replace(c, x=start[0], y=start[1]) if c.id == other.id else c for c in state.scene.coins),
    )
    state.in_goal[meant.coin] = True  # the planned coin went in meanwhile
    steps = search.execute(state, meant, random.Random(3))
    shot = steps[0]
    assert shot.coin != meant.coin and rules.face_of("heads") == state.faces[shot.coin]
    assert shot.aim is not None and math.dist(shot.aim[:2], start) >= 5.0  # moved off the coin there
    for step in steps:  # checked, each event against the physics
        rules.apply(state, step)
    assert state.scene is not None


@pytest.mark.parametrize("skill", ["expert", "club", "beginner"])
def test_a_hands_noise_has_the_spread_of_its_skill(skill: str) -> None:
    rules, search = _engines(skill=skill)
    state = rules.initial_state()
    meant = search.candidates(state)[0]
    assert meant.aim is not None
    rng = random.Random(7)
    directions, speeds = [], []
    for _ in range(300):
        executed = search.execute(state, meant, rng)[0]
        assert executed.aim is not None and executed.aim[:2] == meant.aim[:2]
        directions.append(executed.aim[2] - meant.aim[2])
        speeds.append(executed.aim[3] / meant.aim[3] - 1)
    direction_sigma, speed_sigma = SKILLS[skill]
    assert statistics.pstdev(directions) == pytest.approx(direction_sigma, rel=0.15)
    assert statistics.pstdev(speeds) == pytest.approx(speed_sigma, rel=0.15)
    assert abs(statistics.mean(directions)) < 3 * direction_sigma / math.sqrt(300)


def test_an_exact_hand_plays_the_shot_meant() -> None:
    rules, search = _engines(skill="exact")
    state = rules.initial_state()
    meant = search.candidates(state)[0]
    assert search.execute(state, meant, random.Random(1))[0] == meant


@pytest.mark.parametrize("player", ["heads", "tails"])
def test_candidate_shots_start_behind_the_players_line_and_outside_the_goal(player: str) -> None:
    rules, search = _engines(first=player)
    state = rules.initial_state()
    scene = state.scene
    assert scene is not None
    side = next(p.side for p in rules.seated if p.name == player)
    a, b = scene.goal[side - 1], scene.goal[side % len(scene.goal)]
    centre = scene_centre(scene)
    candidates = search.candidates(state)
    assert len(candidates) >= 9
    for shot in candidates:
        assert shot.player == player and shot.aim is not None
        x, y = shot.aim[:2]
        # On the far side of the player's line from the goal's centre.
        cross = lambda p: (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])  # noqa: E731
        assert cross((x, y)) * cross(centre) < 0


def test_the_same_seed_plays_the_same_game() -> None:
    _, first = _game(4)
    _, again = _game(4)
    assert json.dumps(first) == json.dumps(again)


def test_a_coin_knocked_off_the_table_comes_back_where_its_shot_starts() -> None:
    rules, _ = _engines()
    state = rules.initial_state()
    assert state.scene is not None
    from dataclasses import replace

    state.scene = replace(state.scene, coins=tuple(c for c in state.scene.coins if c.id != "h1"))
    shot = Event("shot", coin="h1", player="heads", aim=(0.0, -140.0, 90.0, 0.3))
    rules.apply(state, shot)
    while state.in_shot:
        rules.apply(state, rules.legal_moves(state)[0])
    assert state.scene is not None and "h1" in state.scene.ids


def test_play_flick_writes_records_that_validate_game_accepts(cli, tmp_path) -> None:
    result = cli("play", "flick", "--games", "3", "--seed", "5", "--workers", "1", "-o", str(tmp_path))
    assert result.code == 0, result.err
    records = sorted(tmp_path.glob("flick-*.json"))
    assert len(records) == 3
    for record in records:
        checked = cli("validate", "game", str(record))
        assert checked.code == 0 and ": valid:" in checked.out, checked.out + checked.err


@pytest.mark.parametrize(
    "shot,why",
    [
        ({"at": [float("nan"), -120.0], "direction": 90.0, "speed": 1.0}, "NaN is not a number JSON allows"),
        ({"at": [0.0, -120.0], "direction": float("inf"), "speed": 1.0}, "Infinity is not a number JSON allows"),
        ({"at": [0.0, -120.0], "direction": 90.0, "speed": 1e9}, "speed must be above 0 and at most"),
        ({"at": [0.0, -1e7], "direction": 90.0, "speed": 1.0}, "off the table"),
        ({"at": [0.0, 0.0], "direction": 90.0, "speed": 1.0}, "starts inside the goal"),
    ],
)
def test_a_hostile_shot_in_a_log_is_refused_in_one_line(cli, tmp_path, shot: dict, why: str) -> None:
    path = tmp_path / "hostile.json"
    moves = [{"shot": "heads", "coin": "h1", **shot}]
    doc = {"format": "coinprint-record/1", "game": "flick", "layout": "flick", "players": {}, "moves": moves}
    path.write_text(json.dumps(doc, allow_nan=True))
    result = cli("validate", "game", str(path))
    assert result.code in (1, 2) and why in result.err + result.out
    assert "Traceback" not in result.err and len((result.err + result.out).strip().splitlines()) <= 2


def test_a_log_of_a_million_events_is_refused_in_one_line(cli, tmp_path) -> None:
    events = [{"shot": "heads", "coin": "h1"}, {"stop": True}, {"shot": "tails", "coin": "t1"}, {"stop": True}]
    path = tmp_path / "million.json"
    moves = events * 250_000 + [{"shot": "heads", "coin": "h1"}]  # 1,000,001 events
    doc = {"format": "coinprint-record/1", "game": "flick", "layout": "flick", "players": {}, "moves": moves}
    path.write_text(json.dumps(doc))
    result = cli("validate", "game", str(path))
    assert result.code == 2, result.err
    assert result.err.strip() == f"coinprint: error: {path} has 1,000,001 moves, over the 1,000,000-move cap"


@pytest.mark.slow
def test_the_aiming_player_beats_the_random_one() -> None:
    won = lost = 0
    for seed in range(20):
        for aim_side in ("heads", "tails"):
            heads, tails = ("aim", "random") if aim_side == "heads" else ("random", "aim")
            rules, moves = _game(seed, heads, tails)
            result = replay(rules, moves).result.winner
            won += result == aim_side
            lost += result not in (None, aim_side)
    assert won >= 0.85 * (won + lost)


@pytest.mark.slow
def test_the_search_player_beats_the_aiming_one() -> None:
    won = lost = 0
    for seed in range(6):
        for search_side in ("heads", "tails"):
            spec = "mcts:iterations=200"
            heads, tails = (spec, "aim") if search_side == "heads" else ("aim", spec)
            rules, moves = _game(seed, heads, tails)
            result = replay(rules, moves).result.winner
            won += result == search_side
            lost += result not in (None, search_side)
    assert won > lost


def test_a_shot_under_way_shows_the_coins_sliding_as_the_physics_moves_them() -> None:
    """The pictures of a shot under way, one every 40 ms: the shot coin leaves from where it
    was placed, never moves farther between two pictures than its speed allows, slows down
    (friction only takes speed away), and the last picture is close to where it stops."""
    from coinprint.games.flick.view import FlickView

    rules, search = _engines()
    state = rules.initial_state()
    meant = search.candidates(state)[0]
    assert meant.aim is not None
    x, y, _, speed = meant.aim
    pictures = FlickView(rules).motion(state, meant)
    assert len(pictures) >= 3
    path = [next(m.at for m in marks if m.text == meant.coin) for marks in pictures]
    assert all(p is not None for p in path)
    reach = speed * 1000 * 0.04  # mm in 40 ms at the release speed
    assert math.dist((x, y), path[0]) <= reach + 1e-6
    steps = [math.dist(a, b) for a, b in zip(path, path[1:])]  # type: ignore[arg-type]
    assert max(steps) <= reach + 1e-6
    assert steps[-1] <= steps[0]
    after = state.copy()
    for step in search.exactly(state, meant):
        rules.apply_unchecked(after, step)
    assert after.scene is not None
    rest = after.scene.coin(meant.coin)
    assert math.dist(path[-1], (rest.x, rest.y)) <= reach  # the last picture is at most 40 ms from rest


def test_a_flick_game_is_measured_by_its_turns_not_its_events() -> None:
    """A shot and what the table did after it are one turn: the length `analyse` reports is the
    number of shots, each shot's position weighed once, and the move kinds are shots."""
    from coinprint.game import Engines
    from coinprint.games.flick.view import FlickView
    from coinprint.metrics import game_metrics

    rules, search = _engines()
    agents = {"heads": make_agent("aim:repeats=2"), "tails": make_agent("random")}
    outcome = play_game(search, agents, random.Random(3), 200)
    shots = sum(1 for m in outcome.moves if isinstance(m, dict) and "shot" in m)
    assert outcome.turns == shots < len(outcome.moves)
    record = type("Record", (), {"moves": outcome.moves, "extra": {}})()
    measured = game_metrics(Engines(rules, search, FlickView(rules)), record)
    assert measured.length == shots
    assert dict(measured.kinds) == {"shot": shots} and measured.first_kind == "shot"
    assert measured.branching == pytest.approx(
        statistics.mean(len(search.candidates(s)) for s in _decision_states(rules, outcome.moves))
    )


def _decision_states(rules: FlickRules, moves: list[object]) -> list[object]:
    """The positions a shot was chosen from, replayed here."""
    state, found = rules.initial_state(), []
    for text in moves:
        move = rules.parse_move(state, text)
        if move.kind == "shot":
            found.append(state.copy())
        rules.apply(state, move)
    return found


def test_a_team_game_is_played_with_each_sides_agent_on_each_of_its_seats(cli, tmp_path) -> None:
    result = cli(
        "play", "flick", "--layout", "flick:players=4", "--heads", "aim:repeats=2", "--tails", "random",
        "--games", "2", "--seed", "4", "--workers", "1", "-o", str(tmp_path),
    )  # fmt: skip
    assert result.code == 0, result.err
    for path in sorted(tmp_path.glob("flick-*.json")):
        doc = json.loads(path.read_text())
        assert doc["players"] == {
            "heads-1": "aim:repeats=2",
            "tails-1": "random",
            "heads-2": "aim:repeats=2",
            "tails-2": "random",
        }
        shooters = {m["shot"] for m in doc["moves"] if isinstance(m, dict) and "shot" in m}
        assert shooters <= set(doc["players"]) and len(shooters) >= 2
        checked = cli("validate", "game", str(path))
        assert checked.code == 0 and ": valid:" in checked.out, checked.out + checked.err
