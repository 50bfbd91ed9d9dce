"""How fast the Map's drawing phase is judged: an arc judged (checked and the new country
built) on the 21st country, the same arc as a pointer stroke (a point every 0.25 mm), and a whole map of 21 countries drawn by the random drawer (the
generator's proposals, each judged) — median, 95th percentile and worst over many seeds.

Run from the repository root:  python bench/map_drawing.py [--seeds 100]

Targets: an arc judged on the 21st country ≤ 20 ms (a live preview follows the pointer); the
computer's arc (greedy, the default seat) ≤ 1 s; a random whole map ≤ 0.5 s. Times are wall-clock.
Then the computer's arc at each of the studio's levels, over every arc of three whole drawings.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout: the repository root goes first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import statistics
import time

from coinprint.agents import make_agent
from coinprint.games.mapgame.arcs import DrawnMap, propose_arc
from coinprint.source import engines_for, resolve_layout


def computer_arcs(seeds: int, agent: str) -> list[float]:
    """Seconds ``agent`` takes to choose the arc of country 21 in a drawn game (the first 20
    countries drawn at random)."""
    return level_arcs(seeds, agent, first=21)


def level_arcs(seeds: int, agent: str, first: int = 2) -> list[float]:
    """Seconds ``agent`` takes to choose each arc from country ``first`` to 21 in drawn games
    (the countries before ``first`` drawn at random; each arc it chose is drawn)."""
    engines = engines_for(resolve_layout("mapgame:draw=1", game="mapgame"), {})
    rules = engines.rules
    times = []
    for seed in range(seeds):
        chooser = make_agent(agent, "X", engines.search.agents)
        rng = random.Random(seed)
        state = rules.initial_state()
        while len(state.drawn) < first - 1:
            rules.apply_unchecked(state, rng.choice(rules.legal_moves(state)))
        while rules.phase(state) == "draw":
            start = time.perf_counter()
            move = chooser.choose(engines.search, state, rng)
            times.append(time.perf_counter() - start)
            rules.apply_unchecked(state, move)
    return times


def figures(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{label}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, worst {ms[-1]:.1f} ms ({len(ms)} runs)"


def dense(arc: list[tuple[float, float]], spacing_mm: float = 0.25) -> list[tuple[float, float]]:
    """The arc with a point every ``spacing_mm``, as a pointer stroke would send it."""
    points = [arc[0]]
    for (x0, y0), (x1, y1) in zip(arc, arc[1:]):
        steps = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / spacing_mm))
        points += [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(1, steps + 1)]
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args()
    judged, stroke, whole = [], [], []
    for seed in range(args.seeds):
        rng = random.Random(seed)
        drawn = DrawnMap()
        start = time.perf_counter()
        while len(drawn) < 20:
            arc = propose_arc(drawn, rng)
            if arc is None or not drawn.draw(arc).accepted:
                break
        arc = propose_arc(drawn, rng)
        if arc is None:
            continue
        before = time.perf_counter()
        drawn.judge(dense(arc))
        stroke.append(time.perf_counter() - before)
        before = time.perf_counter()
        drawn.draw(arc)  # the 21st country: judged and built
        after = time.perf_counter()
        judged.append(after - before)
        whole.append(after - start)
    print(figures("arc judged, 21st country", judged))
    print(figures("stroke judged (a point every 0.25 mm), 21st country", stroke))
    print(
        figures(
            "the computer's arc (greedy, the default seat), 21st country", computer_arcs(min(args.seeds, 20), "greedy")
        )
    )
    print(figures("random whole map, 21 countries", whole))
    # The studio's levels, over every arc of whole drawings (the last arcs are the slowest:
    # only they are looked ahead from).
    for level in ("greedy", "lookahead", "montecarlo:playouts=400", "mcts:iterations=200", "mcts"):
        print(figures(f"the computer's arc at {level}, every country 2–21", level_arcs(3, level)))


if __name__ == "__main__":
    main()
