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
    for game in selfplay.run(setup, games, seed, workers=None, dask=None,
                             records=False, summarise=None):
        game.index, game.seed, game.winner, game.timeout, game.moves, game.score
        game.record    # the record's JSON text when records=True, else None
        game.summary   # summarise(...)'s value, else None

    def summarise(rules: Rules, record: Record, outcome: Outcome) -> Any:
        '''Runs inside the worker after each game, with the game's rules engine, its record
        (``coinprint.games.core.Record``, moves in notation) and its ``Outcome`` (moves,
        result, timeout). It must be a top-level function (workers receive it pickled) and
        should return a small picklable value: it crosses a process or network boundary
        once per game.'''

``workers`` is the number of processes (default: every core; 1 plays in this process);
``dask`` is the address of a Dask scheduler (``tcp://host:8786``) and needs the optional
extra ``coinprint[dask]``. Stopping the iteration early (``break``, Ctrl-C) stops the workers:
batches still running are abandoned.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.errors import UsageError

if TYPE_CHECKING:
    from coinprint.games.core import Outcome, Record, Rules

Summarise = Callable[["Rules", "Record", "Outcome"], Any]

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
    GeoJSON, so remote workers need no files); ``recorded_layout`` is what records name."""

    game: str
    layout: str | dict[str, Any]
    recorded_layout: str | dict[str, Any]
    agents: dict[str, str]
    max_turns: int
    options: dict[str, Any]

    @classmethod
    def build(
        cls,
        layout_spec: str,
        agents: dict[str, str],
        max_turns: int,
        options: dict[str, Any] | None = None,
        *,
        recorded_layout: str | None = None,
        game: str | None = None,
    ) -> GameSetup:
        """Check the layout (read for ``game`` when it is a drawing), options and agents here:
        a bad one fails before any work starts."""
        from coinprint.analysis import playable_layout, rules_for
        from coinprint.caps import check_max_turns
        from coinprint.games.core import agent_parameters
        from coinprint.registry import GAMES

        check_max_turns(max_turns)
        layout = playable_layout(layout_spec, game)
        rules = rules_for(layout, options)
        if set(agents) != set(rules.players):
            raise UsageError(
                f"layout {layout_spec} is a {layout.game} layout; its players are {' and '.join(rules.players)}"
            )
        for player, agent in agents.items():
            agent_parameters(agent, player)
        builtin = layout_spec.partition(":")[0] in GAMES
        shipped: str | dict[str, Any] = layout_spec if builtin else layout.to_geojson()
        setup = cls(rules.name, shipped, recorded_layout or layout_spec, dict(agents), max_turns, dict(options or {}))
        _remember(setup.rules_key(), rules)
        return setup

    def rules_key(self) -> str:
        return json.dumps([self.layout, self.options], sort_keys=True)


@dataclass(frozen=True)
class GameResult:
    """One finished game as the runner hands it back (small: no moves unless asked)."""

    index: int
    seed: int
    winner: str | None
    timeout: bool
    moves: int
    score: dict[str, int]
    record: str | None = None
    summary: Any = None


# -- in a worker ------------------------------------------------------------------------------------
_RULES: OrderedDict[str, Any] = OrderedDict()
"""Rules engines built in this process, by setup (a worker builds each board once); the
most recently used :data:`RULES_KEPT`, so a run over many maps does not keep them all."""
RULES_KEPT = 16


def _remember(key: str, rules: Rules) -> Rules:
    _RULES[key] = rules
    _RULES.move_to_end(key)
    while len(_RULES) > RULES_KEPT:
        _RULES.popitem(last=False)
    return rules


def _rules(setup: GameSetup) -> Rules:
    key = setup.rules_key()
    found = _RULES.get(key)
    if found is None:
        from coinprint.analysis import resolve_layout, rules_for

        found = rules_for(resolve_layout(setup.layout), setup.options)
    return _remember(key, found)


def play_one(setup: GameSetup, index: int, seed: int) -> tuple[Rules, Record, Outcome]:
    """Play game ``index`` of a run that starts at ``seed`` (it uses seed ``seed + index``)."""
    from coinprint.games.core import Record, make_agent, play_game

    rules = _rules(setup)
    game_seed = seed + index
    agents = {player: make_agent(name) for player, name in setup.agents.items()}
    outcome = play_game(rules, agents, random.Random(game_seed), setup.max_turns)
    record = Record(
        rules.name,
        setup.recorded_layout,
        outcome.moves,
        dict(setup.options),
        dict(setup.agents),
        game_seed,
        None if outcome.timeout else outcome.result.to_json(),
        {"timeout": True} if outcome.timeout else {},
    )
    return rules, record, outcome


def play_batch(
    setup: GameSetup, seed: int, first: int, count: int, records: bool, summarise: Summarise | None
) -> list[GameResult]:
    """Games ``first`` to ``first + count - 1`` (a worker's task)."""
    done = []
    for index in range(first, first + count):
        rules, record, outcome = play_one(setup, index, seed)
        done.append(
            GameResult(
                index,
                seed + index,
                None if outcome.timeout else outcome.result.winner,
                outcome.timeout,
                len(outcome.moves),
                dict(outcome.result.score),
                record.dumps() if records else None,
                summarise(rules, record, outcome) if summarise is not None else None,
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
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    dask: str | None = None,
    records: bool = False,
    summarise: Summarise | None = None,
    batch: int | None = None,
) -> Generator[GameResult, None, None]:
    """Play ``games`` games (game ``i`` with seed ``seed + i``) and yield them in game order.

    See the module docstring for ``workers``, ``dask``, ``records`` and ``summarise``;
    ``batch`` overrides the games per task. Bad values raise :class:`UsageError` at once; an
    unreachable Dask scheduler when the first game is asked for."""
    from coinprint.caps import check_games, check_workers

    check_games(games, "games")
    if workers is not None:
        check_workers(workers, "workers")
    if batch is not None and batch < 1:
        raise UsageError(f"batch must be at least 1, not {batch}")
    return _stream(dask, workers, setup, games, seed, records, summarise, batch)


def _backend(dask: str | None, workers: int | None, games: int) -> _Backend:
    if dask is not None:
        return _DaskBackend(dask)
    count = workers or default_workers()
    return _InlineBackend() if count == 1 or games == 1 else _PoolBackend(min(count, games))


def _stream(
    dask: str | None,
    workers: int | None,
    setup: GameSetup,
    games: int,
    seed: int,
    records: bool,
    summarise: Summarise | None,
    batch: int | None,
) -> Generator[GameResult, None, None]:
    # The workers start with the first game asked for, so an unread stream holds none.
    backend = _backend(dask, workers, games)
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
            yield from backend.result(pending.popleft())
        finished = True
    finally:
        backend.close(finished)


class _Backend:
    slots = 1

    def submit(self, *args: Any) -> Any:
        raise NotImplementedError

    def done(self, handle: Any) -> bool:
        """Has this batch finished (its result is waiting)?"""
        return True

    def wait(self, handle: Any, seconds: float) -> bool:
        """Wait up to ``seconds`` for the batch; True when it has finished."""
        return True

    def result(self, handle: Any) -> list[GameResult]:
        raise NotImplementedError

    def close(self, finished: bool) -> None:
        """Release the workers; when not ``finished``, stop work still running."""


class _InlineBackend(_Backend):
    """Plays each batch in this process when its results are asked for."""

    def submit(self, *args: Any) -> Any:
        return args

    def result(self, handle: Any) -> list[GameResult]:
        return play_batch(*handle)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the workers,
    # with SIGTERM, which must end a worker quietly (not run the parent's handlers it inherits).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


class _PoolBackend(_Backend):
    """A pool of worker processes on this machine."""

    def __init__(self, workers: int) -> None:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.slots = workers
        self.pool = context.Pool(workers, initializer=_ignore_interrupts)

    def submit(self, *args: Any) -> Any:
        return self.pool.apply_async(play_batch, args)

    def done(self, handle: Any) -> bool:
        return handle.ready()

    def wait(self, handle: Any, seconds: float) -> bool:
        handle.wait(seconds)
        return handle.ready()

    def result(self, handle: Any) -> list[GameResult]:
        return handle.get()

    def close(self, finished: bool) -> None:
        if finished:
            self.pool.close()
        else:
            self.pool.terminate()
        self.pool.join()


class _DaskBackend(_Backend):
    """The workers of a Dask distributed cluster (``dask scheduler`` / ``dask worker``)."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
            from distributed.comm import get_address_host_port
        except ImportError:
            raise UsageError("--dask needs Dask's distributed scheduler: pip install 'coinprint[dask]'") from None
        try:
            # Checked first: a client given a malformed address hangs when it is cleaned up.
            get_address_host_port(address)
        except ValueError as exc:
            raise UsageError(
                f"--dask {address!r} is not a scheduler address like tcp://10.0.0.5:8786 ({exc})"
            ) from None
        try:
            self.client = Client(address, timeout=10, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        threads = sum(self.client.nthreads().values())
        if threads < 1:
            self.client.close()
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some with 'dask worker {address}'")
        self.slots = threads

    def submit(self, *args: Any) -> Any:
        return self.client.submit(play_batch, *args, pure=False)

    def done(self, handle: Any) -> bool:
        return handle.done()

    def wait(self, handle: Any, seconds: float) -> bool:
        if not handle.done():
            time.sleep(seconds)
        return handle.done()

    def result(self, handle: Any) -> list[GameResult]:
        return handle.result()

    def close(self, finished: bool) -> None:
        self.client.close()
