"""Options and displays shared by the self-play commands (``play``, ``balance``, ``kit all``).

This module imports nothing of the command tree, so the top-level group can use it too.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click


def selfplay_options(func: Callable) -> Callable:
    """--workers and --dask: where self-played games run (the results are the same anywhere)."""
    func = click.option(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="Play on a Dask cluster: the scheduler's address (e.g. tcp://10.0.0.5:8786); needs coinprint[dask].",
    )(func)
    func = click.option(
        "--workers",
        default=None,
        type=click.IntRange(min=1),
        help="Processes to play in (default: one per core). The games are the same whatever the number.",
    )(func)
    return func


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr (games done, games a second, time left) when stderr is a
    terminal; ``None`` otherwise, so nothing extra is printed into logs and pipes."""
    if not sys.stderr.isatty():
        yield None
        return
    start = time.monotonic()
    with click.progressbar(
        length=total,
        label=label,
        file=sys.stderr,
        show_eta=True,
        show_pos=True,
        item_show_func=lambda rate: rate,
    ) as bar:
        done = 0

        def update(count: int) -> None:
            nonlocal done
            done += count
            rate = done / max(time.monotonic() - start, 1e-9)
            bar.update(count, f"{rate:.1f}/s")

        yield update
