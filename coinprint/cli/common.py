"""Options shared by many commands, and the validate commands that serve every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from coinprint.cli import cli, validate
from coinprint.cli.options import (  # noqa: F401  (one place to import every shared option)
    checked_lang,
    copies_option,
    drawing_options,
    file_output,
    games_option,
    layout_option,
    max_turns_option,
    progress,
    seed_option,
    suffixed_output,
    supply_option,
)
from coinprint.errors import InterruptedRunError, stop_code
from coinprint.fileio import Interrupted
from coinprint.io import GAMES_READ
from coinprint.registry import GAMES
from coinprint.render.style import palette_names

if TYPE_CHECKING:
    from coinprint.boards.checks import Problem
    from coinprint.kit import PrintSettings
    from coinprint.layout import Layout

FORMATS = ("pdf", "svg", "geojson")


def paper_option(default: str = "a4") -> Callable:
    return click.option(
        "--paper",
        default=default,
        show_default=True,
        metavar="NAME|WxH",
        help="Paper: a5, a4, a3, letter, legal, tabloid, or WxH with a unit (e.g. 300x400mm).",
    )


def lang_option(func: Callable) -> Callable:
    """--lang: the language of rule sheets and printed texts (checked by the kit layer)."""
    return click.option(
        "--lang",
        default="en",
        show_default=True,
        metavar="CODE",
        callback=checked_lang,
        help="Language of the rule sheet and the printed texts: en or sv (an unknown one is refused).",
    )(func)


def bleed_option(func: Callable) -> Callable:
    """--bleed: how far cards' colours run past their trim lines (crop marks, PDF BleedBox)."""
    return click.option(
        "--bleed",
        default="0",
        show_default=True,
        metavar="LENGTH",
        help="Cards only (Coin Age): run the colours this far past the trim lines (e.g. 3mm), "
        "with crop marks and a PDF BleedBox; 0 prints dashed cut lines instead.",
    )(func)


def print_options(func: Callable) -> Callable:
    """--style, --margin, --overlap: how a board is printed."""
    func = click.option(
        "--overlap", default="10mm", show_default=True, metavar="LENGTH", help="Overlap between tiled pages."
    )(func)
    func = click.option(
        "--margin", default="10mm", show_default=True, metavar="LENGTH", help="Blank margin on every page edge."
    )(func)
    func = click.option(
        "--style",
        type=click.Choice(palette_names()),
        default="color",
        show_default=True,
        help="color fills the spaces; ink-saver draws outlines only.",
    )(func)
    return func


def output_options(formats: tuple[str, ...] = FORMATS) -> Callable:
    def decorate(func: Callable) -> Callable:
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


def layout_file_options(func: Callable) -> Callable:
    """--layout FILE with --units and --tolerance: print a drawn or hand-made layout."""
    func = drawing_options(with_game=False)(func)
    return layout_option(
        None,
        "Print this layout instead (coinprint GeoJSON, an SVG drawing, or GeoJSON from QGIS); it is checked first.",
        name="layout_file",
        metavar="FILE",
    )(func)


def checked_layout(
    path: str, game: str | None, units: str, tolerance: float | None
) -> tuple[Layout, list[Problem], str, bool]:
    """Read and check the layout file at ``path`` (``tolerance`` in mm, None: the default),
    echoing notes and problems as one line each; returns (layout, problems, the verdict
    line, whether it is valid)."""
    from coinprint.analysis import check_layout, read_layout_file
    from coinprint.boards.checks import DEFAULT_TOLERANCE_MM, errors

    limit = DEFAULT_TOLERANCE_MM if tolerance is None else tolerance
    read = read_layout_file(path, game=game, units=units, tolerance_mm=limit)
    layout = read.layout
    problems = check_layout(layout, tolerance_mm=limit)
    for note in read.notes:
        click.echo(f"{path}: note: {note}")
    for problem in problems:
        click.echo(f"{path}: {problem}")
    bad = errors(problems)
    if bad:
        verdict = f"invalid {layout.game} layout: {len(bad)} problem(s)"
    else:
        counted = f"{len(layout)} spaces" if layout.spaces else f"{len(layout.features)} features"
        verdict = f"valid {layout.game} layout with {counted}"
    return layout, problems, verdict, not bad


