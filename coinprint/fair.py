"""The fairest map: successive halving over generated candidates, then the chosen one
re-measured on fresh seeds (``board … --fair``). Measuring is :mod:`coinprint.metrics`'."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout

from coinprint.caps import MAX_TURNS, check_candidates, check_games, check_seed
from coinprint.errors import UsageError
from coinprint.families import family_specs, rank_fairest
from coinprint.metrics import (
    GameMetrics,
    LayoutReport,
    analyse_layout,
    check_run,
    play_measured,
    scaled_max_turns,
    summarise_layout,
)
from coinprint.params import parse_layout_name
from coinprint.selfplay import RunPlan
from coinprint.source import LayoutSource, game_named, resolve_layout, rules_for


@dataclass(frozen=True)
class FairSearch:
    """The fairest of the candidate layouts: ``best`` is its figure from the search (every
    game it played there), ``reports`` every candidate's last figure from the search, and
    ``check`` the chosen layout re-measured on fresh seeds (no game of the search among them).

    The search's own figure of the winner is biased towards 50 % (it was picked for being
    close: the winner's curse); ``check`` is the figure to print."""

    best: LayoutReport
    reports: list[LayoutReport] = field(default_factory=list)
    check: LayoutReport | None = None
    rounds: int = 1
    search_seeds: tuple[int, int] = (0, 0)
    """The seeds the search played, first and one past the last."""

    def layout(self) -> Any:
        """The fairest candidate's layout."""

        return resolve_layout(self.best.layout)

    def info_line(self) -> str:
        """One line for the printed card: the re-measured figure and its interval."""
        found = f"fairest of {len(self.reports)} candidates"
        if self.check is None:
            share = self.best.first_share
            return (
                f"{found}: first player won {share.value:.0%} of {share.total} decided {self.best.agent} games "
                f"in the search (95% interval {share.low:.0%}–{share.high:.0%}; not re-measured)"
            )
        share = self.check.first_share
        return (
            f"{found}; re-measured by {self.check.agent} self-play, {self.check.games} fresh games: "
            f"first player won {share.value:.1%} of {share.total} decided [{share.low:.0%}–{share.high:.0%}]"
        )


FAIR_GAMES = 400
"""Games the chosen map is re-measured on (``--fair-games``)."""
SEARCH_GAMES = 60
"""Games each candidate plays in the first round of a fair search."""


