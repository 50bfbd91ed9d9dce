"""The per-game commands, built once for every game from what it declares: ``board GAME``,
``rules GAME`` and ``play GAME``.

A game's parameters (:attr:`~coinprint.game.Game.params`, the schema) become click options
here, and what it can do (:attr:`~coinprint.game.Game.generated`, :attr:`~coinprint.game.Game.cards`)
adds the options of those capabilities; the options every game shares are defined once in
:mod:`coinprint.cli.options`. No option reaches a game unread: a value typed and not used is
refused in one line.
The groups build a game's command when it is asked for, from the registry as it is then, so a
game registered late (a plug-in, a test's toy game) has every command too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from coinprint.agents import checked_agent
from coinprint.analysis import play_to_folder
from coinprint.cli.groups import examples
from coinprint.cli.options import (
    AGENT_HELP,
    appendix_option,
    bleed_option,
    copies_option,
    drawing_options,
    fair_options,
    file_output,
    games_option,
    lang_option,
    layout_file_option,
    layout_option,
    max_turns_option,
    note,
    output_options,
    paper_option,
    print_options,
    progress,
    records_folder_option,
    say,
    seed_option,
    selfplay_options,
    style_option,
    with_quiet,
)
from coinprint.cli.types import ClickType
from coinprint.commands import FairOptions, game_values, print_board, print_layout_file
from coinprint.errors import CoinprintError, UsageError
from coinprint.kit.rulesheet import write_rules
from coinprint.params import Param, Values
from coinprint.playback.page import write_replays
from coinprint.playback.timelapse import FORMATS, TimelapseOptions, require, write_timelapses
from coinprint.printing import ZERO, PrintSettings
from coinprint.registry import GAME_AGENTS, GAMES
from coinprint.selfplay import RunPlan

if TYPE_CHECKING:
    from coinprint.game import Game

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


class ParamType(ClickType):
    """The click type of a game parameter: its text read by :meth:`Param.parse
    <coinprint.params.Param.parse>`, so the command line and a layout spec refuse a value
    with the same words."""

    def __init__(self, param: Param, flag: str) -> None:
        self.param = param
        self.flag = flag
        self.name = param.kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self.param.parse(value, self.flag)
        except CoinprintError as exc:
            # The message names the option already: no "Invalid value for" before it.
            raise click.UsageError(str(exc), ctx) from None


def param_option(param: Param, command: str) -> click.Option:
    """The click option of a game parameter in ``command``."""
    flag = param.flag(command)
    kwargs: dict[str, Any] = {"help": param.describe(), "default": param.default}
    if param.kind == "flag":
        kwargs["is_flag"] = True
    elif param.kind == "choice":
        kwargs["type"] = click.Choice(param.choices)
    else:
        kwargs["type"] = ParamType(param, flag)
    if param.default is not None and param.kind != "flag":
        kwargs["show_default"] = str(param.default)
    if param.metavar:
        kwargs["metavar"] = param.metavar
    return click.Option([flag, dest(param)], **kwargs)


def dest(param: Param) -> str:
    """The name click gives a parameter's value: kept apart from the shared options' names
    (Coin Age's map ``seed`` is ``--map-seed`` in ``play``, where ``--seed`` is the game's)."""
    return f"param_{param.name}"


def _with_params(command: click.Command, game: Game, name: str) -> click.Command:
    # The game's parameters come first in --help, before the options every game shares.
    command.params[:0] = [param_option(param, name) for param in game.schema.shown_in(name)]
    return with_quiet(command)


def option_values(game: Game, command: str, options: dict[str, Any]) -> Values:
    """The values of ``game``'s parameters in ``command``, taken out of ``options`` (the
    click values); those typed on the command line count as given."""
    ctx = click.get_current_context()
    shown = game.schema.shown_in(command)
    given = [param.name for param in shown if ctx.get_parameter_source(dest(param)) not in _NOT_GIVEN]
    return game_values(game, command, {param.name: options.pop(dest(param)) for param in shown}, given)


_NOT_GIVEN = (click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP, None)


def _refuse_with_layout(values: Values, what: str) -> None:
    """A layout file is printed or played as drawn: its game's layout parameters would be ignored."""
    given = [values.where(name) for name in sorted(values.given)]
    if given:
        raise UsageError(f"--layout {what} the file as it is drawn; leave out {', '.join(given)}")


def _given(name: str) -> bool:
    return click.get_current_context().get_parameter_source(name) not in _NOT_GIVEN


def capability_options(game: Game) -> list[Decorator]:
    """The options of ``board GAME`` that come from what the game can do: a fair search for
    generated maps, copies and bleed for cards."""
    options: list[Decorator] = []
    if game.generated is not None:
        options.append(fair_options)
    if game.cards:
        options += [copies_option(), bleed_option]
    return options


