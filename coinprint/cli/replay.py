"""Command-line wiring for ``replay``: a recorded game as a page to watch in a browser, or
as a time-lapse to share (GIF, WebP, APNG or MP4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from coinprint.cli.groups import examples
from coinprint.cli.options import file_output, say
from coinprint.errors import UsageError
from coinprint.playback.page import write_replay
from coinprint.playback.timelapse import FORMATS, SUFFIXES, TimelapseOptions, timelapse_output, write_timelapse

_LAPSE_OPTIONS = ("width", "fps", "hold", "loop", "start", "end")


@click.command(
    "replay",
    epilog=examples(
        "coinprint replay output/mapgame-games/mapgame-1.json",
        "coinprint replay game.json -o game.html",
        "coinprint replay game.json -o game.gif --width 480 --fps 4",
        "coinprint replay game.json -o game.mp4 --from 10 --to 40 --hold 5",
    ),
)
@click.argument("path", metavar="RECORD.json")
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    metavar="PATH",
    callback=file_output,
    help="The page (.html) or time-lapse (.gif, .webp, .apng, .mp4) to write, '-' for standard output, "
    "or a folder for RECORD.html (default: output/).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("html", *FORMATS)),
    default=None,
    help="What to write when -o does not say (a folder, '-'): the page, or a time-lapse.",
)
@click.option(
    "--width", type=click.IntRange(1, None), default=720, show_default=True, help="Time-lapse width in pixels."
)
@click.option("--fps", type=float, default=2.0, show_default=True, help="Time-lapse frames (moves) a second.")
@click.option("--hold", type=float, default=3.0, show_default=True, help="Seconds the last frame is held.")
@click.option(
    "--loop",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="Times a GIF, WebP or APNG plays (0: for ever).",
)
@click.option(
    "--from",
    "start",
    type=click.IntRange(0, None),
    default=0,
    show_default=True,
    help="Start at the position after this move (0: the start, with a Map being drawn).",
)
@click.option(
    "--to", "end", type=click.IntRange(0, None), default=None, help="End after this move (default: the last)."
)
def replay(path: str, output: str | None, fmt: str | None, **lapse: Any) -> int:
    """Write a replay page: one self-contained HTML file that steps through a recorded game
    (or a Flick event log) move by move; or, with -o game.gif (.webp, .apng, .mp4), a
    time-lapse of it to share. An invalid record replays up to its first illegal move (exit 1)."""

    ctx = click.get_current_context()
    given = [name for name in _LAPSE_OPTIONS if ctx.get_parameter_source(name) not in _NOT_GIVEN]
    suffix = Path(output).suffix.lower() if output else ""
    if fmt == "html" or (fmt is None and suffix not in SUFFIXES):
        if given:
            flags = ", ".join("--" + {"start": "from", "end": "to"}.get(n, n) for n in given)
            raise UsageError(
                f"{flags} {'is' if len(given) == 1 else 'are'} for time-lapses; write one with -o NAME.gif (or .webp, .apng, .mp4)"
            )
        written, page = write_replay(path, output)
        click.echo(f"{path}: {page.report}")
        say(f"wrote {written}")
        return 0 if page.valid else 1
    target, chosen = timelapse_output(path, output, fmt)
    options = TimelapseOptions(
        chosen, lapse["width"], lapse["fps"], lapse["hold"], lapse["loop"], lapse["start"], lapse["end"]
    )
    written, made = write_timelapse(path, target, options)
    click.echo(f"{path}: {made.report}")
    say(f"wrote {written} ({made.frames} frames, {made.size[0]}×{made.size[1]} px, {len(made.data):,} bytes)")
    return 0 if made.valid else 1


_NOT_GIVEN = (click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP, None)
