"""How strong the agents are: mcts at its default budget against greedy on the three agent
games, and the ladder's Elo ratings (random, greedy, montecarlo, mcts at rising budgets).

Each match plays half its games with each agent moving first (seeds 1, 2, …, or from
--seed: results vary between blocks of seeds, so pool a few before trusting a rate), in pairs
that meet the same throws (``coinprint.ladder.match``); the figures
are win rates with 95 % Wilson intervals and Elo differences with 95 % intervals
(:mod:`coinprint.ladder`). Runs take minutes: keep --games small on a shared machine.

Run from the repository root:
    python bench/agent_strength.py [--games 20] [--seed 1] [--ladder-games 10] [--workers 2] [--game mapgame]
        [--agent mcts:mix=0.5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.ladder import DEFAULT_LEVELS, ladder, match  # noqa: E402
from coinprint.registry import GAMES  # noqa: E402
from coinprint.selfplay import RunPlan  # noqa: E402

AGENT_GAMES = ("cointable", "coinage", "mapgame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of mcts against greedy per game")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed of mcts against greedy")
    parser.add_argument("--ladder-games", type=int, default=10, help="games per ladder match (0: no ladder)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", choices=AGENT_GAMES, help="only these games (repeat)")
    parser.add_argument("--level", action="append", help="ladder rungs, weakest first (default: the ladder's)")
    parser.add_argument(
        "--agent", default="mcts", help="the agent matched against greedy (default: mcts at its defaults)"
    )
    args = parser.parse_args()
    for game in args.game or AGENT_GAMES:
        spec = GAMES[game].default_spec
        start = time.perf_counter()
        played = match(spec, args.agent, "greedy", RunPlan(args.games, args.seed, 2000, args.workers))
        share = played.win_share()
        seconds = time.perf_counter() - start
        print(
            f"{spec}: {args.agent} v greedy {played.wins}-{played.losses} (ties {played.ties}, timeouts {played.timeouts}): "
            f"{args.agent} won {share.value:.0%} of decided games [{share.low:.0%}–{share.high:.0%}], "
            f"{played.elo().describe()}; pairs ({args.agent} took 0, 1/2, 1, 3/2, 2 points) {list(played.pairs)}, "
            f"as many as {played.effective_games():.0f} independent games; "
            f"{seconds / args.games:.1f} s a game on {args.workers} workers",
            flush=True,
        )
        if args.ladder_games:
            start = time.perf_counter()
            found = ladder(spec, RunPlan(args.ladder_games, 1001, 2000, args.workers), args.level or DEFAULT_LEVELS)
            print(found.describe())
            print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
