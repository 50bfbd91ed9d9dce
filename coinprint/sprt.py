"""When to stop playing: a sequential probability ratio test (SPRT, Wald 1945, as chess
engine testing uses it) on the first player's share of decided games.

Two one-sided SPRTs run side by side on the same games: "the share is 1/2" against "it is
1/2 + d" and against "it is 1/2 − d", where ``d`` is the precision asked for (5 points by
default). Each has error rates ``alpha`` = 2.5 % (claims an edge that is not there) and
``beta`` = 5 % (misses an edge of ``d`` or more), so:

- when the first player has no edge, the test wrongly reports one at most about 5 % of the time;
- when the edge is ``d`` or more, it wrongly reports "even" at most about 5 % of the time.

(Wald's bounds; the rates hold whenever the test is read after every game, which is what
peeking at a fixed 95 % interval would not allow.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from coinprint.errors import UsageError
from coinprint.stats import wilson

ALPHA = 0.025
"""Chance, per side, of reporting an edge when the share is exactly 1/2."""
BETA = 0.05
"""Chance of reporting "even" when the edge is ``d`` or more."""

AHEAD, BEHIND, EVEN = "ahead", "behind", "even"

DEFAULT_PRECISION = 5.0
"""``--until-decided``: the edge worth detecting and the interval width to reach, in points."""


@dataclass
class FirstPlayerTest:
    """Feed it decided games with :meth:`add`; :attr:`decision` is ``None`` until it is sure."""

    edge: float
    """``d``: the smallest edge worth detecting, as a share (0.05 for 5 points); 0 < d < 1/2."""
    alpha: float = ALPHA
    beta: float = BETA
    wins: int = 0
    losses: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.edge < 0.5:
            raise ValueError(f"the edge must lie between 0 and 1/2, not {self.edge}")
        # Log-likelihood ratio steps for a first-player win and a loss (the "ahead" test; the
        # "behind" test has them swapped).
        self._up = math.log((0.5 + self.edge) / 0.5)
        self._down = math.log((0.5 - self.edge) / 0.5)
        self.upper = math.log((1 - self.beta) / self.alpha)
        self.lower = math.log(self.beta / (1 - self.alpha))

    def add(self, first_won: bool) -> None:
        if first_won:
            self.wins += 1
        else:
            self.losses += 1

    def llr_ahead(self) -> float:
        """Evidence for "the first player leads by ``d``" over "no edge"."""
        return self.wins * self._up + self.losses * self._down

    def llr_behind(self) -> float:
        """Evidence for "the first player trails by ``d``" over "no edge"."""
        return self.wins * self._down + self.losses * self._up

    @property
    def decision(self) -> str | None:
        ahead, behind = self.llr_ahead(), self.llr_behind()
        if ahead >= self.upper:
            return AHEAD
        if behind >= self.upper:
            return BEHIND
        if ahead <= self.lower and behind <= self.lower:
            return EVEN
        return None

    def verdict(self) -> str:
        """The decision in words, as what the test tells apart: an even game (1/2) from an
        edge of ``d`` either way."""
        points = f"{self.edge * 100:g} points"
        return {
            AHEAD: f"the first player is favoured (an edge of {points} fits the games better than none)",
            BEHIND: f"the first player is at a disadvantage (an edge of {points} against them fits better than none)",
            EVEN: f"no edge of {points} or more",
            None: f"undecided (the games so far tell neither an edge of {points} nor none)",
        }[self.decision]

    def describe(self) -> str:
        """The verdict with what was tested and the error rates."""
        return (
            f"SPRT, an even game against an edge of {self.edge * 100:g} points (false edge ≤ {2 * self.alpha:.0%}, "
            f"missed edge ≤ {self.beta:.0%}), after {self.wins + self.losses} decided games: {self.verdict()}"
        )


def expected_games(edge: float, alpha: float = ALPHA, beta: float = BETA) -> int:
    """About how many decided games the test needs on an even game (share 1/2) to say "no
    edge": both log-likelihood ratios must fall to the lower bound B. Their sum falls by
    ``n · (ln(1 + 2d) + ln(1 − 2d))`` after ``n`` games whatever the results, their difference
    is ``(W − L) · (ln(1 + 2d) − ln(1 − 2d))``, and ``|W − L|`` is typically ``√(2n/π)``; so ``n``
    solves ``n·|s| = |ln B| + c·√n`` with ``s`` the mean step and ``c`` half the difference's
    step times √(2/π) (Wald's single-test estimate, ``|ln B| / |s|``, is about half of it)."""
    lower = math.log(beta / (1 - alpha))
    up, down = math.log(1 + 2 * edge), math.log(1 - 2 * edge)
    step = -0.5 * (up + down)
    spread = 0.5 * (up - down) * math.sqrt(2 / math.pi)
    root = (spread + math.sqrt(spread * spread - 4 * step * lower)) / (2 * step)
    return math.ceil(root * root)


def cap_warning(games: int, precision: float) -> str | None:
    """A warning when ``games`` (the cap of ``--until-decided``) is below what the test needs
    on an even game, so that it will likely stop undecided; None when the cap is enough."""
    need = expected_games(precision / 100)
    if games >= need:
        return None
    return (
        f"warning: --until-decided with --precision {precision:g} needs about {need:,} decided games to find "
        f"no edge on an even game; --games {games:,} will likely stop undecided: "
        "raise --games or --precision"
    )


def check_precision(points: float, name: str = "precision") -> float:
    """``points`` if it is a usable precision (more than 0 and less than 50 points)."""
    if not 0 < points < 50:
        raise UsageError(f"{name} must be more than 0 and less than 50 points, not {points:g}")
    return points


class UntilDecided:
    """The one stopping rule of ``--until-decided`` (``balance``, ``analyse`` and the
    fair-map search): stop at the first decided game after which the sequential test
    (:class:`FirstPlayerTest`, edge ``precision`` points) decides, or after which the first
    player's 95 % Wilson interval over the decided games is narrower than ``precision``
    points. Ties and timeouts are not fed to it."""

    def __init__(self, precision: float = DEFAULT_PRECISION) -> None:
        self.width = check_precision(precision) / 100
        self.test = FirstPlayerTest(self.width)

    def add(self, first_won: bool) -> bool:
        """Count one decided game; ``True`` once play can stop."""
        self.test.add(first_won)
        share = wilson(self.test.wins, self.test.wins + self.test.losses)
        return self.test.decision is not None or share.high - share.low < self.width
