"""Flick figures: building mats, the mat to PDF and SVG, the rule sheet to PDF, and how fast
the referee replays event logs.

Run from the repository root: python bench/flick_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(runs: int, work) -> float:
    """Median wall seconds of ``work`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def random_log(rules, rng: random.Random, length: int) -> list:
    """A log of ``length`` possible events at most (it stops where the game ends)."""
    state = rules.initial_state()
    log = []
    for _ in range(length):
        events = rules.legal_moves(state)
        if not events:
            break
        event = rng.choice(events)
        log.append(rules.move_text(state, event))
        rules.apply(state, event)
    return log


def main() -> None:
    from coinprint.engine import replay
    from coinprint.games.flick.board import build
    from coinprint.games.flick.draw import mat_sheet
    from coinprint.games.flick.rules import FlickRules
    from coinprint.kit.rulesheet import rule_sheet_pages
    from coinprint.registry import GAMES
    from coinprint.render.pdf import pages_to_pdf
    from coinprint.render.sheet import single_sheet
    from coinprint.render.svg import scene_to_svg
    from coinprint.render.tiling import paginate
    from coinprint.units import paper_size

    print(f"build the standard mat:          {timed(20, build) * 1000:7.1f} ms")
    print(f"build an 8-sided mat, 8 players: {timed(20, lambda: build(8, '20cm', players=8)) * 1000:7.1f} ms")
    layout = build()
    a4 = paper_size("a4")
    print(
        f"standard mat to PDF:             {timed(5, lambda: pages_to_pdf(paginate(mat_sheet(layout), a4))) * 1000:7.1f} ms"
    )
    print(
        f"standard mat to SVG:             {timed(5, lambda: scene_to_svg(single_sheet(mat_sheet(layout)))) * 1000:7.1f} ms"
    )
    print(
        f"rule sheet to PDF:               {timed(3, lambda: pages_to_pdf(rule_sheet_pages(GAMES['flick'], a4, 'en'))) * 1000:7.1f} ms"
    )

    # A long game without penalties: shots that enter over the shooter's line, knock-outs.
    rules = FlickRules(build(coins=12), {})
    state = rules.initial_state()
    log = []
    rng = random.Random(1)
    while not rules.is_over(state) and len(log) < 100_000:
        player = rules.to_move(state)
        face = rules.face_of(player)
        mine = [c for c, f in state.faces.items() if f == face and not state.in_goal[c]]
        coin = rng.choice(mine)
        shot = [{"shot": player, "coin": coin}]
        if rng.random() < 0.8:
            shot.append({"enter": coin, "edge": player})
            inside = [c for c, i in state.in_goal.items() if i and c != coin]
            if inside and rng.random() < 0.4:
                shot.append({"leave": rng.choice(inside)})
        shot.append({"stop": True})
        for event in shot:
            rules.apply(state, rules.parse_move(state, event))
        log += shot
    seconds = timed(5, lambda: replay(rules, log))
    print(f"replay a {len(log)}-event game:       {seconds * 1000:7.1f} ms ({len(log) / seconds:,.0f} events/s)")
    logs = [random_log(FlickRules(build(), {}), random.Random(seed), 60) for seed in range(200)]
    seconds = timed(3, lambda: [replay(FlickRules(build(), {}), log) for log in logs])
    print(f"replay 200 random logs (mat built per log): {seconds * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
