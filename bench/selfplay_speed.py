"""Self-play speed: Monte Carlo games on the fast play-out paths, and games over processes.

Prints:
- the play-out paths alone: random play-outs a second (CPU, best of 3 passes) from the same
  positions on the fast path and on the reference engine, and the ratio;
- one ``montecarlo`` game (today's defaults: 1,000 play-outs a move, at least 2 a legal move, to the end)
  on the classic Coin Age map and on the default 21-country Map: mean seconds a game over
  ``--games`` seeds, on the fast path and (``--reference``) on the reference engine's play-outs,
  both as wall time and as CPU time of this process;
- ``balance coinage --agent montecarlo`` over ``--balance-games`` games with ``--workers 1``
  and ``--workers 2`` (wall seconds, the speed-up, and whether the two reports agree).

Run from the repository root: ``python bench/selfplay_speed.py [--games N] [--balance-games N] [--reference]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout: the repository root goes first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import functools
import random
import time

from coinprint.analysis import balance, builtin_layout
from coinprint.registry import GAMES
from coinprint.search import MonteCarloAgent, Search, play_game
from coinprint.selfplay import RunPlan
from coinprint.source import engines_for

LAYOUTS = ("coinage:map=classic", "mapgame:countries=21,seed=0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="Monte Carlo games timed per map (default 20)")
    parser.add_argument("--balance-games", type=int, default=200, help="games for the balance timing (default 200)")
    parser.add_argument("--reference", action="store_true", help="also time the reference play-outs (slow)")
    args = parser.parse_args()

    for spec in LAYOUTS:
        search = engines_for(builtin_layout(spec)).search
        fast_rate = _playout_rate(search, search.playout_total)
        reference_rate = _playout_rate(search, functools.partial(Search.playout_total, search))
        print(
            f"play-outs on {spec}: fast path {fast_rate:,.0f}/s, reference {reference_rate:,.0f}/s "
            f"(CPU): {fast_rate / reference_rate:.1f}x"
        )

    for spec in LAYOUTS:
        search = engines_for(builtin_layout(spec)).search
        wall, cpu = _montecarlo_games(search, args.games)
        print(f"montecarlo game on {spec}: {wall:.3f} s wall, {cpu:.3f} s CPU (mean of {args.games} games, fast path)")
        if args.reference:
            fast = type(search).playout_total
            type(search).playout_total = Search.playout_total  # type: ignore[method-assign]
            try:
                wall_ref, cpu_ref = _montecarlo_games(search, args.games)
            finally:
                type(search).playout_total = fast  # type: ignore[method-assign]
            print(
                f"montecarlo game on {spec}: {wall_ref:.3f} s wall, {cpu_ref:.3f} s CPU (reference play-outs); "
                f"fast path {cpu_ref / cpu:.1f}x faster (CPU)"
            )

    timings, reports = {}, {}
    for workers in (1, 2):
        start = time.perf_counter()
        reports[workers] = balance(
            GAMES["coinage"], "coinage", "montecarlo", RunPlan(args.balance_games, 1, 2000, workers)
        )
        timings[workers] = time.perf_counter() - start
        print(
            f"balance coinage --agent montecarlo --games {args.balance_games} --workers {workers}: {timings[workers]:.1f} s"
        )
    same = reports[1].summary == reports[2].summary
    print(f"--workers 2 vs --workers 1: {timings[1] / timings[2]:.2f}x faster; same report: {same}")


def _playout_rate(search: Search, playout_total, positions: int = 60, per_move: int = 20, passes: int = 3) -> float:
    """Play-outs a second (CPU) from positions a few random moves into games, four legal moves
    each, the Monte Carlo agent's depth (60): the best of ``passes`` timed passes (other work
    on the machine only ever slows a pass down)."""
    rules = search.rules
    rng = random.Random(5)
    starts = []
    for index in range(positions):
        state = rules.initial_state()
        for _ in range(index % 12):
            if rules.is_over(state):
                break
            rules.begin_turn(state, rng)
            rules.apply_unchecked(state, search.random_move(state, rng))
        if not rules.is_over(state):
            rules.begin_turn(state, rng)
            starts.append(state)
    tries = [(state, move) for state in starts for move in rules.legal_moves(state)[:4]]
    # One untimed pass first: a fast path builds its tables by bitmask once per map, as the
    # first moves of a game do.
    for state, move in tries:
        playout_total(state, move, rules.to_move(state), rng, 60, 1)
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        for state, move in tries:
            playout_total(state, move, rules.to_move(state), rng, 60, per_move)
        best = min(best, time.process_time() - start)
    return per_move * len(tries) / best


def _montecarlo_games(search: Search, games: int) -> tuple[float, float]:
    wall = cpu = 0.0
    for seed in range(1, games + 1):
        agents = {player: MonteCarloAgent() for player in search.rules.players}
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        play_game(search, agents, random.Random(seed), 2000)
        wall += time.perf_counter() - start_wall
        cpu += time.process_time() - start_cpu
    return wall / games, cpu / games


if __name__ == "__main__":
    main()
