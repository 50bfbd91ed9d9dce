"""One suite every game passes, taken from the registry alone (as OpenSpiel's random-simulation
test does for its games): the board builds, passes its own checker and round-trips as GeoJSON;
the same spec gives the same bytes; notation round-trips; states copy independently;
random games recorded as JSON replay and validate; positions draw.

A toy fifth game (``tests/toygame.py``) is registered for this module only: it passes the
same suite without any other file in coinprint knowing of it.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from coinprint.analysis import builtin_layout
from coinprint.boards.checks import errors
from coinprint.games.core import RandomAgent, Record, play_game, read_record, replay
from coinprint.layout import loads
from coinprint.registry import GAMES, GameSpec
from tests import toygame

SEEDS = range(3)


@pytest.fixture(scope="module", autouse=True)
def toy_game_registered() -> Iterator[None]:
    GAMES.register(toygame.SPEC)
    yield
    GAMES.unregister(toygame.SPEC.name)


def every_game() -> list[str]:
    return [*GAMES.names(), toygame.NAME]


def spec_of(name: str) -> GameSpec:
    return GAMES[name]


@pytest.mark.parametrize("name", every_game())
def test_the_board_builds_and_passes_its_own_checker(name: str) -> None:
    spec = spec_of(name)
    layout = builtin_layout(spec.layout_spec)
    assert layout.game == name
    assert not errors(spec.parts.check(layout))


@pytest.mark.parametrize("name", every_game())
def test_the_same_spec_gives_the_same_bytes_and_geojson_round_trips(name: str) -> None:
    spec = spec_of(name)
    first, second = builtin_layout(spec.layout_spec).dumps(), builtin_layout(spec.layout_spec).dumps()
    assert first == second
    assert loads(first).dumps() == first


@pytest.mark.parametrize("name", every_game())
def test_a_bad_parameter_is_a_one_line_usage_error(name: str) -> None:
    from coinprint.errors import UsageError

    with pytest.raises(UsageError) as caught:
        spec_of(name).parts.build({"no-such-parameter": "1"} if name != toygame.NAME else {"squares": "x"})
    assert "\n" not in str(caught.value)


def random_states(spec: GameSpec, seed: int) -> Iterator[tuple[object, object]]:
    """(rules, state) after each move of a random game on the game's default layout."""
    rules = spec.rules(builtin_layout(spec.layout_spec))
    rng = random.Random(seed)
    state = rules.initial_state()
    for _ in range(300):
        if rules.is_over(state):
            return
        rules.begin_turn(state, rng)
        yield rules, state
        rules.apply(state, rules.random_move(state, rng))


@pytest.mark.parametrize("name", every_game())
def test_notation_round_trips_for_every_legal_move(name: str) -> None:
    checked = 0
    for rules, state in random_states(spec_of(name), seed=1):
        for move in rules.legal_moves(state)[:40]:
            assert rules.parse_move(state, rules.move_text(state, move)) == move
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", every_game())
def test_a_copied_state_is_independent(name: str) -> None:
    for rules, state in random_states(spec_of(name), seed=2):
        moves = rules.legal_moves(state)
        if not moves:
            continue
        before = rules.describe(state)
        copy = state.copy()
        rules.apply(copy, moves[-1])
        assert rules.describe(state) == before
        assert rules.describe(copy) != before or rules.is_over(copy)


@pytest.mark.parametrize("name", every_game())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_recorded_as_json_replay_and_validate(name: str, seed: int) -> None:
    spec = spec_of(name)
    rules = spec.rules(builtin_layout(spec.layout_spec))
    outcome = play_game(rules, {p: RandomAgent() for p in rules.players}, random.Random(seed), max_turns=400)
    result = None if outcome.timeout else outcome.result.to_json()
    text = Record(name, spec.layout_spec, outcome.moves, {}, {}, seed, result).dumps()
    record = read_record(text)
    replayed = replay(spec.rules(builtin_layout(str(record.layout))), record.moves, record.result)
    assert replayed.valid, replayed.report()
    assert replayed.moves_played == len(outcome.moves)


@pytest.mark.parametrize("name", every_game())
def test_marks_draw_as_a_well_formed_svg_with_a_coin_per_mark(name: str) -> None:
    from coinprint.kit import position_svg

    spec = spec_of(name)
    for rules, state in random_states(spec, seed=3):
        if len(rules.marks(state)) >= 2:
            break
    svg = ET.fromstring(position_svg(rules, state))
    assert svg.tag.endswith("svg") and svg.get("width", "").endswith("mm")
    texts = [t.text for t in svg.iter() if t.tag.endswith("text") and t.text]
    assert all(m.text in texts for m in rules.marks(state) if m.text)


def test_the_toy_game_is_reachable_by_name_everywhere_a_layout_spec_is() -> None:
    from coinprint import build_board, load_layout

    assert len(build_board("strip", squares=4)) == 4
    assert load_layout("strip:squares=3").game == "strip"
