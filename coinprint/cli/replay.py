"""Command-line wiring for ``replay``: a recorded game as a page to watch in a browser."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from coinprint.cli.groups import cli
from coinprint.cli.options import file_output
from coinprint.kit.replay import write_replay, write_replays


@cli.command("replay")
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
    click.echo(f"wrote {written}")
    return 0 if page.valid else 1


html_option = click.option(
    "--html",
    "html",
    is_flag=True,
    help="Also write a replay page per game (NAME.html beside NAME.json) and an index.html listing them.",
)
"""``play … --html``: the option every play command takes."""


def echo_replay_pages(html: bool, paths: Sequence[Path], folder: str) -> None:
    """Write the replay pages of ``play … --html`` (when asked) and say where."""
    if html:
        click.echo(f"wrote {len(paths)} replay pages; open {write_replays(paths, folder)}")
