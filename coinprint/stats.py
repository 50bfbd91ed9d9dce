"""The statistics self-play reports share: a proportion with its 95 % Wilson score interval.

``balance`` (:mod:`coinprint.analysis`) and ``analyse`` (:mod:`coinprint.metrics`) both
read the first player's share of decided games through :func:`wilson`, and the stopping rule
of ``--until-decided`` (:mod:`coinprint.sprt`) reads its width, so they agree to the digit.
"""

from __future__ import annotations

import math
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
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return Share(count, total, p, max(0.0, centre - half), min(1.0, centre + half))
