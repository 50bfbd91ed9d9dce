"""The per-game commands, built once for every game from what it declares: ``board GAME``,
``rules GAME`` and ``play GAME``.

A game's own options (:attr:`~coinprint.game.Game.board_options` and the like) become click
options here; the options every game shares are defined once in :mod:`coinprint.cli.options`.
The groups build a game's command when it is asked for, from the registry as it is then, so a
game registered late (a plug-in, a test's toy game) has every command too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from coinprint.agents import checked_agent
from coinprint.analysis import play_to_folder
from coinprint.cli.options import (
    AGENT_HELP,
    appendix_option,
    drawing_options,
    file_output,
    games_option,
    lang_option,
    layout_file_option,
    layout_option,
    max_turns_option,
    output_options,
    paper_option,
    print_options,
    progress,
    records_folder_option,
    seed_option,
    selfplay_options,
)
from coinprint.cli.types import LENGTH, LENGTH_OR_ZERO, PAPER, HelpGroup
from coinprint.commands import print_board, print_layout_file
from coinprint.kit import PrintSettings, write_rules
from coinprint.kit.replay import write_replays
from coinprint.registry import GAMES
from coinprint.units import paper_size

if TYPE_CHECKING:
    from coinprint.game import Game, Option

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def click_option(option: Option) -> click.Option:
    """The click option for a game's declared :class:`~coinprint.game.Option`."""
    kinds: dict[str, Any] = {
        "int": int,
        "text": None,
        "flag": None,
        "length": LENGTH,
        "length-or-zero": LENGTH_OR_ZERO,
        "paper": PAPER,
    }
    kwargs: dict[str, Any] = {"help": option.help, "default": option.default}
    if option.kind == "flag":
        kwargs["is_flag"] = True
    elif option.kind == "choice":
        kwargs["type"] = click.Choice(option.choices)
    elif kinds[option.kind] is not None:
        kwargs["type"] = kinds[option.kind]
    if option.default is not None and option.kind != "flag":
        kwargs["show_default"] = True
    if option.metavar:
        kwargs["metavar"] = option.metavar
    if option.check is not None:
        check = option.check
        kwargs["callback"] = lambda ctx, param, value: value if value is None else check(value, option.flag)
    return click.Option([option.flag, option.key], **kwargs)


def _with_options(command: click.Command, options: tuple[Option, ...]) -> click.Command:
    # The game's options come first in --help, as each game's commands listed them before.
    command.params[:0] = [click_option(option) for option in options]
    return command


def _split(game_options: tuple[Option, ...], values: dict[str, Any]) -> dict[str, Any]:
    """The values of the game's own options, taken out of ``values``."""
    return {option.key: values.pop(option.key) for option in game_options}


def board_command(game: Game) -> click.Command:
    """``board GAME``: the game's board from its options, or a layout file with ``--layout``."""

    @paper_option()
    @print_options
    @output_options()
    @layout_file_option
    @drawing_options(with_game=False)
    def board(**values: Any) -> int:
        own = _split(game.board_options, values)
        bleed = own.pop("bleed", "0")
        settings = PrintSettings.parse(
            paper=values["paper"],
            margin=values["margin"],
            overlap=values["overlap"],
            style=values["style"],
            bleed=bleed,
        )
        say, warn = click.echo, _warn
        if values["layout_file"]:
            return print_layout_file(
                game,
                values["layout_file"],
                values["units"],
                values["tolerance"],
                settings,
                values["output"],
                values["fmt"],
                say,
                own.get("copies"),
            )
        return print_board(game, own, settings, values["output"], values["fmt"], say, warn)

    command = click.command(game.name, help=_first_line(game, "board"))(board)
    return _with_options(command, game.board_options)


