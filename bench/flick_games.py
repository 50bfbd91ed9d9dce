"""Flick played by the computer: the CPU time of a random-v-random game (target ≤ 50 ms) and of
one decision of the aiming player at its default (target ≤ 0.5 s), on the standard mat at the
default skill.

    python bench/flick_games.py [GAMES]

Prints the median and the slowest of GAMES games (default 40), the mean number of shots a game,
and the median and slowest aiming decision over the positions of those games."""

from __future__ import annotations

import random
import statistics
import sys
import time

from coinprint.agents import make_agent
from coinprint.games.flick.board import build
from coinprint.games.flick.rules import FlickRules
from coinprint.games.flick.search import FlickSearch
from coinprint.search import play_game


def main(games: int = 40) -> None:
    rules = FlickRules(build(), {})
    search = FlickSearch(rules)
    times, shots = [], []
    for seed in range(games):
        agents = {"heads": make_agent("random"), "tails": make_agent("random")}
        start = time.process_time()
        outcome = play_game(search, agents, random.Random(seed), 200)
        times.append(time.process_time() - start)
        shots.append(sum(1 for m in outcome.moves if "shot" in m))
    print(
        f"random v random: median {statistics.median(times) * 1000:.1f} ms a game, slowest "
        f"{max(times) * 1000:.1f} ms; {statistics.mean(shots):.1f} shots a game (target ≤ 50 ms)"
    )
    aim = make_agent("aim")
    decisions = []
    for seed in range(min(games, 10)):
        rng = random.Random(seed)
        state = rules.initial_state()
        for _ in range(4):
            if rules.is_over(state):
                break
            start = time.process_time()
            move = aim.choose(search, state, rng)
            decisions.append(time.process_time() - start)
            for step in search.execute(state, move, rng):
                rules.apply_unchecked(state, step)
    print(
        f"aim (repeats 8): median {statistics.median(decisions) * 1000:.0f} ms a shot, slowest "
        f"{max(decisions) * 1000:.0f} ms over {len(decisions)} decisions (target ≤ 0.5 s)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
