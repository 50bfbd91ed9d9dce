"""Command-line wiring for ``replay``: a recorded game as a page to watch in a browser."""

from __future__ import annotations

import click

from coinprint.cli.groups import cli
from coinprint.cli.options import examples, file_output, say
from coinprint.kit.replay import write_replay


@cli.command(
    "replay",
    epilog=examples("coinprint replay output/mapgame-games/mapgame-1.json", "coinprint replay game.json -o game.html"),
)
@click.argument("path", metavar="RECORD.json")
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    metavar="PATH",
    callback=file_output,
    help="The page to write (.html, or '-' for standard output), or a folder for RECORD.html (default: output/).",
)
def replay(path: str, output: str | None) -> int:
    """Write a replay page: one self-contained HTML file that steps through a recorded game
    (or a Flick event log) move by move. An invalid record replays up to its first illegal
    move (exit 1)."""

    written, page = write_replay(path, output)
    click.echo(f"{path}: {page.report}")
    say(f"wrote {written}")
    return 0 if page.valid else 1
