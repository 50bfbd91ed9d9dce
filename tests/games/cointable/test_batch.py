"""The NumPy batch simulator (a benchmark's tool, ``bench/cointable_batch.py``) plays real Coin
Table games: the reference engine replays every move as legal and finds the same scores,
winners, lengths and timeouts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.cointable_batch import BatchSimulator
from coinprint.analysis import builtin_layout
from coinprint.engine import replay
from coinprint.games.cointable.rules import CoinTableRules


def rules_for(size: int, supply: int) -> CoinTableRules:
    return CoinTableRules(builtin_layout(f"cointable:size={size}"), {"supply": supply})


def check_against_the_reference(rules: CoinTableRules, games, count: int) -> None:
    winners = games.winners()
    for game in range(count):
        moves = games.game_moves(game)
        assert len(moves) == games.lengths[game]
        replayed = replay(rules, [rules.move_text(None, m) for m in moves])
        assert replayed.valid, replayed.error
        score = {"heads": int(games.heads[game]), "tails": int(games.tails[game])}
        assert replayed.result.score == score
        if games.timeouts[game]:
            assert not replayed.result.finished and winners[game] is None
        else:
            assert replayed.result.finished and replayed.result.winner == winners[game]


@settings(max_examples=12, deadline=None)
@given(size=st.integers(2, 5), supply=st.sampled_from([5, 30, 100]), seed=st.integers(0, 2**32 - 1))
def test_batch_games_replay_in_the_reference_engine(size, supply, seed):
    rules = rules_for(size, supply)
    games = BatchSimulator(rules).play(24, seed, record=True, chunk=10)
    check_against_the_reference(rules, games, 24)


def test_timeouts_are_cut_at_the_limit_and_never_scored():
    rules = rules_for(4, 100)
    games = BatchSimulator(rules).play(30, 3, record=True, max_moves=40)
    assert games.timeouts.all() and (games.lengths == 40).all()
    assert games.winners() == [None] * 30
    check_against_the_reference(rules, games, 30)


def test_the_same_seed_plays_the_same_games_and_the_moves_cover_every_kind():
    rules = rules_for(5, 100)
    simulator = BatchSimulator(rules)
    first = simulator.play(64, 9, record=True)
    again = simulator.play(64, 9, record=True)
    assert np.array_equal(first.moves, again.moves)
    kinds = {min(m // rules.size, 3) for game in range(64) for m in first.game_moves(game)}
    assert kinds == {0, 1, 2, 3}  # place, touch, flip, castle all happen


def test_random_games_look_like_the_random_agent_s():
    """Uniform over legal moves, as RandomAgent plays: on the standard board random games last
    about 325 moves (the engine bench's figure) — the same distribution, not just legal games."""
    games = BatchSimulator(rules_for(5, 100)).play(400, 1)
    assert 300 < games.lengths.mean() < 350


@pytest.mark.slow
def test_many_batch_games_replay_on_the_standard_board():
    rules = rules_for(5, 100)
    games = BatchSimulator(rules).play(2000, 5, record=True)
    check_against_the_reference(rules, games, 2000)
