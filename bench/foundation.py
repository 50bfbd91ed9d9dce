"""Foundation figures: building the standard Coin Table board, writing its PDF and SVG,
the SVG's size, and the wall time of `coinprint --help` and of a whole board-to-PDF run.

Run from the repository root: python bench/foundation.py
Targets: --help under 0.15 s; the standard board to PDF under 1 s, start-up included.
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


def best_of(runs: int, work) -> tuple[float, float]:
    """(median, best) wall seconds of ``work`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def command(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "coinprint", *args], check=True, cwd=ROOT, capture_output=True)


def main() -> None:
    from coinprint.games.cointable.board import build
    from coinprint.games.cointable.draw import board_sheet
    from coinprint.printing import PrintSettings
    from coinprint.render.pdf import pages_to_pdf
    from coinprint.render.sheet import single_sheet
    from coinprint.render.svg import scene_to_svg
    from coinprint.render.tiling import paginate
    from coinprint.units import paper_size

    build()  # warm the imports once
    settings = PrintSettings.checked(paper_size("a4"))
    med, best = best_of(20, lambda: build().graph)
    print(f"build standard board + adjacency graph: median {med * 1000:.1f} ms (best {best * 1000:.1f} ms)")
    layout = build()
    med, best = best_of(10, lambda: pages_to_pdf(paginate(board_sheet(layout), settings.paper)))
    print(f"draw + tile + write PDF (A4, 2 pages):  median {med * 1000:.1f} ms (best {best * 1000:.1f} ms)")
    svg = scene_to_svg(single_sheet(board_sheet(layout)))
    med, best = best_of(10, lambda: scene_to_svg(single_sheet(board_sheet(layout))))
    print(f"draw + write SVG:                       median {med * 1000:.1f} ms (best {best * 1000:.1f} ms)")
    print(f"SVG size:                               {len(svg) / 1024:.1f} KiB")
    med, best = best_of(15, lambda: command("--help"))
    print(
        f"`coinprint --help` wall:                median {med * 1000:.0f} ms (best {best * 1000:.0f} ms; target < 150 ms)"
    )
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "board.pdf")
        med, best = best_of(5, lambda: command("board", "cointable", "--paper", "a4", "-o", out))
        size = Path(out).stat().st_size
    print(
        f"`coinprint board cointable` to PDF wall: median {med * 1000:.0f} ms (best {best * 1000:.0f} ms; target < 1000 ms)"
    )
    print(f"PDF size:                               {size / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
