"""The commands that serve every game at once: ``kit``, ``validate layout``, ``validate game``
and ``balance``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from coinprint.analysis import balance as judge
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
from coinprint.fileio import read_bytes
from coinprint.kit.board import write_position_svg
from coinprint.layout_report import write_layout_report
from coinprint.printing import PrintSettings
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan
from coinprint.source import validate_record
from coinprint.sprt import cap_warning

if TYPE_CHECKING:
    from coinprint.units import Length, PaperSize


@click.command(
    "kit",
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
) -> int:
    """Print-and-play kits: each game's rule sheet and board in one PDF (GAME is a game's
    name, or all)."""

    settings = PrintSettings.checked(paper, style=style, bleed=bleed, board_paper=board_paper, duplex=duplex)
    layout = None
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
        make_kits(games, settings, lang, output, layout, say, update, note=note)
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
