"""How long the Map generator takes, and how dense its maps are, for packed and sprawling growth:
median, 95th percentile and worst over 200 seeds, for 21 and for 201 countries, with the share
of maps the layout checker passes.

Run from the repository root:  python bench/mapgame_generate.py [--seeds 200] [--check]

Targets (packed growth): 21 countries median ≤ 15 ms and worst ≤ 60 ms; 201 countries median
≤ 1.5 s; every map valid. Times are wall-clock and, beside them, the process's CPU time (the
better figure on a busy machine). Density is measured on the finished map's adjacency graph:
mean number of earlier countries a country borders when drawn (countries 3…N), borders, dead
ends, maps with a country that borders 4 earlier ones, solidity (area / convex hull area).
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

from coinprint.games.mapgame import board as mapgame
from coinprint.games.mapgame.check import check as check_map
from coinprint.games.mapgame.grow import GrowthStats


def density(layout) -> tuple[float, int, int, bool, float]:
    """(mean earlier neighbours of countries 3…N, borders, dead ends, has a 4, solidity)."""
    graph = layout.graph
    order = {space.id: space.order for space in layout.spaces}
    earlier = {node: sum(1 for other in graph[node] if order[other] < order[node]) for node in graph}
    drawn = [count for node, count in earlier.items() if order[node] >= 3]
    found = mapgame.summary(layout)
    dead = sum(1 for node in graph if graph.degree(node) == 1)
    return statistics.mean(drawn), found.borders, dead, 4 in earlier.values(), found.solidity


def measure(countries: int, seeds: int, growth: str, check: bool) -> None:
    walls, cpus, valid, rows = [], [], 0, []
    stats = GrowthStats()
    for seed in range(seeds):
        wall, cpu = time.perf_counter(), time.process_time()
        layout = mapgame.build(countries, seed, stats=stats, growth=growth)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        if not check or not check_map(layout):
            valid += 1
        rows.append(density(layout))

    def figures(times: list[float]) -> str:
        times = sorted(times)
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        return f"median {statistics.median(times) * 1000:7.1f} ms, p95 {p95 * 1000:7.1f}, worst {times[-1] * 1000:7.1f}"

    print(
        f"{growth:9s} {countries:4d} countries, {seeds} seeds: {'valid' if check else 'made'} {valid}/{seeds}; "
        f"arcs tried per map {stats.arcs_tried / seeds:.0f}, backtracks {stats.backtracks}"
    )
    print(f"          wall {figures(walls)}")
    print(f"          cpu  {figures(cpus)}")
    print(
        f"          earlier neighbours {statistics.mean(r[0] for r in rows):.2f}, "
        f"borders {statistics.mean(r[1] for r in rows):.1f}, dead ends {statistics.mean(r[2] for r in rows):.2f}, "
        f"a country with 4 in {100.0 * sum(r[3] for r in rows) / seeds:.0f} % of maps, "
        f"solidity {statistics.mean(r[4] for r in rows):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--check", action="store_true", help="also check every map with the layout checker")
    parser.add_argument("--countries", type=int, nargs="*", default=[21, 201])
    parser.add_argument("--growth", nargs="*", default=list(mapgame.GROWTHS), choices=mapgame.GROWTHS)
    args = parser.parse_args()
    mapgame.build(21, 0)  # warm up: imports and first-use costs are not generation time
    for countries in args.countries:
        for growth in args.growth:
            measure(countries, args.seeds, growth, args.check)


if __name__ == "__main__":
    main()