def _fair(values: dict[str, Any]) -> FairOptions | None:
    """``--fair`` and its settings; a setting given without ``--fair`` is refused."""
    if "fair" not in values:
        return None
    fair = values.pop("fair")
    settings = {key: values.pop(key) for key in ("candidates", "agent", "fair_games")}
    if not fair:
        stray = [f"--{key.replace('_', '-')}" for key in settings if _given(key)]
        if stray:
            raise UsageError(
                f"{', '.join(stray)} {'is' if len(stray) == 1 else 'are'} for --fair; add --fair or leave {'it' if len(stray) == 1 else 'them'} out"
            )
        return None
    return FairOptions(settings["candidates"], settings["agent"], settings["fair_games"])


def board_command(game: Game) -> click.Command:
    """``board GAME``: the game's board from its parameters, or a layout file with ``--layout``."""

    @paper_option()
    @print_options
    @lang_option
    @output_options()
    @layout_file_option
    @drawing_options(with_game=False)
    def board(**options: Any) -> int:
        values = option_values(game, "board", options)
        fair = _fair(options)
        copies = options.pop("copies", None)
        settings = PrintSettings.checked(
            options["paper"],
            margin=options["margin"],
            overlap=options["overlap"],
            style=options["style"],
            bleed=options.pop("bleed", ZERO),
        )
        output, fmt = options["output"], options["fmt"]
        if options["layout_file"]:
            _refuse_with_layout(values, "prints")
            if fair is not None:
                raise UsageError("--fair searches generated maps; it cannot be used with --layout")
            return print_layout_file(
                game,
                options["layout_file"],
                options["units"],
                options["tolerance"],
                settings,
                output,
                fmt,
                click.echo,
                copies,
                options["lang"],
            )
        lang = options["lang"]
        if fair is None:
            return print_board(game, values, settings, output, fmt, say, _warn, copies=copies, lang=lang)
        with progress(fair.games, "fair search") as update:
            fair = replace(fair, progress=update)
            return print_board(game, values, settings, output, fmt, say, _warn, copies=copies, fair=fair, lang=lang)

    for option in reversed(capability_options(game)):
        board = option(board)
    command = click.command(game.name, help=_first_line(game, "board"), epilog=_examples(game, "board"))(board)
    return _with_params(command, game, "board")


def rules_command(game: Game) -> click.Command:
    """``rules GAME``: the game's rule sheet as a PDF."""

    @paper_option()
    @lang_option
    @style_option
    @output_options(("pdf",))
    @appendix_option
    def rules(**options: Any) -> None:
        values = option_values(game, "rules", options)
        path = write_rules(
            game,
            options["paper"],
            options["lang"],
            options["output"],
            options["fmt"],
            appendix=options["appendix"],
            values=values,
            note=note,
            style=options["style"],
        )
        say(f"wrote {path}")

    command = click.command(game.name, help=_first_line(game, "rules"), epilog=_examples(game, "rules"))(rules)
    return _with_params(command, game, "rules")


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
                callback=lambda ctx, param, value: checked_agent(value, param.opts[0], GAME_AGENTS),
                help=f"Agent playing {seat.player} ({AGENT_HELP}).",
            )(func)
        return func

    @layout_option(
        None,
        "Play on this layout instead: a built-in name (e.g. "
        f"{game.default_spec}), coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS.",
        metavar="SPEC|FILE",
    )
    @seat_options
    @games_option(10, "How many games to play.")
    @seed_option("Seed of the first game; game i uses seed + i.")
    @max_turns_option(game.play_max_turns, "Cut a game after this many moves; it counts as a timeout, never a win.")
    @drawing_options(with_game=False)
    @records_folder_option(game.name)
    @html_option
    @video_option
    @selfplay_options
    def play(**values: Any) -> None:
        own = option_values(game, "play", values)
        layout_given = [name for name in own.given if game.schema[name].role == "layout"]
        if values["layout"] and layout_given:
            _refuse_with_layout(
                Values({}, layout_given, where={n: game.schema[n].flag("play") for n in layout_given}), "plays"
            )
        spec = values["layout"] or game.spec_of(own)
        if values["video"]:
            require(values["video"])
        agents = {seat.player: values[f"agent_{seat.player}"] for seat in game.seats}
        with progress(values["games"], "games") as update:
            paths, summary = play_to_folder(
                spec,
                agents,
                RunPlan(values["games"], values["seed"], values["max_turns"], values["workers"], values["dask"]),
                values["output"],
                game.schema.rules_options(own),
                game=game.name,
                progress=update,
                units=values["units"],
                tolerance_mm=values["tolerance"],
            )
        seats = " v ".join(f"{player} {agent}" for player, agent in agents.items())
        say(f"seed {values['seed']}: {values['games']} games of {game.title} on {spec}, {seats}")
        say(f"wrote {len(paths)} records to {values['output']}")
        click.echo(summary.describe())
        echo_timelapses(values["video"], paths)
        echo_replay_pages(values["html"], paths, values["output"], values["video"])

    command = click.command(game.name, cls=PlayCommand, help=_first_line(game, "play"), epilog=_examples(game, "play"))(
        play
    )
    command.game = game
    return _with_params(command, game, "play")


