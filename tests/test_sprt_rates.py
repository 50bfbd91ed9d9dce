"""The sequential test's error rates and sample sizes, by simulation; Student's t quantiles
against the published table."""

from __future__ import annotations

import math
import random

import pytest

from coinprint.sprt import AHEAD, BEHIND, EVEN, FirstPlayerTest, cap_warning, expected_games
from coinprint.stats import t95

T95_TABLE = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131),
    *(2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042),
)
"""Student's t, two-sided 95 %, 1 to 30 degrees of freedom, as printed in statistics tables."""
T95_FAR = {40: 2.021, 60: 2.000, 120: 1.980}


def run_test(share: float, edge: float, rng: random.Random, cap: int = 20_000) -> tuple[str | None, int]:
    """Feed the test games won by the first player with chance ``share`` until it decides."""
    test = FirstPlayerTest(edge)
    for games in range(1, cap + 1):
        test.add(rng.random() < share)
        if test.decision is not None:
            return test.decision, games
    return None, cap


def error_rate(share: float, edge: float, wrong: set[str | None], runs: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    outcomes = [run_test(share, edge, rng) for _ in range(runs)]
    rate = sum(decision in wrong for decision, _ in outcomes) / runs
    mean_games = sum(games for _, games in outcomes) / runs
    return rate, mean_games


def within(rate: float, bound: float, runs: int) -> bool:
    """``rate`` is no more than ``bound`` plus three standard errors of a ``runs``-run estimate."""
    return rate <= bound + 3 * math.sqrt(bound * (1 - bound) / runs)


@pytest.mark.parametrize("edge", [0.1, 0.2])
def test_false_and_missed_edge_rates_hold(edge: float) -> None:
    runs = 400
    false_edge, mean_games = error_rate(0.5, edge, {AHEAD, BEHIND}, runs, seed=1)
    assert within(false_edge, 0.05, runs), false_edge
    missed, _ = error_rate(0.5 + edge, edge, {EVEN, BEHIND, None}, runs, seed=2)
    assert within(missed, 0.05, runs), missed
    missed_behind, _ = error_rate(0.5 - edge, edge, {EVEN, AHEAD, None}, runs, seed=3)
    assert within(missed_behind, 0.05, runs), missed_behind
    # The sample-size estimate on an even game is what the cap warning quotes: the simulated
    # mean stays within a quarter of it.
    assert abs(mean_games - expected_games(edge)) < expected_games(edge) / 4, mean_games


@pytest.mark.slow
def test_error_rates_at_the_default_precision() -> None:
    runs = 2000
    false_edge, _ = error_rate(0.5, 0.05, {AHEAD, BEHIND}, runs, seed=11)
    assert within(false_edge, 0.05, runs), false_edge
    missed, _ = error_rate(0.55, 0.05, {EVEN, BEHIND, None}, runs, seed=12)
    assert within(missed, 0.05, runs), missed


def test_a_small_cap_is_warned_about_and_a_large_one_is_not() -> None:
    need = expected_games(0.05)
    assert 800 < need < 1500  # about 1,100 decided games for 5 points
    warning = cap_warning(200, 5.0)
    assert warning is not None and "--games 200" in warning and f"{need:,}" in warning
    assert cap_warning(need, 5.0) is None


def test_the_verdict_says_what_was_tested() -> None:
    test = FirstPlayerTest(0.05)
    for _ in range(800):
        test.add(True)
        test.add(False)
    assert test.decision == EVEN
    assert test.verdict() == "no edge of 5 points or more"
    assert "an even game against an edge of 5 points" in test.describe()
    ahead = FirstPlayerTest(0.05)
    while ahead.decision is None:
        ahead.add(True)
    assert "favoured" in ahead.verdict() and "leads by" not in ahead.describe()


def test_t_quantiles_match_the_printed_table_for_every_degree_of_freedom() -> None:
    for df, printed in enumerate(T95_TABLE, start=1):
        assert abs(t95(df) - printed) <= 0.0005, df
    for df, printed in T95_FAR.items():
        assert abs(t95(df) - printed) <= 0.0005, df
    # Closed forms: df 1 is the Cauchy distribution, df 2 has t = 2q'/√(2·(1 − q')·q')... simply:
    assert abs(t95(1) - math.tan(math.pi * 0.475)) < 1e-9
    assert abs(t95(2) - 0.95 * math.sqrt(2 / (1 - 0.95**2))) < 1e-9
    assert abs(t95(10**7) - 1.959964) < 1e-5
    with pytest.raises(ValueError):
        t95(0)
