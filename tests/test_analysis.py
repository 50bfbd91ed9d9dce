"""The layer above the games: layouts named in records, self-play into a folder."""

import json

import pytest

from coinprint.analysis import play_to_folder, resolve_layout, validate_record
from coinprint.errors import UnreadableInputError, UsageError
from coinprint.games.cointable.board import build
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan


def test_records_played_on_a_layout_file_validate_from_anywhere(tmp_path, monkeypatch):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "small.geojson").write_text(build(3).dumps())
    monkeypatch.chdir(tmp_path)
    paths, summary = play_to_folder(
        "boards/small.geojson", {"heads": "random", "tails": "random"}, RunPlan(3, 5, 500), "games"
    )
    assert summary.games == 3 and len(paths) == 3
    paths = [p.resolve() for p in paths]
    record = json.loads(paths[0].read_text())
    assert record["layout"] == "../boards/small.geojson"  # relative to the record itself
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for path in paths:
        _, _, replayed = validate_record(str(path))
        assert replayed.valid


def test_built_in_names_and_inline_layouts_resolve():
    assert len(resolve_layout("cointable:size=3")) == 19
    assert len(resolve_layout(json.loads(build(2).dumps()))) == 7
    with pytest.raises(UnreadableInputError, match="neither a built-in name"):
        resolve_layout("nowhere.geojson")
    with pytest.raises(UsageError, match="unknown cointable layout parameter"):
        resolve_layout("cointable:sides=3")


def test_self_play_refuses_bad_counts_and_agents(tmp_path):
    with pytest.raises(UsageError, match="--games must be a whole number from 1 to"):
        play_to_folder("cointable:size=2", {"heads": "random", "tails": "random"}, RunPlan(0, 1, 10), str(tmp_path))
    with pytest.raises(UsageError, match="unknown agent 'clever'"):
        play_to_folder("cointable:size=2", {"heads": "clever", "tails": "random"}, RunPlan(1, 1, 10), str(tmp_path))


def test_wilson_interval_matches_the_textbook_value():
    from coinprint.analysis import Balance, PlaySummary

    # 50 of 100: the 95 % Wilson interval is 0.4038 to 0.5962 (z = 1.96; worked by hand).
    report = Balance("x", "random", "heads", PlaySummary(100, {"heads": 50, "tails": 50}, 0, 0, 10.0))
    share, low, high = report.first_player_share()
    assert share == 0.5 and low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert "no clear first-player edge" in report.describe()
    lopsided = Balance("x", "random", "heads", PlaySummary(100, {"heads": 80, "tails": 20}, 0, 0, 10.0))
    assert "heads (moving first) has the edge" in lopsided.describe()


def test_balance_and_analyse_share_one_wilson_interval():
    import coinprint.analysis
    from coinprint.analysis import Balance, PlaySummary
    from coinprint.stats import wilson

    for first, second, ties in ((7, 3, 2), (1, 0, 0), (333, 350, 17)):
        summary = PlaySummary(first + second + ties, {"heads": first, "tails": second}, ties, 0, 10.0)
        share = wilson(first, first + second)
        assert Balance("x", "random", "heads", summary).first_player_share() == (share.value, share.low, share.high)
    assert not hasattr(coinprint.analysis, "summarise")  # the runner's Tally replaced it


def test_balance_counts_the_same_games_self_play_writes(tmp_path):
    from coinprint.analysis import balance

    report = balance(GAMES["cointable"], "cointable:size=3", "random", RunPlan(12, 40, 500))
    paths, summary = play_to_folder(
        "cointable:size=3", {"heads": "random", "tails": "random"}, RunPlan(12, 40, 500), str(tmp_path)
    )
    results = [json.loads(p.read_text()).get("result") for p in paths]
    heads_wins = sum(1 for r in results if r and r["winner"] == "heads")
    assert report.summary.wins["heads"] == heads_wins == summary.wins["heads"]
    assert report.summary.games == 12


def test_balance_refuses_a_layout_of_another_game_and_plays_flick(cli):
    result = cli("balance", "cointable", "--layout", "mapgame", "--games", "2")
    assert result.code == 2 and "is a mapgame layout, not cointable" in result.err
    result = cli("balance", "flick", "--games", "4", "--seed", "3", "--workers", "1")
    assert result.code == 0, result.err
    assert "flick, random v random: 4 games" in result.out
