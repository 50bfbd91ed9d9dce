"""The fast play-out paths agree with the reference engines.

Coin Age (:mod:`coinprint.games.coinage.fast`) plays by the reference's play-out policy but
draws its random numbers its own way, so it is checked by what it does: every turn it plays,
replayed through the checked reference engine, is legal and ends in the same position, score
and play-out value; its turns have the reference's shapes (kinds of actions, early stops) and
its play-out values the reference's mean; a seed gives the same play-outs every time; and
Monte Carlo on it still beats random play.

The Map chase (:mod:`coinprint.games.mapgame.fast`) draws exactly the reference's random
numbers, so from many random positions it returns the same play-out sums and a Monte Carlo
agent plays the same game on either path.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout
from coinprint.games.coinage.fast import FastCoinAge, Trace
from coinprint.games.coinage.rules import PLAYERS, CoinAgeRules
from coinprint.games.coinage.state import CoinAgeState, Turn
from coinprint.search import MonteCarloAgent, RandomAgent, Search, play_game
from coinprint.source import engines_for

COINAGE_LAYOUTS = (
    "coinage:map=classic",
    "coinage:map=terraces",
    "coinage:map=random,regions=3-3-2-2-2,seed=4",
)
MAP_LAYOUTS = ("mapgame:countries=21,seed=0", "mapgame:countries=11,seed=3")


@cache
def search(spec: str) -> Search:
    """The game's search on the layout ``spec`` names (its referee is ``.rules``)."""
    return engines_for(builtin_layout(spec)).search


def random_position(search: Search, rng: random.Random, plies: int):
    """A position ``plies`` random moves into a game (fewer if it ends), with the next
    turn's chance (Coin Age's throw) done."""
    rules = search.rules
    state = rules.initial_state()
    for _ in range(plies):
        if rules.is_over(state):
            break
        rules.begin_turn(state, rng)
        rules.apply_unchecked(state, search.playout_move(state, rng))
    if not rules.is_over(state):
        rules.begin_turn(state, rng)
    return state


def fast_playout(fast: FastCoinAge, state: CoinAgeState, me: int, rng: random.Random, depth: int):
    """One fast play-out from ``state``: its value, the turns it played (as the reference
    writes them) and the fast position it ended in."""
    trace = Trace()
    value = fast.playout_total(fast.position(state), me, rng, depth, 1, trace)
    return value, trace.turns[0], trace.finals[0]


# -- Coin Age: the fast path's turns replay as legal through the reference engine ------------------------
@settings(max_examples=80, deadline=None)
@given(
    spec=st.sampled_from(COINAGE_LAYOUTS),
    seed=st.integers(0, 10**9),
    plies=st.integers(0, 30),
    depth=st.integers(1, 80),
    me=st.sampled_from((0, 1)),
)
def test_coinage_fast_turns_replay_legally_to_the_same_position_score_and_value(spec, seed, plies, depth, me):
    found = search(spec)
    game = found.rules
    assert isinstance(game, CoinAgeRules)
    fast = FastCoinAge(game)
    state = random_position(found, random.Random(seed), plies)
    state.throw = None  # the fast path throws for itself
    value, log, (stacks, tops, banks) = fast_playout(fast, state, me, random.Random(seed + 1), depth)
    assert len(log) <= depth
    for throw, actions in log:
        game.apply(state, Turn(throw, tuple(actions)))  # checked: raises on any illegal part
    assert fast.position(state)[:3] == (stacks, tops, banks)
    total = game.scores(state)["total"]
    assert fast.totals(stacks, banks) == (total["heads"], total["tails"])
    player = PLAYERS[me]
    if game.is_over(state) and len(log) < depth:
        winner = game.result(state).winner
        assert value == (1.0 if winner == player else 0.5 if winner is None else 0.0)
    else:
        lead = found.evaluate(state, player)
        assert value == (0.75 if lead > 0 else 0.25 if lead < 0 else 0.5)


