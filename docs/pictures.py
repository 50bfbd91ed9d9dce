"""Regenerate the pictures the README shows (run from the repository root):

    python docs/pictures.py

Every picture is made by coinprint itself, so the README shows what users get.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def coinprint(*args: str) -> None:
    from coinprint.cli import main

    try:
        main(list(args))
    except SystemExit as done:
        if done.code:
            raise


def kit_first_pages(images: str) -> None:
    """The first page of each game's A4 kit (its rule sheet) as an SVG: the same page scene
    the PDF is drawn from."""
    from coinprint import registry
    from coinprint.fileio import write_atomic
    from coinprint.kit.kit import kit
    from coinprint.printing import PrintSettings
    from coinprint.render.svg import scene_to_svg
    from coinprint.units import paper_size

    settings = PrintSettings.checked(paper_size("a4"))
    for game in ("cointable", "coinage", "mapgame", "flick"):
        pages = kit(registry.GAMES[game], settings, "en").pages
        write_atomic(Path(images) / f"{game}-rules.svg", scene_to_svg(pages[0]))


def coinprint_checking(*args: str) -> None:
    """Run a check whose verdict may be "invalid" (exit 1): the picture is the point."""
    from coinprint.cli import main

    try:
        main(list(args))
    except SystemExit as done:
        if done.code not in (0, 1, None):
            raise


def main(images: str = "docs/images") -> None:
    """Write every README picture into ``images``."""
    kit_first_pages(images)
    coinprint_checking(
        "validate",
        "layout",
        "examples/coinage-card-mistakes.svg",
        "--game",
        "coinage",
        "--report",
        f"{images}/report-mistakes.svg",
    )
    coinprint("board", "coinage", "--layout", "examples/coinage-card.svg", "-o", f"{images}/coinage-drawn.svg")
    coinprint("board", "cointable", "-o", f"{images}/cointable-board.svg")
    coinprint("board", "coinage", "--map", "classic", "-o", f"{images}/coinage-classic.svg")
    coinprint(
        "board",
        "coinage",
        "--map",
        "random",
        "--regions",
        "3,3,2,2",
        "--seed",
        "5",
        "-o",
        f"{images}/coinage-random.svg",
    )
    coinprint("board", "mapgame", "--seed", "3", "-o", f"{images}/mapgame-3.svg")
    coinprint("board", "mapgame", "--seed", "3", "--growth", "sprawling", "-o", f"{images}/mapgame-3-sprawling.svg")
    coinprint("board", "flick", "-o", f"{images}/flick-mat.svg")
    coinprint(
        "analyse",
        "mapgame",
        "--maps",
        "6",
        "--games",
        "100",
        "--details",
        "1",
        "--seed",
        "1",
        "--map-seed",
        "0",
        "--report",
        f"{images}/analyse-mapgame.svg",
    )
    with tempfile.TemporaryDirectory() as games:
        coinprint(
            "play",
            "cointable",
            "--size",
            "4",
            "--heads",
            "greedy",
            "--tails",
            "greedy",
            "--games",
            "1",
            "--seed",
            "7",
            "-o",
            games,
        )
        coinprint("validate", "game", f"{games}/cointable-7.json", "--svg", f"{images}/cointable-position.svg")


if __name__ == "__main__":
    main()
