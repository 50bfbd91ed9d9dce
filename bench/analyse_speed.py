"""What a design report costs: per game, the time to self-play it (random against random) and
the time to replay it for the metrics (with and without listing the legal moves for the
branching figure); a skill game (montecarlo against random); and a fair-map search.

Run from the repository root: python bench/analyse_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.analysis import resolve_layout, self_play  # noqa: E402
from coinprint.fair import fair_search, search_plan  # noqa: E402
from coinprint.metrics import game_metrics, measure_skill  # noqa: E402
from coinprint.selfplay import RunPlan  # noqa: E402
from coinprint.source import engines_for  # noqa: E402

GAMES = 100
SKILL_GAMES = 2
LAYOUTS = ("cointable:size=5", "coinage:map=classic", "mapgame:countries=21,seed=0")


def main() -> None:
    print(f"{'layout':<30} {'moves':>6} {'play ms':>8} {'metrics ms':>11} {'no branching ms':>16}")
    for spec in LAYOUTS:
        engines = engines_for(resolve_layout(spec))
        agents = {p: "random" for p in engines.rules.players}
        start = time.perf_counter()
        games = list(self_play(spec, agents, GAMES, 1, 2000))
        played = time.perf_counter() - start
        timings = []
        for branching in (True, False):
            start = time.perf_counter()
            for record, outcome in games:
                game_metrics(engines, record, outcome, branching=branching)
            timings.append(time.perf_counter() - start)
        moves = sum(len(r.moves) for r, _ in games) / GAMES
        print(
            f"{spec:<30} {moves:>6.0f} {1000 * played / GAMES:>8.2f} "
            f"{1000 * timings[0] / GAMES:>11.2f} {1000 * timings[1] / GAMES:>16.2f}"
        )
    for spec in LAYOUTS:
        start = time.perf_counter()
        measure_skill(spec, RunPlan(SKILL_GAMES, 1, 2000))
        print(f"skill, {spec}: {(time.perf_counter() - start) / SKILL_GAMES:.1f} s a game")
    for base in ("mapgame:countries=21,seed=0", "coinage:map=random,regions=4-3-2-1,seed=0"):
        start = time.perf_counter()
        search = fair_search(base, 10, search_plan())
        played = sum(r.games for r in search.reports)
        print(f"fair search, 10 candidates like {base}: {time.perf_counter() - start:.1f} s, {played} games")
        print(f"  {search.best.layout}: {search.info_line()}")


if __name__ == "__main__":
    main()
