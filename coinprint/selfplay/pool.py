"""Self-play on this machine: worker processes, each with a pipe of its own, that end by
themselves when the process running the run dies, however it dies (``PR_SET_PDEATHSIG`` on
Linux, a watching thread everywhere)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.fileio import release_signals, signals_held
from coinprint.selfplay.backend import Backend, PlayBatch, WorkersLost

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from coinprint.selfplay import GameResult


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the workers,
    # with SIGTERM, which must end a worker quietly (not run the parent's handlers it inherits).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


class PoolBackend(Backend):
    """Worker processes on this machine, each with a pipe of its own. A worker that dies (the
    out-of-memory killer, ``kill -9``) ends the run at once: its process sentinel fires and its
    pipe reads as closed. A shared result queue (``multiprocessing.Pool``,
    ``concurrent.futures``) can wait forever instead: a worker killed half-way through sending
    a result leaves half a message, and the reader waits for the rest."""

    def __init__(self, workers: int, play: PlayBatch) -> None:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.slots = workers
        self.workers: list[_Worker] = []
        self.backlog: deque[_Batch] = deque()
        try:
            for _ in range(workers):
                with signals_held():  # Ctrl-C during a fork waits for it, instead of being lost in its hooks
                    self.workers.append(_Worker(context, [worker.connection for worker in self.workers], play))
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
            raise WorkersLost(_DIED)  # no worker leaves before close() asks it to
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

    def __init__(self, context: Any, others: list[Connection], play: PlayBatch) -> None:
        ours, theirs = context.Pipe()
        # The worker closes its copy of this end too: else the runner's death never reads as
        # end of file there. PR_SET_PDEATHSIG follows the thread that forks, so it is asked
        # for only when that thread is the main one (which lives as long as the process).
        on_main_thread = threading.current_thread() is threading.main_thread()
        lifeline = _Lifeline(os.getpid(), on_main_thread)
        self.process = context.Process(target=_serve, args=(theirs, [*others, ours], lifeline, play), daemon=True)
        self.process.start()
        theirs.close()  # the worker holds the only other end: its death reads as end of file
        self.connection: Connection = ours
        self.batch: _Batch | None = None

    def start(self, batch: _Batch) -> None:
        try:
            self.connection.send(batch.args)
        except OSError:
            raise WorkersLost(_DIED) from None
        self.batch = batch

    def take_reply(self) -> None:
        assert self.batch is not None
        try:
            self.batch.reply = self.connection.recv()
        except (EOFError, OSError):  # died while sending: what arrived is half a reply
            raise WorkersLost(_DIED) from None
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


def _serve(connection: Connection, inherited: list[Connection], lifeline: _Lifeline, play: PlayBatch) -> None:
    """A worker's life: ``play`` each batch that arrives and send back its reply, until told to stop
    (``None``) or the runner's end of the pipe closes. It ends at once, whatever it is doing,
    when the process that started it dies, however it dies."""
    _end_with_parent(lifeline)
    _ignore_interrupts()
    release_signals()  # forked with them held (see PoolBackend): now ignored or default
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
            reply: tuple[bool, Any] = (True, play(*args))
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
