"""How long the Map generator takes: median, 95th percentile and worst over 200 seeds, for
21 and for 201 countries, with the share of maps that came out valid.

Run from the repository root:  python bench/mapgame_generate.py [--seeds 200] [--check]

Targets: median under 10 ms for 21 countries with 100 % success; 201 countries under 3 s.
--check also runs the layout checker on every map (slower; not part of the timing).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout: the repository root goes first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import statistics
import time

from coinprint.boards import mapgame


def measure(countries: int, seeds: int, check: bool) -> None:
    times, valid = [], 0
    stats = mapgame.GrowthStats()
    for seed in range(seeds):
        start = time.perf_counter()
        layout = mapgame.build(countries, seed, stats=stats)
        times.append(time.perf_counter() - start)
        if not check or not mapgame.check(layout):
            valid += 1
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(
        f"{countries:4d} countries, {seeds} seeds: median {statistics.median(times) * 1000:8.1f} ms, "
        f"p95 {p95 * 1000:8.1f} ms, worst {times[-1] * 1000:8.1f} ms; "
        f"{'valid' if check else 'made'} {valid}/{seeds} ({100.0 * valid / seeds:.0f} %); "
        f"arcs tried per map {stats.arcs_tried / seeds:.0f}, backtracks {stats.backtracks}"
    )
    top = sorted(stats.rejections.items(), key=lambda kv: -kv[1])
    print("      rejected arcs: " + ", ".join(f"{why} {count}" for why, count in top))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="also check every map with the layout checker")
    parser.add_argument("--countries", type=int, nargs="*", default=[21, 201])
    args = parser.parse_args()
    mapgame.build(21, 0)  # warm up: imports and first-use costs are not generation time
    for countries in args.countries:
        measure(countries, args.seeds, args.check)


if __name__ == "__main__":
    main()
