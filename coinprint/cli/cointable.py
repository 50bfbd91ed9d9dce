"""Command-line wiring for Coin Table: ``board cointable``."""

from __future__ import annotations

import click

from coinprint.cli import board
from coinprint.cli.common import output_options, paper_option, print_options


@board.command("cointable")
@click.option("--size", default=5, show_default=True, type=int, help="Hexes along each side of the board (2 to 13).")
@click.option("--hex", "hex_size", default="1.25in", show_default=True, metavar="LENGTH", help="Size of one hex (e.g. 1.25in, 32mm).")
@click.option("--measure", type=click.Choice(["flat-to-flat", "corner-to-corner"]), default="flat-to-flat",
              show_default=True, help="How --hex is measured across a hex.")
@click.option("--orientation", type=click.Choice(["pointy", "flat"]), default="pointy", show_default=True,
              help="pointy: rows of hexes run left to right; flat: the board turned a quarter turn.")
@click.option("--coin", default="penny", show_default=True, help="Coin whose faint outline guides each hex ('none' for no guide).")
@paper_option()
@print_options
@output_options()
def board_cointable(size, hex_size, measure, orientation, coin, paper, style, margin, overlap, output, fmt) -> None:
    """The Coin Table board: a hexagon of hexes at true size (default 61 hexes, 1.25 in)."""
    from coinprint.boards.cointable import build
    from coinprint.kit import PrintSettings, export_board
    from coinprint.render.cointable import board_sheet

    layout = build(size, hex_size, measure, orientation, None if coin.lower() == "none" else coin)
    settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style)
    for path in export_board(layout, board_sheet(layout, settings.style), settings, output, fmt, "cointable-board"):
        click.echo(f"wrote {path}")
