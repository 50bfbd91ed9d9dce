"""The command tree: the top-level group and the ``board``, ``rules``, ``validate`` and
``play`` groups. Commands are named here and their modules imported only when one is run or
its help is shown (click's lazy group), so ``coinprint --help`` loads no command module."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import click

from coinprint import __version__
from coinprint.cli.types import HelpGroup
from coinprint.registry import GAMES

if TYPE_CHECKING:
    from coinprint.game import Game


def examples(*commands: str) -> str:
    """A ``--help`` epilog: a few command lines to copy, kept as written (click's ``\\b``)."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {command}" for command in commands)


def _load(target: str) -> Any:
    """The object ``module:name`` names, its module imported now."""
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def _short_help(summary: str, limit: int) -> str:
    """``summary`` shortened to ``limit`` characters as click shortens a command's help."""
    return click.Command(None, help=summary).get_short_help_str(limit)


class LazyGroup(HelpGroup):
    """A group whose commands are imported when one is run or its own help shown, in the order
    given; each gets ``--quiet`` as it is loaded. ``lazy`` maps a command's name to where it
    is (``module:name``) and the first paragraph of its help, which the group's ``--help``
    lists without importing it (``tests/test_cli.py`` checks the two agree)."""

    def __init__(self, *args: Any, lazy: Mapping[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.lazy)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy:
            return None
        from coinprint.cli.options import with_quiet

        command: click.Command = _load(self.lazy[cmd_name][0])
        return with_quiet(command)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # As click lists them, from the summaries: listing imports no command module.
        if not self.lazy:
            return
        limit = formatter.width - 6 - max(len(name) for name in self.lazy)
        rows = [(name, _short_help(summary, limit)) for name, (_, summary) in self.lazy.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _broken_game(name: str, why: str) -> click.Command:
    """A game that cannot be loaded, as a command: listed in help as broken, and failing in one
    line, whatever its arguments, when it is run (as vpype shows a broken plug-in)."""

    def fail(args: tuple[str, ...]) -> None:
        GAMES[name]  # raises the registry's one line: why the game cannot be loaded

    return click.Command(
        name,
        callback=fail,
        params=[click.Argument(["args"], nargs=-1, type=click.UNPROCESSED)],
        short_help=f"(broken: {why})",
        context_settings={"ignore_unknown_options": True},
        add_help_option=False,
    )


class GameGroup(HelpGroup):
    """``board``, ``rules`` or ``play``: one subcommand per registered game, built on demand
    by ``build`` (``module:name`` of a function of the :class:`~coinprint.game.Game`)."""

    def __init__(self, *args: Any, build: str, simulated: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.build = build
        self.simulated = simulated

    def _names(self) -> tuple[str, ...]:
        return GAMES.simulated() if self.simulated else GAMES.names()

    def list_commands(self, ctx: click.Context) -> list[str]:
        # The games that load, then the broken ones: --help shows those as broken, and each
        # fails in one line only when it is chosen (get_command); the others work.
        return [*self._names(), *(name for name in GAMES.broken() if name not in self._names())]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        name = GAMES.name_for(cmd_name)
        if name is None:
            return None
        why = GAMES.why_broken(name)
        if why is not None:
            return _broken_game(name, why)
        if name not in self._names():
            title = GAMES[name].title
            raise click.UsageError(
                f"{title} is refereed, not simulated: agents cannot play it. Record a game's events and "
                f"check them with 'coinprint validate game' (see 'coinprint rules {name}')",
                ctx,
            )
        build: Callable[[Game], click.Command] = _load(self.build)
        return build(GAMES[name])

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        # A game called by its title (``map``) runs under its name, so help and errors say it.
        name, command, rest = super().resolve_command(ctx, args)
        return (command.name if command is not None else name), command, rest


@click.group(
    cls=GameGroup,
    build="coinprint.cli.games:board_command",
    epilog=examples("coinprint board cointable", "coinprint board map -o map.svg"),
)
def board() -> None:
    """Print a game's board, map card or mat (PDF, SVG or GeoJSON)."""


@click.group(
    cls=GameGroup,
    build="coinprint.cli.games:rules_command",
    epilog=examples("coinprint rules coinage", "coinprint rules map --lang sv"),
)
def rules() -> None:
    """Print a game's rule sheet (PDF)."""


@click.group(
    cls=LazyGroup,
    lazy={
        "layout": (
            "coinprint.cli.common:validate_layout",
            "Check a layout (coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS with --game): "
            "report every problem with the space it concerns (exit 1) or say it is valid.",
        ),
        "game": (
            "coinprint.cli.common:validate_game",
            "Replay a recorded game: exit 0 if every move is legal, 1 at the first illegal move.",
        ),
    },
    epilog=examples("coinprint validate layout my-map.svg --game mapgame", "coinprint validate game game.json"),
)
def validate() -> None:
    """Check a layout (GeoJSON) or a recorded game (JSON)."""


@click.group(
    cls=GameGroup,
    build="coinprint.cli.games:play_command",
    simulated=True,
    epilog=examples("coinprint play cointable --games 20", "coinprint play coinage --tails mcts"),
)
def play() -> None:
    """Let agents play a game against each other and write the records."""


COMMANDS = {
    "board": ("coinprint.cli.groups:board", "Print a game's board, map card or mat (PDF, SVG or GeoJSON)."),
    "rules": ("coinprint.cli.groups:rules", "Print a game's rule sheet (PDF)."),
    "validate": ("coinprint.cli.groups:validate", "Check a layout (GeoJSON) or a recorded game (JSON)."),
    "play": ("coinprint.cli.groups:play", "Let agents play a game against each other and write the records."),
    "analyse": (
        "coinprint.cli.analyse:analyse",
        "A design report from self-play: first-player share, ties and timeouts, game length, lead changes, "
        "decisiveness, branching, coverage and skill against luck, with 95 % intervals "
        "(GAME is any game agents can play). `balance` is the short form.",
    ),
    "kit": (
        "coinprint.cli.common:kit",
        "Print-and-play kits: each game's rule sheet and board in one PDF (GAME is a game's name, or all).",
    ),
    "balance": (
        "coinprint.cli.common:balance",
        "Is the first player favoured? Self-play equal agents and report the first player's share of "
        "decided games with a 95 % interval (GAME is any game agents can play).",
    ),
    "ladder": (
        "coinprint.cli.ladder:ladder",
        "How strong the agents are: each rung plays the next one up, and the ladder reports Elo ratings "
        "against the first rung with 95 % intervals (GAME is any game agents can play).",
    ),
    "questions": (
        "coinprint.cli.questions:questions",
        "A game's design questions answered by play: each a comparison of ways to play over paired games "
        "with 95 % intervals, swept over the physics' ranges (GAME is a game that asks some: flick).",
    ),
    "replay": (
        "coinprint.cli.replay:replay",
        "Write a replay page: one self-contained HTML file that steps through a recorded game (or a Flick "
        "event log) move by move; or, with -o game.gif (.webp, .apng, .mp4), a time-lapse of it to share. "
        "An invalid record replays up to its first illegal move (exit 1).",
    ),
    "studio": (
        "coinprint.cli.studio:studio",
        "Open coinprint studio in the browser: print kits, make maps, check a drawing as you draw it, "
        "play the computer. Runs on 127.0.0.1 until Ctrl-C; the address printed first carries the token "
        "every request needs.",
    ),
}
"""Every top-level command, in the order ``--help`` lists them: where it is defined, and the
first paragraph of its help."""


class _TopGroup(LazyGroup):
    """The ``coinprint`` group: its help names the registered games, a plug-in's too, when it
    is read (so no game is loaded before)."""

    @property
    def help(self) -> str | None:
        if self._help is None:
            return None
        titles = list(GAMES.titles().values())
        named = f"{', '.join(titles[:-1])} and {titles[-1]}" if len(titles) > 1 else "".join(titles)
        return self._help.replace("{games}", named)

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = text


@click.group(
    cls=_TopGroup,
    lazy=COMMANDS,
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
