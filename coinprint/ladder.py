"""How strong the agents are: matches between two agents and a ladder of agents with Elo
ratings, as chess engine testing (Fishtest, BayesElo's logistic model) reports them.

A match plays half its games with each agent moving first (game ``i`` with seed
``seed + i``, as every self-play run), so neither gets the first player's edge, in pairs that
meet the same chance (:func:`match`). Its *score* is the share of points the first-named
agent took (a win 1, a tie 1/2; timeouts are left out and counted). The Elo difference of a
score ``s`` is ``-400 · log10(1/s − 1)`` (the logistic model: 100 Elo ≈ 64 %); its 95 %
interval is the Elo of the ends of the score's Wilson interval (a tie counted as half a win)
over the match's effective games (:meth:`Match.effective_games`, from the pairs' spread as
in Fishtest's pentanomial model). A score of 0 or 1 has no finite Elo: it is taken as half a
game short of it (``(n − 1/2) / n``), so a clean sweep reads "at least" that many Elo.

A ladder plays each rung against the next one up; its ratings put the first rung at 0 and
add the differences, their intervals' half-widths adding in quadrature (the matches are
independent).
Nothing here draws; :mod:`coinprint.cli.ladder` prints it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from coinprint import selfplay
from coinprint.agents import checked_agent
from coinprint.analysis import _check_run
from coinprint.caps import MAX_LADDER_LEVELS, check_seed
from coinprint.errors import UsageError
from coinprint.registry import GAME_AGENTS
from coinprint.selfplay import RunPlan
from coinprint.source import playable_layout, rules_for
from coinprint.stats import Share, wilson, wilson_interval

DEFAULT_LEVELS = (
    "random",
    "greedy",
    "montecarlo",
    "mcts:iterations=100",
    "mcts:iterations=400",
    "mcts:iterations=1600",
)
"""The rungs of ``coinprint ladder`` when none are given, weakest first."""

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
"""The points an agent can take from a pair of games, in the order of :attr:`Match.pairs`."""

MAX_LEVELS = MAX_LADDER_LEVELS
"""Most rungs in one ladder (:data:`coinprint.caps.MAX_LADDER_LEVELS`)."""


@dataclass(frozen=True)
class Match:
    """Games between ``first`` and ``second`` (agent specs), half with each moving first."""

    first: str
    second: str
    games: int
    wins: int
    """Games ``first`` won."""
    losses: int
    ties: int
    timeouts: int
    mover_wins: int
    """Decided games won by the player who moved first (whichever agent it was)."""
    pairs: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Game pairs (the same chance, each agent first once; neither game a timeout) in which
    ``first`` scored 0, 1/2, 1, 3/2 and 2 points: Fishtest's pentanomial counts."""

    @property
    def counted(self) -> int:
        """Games that count for the score: all but the timeouts."""
        return self.wins + self.losses + self.ties

    @property
    def score(self) -> float:
        """``first``'s share of the points (1/2 when no game counted)."""
        return (self.wins + 0.5 * self.ties) / self.counted if self.counted else 0.5

    def score_sd(self) -> float:
        """The standard error of :attr:`score`: from the pairs' spread where there are two
        pairs or more (pentanomial, as Fishtest), the games outside pairs counted as
        single games; else from the games' spread (trinomial: wins, ties, losses)."""
        n = self.counted
        if n < 2:
            return 0.5
        s = self.score
        game_variance = max((self.wins + 0.25 * self.ties) / n - s * s, 0.0)
        paired = sum(self.pairs)
        if paired < 2:
            return math.sqrt(game_variance / n)
        pair_mean = sum(count * points for count, points in zip(self.pairs, PAIR_POINTS)) / paired
        pair_square = sum(count * points * points for count, points in zip(self.pairs, PAIR_POINTS)) / paired
        pair_variance = max(pair_square - pair_mean * pair_mean, 0.0)
        singles = n - 2 * paired
        return math.sqrt(paired * pair_variance + singles * game_variance) / n

    def effective_games(self) -> float:
        """The games the score's interval counts: as many independent games as would give
        its standard error (Kish's effective sample size), at most twice the games played;
        without pairs, the games played."""
        n = self.counted
        if sum(self.pairs) < 2 or not 0 < self.score < 1:
            return float(n)
        sd = self.score_sd()
        if sd == 0:
            return 2.0 * n
        return min(self.score * (1 - self.score) / (sd * sd), 2.0 * n)

    def win_share(self) -> Share:
        """``first``'s share of the decided games, with its 95 % Wilson interval."""
        return wilson(self.wins, self.wins + self.losses)

    def mover_share(self) -> Share:
        """The first mover's share of the decided games (the first-player edge at this level)."""
        return wilson(self.mover_wins, self.wins + self.losses)

    def elo(self) -> Elo:
        """``first``'s Elo advantage over ``second``, with a 95 % interval."""
        return elo_of(self.score, self.score_sd(), self.counted, self.effective_games())

    def to_json(self) -> dict[str, Any]:
        elo = self.elo()
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "timeouts": self.timeouts,
            "score": self.score,
            "elo": elo.value,
            "elo_low": elo.low,
            "elo_high": elo.high,
            "bound": elo.bound,
            "first_mover_share": self.mover_share().value,
            "pairs": list(self.pairs),
        }


