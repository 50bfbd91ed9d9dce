"""Killed workers: does a run always end, and how fast?

Starts ``coinprint play mapgame --games 100000 --workers 2`` again and again, kills one worker
outright (``kill -9``, what the out-of-memory killer does) at a random moment once records
appear, and times how long the run takes to end. ``--load N`` keeps N busy processes running
beside it: a loaded machine reads replies late, so kills land half-way through a reply more
often (the case that used to hang a run).

Prints the runs, the runs that did not end within ``--patience`` seconds (they are killed),
the exit codes seen, and the median and slowest seconds from the kill to the end.

Linux only (reads the workers from /proc). Run from the repository root:
``python bench/worker_kills.py [--runs N] [--load N]``. Target: no run that does not end;
every run ends within a second of the kill.
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
    parser.add_argument("--runs", type=int, default=40, help="runs to kill (default 40)")
    parser.add_argument("--load", type=int, default=3, help="busy processes beside each run (default 3)")
    parser.add_argument("--patience", type=float, default=20.0, help="seconds a run may take to end (default 20)")
    args = parser.parse_args()

    load = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.load)]
    rng = random.Random(1)
    waits: list[float] = []
    codes: Counter[int | str] = Counter()
    try:
        for _ in range(args.runs):
            ended_after = kill_one_worker(rng.uniform(0.0, 0.5), args.patience)
            if ended_after is None:
                codes["did not end"] += 1
            else:
                code, seconds = ended_after
                codes[code] += 1
                waits.append(seconds)
    finally:
        for process in load:
            process.kill()
    hung = codes["did not end"]
    print(f"{args.runs} runs, one worker of two killed in each, {args.load} busy processes beside them")
    print(f"runs that did not end within {args.patience:g} s: {hung}")
    print(f"exit codes: {dict(codes)}")
    if waits:
        print(f"kill to end: median {statistics.median(waits):.2f} s, slowest {max(waits):.2f} s")


def kill_one_worker(delay: float, patience: float) -> tuple[int, float] | None:
    """One run: kill a worker ``delay`` seconds after the first record; the exit code and the
    seconds from the kill to the end, or None when the run had not ended after ``patience``."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "coinprint", "play", "mapgame", "--games", "100000", "--workers", "2"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        run = subprocess.Popen(
            [*command, "-o", "games"], cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        # The kill's moment is random on purpose, but counted from a state: the first record.
        deadline = time.monotonic() + 120
        while not any(Path(folder, "games").glob("*.json")):
            if run.poll() is not None or time.monotonic() > deadline:
                run.kill()
                run.wait()
                sys.exit(f"the run ended (exit {run.returncode}) or wrote no record within 120 s")
            time.sleep(0.02)
        time.sleep(delay)
        workers = children(run.pid)
        if len(workers) != 2:
            run.kill()
            run.wait()
            sys.exit(f"expected the run's 2 worker processes, found {workers}")
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


def children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


if __name__ == "__main__":
    main()
