"""The command tree: the top-level group and the ``board``, ``rules``, ``validate`` and
``play`` groups the command modules add to. It imports no command module, so every command
module can import it without an import circle."""

from __future__ import annotations

import click

from coinprint import __version__
from coinprint.cli.games import GameGroup, board_command, play_command, rules_command
from coinprint.cli.options import examples
from coinprint.cli.types import HelpGroup


class _Group(HelpGroup):
    """A group whose commands list in the order they were added."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(
    cls=_Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=examples(
        "coinprint kit all", "coinprint board map --seed 7", "coinprint validate layout my-card.svg --game coinage"
    ),
)
@click.version_option(__version__, "--version", prog_name="coinprint")
def cli() -> None:
    """Print and play coin games: Coin Table, Coin Age, Map and Flick.

    Boards and rule sheets print at true size; generated maps are always valid; rules
    engines check recorded games move by move. Output goes to output/ unless -o says else.
    """


@cli.group(
    cls=GameGroup, build=board_command, epilog=examples("coinprint board cointable", "coinprint board map -o map.svg")
)
def board() -> None:
    """Print a game's board, map card or mat (PDF, SVG or GeoJSON)."""


@cli.group(
    cls=GameGroup, build=rules_command, epilog=examples("coinprint rules coinage", "coinprint rules map --lang sv")
)
def rules() -> None:
    """Print a game's rule sheet (PDF)."""


@cli.group(
    cls=_Group,
    epilog=examples("coinprint validate layout my-map.svg --game mapgame", "coinprint validate game game.json"),
)
def validate() -> None:
    """Check a layout (GeoJSON) or a recorded game (JSON)."""


@cli.group(
    cls=GameGroup,
    build=play_command,
    simulated=True,
    epilog=examples("coinprint play cointable --games 20", "coinprint play coinage --tails mcts"),
)
def play() -> None:
    """Let agents play a game against each other and write the records."""