@dataclass(frozen=True)
class Elo:
    """An Elo difference with its 95 % interval; ``bound`` says a clean sweep made it a
    lower (or upper) bound rather than an estimate."""

    value: float
    low: float
    high: float
    sd: float
    bound: str = ""
    """"at least", "at most", or "" for an estimate."""

    def negated(self) -> Elo:
        """The same match seen from the other agent."""
        bound = {"at least": "at most", "at most": "at least"}.get(self.bound, "")
        return Elo(0.0 - self.value, 0.0 - self.high, 0.0 - self.low, self.sd, bound)  # 0.0 -: never "-0"

    def describe(self) -> str:
        prefix = f"{self.bound} " if self.bound else ""
        return f"{prefix}{self.value:+.0f} Elo [{_end(self.low)}, {_end(self.high)}]"


def elo_from_score(score: float) -> float:
    """The logistic model's Elo difference for a score strictly between 0 and 1."""
    return 400.0 * math.log10(score / (1.0 - score)) + 0.0  # + 0.0: no "-0" for an even score


def elo_of(score: float, sd: float, games: int, effective: float | None = None) -> Elo:
    """The Elo difference of ``score`` (standard error ``sd``) over ``games`` counted games;
    the interval counts ``effective`` games (default ``games``: see :meth:`Match.effective_games`)."""
    if games == 0:
        return Elo(0.0, -math.inf, math.inf, math.inf)
    bound = ""
    if score >= 1.0 or score <= 0.0:
        bound = "at least" if score >= 1.0 else "at most"
        score = (games - 0.5) / games if score >= 1.0 else 0.5 / games
        # A sweep has no spread of its own: use the spread of one game lost in n.
        sd = max(sd, math.sqrt(score * (1 - score) / games))
    value = elo_from_score(score)
    slope = 400.0 / (math.log(10.0) * score * (1.0 - score))
    elo_sd = sd * slope
    # The score's 95 % interval is Wilson's (a tie counted as half a win): unlike score ± 1.96
    # standard errors it stays inside 0 to 1 on few games. An end at 0 or 1 has no finite Elo:
    # that side stays open.
    observed = 1.0 if bound == "at least" else 0.0 if bound == "at most" else score
    score_low, score_high = wilson_interval(observed, games if bound or effective is None else effective)
    low = elo_from_score(score_low) if score_low > 0 else -math.inf
    high = elo_from_score(score_high) if score_high < 1 else math.inf
    return Elo(value, low, high, elo_sd, bound)


@dataclass(frozen=True)
class Rung:
    """One agent's place on the ladder: its rating against the first rung, with a 95 % interval."""

    agent: str
    elo: float
    low: float
    high: float


@dataclass
class Ladder:
    """Rungs weakest first, the matches between neighbours, and the layout they were played on."""

    layout: str
    levels: list[str]
    matches: list[Match] = field(default_factory=list)

    def rungs(self) -> list[Rung]:
        """Ratings: the first rung 0, each next one the previous plus the Elo it gained in their
        match. The interval of a sum adds the matches' half-widths in quadrature, each side on
        its own (the Elo scale is not symmetric), so a rung one match up has exactly that
        match's interval; an open end stays open."""
        rungs = [Rung(self.levels[0], 0.0, 0.0, 0.0)]
        total, below, above = 0.0, 0.0, 0.0
        for match in self.matches:
            gained = match.elo().negated()  # the upper rung's advantage over the lower
            total += gained.value
            below += (gained.value - gained.low) ** 2
            above += (gained.high - gained.value) ** 2
            low = total - math.sqrt(below) if math.isfinite(below) else -math.inf
            high = total + math.sqrt(above) if math.isfinite(above) else math.inf
            rungs.append(Rung(match.second, total, low, high))
        return rungs

    def describe(self) -> str:
        lines = [f"ladder on {self.layout} (Elo against {self.levels[0]}, 95 % intervals):"]
        width = max(len(level) for level in self.levels)
        for rung in self.rungs():
            lines.append(f"  {rung.agent:<{width}}  {rung.elo:+6.0f}  [{_end(rung.low)}, {_end(rung.high)}]")
        lines.append("matches (each rung against the one below it):")
        for match in self.matches:
            upper = 1.0 - match.score
            lines.append(
                f"  {match.second} v {match.first}: won {match.losses}, lost {match.wins}, tied {match.ties}"
                f"{f', {match.timeouts} timeouts' if match.timeouts else ''}; score {upper:.0%}, "
                f"{match.elo().negated().describe()}; first mover won {match.mover_share().value:.0%} of decided games"
                f"{_pairs_text(match.pairs)}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "layout": self.layout,
            "levels": list(self.levels),
            "ratings": [
                {"agent": r.agent, "elo": r.elo, "low": _json_number(r.low), "high": _json_number(r.high)}
                for r in self.rungs()
            ],
            "matches": [m.to_json() for m in self.matches],
        }


