"""How long `coinprint kit all` takes (four PDFs), as a user runs it: a fresh process each
time, wall-clock. Also the time of each kit inside one warm process, and of its rule sheet.

    python bench/kit_speed.py [RUNS]

The target is 2 s wall on a 2-core machine for the whole command.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("cointable", "coinage", "mapgame", "flick")


def command_wall(runs: int, paper: str, *extra: str, game: str = "all") -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "coinprint", "kit", game, "--paper", paper, *extra, "-o", folder + "/"],
                check=True,
                capture_output=True,
                cwd=ROOT,
            )
            times.append(time.perf_counter() - start)
    return times


def warm_breakdown(paper: str) -> None:
    from coinprint import registry
    from coinprint.kit import PrintSettings, kit, rule_sheet_pages
    from coinprint.render.pdf import pages_to_pdf

    settings = PrintSettings.parse(paper=paper)
    for game in GAMES:  # warm up imports and caches
        kit(registry.GAMES[game], settings, "en")
    for game in GAMES:
        start = time.perf_counter()
        rule_sheet_pages(registry.GAMES[game], settings.paper, "en")
        sheet = time.perf_counter() - start
        start = time.perf_counter()
        pages = kit(registry.GAMES[game], settings, "en").pages
        built = time.perf_counter() - start
        start = time.perf_counter()
        pages_to_pdf(pages)
        written = time.perf_counter() - start
        print(
            f"  {game:10s} rule sheet {sheet * 1000:6.0f} ms   kit pages {built * 1000:6.0f} ms"
            f"   PDF {written * 1000:6.0f} ms   ({len(pages)} pages)"
        )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for paper in ("a4", "letter"):
        times = command_wall(runs, paper)
        print(
            f"coinprint kit all --paper {paper}: median {statistics.median(times):.2f} s, "
            f"best {min(times):.2f} s wall over {runs} runs"
        )
    times = command_wall(runs, "a4", "--lang", "sv")
    print(f"coinprint kit all --lang sv: median {statistics.median(times):.2f} s over {runs} runs")
    times = command_wall(runs, "a4", "--bleed", "3mm", game="coinage")
    print(f"coinprint kit coinage --bleed 3mm: median {statistics.median(times):.2f} s over {runs} runs")
    print("inside one warm process (A4):")
    warm_breakdown("a4")


if __name__ == "__main__":
    main()
