"""The layer above the games: layouts named in records, self-play into a folder."""

import json

import pytest

from coinprint.analysis import play_to_folder, resolve_layout, validate_record
from coinprint.boards.cointable import build
from coinprint.errors import UnreadableInputError, UsageError


def test_records_played_on_a_layout_file_validate_from_anywhere(tmp_path, monkeypatch):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "small.geojson").write_text(build(3).dumps())
    monkeypatch.chdir(tmp_path)
    paths, summary = play_to_folder("boards/small.geojson", {"heads": "random", "tails": "random"}, 3, 5, 500, "games")
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
    with pytest.raises(UsageError, match="--games must be at least 1"):
        play_to_folder("cointable:size=2", {"heads": "random", "tails": "random"}, 0, 1, 10, str(tmp_path))
    with pytest.raises(UsageError, match="unknown agent 'clever'"):
        play_to_folder("cointable:size=2", {"heads": "clever", "tails": "random"}, 1, 1, 10, str(tmp_path))
