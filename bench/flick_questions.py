"""How long Flick's five design questions take at their default sizes (100 paired games an arm,
40 at each of the four corners of the physics' sweep), on the workers given (default 2).

    python bench/flick_questions.py [WORKERS] [GAMES] [SWEEP_GAMES]

Prints the wall time, the games played and the games a second. The target (issue 43) is at most
10 minutes on 2 cores."""

from __future__ import annotations

import sys
import time

from coinprint.games.flick.questions import questions, sweep
from coinprint.questions import Plan, answer


def main(workers: int = 2, games: int = 100, sweep_games: int = 40) -> None:
    asked, corners = questions(), sweep()
    plan = Plan(games, sweep_games, 1, 200, workers)
    started = time.perf_counter()
    answer(asked, corners, plan)
    spent = time.perf_counter() - started
    played = sum(len(q.arms) for q in asked) * (games + sweep_games * len(corners.corners))
    print(f"{played:,} games in {spent / 60:.1f} min on {workers} workers ({played / spent:.1f} games a second)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
