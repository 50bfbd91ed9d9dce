"""The fast play-out paths of Coin Age and the Map chase agree with the reference engine:
from many random positions they draw the same random numbers and return the same play-out
sums, so a Monte Carlo agent plays the same game with either path."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout, rules_for
from coinprint.games.core import MonteCarloAgent, Rules, play_game

LAYOUTS = (
    "coinage:map=classic",
    "coinage:map=terraces",
    "coinage:map=random,regions=3-3-2-2-2,seed=4",
    "mapgame:countries=21,seed=0",
    "mapgame:countries=11,seed=3",
)


@cache
def rules(spec: str) -> Rules:
    return rules_for(builtin_layout(spec))


def random_position(rules: Rules, rng: random.Random, plies: int):
    """A position ``plies`` random moves into a game (fewer if it ends), with the next
    turn's chance (Coin Age's throw) done."""
    state = rules.initial_state()
    for _ in range(plies):
        if rules.is_over(state):
            break
        rules.begin_turn(state, rng)
        rules.apply_unchecked(state, rules.random_move(state, rng))
    if not rules.is_over(state):
        rules.begin_turn(state, rng)
    return state


@settings(max_examples=60, deadline=None)
@given(
    spec=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 10**9),
    plies=st.integers(0, 40),
    depth=st.integers(1, 80),
)
def test_fast_playouts_draw_the_same_numbers_and_give_the_same_sums(spec, seed, plies, depth):
    game = rules(spec)
    rng = random.Random(seed)
    state = random_position(game, rng, plies)
    if game.is_over(state):
        return
    before = repr(state)
    player = game.to_move(state)
    for move in game.legal_moves(state)[:6]:
        fast_rng, reference_rng = random.Random(seed + 1), random.Random(seed + 1)
        fast = game.playout_total(state, move, player, fast_rng, depth, 5)
        reference = Rules.playout_total(game, state, move, player, reference_rng, depth, 5)
        assert fast == reference
        assert fast_rng.getstate() == reference_rng.getstate()
    assert repr(state) == before  # the position was not changed


def test_fast_paths_are_in_use():
    """The games override the reference loop (else the test above compares it with itself)."""
    for spec in ("coinage:map=classic", "mapgame:countries=21,seed=0"):
        assert type(rules(spec)).playout_total is not Rules.playout_total


@pytest.mark.parametrize("spec", ["coinage:map=classic", "mapgame:countries=11,seed=3"])
def test_a_montecarlo_game_is_the_same_game_on_either_path(spec, monkeypatch):
    game = rules(spec)
    agents = {p: MonteCarloAgent(playouts=40, depth=20) for p in game.players}
    fast = play_game(game, agents, random.Random(7), 300)
    monkeypatch.setattr(type(game), "playout_total", Rules.playout_total)
    reference = play_game(game, agents, random.Random(7), 300)
    assert fast.moves == reference.moves
    assert fast.result == reference.result


@pytest.mark.slow
@pytest.mark.parametrize("spec", LAYOUTS)
@pytest.mark.parametrize("seed", range(3))
def test_default_montecarlo_games_are_the_same_on_either_path(spec, seed, monkeypatch):
    game = rules(spec)
    fast = play_game(game, {p: MonteCarloAgent() for p in game.players}, random.Random(seed), 400)
    monkeypatch.setattr(type(game), "playout_total", Rules.playout_total)
    reference = play_game(game, {p: MonteCarloAgent() for p in game.players}, random.Random(seed), 400)
    assert (fast.moves, fast.result) == (reference.moves, reference.result)
