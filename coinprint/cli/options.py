"""One option, one rule: the options several commands take (``--games``, ``--max-turns``,
``--supply``, ``--copies``, ``--lang``, ``--layout``) are defined here once, and each one's
callback calls the one validator in :mod:`coinprint.caps` that the library uses too, so a
value is refused the same way, with the same words, by every command. Also the self-play
options (``--workers``, ``--dask``) and the progress bar of ``play``, ``balance`` and ``kit all``.

This module imports nothing of the command tree, so the top-level group can use it too."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from coinprint import caps
from coinprint.errors import UsageError


def file_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of every ``-o`` that names one file: ``-`` means standard output, which then
    carries the file alone (messages go to standard error)."""
    from coinprint.fileio import STDOUT, stdout_for_data

    if value == STDOUT:
        ctx.with_resource(stdout_for_data())
    return value


def suffixed_output(*suffixes: str, stdout: bool = False) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """Callback of an output option whose file must end in one of ``suffixes``: checked when
    the command line is read, before any work."""

    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        from coinprint.kit import require_suffix

        if value is None:
            return None
        require_suffix(value, param.opts[0], suffixes, stdout=stdout)
        return file_output(ctx, param, value) if stdout else value

    return callback


def rules_output_option(func: Callable) -> Callable:
    """``-o`` of a ``rules`` command: a .pdf file, ``-``, or a folder for the default name."""
    return click.option(
        "-o",
        "--output",
        "output",
        default=None,
        metavar="PATH",
        callback=file_output,
        help="Output PDF file ('-' for standard output), or a folder for the default file name (default: output/).",
    )(func)


def records_folder_option(game: str) -> Callable:
    """``-o`` of a ``play`` command: the folder for the records, one ``GAME-SEED.json`` a game."""
    return click.option(
        "-o",
        "--output",
        "output",
        default=f"output/{game}-games",
        show_default=True,
        metavar="FOLDER",
        help=f"Folder for the records (one {game}-SEED.json per game).",
    )


def _checked(check: Callable[[Any, str], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        return value if value is None else check(value, param.opts[0])

    return callback


def games_option(default: int, help: str = "Games to play.") -> Callable:
    return click.option(
        "--games",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_games),
        help=f"{help} (1 to {caps.MAX_GAMES:,})",
    )


def max_turns_option(default: int, help: str = "Moves before a game counts as a timeout, never a win.") -> Callable:
    return click.option(
        "--max-turns",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_max_turns),
        help=f"{help} (1 to {caps.MAX_TURNS:,})",
    )


def maps_option(help: str) -> Callable:
    return click.option(
        "--maps",
        default=None,
        type=int,
        metavar="N",
        callback=_checked(caps.check_maps),
        help=f"{help} (1 to {caps.MAX_MAPS:,})",
    )


def skill_games_option(help: str) -> Callable:
    return click.option(
        "--skill-games",
        default=None,
        type=int,
        metavar="N",
        callback=_checked(caps.check_skill_games),
        help=f"{help} (0 to {caps.MAX_GAMES:,})",
    )


def candidates_option(default: int = 10, help: str = "--fair: how many maps to try.") -> Callable:
    return click.option(
        "--candidates",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_candidates),
        help=f"{help} (1 to {caps.MAX_CANDIDATES:,})",
    )


def supply_option(help: str = "Coins in the shared supply.") -> Callable:
    return click.option(
        "--supply",
        default=100,
        show_default=True,
        type=int,
        callback=_checked(caps.check_supply),
        help=f"{help} (1 to {caps.MAX_SUPPLY:,})",
    )


def copies_option() -> Callable:
    return click.option(
        "--copies",
        default=None,
        type=int,
        callback=_checked(caps.check_copies),
        help="PDF: cards per page, 1 up to as many as fit (default: as many as fit).",
    )


def checked_lang(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Callback of ``--lang``: a language code's form (which languages exist is the kit's)."""
    return caps.check_lang(value)


def _check_layout_spec(value: str, option: str) -> str:
    if not value.strip():
        raise UsageError(f"{option} is empty; give a built-in name (e.g. mapgame:countries=21) or a GeoJSON file")
    return value


def layout_option(default: str | None, help: str, *, name: str = "layout", metavar: str = "SPEC") -> Callable:
    return click.option(
        "--layout",
        name,
        default=default,
        show_default=default is not None,
        metavar=metavar,
        callback=_checked(_check_layout_spec),
        help=help,
    )


def seed_option(default: int | None, help: str, *, name: str = "--seed", dest: str | None = None) -> Callable:
    decls = [name] + ([dest] if dest else [])
    return click.option(
        *decls,
        default=default,
        show_default=default is not None,
        type=int,
        callback=_checked(caps.check_seed),
        help=help,
    )


def _check_precision(value: float, option: str) -> float:
    from coinprint.sprt import check_precision

    return check_precision(value, option)


def until_decided_options(func: Callable) -> Callable:
    """--until-decided and --precision: one stopping rule for ``balance`` and ``analyse``."""
    func = click.option(
        "--precision",
        default=5.0,
        show_default=True,
        type=float,
        metavar="POINTS",
        callback=_checked(_check_precision),
        help="With --until-decided: the edge worth detecting and the interval width to reach, in percentage points.",
    )(func)
    func = click.option(
        "--until-decided",
        is_flag=True,
        help="Stop once a sequential test (SPRT) decides, or the interval is narrower than --precision "
        "(--games is then the most to play).",
    )(func)
    return func


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
        type=int,
        callback=_checked(caps.check_workers),
        help=f"Processes to play in (default: one per core; 1 to {caps.MAX_WORKERS}). The games are the same whatever the number.",
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


def _check_agent(value: str, option: str) -> str:
    from coinprint.games.core import agent_parameters

    try:
        agent_parameters(value)
    except UsageError as bad:
        raise UsageError(f"{option}: {bad}") from None
    return value


AGENT_HELP = (
    "random, greedy, montecarlo or mcts, with parameters as in mcts:iterations=800 (see docs/formats.md, Agents)"
)


def agent_option(default: str, help: str, *, name: str = "--agent", multiple: bool = False) -> Callable:
    """An agent spec (``mcts:iterations=800``), checked when the command line is read."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if multiple:
            return tuple(_check_agent(v, param.opts[0]) for v in value)
        return value if value is None else _check_agent(value, param.opts[0])

    return click.option(
        name,
        default=() if multiple else default,
        show_default=not multiple,
        multiple=multiple,
        metavar="AGENT",
        callback=callback,
        help=f"{help} ({AGENT_HELP}).",
    )


def fair_search_options(func: Callable) -> Callable:
    """--fair-games and --agent of ``board … --fair``: who plays the search, and how many fresh
    games the chosen map is re-measured on (the figure printed on the card)."""
    func = click.option(
        "--fair-games",
        default=400,
        show_default=True,
        type=int,
        callback=_checked(caps.check_games),
        help=f"--fair: fresh games the chosen map is re-measured on; their figure is printed (1 to {caps.MAX_GAMES:,}).",
    )(func)
    return agent_option("random", "--fair: the agent playing both sides in the search and the re-measure")(func)
