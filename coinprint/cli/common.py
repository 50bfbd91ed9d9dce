"""The commands that serve every game at once: ``kit``, ``validate layout``, ``validate game``
and ``balance``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from coinprint.analysis import balance as judge
from coinprint.cli.games import dest, param_option
from coinprint.cli.groups import examples
from coinprint.cli.options import (
    agent_option,
    bleed_option,
    drawing_options,
    file_output,
    games_option,
    kit_paper_options,
    lang_option,
    layout_file_option,
    layout_option,
    max_turns_option,
    note,
    paper_option,
    progress,
    say,
    seed_option,
    selfplay_options,
    style_option,
    suffixed_output,
    until_decided_options,
)
from coinprint.cli.types import GameName
from coinprint.commands import check_layout_data, make_kits
from coinprint.errors import UsageError
from coinprint.fileio import read_bytes
from coinprint.kit.board import write_position_svg
from coinprint.kit.kit import kit_params, kit_values
from coinprint.layout_report import write_layout_report
from coinprint.printing import PrintSettings
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan
from coinprint.source import validate_record
from coinprint.sprt import cap_warning

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.params import Values
    from coinprint.units import Length, PaperSize

_KIT_OPTIONS = "coinprint.kit_options"
"""Where ``kit GAME`` keeps its game and that game's options (``ctx.meta``), once read."""