@cli.command("kit")
@click.argument("game", type=click.Choice([*GAMES.names(), "all"]), metavar="GAME|all")
@paper_option()
@click.option(
    "--style",
    type=click.Choice(palette_names()),
    default="color",
    show_default=True,
    help="color fills the spaces; ink-saver draws outlines only.",
)
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
@layout_file_options
def kit(
    game: str,
    paper: str,
    style: str,
    lang: str,
    bleed: str,
    output: str | None,
    layout_file: str | None,
    units: str,
    tolerance: float | None,
) -> int:
    """Print-and-play kits: each game's rule sheet and board in one PDF (GAME is cointable,
    coinage, mapgame, flick, or all)."""
    from coinprint.kit import PrintSettings, check_language, make_kit

    settings = PrintSettings.parse(paper=paper, style=style, bleed=bleed)
    single = output is not None and (output == "-" or output.lower().endswith(".pdf"))
    if game == "all" and single:
        raise click.BadParameter("kit all writes one PDF per game; give a folder", param_hint="-o")
    layout = None
    if layout_file:
        if game not in GAMES_READ:
            raise click.BadParameter(f"--layout prints one game's board: {', '.join(GAMES_READ)}", param_hint="GAME")
        layout, _, verdict, valid = checked_layout(layout_file, game, units, tolerance)
        if not valid:
            click.echo(f"{layout_file}: {verdict}")
            return 1
    folder = output if output is None or single else output.rstrip("/\\") + "/"
    names = GAMES.names() if game == "all" else (game,)
    for name in names:
        check_language(name, lang)
    written = 0
    with progress(len(names), "kits") as update:
        try:
            for name in names:
                path = make_kit(name, settings, lang, folder, layout=layout)
                written += 1
                if update:
                    update(1)
                click.echo(f"wrote {path}")
        except (KeyboardInterrupt, Interrupted) as stop:
            raise InterruptedRunError(f"interrupted: wrote {written} of {len(names)} kits", stop_code(stop)) from None
    return 0


@validate.command("layout")
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
    layout, problems, verdict, valid = checked_layout(path, game, units, tolerance)
    click.echo(f"{path}: {verdict}")
    summary_line = GAMES[layout.game].parts.summary_line if layout.game in GAMES else None
    if valid and summary_line is not None:
        click.echo(f"{path}: {summary_line(layout)}")
    if report_path:
        from coinprint.kit.custom import write_report

        click.echo(f"wrote {write_report(layout, problems, report_path, verdict)}")
    return 0 if valid else 1


def print_layout_file(
    game: str,
    path: str,
    units: str,
    tolerance: float | None,
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    copies: int | None = None,
) -> int:
    """``board GAME --layout FILE``: check the file, then print it like a built-in board
    (exit 1 with the check's report when it is invalid)."""
    from pathlib import Path

    from coinprint.kit import export_board, resolve_output
    from coinprint.kit.custom import board_sheet, printable

    layout, problems, verdict, valid = checked_layout(path, game, units, tolerance)
    if not valid:
        click.echo(f"{path}: {verdict}")
        return 1
    _, chosen = resolve_output(output, fmt, f"{game}-{Path(path).stem}")
    sheet = board_sheet(layout, settings, copies=copies, for_pdf=chosen == "pdf")
    for written in export_board(printable(layout), sheet, settings, output, fmt, f"{game}-{Path(path).stem}"):
        click.echo(f"wrote {written}")
    return 0


@validate.command("game")
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
    from coinprint.analysis import validate_record

    record, rules, replayed = validate_record(path)
    click.echo(f"{path}: {replayed.report()}")
    if show:
        click.echo(rules.describe(replayed.state))
    if svg_path:
        from coinprint.kit import write_position_svg

        written = write_position_svg(rules, replayed.state, svg_path)
        click.echo(f"wrote {written}")
    return 0 if replayed.valid else 1
