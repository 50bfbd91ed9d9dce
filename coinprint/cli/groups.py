"""The command tree: the top-level group and the ``board``, ``rules``, ``validate`` and
``play`` groups the command modules add to. It imports no command module, so every command
module can import it without an import circle."""

from __future__ import annotations

import click

from coinprint import __version__
from coinprint.cli.games import GameGroup, board_command, play_command, rules_command
from coinprint.cli.options import examples
from coinprint.cli.types import HelpGroup
from coinprint.registry import GAMES


class _Group(HelpGroup):
    """A group whose commands list in the order they were added."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


class _TopGroup(_Group):
    """The ``coinprint`` group: its help names the registered games, a plug-in's too, when it
    is read (so no game is loaded before)."""

    @property
    def help(self) -> str | None:
        if self._help is None:
            return None
        titles = [game.title for game in GAMES]
        named = f"{', '.join(titles[:-1])} and {titles[-1]}" if len(titles) > 1 else "".join(titles)
        return self._help.replace("{games}", named)

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = text


@click.group(
    cls=_TopGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=examples(
        "coinprint kit all", "coinprint board map --seed 7", "coinprint validate layout my-card.svg --game coinage"
    ),
)
@click.version_option(__version__, "--version", prog_name="coinprint")
def cli() -> None:
    """Print and play coin games: {games}.

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