def _pairs_text(pairs: tuple[int, int, int, int, int]) -> str:
    """How the upper rung did in the pairs (``pairs`` counts the lower rung's points)."""
    if not any(pairs):
        return ""
    tied = pairs[1] + pairs[3]
    text = f"; pairs: won both {pairs[0]}, split {pairs[2]}, lost both {pairs[4]}"
    return text + (f", with a tie {tied}" if tied else "")


def _end(value: float) -> str:
    return "open" if math.isinf(value) else f"{value:+.0f}"


def _json_number(value: float) -> float | None:
    return None if math.isinf(value) else value


Progress = Callable[[int], None]


def match(
    layout_spec: str,
    first: str,
    second: str,
    plan: RunPlan,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
    progress: Progress | None = None,
) -> Match:
    """Play the games of ``plan`` (see :class:`~coinprint.selfplay.RunPlan`) of agent
    ``first`` against agent ``second`` on ``layout_spec``: the first half (rounded up) with
    ``first`` moving first, the rest with ``second`` moving first, seeds ``plan.seed``,
    ``plan.seed + 1``, … throughout (every game its own agents' choices).

    The games are paired: game ``k`` of each half meets the same chance (Coin Age's throws,
    turn by turn, from chance seed ``seed + k``), so each agent plays each run of luck once
    from each seat, and luck cancels out of the pair (duplicate bridge; Fishtest's game
    pairs). :attr:`Match.pairs` counts the pairs' outcomes."""

    games, seed = plan.games, plan.seed
    _check_run(games, seed)
    players = rules_for(playable_layout(layout_spec, game), options).players
    first_half = (games + 1) // 2
    wins = losses = ties = timeouts = mover_wins = 0
    leading: list[float | None] = []  # first's points in each game of the first half
    pairs = [0] * len(PAIR_POINTS)
    for seating, count, start in ((0, first_half, seed), (1, games - first_half, seed + first_half)):
        if count == 0:
            continue
        mine = players[seating]
        agents = {mine: first, players[1 - seating]: second}
        setup = selfplay.GameSetup.build(layout_spec, agents, plan.max_turns, options, game=game)
        setup = replace(setup, chance_offset=start - seed)
        results = selfplay.run(setup, plan.later(count, start - seed))
        try:
            for result in results:
                points = None if result.timeout else 0.5 if result.winner is None else float(result.winner == mine)
                if points is None:
                    timeouts += 1
                elif result.winner is None:
                    ties += 1
                else:
                    wins += result.winner == mine
                    losses += result.winner != mine
                    mover_wins += result.winner == players[0]
                if seating == 0:
                    leading.append(points)
                elif points is not None and (partner := leading[result.index]) is not None:
                    pairs[round(2 * (partner + points))] += 1
                if progress is not None:
                    progress(1)
        finally:
            results.close()
    counts = (pairs[0], pairs[1], pairs[2], pairs[3], pairs[4])
    return Match(first, second, games, wins, losses, ties, timeouts, mover_wins, counts)


def check_levels(levels: Sequence[str], game_agents: Collection[str] = ()) -> list[str]:
    """The ladder's rungs, checked: 2 to MAX_LEVELS agent specs, each valid (a game's own
    agent, named in ``game_agents``, is checked by its game when the games are set up)."""

    levels = list(levels)
    if not 2 <= len(levels) <= MAX_LEVELS:
        raise UsageError(f"a ladder needs 2 to {MAX_LEVELS} levels (--level), not {len(levels)}")
    for spec in levels:
        checked_agent(spec, "--level", game_agents)
    return levels


def ladder(
    layout_spec: str,
    plan: RunPlan,
    levels: Sequence[str] = DEFAULT_LEVELS,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
    note: Callable[[str], None] | None = None,
    progress: Progress | None = None,
) -> Ladder:
    """Each rung of ``levels`` (weakest first) against the next, the games of ``plan`` a
    match (see :class:`~coinprint.selfplay.RunPlan`); the matches use disjoint seeds (match
    ``k`` from ``plan.seed + k · plan.games``)."""

    games, seed = plan.games, plan.seed
    chosen = check_levels(levels, GAME_AGENTS)
    _check_run(games, seed)
    check_seed(seed + games * (len(chosen) - 1) - 1, "seed + games × matches")
    playable_layout(layout_spec, game)  # a bad layout is refused before any game
    found = Ladder(layout_spec, chosen)
    for k, (lower, upper) in enumerate(zip(chosen, chosen[1:])):
        if note is not None:
            note(f"{upper} v {lower}: {games} games")
        found.matches.append(
            match(layout_spec, lower, upper, plan.later(games, k * games), options, game=game, progress=progress)
        )
    return found
