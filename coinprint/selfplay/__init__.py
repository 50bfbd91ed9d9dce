"""Self-play at scale: many seeded games on every core or on a Dask cluster, streamed back in
game order.

Game ``i`` of a run always uses seed ``seed + i`` and fresh agents, so a game is the same
game wherever it is played: the results (and records) are byte-identical whatever the number
of workers, and any one game can be replayed on its own. Games travel in batches (never one
game per task), at most a few batches per worker are in flight, and results are yielded one
game at a time in game order, so a run of a billion games needs no more memory than a run of
ten.

The plug-in points, for callers that want more than wins and losses::

    setup = selfplay.GameSetup.build(layout_spec, agents, max_turns, options)
    plan = selfplay.RunPlan(games, seed, max_turns, workers=None, dask=None)
    for game in selfplay.run(setup, plan, records=False, summarise=None):
        game.index, game.seed, game.winner, game.timeout, game.moves, game.score
        game.record    # the record's JSON text when records=True, else None
        game.summary   # summarise(...)'s value, else None

    def summarise(engines: Engines, record: Record, outcome: Outcome) -> Any:
        '''Runs inside the worker after each game, with the game set up on its layout
        (``coinprint.game.Engines``: rules, search and view), its record
        (``coinprint.engine.Record``, moves in notation) and its ``Outcome`` (moves,
        result, timeout). It must be a top-level function (workers receive it pickled) and
        should return a small picklable value: it crosses a process or network boundary
        once per game.'''

The plan's ``workers`` is the number of processes (None: every core; 1 plays in this
process); its ``dask`` is the address of a Dask scheduler (``tcp://host:8786``) and needs the optional
extra ``coinprint[dask]``. Stopping the iteration early (``break``, Ctrl-C) stops the workers:
batches still running are abandoned.

Workers that go away end the run with :class:`coinprint.errors.RunFailedError`, saying how many
games had finished: a worker process killed outright (the pool breaks at once), or a Dask
cluster without workers or scheduler for longer than the Dask timeout (``with
selfplay.dask.dask_timeout(seconds):``, 30 s unless set; ``--dask-timeout`` on the command line),
which also bounds the wait for a scheduler to answer at all. The other way round, worker
processes end by themselves, within a second and even half-way through a game, when the
process running the run dies, however it dies (``kill -9``, the out-of-memory killer).
"""

from __future__ import annotations

import json
import os
import random
from collections import OrderedDict, deque
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from coinprint.agents import agent_parameters, make_agent
from coinprint.caps import check_games, check_max_turns, check_workers
from coinprint.engine import Record
from coinprint.errors import RunFailedError, UsageError
from coinprint.search import play_game
from coinprint.selfplay.backend import Backend, WorkersLost
from coinprint.selfplay.dask import DaskBackend
from coinprint.selfplay.pool import PoolBackend
from coinprint.source import LayoutSource, engines_for, resolve_layout

if TYPE_CHECKING:
    from coinprint.game import Engines
    from coinprint.search import Outcome


Summarise = Callable[["Engines", "Record", "Outcome"], Any]

MAX_BATCH = 32
"""Most games in one task: small enough that a stopped run wastes little, large enough that
sending a task costs nothing next to playing it."""

BATCHES_PER_SLOT = 16
"""A run is cut into about this many batches per worker, so the last batches even out."""

IN_FLIGHT_PER_SLOT = 2
"""Batches queued and not yet done, per worker: one running, one waiting."""

HELD_PER_SLOT = 8
"""Most batches held per worker, done or not: results that came back early wait for the
batches before them, so memory stays bounded however many games a run plays."""

POLL_SECONDS = 0.05
"""How often the runner looks for finished batches while it waits for the oldest one."""


