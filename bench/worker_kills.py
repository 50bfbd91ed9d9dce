"""Killed workers and killed runs: does a run always end, do its workers, and how fast?

Two experiments, each on a ``coinprint play ... --games 100000 --workers 2`` started again and
again and killed outright (``kill -9``, what the out-of-memory killer does) at a random moment
once records appear:

- ``--kill worker``: one worker of ``play mapgame`` is killed; times how long the run takes to
  end (the case that used to hang a run is a kill half-way through a reply).
- ``--kill parent``: the run itself (``play cointable``) is killed; times how long its workers
  take to end by themselves (they used to live on for good, blocked, with init as parent).

``--load N`` keeps N busy processes running beside it: a loaded machine reads replies late and
schedules dying processes late, the hard case for both.

Prints, for each experiment, the runs, those that did not end within ``--patience`` seconds
(what is left of them is killed), and the median and slowest seconds from the kill to the end
(of the run, or of its last worker); for worker kills also the exit codes seen.

Linux only (reads the workers from /proc). Run from the repository root:
``python bench/worker_kills.py [--kill worker|parent|both] [--runs N] [--load N]``. Target: no
run that does not end; every run and every worker ends within a second of the kill.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUSY = """
import os
parent = os.getppid()
while os.getppid() == parent:  # busy until killed, or until this benchmark is gone
    for _ in range(200_000):
        pass
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--kill", choices=("worker", "parent", "both"), default="both", help="what to kill (default both)"
    )
    parser.add_argument("--runs", type=int, default=20, help="runs to kill in each experiment (default 20)")
    parser.add_argument("--load", type=int, default=3, help="busy processes beside each run (default 3)")
    parser.add_argument("--patience", type=float, default=20.0, help="seconds a run may take to end (default 20)")
    args = parser.parse_args()

    load = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.load)]
    try:
        if args.kill in ("worker", "both"):
            kill_workers(args.runs, args.load, args.patience)
        if args.kill in ("parent", "both"):
            kill_parents(args.runs, args.load, args.patience)
    finally:
        for process in load:
            process.kill()


def kill_workers(runs: int, load: int, patience: float) -> None:
    rng = random.Random(1)
    waits: list[float] = []
    codes: Counter[int | str] = Counter()
    for _ in range(runs):
        ended_after = kill_one_worker(rng.uniform(0.0, 0.5), patience)
        if ended_after is None:
            codes["did not end"] += 1
        else:
            code, seconds = ended_after
            codes[code] += 1
            waits.append(seconds)
    print(f"{runs} runs, one worker of two killed in each, {load} busy processes beside them")
    print(f"runs that did not end within {patience:g} s: {codes['did not end']}")
    print(f"exit codes: {dict(codes)}")
    if waits:
        print(f"kill to end: median {statistics.median(waits):.2f} s, slowest {max(waits):.2f} s")


def kill_parents(runs: int, load: int, patience: float) -> None:
    rng = random.Random(2)
    waits = [kill_one_parent(rng.uniform(0.0, 0.5), patience) for _ in range(runs)]
    ended = [seconds for seconds in waits if seconds is not None]
    print(f"{runs} runs killed outright (their 2 workers left to end by themselves), {load} busy processes beside them")
    print(f"runs whose workers did not all end within {patience:g} s: {runs - len(ended)}")
    if ended:
        print(f"kill to last worker gone: median {statistics.median(ended):.2f} s, slowest {max(ended):.2f} s")


def kill_one_worker(delay: float, patience: float) -> tuple[int, float] | None:
    """One run: kill a worker ``delay`` seconds after the first record; the exit code and the
    seconds from the kill to the end, or None when the run had not ended after ``patience``."""
    with tempfile.TemporaryDirectory() as folder:
        run = start_play("mapgame", folder, delay)
        workers = children(run.pid)
        os.kill(workers[0], signal.SIGKILL)
        killed = time.monotonic()
        try:
            code = run.wait(patience)
        except subprocess.TimeoutExpired:
            for pid in [*children(run.pid), run.pid]:
                os.kill(pid, signal.SIGKILL)
            run.wait()
            return None
        return code, time.monotonic() - killed


def kill_one_parent(delay: float, patience: float) -> float | None:
    """One run: kill it ``delay`` seconds after its first record; the seconds from the kill until
    its last worker has ended, or None when one had not after ``patience`` (it is killed)."""
    with tempfile.TemporaryDirectory() as folder:
        run = start_play("cointable", folder, delay)
        workers = [(pid, start_time(pid)) for pid in children(run.pid)]
        os.kill(run.pid, signal.SIGKILL)
        killed = time.monotonic()
        run.wait()
        while any(alive(pid, start) for pid, start in workers):
            if time.monotonic() - killed > patience:
                for pid, start in workers:
                    if alive(pid, start):
                        os.kill(pid, signal.SIGKILL)
                return None
            time.sleep(0.002)
        return time.monotonic() - killed


def start_play(game: str, folder: str, delay: float) -> subprocess.Popen[bytes]:
    """``play GAME --games 100000 --workers 2`` writing into ``folder``, ``delay`` seconds after
    its first record, with its 2 workers."""
    command = [sys.executable, "-m", "coinprint", "play", game, "--games", "100000", "--workers", "2", "-o", "games"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The kill's moment is random on purpose, but counted from a state: the first record.
    deadline = time.monotonic() + 120
    while not any(Path(folder, "games").glob("*.json")):
        if run.poll() is not None or time.monotonic() > deadline:
            run.kill()
            run.wait()
            sys.exit(f"the run ended (exit {run.returncode}) or wrote no record within 120 s")
        time.sleep(0.02)
    time.sleep(delay)  # a random moment after the state, not a stand-in for it
    workers = children(run.pid)
    if len(workers) != 2:
        run.kill()
        run.wait()
        sys.exit(f"expected the run's 2 worker processes, found {workers}")
    return run


def children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name; None when there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def start_time(pid: int) -> int:
    fields = stat(pid)
    return -1 if fields is None else int(fields[19])


def alive(pid: int, start: int) -> bool:
    """Still running: not gone, not a zombie (nobody may reap it), not another process on its pid."""
    fields = stat(pid)
    return fields is not None and int(fields[19]) == start and fields[0] not in ("Z", "X")


if __name__ == "__main__":
    main()
