"""Command-line wiring for ``coinprint analyse``: the design report from self-play."""

from __future__ import annotations

import click

from coinprint.cli.groups import examples
from coinprint.cli.options import (
    agent_option,
    drawing_options,
    games_option,
    json_target,
    maps_option,
    max_turns_option,
    note,
    say,
    seed_option,
    selfplay_options,
    skill_games_option,
    until_decided_options,
)
from coinprint.cli.types import GameName
from coinprint.families import analyse_game
from coinprint.fileio import write_atomic
from coinprint.registry import GAMES
from coinprint.report import check_report_path, table, to_json, write_report
from coinprint.selfplay import RunPlan
from coinprint.sprt import cap_warning


def _report_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--report: a file whose suffix names a report format, checked before any game."""

    if value is not None:
        check_report_path(value, "--report")
    return value


@click.command(
    "analyse",
    epilog=examples(
        "coinprint analyse cointable --games 100",
        "coinprint analyse mapgame --maps 10 --report maps.pdf",
        "coinprint analyse coinage --layout card.svg --json figures.json",
    ),
)
@click.argument("game", type=GameName(simulated=True), metavar="GAME")
@click.option(
    "--layout",
    default=None,
    metavar="SPEC|FILE",
    help="Built-in layout with parameters (e.g. cointable:size=4) or a layout file (GeoJSON, SVG drawing); with --maps, the "
    "parameters every generated map shares (e.g. coinage:regions=3-3-2-2).",
)
@maps_option(
    "Analyse N maps generated from seeds --map-seed, +1, … (GAME's maps must be generated) and rank them fairest first."
)
@seed_option("Seed of the first generated map.", name="--map-seed")
@agent_option("random", "Agent playing both sides")
@games_option(200, "Games per layout.")
@seed_option("Seed of the first game (game i uses seed + i).")
@max_turns_option(2000)
@skill_games_option(
    "Games of montecarlo against random per layout, half in each seating (default 10; 0 with --maps). "
    "Montecarlo is slow on big boards: the standard Coin Table board takes about half a minute a game."
)
@until_decided_options
@click.option(
    "--json",
    "json_path",
    default=None,
    metavar="FILE",
    callback=json_target,
    help="Write every figure as JSON (- for standard output, which then carries the JSON alone).",
)
@click.option(
    "--details",
    default=3,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="N",
    help="--report: a length histogram and a heat map for the first N layouts (the fairest, with --maps).",
)
@click.option(
    "--report",
    "report_path",
    default=None,
    metavar="FILE",
    callback=_report_target,
    help="Write the charts: FILE.html, FILE.pdf or FILE.svg.",
)
@selfplay_options
@drawing_options(with_game=False)
def analyse(
    game: str,
    layout: str | None,
    maps: int | None,
    map_seed: int,
    agent: str,
    games: int,
    seed: int,
    max_turns: int,
    skill_games: int | None,
    until_decided: bool,
    precision: float,
    json_path: str | None,
    details: int,
    report_path: str | None,
    workers: int | None,
    dask: str | None,
    units: str,
    tolerance: float | None,
) -> None:
    """A design report from self-play: first-player share, ties and timeouts, game length,
    lead changes, decisiveness, branching, coverage and skill against luck, with 95 %
    intervals (GAME is any game agents can play). `balance` is the short form."""

    warning = cap_warning(games, precision) if until_decided else None
    if warning:
        click.echo(warning, err=True)
    reports = analyse_game(
        GAMES[game],
        layout,
        RunPlan(games, seed, max_turns, workers, dask),
        maps=maps,
        map_seed=map_seed,
        agent=agent,
        skill_games=skill_games,
        until_decided=until_decided,
        precision=precision,
        note=lambda text: click.echo(text, err=True),
        units=units,
        tolerance_mm=tolerance,
    )
    click.echo(table(reports))
    if json_path is not None:
        settings = {"game": game, "agent": agent, "games": games, "seed": seed, "max_turns": max_turns}
        settings["until_decided"] = until_decided
        if until_decided:
            settings["precision"] = precision
        settings |= {"maps": maps, "map_seed": map_seed} if maps is not None else {"layout": layout or game}
        say(f"wrote {write_atomic(json_path, to_json(reports, settings))}")
    if report_path is not None:
        written = write_report(reports, report_path, details=details, units=units, tolerance_mm=tolerance)
        say(f"wrote {written}")
    note(f"seed {seed}" + (f", maps from seed {map_seed}" if maps is not None else ""))
