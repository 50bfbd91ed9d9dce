"""The statistics self-play reports share: a proportion with its 95 % Wilson score interval,
and a sample's mean with its Student's t interval and percentiles (:func:`spread`).

``balance`` (:mod:`coinprint.analysis`) and ``analyse`` (:mod:`coinprint.metrics`) both
read the first player's share of decided games through :func:`wilson`, and the stopping rule
of ``--until-decided`` (:mod:`coinprint.sprt`) reads its width, so they agree to the digit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Share:
    """A proportion ``count / total`` with its 95 % Wilson interval."""

    count: int
    total: int
    value: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def wilson(count: int, total: int) -> Share:
    """``count`` of ``total`` with the 95 % Wilson score interval (0 to 1 when total is 0)."""
    if total <= 0:
        return Share(count, 0, 0.5, 0.0, 1.0)
    p = count / total
    low, high = wilson_interval(p, total)
    return Share(count, total, p, low, high)


def wilson_interval(share: float, total: float) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``share`` observed over ``total`` trials (a number of
    games, or an effective sample size, which need not be whole)."""
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(share * (1 - share) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def t95(df: int) -> float:
    """Student's t quantile of a two-sided 95 % interval with ``df`` degrees of freedom (any
    df ≥ 1; the normal quantile Z95 as df grows without bound)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    return t_quantile(0.975, df)


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (0.5 ≤ p < 1) of Student's t with ``df`` degrees of freedom, found by
    bisection on :func:`t_cdf` to 1e-12."""
    if not 0.5 <= p < 1:
        raise ValueError(f"p must lie in [0.5, 1), not {p}")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function: ``1 − I_x(df/2, 1/2) / 2`` with ``x = df / (df + t²)``
    for t ≥ 0 (I the regularized incomplete beta function), mirrored for t < 0."""
    tail = 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
    Lentz), on the side where it converges fast (Numerical Recipes, §6.4)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return result


@dataclass(frozen=True)
class Spread:
    """A sample's mean with a 95 % interval (Student's t), its standard deviation and its
    10th, 50th and 90th percentiles (linear between order statistics)."""

    n: int
    mean: float
    low: float
    high: float
    sd: float
    p10: float
    p50: float
    p90: float


def spread(values: Sequence[float]) -> Spread:
    """Describe ``values`` (all zeros for an empty sample)."""
    n = len(values)
    if n == 0:
        return Spread(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = t95(n - 1) * sd / math.sqrt(n) if n > 1 else 0.0
    ordered = sorted(values)
    return Spread(
        n, mean, mean - half, mean + half, sd, percentile(ordered, 10), percentile(ordered, 50), percentile(ordered, 90)
    )


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of sorted values, interpolating linearly (numpy's default)."""
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
