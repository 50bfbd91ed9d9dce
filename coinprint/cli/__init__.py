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
from coinprint.cli.options import progress, selfplay_options
from coinprint.errors import EXIT_USAGE, CoinprintError
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
@click.option(
    "--layout",
    default=None,
    metavar="SPEC",
    help="Built-in layout with parameters (e.g. cointable:size=4, mapgame:countries=31,seed=2), a GeoJSON file or an SVG drawing.",
)
@click.option(
    "--agent", default="random", show_default=True, help="Agent playing both sides: random, greedy or montecarlo."
)
@click.option(
    "--games", default=200, show_default=True, type=int, help="Games to play (with --until-decided: the most to play)."
)
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of the first game (game i uses seed + i).")
@click.option("--max-turns", default=2000, show_default=True, type=int, help="Moves before a game counts as a timeout.")
@click.option(
    "--until-decided",
    is_flag=True,
    help="Stop once a sequential test (SPRT) decides, or the interval is narrower than --precision.",
)
@click.option(
    "--precision",
    default=5.0,
    show_default=True,
    type=float,
    metavar="POINTS",
    help="With --until-decided: the edge worth detecting and the interval width to reach, in percentage points.",
)
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

    with progress(games, "games") as update:
        report = judge(
            game,
            layout or game,
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
    """Run the command line; errors become one line on stderr and the contract's exit code."""
    try:
        status = cli.main(args=argv, prog_name="coinprint", standalone_mode=False)
    except click.ClickException as exc:
        click.echo(f"coinprint: error: {_one_line(exc)}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("coinprint: aborted", err=True)
        sys.exit(EXIT_USAGE)
    except CoinprintError as exc:
        click.echo(f"coinprint: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    # Commands return their exit code (validate returns 1 for an invalid input).
    sys.exit(status if isinstance(status, int) else 0)


def _one_line(exc: click.ClickException) -> str:
    message = " ".join(exc.format_message().split())
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
from coinprint.cli import common, replay  # noqa: E402,F401