def test_coinage_fast_turns_use_every_kind_of_action():
    """The replay test above sees pays, places, moves and captures (else it proves less)."""
    found = search("coinage:map=classic")
    fast = FastCoinAge(found.rules)
    kinds: set[str] = set()
    rng = random.Random(3)
    for seed in range(200):
        state = random_position(found, random.Random(seed), seed % 12)
        _, log, _ = fast_playout(fast, state, 0, rng, 60)
        kinds.update(action[0] for _, actions in log for action in actions)
    assert kinds == {"pay", "place", "move", "capture"}


# -- Coin Age: the same random process as the reference ------------------------------------------------
def mean_values(playout_total, state, move, player: str, seed: int, count: int) -> float:
    return playout_total(state, move, player, random.Random(seed), 60, count) / count


@pytest.mark.parametrize("plies", [0, 4, 8])
def test_coinage_fast_playouts_have_the_reference_mean(plies):
    """From the same position and move, the two paths' mean play-out values differ by less
    than 5 standard errors (values lie in [0, 1], so each has a standard deviation of at most 0.5)."""
    game = search("coinage:map=classic")
    state = random_position(game, random.Random(plies), plies)
    move = game.rules.legal_moves(state)[0]
    player = game.rules.to_move(state)
    count = 1500
    fast = mean_values(game.playout_total, state, move, player, 11, count)
    reference = mean_values(lambda *a: Search.playout_total(game, *a), state, move, player, 12, count)
    assert abs(fast - reference) < 5 * 0.5 * math.sqrt(2 / count)


def turn_shapes_fast(game: CoinAgeRules, state: CoinAgeState, count: int, seed: int) -> Counter:
    """How often each sequence of action kinds (e.g. place, move) makes the next turn, on the fast path."""
    fast, trace = FastCoinAge(game), Trace()
    fast.playout_total(fast.position(state), 0, random.Random(seed), 1, count, trace)
    return Counter(tuple(action[0] for action in turns[0][1]) for turns in trace.turns)


def turn_shapes_reference(game: Search, state: CoinAgeState, count: int, seed: int) -> Counter:
    """The same, with the reference's throw and play-out turn."""
    rng, shapes = random.Random(seed), Counter()
    for _ in range(count):
        game.rules.begin_turn(state, rng)
        shapes[tuple(action[0] for action in game.playout_move(state, rng).actions)] += 1
    return shapes


@pytest.mark.parametrize("plies", [0, 5, 10])
def test_coinage_fast_turns_have_the_reference_shapes(plies):
    """The kinds of actions a play-out turn does, in order (and so how often a turn stops
    early), are distributed alike on both paths: a two-sample chi-square test at p = 1e-4
    (Wilson-Hilferty quantile), on categories seen at least 10 times in all."""
    found = search("coinage:map=classic")
    game = found.rules
    assert isinstance(game, CoinAgeRules)
    state = random_position(found, random.Random(plies), plies)
    state.throw = None
    count = 4000
    fast = turn_shapes_fast(game, state, count, 31)
    reference = turn_shapes_reference(found, state, count, 32)
    common = [shape for shape in fast.keys() | reference.keys() if fast[shape] + reference[shape] >= 10]
    assert len(common) >= 3
    statistic = sum((fast[s] - reference[s]) ** 2 / (fast[s] + reference[s]) for s in common)
    df = len(common) - 1
    quantile = df * (1 - 2 / (9 * df) + 3.72 * math.sqrt(2 / (9 * df))) ** 3
    assert statistic < quantile, (statistic, quantile, fast, reference)


def test_coinage_fast_playouts_are_deterministic_for_a_seed_and_leave_the_state_alone():
    game = search("coinage:map=classic")
    state = random_position(game, random.Random(5), 6)
    before = repr(state)
    move = game.rules.legal_moves(state)[1]
    runs = []
    for _ in range(2):
        rng = random.Random(99)
        runs.append((game.playout_total(state, move, "heads", rng, 60, 50), rng.getstate()))
    assert runs[0] == runs[1]
    assert repr(state) == before
    fast = FastCoinAge(game.rules)
    logs = [fast_playout(fast, state, 0, random.Random(7), 60)[1] for _ in range(2)]
    assert logs[0] == logs[1] and logs[0]


