"""Command-line wiring for Flick: ``board flick`` and ``rules flick``.

There is no ``play flick``: Flick is a dexterity game, and agents choosing table events at
random would only produce penalties. Recorded games are checked by ``validate game``.
"""

from __future__ import annotations

import click

from coinprint.cli import board, rules
from coinprint.cli.common import lang_option, output_options, paper_option, print_options
from coinprint.cli.options import appendix_option, rules_output_option


@board.command("flick")
@click.option(
    "--sides", default=4, show_default=True, type=int, help="Corners of the goal: 3 (triangle) to 8 (octagon)."
)
@click.option(
    "--width",
    default="15cm",
    show_default=True,
    metavar="LENGTH",
    help="Length of each side of the goal, goal-coin centre to centre (e.g. 15cm, 6in).",
)
@click.option(
    "--goal-coin", default="dime", show_default=True, metavar="COIN", help="Coin at every corner of the goal."
)
@click.option("--score-coin", default="quarter", show_default=True, metavar="COIN", help="Coin each player flicks.")
@click.option("--coins", default=2, show_default=True, type=int, help="Score coins per player (2 to 12).")
@click.option(
    "--players",
    default=2,
    show_default=True,
    type=int,
    help="Players, one per side (2 up to --sides); more than 2 is a team game, Heads and Tails alternating.",
)
@paper_option()
@print_options
@output_options()
def board_flick(
    sides, width, goal_coin, score_coin, coins, players, paper, style, margin, overlap, output, fmt
) -> None:
    """The Flick mat at true size: the goal, its corner coins, each player's line and zone."""
    from coinprint.boards.flick import build
    from coinprint.kit import PrintSettings, export_board
    from coinprint.render.flick import mat_sheet

    layout = build(sides, width, goal_coin, score_coin, coins, players)
    settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style)
    for path in export_board(layout, mat_sheet(layout, settings.style), settings, output, fmt, "flick-mat"):
        click.echo(f"wrote {path}")


@rules.command("flick")
@paper_option()
@lang_option
@rules_output_option
@appendix_option
def rules_flick(paper, lang, output, appendix) -> None:
    """The Flick rule sheet (PDF): the rules in our words, penalties A–H, the examples drawn."""
    from coinprint.kit import write_rules
    from coinprint.units import paper_size

    click.echo(f"wrote {write_rules('flick', paper_size(paper), lang, output, appendix=appendix)}")
