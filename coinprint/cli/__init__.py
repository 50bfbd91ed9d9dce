"""The ``coinprint`` command line: click groups and commands that parse options and call the
layers below. No logic lives here; each game's commands are in ``cli/<game>.py``.

Exit codes: 0 ok, 1 a checked layout or record is invalid, 2 bad usage or unreadable input.
Every error a user can cause is one line on stderr.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from coinprint import __version__
from coinprint.cli.options import (
    agent_option,
    games_option,
    layout_option,
    max_turns_option,
    progress,
    seed_option,
    selfplay_options,
    until_decided_options,
)
from coinprint.errors import EXIT_USAGE, CoinprintError, InterruptedRunError
from coinprint.registry import GAMES


class _Group(click.Group):
    """A group whose commands list in the order they were added, and which prints its help
    and exits 0 when given no command (bare ``coinprint`` is the first thing many type)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("invoke_without_command", True)
        super().__init__(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        # click 8.2 keeps the command still to parse in _protected_args (8.1: protected_args).
        pending = getattr(ctx, "_protected_args", None)
        if pending is None:
            pending = ctx.protected_args
        if not pending and not ctx.args:
            click.echo(ctx.get_help())
            return 0
        return super().invoke(ctx)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="coinprint")
def cli() -> None:
    """Print and play coin games: Coin Table, Coin Age, Map and Flick.

    Boards and rule sheets print at true size; generated maps are always valid; rules
    engines check recorded games move by move. Output goes to output/ unless -o says else.
    """


@cli.group(cls=_Group)
def board() -> None:
    """Print a game's board, map card or mat (PDF, SVG or GeoJSON)."""


@cli.group(cls=_Group)
def rules() -> None:
    """Print a game's rule sheet (PDF)."""


@cli.group(cls=_Group)
def validate() -> None:
    """Check a layout (GeoJSON) or a recorded game (JSON)."""


@cli.group(cls=_Group)
def play() -> None:
    """Let agents play a game against each other and write the records."""


@cli.command("balance")
@click.argument("game", type=click.Choice(GAMES.simulated()), metavar="GAME")
@layout_option(
    None,
    "Built-in layout with parameters (e.g. cointable:size=4, mapgame:countries=31,seed=2), a GeoJSON file or an SVG drawing.",
)
@agent_option("random", "Agent playing both sides")
@games_option(200, "Games to play (with --until-decided: the most to play).")
@seed_option(1, "Seed of the first game (game i uses seed + i).")
@max_turns_option(2000)
@until_decided_options
@selfplay_options
def balance(
    game: str,
    layout: str | None,
    agent: str,
    games: int,
    seed: int,
    max_turns: int,
    until_decided: bool,
    precision: float,
    workers: int | None,
    dask: str | None,
) -> None:
    """Is the first player favoured? Self-play equal agents and report the first player's share
    of decided games with a 95 % interval (GAME is cointable, coinage or mapgame)."""
    from coinprint.analysis import balance as judge
    from coinprint.sprt import cap_warning

    warning = cap_warning(games, precision) if until_decided else None
    if warning:
        click.echo(warning, err=True)
    with progress(games, "games") as update:
        report = judge(
            game,
            GAMES[game].layout_spec if layout is None else layout,
            agent,
            games,
            seed,
            max_turns,
            workers=workers,
            dask=dask,
            until_decided=until_decided,
            precision=precision,
            progress=update,
        )
    click.echo(report.describe())


def main(argv: list[str] | None = None) -> None:
    """Run the command line; errors become one line on stderr and the contract's exit code.

    SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the command with ``coinprint: interrupted`` and
    exit 128 + the signal (130 for Ctrl-C); no temporary file is left behind.
    """
    from coinprint.fileio import Interrupted, handling_signals

    _tolerate_unprintable_output()
    try:
        with handling_signals():
            status = cli.main(args=argv, prog_name="coinprint", standalone_mode=False)
    except Interrupted as exc:
        _fail("interrupted", exc.exit_code, prefix="coinprint: ")
    except KeyboardInterrupt:  # arrived before the handlers were in place
        _fail("interrupted", 130, prefix="coinprint: ")
    except click.ClickException as exc:
        _fail(_one_line(exc), exc.exit_code)
    except click.Abort:  # end of input at a prompt
        _fail("aborted", EXIT_USAGE, prefix="coinprint: ")
    except InterruptedRunError as exc:  # a long run stopped: "interrupted: what finished"
        _fail(str(exc), exc.exit_code, prefix="coinprint: ")
    except CoinprintError as exc:
        _fail(str(exc), exc.exit_code)
    except OSError as exc:  # a file system refusal outside the readers and writers
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(f"{where}{exc.strerror or exc}", EXIT_USAGE)
    except (RecursionError, MemoryError) as exc:
        _fail(f"the input needs more memory than this system gives ({type(exc).__name__})", EXIT_USAGE)
    except Exception as exc:  # a bug: still one line, and it says so
        _fail(f"internal error: {type(exc).__name__}: {exc} (please report this)", EXIT_USAGE)
    # Commands return their exit code (validate returns 1 for an invalid input).
    sys.exit(status if isinstance(status, int) else 0)


def _fail(message: str, code: int, *, prefix: str = "coinprint: error: ") -> None:
    click.echo(prefix + printable_line(message), err=True)
    sys.exit(code)


def printable_line(text: str, limit: int = 600) -> str:
    """``text`` made safe for one terminal line: whitespace runs (newlines too) become one
    space, other control characters and lone surrogates are shown as escapes, and a very
    long message is shortened."""
    text = " ".join(str(text).split())
    text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tolerate_unprintable_output() -> None:
    # A file name from the command line can hold bytes that are not UTF-8: print them back
    # as they came rather than fail with UnicodeEncodeError halfway through the output.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="surrogateescape")
            except (ValueError, OSError):
                pass


def _one_line(exc: click.ClickException) -> str:
    message = exc.format_message()
    context = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and context is not None:
        message += f" (see '{context.command_path} --help')"
    return message


def _register_game_commands() -> None:
    """Each registered game's ``cli/<game>.py`` adds its commands to the groups above."""
    import importlib

    for spec in GAMES:
        importlib.import_module(f"coinprint.cli.{spec.name}")


_register_game_commands()
# Commands that serve every game.
from coinprint.cli import analyse, common, ladder, replay  # noqa: E402,F401