class KitCommand(click.Command):
    """``kit GAME|all``: once GAME is read from the command line, its layout options (as
    ``board GAME`` spells them, see :func:`~coinprint.kit.kit.kit_params`) join the
    command's, after GAME; so ``kit --help`` and ``kit all`` stay as they were and
    ``kit GAME --help`` lists them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        named = self._game_named(ctx, args)
        if named is not None and named != "all" and GAMES.why_broken(named) is None:
            game = GAMES[named]
            ctx.meta[_KIT_OPTIONS] = (game, [param_option(param, "board") for param in kit_params(game)])
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            owner = _kit_option_owner(exc.option_name) if named == "all" else None
            if owner is None:
                raise
            raise click.UsageError(
                f"kit all prints each game's standard kit; {exc.option_name} is {owner.title}'s: "
                f"give that game (coinprint kit {owner.name} {exc.option_name} …)",
                ctx,
            ) from None

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        if _KIT_OPTIONS not in ctx.meta:
            return params
        return [params[0], *ctx.meta[_KIT_OPTIONS][1], *params[1:]]

    def _game_named(self, ctx: click.Context, args: list[str]) -> str | None:
        """The game (or ``all``) the command line names, before it is parsed: GAME, or where a
        game's option (not known yet) came first and took its place, the first word left over
        that names one."""
        parser = self.make_parser(ctx)
        parser.ignore_unknown_options = True
        try:
            read, left, _ = parser.parse_args(list(args))
        except click.UsageError:
            return None  # parsing again says what is wrong
        for word in [str(read.get("game")), *left]:
            name = "all" if word == "all" else GAMES.name_for(word)
            if name is not None:
                return name
        return None


def _kit_option_owner(flag: str) -> Game | None:
    """The first game whose kit takes ``flag`` (``--size``: Coin Table), if any does."""
    for game in GAMES:
        if any(param.flag("board") == flag for param in kit_params(game)):
            return game
    return None


def _kit_options(typed: dict[str, Any]) -> Values | None:
    """The layout options of ``kit GAME`` as typed (``typed``: click's values by name);
    None for ``kit all``."""
    ctx = click.get_current_context()
    if _KIT_OPTIONS not in ctx.meta:
        return None
    game, _ = ctx.meta[_KIT_OPTIONS]
    params = kit_params(game)
    given = [param.name for param in params if ctx.get_parameter_source(dest(param)) not in _NOT_GIVEN]
    return kit_values(game, {param.name: typed[dest(param)] for param in params}, given)


_NOT_GIVEN = (click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP, None)


@click.command(
    "kit",
    cls=KitCommand,
    epilog=examples(
        "coinprint kit all",
        "coinprint kit cointable --paper letter --lang sv",
        "coinprint kit coinage --layout my-card.svg -o my-kit.pdf",
        "coinprint kit cointable --paper a4 --board-paper a3 --duplex",
    ),
)
@click.argument("game", type=GameName(extra=("all",)), metavar="GAME|all")
@paper_option()
@kit_paper_options
@style_option
@lang_option
@bleed_option
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    metavar="FOLDER",
    callback=file_output,
    help="Folder for the kits (default: output/); a .pdf file name (or '-') for a single game.",
)
@layout_file_option
@drawing_options(with_game=False)
def kit(
    game: str,
    paper: PaperSize,
    board_paper: PaperSize | None,
    duplex: bool,
    style: str,
    lang: str,
    bleed: Length,
    output: str | None,
    layout_file: str | None,
    units: str,
    tolerance: float | None,
    **layout_options: Any,
) -> int:
    """Print-and-play kits: each game's rule sheet and board in one PDF (GAME is a game's
    name, or all)."""

    options = _kit_options(layout_options)
    settings = PrintSettings.checked(paper, style=style, bleed=bleed, board_paper=board_paper, duplex=duplex)
    layout = None
    if layout_file and options is not None and options.given:
        given = ", ".join(options.where(name) for name in sorted(options.given))
        raise UsageError(f"--layout prints the file as it is drawn; leave out {given}")
    if layout_file:
        drawn = GameName(drawn=True).choices()
        if game not in drawn:
            raise click.BadParameter(f"--layout prints one game's board: {', '.join(drawn)}", param_hint="GAME")
        checked = check_layout_data(read_bytes(layout_file), layout_file, game, units, tolerance, click.echo)
        if not checked.valid:
            click.echo(f"{layout_file}: {checked.verdict}")
            return 1
        layout = checked.layout
    games = list(GAMES) if game == "all" else [GAMES[game]]
    if game == "all":
        for name, why in GAMES.broken().items():
            note(f"{name} is broken and has no kit: {why}")
    with progress(len(games), "kits") as update:
        make_kits(games, settings, lang, output, layout, say, update, note=note, options=options)
    return 0


@click.command(
    "layout",
    epilog=examples(
        "coinprint validate layout my-map.geojson",
        "coinprint validate layout card.svg --game coinage --report card-check.pdf",
        "coinprint validate layout - --game coinage < card.svg",
    ),
)
@click.argument("path", metavar="FILE")
@drawing_options(with_game=True)
@click.option(
    "--report",
    "report_path",
    default=None,
    metavar="PATH.svg|PATH.pdf",
    callback=suffixed_output(".svg", ".pdf"),
    help="Also draw the verdict: the layout at true size with every problem marked and named.",
)
def validate_layout(path: str, game: str | None, units: str, tolerance: float | None, report_path: str | None) -> int:
    """Check a layout (coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS with --game):
    report every problem with the space it concerns (exit 1) or say it is valid."""

    checked = check_layout_data(read_bytes(path), path, game, units, tolerance, click.echo)
    click.echo(f"{path}: {checked.verdict}")
    summary = checked.summary
    if summary is not None:
        click.echo(f"{path}: {summary}")
    if report_path:
        say(f"wrote {write_layout_report(checked.layout, checked.problems, report_path, checked.verdict)}")
    return 0 if checked.valid else 1


@click.command(
    "game",
    epilog=examples(
        "coinprint validate game output/cointable-games/cointable-1.json",
        "coinprint validate game game.json --show",
        "coinprint validate game game.json --svg final.svg",
    ),
)
@click.argument("path", metavar="RECORD.json")
@click.option("--show", is_flag=True, help="Print the final position as a text diagram.")
@click.option(
    "--svg",
    "svg_path",
    default=None,
    metavar="PATH",
    callback=suffixed_output(".svg", stdout=True),
    help="Draw the final position as an SVG ('-' for standard output).",
)
def validate_game(path: str, show: bool, svg_path: str | None) -> int:
    """Replay a recorded game: exit 0 if every move is legal, 1 at the first illegal move."""

    record, rules, replayed = validate_record(path)
    click.echo(f"{path}: {replayed.report()}")
    if show:
        click.echo(rules.describe(replayed.state))
    if svg_path:
        written = write_position_svg(GAMES[record.game], rules, replayed.state, svg_path)
        say(f"wrote {written}")
    return 0 if replayed.valid else 1


@click.command(
    "balance",
    epilog=examples(
        "coinprint balance cointable",
        "coinprint balance mapgame --layout mapgame:countries=31,seed=2 --games 400",
        "coinprint balance coinage --until-decided --seed 1",
    ),
)
@click.argument("game", type=GameName(simulated=True), metavar="GAME")
@layout_option(
    None,
    "Built-in layout with parameters (e.g. cointable:size=4, mapgame:countries=31,seed=2), a GeoJSON file or an SVG drawing.",
)
@agent_option("random", "Agent playing both sides")
@games_option(200, "Games to play (with --until-decided: the most to play).")
@seed_option("Seed of the first game (game i uses seed + i).")
@max_turns_option(2000)
@until_decided_options
@selfplay_options
@drawing_options(with_game=False)
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
    units: str,
    tolerance: float | None,
) -> None:
    """Is the first player favoured? Self-play equal agents and report the first player's share
    of decided games with a 95 % interval (GAME is any game agents can play)."""

    warning = cap_warning(games, precision) if until_decided else None
    if warning:
        click.echo(warning, err=True)
    with progress(games, "games") as update:
        report = judge(
            GAMES[game],
            GAMES[game].default_spec if layout is None else layout,
            agent,
            RunPlan(games, seed, max_turns, workers, dask),
            until_decided=until_decided,
            precision=precision,
            progress=update,
            units=units,
            tolerance_mm=tolerance,
        )
    say(f"seed {seed}")
    click.echo(report.describe())