@dataclass(frozen=True)
class GameSetup:
    """Everything a worker needs to play games: plain data, picklable.

    ``layout`` is what workers build the board from (a built-in name, or the layout inline as
    GeoJSON, so remote workers need no files); ``recorded_layout`` is what records name.
    ``chance_offset``, when set, gives game seed ``g`` its chance (Coin Age's throws) from
    chance seed ``g - chance_offset`` (:func:`coinprint.engine.play_game`), and its record says
    so (``"chance_seed"``): two runs whose games map onto the same chance seeds play paired
    games."""

    game: str
    layout: str | dict[str, Any]
    recorded_layout: str | dict[str, Any]
    agents: dict[str, str]
    max_turns: int
    options: dict[str, Any]
    chance_offset: int | None = None

    @classmethod
    def build(
        cls,
        layout: str | LayoutSource,
        agents: dict[str, str],
        max_turns: int,
        options: dict[str, Any] | None = None,
        *,
        recorded_layout: str | dict[str, Any] | None = None,
        game: str | None = None,
        units: str = "mm",
        tolerance_mm: float | None = None,
    ) -> GameSetup:
        """Check the layout (a spec or file, read for ``game`` with ``units`` and
        ``tolerance_mm``; or a :class:`~coinprint.source.LayoutSource` already read), the
        options and the agents here: a bad one fails before any work starts. Records name the
        layout as ``recorded_layout`` says, else as the source records it."""

        check_max_turns(max_turns)
        if isinstance(layout, str):
            layout = LayoutSource.resolve(layout, game=game, units=units, tolerance_mm=tolerance_mm)
        engines = engines_for(layout.layout, options)
        rules = engines.rules
        agents = team_agents(agents, rules.players)
        if set(agents) != set(rules.players):
            raise UsageError(
                f"layout {layout.spec} is a {layout.layout.game} layout; its players are {' and '.join(rules.players)}"
            )
        for player, agent in agents.items():
            agent_parameters(agent, player, engines.search.agents)
        recorded = layout.recorded() if recorded_layout is None or not layout.read_as_given else recorded_layout
        setup = cls(layout.layout.game, layout.shipped, recorded, dict(agents), max_turns, dict(options or {}))
        _remember(setup.rules_key(), engines)
        return setup

    def rules_key(self) -> str:
        """The key of the game a worker sets up once for this setup (computed once:
        an inline layout of 2,000 spaces is large to serialise at every game)."""
        key = self.__dict__.get("_rules_key")
        if key is None:
            key = json.dumps([self.layout, self.options], sort_keys=True)
            object.__setattr__(self, "_rules_key", key)
        return key


def team_agents(agents: dict[str, str], players: tuple[str, ...]) -> dict[str, str]:
    """``agents`` by player. In a team game the seats are a side's name and a number
    (``heads-1``, ``heads-2``: Flick with four players); an agent given for the side plays each
    of its seats. Agents that already name the players are returned as they are."""
    if set(agents) == set(players):
        return dict(agents)
    by_side = {player: agents.get(player.rsplit("-", 1)[0]) for player in players}
    if all(by_side.values()):
        return {player: str(agent) for player, agent in by_side.items()}
    return dict(agents)


@dataclass(frozen=True)
class RunPlan:
    """Which games a run plays and where: ``games`` games from ``seed`` (game i with seed
    ``seed + i``), each cut at ``max_turns`` moves, in ``workers`` processes (None: one per
    core) or on the Dask cluster at ``dask``. The results do not depend on where."""

    games: int
    seed: int
    max_turns: int
    workers: int | None = 1
    dask: str | None = None

    def later(self, games: int, offset: int) -> RunPlan:
        """``games`` more games, their seeds ``offset`` after this plan's first."""
        return replace(self, games=games, seed=self.seed + offset)


@dataclass(frozen=True)
class GameResult:
    """One finished game as the runner hands it back (small: no moves unless asked)."""

    index: int
    seed: int
    winner: str | None
    timeout: bool
    moves: int
    """Turns played (decisions: a Flick shot with what the table did after it is one)."""
    score: dict[str, int]
    record: str | None = None
    summary: Any = None


# -- in a worker ------------------------------------------------------------------------------------
_ENGINES: OrderedDict[str, Engines] = OrderedDict()
"""The games set up in this process (rules, search and view), by setup: a worker builds each
board once; the most recently used :data:`RULES_KEPT`, so a run over many maps does not keep
them all."""
RULES_KEPT = 16


def _remember(key: str, engines: Engines) -> Engines:
    _ENGINES[key] = engines
    _ENGINES.move_to_end(key)
    while len(_ENGINES) > RULES_KEPT:
        _ENGINES.popitem(last=False)
    return engines


def _engines(setup: GameSetup) -> Engines:
    key = setup.rules_key()
    found = _ENGINES.get(key)
    if found is None:
        found = engines_for(resolve_layout(setup.layout), setup.options)
    return _remember(key, found)


