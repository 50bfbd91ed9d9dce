"""Workers end by themselves when the process that started them dies, however it dies: a
``play --workers 2`` killed outright (``kill -9``, what the out-of-memory killer does) while it
plays, or while it is still starting its workers, leaves no worker behind.

Linux only: the processes are read from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEADLINE_S = 120
"""Generous: a busy machine may be slow to start Python or to schedule a dying worker."""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc (Linux)")

# Plays like the runner, except that each worker waits, before it ties itself to its parent,
# until that parent is gone: the parent is always killed before the worker has tied itself.
STARTING = """
import os, signal, sys, time
from coinprint import selfplay
from coinprint.selfplay import pool

tie = pool._end_with_parent

def late(lifeline):
    deadline = time.monotonic() + 120
    while os.getppid() == lifeline.parent and time.monotonic() < deadline:
        time.sleep(0.01)
    tie(lifeline)

pool._end_with_parent = late
backend = pool.PoolBackend(2, selfplay.play_batch)
print(" ".join(str(worker.process.pid) for worker in backend.workers), flush=True)
sys.stdin.read()  # killed here by the test, its workers still waiting to tie themselves
"""


@pytest.mark.parametrize(
    "play",
    [
        ["cointable"],  # short games: a worker is often between batches, sending or waiting
        ["coinage", "--heads", "mcts", "--tails", "mcts"],  # long games: killed half-way through one
    ],
    ids=["cointable", "coinage-mcts"],
)
def test_killing_a_running_play_outright_leaves_no_worker(tmp_path, play):
    command = [sys.executable, "-m", "coinprint", "play", *play, "--games", "100000", "--workers", "2"]
    with _started([*command, "-o", "games"], tmp_path) as run:
        # Under way, however busy the machine: both workers forked and each playing for a second.
        _wait_for(lambda: _playing(_children(run.pid)) == 2, run, "2 workers playing")
        workers = _kill_outright(run)
        assert len(workers) == 2, workers
        _wait_until_gone(workers)


def test_killing_a_play_before_its_workers_tied_themselves_to_it_leaves_no_worker(tmp_path):
    with _started([sys.executable, "-c", STARTING], tmp_path) as run:
        assert run.stdout is not None
        listed = [int(pid) for pid in run.stdout.readline().split()]
        assert len(listed) == 2, f"the runner did not list its 2 workers: {listed}"
        workers = _kill_outright(run)
        assert sorted(pid for pid, _ in workers) == sorted(listed)
        _wait_until_gone(workers)


@contextlib.contextmanager
def _started(command: list[str], folder: Path) -> Iterator[subprocess.Popen[str]]:
    """Run ``command`` in a session of its own; whatever happens, nothing of it is left after."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        yield run
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)  # the workers share the run's process group
        run.wait()


def _kill_outright(run: subprocess.Popen[str]) -> list[tuple[int, int]]:
    """Kill ``run`` with SIGKILL; the workers it had then, as (pid, start time). It is stopped
    first, so it cannot start a worker between the listing and the kill."""
    os.kill(run.pid, signal.SIGSTOP)
    workers = [(pid, start) for pid in _children(run.pid) if (start := _start_time(pid)) is not None]
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    return workers


def _wait_until_gone(workers: list[tuple[int, int]]) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while alive := [pid for pid, start in workers if _alive(pid, start)]:
        assert time.monotonic() < deadline, f"workers {alive} still alive {DEADLINE_S} s after their parent died"
        time.sleep(0.02)


def _wait_for(ready: Callable[[], bool], run: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not ready():
        assert run.poll() is None, f"the run ended (exit {run.returncode}) before {what}"
        assert time.monotonic() < deadline, f"no {what} within {DEADLINE_S} s"
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:  # already gone
        return []


def _playing(pids: list[int]) -> int:
    """How many of these processes have used a second of CPU (past starting: playing)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(1 for fields in map(_stat, pids) if fields is not None and int(fields[11]) >= ticks)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name, or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rpartition(")")[2].split()


def _start_time(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[19])


def _alive(pid: int, start: int) -> bool:
    """Is the process still running (not a zombie, nor another one given the same pid)?"""
    fields = _stat(pid)
    return fields is not None and int(fields[19]) == start and fields[0] not in ("Z", "X")
