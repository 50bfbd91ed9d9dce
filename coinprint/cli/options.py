"""One option, one rule: the options several commands take (``--games``, ``--max-turns``,
``--supply``, ``--copies``, ``--lang``, ``--layout``, and ``--units``, ``--tolerance`` and
``--game`` for reading drawings) are defined here once, and each one's
callback calls the one validator in :mod:`coinprint.caps` that the library uses too, so a
value is refused the same way, with the same words, by every command. Also the self-play
options (``--workers``, ``--dask``, ``--dask-timeout``) and the progress bar of ``play``, ``balance`` and ``kit all``.

This module imports nothing of the command tree, so the top-level group can use it too."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from coinprint import caps
from coinprint.agents import checked_agent
from coinprint.cli.types import LENGTH_OR_ZERO, PAPER, TOLERANCE, GameName
from coinprint.commands import FAIR_CANDIDATES
from coinprint.errors import UsageError
from coinprint.fair import FAIR_GAMES
from coinprint.fileio import STDOUT, check_file_target, stdout_for_data
from coinprint.io import UNIT_MM
from coinprint.kit.output import require_suffix
from coinprint.kit.rulesheet import known_languages
from coinprint.params import fresh_seed
from coinprint.registry import GAME_AGENTS
from coinprint.render.style import palette_names
from coinprint.selfplay.dask import DASK_TIMEOUT_S, dask_timeout
from coinprint.sprt import check_precision
from coinprint.units import default_paper

Command = Callable[..., Any]
"""A command's function, as click decorators take and return it."""
Decorator = Callable[[Command], Command]


def file_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of every ``-o`` that names one file: ``-`` means standard output, which then
    carries the file alone (messages go to standard error)."""

    if value == STDOUT:
        ctx.with_resource(stdout_for_data())
    return value


def suffixed_output(*suffixes: str, stdout: bool = False) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """Callback of an output option whose file must end in one of ``suffixes``: checked when
    the command line is read, before any work."""

    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return None
        require_suffix(value, param.opts[0], suffixes, stdout=stdout)
        return file_output(ctx, param, value) if stdout else value

    return callback


def records_folder_option(game: str) -> Decorator:
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


def games_option(default: int, help: str = "Games to play.") -> Decorator:
    return click.option(
        "--games",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_games),
        help=f"{help} (1 to {caps.MAX_GAMES:,})",
    )


def max_turns_option(default: int, help: str = "Moves before a game counts as a timeout, never a win.") -> Decorator:
    return click.option(
        "--max-turns",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_max_turns),
        help=f"{help} (1 to {caps.MAX_TURNS:,})",
    )


def maps_option(help: str) -> Decorator:
    return click.option(
        "--maps",
        default=None,
        type=int,
        metavar="N",
        callback=_checked(caps.check_maps),
        help=f"{help} (1 to {caps.MAX_MAPS:,})",
    )


def skill_games_option(help: str) -> Decorator:
    return click.option(
        "--skill-games",
        default=None,
        type=int,
        metavar="N",
        callback=_checked(caps.check_skill_games),
        help=f"{help} (0 to {caps.MAX_GAMES:,})",
    )


def candidates_option(default: int = 10, help: str = "--fair: how many maps to try.") -> Decorator:
    return click.option(
        "--candidates",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_candidates),
        help=f"{help} (1 to {caps.MAX_CANDIDATES:,})",
    )


def copies_option() -> Decorator:
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


def layout_option(default: str | None, help: str, *, name: str = "layout", metavar: str = "SPEC") -> Decorator:
    return click.option(
        "--layout",
        name,
        default=default,
        show_default=default is not None,
        metavar=metavar,
        callback=_checked(_check_layout_spec),
        help=help,
    )


def seed_option(help: str, *, name: str = "--seed", dest: str | None = None) -> Decorator:
    """A seed; without it a fresh one is drawn (and the command says which, so the run can be
    repeated with ``--seed N``)."""
    decls = [name] + ([dest] if dest else [])

    def callback(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
        if value is None:
            return fresh_seed()
        return caps.check_seed(value, param.opts[0])

    return click.option(
        *decls,
        default=None,
        type=int,
        callback=callback,
        help=f"{help} Default: a fresh seed, printed so the run can be repeated.",
    )


def _check_precision(value: float, option: str) -> float:
    return check_precision(value, option)


def until_decided_options(func: Command) -> Command:
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


def _enter_dask_timeout(ctx: click.Context, param: click.Parameter, value: int) -> None:
    ctx.with_resource(dask_timeout(caps.check_dask_timeout(value, param.opts[0])))


def selfplay_options(func: Command) -> Command:
    """--workers, --dask and --dask-timeout: where self-played games run (the results are the
    same anywhere), and how long to wait for a Dask cluster that does not answer."""
    func = click.option(
        "--dask-timeout",
        default=DASK_TIMEOUT_S,
        show_default=True,
        type=int,
        metavar="SECONDS",
        expose_value=False,  # the run reads it from coinprint.selfplay.dask.dask_timeout's context
        callback=_enter_dask_timeout,
        help=f"With --dask: how long to wait for a scheduler that does not answer, or a cluster without "
        f"workers, before giving up in one line (1 to {caps.MAX_DASK_TIMEOUT_S:,}).",
    )(func)
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


QUIET = "coinprint.quiet"
"""The context key ``--quiet`` sets."""


def quiet_option() -> click.Option:
    """``-q``/``--quiet``: print only results and errors (no "wrote" lines, seeds, notes or
    progress bars). Every command that chats has it (see :func:`with_quiet`)."""
    return click.Option(
        ["-q", "--quiet"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_enter_quiet,
        help="Print only results and errors: no 'wrote' lines, seeds, notes or progress.",
    )


def with_quiet(command: click.Command) -> click.Command:
    """``command`` (and every command under it, if it is a group of fixed commands) with
    ``--quiet``."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            with_quiet(sub)
    elif not any(param.name == "quiet" for param in command.params):
        command.params.append(quiet_option())
    return command


