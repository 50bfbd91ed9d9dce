"""The Map chase: moves, claims, captures with send-off, the end, records."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import play_to_folder, validate_record
from coinprint.cli import cli
from coinprint.engine import IllegalMoveError, InvalidMoveError, replay
from coinprint.errors import UsageError
from coinprint.games.mapgame import board as mapgame
from coinprint.games.mapgame.check import check as check_map
from coinprint.games.mapgame.rules import MapMove, MapRules
from coinprint.layout import from_geojson
from coinprint.selfplay import RunPlan


def row_of_five():
    """Countries 1-2-3-4-5 in a row (each borders the next); O starts in 4, X in 5."""
    features = []
    for k in range(1, 6):
        x = 30 * (k - 1)
        ring = [[x, 0], [x + 30, 0], [x + 30, 30], [x, 30], [x, 0]]
        props = {"role": "space", "label": str(k), "order": k}
        if k == 4:
            props["start"] = "O"
        if k == 5:
            props["start"] = "X"
        features.append(
            {
                "type": "Feature",
                "id": f"c{k}",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": props,
            }
        )
    return from_geojson({"type": "FeatureCollection", "coinprint": {"game": "mapgame"}, "features": features})


@pytest.fixture
def rules() -> MapRules:
    layout = row_of_five()
    assert check_map(layout) == []
    return MapRules(layout, {})


def play(rules, *moves):
    state = rules.initial_state()
    for text in moves:
        rules.apply(state, rules.parse_move(state, text))
    return state


def test_start(rules) -> None:
    state = rules.initial_state()
    assert rules.to_move(state) == "O"
    assert state.coins == {"O": "c4", "X": "c5"}
    assert state.owner == {"c1": None, "c2": None, "c3": None, "c4": "O", "c5": "X"}
    assert rules.result(state).score == {"O": 1, "X": 1} and not rules.result(state).finished


def test_a_move_claims_an_unclaimed_country(rules) -> None:
    state = play(rules, "move 3")
    assert state.coins["O"] == "c3" and state.owner["c3"] == "O"
    assert rules.to_move(state) == "X"
    assert rules.result(state).score == {"O": 2, "X": 1}


def test_moving_onto_a_claimed_country_changes_nothing(rules) -> None:
    state = play(rules, "move 3", "move 4")  # X walks onto O's country 4: it stays O's
    assert state.coins["X"] == "c4" and state.owner["c4"] == "O"
    assert rules.result(state).score == {"O": 2, "X": 1}


def test_capture_sends_the_coin_away_and_claims_the_country(rules) -> None:
    state = play(rules, "move 5 send 1")
    assert state.coins == {"O": "c5", "X": "c1"}
    assert state.owner["c5"] == "O", "the captured country becomes the mover's"
    assert state.owner["c1"] is None, "the sent coin claims nothing where it lands"
    assert rules.result(state).score == {"O": 2, "X": 0}
    # The sent coin may land on a claimed country, even the mover's own.
    state = play(rules, "move 5 send 4")
    assert state.coins == {"O": "c5", "X": "c4"} and state.owner["c4"] == "O"


@pytest.mark.parametrize(
    "moves, why",
    [
        (["move 2"], "does not border country 4"),
        (["move 4"], "already in country 4"),
        (["move 5"], "say where it goes"),
        (["move 3 send 1"], "nothing to send"),
        (["move 5 send 5"], "another country"),
    ],
)
def test_illegal_moves_say_why(rules, moves, why) -> None:
    state = rules.initial_state()
    with pytest.raises(IllegalMoveError, match=why):
        rules.apply(state, rules.parse_move(state, moves[0]))


@pytest.mark.parametrize("text", ["go 3", "move", "move 9", "move 3 send 77", 7])
def test_bad_notation(rules, text) -> None:
    with pytest.raises(InvalidMoveError):
        rules.parse_move(rules.initial_state(), text)


def test_the_game_ends_when_every_country_is_claimed(rules) -> None:
    state = play(rules, "move 3", "move 4", "move 2")
    assert not rules.is_over(state)
    state = play(rules, "move 3", "move 4", "move 2", "move 3", "move 1")
    assert rules.is_over(state)
    result = rules.result(state)
    assert result.finished and result.winner == "O" and result.score == {"O": 4, "X": 1}
    assert rules.legal_moves(state) == []
    with pytest.raises(IllegalMoveError, match="over"):
        rules.check(state, MapMove("c2"))


def test_legal_moves_round_trip_and_are_legal(rules) -> None:
    state = rules.initial_state()
    moves = rules.legal_moves(state)
    assert MapMove("c3") in moves and MapMove("c5", "c1") in moves and MapMove("c5", "c5") not in moves
    assert len(moves) == 1 + 4  # to 3, or capture on 5 and send to 1-4
    for move in moves:
        rules.check(state, move)
        assert rules.parse_move(state, rules.move_text(state, move)) == move


def test_replay_reports_the_first_illegal_move(rules) -> None:
    replayed = replay(rules, ["move 3", "move 4", "move 1"])
    assert replayed.error == "move 3 (O): move 1 — country 1 does not border country 3 (its neighbours: 2, 4)"


def test_marks_show_claims_and_coins(rules) -> None:
    from coinprint.games.mapgame.view import MapView

    marks = {m.space: m for m in MapView(rules).marks(play(rules, "move 3"))}
    assert set(marks) == {"c3", "c4", "c5"}
    assert marks["c3"].text == "O" and marks["c3"].side == "O" and marks["c3"].ring
    assert marks["c4"].text == "O" and marks["c4"].side == "" and not marks["c4"].ring


def test_options_are_refused() -> None:
    with pytest.raises(UsageError, match="no options"):
        MapRules(row_of_five(), {"supply": 3})


def test_self_play_records_validate(tmp_path) -> None:
    paths, summary = play_to_folder(
        "mapgame:countries=21,seed=3", {"O": "greedy", "X": "random"}, RunPlan(12, 5, 300), str(tmp_path)
    )
    assert len(paths) == 12 and summary.games == 12
    for path in paths:
        record, rules, replayed = validate_record(str(path))
        assert replayed.valid, replayed.report()
        doc = json.loads(path.read_text())
        if doc.get("timeout"):
            assert "result" not in doc and not replayed.result.finished
        else:
            assert replayed.result.finished and doc["result"]["score"] == replayed.result.score


def test_timeouts_are_reported_not_scored(tmp_path) -> None:
    paths, summary = play_to_folder(
        "mapgame:countries=21,seed=3", {"O": "random", "X": "random"}, RunPlan(4, 0, 5), str(tmp_path)
    )
    assert summary.timeouts == 4 and sum(summary.wins.values()) == 0
    assert all(json.loads(p.read_text())["timeout"] is True for p in paths)


def test_a_tampered_record_is_caught(tmp_path) -> None:
    paths, _ = play_to_folder(
        "mapgame:countries=21,seed=3", {"O": "greedy", "X": "greedy"}, RunPlan(1, 1, 300), str(tmp_path)
    )
    doc = json.loads(paths[0].read_text())
    doc["moves"][2] = "move 999"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    runner = CliRunner()
    result = runner.invoke(cli, ["validate", "game", str(bad)], standalone_mode=False)
    assert result.return_value == 1
    assert "move 3 (O): move 999 — there is no country '999'" in result.output


def test_play_command_writes_valid_records(tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "games"
    result = runner.invoke(cli, ["play", "mapgame", "--games", "5", "--seed", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 5 records" in result.output
    for path in sorted(out.glob("*.json")):
        check = runner.invoke(
            cli, ["validate", "game", str(path), "--svg", str(tmp_path / "final.svg")], standalone_mode=False
        )
        assert check.return_value == 0, check.output
    assert "Map after" in (tmp_path / "final.svg").read_text()


@settings(max_examples=20, deadline=None)
@given(game_seed=st.integers(0, 10**6), map_seed=st.integers(0, 50))
def test_random_games_keep_the_books_straight(game_seed, map_seed) -> None:
    """Whatever random legal moves are played: the coins never share a country, the claim
    counts match the claims, every move round-trips through its notation, and replaying the
    notation gives the same position."""
    import random

    rules = MapRules(mapgame.build(9, map_seed), {})
    rng = random.Random(game_seed)
    state = rules.initial_state()
    texts = []
    for _ in range(120):
        if rules.is_over(state):
            break
        move = rng.choice(rules.legal_moves(state))
        text = rules.move_text(state, move)
        assert rules.parse_move(state, text) == move
        texts.append(text)
        rules.apply(state, move)
        assert state.coins["O"] != state.coins["X"]
        for player in ("O", "X"):
            assert state.claimed[player] == sum(1 for owner in state.owner.values() if owner == player)
    replayed = replay(rules, texts)
    assert replayed.error is None
    assert replayed.state.owner == state.owner and replayed.state.coins == state.coins
