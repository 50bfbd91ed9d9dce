"""Command-line wiring for Coin Age: ``board coinage``, ``rules coinage``, ``play coinage``."""

from __future__ import annotations

import click

from coinprint.boards.coinage import MAP_NAMES
from coinprint.cli import board, play, rules
from coinprint.cli.common import (
    bleed_option,
    copies_option,
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

_MAPS = list(MAP_NAMES)


@board.command("coinage")
@click.option(
    "--map",
    "map_name",
    type=click.Choice(_MAPS),
    default="classic",
    show_default=True,
    help="A built-in map, or random (with --regions and --seed).",
)
@click.option(
    "--regions",
    default=None,
    metavar="SIZES",
    help="Random maps: region sizes, e.g. 3,3,2,2 (6 to 20 spaces in all; default 4,3,2,1).",
)
@seed_option(None, "Random maps: the seed (same seed, same map; default 0).")
@click.option(
    "--card",
    default=None,
    metavar="a6|poker|credit|WxH",
    help="Card size (default: A6, larger for more than 10 spaces, so a quarter fits every space).",
)
@copies_option()
@click.option(
    "--fair",
    is_flag=True,
    help="Random maps: self-play --candidates maps from --seed on and print the one whose first player "
    "wins closest to 50 % (the figure is printed on the card).",
)
@candidates_option()
@fair_search_options
@paper_option()
@print_options
@bleed_option
@output_options()
@layout_file_options
def board_coinage(
    map_name,
    regions,
    seed,
    card,
    copies,
    fair,
    candidates,
    fair_games,
    agent,
    paper,
    style,
    margin,
    overlap,
    bleed,
    output,
    fmt,
    layout_file,
    units,
    tolerance,
) -> int:
    """A Coin Age map card: PDF pages of cards with cut lines, one card as SVG, or GeoJSON."""
    from coinprint.boards.coinage import build, check
    from coinprint.cli.common import print_layout_file
    from coinprint.kit import PrintSettings, export_board, resolve_output
    from coinprint.render.coinage import board_sheet

    if layout_file:
        settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style, bleed=bleed)
        return print_layout_file("coinage", layout_file, units, tolerance, settings, output, fmt, copies)

    layout = build(map_name, regions=regions, seed=seed if seed is not None or map_name != "random" else 0, card=card)
    fair_line = None
    if fair:
        from coinprint.metrics import fairest_map

        if map_name != "random":
            raise click.BadParameter("--fair needs --map random", param_hint="--fair")
        layout, fair_line = fairest_map(layout, candidates, agent=agent, fair_games=fair_games)
        click.echo(fair_line)
    if map_name == "random":
        click.echo(f"seed {layout.meta['seed']}")
    for problem in check(layout):
        if problem.severity == "warning":
            click.echo(str(problem), err=True)
    settings = PrintSettings.parse(paper=paper, margin=margin, overlap=overlap, style=style, bleed=bleed)
    _, chosen = resolve_output(output, fmt, "coinage-card")
    pdf = chosen == "pdf"
    sheet = board_sheet(
        layout,
        settings.style,
        paper=settings.paper if pdf else None,
        margin=settings.margin_mm,
        copies=copies,
        bleed=settings.bleed_mm,
    )
    name = f"coinage-{map_name}" + (
        f"-{layout.params['regions']}-{layout.meta['seed']}" if map_name == "random" else ""
    )
    for path in export_board(layout, sheet, settings, output, fmt, name, [fair_line] if fair_line else []):
        click.echo(f"wrote {path}")
    return 0


@rules.command("coinage")
@lang_option
@paper_option()
@rules_output_option
def rules_coinage(lang, paper, output) -> None:
    """The Coin Age rule sheet as a PDF (set-up, turn table, scoring example, our readings)."""
    from coinprint.kit import write_rules
    from coinprint.units import paper_size

    click.echo(f"wrote {write_rules('coinage', paper_size(paper), lang, output)}")


@play.command("coinage")
@click.option(
    "--map", "map_name", type=click.Choice(_MAPS), default="classic", show_default=True, help="The map to play on."
)
@click.option("--regions", default=None, metavar="SIZES", help="Random maps: region sizes, e.g. 4,3,2,1.")
@seed_option(None, "Random maps: the map's seed (default 0).", name="--map-seed")
@layout_option(
    None,
    "Play on this map instead: coinprint GeoJSON, an SVG drawing or GeoJSON from QGIS.",
    name="layout_file",
    metavar="FILE",
)
@games_option(10, "How many games to play.")
@seed_option(1, "Seed of the first game (game i uses seed + i).")
@click.option("--heads", default="random", show_default=True, help="Agent for heads: random, greedy or montecarlo.")
@click.option("--tails", default="greedy", show_default=True, help="Agent for tails: random, greedy or montecarlo.")
@max_turns_option(200, "Turns before a game counts as a timeout.")
@records_folder_option("coinage")
@html_option
@selfplay_options
def play_coinage(
    map_name, regions, map_seed, layout_file, games, seed, heads, tails, max_turns, output, html, workers, dask
) -> None:
    """Let two agents play Coin Age and write one validating record per game."""
    from coinprint.analysis import play_to_folder
    from coinprint.boards.coinage import build, layout_name

    spec = layout_file or layout_name(
        build(map_name, regions=regions, seed=map_seed if map_seed is not None or map_name != "random" else 0)
    )
    with progress(games, "games") as update:
        paths, summary = play_to_folder(
            spec,
            {"heads": heads, "tails": tails},
            games,
            seed,
            max_turns,
            output,
            game="coinage",
            workers=workers,
            dask=dask,
            progress=update,
        )
    click.echo(f"layout {spec}")
    click.echo(summary.describe())
    click.echo(f"wrote {len(paths)} records to {output}")
    echo_replay_pages(html, paths, output)