def _enter_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[QUIET] = True


def quiet() -> bool:
    """Whether the running command was given ``--quiet``."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(QUIET))


def say(text: str) -> None:
    """Chatter on standard output (what was written, the seed drawn): left out with ``--quiet``."""
    if not quiet():
        click.echo(text)


def note(text: str) -> None:
    """A note on standard error (English printed for a missing language): left out with ``--quiet``."""
    if not quiet():
        click.echo(text, err=True)


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr (games done, games a second, time left) when stderr is a
    terminal and the command is not ``--quiet``; ``None`` otherwise, so nothing extra is
    printed into logs and pipes."""
    if not sys.stderr.isatty() or quiet():
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


FORMATS = ("pdf", "svg", "geojson")


def paper_option() -> Decorator:
    """--paper: a paper name or WxH; by default the one the environment names (see
    :func:`coinprint.units.default_paper`), else A4."""
    return click.option(
        "--paper",
        default=lambda: default_paper()[0],
        type=PAPER,
        show_default="$COINPRINT_PAPER, $PAPERSIZE or /etc/papersize, else a4",
        metavar="NAME|WxH",
        help="Paper: a5, a4, a3, letter, legal, tabloid, or WxH with a unit (e.g. 300x400mm).",
    )


def lang_option(func: Command) -> Command:
    """--lang: the language of rule sheets and printed texts (checked by the kit layer)."""
    return click.option(
        "--lang",
        default="en",
        show_default=True,
        metavar="CODE",
        callback=checked_lang,
        shell_complete=_complete_lang,
        help="Language of the rule sheet and the printed texts: en or sv (an unknown one is refused).",
    )(func)


