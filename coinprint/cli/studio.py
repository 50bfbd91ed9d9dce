"""``coinprint studio``: the local web application (print, maps, check a drawing, play,
replay). The web stack is imported only when the command runs, so ``coinprint --help`` stays
fast and the command line works without the ``studio`` extra."""

from __future__ import annotations

from pathlib import Path

import click

from coinprint.cli.groups import examples
from coinprint.cli.types import GameName
from coinprint.errors import UsageError


@click.command(
    "studio",
    epilog=examples(
        "coinprint studio",
        "coinprint studio --no-browser --port 0",
        "coinprint studio --watch my-card.svg --game coinage",
    ),
)
@click.option(
    "--port",
    default=8770,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port on 127.0.0.1 (0: any free one).",
)
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
@click.option(
    "--watch",
    "watch",
    multiple=True,
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="A drawing (SVG or GeoJSON) to re-check whenever it is saved; may be given more than once.",
)
@click.option("--game", default=None, type=GameName(drawn=True), help="The game the watched SVG drawings are for.")
def studio(port: int, no_browser: bool, watch: tuple[str, ...], game: str | None) -> None:
    """Open coinprint studio in the browser: print kits, make maps, check a drawing as you
    draw it, play the computer. Runs on 127.0.0.1 until Ctrl-C; the address printed first
    carries the token every request needs."""
    try:
        from coinprint.studio.server import bind, make_studio, serve
    except ImportError as exc:
        raise UsageError(f"the studio needs its web stack ({exc.name}): pip install 'coinprint[studio]'") from None

    missing = [path for path in watch if not Path(path).is_file()]
    if missing:
        raise UsageError(f"--watch {missing[0]}: no such file (name a drawing that exists; save it once first)")
    sock = bind(port)
    serve(make_studio(watch, game), sock, open_browser=not no_browser, say=click.echo)
