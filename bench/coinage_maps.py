"""Coin Age map figures: time to build each built-in map and random maps of several sizes
(median and worst over many seeds), and to write a card as PDF.

Run from the repository root: python bench/coinage_maps.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.games.coinage import board as coinage  # noqa: E402

SEEDS = 40
REGION_LISTS = ["4,3,2,1", "3,3,2,2", "2,2,2", "5,4,3,2,1", "5,5,5,5"]


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    coinage.build("classic")  # warm up the imports
    for name in coinage.BUILTIN_MAPS:
        print(f"built-in {name:10s}: {timed(lambda name=name: coinage.build(name)) * 1000:7.1f} ms")
    for regions in REGION_LISTS:
        times = [timed(lambda s=seed, r=regions: coinage.build("random", regions=r, seed=s)) for seed in range(SEEDS)]
        print(
            f"random {regions:10s} ({sum(map(int, regions.split(','))):2d} spaces): median {statistics.median(times) * 1000:6.1f} ms, "
            f"worst {max(times) * 1000:6.1f} ms over {SEEDS} seeds"
        )
    from coinprint.games.coinage.draw import board_sheet
    from coinprint.render.pdf import pages_to_pdf
    from coinprint.render.tiling import paginate
    from coinprint.units import paper_size

    layout = coinage.build("classic")
    seconds = timed(lambda: pages_to_pdf(paginate(board_sheet(layout, paper=paper_size("a4")), paper_size("a4"))))
    print(f"classic cards to an A4 PDF: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
