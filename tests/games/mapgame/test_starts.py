"""X's start never borders O's on the maps coinprint grows now (``starts=apart``), and a
record written before that rule still replays on the map it was played on."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout, validate_record
from coinprint.games.mapgame import board as mapgame

RECORD_BEFORE_STARTS_APART = {
    "format": "coinprint-record/1",
    "game": "mapgame",
    "layout": "mapgame:countries=21,seed=0,growth=packed",
    "options": {},
    "players": {"O": "greedy", "X": "random"},
    "seed": 5,
    "moves": [
        "move 21 send 19",
        "move 15",
        "move 14",
        "move 14 send 15",
        "move 14 send 19",
        "move 15",
        "move 15 send 19",
        "move 15 send 4",
        "move 3",
        "move 14",
        "move 8",
        "move 16",
        "move 7",
        "move 7 send 20",
        "move 13",
        "move 2",
        "move 12",
        "move 5",
        "move 10",
        "move 4",
        "move 9",
        "move 2",
        "move 6",
        "move 3",
        "move 3 send 19",
        "move 15",
        "move 1",
        "move 6",
        "move 2",
        "move 4",
        "move 4 send 5",
        "move 4 send 6",
        "move 4 send 3",
        "move 4 send 9",
        "move 18",
        "move 2",
        "move 9",
        "move 3",
        "move 8",
        "move 8 send 10",
        "move 8 send 5",
        "move 2",
        "move 2 send 9",
        "move 10",
        "move 7",
        "move 9",
        "move 17",
        "move 3",
        "move 13",
        "move 4",
        "move 11",
        "move 6",
        "move 12",
        "move 3",
        "move 11",
        "move 4",
        "move 12",
        "move 5",
        "move 11",
        "move 4",
        "move 13",
        "move 5",
        "move 11",
        "move 2",
        "move 12",
        "move 1",
        "move 11",
        "move 3",
        "move 7",
        "move 8",
        "move 16",
        "move 9",
        "move 17",
        "move 10",
        "move 21",
        "move 8",
        "move 20",
        "move 2",
        "move 21",
        "move 3",
        "move 16",
        "move 1",
        "move 14",
        "move 3",
        "move 15",
        "move 8",
        "move 19",
    ],
    "result": {"winner": "O", "score": {"O": 16, "X": 5}, "reason": "every country claimed"},
}
"""Written by ``coinprint play mapgame --seed 5`` before starts were kept apart: on that map
X's start (21) borders O's (20), and O captures X with the very first move."""


def starts(layout) -> tuple[str, str]:
    (o,) = [space.id for space in layout.spaces if space.start == "O"]
    (x,) = [space.id for space in layout.spaces if space.start == "X"]
    return o, x


def test_an_old_record_still_validates(tmp_path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(RECORD_BEFORE_STARTS_APART))
    _, _, replayed = validate_record(str(path))
    assert replayed.valid, replayed.report()
    # Its spec still names the map whose starts touch (the capture on move 1 needs it).
    o, x = starts(builtin_layout(RECORD_BEFORE_STARTS_APART["layout"]))
    assert x in builtin_layout(RECORD_BEFORE_STARTS_APART["layout"]).neighbours(o)


def test_the_same_map_with_starts_apart_keeps_them_apart() -> None:
    layout = builtin_layout("mapgame:countries=21,seed=0,growth=packed,starts=apart")
    o, x = starts(layout)
    assert x not in layout.neighbours(o)
    assert mapgame.layout_name(layout).endswith("growth=packed,starts=apart,arcs=folded")  # no arcs: folded


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), countries=st.sampled_from([5, 9, 21, 31]), growth=st.sampled_from(mapgame.GROWTHS))
def test_new_maps_never_start_side_by_side(seed: int, countries: int, growth: str) -> None:
    from coinprint.analysis import check_layout
    from coinprint.checks import errors

    layout = mapgame.build(countries, seed, growth=growth)
    o, x = starts(layout)
    assert x not in layout.neighbours(o)
    assert not errors(check_layout(layout))
    assert layout.params["starts"] == "apart"


def test_a_bad_starts_value_names_the_choices() -> None:
    from coinprint.errors import UsageError

    with pytest.raises(UsageError, match="mapgame starts 'near' is not one of: apart, any"):
        builtin_layout("mapgame:countries=21,starts=near")