def fairest_layout(
    candidate_specs: Sequence[str],
    plan: RunPlan,
    agent: str = "random",
    on_report: Callable[[LayoutReport], None] | None = None,
    *,
    fair_games: int = FAIR_GAMES,
    progress: Callable[[int], None] | None = None,
) -> FairSearch:
    """The candidate whose first player wins closest to 50 % of decided games, found by
    successive halving (Jamieson & Talwalkar 2016; the racing of Ludii's and irace's tuning):
    every candidate plays the games of ``plan`` (seeds ``plan.seed``, ``plan.seed + 1``, …;
    where: see :class:`~coinprint.selfplay.RunPlan`); the fairer half (rounded up) plays as
    many more, continuing the seeds, and so on until one is left. The chosen one is then
    re-measured on ``fair_games`` fresh games (seeds after every seed the search used; 0
    skips it). Deterministic for its inputs. A candidate's games are cut at a length scaled
    to its size (:func:`scaled_max_turns`) or at ``plan.max_turns``, whichever is shorter
    (:data:`~coinprint.caps.MAX_TURNS`: always the scaled one). ``progress`` hears each game
    played (:func:`search_games` is how many there will be). A :class:`UsageError` when no
    candidate had a decided game (there is nothing to rank)."""
    check_candidates(len(candidate_specs), "candidates")
    games, seed = plan.games, plan.seed
    check_run(games, seed, plan.max_turns)
    if fair_games:
        check_games(fair_games, "fair_games")
    measured: dict[str, list[GameMetrics]] = {spec: [] for spec in candidate_specs}
    setups: dict[str, tuple[LayoutSource, int]] = {}
    reports: dict[str, LayoutReport] = {}
    alive, played, batch, rounds = list(candidate_specs), 0, games, 0
    while True:
        rounds += 1
        check_seed(seed + played + batch - 1, "seed + games played by the search")
        for spec in alive:
            if spec not in setups:
                source = LayoutSource.resolve(spec)
                turns = min(plan.max_turns, scaled_max_turns(len(source.layout.spaces)))
                setups[spec] = (source, turns)
            source, turns = setups[spec]
            layout = source.layout
            players: tuple[str, str] = rules_for(layout).players
            agents = {p: agent for p in players}
            this_round = replace(plan, games=batch, seed=seed + played, max_turns=turns)
            for metrics in play_measured(source, agents, this_round, branching=False):
                measured[spec].append(metrics)
                if progress is not None:
                    progress(1)
            spaces = [space.id for space in layout.spaces]
            names = [space.name for space in layout.spaces]
            reports[spec] = summarise_layout(
                spec, layout.game, agent, seed, turns, players, spaces, measured[spec], names=names
            )
            if on_report is not None:
                on_report(reports[spec])
        played += batch
        if rounds == 1 and not any(report.first_share.total for report in reports.values()):
            limits = sorted({report.max_turns for report in reports.values()})
            raise UsageError(
                f"no game on any of the {len(reports)} candidates was decided within {limits[-1]:,} moves "
                "(every one was a tie or a timeout), so none can be called fairest; try a smaller map"
            )
        ranked = rank_fairest(reports[spec] for spec in alive)
        alive = [report.layout for report in ranked[: (len(alive) + 1) // 2]]
        if len(alive) == 1:
            break
        batch = played  # the survivors double their games
    best = reports[alive[0]]
    check = None
    if fair_games:
        check_seed(seed + played + fair_games - 1, "seed + games of the search + fair_games")
        check = analyse_layout(
            best.layout,
            replace(plan, games=fair_games, seed=seed + played, max_turns=best.max_turns),
            agent,
            branching=False,
            progress=progress,
        )
    ordered = [reports[spec] for spec in candidate_specs]
    return FairSearch(best, ordered, check, rounds, (seed, seed + played))


def search_games(candidates: int, games: int, fair_games: int) -> int:
    """How many games :func:`fairest_layout` plays for ``candidates`` maps: ``games`` each,
    then the fairer half as many again as all before, until one is left; then ``fair_games``."""
    total, alive, played, batch = 0, candidates, 0, games
    while True:
        total += alive * batch
        played += batch
        alive = (alive + 1) // 2
        if alive == 1:
            break
        batch = played
    return total + fair_games


def search_plan(workers: int | None = None, dask: str | None = None) -> RunPlan:
    """The games of ``board … --fair``'s search: :data:`SEARCH_GAMES` a candidate from seed 1,
    each cut at a length scaled to its map, in ``workers`` processes (None: every core) or on
    the Dask cluster at ``dask``."""
    return RunPlan(SEARCH_GAMES, 1, MAX_TURNS, workers, dask)


def fair_search(
    base: str,
    candidates: int,
    plan: RunPlan,
    *,
    agent: str = "random",
    fair_games: int = FAIR_GAMES,
    progress: Callable[[int], None] | None = None,
) -> FairSearch:
    """The fairest of ``candidates`` maps generated like ``base`` (a built-in name of a
    generated map, e.g. ``mapgame:countries=21,seed=7``) from its seed on: seeds 7, 8, …,
    found by :func:`fairest_layout` playing the games of ``plan`` (:func:`search_plan` is
    ``board … --fair``'s) and re-measured on ``fair_games`` fresh games."""

    check_candidates(candidates, "candidates")
    check_run(plan.games, plan.seed, plan.max_turns)
    game, params = parse_layout_name(base)
    try:
        seed = int(params.get("seed", 0))
    except ValueError:
        raise UsageError(f"layout {base}: seed must be a whole number") from None
    check_seed(seed, "seed")
    check_seed(seed + candidates - 1, "seed + candidates - 1")
    specs = family_specs(game_named(game), candidates, seed, base)
    return fairest_layout(specs, plan, agent, fair_games=fair_games, progress=progress)


def fairest_map(
    game: Game,
    layout: Layout,
    candidates: int,
    *,
    agent: str = "random",
    fair_games: int = FAIR_GAMES,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Any, str]:
    """``board … --fair``: the fairest of ``candidates`` maps generated like ``layout`` (a
    random Coin Age map or a Map, a :class:`coinprint.layout.Layout`) from its seed on, by
    ``agent`` self-play, and one line saying how fair it is (re-measured on ``fair_games``
    fresh games), for the terminal and the printed card."""

    if game.generated is None:
        raise UsageError(f"a fair search needs a generated map, not a {game.title} layout")
    name = game.layout_spec(layout)
    search = fair_search(
        name, candidates, search_plan(workers, dask), agent=agent, fair_games=fair_games, progress=progress
    )
    return search.layout(), search.info_line()
