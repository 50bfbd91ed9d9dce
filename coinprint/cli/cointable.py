"""Command-line wiring for Coin Table: ``board cointable``, ``rules cointable`` and ``play cointable``."""

from __future__ import annotations

import click

from coinprint.cli import board, play, rules
from coinprint.cli.common import (
    games_option,
    lang_option,
    layout_file_options,
    layout_option,
    max_turns_option,
    output_options,
    paper_option,
    print_options,
    seed_option,
    supply_option,
)
from coinprint.cli.options import appendix_option, progress, records_folder_option, selfplay_options
from coinprint.cli.replay import echo_replay_pages, html_option

MAX_TURNS = 2000
"""Default move limit for self-play: random games take about 330 moves on the standard board,
but two agents can touch back and forth for ever."""


@board.command("cointable")
@click.option("--size", default=5, show_default=True, type=int, help="Hexes along each side of the board (2 to 13).")
@click.option(
    "--hex",
    "hex_size",
    default="1.25in",
    show_default=True,
    metavar="LENGTH",
    help="Size of one hex (e.g. 1.25in, 32mm).",
)
@click.option(
    "--measure",
    type=click.Choice(["flat-to-flat", "corner-to-corner"]),
    default="flat-to-flat",
    show_default=True,
    help="How --hex is measured across a hex.",
)
@click.option(
    "--orientation",
    type=click.Choice(["pointy", "flat"]),
    default="pointy",
    show_default=True,
    help="pointy: rows of hexes run left to right; flat: the board turned a quarter turn.",
)
@click.option(
    "--coin", default="penny", show_default=True, help="Coin whose faint outline guides each hex ('none' for no guide)."
)
@paper_option()
@print_options
@output_options()
@layout_file_options
def board_cointable(
    size,
    hex_size,
    measure,
    orientation,
    coin,
    paper,
    style,
    margin,
    overlap,
    output,
    fmt,
    layout_file,
    units,
    tolerance,
) -> int:
    """The Coin Table board: a hexagon of hexes at true size (default 61 hexes, 1.25 in)."""
    from coinprint.boards.cointable import build
    from coinprint.cli.common import print_layout_file
    from coinprint.kit import PrintSettings, export_board
    from coinprint.render.cointable import board_sheet

    settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style)
    if layout_file:
        return print_layout_file("cointable", layout_file, units, tolerance, settings, output, fmt)
    layout = build(size, hex_size, measure, orientation, None if coin.lower() == "none" else coin)
    for path in export_board(layout, board_sheet(layout, settings.style), settings, output, fmt, "cointable-board"):
        click.echo(f"wrote {path}")
    return 0


@play.command("cointable")
@click.option("--size", default=5, show_default=True, type=int, help="Hexes along each side of the board (2 to 13).")
@click.option(
    "--heads",
    "heads_agent",
    default="random",
    show_default=True,
    metavar="AGENT",
    help="Agent playing heads (moves first): random, greedy or montecarlo.",
)
@click.option(
    "--tails",
    "tails_agent",
    default="random",
    show_default=True,
    metavar="AGENT",
    help="Agent playing tails: random, greedy or montecarlo.",
)
@games_option(10, "How many games to play.")
@seed_option(1, "Seed of the first game; game i uses seed + i.")
@max_turns_option(MAX_TURNS, "Cut a game after this many moves; it counts as a timeout, never a win.")
@supply_option()
@layout_option(
    None,
    "Play on this board instead of --size: coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS.",
    name="layout_file",
    metavar="FILE",
)
@records_folder_option("cointable")
@html_option
@selfplay_options
def play_cointable(
    size, heads_agent, tails_agent, games, seed, max_turns, supply, layout_file, output, html, workers, dask
) -> None:
    """Let two agents play Coin Table; write one record per game and print a summary."""
    from coinprint.analysis import play_to_folder

    with progress(games, "games") as update:
        paths, summary = play_to_folder(
            layout_file or f"cointable:size={size}",
            {"heads": heads_agent, "tails": tails_agent},
            games,
            seed,
            max_turns,
            output,
            {"supply": supply},
            game="cointable",
            workers=workers,
            dask=dask,
            progress=update,
        )
    board = layout_file or f"size {size}"
    click.echo(f"seed {seed}: {games} games of Coin Table ({board}), heads {heads_agent} v tails {tails_agent}")
    click.echo(f"wrote {len(paths)} records to {output}")
    click.echo(summary.describe())
    echo_replay_pages(html, paths, output)


@rules.command("cointable")
@paper_option()
@lang_option
@click.option("--size", default=5, show_default=True, type=int, help="Board side the sheet describes (2 to 13).")
@supply_option("Coins in the shared supply, as the sheet states it.")
@output_options(("pdf",))
@appendix_option
def rules_cointable(paper, lang, size, supply, output, fmt, appendix) -> None:
    """The Coin Table rule sheet (PDF): the rules, two example positions, the move notation."""
    from coinprint.boards.cointable import MAX_SIDE, MIN_SIDE
    from coinprint.errors import UsageError
    from coinprint.kit import write_rules
    from coinprint.units import paper_size

    if not MIN_SIDE <= size <= MAX_SIDE:
        raise UsageError(f"board size {size} is out of range; use a side from {MIN_SIDE} to {MAX_SIDE} hexes")
    path = write_rules("cointable", paper_size(paper), lang, output, fmt, appendix=appendix, supply=supply, side=size)
    click.echo(f"wrote {path}")