def montecarlo_wins(spec: str, games: int, agent: MonteCarloAgent) -> int:
    """Games the Monte Carlo agent wins against the random agent, half as heads, half as tails."""
    game = search(spec)
    wins = 0
    for seed in range(games):
        strong = game.rules.players[seed % 2]
        agents = {p: agent if p == strong else RandomAgent() for p in game.rules.players}
        outcome = play_game(game, agents, random.Random(seed), 300)
        wins += outcome.result.winner == strong
    return wins


def test_montecarlo_on_the_fast_path_beats_random_play():
    assert montecarlo_wins("coinage:map=classic", 8, MonteCarloAgent(playouts=40, depth=20)) >= 7


@pytest.mark.slow
def test_default_montecarlo_on_the_fast_path_beats_random_play():
    assert montecarlo_wins("coinage:map=classic", 20, MonteCarloAgent()) >= 18


@pytest.mark.slow
@pytest.mark.parametrize("plies", [0, 3, 6, 9, 12])
def test_coinage_fast_playouts_have_the_reference_mean_closely(plies):
    game = search("coinage:map=terraces")
    state = random_position(game, random.Random(plies + 100), plies)
    if game.rules.is_over(state):
        return
    for move in game.rules.legal_moves(state)[:3]:
        player = game.rules.to_move(state)
        count = 6000
        fast = mean_values(game.playout_total, state, move, player, 21, count)
        reference = mean_values(lambda *a: Search.playout_total(game, *a), state, move, player, 22, count)
        assert abs(fast - reference) < 5 * 0.5 * math.sqrt(2 / count)


# -- Map: the same random numbers ----------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    spec=st.sampled_from(MAP_LAYOUTS),
    seed=st.integers(0, 10**9),
    plies=st.integers(0, 40),
    depth=st.integers(1, 80),
)
def test_map_fast_playouts_draw_the_same_numbers_and_give_the_same_sums(spec, seed, plies, depth):
    game = search(spec)
    rng = random.Random(seed)
    state = random_position(game, rng, plies)
    if game.rules.is_over(state):
        return
    before = repr(state)
    player = game.rules.to_move(state)
    for move in game.rules.legal_moves(state)[:6]:
        fast_rng, reference_rng = random.Random(seed + 1), random.Random(seed + 1)
        fast = game.playout_total(state, move, player, fast_rng, depth, 5)
        reference = Search.playout_total(game, state, move, player, reference_rng, depth, 5)
        assert fast == reference
        assert fast_rng.getstate() == reference_rng.getstate()
    assert repr(state) == before  # the position was not changed


def test_fast_paths_are_in_use():
    """The games override the reference loop (else the tests above compare it with itself)."""
    for spec in ("coinage:map=classic", "mapgame:countries=21,seed=0"):
        assert type(search(spec)).playout_total is not Search.playout_total


def test_a_montecarlo_map_game_is_the_same_game_on_either_path(monkeypatch):
    game = search("mapgame:countries=11,seed=3")
    agents = {p: MonteCarloAgent(playouts=40, depth=20) for p in game.rules.players}
    fast = play_game(game, agents, random.Random(7), 300)
    monkeypatch.setattr(type(game), "playout_total", Search.playout_total)
    reference = play_game(game, agents, random.Random(7), 300)
    assert fast.moves == reference.moves
    assert fast.result == reference.result


@pytest.mark.slow
@pytest.mark.parametrize("spec", MAP_LAYOUTS)
@pytest.mark.parametrize("seed", range(3))
def test_default_montecarlo_map_games_are_the_same_on_either_path(spec, seed, monkeypatch):
    game = search(spec)
    fast = play_game(game, {p: MonteCarloAgent() for p in game.rules.players}, random.Random(seed), 400)
    monkeypatch.setattr(type(game), "playout_total", Search.playout_total)
    reference = play_game(game, {p: MonteCarloAgent() for p in game.rules.players}, random.Random(seed), 400)
    assert (fast.moves, fast.result) == (reference.moves, reference.result)