def _complete_lang(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [lang for lang in known_languages() if lang.startswith(incomplete)]


def bleed_option(func: Command) -> Command:
    """--bleed: how far cards' colours run past their trim lines (crop marks, PDF BleedBox)."""
    return click.option(
        "--bleed",
        default="0",
        show_default=True,
        type=LENGTH_OR_ZERO,
        metavar="LENGTH",
        help="Cards only (Coin Age): run the colours this far past the trim lines (e.g. 3mm), "
        "with crop marks and a PDF BleedBox; 0 prints dashed cut lines instead.",
    )(func)


def kit_paper_options(func: Command) -> Command:
    """--board-paper and --duplex of ``kit``: the board on another paper, double-sided pages."""
    func = click.option(
        "--duplex",
        is_flag=True,
        help="Order and blank the pages for a double-sided printer turning on the long edge "
        "(card backs behind their cards).",
    )(func)
    return click.option(
        "--board-paper",
        default=None,
        type=PAPER,
        metavar="NAME|WxH",
        help="Paper of the board and the other printed parts (default: --paper), e.g. rules on a4, board on a3.",
    )(func)


def print_options(func: Command) -> Command:
    """--style, --margin, --overlap: how a board is printed."""
    func = click.option(
        "--overlap",
        default="10mm",
        show_default=True,
        type=LENGTH_OR_ZERO,
        metavar="LENGTH",
        help="Overlap between tiled pages.",
    )(func)
    func = click.option(
        "--margin",
        default="10mm",
        show_default=True,
        type=LENGTH_OR_ZERO,
        metavar="LENGTH",
        help="Blank margin on every page edge.",
    )(func)
    return style_option(func)


def style_option(func: Command) -> Command:
    """--style: colour or ink-saver (the palettes of templates/styles.json)."""
    return click.option(
        "--style",
        type=click.Choice(palette_names()),
        default="color",
        show_default=True,
        help="color fills the spaces; ink-saver draws outlines only.",
    )(func)


def output_options(formats: tuple[str, ...] = FORMATS) -> Decorator:
    def decorate(func: Command) -> Command:
        func = click.option(
            "--format",
            "fmt",
            type=click.Choice(formats),
            default=None,
            help="Output format (default: from -o's suffix, else pdf).",
        )(func)
        func = click.option(
            "-o",
            "--output",
            "output",
            default=None,
            metavar="PATH",
            callback=file_output,
            help="Output file ('-' for standard output), or a folder for the default file name (default: output/).",
        )(func)
        return func

    return decorate


def drawing_options(*, with_game: bool) -> Decorator:
    """--units, --tolerance (and --game for a command that is not about one game): how every
    command that takes a layout file reads a drawing or a foreign GeoJSON file and how
    closely it compares lengths. ``--tolerance`` reaches the command in mm, None when not
    given (each check's own default)."""

    def decorate(func: Command) -> Command:
        func = click.option(
            "--tolerance",
            default=None,
            type=TOLERANCE,
            metavar="LENGTH",
            help="How far lengths may be off: borders of a drawing closer than this are joined, and checks "
            f"that compare lengths allow it (default 0.2mm; at most {caps.MAX_TOLERANCE_MM:g}mm).",
        )(func)
        func = click.option(
            "--units",
            type=click.Choice(list(UNIT_MM)),
            default="mm",
            show_default=True,
            help="Unit of the coordinates of a GeoJSON file without a coinprint member (QGIS, geojson.io, GDAL).",
        )(func)
        if with_game:
            func = click.option(
                "--game",
                type=GameName(drawn=True),
                default=None,
                help="The game an SVG drawing or a foreign GeoJSON file is for.",
            )(func)
        return func

    return decorate


def layout_file_option(func: Command) -> Command:
    """--layout FILE of ``board`` and ``kit``: print a drawn or hand-made layout instead."""
    return layout_option(
        None,
        "Print this layout instead (coinprint GeoJSON, an SVG drawing, or GeoJSON from QGIS); it is checked first.",
        name="layout_file",
        metavar="FILE",
    )(func)


def appendix_option(func: Command) -> Command:
    """``--appendix`` of every ``rules`` command: add the "for computers" pages (how games
    are written down and checked, and the commands that print the board)."""
    return click.option(
        "--appendix",
        is_flag=True,
        default=False,
        help="Add a 'for computers' page after the rules: the record format and the commands.",
    )(func)


AGENT_HELP = (
    "random, greedy, aim, montecarlo or mcts, with parameters as in mcts:iterations=800 (see docs/formats.md, Agents)"
)


def agent_option(default: str, help: str, *, name: str = "--agent", multiple: bool = False) -> Decorator:
    """An agent spec (``mcts:iterations=800``), checked when the command line is read."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if multiple:
            return tuple(checked_agent(v, param.opts[0], GAME_AGENTS) for v in value)
        return value if value is None else checked_agent(value, param.opts[0], GAME_AGENTS)

    return click.option(
        name,
        default=() if multiple else default,
        show_default=not multiple,
        multiple=multiple,
        metavar="AGENT",
        callback=callback,
        help=f"{help} ({AGENT_HELP}).",
    )


def fair_search_options(func: Command) -> Command:
    """--fair-games and --agent of ``board … --fair``: who plays the search, and how many fresh
    games the chosen map is re-measured on (the figure printed on the card)."""
    func = click.option(
        "--fair-games",
        default=FAIR_GAMES,
        show_default=True,
        type=int,
        callback=_checked(caps.check_games),
        help=f"--fair: fresh games the chosen map is re-measured on; their figure is printed (1 to {caps.MAX_GAMES:,}).",
    )(func)
    return agent_option("random", "--fair: the agent playing both sides in the search and the re-measure")(func)


def fair_options(func: Command) -> Command:
    """``--fair`` and its settings, on ``board GAME`` of a game whose maps are generated."""
    func = fair_search_options(func)
    func = candidates_option(FAIR_CANDIDATES)(func)
    return click.option(
        "--fair",
        is_flag=True,
        help="Self-play --candidates maps from --seed on and print the one whose first player wins "
        "closest to 50 % (the figure is printed on the map).",
    )(func)


def json_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of ``--json``: one file (not a folder), checked before any game; ``-`` keeps
    standard output for the JSON."""
    if value is None:
        return None
    check_file_target(value)
    return file_output(ctx, param, value)