def play_one(setup: GameSetup, index: int, seed: int) -> tuple[Engines, Record, Outcome]:
    """Play game ``index`` of a run that starts at ``seed`` (it uses seed ``seed + index``)."""

    engines = _engines(setup)
    game_seed = seed + index
    agents = {player: make_agent(name, player, engines.search.agents) for player, name in setup.agents.items()}
    chance_seed = None if setup.chance_offset is None else game_seed - setup.chance_offset
    outcome = play_game(engines.search, agents, random.Random(game_seed), setup.max_turns, chance_seed)
    extra: dict[str, Any] = {} if chance_seed is None else {"chance_seed": chance_seed}
    record = Record(
        setup.game,
        setup.recorded_layout,
        outcome.moves,
        dict(setup.options),
        dict(setup.agents),
        game_seed,
        None if outcome.timeout else outcome.result.to_json(),
        {**extra, "timeout": True} if outcome.timeout else extra,
    )
    return engines, record, outcome


def play_batch(
    setup: GameSetup, seed: int, first: int, count: int, records: bool, summarise: Summarise | None
) -> list[GameResult]:
    """Games ``first`` to ``first + count - 1`` (a worker's task)."""
    done = []
    for index in range(first, first + count):
        engines, record, outcome = play_one(setup, index, seed)
        done.append(
            GameResult(
                index,
                seed + index,
                None if outcome.timeout else outcome.result.winner,
                outcome.timeout,
                outcome.turns,
                dict(outcome.result.score),
                record.dumps() if records else None,
                summarise(engines, record, outcome) if summarise is not None else None,
            )
        )
    return done


# -- the run ----------------------------------------------------------------------------------------
def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def batch_size(games: int, slots: int) -> int:
    """Games per task for ``games`` games over ``slots`` workers."""
    return max(1, min(MAX_BATCH, -(-games // (slots * BATCHES_PER_SLOT))))


def run(
    setup: GameSetup,
    plan: RunPlan,
    *,
    records: bool = False,
    summarise: Summarise | None = None,
    batch: int | None = None,
) -> Generator[GameResult, None, None]:
    """Play the games of ``plan`` (game ``i`` with seed ``plan.seed + i``, cut at
    ``plan.max_turns`` moves, which replaces the setup's) and yield them in game order.

    See the module docstring for the plan's ``workers`` and ``dask``, ``records`` and
    ``summarise``; ``batch`` overrides the games per task. Bad values raise
    :class:`UsageError` at once; an unreachable Dask scheduler when the first game is asked
    for."""

    check_games(plan.games, "games")
    if plan.workers is not None:
        check_workers(plan.workers, "workers")
    if batch is not None and batch < 1:
        raise UsageError(f"batch must be at least 1, not {batch}")
    if plan.max_turns != setup.max_turns:
        check_max_turns(plan.max_turns)
        setup = replace(setup, max_turns=plan.max_turns)
        setup.rules_key()  # the copy carries its key to the workers, as the original did
    return _stream(setup, plan, records, summarise, batch)


def _backend(plan: RunPlan) -> Backend:
    if plan.dask is not None:
        return DaskBackend(plan.dask, play_batch)
    count = plan.workers or default_workers()
    return _InlineBackend() if count == 1 or plan.games == 1 else PoolBackend(min(count, plan.games), play_batch)


def _stream(
    setup: GameSetup, plan: RunPlan, records: bool, summarise: Summarise | None, batch: int | None
) -> Generator[GameResult, None, None]:
    # The workers start with the first game asked for, so an unread stream holds none.
    games, seed = plan.games, plan.seed
    finished_games = 0
    backend = _backend(plan)
    batch = batch or batch_size(games, backend.slots)
    pending: deque[Any] = deque()
    next_game = 0
    finished = False
    try:
        while True:
            # Keep every worker busy while the oldest batch is awaited: top up the batches not
            # yet done, within a bound on the batches held (done ones wait for their turn).
            while True:
                running = sum(1 for handle in pending if not backend.done(handle))
                while (
                    next_game < games
                    and running < backend.slots * IN_FLIGHT_PER_SLOT
                    and len(pending) < backend.slots * HELD_PER_SLOT
                ):
                    count = min(batch, games - next_game)
                    pending.append(backend.submit(setup, seed, next_game, count, records, summarise))
                    next_game += count
                    running += 1
                if not pending or backend.wait(pending[0], POLL_SECONDS):
                    break
            if not pending:
                break
            for result in backend.result(pending.popleft()):
                yield result
                finished_games += 1
        finished = True
    except WorkersLost as lost:
        raise RunFailedError(f"{lost}; {finished_games} of {games} games had finished") from None
    finally:
        backend.close(finished)


class _InlineBackend(Backend):
    """Plays each batch in this process when its results are asked for."""

    def submit(self, *args: Any) -> Any:
        return args

    def result(self, handle: Any) -> list[GameResult]:
        return play_batch(*handle)
