"""Coin Table engine speed on the standard board (side 5, 61 cells).

Prints three figures:
- replay: moves parsed, checked and applied per second (``core.replay`` over records);
- random self-play: moves per second and games per second (``core.play_game`` with two
  random agents, as ``coinprint play`` runs it, writing each move's notation);
- raw random play-outs: moves per second of legal-move generation + unchecked apply only.

Run from the repository root: ``python bench/cointable_engine.py [--games N]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout: the repository root goes first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time

from coinprint.analysis import builtin_layout
from coinprint.games.cointable import CoinTableRules
from coinprint.games.core import RandomAgent, play_game, replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="self-play games to time (default 200)")
    parser.add_argument("--size", type=int, default=5, help="board side (default 5)")
    args = parser.parse_args()

    rules = CoinTableRules(builtin_layout(f"cointable:size={args.size}"), {})
    agents = {"heads": RandomAgent(), "tails": RandomAgent()}

    start = time.perf_counter()
    outcomes = [play_game(rules, agents, random.Random(seed), 100_000) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    moves = sum(len(o.moves) for o in outcomes)
    print(f"board: side {args.size}, {rules.size} cells, {len(rules.triangles)} triangles")
    print(
        f"random self-play: {args.games} games, {moves} moves in {elapsed:.2f} s: "
        f"{moves / elapsed:,.0f} moves/s, {args.games / elapsed:,.1f} games/s "
        f"(mean {moves / args.games:.0f} moves a game)"
    )

    start = time.perf_counter()
    for outcome in outcomes:
        replayed = replay(rules, outcome.moves)
        assert replayed.valid, replayed.error
    elapsed = time.perf_counter() - start
    print(f"replay (parse + check + apply): {moves / elapsed:,.0f} moves/s")

    rng = random.Random(0)
    start = time.perf_counter()
    played = 0
    for _ in range(args.games):
        state = rules.initial_state()
        while True:
            legal = rules.legal_moves(state)
            if not legal:
                break
            rules.apply_unchecked(state, rng.choice(legal))
            played += 1
    elapsed = time.perf_counter() - start
    print(
        f"raw random play-outs (legal_moves + apply_unchecked): {played / elapsed:,.0f} moves/s, "
        f"{args.games / elapsed:,.1f} games/s"
    )


if __name__ == "__main__":
    main()
