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

    def summarise(engines: Engines, record: Record, outcome: Outcome) -> Any:
        '''Runs inside the worker after each game, with the game set up on its layout
        (``coinprint.game.Engines``: rules, search and view), its record
        (``coinprint.engine.Record``, moves in notation) and its ``Outcome`` (moves,
        result, timeout). It must be a top-level function (workers receive it pickled) and
        should return a small picklable value: it crosses a process or network boundary
        once per game.'''

``workers`` is the number of processes (default: every core; 1 plays in this process);
``dask`` is the address of a Dask scheduler (``tcp://host:8786``) and needs the optional
extra ``coinprint[dask]``. Stopping the iteration early (``break``, Ctrl-C) stops the workers:
batches still running are abandoned.

Workers that go away end the run with :class:`coinprint.errors.RunFailedError`, saying how many
games had finished: a worker process killed outright (the pool breaks at once), or a Dask
cluster without workers or scheduler for longer than the Dask timeout (``with
selfplay.dask_timeout(seconds):``, 30 s unless set; ``--dask-timeout`` on the command line),
which also bounds the wait for a scheduler to answer at all. The other way round, worker
processes end by themselves, within a second and even half-way through a game, when the
process running the run dies, however it dies (``kill -9``, the out-of-memory killer).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Generator, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from coinprint.agents import agent_parameters, make_agent
from coinprint.caps import check_dask_timeout, check_games, check_max_turns, check_workers
from coinprint.engine import Record
from coinprint.errors import RunFailedError, UsageError
from coinprint.fileio import release_signals, signals_held
from coinprint.search import play_game
from coinprint.source import LayoutSource, engines_for, resolve_layout

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from coinprint.engine import Record
    from coinprint.game import Engines
    from coinprint.search import Outcome
    from coinprint.source import LayoutSource

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

DASK_TIMEOUT_S = 30
"""How long a run waits, by default, for a Dask scheduler to answer, or for a cluster that has
no workers (or has lost its scheduler) to get them back, before it gives up."""
HEALTH_CHECK_SECONDS = 1.0
"""How often a run on Dask asks the scheduler whether it still has workers, while it waits."""

_dask_timeout: ContextVar[int] = ContextVar("dask_timeout", default=DASK_TIMEOUT_S)


@contextlib.contextmanager
def dask_timeout(seconds: int) -> Iterator[None]:
    """Within this context runs on Dask wait at most ``seconds`` for a scheduler that does not
    answer or a cluster without workers (``--dask-timeout``; 1 s to the Dask timeout cap)."""

    token = _dask_timeout.set(check_dask_timeout(seconds))
    try:
        yield
    finally:
        _dask_timeout.reset(token)


class _WorkersLost(Exception):
    """Raised by a backend when its workers are gone; the run turns it into one line."""


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
        if set(agents) != set(rules.players):
            raise UsageError(
                f"layout {layout.spec} is a {layout.layout.game} layout; its players are {' and '.join(rules.players)}"
            )
        for player, agent in agents.items():
            agent_parameters(agent, player)
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
    agents = {player: make_agent(name) for player, name in setup.agents.items()}
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
                len(outcome.moves),
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
    finished_games = 0
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
            for result in backend.result(pending.popleft()):
                yield result
                finished_games += 1
        finished = True
    except _WorkersLost as lost:
        raise RunFailedError(f"{lost}; {finished_games} of {games} games had finished") from None
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
    """Worker processes on this machine, each with a pipe of its own. A worker that dies (the
    out-of-memory killer, ``kill -9``) ends the run at once: its process sentinel fires and its
    pipe reads as closed. A shared result queue (``multiprocessing.Pool``,
    ``concurrent.futures``) can wait forever instead: a worker killed half-way through sending
    a result leaves half a message, and the reader waits for the rest."""

    def __init__(self, workers: int) -> None:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.slots = workers
        self.workers: list[_Worker] = []
        self.backlog: deque[_Batch] = deque()
        try:
            for _ in range(workers):
                with signals_held():  # Ctrl-C during a fork waits for it, instead of being lost in its hooks
                    self.workers.append(_Worker(context, [worker.connection for worker in self.workers]))
        except BaseException:
            self.close(False)
            raise

    def submit(self, *args: Any) -> Any:
        batch = _Batch(args)
        self.backlog.append(batch)
        self._hand_out()
        return batch

    def done(self, handle: Any) -> bool:
        return handle.reply is not None

    def wait(self, handle: Any, seconds: float) -> bool:
        if handle.reply is None:
            self._collect(seconds)
        return handle.reply is not None

    def result(self, handle: Any) -> list[GameResult]:
        while handle.reply is None:
            self._collect(None)
        ok, value = handle.reply
        if not ok:
            raise value
        return list(value)

    def _collect(self, seconds: float | None) -> None:
        """Take in the batches that finish within ``seconds`` (None: wait for one), then give
        idle workers the batches waiting."""
        from multiprocessing.connection import wait

        busy = {worker.connection: worker for worker in self.workers if worker.batch is not None}
        sentinels = [worker.process.sentinel for worker in self.workers]
        ready = wait([*busy, *sentinels], seconds)
        # Replies first: a worker may finish its batch and then die; the batch still counts.
        for connection in busy.keys() & set(ready):
            busy[connection].take_reply()
        if any(sentinel in ready for sentinel in sentinels):
            raise _WorkersLost(_DIED)  # no worker leaves before close() asks it to
        self._hand_out()

    def _hand_out(self) -> None:
        for worker in self.workers:
            if worker.batch is None and self.backlog:
                worker.start(self.backlog.popleft())

    def close(self, finished: bool) -> None:
        for worker in self.workers:
            worker.stop(finished)
        for worker in self.workers:
            worker.reap()


@dataclass
class _Batch:
    """A batch of games for one worker: ``play_batch``'s arguments, and its reply once back:
    ``(True, results)``, or ``(False, exception)`` when playing it raised."""

    args: tuple[Any, ...]
    reply: tuple[bool, Any] | None = None


class _Worker:
    """One worker process and this end of its pipe; ``batch`` is the batch it is playing."""

    def __init__(self, context: Any, others: list[Connection]) -> None:
        ours, theirs = context.Pipe()
        # The worker closes its copy of this end too: else the runner's death never reads as
        # end of file there. PR_SET_PDEATHSIG follows the thread that forks, so it is asked
        # for only when that thread is the main one (which lives as long as the process).
        on_main_thread = threading.current_thread() is threading.main_thread()
        lifeline = _Lifeline(os.getpid(), on_main_thread)
        self.process = context.Process(target=_serve, args=(theirs, [*others, ours], lifeline), daemon=True)
        self.process.start()
        theirs.close()  # the worker holds the only other end: its death reads as end of file
        self.connection: Connection = ours
        self.batch: _Batch | None = None

    def start(self, batch: _Batch) -> None:
        try:
            self.connection.send(batch.args)
        except OSError:
            raise _WorkersLost(_DIED) from None
        self.batch = batch

    def take_reply(self) -> None:
        assert self.batch is not None
        try:
            self.batch.reply = self.connection.recv()
        except (EOFError, OSError):  # died while sending: what arrived is half a reply
            raise _WorkersLost(_DIED) from None
        self.batch = None

    def stop(self, finished: bool) -> None:
        """Ask the worker to leave once idle (``finished``), or end it now."""
        if finished:
            with contextlib.suppress(OSError):
                self.connection.send(None)
        else:
            with contextlib.suppress(OSError):
                self.process.terminate()

    def reap(self) -> None:
        self.process.join(STOP_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


STOP_SECONDS = 5
"""How long a worker asked to stop may take before it is killed."""


@dataclass(frozen=True)
class _Lifeline:
    """What ties a worker to the process that started it: that process's id, and whether the
    worker may ask Linux to kill it when the forking thread ends (it is the main thread)."""

    parent: int
    death_signal: bool


def _serve(connection: Connection, inherited: list[Connection], lifeline: _Lifeline) -> None:
    """A worker's life: play each batch that arrives and send back its reply, until told to stop
    (``None``) or the runner's end of the pipe closes. It ends at once, whatever it is doing,
    when the process that started it dies, however it dies."""
    _end_with_parent(lifeline)
    _ignore_interrupts()
    release_signals()  # forked with them held (see _PoolBackend): now ignored or default
    for other in inherited:  # the runner's ends of the pipes, inherited by a fork: not ours to hold
        other.close()
    while True:
        try:
            args = connection.recv()
        except EOFError:
            return
        if args is None:
            return
        try:
            reply: tuple[bool, Any] = (True, play_batch(*args))
        except Exception as exc:
            reply = (False, exc)
        try:
            _send_reply(connection, reply)
        except OSError:  # the runner is gone: nobody to play for
            return


PR_SET_PDEATHSIG = 1
"""The Linux ``prctl`` option that sends a process a signal when its parent thread ends."""


def _end_with_parent(lifeline: _Lifeline) -> None:
    """Make this worker end when the process that started it dies, even by ``kill -9`` or the
    out-of-memory killer, which give it no chance to stop its workers: on Linux the kernel
    kills the worker with its parent; everywhere a watching thread ends the worker when the
    parent's sentinel fires. A parent already gone (it died before the worker got here) ends
    the worker now."""
    if lifeline.death_signal and sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):  # no C library to ask: the watcher remains
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != lifeline.parent:
        os._exit(1)
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - a worker is always a multiprocessing child
        return
    sentinel = parent.sentinel

    def watch() -> None:
        wait([sentinel])  # ready once the parent is gone: the batch has nobody to play for
        os._exit(1)

    threading.Thread(target=watch, name="coinprint-parent-watch", daemon=True).start()


def _send_reply(connection: Connection, reply: tuple[bool, Any]) -> None:
    import pickle  # here, not at the top: only a worker's rare unpicklable error needs it

    try:
        connection.send(reply)
    except (TypeError, AttributeError, pickle.PicklingError) as exc:  # an exception that cannot travel
        connection.send((False, RuntimeError(f"{reply[1]!r} ({exc})")))


_DIED = "a worker process died without finishing its games (killed: out of memory, or kill -9)"


class _DaskBackend(_Backend):
    """The workers of a Dask distributed cluster (``dask scheduler`` / ``dask worker``).

    Every wait is bounded by the Dask timeout (:func:`dask_timeout`): the address is probed
    before a client is made (a client given a service that is not a scheduler waits forever),
    and while batches are awaited the scheduler is asked, once a second, whether it is still
    there and still has workers; a cluster that stays without either for the timeout ends the
    run."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
            from distributed.comm.addressing import get_address_host_port
        except ImportError:
            raise UsageError("--dask needs Dask's distributed scheduler: pip install 'coinprint[dask]'") from None
        self.address = address
        self.timeout = _dask_timeout.get()
        try:
            # Checked first: a client given a malformed address hangs when it is cleaned up.
            host, port = get_address_host_port(address)
        except ValueError as exc:
            raise UsageError(
                f"--dask {address!r} is not a scheduler address like tcp://10.0.0.5:8786 ({exc})"
            ) from None
        scheme = address.partition("://")[0] if "://" in address else "tcp"
        if scheme != "tcp":
            raise UsageError(
                f"--dask {address}: coinprint reaches schedulers over tcp:// only ({scheme}:// needs "
                "credentials or transports it does not set up); give an address like tcp://10.0.0.5:8786"
            )
        _probe_scheduler(address, host, port, self.timeout)
        _quiet_dask_logs()
        try:
            self.client = Client(address, timeout=self.timeout, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {_one_line(exc)}") from None
        self.slots = self._threads(self.timeout)
        if self.slots < 1:
            self.client.close()  # type: ignore[no-untyped-call]
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some with 'dask worker {address}'")
        self.unhealthy_since: float | None = None
        self.last_check = time.monotonic()

    def _threads(self, seconds: float = HEALTH_CHECK_SECONDS) -> int:
        """Worker threads the scheduler has now; 0 when it does not answer within ``seconds``."""
        try:
            return sum(self.client.nthreads(callback_timeout=seconds).values())  # type: ignore[no-untyped-call]
        except Exception:  # a scheduler gone or not answering: no workers to count
            return 0

    def _check_health(self) -> None:
        now = time.monotonic()
        if now - self.last_check < HEALTH_CHECK_SECONDS:
            return
        self.last_check = now
        if self.client.status == "running" and self._threads() > 0:
            self.unhealthy_since = None
            return
        if self.unhealthy_since is None:
            self.unhealthy_since = now
        elif now - self.unhealthy_since >= self.timeout:
            what = "lost its scheduler" if self.client.status != "running" else "has had no workers"
            raise _WorkersLost(f"the Dask cluster at {self.address} {what} for {self.timeout} s (--dask-timeout)")

    def submit(self, *args: Any) -> Any:
        return self.client.submit(play_batch, *args, pure=False)

    def done(self, handle: Any) -> bool:
        return bool(handle.done())

    def wait(self, handle: Any, seconds: float) -> bool:
        if not handle.done():
            time.sleep(seconds)
            self._check_health()
        return bool(handle.done())

    def result(self, handle: Any) -> list[GameResult]:
        from concurrent.futures import CancelledError

        try:
            return list(handle.result())
        except CancelledError:
            raise _WorkersLost(f"the Dask cluster at {self.address} lost its scheduler") from None
        except Exception as exc:
            if type(exc).__name__ == "KilledWorker":
                raise _WorkersLost(
                    f"Dask workers at {self.address} died while playing the same batch again and again"
                ) from None
            raise

    def close(self, finished: bool) -> None:
        with contextlib.suppress(Exception):  # a scheduler already gone has nothing to close
            self.client.close(timeout=min(self.timeout, 5))  # type: ignore[no-untyped-call]


def _probe_scheduler(address: str, host: str, port: int, timeout: float) -> None:
    """Refuse, in one line and within ``timeout`` seconds, an address where no Dask scheduler
    answers: nothing listening, a service that says nothing, or one that speaks something
    else. A scheduler greets every connection at once with its handshake: a little-endian
    frame header, then a msgpack map naming its ``python`` and ``pickle-protocol``."""
    import socket

    greeting = b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as probe:
            deadline = time.monotonic() + timeout
            while len(greeting) < 512 and b"pickle-protocol" not in greeting and _may_be_dask(greeting):
                probe.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = probe.recv(512)
                if not chunk:
                    break
                greeting += chunk
    except TimeoutError:
        if not greeting:
            raise UsageError(f"no Dask scheduler answered at {address} within {timeout:g} s (--dask-timeout)") from None
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    if len(greeting) < 16 or not _may_be_dask(greeting) or b"pickle-protocol" not in greeting:
        raise UsageError(f"what answers at {address} is not a Dask scheduler (it did not greet like one)")


def _may_be_dask(greeting: bytes) -> bool:
    """Whether the first bytes a service sent can start a Dask handshake (a frame count of 1 to
    64 after the 8-byte length), so a service that speaks something else is refused at once."""
    return len(greeting) < 16 or 1 <= int.from_bytes(greeting[8:16], "little") <= 64


def _quiet_dask_logs() -> None:
    # Dask logs lost connections and retries to standard error; the run reports in one line.
    import logging

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ["distributed", "tornado", "asyncio", *names]:  # Dask sets levels on its modules' loggers too
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
