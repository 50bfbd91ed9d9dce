"""Command-line wiring for the Map game: ``board mapgame``, ``rules mapgame``, ``play mapgame``."""

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
)
from coinprint.cli.options import (
    candidates_option,
    fair_search_options,
    progress,
    records_folder_option,
    rules_output_option,
    selfplay_options,
)
from coinprint.cli.replay import echo_replay_pages, html_option


@board.command("mapgame")
@click.option(
    "--countries", default=21, show_default=True, type=int, help="Countries on the map: an odd number from 3 to 401."
)
@seed_option(0, "Seed of the map; the same seed gives the same map.")
@click.option(
    "--max-neighbours",
    default=4,
    show_default=True,
    type=int,
    help="Most countries a new country may border when drawn.",
)
@click.option(
    "--coin",
    default="penny/nickel",
    show_default=True,
    metavar="NAME[/NAME]",
    help="O's coin and X's coin (one name for both); the larger must fit every country.",
)
@click.option(
    "--growth",
    type=click.Choice(["packed", "sprawling"]),
    default="packed",
    show_default=True,
    help="packed wraps each arc along the map (more borders, no bays); sprawling is 0.1.0's look.",
)
@click.option(
    "--blank", is_flag=True, help="Print the blank sheet instead: the circle and the rules, to draw your own map."
)
@click.option(
    "--fair",
    is_flag=True,
    help="Self-play --candidates maps from --seed on and print the one whose first player wins closest "
    "to 50 % (the figure is printed on the map).",
)
@candidates_option()
@fair_search_options
@paper_option()
@print_options
@output_options()
@layout_file_options
def board_mapgame(
    countries,
    seed,
    max_neighbours,
    coin,
    growth,
    blank,
    fair,
    candidates,
    fair_games,
    agent,
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
    """A fresh valid Map at true size (or --blank: the sheet for drawing one by hand)."""
    from coinprint.boards.mapgame import blank_layout, build, parse_coins, summary
    from coinprint.cli.common import print_layout_file
    from coinprint.kit import PrintSettings, export_board
    from coinprint.render.mapgame import blank_sheet, map_sheet

    settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style)
    if layout_file:
        return print_layout_file("mapgame", layout_file, units, tolerance, settings, output, fmt)
    coins = parse_coins(coin)
    fair_line = None
    if blank:
        layout = blank_layout(coins)
        sheet, name = blank_sheet(layout), "mapgame-blank"
    else:
        layout = build(countries, seed, max_neighbours, coins, growth=growth)
        if fair:
            from coinprint.metrics import fairest_map

            layout, fair_line = fairest_map(layout, candidates, agent=agent, fair_games=fair_games)
            seed = layout.meta["seed"]
            click.echo(fair_line)
        click.echo(f"seed {seed}, {growth}: {summary(layout).describe()}")
        sheet, name = map_sheet(layout, settings.style), f"mapgame-{countries}-seed{seed}"
    notes = [fair_line] if fair_line else []
    for path in export_board(layout, sheet, settings, output, fmt, name, notes):
        click.echo(f"wrote {path}")
    return 0


@rules.command("mapgame")
@paper_option()
@lang_option
@rules_output_option
def rules_mapgame(paper, lang, output) -> None:
    """The Map rule sheet (PDF): the rules, the notation, an example, then the blank sheet."""
    from coinprint.kit import write_rules
    from coinprint.units import paper_size

    click.echo(f"wrote {write_rules('mapgame', paper_size(paper), lang, output)}")


@play.command("mapgame")
@games_option(10)
@seed_option(0, "Seed of the first game (game i uses seed+i).")
@layout_option(
    "mapgame:countries=21,seed=0,growth=packed,starts=apart",
    "The map: a built-in name (mapgame:countries=21,seed=3,growth=packed; without growth the name "
    "means the sprawling map), a GeoJSON file or an SVG drawing.",
    metavar="NAME|FILE",
    name="layout_spec",
)
@click.option(
    "--o-agent", "agent_o", default="greedy", show_default=True, help="Agent for O: random, greedy, montecarlo."
)
@click.option(
    "--x-agent", "agent_x", default="random", show_default=True, help="Agent for X: random, greedy, montecarlo."
)
@max_turns_option(400, "Moves after which a game is a timeout (not scored).")
@records_folder_option("mapgame")
@html_option
@selfplay_options
def play_mapgame(games, seed, layout_spec, agent_o, agent_x, max_turns, output, html, workers, dask) -> None:
    """Let agents play the Map chase and write one record per game."""
    from coinprint.analysis import play_to_folder

    with progress(games, "games") as update:
        paths, summary = play_to_folder(
            layout_spec,
            {"O": agent_o, "X": agent_x},
            games,
            seed,
            max_turns,
            output,
            game="mapgame",
            workers=workers,
            dask=dask,
            progress=update,
        )
    click.echo(f"wrote {len(paths)} records to {output}")
    click.echo(summary.describe())
    echo_replay_pages(html, paths, output)
