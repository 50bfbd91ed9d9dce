"""Options shared by many commands, and the validate commands that serve every game."""

from __future__ import annotations

from collections.abc import Callable

import click

from coinprint import GAMES
from coinprint.cli import cli, validate
from coinprint.cli.options import progress
from coinprint.errors import InterruptedRunError

FORMATS = ("pdf", "svg", "geojson")


def paper_option(default: str = "a4") -> Callable:
    return click.option(
        "--paper",
        default=default,
        show_default=True,
        metavar="NAME|WxH",
        help="Paper: a5, a4, a3, letter, legal, tabloid, or WxH with a unit (e.g. 300x400mm).",
    )


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
        type=click.Choice(["color", "ink-saver"]),
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
            help="Output file, or a folder for the default file name (default: output/).",
        )(func)
        return func

    return decorate


@cli.command("kit")
@click.argument("game", type=click.Choice([*GAMES, "all"]), metavar="GAME|all")
@paper_option()
@click.option(
    "--style",
    type=click.Choice(["color", "ink-saver"]),
    default="color",
    show_default=True,
    help="color fills the spaces; ink-saver draws outlines only.",
)
@click.option(
    "--lang",
    default="en",
    show_default=True,
    metavar="CODE",
    help="Language of the rule sheets (English where a game has no sheet in it).",
)
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    metavar="FOLDER",
    help="Folder for the kits (default: output/); a .pdf file name for a single game.",
)
def kit(game: str, paper: str, style: str, lang: str, output: str | None) -> None:
    """Print-and-play kits: each game's rule sheet and board in one PDF (GAME is cointable,
    coinage, mapgame, flick, or all)."""
    from coinprint.kit import PrintSettings, make_kit

    settings = PrintSettings.parse(paper=paper, style=style)
    if game == "all" and output is not None and output.lower().endswith(".pdf"):
        raise click.BadParameter("kit all writes one PDF per game; give a folder", param_hint="-o")
    folder = output if output is None or output.lower().endswith(".pdf") else output.rstrip("/\\") + "/"
    names = list(GAMES) if game == "all" else [game]
    written = 0
    with progress(len(names), "kits") as update:
        try:
            for name in names:
                path, used = make_kit(name, settings, lang, folder)
                note = f" (no {lang} rule sheet; English)" if used != lang else ""
                written += 1
                if update:
                    update(1)
                click.echo(f"wrote {path}{note}")
        except KeyboardInterrupt:
            raise InterruptedRunError(f"interrupted: wrote {written} of {len(names)} kits") from None


@validate.command("layout")
@click.argument("path", metavar="FILE.geojson")
def validate_layout(path: str) -> int:
    """Check a layout: report every problem with its feature id (exit 1) or say it is valid."""
    from coinprint.analysis import check_layout
    from coinprint.boards.checks import errors
    from coinprint.layout import load

    layout = load(path)
    problems = check_layout(layout)
    for problem in problems:
        click.echo(f"{path}: {problem}")
    bad = errors(problems)
    if bad:
        click.echo(f"{path}: invalid {layout.game} layout: {len(bad)} problem(s)")
        return 1
    counted = f"{len(layout)} spaces" if layout.spaces else f"{len(layout.features)} features"
    click.echo(f"{path}: valid {layout.game} layout with {counted}")
    return 0


@validate.command("game")
@click.argument("path", metavar="RECORD.json")
@click.option("--show", is_flag=True, help="Print the final position as a text diagram.")
@click.option("--svg", "svg_path", default=None, metavar="PATH", help="Draw the final position as an SVG.")
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
