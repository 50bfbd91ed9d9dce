"""Self-play runs: games written as records (``play``), and the first player's edge
(``balance``), played where :mod:`coinprint.selfplay` says. Layouts are resolved by
:mod:`coinprint.source` (its names are re-exported here, as the library documents them);
nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint import selfplay, sprt
from coinprint.caps import check_games, check_seed
from coinprint.errors import InterruptedRunError, UsageError, stop_code
from coinprint.fileio import Interrupted, check_folder_target, signals_held, write_atomic
from coinprint.selfplay import GameSetup, RunPlan, play_one
from coinprint.source import (  # noqa: F401  (the library's names for them, docs/api.md)
    LayoutSource,
    builtin_layout,
    check_layout,
    playable_layout,
    read_layout_data,
    resolve_layout,
    rules_for,
    validate_record,
)
from coinprint.sprt import UntilDecided, check_precision
from coinprint.stats import wilson

if TYPE_CHECKING:
    from coinprint.engine import Record
    from coinprint.game import Game
    from coinprint.search import Outcome


@dataclass
class PlaySummary:
    games: int
    wins: dict[str, int]
    ties: int
    timeouts: int
    mean_length: float

    def describe(self) -> str:
        wins = ", ".join(f"{p} {n}" for p, n in self.wins.items())
        return (
            f"{self.games} games: wins {wins}; ties {self.ties}; timeouts {self.timeouts}; "
            f"mean length {self.mean_length:.1f} moves"
        )


def self_play(
    layout_spec: str,
    agents: dict[str, str],
    games: int,
    seed: int,
    max_turns: int,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
) -> Iterator[tuple[Record, Outcome]]:
    """Play ``games`` seeded games in this process on the layout ``layout_spec`` (read for
    ``game`` when it is a drawing); yields (record, outcome) pairs, then nothing more.
    (:mod:`coinprint.selfplay` plays them on many cores.)

    Game ``i`` uses seed ``seed + i``, so any one game can be replayed on its own. The
    layout is checked first (see :func:`playable_layout`); ``games`` and ``max_turns`` are
    checked against their caps.
    """

    _check_run(games, seed)
    setup = GameSetup.build(layout_spec, agents, max_turns, options, game=game)
    for index in range(games):
        _, record, outcome = play_one(setup, index, seed)
        yield record, outcome


class Tally:
    """Counts games as they arrive (nothing per game is kept)."""

    def __init__(self, players: tuple[str, str]) -> None:
        self.players = players
        self.wins = {p: 0 for p in players}
        self.games = self.ties = self.timeouts = self.moves = 0

    def add(self, winner: str | None, timeout: bool, moves: int) -> None:
        self.games += 1
        self.moves += moves
        if timeout:
            self.timeouts += 1
        elif winner is None:
            self.ties += 1
        else:
            self.wins[winner] += 1

    def summary(self) -> PlaySummary:
        mean = self.moves / self.games if self.games else 0.0
        return PlaySummary(self.games, dict(self.wins), self.ties, self.timeouts, mean)


Progress = Callable[[int], None]
"""Told how many more games have finished (a progress bar's ``update``)."""


def _interrupted(stop: BaseException, done: int, games: int, tally: Tally, written: str = "") -> InterruptedRunError:
    """Ctrl-C (or SIGTERM, SIGHUP) during a run: one line saying what finished."""
    return InterruptedRunError(
        f"interrupted: {done} of {games} games finished ({tally.summary().describe()}){written}", stop_code(stop)
    )


def _check_run(games: int, seed: int) -> None:
    """The caps on a run's games and seeds (checked before any game is played)."""

    check_games(games)
    check_seed(seed)
    check_seed(seed + games - 1, "--seed + --games")


def play_to_folder(
    layout_spec: str,
    agents: dict[str, str],
    plan: RunPlan,
    folder: str,
    options: dict[str, Any] | None = None,
    *,
    game: str | None = None,
    progress: Progress | None = None,
    units: str = "mm",
    tolerance_mm: float | None = None,
) -> tuple[list[Path], PlaySummary]:
    """Self-play the games of ``plan`` (how many, from which seed, cut at how many moves, and
    where: see :class:`~coinprint.selfplay.RunPlan`) and write one record per game into
    ``folder`` (``<game>-<seed>.json``, each written whole, in game order); returns the paths
    and the summary. The records are the same wherever the games are played. A layout file
    is read with ``units`` and ``tolerance_mm`` (see :func:`playable_layout`). Ctrl-C raises
    :class:`InterruptedRunError` saying how many records were written."""

    _check_run(plan.games, plan.seed)
    if folder == "-":
        raise UsageError("play writes one record per game; -o needs a folder, not standard output")
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise UsageError(f"-o {folder} is a file; give a folder for the records")
    check_folder_target(folder)  # a link in a loop, a file on the way: refused before any game
    # Read and checked once; records name a layout file relative to themselves, as
    # validate_record reads it.
    source = LayoutSource.resolve(layout_spec, game=game, units=units, tolerance_mm=tolerance_mm)
    setup = selfplay.GameSetup.build(source, agents, plan.max_turns, options, recorded_layout=source.recorded(target))
    tally = Tally(tuple(agents))  # type: ignore[arg-type]
    paths: list[Path] = []
    stream = selfplay.run(setup, plan, records=True)
    try:
        for played in stream:
            assert played.record is not None
            # follow_symlinks=False: a link planted in the folder is replaced, never followed out of it.
            record_path = target / f"{setup.game}-{played.seed}.json"
            with signals_held():  # a record written is a record counted, even if Ctrl-C comes now
                paths.append(write_atomic(record_path, played.record, follow_symlinks=False))
            tally.add(played.winner, played.timeout, played.moves)
            if progress:
                progress(1)
    except (KeyboardInterrupt, Interrupted) as stop:
        raise _interrupted(stop, len(paths), plan.games, tally, f"; wrote {len(paths)} records to {folder}") from None
    finally:
        stream.close()  # stop the workers now, not when the generator is collected
    return paths, tally.summary()


DEFAULT_PRECISION = sprt.DEFAULT_PRECISION
"""``--until-decided``: the edge worth detecting and the interval width to reach, in points."""


@dataclass
class Balance:
    """How fair a board looks from self-play between equal agents."""

    layout: str
    agent: str
    first: str
    summary: PlaySummary
    test: Any = None
    """The sequential test (:class:`coinprint.sprt.FirstPlayerTest`) when play stopped early."""

    @property
    def decided(self) -> int:
        return self.summary.games - self.summary.ties - self.summary.timeouts

    def first_player_share(self) -> tuple[float, float, float]:
        """The first player's share of decided games, with a 95 % Wilson interval."""

        share = wilson(self.summary.wins[self.first], self.decided)
        return (share.value, share.low, share.high)

    def describe(self) -> str:
        """The summary, then the verdict: with a sequential test (``--until-decided``) its
        decision is the headline and the interval is stated as one read after stopping."""
        share, low, high = self.first_player_share()
        verdict = (
            "no clear first-player edge"
            if low <= 0.5 <= high
            else (
                f"{self.first} (moving first) has the edge" if low > 0.5 else f"{self.first} (moving first) is behind"
            )
        )
        head = f"{self.layout}, {self.agent} v {self.agent}: {self.summary.describe()}"
        if self.test is None:
            return (
                f"{head}\n{self.first} won {share:.1%} of {self.decided} decided games "
                f"(95% interval {low:.1%} to {high:.1%}): {verdict}"
            )
        return (
            f"{head}\n{self.test.describe()}\n"
            f"{self.first} won {share:.1%} of {self.decided} decided games (95% interval {low:.1%} to {high:.1%}, "
            "read after stopping early: a guide, not an exact 95%)"
        )


def balance(
    game: Game,
    layout_spec: str,
    agent: str,
    plan: RunPlan,
    options: dict[str, Any] | None = None,
    *,
    until_decided: bool = False,
    precision: float = DEFAULT_PRECISION,
    progress: Progress | None = None,
    units: str = "mm",
    tolerance_mm: float | None = None,
) -> Balance:
    """Self-play up to the games of ``plan`` (see :class:`~coinprint.selfplay.RunPlan`) of
    ``agent`` against itself on ``layout_spec`` (a layout of ``game``; no records written)
    and judge the first player's edge.

    With ``until_decided`` play stops as soon as a sequential test decides (see
    :mod:`coinprint.sprt`, with ``precision`` points as the edge worth detecting) or the 95 %
    interval is narrower than ``precision`` points; the plan's games are then the cap. Games
    are counted as they arrive, so memory does not grow with their number."""

    if not game.simulated:
        raise UsageError(f"{game.title} is not simulated; balance works for games agents can play")
    _check_run(plan.games, plan.seed)

    check_precision(precision)
    source = LayoutSource.resolve(layout_spec, game=game.name, units=units, tolerance_mm=tolerance_mm)
    players = rules_for(source.layout, options).players
    setup = selfplay.GameSetup.build(source, {p: agent for p in players}, plan.max_turns, options)
    # Small batches when stopping early, so little is played past the decision.
    batch = min(selfplay.MAX_BATCH, 8) if until_decided else None
    results = selfplay.run(setup, plan, batch=batch)
    return judge(results, layout_spec, agent, players, plan.games, precision if until_decided else None, progress)


def judge(
    results: Iterable[Any],
    layout_spec: str,
    agent: str,
    players: tuple[str, str],
    games: int,
    precision: float | None = None,
    progress: Progress | None = None,
) -> Balance:
    """Count ``results`` (objects with ``winner``, ``timeout`` and ``moves``) one at a time
    into a :class:`Balance`. With ``precision`` (points) stop at the first game after which
    the sequential test decides or the interval is narrower than that; nothing past it is
    read. Ctrl-C raises :class:`InterruptedRunError` with the count so far."""

    tally = Tally(players)
    rule = UntilDecided(precision) if precision is not None else None
    report = Balance(layout_spec, agent, players[0], tally.summary(), rule.test if rule else None)
    try:
        for result in results:
            tally.add(result.winner, result.timeout, result.moves)
            if progress:
                progress(1)
            if rule is None or result.timeout or result.winner is None:
                continue
            if rule.add(result.winner == players[0]):
                break
    except (KeyboardInterrupt, Interrupted) as stop:
        raise _interrupted(stop, tally.games, games, tally) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stop the workers now, not when the generator is collected
    report.summary = tally.summary()
    return report
