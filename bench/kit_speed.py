"""How long `coinprint kit all` (four PDFs) and `coinprint --help` take, as a user runs them:
a fresh process each time, in CPU seconds (user + system, from the operating system's
accounting of the finished child, so other work on a busy machine does not count) and
wall-clock. Also the time of each kit inside one warm process, and of its rule sheet.

    python bench/kit_speed.py [RUNS]

The targets: `kit all` at most 1 CPU s, `--help` at most 0.15 CPU s.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("cointable", "coinage", "mapgame", "flick")


def child_cpu() -> float:
    """CPU seconds used so far by the finished children of this process."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(runs: int, *args: str) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of ``coinprint ARGS`` in a fresh process, ``runs`` times."""
    cpu, wall = [], []
    for _ in range(runs):
        before, start = child_cpu(), time.perf_counter()
        subprocess.run([sys.executable, "-m", "coinprint", *args], check=True, capture_output=True, cwd=ROOT)
        wall.append(time.perf_counter() - start)
        cpu.append(child_cpu() - before)
    return cpu, wall


def report(what: str, cpu: list[float], wall: list[float]) -> None:
    print(
        f"{what}: median {statistics.median(cpu):.2f} CPU s (best {min(cpu):.2f}), "
        f"median {statistics.median(wall):.2f} s wall over {len(cpu)} runs"
    )


def typesettings(game: object, settings: object) -> int:
    """How many times one kit sets its rule sheet on pages (the target: once)."""
    import coinprint.render.document as document
    from coinprint.kit.kit import kit

    real, calls = document.layout_document, []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    document.layout_document = counted  # type: ignore[assignment]
    try:
        kit(game, settings, "en")  # type: ignore[arg-type]
    finally:
        document.layout_document = real
    return len(calls)


def warm_breakdown(paper: str) -> None:
    from coinprint import registry
    from coinprint.kit.kit import kit
    from coinprint.kit.rulesheet import rule_sheet_pages
    from coinprint.printing import PrintSettings
    from coinprint.render.pdf import pages_to_pdf
    from coinprint.units import paper_size

    settings = PrintSettings.checked(paper_size(paper))
    for game in GAMES:  # warm up imports and caches
        kit(registry.GAMES[game], settings, "en")
    for game in GAMES:
        start = time.process_time()
        rule_sheet_pages(registry.GAMES[game], settings.paper, "en")
        sheet = time.process_time() - start
        start = time.process_time()
        pages = kit(registry.GAMES[game], settings, "en").pages
        built = time.process_time() - start
        start = time.process_time()
        pages_to_pdf(pages)
        written = time.process_time() - start
        print(
            f"  {game:10s} rule sheet {sheet * 1000:6.0f} ms   kit pages {built * 1000:6.0f} ms"
            f"   PDF {written * 1000:6.0f} ms   ({len(pages)} pages, CPU; rule sheet set "
            f"{typesettings(registry.GAMES[game], settings)} times)"
        )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    report("coinprint --help", *timed(runs, "--help"))
    with tempfile.TemporaryDirectory() as folder:
        for paper in ("a4", "letter"):
            report(f"coinprint kit all --paper {paper}", *timed(runs, "kit", "all", "--paper", paper, "-o", folder))
        report("coinprint kit all --lang sv", *timed(runs, "kit", "all", "--lang", "sv", "-o", folder))
        report("coinprint kit coinage --bleed 3mm", *timed(runs, "kit", "coinage", "--bleed", "3mm", "-o", folder))
    print("inside one warm process (A4):")
    warm_breakdown("a4")


if __name__ == "__main__":
    main()
