"""Command-line wiring for ``coinprint ladder``: how strong the agents are, as Elo ratings."""

from __future__ import annotations

import click

from coinprint.cli.groups import examples
from coinprint.cli.options import (
    agent_option,
    games_option,
    json_target,
    layout_option,
    max_turns_option,
    note,
    progress,
    say,
    seed_option,
    selfplay_options,
)
from coinprint.cli.types import GameName
from coinprint.fileio import write_atomic
from coinprint.ladder import DEFAULT_LEVELS, check_levels
from coinprint.ladder import ladder as climb
from coinprint.registry import GAME_AGENTS, GAMES
from coinprint.selfplay import RunPlan


@click.command(
    "ladder",
    epilog=examples(
        "coinprint ladder coinage --games 40",
        "coinprint ladder cointable --level random --level greedy --level mcts:iterations=400",
    ),
)
@click.argument("game", type=GameName(simulated=True), metavar="GAME")
@layout_option(None, "Built-in layout with parameters (e.g. cointable:size=4), a GeoJSON file or an SVG drawing.")
@agent_option(
    "",
    "A rung of the ladder, weakest first; repeat for each (default: random, greedy, montecarlo, "
    "mcts:iterations=100, mcts:iterations=400, mcts:iterations=1600)",
    name="--level",
    multiple=True,
)
@games_option(20, "Games per match (each rung against the next), half with each moving first.")
@seed_option("Seed of the first game (match k uses seeds from seed + k × games).")
@max_turns_option(2000)
@click.option(
    "--json",
    "json_path",
    default=None,
    metavar="FILE",
    callback=json_target,
    help="Write the ratings and matches as JSON (- for standard output, which then carries the JSON alone).",
)
@selfplay_options
def ladder(
    game: str,
    layout: str | None,
    level: tuple[str, ...],
    games: int,
    seed: int,
    max_turns: int,
    json_path: str | None,
    workers: int | None,
    dask: str | None,
) -> None:
    """How strong the agents are: each rung plays the next one up, and the ladder reports Elo
    ratings against the first rung with 95 % intervals (GAME is any game agents can play)."""
    import json

    levels = check_levels(level or DEFAULT_LEVELS, GAME_AGENTS)
    with progress(games * (len(levels) - 1), "games") as update:
        found = climb(
            GAMES[game].default_spec if layout is None else layout,
            RunPlan(games, seed, max_turns, workers, dask),
            levels,
            game=game,
            note=lambda text: click.echo(text, err=True),
            progress=update,
        )
    click.echo(found.describe())
    if json_path is not None:
        text = json.dumps(found.to_json(), indent=2) + "\n"
        say(f"wrote {write_atomic(json_path, text)}")
    note(f"seed {seed}")