class PlayCommand(click.Command):
    """``play GAME``: another game's agent option (``--heads`` for the Map) is answered with
    this game's, not with click's nearest spelling."""

    game: Game

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            others = {seat.flag for game in GAMES for seat in game.seats}
            if exc.option_name in others:
                own = " and ".join(f"{seat.flag} ({seat.player})" for seat in self.game.seats)
                raise click.UsageError(
                    f"no such option {exc.option_name}: {self.game.title}'s agents are chosen with {own}", ctx
                ) from None
            raise


html_option = click.option(
    "--html",
    "html",
    is_flag=True,
    help="Also write a replay page per game (NAME.html beside NAME.json) and an index.html listing them.",
)
"""``play … --html``: the option every play command takes."""


video_option = click.option(
    "--video",
    "video",
    type=click.Choice(FORMATS),
    default=None,
    metavar="FORMAT",
    help=f"Also write a time-lapse per game beside its record ({', '.join(FORMATS)}; NAME.gif beside NAME.json).",
)
"""``play … --video FORMAT``: a time-lapse beside each record."""


def echo_timelapses(video: str | None, paths: list[Any]) -> None:
    """Write the time-lapses of ``play … --video`` (when asked) and say how many."""
    if video:
        written = write_timelapses(paths, TimelapseOptions(video))
        say(f"wrote {len(written)} time-lapses ({video}) beside the records")


def echo_replay_pages(html: bool, paths: list[Any], folder: str, video: str | None = None) -> None:
    """Write the replay pages of ``play … --html`` (when asked; each offering its time-lapse
    when ``--video`` wrote one) and say where."""
    if html:
        say(f"wrote {len(paths)} replay pages; open {write_replays(paths, folder, video)}")


def _warn(line: str) -> None:
    click.echo(line, err=True)


def _example_value(param: Param) -> str:
    """A value of ``param`` other than its default, to show in an example."""
    if param.kind == "choice":
        return next(choice for choice in param.choices if choice != param.default)
    if param.kind in ("int", "seed"):
        default = param.default if isinstance(param.default, int) else 0
        high = param.high if param.high is not None else default + 2
        return str(min(default + 2, high)) if param.low is None or default + 2 >= param.low else str(param.low)
    return param.text(param.default) if param.default is not None else ""


def _examples(game: Game, command: str) -> str:
    """Two or three command lines for ``game``'s ``command``, made from its schema and
    capabilities, so every game's --help has examples that work."""
    name = game.name
    lines = [f"coinprint {command} {name}"]
    shown = [param for param in game.schema.shown_in(command) if param.kind != "flag" and _example_value(param)]
    if command == "board":
        if shown:
            param = shown[0]
            lines.append(f"coinprint board {name} {param.flag('board')} {_example_value(param)} -o {name}.svg")
        if game.generated is not None:
            asks = " ".join(f"{game.schema[key].flag('board')} {value}" for key, value in game.generated.asks.items())
            lines.append(f"coinprint board {name} {asks} --seed 7 --fair".replace("  ", " "))
        else:
            lines.append(f"coinprint board {name} --paper letter --style ink-saver")
    elif command == "rules":
        lines.append(f"coinprint rules {name} --lang sv --paper letter")
        if shown:
            param = shown[0]
            lines.append(f"coinprint rules {name} {param.flag('rules')} {_example_value(param)} --appendix")
    else:
        first, second = game.seats[0], game.seats[1]
        lines.append(f"coinprint play {name} --games 100 --seed 1")
        lines.append(f"coinprint play {name} {first.flag} greedy {second.flag} mcts:iterations=400 --html")
    return examples(*lines)


def _first_line(game: Game, command: str) -> str:
    what = {
        "board": f"Print the {game.title} {game.board_noun} at true size (PDF, SVG or GeoJSON).",
        "rules": f"The {game.title} rule sheet (PDF).",
        "play": f"Let two agents play {game.title}; write one validating record per game and print a summary.",
    }
    return what[command]


__all__ = ["board_command", "file_output", "param_option", "play_command", "rules_command"]
