"""Command-line wiring for ``coinprint questions``: a game's design questions answered by play."""

from __future__ import annotations

import click

from coinprint.cli.groups import examples
from coinprint.cli.options import (
    games_option,
    json_target,
    max_turns_option,
    note,
    progress,
    say,
    seed_option,
    selfplay_options,
)
from coinprint.cli.types import GameName
from coinprint.fileio import write_atomic
from coinprint.questions import Plan, answer, of_game, report
from coinprint.registry import GAMES


@click.command(
    "questions",
    epilog=examples(
        "coinprint questions flick",
        "coinprint questions flick --games 40 --sweep-games 0 --json answers.json",
    ),
)
@click.argument("game", type=GameName(simulated=True), metavar="GAME")
@games_option(100, "Paired games an arm plays at the default physics (every arm plays the same seeds).")
@click.option(
    "--sweep-games",
    default=40,
    show_default=True,
    type=int,
    help="Paired games an arm plays at each corner of the physics' ranges (0: no sweep).",
)
@seed_option("Seed of the first game of every arm.")
@max_turns_option(200)
@click.option(
    "--json",
    "json_path",
    default=None,
    metavar="FILE",
    callback=json_target,
    help="Write the answers as JSON (- for standard output, which then carries the JSON alone).",
)
@selfplay_options
def questions(
    game: str,
    games: int,
    sweep_games: int,
    seed: int,
    max_turns: int,
    json_path: str | None,
    workers: int | None,
    dask: str | None,
) -> None:
    """A game's design questions answered by play: each a comparison of ways to play over
    paired games with 95 % intervals, swept over the physics' ranges (GAME is a game that asks
    some: flick).

    Each question's arms (the game with one thing changed) play the same seeds; every arm is
    compared with the first game by game, then played again at the corners of the physics'
    ranges to see whether each conclusion holds."""
    import json

    asked, sweep = of_game(GAMES[game])
    plan = Plan(games, sweep_games, seed, max_turns, workers, dask)
    arms = sum(len(q.arms) for q in asked)
    total = arms * (games + (sweep_games * len(sweep.corners) if sweep_games else 0))
    with progress(total, "games") as update:
        found = answer(asked, sweep, plan, update)
    if json_path != "-":
        click.echo("\n".join(report(found, plan)))
    if json_path is not None:
        doc = {"game": game, "plan": plan.__dict__, "answers": [a.to_json() for a in found]}
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        say(f"wrote {write_atomic(json_path, text)}")
    note(f"seed {seed}")
