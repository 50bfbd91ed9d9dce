"""Coin Age self-play figures: games per second and turns per second for random and greedy
agents on the classic map, and how many distinct turns a throw allows (the size of
legal_moves).

Run from the repository root: python bench/coinage_selfplay.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.agents import AGENTS  # noqa: E402
from coinprint.games.coinage.board import build  # noqa: E402
from coinprint.games.coinage.rules import CoinAgeRules  # noqa: E402
from coinprint.games.coinage.search import CoinAgeSearch  # noqa: E402
from coinprint.search import play_game  # noqa: E402

GAMES = 100


def main() -> None:
    rules = CoinAgeRules(build("classic"), {})
    search = CoinAgeSearch(rules)
    for heads, tails in (("random", "random"), ("greedy", "random"), ("greedy", "greedy")):
        start = time.perf_counter()
        turns = 0
        wins = {"heads": 0, "tails": 0, None: 0}
        for seed in range(GAMES):
            outcome = play_game(search, {"heads": AGENTS[heads](), "tails": AGENTS[tails]()}, random.Random(seed), 300)
            turns += len(outcome.moves)
            wins[outcome.result.winner] += 1
        seconds = time.perf_counter() - start
        print(
            f"{heads:6s} vs {tails:6s}: {GAMES / seconds:6.1f} games/s, {turns / seconds:7.0f} turns/s, "
            f"{turns / GAMES:4.1f} turns/game; heads {wins['heads']}, tails {wins['tails']}, ties {wins[None]}"
        )
    sizes = []
    rng = random.Random(1)
    for _ in range(30):
        state = rules.initial_state()
        while not rules.is_over(state):
            rules.begin_turn(state, rng)
            moves = rules.legal_moves(state)
            sizes.append(len(moves))
            rules.apply_unchecked(state, rng.choice(moves))
    print(f"legal turns per throw: median {statistics.median(sizes):.0f}, max {max(sizes)} over {len(sizes)} turns")


if __name__ == "__main__":
    main()