def rules_command(game: Game) -> click.Command:
    """``rules GAME``: the game's rule sheet as a PDF."""

    @paper_option()
    @lang_option
    @output_options(("pdf",))
    @appendix_option
    def rules(**values: Any) -> None:
        params = game.rules_params(_split(game.rules_options, values))
        path = write_rules(
            game.name,
            paper_size(values["paper"]),
            values["lang"],
            values["output"],
            values["fmt"],
            appendix=values["appendix"],
            **params,
        )
        click.echo(f"wrote {path}")

    command = click.command(game.name, help=_first_line(game, "rules"))(rules)
    return _with_options(command, game.rules_options)


def play_command(game: Game) -> click.Command:
    """``play GAME``: agents play; one record per game, and a summary."""

    def seat_options(func: Callable[..., Any]) -> Callable[..., Any]:
        for seat in reversed(game.seats):
            func = click.option(
                seat.flag,
                f"agent_{seat.player}",
                default=seat.default,
                show_default=True,
                metavar="AGENT",
                callback=lambda ctx, param, value: checked_agent(value, param.opts[0]),
                help=f"Agent playing {seat.player} ({AGENT_HELP}).",
            )(func)
        return func

    @layout_option(
        None,
        "Play on this layout instead: a built-in name (e.g. "
        f"{game.layout_spec}), coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS.",
        metavar="SPEC|FILE",
    )
    @seat_options
    @games_option(10, "How many games to play.")
    @seed_option(game.play_seed, "Seed of the first game; game i uses seed + i.")
    @max_turns_option(game.play_max_turns, "Cut a game after this many moves; it counts as a timeout, never a win.")
    @drawing_options(with_game=False)
    @records_folder_option(game.name)
    @html_option
    @selfplay_options
    def play(**values: Any) -> None:
        own = _split(game.play_options, values)
        spec = values["layout"] or game.play_layout(own)
        agents = {seat.player: values[f"agent_{seat.player}"] for seat in game.seats}
        with progress(values["games"], "games") as update:
            paths, summary = play_to_folder(
                spec,
                agents,
                values["games"],
                values["seed"],
                values["max_turns"],
                values["output"],
                game.rule_options(own),
                game=game.name,
                workers=values["workers"],
                dask=values["dask"],
                progress=update,
                units=values["units"],
                tolerance_mm=values["tolerance"],
            )
        seats = " v ".join(f"{player} {agent}" for player, agent in agents.items())
        click.echo(f"seed {values['seed']}: {values['games']} games of {game.title} on {spec}, {seats}")
        click.echo(f"wrote {len(paths)} records to {values['output']}")
        click.echo(summary.describe())
        echo_replay_pages(values["html"], paths, values["output"])

    command = click.command(game.name, help=_first_line(game, "play"))(play)
    return _with_options(command, game.play_options)


html_option = click.option(
    "--html",
    "html",
    is_flag=True,
    help="Also write a replay page per game (NAME.html beside NAME.json) and an index.html listing them.",
)
"""``play … --html``: the option every play command takes."""


def echo_replay_pages(html: bool, paths: list[Any], folder: str) -> None:
    """Write the replay pages of ``play … --html`` (when asked) and say where."""
    if html:
        click.echo(f"wrote {len(paths)} replay pages; open {write_replays(paths, folder)}")


def _warn(line: str) -> None:
    click.echo(line, err=True)


def _first_line(game: Game, command: str) -> str:
    what = {
        "board": f"Print the {game.title} {game.board_noun} at true size (PDF, SVG or GeoJSON).",
        "rules": f"The {game.title} rule sheet (PDF).",
        "play": f"Let two agents play {game.title}; write one validating record per game and print a summary.",
    }
    return what[command]


class GameGroup(HelpGroup):
    """``board``, ``rules`` or ``play``: one subcommand per registered game, built on demand."""

    def __init__(self, *args: Any, build: Callable[[Game], click.Command], simulated: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.build = build
        self.simulated = simulated

    def _names(self) -> tuple[str, ...]:
        return GAMES.simulated() if self.simulated else GAMES.names()

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self._names())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self._names():
            return None
        return self.build(GAMES[cmd_name])


__all__ = ["GameGroup", "board_command", "click_option", "file_output", "play_command", "rules_command"]
